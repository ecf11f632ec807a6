#!/usr/bin/env python3
"""One version for every package: Cargo.toml's.

    python3 scripts/release/versions.py check [--tag vX.Y.Z]   exit 1 when a manifest differs
    python3 scripts/release/versions.py sync                   write Cargo.toml's version into them

The manifests: the npm launcher (its version and every @skill-lsp/cli-* optional dependency),
the VS Code extension (package.json and package-lock.json), and pyproject.toml, which must
leave the version to maturin (`dynamic = ["version"]`, read from Cargo.toml). With --tag, the
release tag must be `v` + the version too (the release workflow passes its tag).
"""

import json
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAUNCHER = ROOT / "npm" / "skill-lsp" / "package.json"
VSCODE = ROOT / "editors" / "vscode" / "package.json"
VSCODE_LOCK = ROOT / "editors" / "vscode" / "package-lock.json"
PYPROJECT = ROOT / "pyproject.toml"


def cargo_version() -> str:
    return tomllib.loads((ROOT / "Cargo.toml").read_text())["package"]["version"]


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def versions_in_manifests() -> list[tuple[str, str]]:
    """(where, the version it says) for each place that states one."""
    places = []
    launcher = load(LAUNCHER)
    places.append((f"{LAUNCHER.relative_to(ROOT)} version", launcher["version"]))
    for name, spec in sorted(launcher.get("optionalDependencies", {}).items()):
        places.append((f"{LAUNCHER.relative_to(ROOT)} optionalDependencies {name}", spec))
    places.append((f"{VSCODE.relative_to(ROOT)} version", load(VSCODE)["version"]))
    lock = load(VSCODE_LOCK)
    places.append((f"{VSCODE_LOCK.relative_to(ROOT)} version", lock["version"]))
    places.append((f'{VSCODE_LOCK.relative_to(ROOT)} packages[""] version', lock["packages"][""]["version"]))
    return places


def check(tag: str | None) -> int:
    want = cargo_version()
    problems = [f"{where} is {got}, Cargo.toml says {want}" for where, got in versions_in_manifests() if got != want]
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    if "version" in project or "version" not in project.get("dynamic", []):
        problems.append('pyproject.toml must not pin a version: dynamic = ["version"] lets maturin take Cargo.toml\'s')
    if tag is not None and tag != f"v{want}":
        problems.append(f"the tag {tag} is not v{want}")
    for problem in problems:
        print(f"versions: {problem}", file=sys.stderr)
    if problems:
        print("versions: run `python3 scripts/release/versions.py sync` after changing Cargo.toml's version", file=sys.stderr)
        return 1
    print(f"versions: every package is at {want}")
    return 0


def rewrite(path: Path, pattern: str, version: str, count: int) -> None:
    """Replaces the version in the lines matching pattern, keeping the file's own formatting."""
    text, n = re.subn(pattern, lambda m: m.group(1) + version + m.group(3), path.read_text(), count=count)
    if n != count:
        raise SystemExit(f"versions: expected {count} version line(s) in {path}, found {n}")
    path.write_text(text)


def sync() -> int:
    want = cargo_version()
    launcher_deps = len(load(LAUNCHER).get("optionalDependencies", {}))
    rewrite(LAUNCHER, r'(?m)^(  "version": ")([^"]*)(")', want, 1)
    rewrite(LAUNCHER, r'(?m)^(    "@skill-lsp/cli-[a-z0-9-]+": ")([^"]*)(")', want, launcher_deps)
    rewrite(VSCODE, r'(?m)^(  "version": ")([^"]*)(")', want, 1)
    # The lock's own version: the top-level one and the root package's, the first two.
    rewrite(VSCODE_LOCK, r'(?m)^(  "version": ")([^"]*)(")', want, 1)
    rewrite(VSCODE_LOCK, r'(?m)^(      "version": ")([^"]*)(")', want, 1)
    return check(None)


def main(argv: list[str]) -> int:
    if argv[:1] == ["check"] and len(argv) in (1, 3) and (len(argv) == 1 or argv[1] == "--tag"):
        return check(argv[2] if len(argv) == 3 else None)
    if argv == ["sync"]:
        return sync()
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
