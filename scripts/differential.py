#!/usr/bin/env python3
"""Differential test: skill-lsp against skills-ref (the Agent Skills reference validator).

One command (from the repository root; ROOT may be repeated):

    .bench/venv/bin/python scripts/differential.py ROOT... \
        [--bin target/release/skill-lsp] [--out disagreements.json] \
        [--links 40] [--seed 1] [--exceptions scripts/skills_ref_exceptions.txt]

The Python must be able to `import skills_ref` (skills-ref 0.1.1; scripts/install_peers.sh
skills-ref puts it in .bench/venv).  Standard library otherwise.

What it does:
  * A skill folder is any folder under a ROOT holding SKILL.md or skill.md, nested ones
    included.  `.git`, `node_modules` and `target` are not searched (neither tool's business).
    A symlink to a folder is not descended into, but when the folder it names holds a
    SKILL.md the link itself is counted as a skill folder (a client that follows links, as
    Claude Code does for `.claude/skills/x -> ../../skills/x`, loads it).
  * skills-ref's verdict: `skills_ref.validator.validate(folder)` in process; it rejects
    when the list of problems is not empty (an exception, e.g. on bad UTF-8, is a reject,
    as the `agentskills validate` CLI would crash).
  * skill-lsp's verdict: ONE `skill-lsp check --format json --target agentskills ROOT...`
    run; diagnostics are mapped to the folder of their SKILL.md; a folder is rejected when
    it has a diagnostic of severity `error` (the security rules aside: they judge what a skill
    does, not whether it loads).  Linked skill folders are checked by us under
    the link's path (discovery follows a link to a skill folder one level), like any other.
  * Prints a summary, the disagreements grouped by skills-ref's message kind and by our
    error rule ids, and a seeded sample of our `broken-link` findings (link text, line,
    whether the target exists, whether the line is inside a fenced code block) for review.
  * --out FILE: a JSON dump of every disagreement (path, ref problems, our error rules,
    our other rules) plus the broken-link sample.
  * --exceptions FILE: lines `PATH  reason` (PATH relative to the current directory, the
    reason required; a line starting with `#` is a comment).  Exit 1 when a verdict differs (we reject and
    skills-ref accepts, or the reverse, or we skip a folder skills-ref rejects) for a folder not
    listed, or when a listed folder no longer differs (a stale entry); 0 otherwise.
    Without --exceptions the exit code is 0 whatever the disagreements (a measurement).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

SECURITY_RULES = {
    "hidden-text", "prompt-injection", "remote-code", "credential-access", "exfiltration",
    "persistence", "destructive", "obfuscation", "permissions", "capability-mismatch",
}

SKIPPED_DIRS = {".git", "node_modules", "target"}
SKILL_FILES = ("SKILL.md", "skill.md")
TARGET = "agentskills"


# --------------------------------------------------------------------------- discovery

def has_skill_file(folder: str) -> bool:
    try:
        names = set(os.listdir(folder))
    except OSError:
        return False
    return any(name in names for name in SKILL_FILES)


def skill_folders(root: str) -> dict[str, bool]:
    """Every skill folder under root (absolute, normalised) -> whether it is a symlink."""
    found: dict[str, bool] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED_DIRS)
        if any(name in filenames for name in SKILL_FILES):
            found[os.path.normpath(dirpath)] = False
        for d in list(dirnames):
            full = os.path.join(dirpath, d)
            if os.path.islink(full):
                # os.walk does not descend into links; count the link if it names a skill
                if has_skill_file(full):
                    found[os.path.normpath(full)] = True
    return found


# --------------------------------------------------------------------------- skills-ref

def ref_verdicts(folders: list[str]) -> dict[str, list[str]]:
    from skills_ref.validator import validate  # imported late so --help works without it

    out = {}
    for folder in folders:
        try:
            problems = list(validate(Path(folder)))
        except Exception as error:  # noqa: BLE001 - skills-ref raises on odd input
            problems = [f"exception: {type(error).__name__}: {error}"]
        out[folder] = problems
    return out


def ref_kinds(problem: str) -> list[str]:
    """A stable category for one skills-ref message (several for unexpected fields)."""
    p = problem
    if p.startswith("Unexpected fields in frontmatter:"):
        fields = p.split(":", 1)[1].split(". Only", 1)[0]
        return ["unexpected-field"] + [
            f"unexpected-field:{f.strip()}" for f in fields.split(",") if f.strip()
        ]
    if p.startswith("Invalid YAML in frontmatter:"):
        # strictyaml: a context line, then position/source/caret triples around the reason;
        # keep the lines that are neither positions, nor source echoes, nor carets
        lines = p.split(":", 1)[1].strip("\n ").splitlines()
        kept = [
            ln.strip()
            for i, ln in enumerate(lines)
            if ln.strip()
            and not ln.strip().startswith(("^", 'in "<unicode string>"'))
            and not (i + 1 < len(lines) and lines[i + 1].strip().startswith("^"))
        ]
        reason = kept[-1] if kept else ""
        reason = re.sub(r"'[^']*'", "'…'", reason)
        reason = re.sub(r'"[^"]*"', '"…"', reason)
        return ["invalid-yaml", f"invalid-yaml:{reason[:70]}"]
    table = [
        (r"^SKILL\.md must start with YAML frontmatter", "no-frontmatter-at-start"),
        (r"frontmatter not properly closed", "frontmatter-not-closed"),
        (r"frontmatter must be a YAML mapping", "not-a-mapping"),
        (r"^Missing required field in frontmatter: (\w+)", "missing-field:{0}"),
        (r"^Field '([\w-]+)' must be a non-empty string", "empty-field:{0}"),
        (r"^Field 'compatibility' must be a string", "compatibility-not-string"),
        (r"must be lowercase", "name-not-lowercase"),
        (r"cannot start or end with a hyphen", "name-edge-hyphen"),
        (r"consecutive hyphens", "name-double-hyphen"),
        (r"contains invalid characters", "name-invalid-chars"),
        (r"^Skill name .* exceeds", "name-too-long"),
        (r"^Directory name .* must match skill name", "name-folder-mismatch"),
        (r"^Description exceeds", "description-too-long"),
        (r"^Compatibility exceeds", "compatibility-too-long"),
        (r"^Missing required file", "missing-skill-md"),
        (r"^exception: (\w+)", "exception:{0}"),
    ]
    for pattern, kind in table:
        m = re.search(pattern, p)
        if m:
            return [kind.format(*m.groups())]
    return ["other:" + p[:60]]


# --------------------------------------------------------------------------- skill-lsp

def run_skill_lsp(binary: str, roots: list[str]) -> dict:
    cmd = [binary, "check", "--format", "json", "--target", TARGET, *roots]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode not in (0, 1, 2) or not proc.stdout.strip():
        sys.exit(f"skill-lsp failed ({proc.returncode}): {proc.stderr.strip()[:2000]}")
    report = json.loads(proc.stdout)
    # A SKILL.md it cannot read (a dangling symlink, bad permissions) is no diagnostic but a
    # line on stderr and exit code 2: count it as an error of the pseudo-rule `(unreadable)`.
    unreadable = []
    for line in proc.stderr.splitlines():
        m = re.search(r"cannot read (.+?): [^:]*$", line)
        if m:
            unreadable.append(m.group(1))
        elif line.strip():
            print(f"note: skill-lsp: {line.strip()[:300]}", file=sys.stderr)
    report.setdefault("diagnostics", []).extend(
        {"path": p, "rule": "(unreadable)", "severity": "error", "message": "cannot read",
         "range": {"start": {"line": 0, "column": 0}, "end": {"line": 0, "column": 0}}}
        for p in unreadable
    )
    report["unreadable"] = len(unreadable)
    return report


def by_folder(report: dict) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = collections.defaultdict(list)
    for d in report.get("diagnostics", []):
        folder = os.path.normpath(os.path.dirname(os.path.abspath(d["path"])))
        out[folder].append(d)
    return out


# --------------------------------------------------------------------------- broken links

def fenced_lines(text: str) -> set[int]:
    """1-based line numbers inside ``` or ~~~ fences (fence lines included)."""
    inside, marker, out = False, "", set()
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.lstrip()
        if not inside and stripped.startswith(("```", "~~~")):
            inside, marker = True, stripped[:3]
            out.add(number)
        elif inside:
            out.add(number)
            if stripped.startswith(marker):
                inside = False
    return out


