#!/usr/bin/env python3
"""skill-lsp's security rules side by side with cisco-ai-skill-scanner's static analyzers.

Called by benches/compare_scanner.sh, which installs the scanner and builds skill-lsp first;
see there for how to run it. Runs both tools over the labelled set in tests/security (the
malicious cases and the hard negatives) and over a deterministic sample of a real corpus, and
writes a Markdown report (report.md) plus the raw per-skill findings (details.json) to --out.

Severity mapping (skill-lsp has error / warning / information; the scanner CRITICAL / HIGH /
MEDIUM / LOW / INFO):
    CRITICAL, HIGH  ~ error
    MEDIUM          ~ warning
    LOW, INFO       ~ information
Only skill-lsp's ten security rules count (its other rules judge whether a skill loads). For the
scanner every finding counts except SKILL_LOAD_FAILED (a skill it could not read: reported
separately, not as a security verdict).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import tomllib
from collections import Counter, defaultdict
from pathlib import Path

KINDS = [
    "hidden-text",
    "prompt-injection",
    "remote-code",
    "credential-access",
    "exfiltration",
    "persistence",
    "destructive",
    "obfuscation",
    "permissions",
    "capability-mismatch",
]

SCANNER_RANK = {"CRITICAL": 4, "HIGH": 3, "MEDIUM": 2, "LOW": 1, "INFO": 0}
LSP_RANK = {"error": 3, "warning": 2, "information": 1, "info": 1, "hint": 0}
# The scanner's severity on skill-lsp's scale (3 error, 2 warning, 1 information).
SCANNER_TO_LEVEL = {"CRITICAL": 3, "HIGH": 3, "MEDIUM": 2, "LOW": 1, "INFO": 1}

# Which of the scanner's threat categories count as "the right category" for each kind of the
# labelled set. Written from the categories' names and the scanner's rule files before looking
# at its results on this set; loose on purpose (a credential read shows up as data_exfiltration
# there, a hidden instruction as prompt_injection or unicode_steganography).
RIGHT_CATEGORY = {
    "hidden-text": {"unicode_steganography", "obfuscation", "prompt_injection"},
    "prompt-injection": {
        "prompt_injection",
        "social_engineering",
        "autonomy_abuse",
        "skill_discovery_abuse",
        "transitive_trust_abuse",
    },
    "remote-code": {"command_injection", "supply_chain_attack", "malware"},
    "credential-access": {"data_exfiltration", "hardcoded_secrets"},
    "exfiltration": {"data_exfiltration"},
    "persistence": {"autonomy_abuse", "malware", "command_injection", "unauthorized_tool_use"},
    "destructive": {"command_injection", "resource_abuse", "malware", "harmful_content"},
    "obfuscation": {"obfuscation", "malware"},
    "permissions": {"unauthorized_tool_use", "policy_violation"},
    "capability-mismatch": {
        "unauthorized_tool_use",
        "policy_violation",
        "social_engineering",
        "data_exfiltration",
        "tool_chaining_abuse",
    },
}

NOT_A_VERDICT = {"SKILL_LOAD_FAILED"}


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def pct(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:.1f} %" if whole else "n/a"


def frac(part: int, whole: int) -> str:
    return f"{part}/{whole} ({pct(part, whole)})"


# --------------------------------------------------------------------------- the sample


def make_sample(corpus: Path, size: int, dest: Path) -> tuple[list[str], int]:
    """Every k-th skill of the corpus, by the folder names sorted as bytes.

    The skills are the corpus's top-level folders that hold a SKILL.md, hidden folders
    excluded (so that how each tool's walk treats hidden folders is not what gets measured).
    Index i of the sample is skill floor(i * N / size) of the sorted list. The chosen
    folders are copied (links kept as links) to dest, which is emptied first.
    """
    names = sorted(
        (p.name for p in corpus.iterdir()
         if p.is_dir() and not p.name.startswith(".") and (p / "SKILL.md").is_file()),
        key=lambda n: n.encode(),
    )
    chosen = [names[i * len(names) // size] for i in range(min(size, len(names)))]
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    for name in chosen:
        shutil.copytree(corpus / name, dest / name, symlinks=True)
    return chosen, len(names)


# --------------------------------------------------------------------------- running


def run_timed(cmd: list[str]) -> tuple[float, int, bytes, bytes]:
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    return wall, proc.returncode, proc.stdout, proc.stderr


def run_skill_lsp(binary: str, directory: Path, runs: int, out: Path) -> tuple[list[float], dict]:
    walls = []
    stdout = b""
    for _ in range(runs):
        wall, code, stdout, stderr = run_timed([binary, "check", str(directory), "--format", "json"])
        if code not in (0, 1):
            sys.exit(f"skill-lsp check {directory} exited {code}: {stderr.decode()[:2000]}")
        walls.append(wall)
    out.write_bytes(stdout)
    return walls, json.loads(stdout)


def run_scanner(binary: str, directory: Path, out: Path, extra: list[str] = ()) -> tuple[float, dict]:
    cmd = [binary, "scan-all", str(directory), "--lenient", "--format", "json",
           "--output-json", str(out), *extra]
    wall, code, _stdout, stderr = run_timed(cmd)
    if not out.exists():
        sys.exit(f"skill-scanner {directory} exited {code} without a report: {stderr.decode()[-3000:]}")
    (out.with_suffix(".stderr")).write_bytes(stderr)
    return wall, json.loads(out.read_text())


# --------------------------------------------------------------------------- parsing


def lsp_findings(report: dict, root: Path, security_rules: set[str]) -> dict[str, list[tuple[str, int, str]]]:
    """skill folder name -> [(rule, level, path)] for the security rules, unsuppressed."""
    found: dict[str, list] = defaultdict(list)
    root_s = str(root.resolve())
    for d in report.get("diagnostics", []):
        rule = d.get("rule", "")
        if rule not in security_rules or d.get("suppressed") is not None:
            continue
        path = str(Path(d.get("path", "")).resolve()) if d.get("path") else ""
        if not path.startswith(root_s + os.sep):
            continue
        rel = path[len(root_s) + 1:]
        skill, _, inner = rel.partition(os.sep)
        found[skill].append((rule, LSP_RANK.get(d.get("severity", ""), 0), inner))
    return found


def scanner_findings(report: dict, root: Path) -> tuple[dict, dict, dict]:
    """skill folder name -> [(rule_id, category, severity, file)], plus per-skill durations (s)
    and the skills that failed to load."""
    found: dict[str, list] = defaultdict(list)
    durations: dict[str, float] = {}
    load_failed: dict[str, str] = {}
    root_s = str(root.resolve())
    for result in report.get("results", report.get("scan_results", [])):
        path = result.get("skill_path") or result.get("skill_directory") or ""
        rp = str(Path(path).resolve())
        skill = rp[len(root_s) + 1:].split(os.sep)[0] if rp.startswith(root_s + os.sep) else Path(path).name
        if result.get("scan_duration_seconds") is not None:
            durations[skill] = float(result["scan_duration_seconds"])
        for f in result.get("findings", []):
            rule = f.get("rule_id") or f.get("id") or ""
            if rule in NOT_A_VERDICT:
                load_failed[skill] = f.get("description", "")
                continue
            found[skill].append((rule, f.get("category", ""), f.get("severity", "INFO"), f.get("file_path") or ""))
    return found, durations, load_failed


def lsp_max(items) -> int:
    return max((level for _, level, _ in items), default=0)


def scanner_max(items) -> int:
    return max((SCANNER_RANK.get(sev, 0) for _, _, sev, _ in items), default=-1)


# --------------------------------------------------------------------------- the report


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--skill-lsp", required=True)
    ap.add_argument("--scanner", required=True)
    ap.add_argument("--cases", required=True, type=Path, help="tests/security")
    ap.add_argument("--corpus", type=Path, help="a folder of skill folders; omit to skip the corpus part")
    ap.add_argument("--sample", type=int, default=300)
    ap.add_argument("--runs", type=int, default=5, help="skill-lsp runs per set (median); the scanner runs once")
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--variant", action="append", default=[], metavar="NAME=ARGS",
                    help="also run the scanner with these extra arguments (space-separated) on every set; "
                         "summarised in one table")
    ap.add_argument("--sample-dir", type=Path,
                    help="where the sample is copied (emptied first); outside any git work tree, since a "
                         "parent .gitignore could hide it from skill-lsp's walk")
    args = ap.parse_args()

    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    labels = tomllib.loads((args.cases / "labels.toml").read_text())["case"]
    security_rules = set(KINDS)

    versions = {
        "skill-lsp": subprocess.run([args.skill_lsp, "--version"], capture_output=True, text=True).stdout.strip(),
        "skill-scanner": subprocess.run([args.scanner, "--version"], capture_output=True, text=True).stdout.strip(),
        "python": sys.version.split()[0],
    }

    sets = [("malicious", args.cases / "cases" / "malicious"), ("benign", args.cases / "cases" / "benign")]
    sample_names: list[str] = []
    corpus_size = 0
    if args.corpus:
        sample_dir = args.sample_dir or Path("/tmp/skill-lsp-compare-scanner/sample")
        sample_names, corpus_size = make_sample(args.corpus, args.sample, sample_dir)
        (out / "sample.txt").write_text("\n".join(sample_names) + "\n")
        sets.append(("corpus sample", sample_dir))

    lsp: dict[str, dict] = {}
    scn: dict[str, dict] = {}
    variants = [(v.partition("=")[0], v.partition("=")[2].split()) for v in args.variant]
    variant_found: dict[str, dict] = defaultdict(dict)
    variant_wall: dict[str, dict] = defaultdict(dict)
    timing = []
    started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    load_start = loadavg()
    for name, directory in sets:
        slug = name.replace(" ", "-")
        count = sum(1 for p in directory.iterdir() if p.is_dir() and (p / "SKILL.md").is_file())
        la_before = loadavg()
        print(f"[compare_scanner] {name}: {count} skills, load {la_before}", file=sys.stderr)
        walls, lsp_report = run_skill_lsp(args.skill_lsp, directory, args.runs, out / f"skill-lsp-{slug}.json")
        scanner_wall, scanner_report = run_scanner(args.scanner, directory, out / f"scanner-{slug}.json")
        la_after = loadavg()
        s_found, s_durations, s_failed = scanner_findings(scanner_report, directory)
        lsp[name] = lsp_findings(lsp_report, directory, security_rules)
        scn[name] = {"found": s_found, "durations": s_durations, "failed": s_failed,
                     "scanned": len(scanner_report.get("results", scanner_report.get("scan_results", [])))}
        print(f"[compare_scanner]   skill-lsp {statistics.median(walls):.3f} s (median of {len(walls)}), "
              f"scanner {scanner_wall:.1f} s, load {la_after}", file=sys.stderr)
        for vname, vargs in variants:
            v_wall, v_report = run_scanner(args.scanner, directory, out / f"scanner-{vname}-{slug}.json", vargs)
            v_found, _v_durations, _v_failed = scanner_findings(v_report, directory)
            variant_found[vname][name] = v_found
            variant_wall[vname][name] = v_wall
            print(f"[compare_scanner]   scanner {vname} {v_wall:.1f} s", file=sys.stderr)
        timing.append({
            "set": name, "skills": count, "lsp_walls": walls, "lsp_median": statistics.median(walls),
            "scanner_wall": scanner_wall,
            "scanner_inner_median": statistics.median(s_durations.values()) if s_durations else float("nan"),
            "scanner_inner_total": sum(s_durations.values()),
            "load_before": la_before, "load_after": la_after,
        })
    load_end = loadavg()

    # ----------------------------------------------------------------- labelled set
    mal = defaultdict(lambda: Counter())
    ben = defaultdict(lambda: Counter())
    case_rows = []
    for case in labels:
        group, _, skill = case["dir"].partition("/")
        kind = case["kind"]
        lf = lsp["malicious" if case["malicious"] else "benign"].get(skill, [])
        sf = scn["malicious" if case["malicious"] else "benign"]["found"].get(skill, [])
        failed = skill in scn["malicious" if case["malicious"] else "benign"]["failed"]
        lmax = lsp_max(lf)
        smax = scanner_max(sf)
        s_level = max((SCANNER_TO_LEVEL[sev] for _, _, sev, _ in sf), default=0)
        right_cat = any(cat in RIGHT_CATEGORY[kind] and SCANNER_RANK.get(sev, 0) >= 2 for _, cat, sev, _ in sf)
        row = {
            "dir": case["dir"], "kind": kind, "place": case["place"], "malicious": case["malicious"],
            "lsp": sorted({(r, l) for r, l, _ in lf}), "scanner": sorted({(r, c, s) for r, c, s, _ in sf}),
            "scanner_load_failed": failed,
        }
        if case["malicious"]:
            m = mal[kind]
            m["cases"] += 1
            row["lsp_right"] = any(r == kind and l >= 2 for r, l, _ in lf)
            row["lsp_any"] = lmax >= 2
            row["scanner_any"] = smax >= SCANNER_RANK["MEDIUM"]
            row["scanner_high"] = smax >= SCANNER_RANK["HIGH"]
            row["scanner_right"] = right_cat
            for key in ("lsp_right", "lsp_any", "scanner_any", "scanner_high", "scanner_right"):
                m[key] += int(row[key])
            m["scanner_failed"] += int(failed)
        else:
            b = ben[kind]
            b["cases"] += 1
            b["lsp_error"] += int(lmax >= 3)
            b["lsp_warning"] += int(lmax >= 2)
            b["lsp_any"] += int(lmax >= 1)
            b["scanner_high"] += int(s_level >= 3)
            b["scanner_medium"] += int(s_level >= 2)
            b["scanner_low"] += int(smax >= SCANNER_RANK["LOW"])
            b["scanner_any"] += int(smax >= 0)
            b["scanner_failed"] += int(failed)
        case_rows.append(row)

    def total(table, key):
        return sum(v[key] for v in table.values())

    md: list[str] = []
    w = md.append
    w("# skill-lsp security rules side by side with cisco-ai-skill-scanner")
    w("")
    w(f"Run {started}, written by `benches/compare_scanner.sh`.")
    w("")
    w("```")
    for k, v in versions.items():
        w(f"{k}: {v}")
    w(f"load average (1/5/15 min): {load_start} at start, {load_end} at end")
    w(f"cpu: {os.cpu_count()} cores")
    w("```")
    w("")
    w("Commands (each set is one folder of skill folders):")
    w("")
    w(f"- skill-lsp: `skill-lsp check DIR --format json` ({args.runs} runs, median wall time); "
      "only its ten security rules count, suppressed findings excluded.")
    w("- scanner: `skill-scanner scan-all DIR --lenient --format json --output-json FILE` (one run): its default "
      "analyzers, which are the static ones (static_analyzer with YAML and YARA rules, bytecode, pipeline, "
      "correlation); no `--use-llm`, `--use-behavioral`, `--use-virustotal`, `--use-aidefense`, `--use-osv`, "
      "`--use-trigger`, `--enable-meta`. `SKILL_LOAD_FAILED` findings are not counted as a verdict.")
    w("")
    w("Severity mapping: scanner CRITICAL/HIGH ~ skill-lsp error, MEDIUM ~ warning, LOW/INFO ~ information.")
    w("")
    w("## Malicious cases: recall per kind")
    w("")
    w("skill-lsp *right rule*: the labelled rule at warning or error (what `tests/it/security_rules.rs` counts). "
      "skill-lsp *any*: any security rule at warning or error. Scanner *any*: any finding at MEDIUM or above. "
      "Scanner *HIGH+*: any finding at HIGH or CRITICAL. Scanner *right category*: a finding at MEDIUM or above "
      "whose category is one of those mapped to the kind (see the script).")
    w("")
    w("| kind | cases | skill-lsp right rule | skill-lsp any | scanner any (MEDIUM+) | scanner HIGH+ | scanner right category |")
    w("|---|---|---|---|---|---|---|")
    for kind in KINDS:
        m = mal[kind]
        w(f"| {kind} | {m['cases']} | {m['lsp_right']} | {m['lsp_any']} | {m['scanner_any']} | "
          f"{m['scanner_high']} | {m['scanner_right']} |")
    n = total(mal, "cases")
    w(f"| **all** | {n} | {frac(total(mal, 'lsp_right'), n)} | {frac(total(mal, 'lsp_any'), n)} | "
      f"{frac(total(mal, 'scanner_any'), n)} | {frac(total(mal, 'scanner_high'), n)} | "
      f"{frac(total(mal, 'scanner_right'), n)} |")
    w("")
    if total(mal, "scanner_failed"):
        w(f"The scanner could not load {total(mal, 'scanner_failed')} malicious case(s) (SKILL_LOAD_FAILED, HIGH): "
          + ", ".join(r["dir"] for r in case_rows if r["malicious"] and r["scanner_load_failed"]) + ".")
        w("")
    w("## Hard negatives: false positives per kind")
    w("")
    w("Count of benign cases with at least one finding at the given level.")
    w("")
    w("| kind | cases | skill-lsp error | skill-lsp warning+ | skill-lsp any | scanner CRITICAL/HIGH | scanner MEDIUM+ | scanner LOW+ | scanner any (incl. INFO) |")
    w("|---|---|---|---|---|---|---|---|---|")
    for kind in KINDS:
        b = ben[kind]
        w(f"| {kind} | {b['cases']} | {b['lsp_error']} | {b['lsp_warning']} | {b['lsp_any']} | {b['scanner_high']} | "
          f"{b['scanner_medium']} | {b['scanner_low']} | {b['scanner_any']} |")
    n = total(ben, "cases")
    w(f"| **all** | {n} | {frac(total(ben, 'lsp_error'), n)} | {frac(total(ben, 'lsp_warning'), n)} | "
      f"{frac(total(ben, 'lsp_any'), n)} | {frac(total(ben, 'scanner_high'), n)} | "
      f"{frac(total(ben, 'scanner_medium'), n)} | {frac(total(ben, 'scanner_low'), n)} | "
      f"{frac(total(ben, 'scanner_any'), n)} |")
    w("")
    if total(ben, "scanner_failed"):
        w(f"The scanner could not load {total(ben, 'scanner_failed')} benign case(s): "
          + ", ".join(r["dir"] for r in case_rows if not r["malicious"] and r["scanner_load_failed"]) + ".")
        w("")
    # rules behind the benign findings
    s_rules = Counter()
    for r in case_rows:
        if not r["malicious"]:
            for rule, _cat, sev in {(a, b, c) for a, b, c in r["scanner"]}:
                s_rules[(rule, sev)] += 1
    w("Scanner rules on hard negatives (cases per rule and severity): "
      + ", ".join(f"{rule} {sev} {cnt}" for (rule, sev), cnt in s_rules.most_common()) + ".")
    w("")

    # ----------------------------------------------------------------- corpus
    if args.corpus:
        name = "corpus sample"
        lf, sf = lsp[name], scn[name]["found"]
        n = len(sample_names)
        lsp_levels = Counter()
        s_levels = Counter()
        s_raw = Counter()
        for skill in sample_names:
            lm = lsp_max(lf.get(skill, []))
            for lvl in (3, 2, 1):
                lsp_levels[lvl] += int(lm >= lvl)
            items = sf.get(skill, [])
            sl = max((SCANNER_TO_LEVEL[sev] for _, _, sev, _ in items), default=0)
            for lvl in (3, 2, 1):
                s_levels[lvl] += int(sl >= lvl)
            sm = scanner_max(items)
            for sev, rank in SCANNER_RANK.items():
                s_raw[sev] += int(sm >= rank)
        w(f"## Corpus sample: {n} of {corpus_size} real skills")
        w("")
        w(f"Sample: the corpus's top-level skill folders (hidden folders excluded), sorted by name as bytes; "
          f"skill i of the sample is skill floor(i x {corpus_size} / {n}) of that list (the list is in `sample.txt`).")
        w("")
        w("Share of skills with at least one finding at the level (scanner mapped as above).")
        w("")
        w("| level | skill-lsp | scanner |")
        w("|---|---|---|")
        w(f"| error (scanner CRITICAL/HIGH) | {frac(lsp_levels[3], n)} | {frac(s_levels[3], n)} |")
        w(f"| warning or above (scanner MEDIUM+) | {frac(lsp_levels[2], n)} | {frac(s_levels[2], n)} |")
        w(f"| any (scanner incl. LOW/INFO) | {frac(lsp_levels[1], n)} | {frac(s_levels[1], n)} |")
        w("")
        w("Scanner, at or above each of its own severities: "
          + ", ".join(f"{sev} {frac(s_raw[sev], n)}" for sev in SCANNER_RANK) + ".")
        if scn[name]["failed"]:
            w(f" The scanner could not load {len(scn[name]['failed'])} of them.")
        w("")
        lsp_rule_skills = Counter()
        for skill in sample_names:
            for rule, lvl in {(r, l) for r, l, _ in lf.get(skill, [])}:
                lsp_rule_skills[(rule, {3: "error", 2: "warning", 1: "information"}.get(lvl, "hint"))] += 1
        s_rule_skills = Counter()
        for skill in sample_names:
            for rule, _c, sev in {(r, c, s) for r, c, s, _ in sf.get(skill, [])}:
                s_rule_skills[(rule, sev)] += 1
        w("Most frequent findings (skills per rule and severity):")
        w("")
        w("- skill-lsp: " + ", ".join(f"{r} {s} {c}" for (r, s), c in lsp_rule_skills.most_common(15)) + ".")
        w("- scanner: " + ", ".join(f"{r} {s} {c}" for (r, s), c in s_rule_skills.most_common(20)) + ".")
        w("")

    # ----------------------------------------------------------------- scanner configurations
    if variants:
        def summary(found_by_set: dict) -> dict:
            c = Counter()
            for case in labels:
                _group, _, skill = case["dir"].partition("/")
                items = found_by_set["malicious" if case["malicious"] else "benign"].get(skill, [])
                top = max((SCANNER_TO_LEVEL[sev] for _, _, sev, _ in items), default=0)
                if case["malicious"]:
                    c["mal_medium"] += int(top >= 2)
                    c["mal_high"] += int(top >= 3)
                    c["mal_right"] += int(any(cat in RIGHT_CATEGORY[case["kind"]] and SCANNER_RANK.get(sev, 0) >= 2
                                              for _, cat, sev, _ in items))
                else:
                    c["ben_high"] += int(top >= 3)
                    c["ben_medium"] += int(top >= 2)
            for skill in sample_names:
                items = found_by_set.get("corpus sample", {}).get(skill, [])
                top = max((SCANNER_TO_LEVEL[sev] for _, _, sev, _ in items), default=0)
                c["corpus_high"] += int(top >= 3)
                c["corpus_medium"] += int(top >= 2)
            return c

        n_mal = sum(1 for c in labels if c["malicious"])
        n_ben = len(labels) - n_mal
        n_corpus = len(sample_names)
        w("## Other scanner configurations")
        w("")
        w("The same sets with offline options the scanner offers beyond its defaults (each is the default "
          "command plus the arguments shown). `--use-behavioral` is the scanner's AST dataflow analyzer for "
          "Python files: static, no network, but off by default.")
        w("")
        head = "| configuration | malicious MEDIUM+ | malicious HIGH+ | right category | hard negatives HIGH+ | hard negatives MEDIUM+ |"
        rule = "|---|---|---|---|---|---|"
        if n_corpus:
            head += f" corpus HIGH+ | corpus MEDIUM+ |"
            rule += "---|---|"
        w(head)
        w(rule)
        rows = [("default", {k: v["found"] for k, v in scn.items()})]
        rows += [(" ".join(vargs), variant_found[vname]) for vname, vargs in variants]
        for label, found_by_set in rows:
            c = summary(found_by_set)
            line = (f"| {label} | {frac(c['mal_medium'], n_mal)} | {frac(c['mal_high'], n_mal)} | "
                    f"{frac(c['mal_right'], n_mal)} | {frac(c['ben_high'], n_ben)} | {frac(c['ben_medium'], n_ben)} |")
            if n_corpus:
                line += f" {frac(c['corpus_high'], n_corpus)} | {frac(c['corpus_medium'], n_corpus)} |"
            w(line)
        w("")
        w("Wall time of each configuration over the sets (s): "
          + "; ".join(f"{' '.join(vargs)}: " + ", ".join(f"{k} {v:.1f}" for k, v in variant_wall[vname].items())
                      for vname, vargs in variants) + ".")
        w("")

    # ----------------------------------------------------------------- time
    w("## Time")
    w("")
    w("Wall time of one process over the whole set, measured in the same run one tool after the other; "
      "skill-lsp as the median of its runs. The scanner's *inner* time is its own `scan_duration_seconds` "
      "per skill (without the interpreter's start and the rule loading).")
    w("")
    w("| set | skills | skill-lsp wall | per skill | scanner wall | per skill | scanner / skill-lsp | scanner inner per skill (median) | scanner inner total / skill-lsp wall | load before / after |")
    w("|---|---|---|---|---|---|---|---|---|---|")
    for t in timing:
        k = t["skills"]
        w(f"| {t['set']} | {k} | {t['lsp_median']:.3f} s | {1000 * t['lsp_median'] / k:.2f} ms | "
          f"{t['scanner_wall']:.1f} s | {1000 * t['scanner_wall'] / k:.0f} ms | "
          f"{t['scanner_wall'] / t['lsp_median']:.0f}x | {1000 * t['scanner_inner_median']:.0f} ms | "
          f"{t['scanner_inner_total']:.1f} s, {t['scanner_inner_total'] / t['lsp_median']:.0f}x | "
          f"{t['load_before']} / {t['load_after']} |")
    w("")

    # ----------------------------------------------------------------- case lists
    def fmt_lsp(r):
        return ", ".join(f"{rule}:{ {3: 'E', 2: 'W', 1: 'I'}.get(l, l) }" for rule, l in r["lsp"]) or "-"

    def fmt_s(r):
        return ", ".join(f"{rule}({cat}):{sev}" for rule, cat, sev in r["scanner"] if SCANNER_RANK.get(sev, 0) >= 1) or "-"

    w("## Cases")
    w("")
    w("Malicious cases the scanner flags (MEDIUM+) that skill-lsp misses with the right rule:")
    w("")
    for r in case_rows:
        if r["malicious"] and r["scanner_any"] and not r["lsp_right"]:
            w(f"- `{r['dir']}` ({r['kind']}, {r['place']}): skill-lsp {fmt_lsp(r)}; scanner {fmt_s(r)}")
    w("")
    w("Malicious cases skill-lsp misses with the right rule:")
    w("")
    for r in case_rows:
        if r["malicious"] and not r["lsp_right"]:
            w(f"- `{r['dir']}` ({r['kind']}, {r['place']}): skill-lsp {fmt_lsp(r)}; scanner {fmt_s(r)}")
    w("")
    w("Malicious cases the scanner misses (nothing at MEDIUM+):")
    w("")
    for r in case_rows:
        if r["malicious"] and not r["scanner_any"]:
            w(f"- `{r['dir']}` ({r['kind']}, {r['place']}): scanner {fmt_s(r)}")
    w("")
    w("Hard negatives with a scanner finding at MEDIUM+:")
    w("")
    for r in case_rows:
        if not r["malicious"] and any(SCANNER_RANK.get(s, 0) >= 2 for _, _, s in r["scanner"]):
            w(f"- `{r['dir']}` ({r['kind']}, {r['place']}): {fmt_s(r)}")
    w("")
    w("Hard negatives with a skill-lsp warning or error:")
    w("")
    for r in case_rows:
        if not r["malicious"] and any(l >= 2 for _, l in r["lsp"]):
            w(f"- `{r['dir']}` ({r['kind']}, {r['place']}): {fmt_lsp(r)}")
    w("")

    report = "\n".join(md)
    (out / "report.md").write_text(report)
    (out / "details.json").write_text(json.dumps({
        "versions": versions, "timing": timing, "cases": case_rows,
        "sample": sample_names,
        "corpus": {s: {"skill-lsp": lsp.get("corpus sample", {}).get(s, []),
                       "scanner": scn.get("corpus sample", {}).get("found", {}).get(s, [])}
                   for s in sample_names},
    }, indent=1, default=list))
    print(report)


if __name__ == "__main__":
    main()
