"""Differential test of plugin manifests: `claude plugin validate` (the Claude Code pinned in
clients.py, run offline) against `skill-lsp check` on every `.claude-plugin/plugin.json` and
`.claude-plugin/marketplace.json` of tests/fixtures (the per-rule folders and the verdicts of
tests/fixtures/plugins), each copied out of this repository first (the plugin directory's checks
read the README and LICENSE of the git repository a plugin sits in), in Claude's three modes:

- plain: Claude fails on an error of the manifest; skill-lsp `check` fails on an Error finding.
- strict: `--strict` fails on a warning too; so does `check --strict`.
- directory: `--profile directory` also fails on what the plugin directory refuses;
  `check --profile directory` adds those checks.

Per manifest and mode the verdicts must agree, and in plain mode the set of problems (each of
Claude's findings sorted into the skill-lsp rule that covers it, with its level) must be the same.
Only the manifest's own findings are compared: a marketplace's findings about the plugin.json of a
local entry are compared when that plugin.json is checked itself, and the skills, agents and
commands a plugin holds are SKILL.md-level checks of their own. Every exception is named in
plugin_known_differences.json with the client version and why.

PLUGIN_CORPUS=DIR also checks every manifest under DIR (real repositories kept outside the repo)
and prints the tally; `python3 test_plugins.py DIR` does the same without pytest.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from clients import PINS, installed

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
BIN = os.environ.get("SKILL_LSP_BIN", str(REPO / "target" / "debug" / "skill-lsp"))
# Every manifest under tests/fixtures: the per-rule folders (tests/fixtures/<rule>) and the
# verdicts of tests/fixtures/plugins.
FIXTURES = REPO / "tests" / "fixtures"
VERSION = PINS["claude-code"][2]
KNOWN = json.loads((HERE / "plugin_known_differences.json").read_text())
MODES = ("plain", "strict", "directory")


def claude_binary() -> Path | None:
    base = installed("claude-code")
    if base is None:
        return None
    # The npm package installs the native binary of this platform beside its launcher.
    native = sorted((base / "node_modules" / "@anthropic-ai").glob("claude-code-*/claude"))
    return native[0] if native else base / "node_modules" / ".bin" / "claude"


def manifests_under(root: Path) -> list[Path]:
    found = [
        path
        for name in ("plugin.json", "marketplace.json")
        for path in root.rglob(f".claude-plugin/{name}")
        if path.is_file() and not path.is_symlink()
    ]
    return sorted(found)


# ---- Claude's side ----

# Claude's messages sorted into the skill-lsp rule that covers them (Claude Code 2.1.328 wording).
CLASSES = [
    (r"^Invalid JSON syntax", "manifest-json"),
    (r"^Unknown field|^Field '.*' belongs in the marketplace entry|cross-tool spelling", "manifest-unknown-key"),
    (r"^Path not found|^Path contains|^Path is a file|^Path is a directory", "manifest-path"),
    (r"^No version specified|^No description provided|^No author information|^No marketplace description|^Marketplace has no plugins", "manifest-recommended"),
    (r"is not kebab-case", "plugin-name-kebab"),
    (r"is reserved: it passes as one of Anthropic's own", "plugin-name-reserved"),
    (r"reads as one of Anthropic's own", "plugin-name-brand"),
    (r"is an experimental component", "manifest-experimental"),
    (r"^Claude Code cannot install plugin", "plugin-id-chars"),
    (r"not accepted by Claude Desktop|is reserved in Claude Desktop", "desktop-name"),
    (r"^Duplicate plugin name", "marketplace-duplicate-plugin"),
    (r"^Entry declares version", "marketplace-version-skew"),
]
DIRECTORY_CODES = {
    "README_MISSING": "directory-readme",
    "README_TRIVIAL": "directory-readme",
    "LICENSE_MISSING": "directory-license",
    # skill-lsp reports these as manifest-json (a byte-order mark under --profile directory, or
    # JSON that does not parse): compared through the verdict, not as a directory problem.
    "MANIFEST_INVALID_JSON": None,
}
NESTED = re.compile(r"^plugins\[\d+\] plugin\.json \u2192 ")


def classify(message: str, level: str) -> str:
    for pattern, rule in CLASSES:
        if re.search(pattern, message):
            return rule
    return "manifest-schema" if level == "error" else "other-warning"


def run_claude(binary: Path, manifest: Path, flags: list[str]) -> dict:
    with tempfile.TemporaryDirectory() as home:
        env = {
            "PATH": os.environ["PATH"],
            "HOME": home,
            "CI": "1",
            "NO_COLOR": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "LANG": "C.UTF-8",
        }
        done = subprocess.run(
            [str(binary), "plugin", "validate", "--json", *flags, str(manifest)],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
    report = json.loads(done.stdout)
    report["exit"] = done.returncode
    return report


def claude_side(binary: Path, manifest: Path) -> dict:
    """Claude's verdict per mode on the manifest alone, and its problems as (rule, level)."""
    runs = {
        "plain": run_claude(binary, manifest, []),
        "strict": run_claude(binary, manifest, ["--strict"]),
        "directory": run_claude(binary, manifest, ["--profile", "directory"]),
    }
    own = runs["plain"]["manifest"]
    errors = [item for item in own["errors"] if not NESTED.match(item["path"])]
    warnings = [item for item in own["warnings"] if not NESTED.match(item["path"])]
    problems = Counter(classify(item["message"], "error") + ":error" for item in errors)
    problems += Counter(classify(item["message"], "warning") + ":warning" for item in warnings)
    directory = (runs["directory"].get("directory") or {}).get("findings") or []
    blocking_items = [item for item in directory if item.get("blocking")]
    blocking = {
        DIRECTORY_CODES.get(item["code"], "directory-other:" + item["code"]) + ":error"
        for item in blocking_items
        if DIRECTORY_CODES.get(item["code"], "") is not None
    }
    strict_own = runs["strict"]["manifest"]
    strict_problems = [i for i in strict_own["errors"] + strict_own["warnings"] if not NESTED.match(i["path"])]
    provides = runs["plain"].get("provides") or {}
    return {
        "skills": provides.get("skills"),
        "passes": {
            "plain": not errors,
            "strict": not strict_problems,
            "directory": not errors and not blocking_items,
        },
        "problems": set(problems),
        "directory": blocking,
        "exit": {mode: runs[mode]["exit"] for mode in MODES},
    }