def link_sample(diags_by_folder: dict[str, list[dict]], n: int, seed: int) -> tuple[int, list]:
    links = [
        (folder, d)
        for folder, ds in sorted(diags_by_folder.items())
        for d in ds
        if d["rule"] == "broken-link"
    ]
    rng = random.Random(seed)
    picked = rng.sample(links, min(n, len(links)))
    out = []
    texts: dict[str, list[str]] = {}
    for folder, d in picked:
        path = os.path.abspath(d["path"])
        if path not in texts:
            try:
                texts[path] = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError:
                texts[path] = []
        lines = texts[path]
        start, end = d["range"]["start"], d["range"]["end"]
        line = lines[start["line"] - 1] if 0 < start["line"] <= len(lines) else ""
        if start["line"] == end["line"]:
            link = line[start["column"] - 1 : end["column"] - 1]
        else:
            link = line[start["column"] - 1 :]
        target = re.split(r"[#?]", link.strip().strip("<>`'\""), maxsplit=1)[0]
        exists = bool(target) and os.path.exists(os.path.join(folder, target))
        fenced = start["line"] in fenced_lines("\n".join(lines))
        out.append(
            {
                "path": os.path.relpath(path),
                "line": start["line"],
                "link": link,
                "target_exists": exists,
                "in_code_fence": fenced,
                "source_line": line.strip()[:200],
                "message": d["message"],
            }
        )
    return len(links), out