# ---- skill-lsp's side ----


def run_ours(manifest: Path, flags: list[str]) -> tuple[int, list[dict]]:
    done = subprocess.run(
        [BIN, "check", "--format", "json", *flags, str(manifest)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.returncode, json.loads(done.stdout)["diagnostics"]


def our_side(manifest: Path) -> dict:
    plain_exit, plain = run_ours(manifest, [])
    strict_exit, _ = run_ours(manifest, ["--strict"])
    directory_exit, directory = run_ours(manifest, ["--profile", "directory"])
    problems = {f"{item['rule']}:{item['severity']}" for item in plain}
    added = {
        f"{item['rule']}:{item['severity']}" for item in directory if item["rule"].startswith("directory-")
    }
    return {
        "passes": {"plain": plain_exit == 0, "strict": strict_exit == 0, "directory": directory_exit == 0},
        "problems": problems,
        "directory": added,
    }


class Server:
    """skill-lsp's language server over stdio, enough of LSP to open a manifest and hover."""

    def __init__(self):
        self.process = subprocess.Popen(
            [BIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.next_id = 0
        # Markdown hovers keep each skill id in its own code span.
        capabilities = {"textDocument": {"hover": {"contentFormat": ["markdown"]}}}
        self.request("initialize", {"processId": None, "rootUri": None, "capabilities": capabilities})
        self.notify("initialized", {})

    def send(self, message: dict) -> None:
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: dict):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            length = 0
            while (line := self.process.stdout.readline().strip()) != b"":
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            message = json.loads(self.process.stdout.read(length))
            if message.get("id") == self.next_id and "method" not in message:
                return message.get("result")

    def close(self) -> None:
        self.request("shutdown", {})
        self.notify("exit", {})
        self.process.wait(timeout=30)


def provided_by_skill_lsp(server: Server, manifest: Path) -> list[str] | None:
    """The skills the server's hover on plugin.json's top-level name lists, or None when it has
    no such hover (no top-level name key found)."""
    text = manifest.read_text(encoding="utf-8", errors="replace")
    try:
        root = json.loads(text.lstrip("\ufeff"))
    except ValueError:
        return None
    if not isinstance(root, dict) or not isinstance(root.get("name"), str):
        return None
    # The top-level "name" key: the first one at nesting depth 1.
    depth, at, in_string, escaped = 0, None, False, False
    for index, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if char == '"':
            if depth == 1 and text.startswith('"name"', index) and text[index + 6 :].lstrip().startswith(":"):
                at = index + 1
                break
            in_string = True
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
    if at is None:
        return None
    line = text.count("\n", 0, at)
    character = len(text[text.rfind("\n", 0, at) + 1 : at].encode("utf-16-le")) // 2
    uri = manifest.resolve().as_uri()
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}})
    hover = server.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
    server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    value = json.dumps(hover or {})
    if "provides no skills" in value:
        return []
    return re.findall(r"`([^`]+:[^`]+)`", value.split("provides the skills", 1)[-1]) if "provides the skills" in value else None


# ---- the comparison ----


def differences(binary: Path, manifest: Path, server: Server | None = None) -> list[str]:
    claude = claude_side(binary, manifest)
    ours = our_side(manifest)
    found = []
    # The skills a plugin provides: Claude lists them when the manifest passes its schema.
    if server is not None and manifest.name == "plugin.json" and claude["skills"] is not None:
        provided = provided_by_skill_lsp(server, manifest)
        if provided is not None and provided != claude["skills"]:
            found.append(f"provides: Claude {claude['skills']}, skill-lsp {provided}")
    for mode in MODES:
        if claude["passes"][mode] != ours["passes"][mode]:
            verdict = "passes" if claude["passes"][mode] else "fails"
            found.append(f"{mode}: Claude {verdict}, skill-lsp does not agree")
    for problem in sorted(claude["problems"] - ours["problems"]):
        found.append(f"only Claude: {problem}")
    for problem in sorted(ours["problems"] - claude["problems"]):
        found.append(f"only skill-lsp: {problem}")
    if manifest.name == "plugin.json":
        for problem in sorted(claude["directory"] - ours["directory"]):
            found.append(f"only Claude (directory): {problem}")
        for problem in sorted(ours["directory"] - claude["directory"]):
            found.append(f"only skill-lsp (directory): {problem}")
    return found


def case_id(manifest: Path, root: Path) -> str:
    return manifest.relative_to(root).as_posix()


def known(case: str) -> set[str]:
    entries = KNOWN.get("cases", {}).get(case, [])
    return {entry["difference"] for entry in entries}


# ---- pytest ----

try:
    import pytest
except ImportError:  # `python3 test_plugins.py DIR` runs without pytest
    pytest = None

def copied(case: str, into: Path) -> Path:
    """The fixture folder holding `case`, copied under `into` (no git repository above it)."""
    import shutil

    top = Path(case).parts[0]
    folders = 2 if top == "plugins" else 1
    folder = Path(*Path(case).parts[:folders])
    shutil.copytree(FIXTURES / folder, into / folder, symlinks=True, dirs_exist_ok=True)
    return into / case