# --------------------------------------------------------------------------- report

def table(title: str, counter: collections.Counter, limit: int = 40) -> None:
    if not counter:
        return
    print(f"\n{title}")
    width = max(len(k) for k, _ in counter.most_common(limit))
    for key, count in counter.most_common(limit):
        print(f"  {key:<{width}}  {count:>5}")
    if len(counter) > limit:
        print(f"  … {len(counter) - limit} more")


def read_exceptions(path: str) -> dict[str, str]:
    out = {}
    for number, raw in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 1)
        if len(parts) < 2 or not parts[1].strip():
            sys.exit(f"{path}:{number}: an exception needs a reason after the path")
        out[os.path.normpath(parts[0])] = parts[1].strip()
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("roots", nargs="+", metavar="ROOT")
    ap.add_argument("--bin", default=None, help="skill-lsp binary (default: target/release, then target/debug)")
    ap.add_argument("--out", help="write every disagreement (and the link sample) as JSON here")
    ap.add_argument("--links", type=int, default=40, help="size of the broken-link sample (default 40)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--exceptions", help="expected disagreements; makes the exit code a verdict")
    ap.add_argument("--quiet", action="store_true", help="print only the summary and problems")
    args = ap.parse_args(argv)

    binary = args.bin
    if binary is None:
        here = Path(__file__).resolve().parent.parent
        for candidate in ("target/release/skill-lsp", "target/debug/skill-lsp"):
            if (here / candidate).is_file():
                binary = str(here / candidate)
                break
        else:
            sys.exit("no skill-lsp binary found; pass --bin")

    roots = [os.path.abspath(r) for r in args.roots]
    for r in roots:
        if not os.path.isdir(r):
            sys.exit(f"{r}: not a folder")

    folders: dict[str, bool] = {}
    for r in roots:
        folders.update(skill_folders(r))
    paths = sorted(folders)

    t0 = time.monotonic()
    ref = ref_verdicts(paths)
    t1 = time.monotonic()
    report = run_skill_lsp(binary, roots)
    t2 = time.monotonic()
    ours = by_folder(report)

    rows = []
    summary = collections.Counter()
    for folder in paths:
        ref_problems = ref[folder]
        diags = ours.get(folder, [])
        # The security rules judge what a skill does, not whether it loads: no verdict of theirs
        # is skills-ref's to share.
        errors = sorted({d["rule"] for d in diags if d["severity"] == "error" and d["rule"] not in SECURITY_RULES})
        others = sorted({d["rule"] for d in diags if d["severity"] != "error" or d["rule"] in SECURITY_RULES})
        ref_rejects = bool(ref_problems)
        if ref_rejects and errors:
            kind = "both reject"
        elif not ref_rejects and not errors:
            kind = "both accept"
        elif errors:
            kind = "we only reject"
        else:
            kind = "ref only rejects"
        summary[kind] += 1
        rows.append(
            {
                "path": os.path.relpath(folder),
                "symlink": folders[folder],
                "verdict": kind,
                "ref": ref_problems,
                "ref_kinds": sorted({k for p in ref_problems for k in ref_kinds(p)}),
                "our_errors": errors,
                "our_others": others,
            }
        )

    plain = [r for r in rows if not r["symlink"]]
    print(f"skills-ref {ref_version()}  |  {subprocess.run([binary, '--version'], capture_output=True, text=True).stdout.strip()}")
    print(f"roots: {' '.join(os.path.relpath(r) for r in roots)}")
    print(
        f"skill folders: {len(paths)} ({len(paths) - len(plain)} of them symlinks)  |  "
        f"skill-lsp checked {report['checked']['files']} files, {report['checked']['skills']} skills, "
        f"could not read {report['unreadable']}"
    )
    if report["checked"]["files"] + report["unreadable"] != len(rows):
        print(
            f"  note: {len(plain)} non-symlinked skill folders here vs {report['checked']['files']} "
            "files checked by skill-lsp (.gitignore'd folders are skipped by skill-lsp; nested "
            "duplicates of SKILL.md and skill.md count twice)"
        )
    print(f"time: skills-ref {t1 - t0:.1f} s in process, skill-lsp {t2 - t1:.1f} s")
    print("\nsummary")
    order = ["both reject", "both accept", "we only reject", "ref only rejects", "we skip, ref rejects", "we skip, ref accepts"]
    for k in order:
        print(f"  {k:<22} {summary[k]:>6}")
    agree = summary["both reject"] + summary["both accept"]
    if plain:
        print(f"  agreement on checked folders: {agree}/{len(rows)} = {100 * agree / len(rows):.1f}%")

    ref_only = [r for r in rows if r["verdict"] == "ref only rejects"]
    we_only = [r for r in rows if r["verdict"] == "we only reject"]
    if not args.quiet:
        table("ref only rejects: skills-ref message kinds (folders)", collections.Counter(k for r in ref_only for k in r["ref_kinds"]))
        table("ref only rejects: our non-error findings on them (folders)", collections.Counter(k for r in ref_only for k in r["our_others"]))
        table("we only reject: our error rules (folders)", collections.Counter(k for r in we_only for k in r["our_errors"]))
        both = [r for r in rows if r["verdict"] == "both reject"]
        table("both reject: skills-ref kinds (folders)", collections.Counter(k for r in both for k in r["ref_kinds"]))
        table("both reject: our error rules (folders)", collections.Counter(k for r in both for k in r["our_errors"]))
        skipped_rej = [r for r in rows if r["verdict"] == "we skip, ref rejects"]
        table("we skip (symlinked folder), ref rejects: kinds", collections.Counter(k for r in skipped_rej for k in r["ref_kinds"] if not k.startswith("unexpected-field:")))

    all_rules = collections.Counter(d["rule"] for ds in ours.values() for d in ds)
    if not args.quiet:
        table("all our findings by rule (diagnostics)", all_rules, limit=60)
    n_links, sample = link_sample(ours, args.links, args.seed)
    if not args.quiet and n_links:
        print(f"\nbroken-link findings: {n_links}; sample of {len(sample)} (seed {args.seed}):")
        for s in sample:
            flags = ("exists " if s["target_exists"] else "") + ("in-fence" if s["in_code_fence"] else "")
            print(f"  {s['path']}:{s['line']}  {s['link']!r}  {flags}".rstrip())

    if args.out:
        dump = {
            "summary": {k: summary[k] for k in order},
            "skills": len(paths),
            "broken_link_findings": n_links,
            "broken_link_sample": sample,
            "disagreements": [r for r in rows if r["verdict"] not in ("both reject", "both accept", "we skip, ref accepts")],
        }
        Path(args.out).write_text(json.dumps(dump, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"\nwrote {args.out}")

    if args.exceptions is None:
        return 0
    expected = read_exceptions(args.exceptions)
    differing = {
        os.path.normpath(r["path"]): r
        for r in rows
        if r["verdict"] in ("we only reject", "ref only rejects", "we skip, ref rejects")
    }
    unexpected = sorted(set(differing) - set(expected))
    stale = sorted(p for p in expected if p not in differing)
    for p in unexpected:
        r = differing[p]
        print(f"UNEXPECTED {r['verdict']}: {p}  ref={r['ref']}  ours={r['our_errors']}", file=sys.stderr)
    for p in stale:
        print(f"STALE exception (verdicts now agree or path gone): {p}", file=sys.stderr)
    print(f"\nexceptions: {len(expected)} listed, {len(unexpected)} unexpected, {len(stale)} stale")
    return 1 if unexpected or stale else 0


def ref_version() -> str:
    try:
        import importlib.metadata as md

        return md.version("skills-ref")
    except Exception:  # noqa: BLE001
        return "?"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