if pytest is not None:
    FIXTURE_CASES = [case_id(path, FIXTURES) for path in manifests_under(FIXTURES)]

    def test_the_fixtures_cover_every_plugin_rule():
        rules = subprocess.run([BIN, "rules"], capture_output=True, text=True, check=True).stdout
        plugin_rules = set()
        in_group = False
        for line in rules.splitlines():
            if line and not line.startswith(" "):
                in_group = line.startswith("Plugin and marketplace manifests")
            elif in_group and line.strip():
                plugin_rules.add(line.split()[0])
        seen = set()
        with tempfile.TemporaryDirectory() as scratch:
            for case in FIXTURE_CASES:
                manifest = copied(case, Path(scratch))
                for flags in ([], ["--profile", "directory"]):
                    _, diagnostics = run_ours(manifest, flags)
                    seen.update(item["rule"] for item in diagnostics)
        assert plugin_rules and plugin_rules <= seen, f"no fixture shows {sorted(plugin_rules - seen)}"

    def test_every_known_difference_names_the_client_version_and_why():
        for case, entries in KNOWN.get("cases", {}).items():
            for entry in entries:
                assert entry.get("version") == VERSION, (case, entry)
                assert entry.get("why"), (case, entry)

    @pytest.mark.parametrize("case", FIXTURE_CASES)
    def test_fixture_verdicts_match_claude_plugin_validate(case, tmp_path):
        binary = claude_binary()
        if binary is None:
            pytest.fail(f"Claude Code {VERSION} is not installed: run cargo xtask clients")
        server = Server()
        try:
            found = set(differences(binary, copied(case, tmp_path), server))
        finally:
            server.close()
        expected = known(case)
        assert found - expected == set(), f"unexplained differences: {sorted(found - expected)}"
        assert expected - found == set(), f"known differences that no longer occur: {sorted(expected - found)}"

    def test_corpus_verdicts_match_claude_plugin_validate():
        corpus = os.environ.get("PLUGIN_CORPUS")
        if not corpus:
            pytest.skip("PLUGIN_CORPUS names no folder of real plugin repositories")
        binary = claude_binary()
        if binary is None:
            pytest.fail(f"Claude Code {VERSION} is not installed: run cargo xtask clients")
        tally = measure(binary, Path(corpus))
        print(json.dumps(tally["figures"], indent=2))
        unexplained = {case: diff for case, diff in tally["unexplained"].items() if diff}
        assert not unexplained, json.dumps(unexplained, indent=2)


# ---- the corpus ----

# Differences expected on real repositories, by pattern: each is a limit of skill-lsp's model
# named in plugin_known_differences.json ("patterns"), with the client version and why.
def explained(difference: str) -> bool:
    return any(re.search(entry["pattern"], difference) for entry in KNOWN.get("patterns", []))


def measure(binary: Path, root: Path) -> dict:
    manifests = manifests_under(root)
    servers = [Server(), Server()]
    free = list(servers)

    def check(path: Path) -> tuple[Path, list[str]]:
        server = free.pop()
        try:
            return path, differences(binary, path, server)
        finally:
            free.append(server)

    with ThreadPoolExecutor(max_workers=len(servers)) as pool:
        results = list(pool.map(check, manifests))
    for server in servers:
        server.close()
    figures = {
        "client": f"claude-code {VERSION}",
        "manifests": len(manifests),
        "repositories": len({path.relative_to(root).parts[0] for path in manifests}),
        "agree": {mode: 0 for mode in MODES},
        "same_problems": 0,
        "same_skills": 0,
        "explained": Counter(),
    }
    unexplained = {}
    for path, found in results:
        for mode in MODES:
            figures["agree"][mode] += not any(item.startswith(f"{mode}:") for item in found)
        figures["same_problems"] += not any(item.startswith("only") for item in found)
        figures["same_skills"] += not any(item.startswith("provides:") for item in found)
        rest = []
        for item in found:
            pattern = next((e["pattern"] for e in KNOWN.get("patterns", []) if re.search(e["pattern"], item)), None)
            if pattern:
                figures["explained"][pattern] += 1
            else:
                rest.append(item)
        unexplained[path.relative_to(root).as_posix()] = rest
    figures["explained"] = dict(figures["explained"])
    return {"figures": figures, "unexplained": unexplained}


if __name__ == "__main__":
    binary = claude_binary()
    if binary is None:
        sys.exit(f"Claude Code {VERSION} is not installed: run cargo xtask clients")
    tally = measure(binary, Path(sys.argv[1]))
    for case, found in sorted(tally["unexplained"].items()):
        for item in found:
            print(f"{case}: {item}")
    print(json.dumps(tally["figures"], indent=2))
