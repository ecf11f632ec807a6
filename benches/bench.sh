#!/usr/bin/env bash
# Benchmark skill-lsp against peer Agent Skills linters on a generated corpus.
#
# Usage: benches/bench.sh [N]            (N skills, default 10000)
#
# 1. Generates three corpora (v2, unless they are there already): /tmp/skill-bench-N;
#    /tmp/skill-bench-N-broken, the same skills whose bodies also link to BROKEN_LINKS
#    absent files each (findings outnumber skills: what do findings cost?); and
#    /tmp/skill-bench-N-commonmark, the same skills whose every body names its bundled files
#    in code spans and links (every body needs the CommonMark pass).
# 2. Builds skill-lsp (cargo build --release); if the build fails or the binary
#    is missing, skill-lsp is skipped with a note.
# 3. Times, with hyperfine on the same corpus: the read floors (cat of every
#    SKILL.md; cat of every file, which is what check with the security rules reads),
#    skill-lsp check, check without the security group (a config turning its rules off),
#    the same on the CommonMark corpus, skills-ref in-process, skills-ref one process
#    per skill (on a subset for large N, extrapolated), madskills spec-only and
#    default, agnix.  A peer that is not installed (scripts/install_peers.sh)
#    is skipped with a note.
# 4. Runs each command once under /usr/bin/time -v for CPU time and peak RSS.
# 5. Writes bench-out/results-N.md (and bench-out/results.md, all N so far),
#    plus the raw hyperfine JSON/Markdown exports and time logs.
#
# Environment knobs:
#   SKIP_BUILD=1             do not run cargo build (use the binary as it is)
#   SKILL_LSP_BIN=PATH       use this binary instead of target/release/skill-lsp
#   RUNS=10 WARMUP=1         hyperfine runs/warmups for the fast commands
#   BROKEN_LINKS=7           absent-file links per body in the second corpus
#   DOCS=0                   do not rewrite the tables of docs/BENCHMARKS.md
#                            (between <!-- bench:begin --> and <!-- bench:end -->)
#   SLOW_RUNS=3              hyperfine runs for skills-ref one-process-per-skill
#   PER_PROCESS_MAX=1000     above this N, per-process skills-ref runs on a subset
#   PER_PROCESS_SUBSET=500   ... of this many skills, extrapolated linearly to N
#   ONLY="a b"               only these commands (names as in the table)
#   SKIP="a b"               skip these commands
set -uo pipefail

N="${1:-10000}"
case "$N" in ''|*[!0-9]*) echo "usage: $0 [N]" >&2; exit 2 ;; esac

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$ROOT/.bench"
OUT="$ROOT/bench-out"
CORPUS="/tmp/skill-bench-$N"
DIR="$CORPUS/skills"
RUNS="${RUNS:-10}"
BROKEN_LINKS="${BROKEN_LINKS:-7}"
CORPUS_B="/tmp/skill-bench-$N-broken"
DIR_B="$CORPUS_B/skills"
CORPUS_C="/tmp/skill-bench-$N-commonmark"
DIR_C="$CORPUS_C/skills"
WARMUP="${WARMUP:-1}"
SLOW_RUNS="${SLOW_RUNS:-3}"
PER_PROCESS_MAX="${PER_PROCESS_MAX:-1000}"
PER_PROCESS_SUBSET="${PER_PROCESS_SUBSET:-500}"
ONLY="${ONLY:-}"
SKIP="${SKIP:-}"

VENV="$BENCH/venv"
AGENTSKILLS="$VENV/bin/agentskills"
MADSKILLS="$BENCH/madskills/bin/madskills"
AGNIX="$BENCH/agnix/bin/agnix"
SKILL_LSP="${SKILL_LSP_BIN:-$ROOT/target/release/skill-lsp}"

mkdir -p "$OUT"
WORK="$OUT/raw-$N"
rm -rf "$WORK"
mkdir -p "$WORK"
NOTES="$WORK/notes.txt"
: > "$NOTES"
note() { echo "note: $*" | tee -a "$NOTES" >&2; }
log() { echo "[bench] $*" >&2; }

LOAD_AT_START=$(cut -d' ' -f1-3 /proc/loadavg)
if awk -v l="${LOAD_AT_START%% *}" 'BEGIN{exit !(l > 0.5)}'; then
  note "load average was $LOAD_AT_START at start (other processes busy?); timings may be noisy"
fi
command -v hyperfine >/dev/null 2>&1 || { echo "hyperfine is missing: run scripts/install_peers.sh" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time (GNU time) is missing: run scripts/install_peers.sh" >&2; exit 1; }

# ---------------------------------------------------------------- corpus
# corpus_ok CORPUS WORDS...: made by this generator version with these settings.
corpus_ok() {
  local corpus="$1"; shift
  [ -f "$corpus/.skill-bench-corpus" ] && [ -f "$corpus/defects.tsv" ] || return 1
  for word in "$@"; do grep -qw -- "$word" "$corpus/.skill-bench-corpus" || return 1; done
  [ "$(find "$corpus/skills" -mindepth 1 -maxdepth 1 -type d | wc -l)" -eq "$N" ]
}
if corpus_ok "$CORPUS" corpus=v2 commonmark=0 broken_links=0 && [ -d "$DIR" ] &&
   [ "$(find "$DIR" -mindepth 1 -maxdepth 1 -type d | wc -l)" -eq "$N" ]; then
  log "corpus $DIR already there"
else
  log "generating corpus of $N skills into $CORPUS"
  rm -rf "$CORPUS"
  python3 "$ROOT/benches/gen_corpus.py" "$CORPUS" --skills "$N" > "$WORK/gen_corpus.txt" || exit 1
  cat "$WORK/gen_corpus.txt" >&2
fi
if corpus_ok "$CORPUS_B" corpus=v2 commonmark=0 "broken_links=$BROKEN_LINKS"; then
  log "corpus $DIR_B already there"
else
  log "generating corpus of $N skills with $BROKEN_LINKS broken links each into $CORPUS_B"
  rm -rf "$CORPUS_B"
  python3 "$ROOT/benches/gen_corpus.py" "$CORPUS_B" --skills "$N" --broken-links "$BROKEN_LINKS" \
    > "$WORK/gen_corpus_broken.txt" || exit 1
fi
if corpus_ok "$CORPUS_C" corpus=v2 commonmark=1 broken_links=0; then
  log "corpus $DIR_C already there"
else
  log "generating corpus of $N skills whose bodies all need the CommonMark pass into $CORPUS_C"
  rm -rf "$CORPUS_C"
  python3 "$ROOT/benches/gen_corpus.py" "$CORPUS_C" --skills "$N" --commonmark \
    > "$WORK/gen_corpus_commonmark.txt" || exit 1
fi
SKILL_BYTES=$(find "$DIR" -name SKILL.md -print0 | du -cb --files0-from=- | tail -1 | cut -f1)
ALL_BYTES=$(find "$DIR" -type f -print0 | du -cb --files0-from=- | tail -1 | cut -f1)
ALL_FILES=$(find "$DIR" -type f | wc -l)
C_BYTES=$(find "$DIR_C" -type f -print0 | du -cb --files0-from=- | tail -1 | cut -f1)

# A config that turns every rule of the security group off: check then does what it did
# before the group existed (the scan is skipped, not only its findings dropped).
NO_SECURITY="$WORK/no-security.toml"
{
  echo "[rules]"
  for rule in hidden-text prompt-injection remote-code credential-access exfiltration \
              persistence destructive obfuscation permissions capability-mismatch; do
    echo "$rule = \"off\""
  done
} > "$NO_SECURITY"

# ---------------------------------------------------------------- build
if [ -n "${SKILL_LSP_BIN:-}" ]; then
  log "using SKILL_LSP_BIN=$SKILL_LSP (no build)"
  note "skill-lsp row runs SKILL_LSP_BIN=$SKILL_LSP, not a fresh cargo build"
elif [ "${SKIP_BUILD:-0}" = 1 ]; then
  log "SKIP_BUILD=1: not building skill-lsp"
else
  log "cargo build --release"
  if ! (cd "$ROOT" && cargo build --release) > "$WORK/cargo-build.txt" 2>&1; then
    tail -20 "$WORK/cargo-build.txt" >&2
    note "cargo build --release failed (see bench-out/raw-$N/cargo-build.txt); skill-lsp skipped"
    SKILL_LSP=""
  fi
fi
if [ -n "$SKILL_LSP" ] && [ ! -x "$SKILL_LSP" ]; then
  note "skill-lsp binary $SKILL_LSP not found; skill-lsp skipped"
  SKILL_LSP=""
fi

# ---------------------------------------------------------------- commands
# Parallel arrays: name, shell command, scale factor (for extrapolated
# results), and whether it belongs to the slow group.
NAMES=(); CMDS=(); SCALES=(); SLOW=()
want() {
  local n="$1"
  if [ -n "$ONLY" ] && [[ " $ONLY " != *" $n "* ]]; then return 1; fi
  if [[ " $SKIP " == *" $n "* ]]; then return 1; fi
  return 0
}
add() { # name scale slow command
  want "$1" || { log "skipping $1 (ONLY/SKIP)"; return; }
  NAMES+=("$1"); SCALES+=("$2"); SLOW+=("$3"); CMDS+=("$4")
}

add read-floor 1 0 "find $DIR -name SKILL.md -print0 | xargs -0 cat > /dev/null"
add read-floor-all 1 0 "find $DIR -type f -print0 | xargs -0 cat > /dev/null"
add read-floor-all-cm 1 0 "find $DIR_C -type f -print0 | xargs -0 cat > /dev/null"

if [ -n "$SKILL_LSP" ]; then
  add skill-lsp 1 0 "$SKILL_LSP check $DIR --format json > /dev/null"
  add skill-lsp-human 1 0 "$SKILL_LSP check $DIR > /dev/null"
  add skill-lsp-broken 1 0 "$SKILL_LSP check $DIR_B --format json > /dev/null"
  add skill-lsp-broken-human 1 0 "$SKILL_LSP check $DIR_B > /dev/null"
  add skill-lsp-no-security 1 0 "$SKILL_LSP check $DIR --format json --config $NO_SECURITY > /dev/null"
  add skill-lsp-cm 1 0 "$SKILL_LSP check $DIR_C --format json > /dev/null"
  add skill-lsp-cm-no-security 1 0 "$SKILL_LSP check $DIR_C --format json --config $NO_SECURITY > /dev/null"
fi

if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c 'import skills_ref.validator' 2>/dev/null; then
  add skills-ref-inprocess 1 0 "$VENV/bin/python $ROOT/scripts/skills_ref_inprocess.py $DIR > /dev/null"
else
  note "skills-ref not installed in $VENV; skills-ref skipped"
fi

if [ -x "$AGENTSKILLS" ]; then
  LIST="$WORK/per-process-dirs.txt"
  SCALE=1
  find "$DIR" -mindepth 1 -maxdepth 1 -type d | LC_ALL=C sort > "$LIST.all"
  if ! want skills-ref-per-process; then
    :
  elif [ "$N" -gt "$PER_PROCESS_MAX" ]; then
    head -n "$PER_PROCESS_SUBSET" "$LIST.all" > "$LIST"
    SUB=$(wc -l < "$LIST")
    SCALE=$(python3 -c "print($N / $SUB)")
    note "skills-ref-per-process timed on a $SUB-skill subset (first $SUB folders in sorted order) and extrapolated linearly to $N skills (x$SCALE) for wall time and CPU time; its peak memory is that of the subset run"
  else
    cp "$LIST.all" "$LIST"
    SCALE=1
  fi
  rm -f "$LIST.all"
  add skills-ref-per-process "$SCALE" 1 "xargs -d '\\n' -n 1 $AGENTSKILLS validate < $LIST > /dev/null 2>&1"
else
  note "skills-ref CLI (agentskills) not installed; skills-ref-per-process skipped"
fi

if [ -x "$MADSKILLS" ]; then
  add madskills-spec-only 1 0 "$MADSKILLS lint $DIR --include SKILL.md --color never --format json --no-mdlint --no-best-practices > /dev/null 2>&1"
  add madskills-default 1 0 "$MADSKILLS lint $DIR --include SKILL.md --color never --format json > /dev/null 2>&1"
  add madskills-spec-only-cm 1 0 "$MADSKILLS lint $DIR_C --include SKILL.md --color never --format json --no-mdlint --no-best-practices > /dev/null 2>&1"
else
  note "madskills not installed at $MADSKILLS; madskills skipped"
fi

if [ -x "$AGNIX" ]; then
  # --max-files 0: agnix stops at 10,000 files by default
  add agnix 1 0 "$AGNIX $DIR --max-files 0 --format json > /dev/null 2>&1"
else
  note "agnix not installed at $AGNIX; agnix skipped"
fi

if [ ${#NAMES[@]} -eq 0 ]; then echo "nothing to run" >&2; exit 1; fi

# ---------------------------------------------------------------- hyperfine
run_hyperfine() { # group-tag runs warmup idx...
  local tag="$1" runs="$2" warmup="$3"; shift 3
  local args=()
  for i in "$@"; do args+=(-n "${NAMES[$i]}" "${CMDS[$i]}"); done
  [ ${#args[@]} -eq 0 ] && return 0
  log "hyperfine ($tag): ${#args[@]} args, runs=$runs warmup=$warmup"
  hyperfine -i --style basic --runs "$runs" --warmup "$warmup" \
    --export-json "$OUT/hyperfine-$N-$tag.json" \
    --export-markdown "$OUT/hyperfine-$N-$tag.md" \
    "${args[@]}" 2>&1 | tee "$WORK/hyperfine-$tag.txt" >&2
}
FAST=(); SLOWI=()
for i in "${!NAMES[@]}"; do
  if [ "${SLOW[$i]}" = 1 ]; then SLOWI+=("$i"); else FAST+=("$i"); fi
done
rm -f "$OUT"/hyperfine-"$N"-*.json "$OUT"/hyperfine-"$N"-*.md
run_hyperfine fast "$RUNS" "$WARMUP" "${FAST[@]}"
[ ${#SLOWI[@]} -gt 0 ] && run_hyperfine slow "$SLOW_RUNS" 0 "${SLOWI[@]}"

# ---------------------------------------------------------------- GNU time
for i in "${!NAMES[@]}"; do
  log "/usr/bin/time -v ${NAMES[$i]}"
  /usr/bin/time -v -o "$WORK/time-${NAMES[$i]}.txt" bash -c "${CMDS[$i]}" || true
done

# ---------------------------------------------------------------- versions
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "cpu: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "memory: $(free -g | awk '/Mem:/{print $2}') GiB"
  echo "load average: $LOAD_AT_START at start, $(cut -d' ' -f1-3 /proc/loadavg) at end"
  echo "hyperfine: $(hyperfine --version)"
  [ -n "$SKILL_LSP" ] && echo "skill-lsp: $("$SKILL_LSP" --version 2>&1 | head -1) ($SKILL_LSP)"
  [ -x "$VENV/bin/python" ] && echo "skills-ref: $("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("skills-ref"))' 2>/dev/null) ($("$VENV/bin/python" --version 2>&1))"
  [ -x "$MADSKILLS" ] && echo "madskills: $("$MADSKILLS" --version 2>&1 | head -1)"
  [ -x "$AGNIX" ] && echo "agnix: $("$AGNIX" --version 2>&1 | head -1)"
} > "$WORK/versions.txt"

# ---------------------------------------------------------------- report
for i in "${!NAMES[@]}"; do
  printf '%s\t%s\t%s\n' "${NAMES[$i]}" "${SCALES[$i]}" "${CMDS[$i]}"
done > "$WORK/commands.tsv"

BROKEN_FINDINGS=""
if [ -n "$SKILL_LSP" ]; then
  BROKEN_FINDINGS=$("$SKILL_LSP" check "$DIR_B" --format json 2>/dev/null |
    python3 -c 'import json,sys; d=json.load(sys.stdin); print(sum(1 for x in d["diagnostics"] if x["rule"]=="broken-link"))')
fi
ALL_FILES="$ALL_FILES" C_BYTES="$C_BYTES" LOAD_AT_START="$LOAD_AT_START" LOAD_AT_END="$(cut -d' ' -f1-3 /proc/loadavg)" \
python3 - "$N" "$OUT" "$WORK" "$SKILL_BYTES" "$ALL_BYTES" "$CORPUS" "$ROOT" "${DOCS:-1}" \
  "$BROKEN_LINKS" "$BROKEN_FINDINGS" "$RUNS" "$WARMUP" <<'PY'
import glob, json, os, re, statistics, sys

n, out, work, skill_bytes, all_bytes, corpus, root, docs, broken_links, broken_findings, runs, warmup = sys.argv[1:]
n = int(n); skill_bytes = int(skill_bytes); all_bytes = int(all_bytes)

cmds = []
for line in open(os.path.join(work, "commands.tsv")):
    name, scale, cmd = line.rstrip("\n").split("\t", 2)
    cmds.append((name, float(scale), cmd))

hf = {}
for f in sorted(glob.glob(os.path.join(out, f"hyperfine-{n}-*.json"))):
    try:
        results = json.load(open(f))["results"]
    except (ValueError, KeyError):
        # An interrupted hyperfine leaves an empty export: its commands get no wall time.
        print(f"note: {f} holds no results (run interrupted?); those commands show no wall time", file=sys.stderr)
        continue
    for r in results:
        hf[r["command"]] = r

def parse_time(path):
    d = {}
    try:
        txt = open(path).read()
    except OSError:
        return d
    for key, pat in [("user", r"User time \(seconds\): ([\d.]+)"),
                     ("sys", r"System time \(seconds\): ([\d.]+)"),
                     ("rss_kb", r"Maximum resident set size \(kbytes\): (\d+)"),
                     ("exit", r"Exit status: (\d+)")]:
        m = re.search(pat, txt)
        if m:
            d[key] = float(m.group(1))
    if "Command terminated by signal" in txt:
        d["signal"] = re.search(r"Command terminated by signal (\d+)", txt).group(1)
    return d

rows = []
for name, scale, cmd in cmds:
    r = hf.get(name)
    t = parse_time(os.path.join(work, f"time-{name}.txt"))
    row = dict(name=name, scale=scale, cmd=cmd)
    if r:
        times = r["times"]
        row["median"] = statistics.median(times) * scale
        row["stddev"] = (statistics.stdev(times) if len(times) > 1 else 0.0) * scale
        row["min"] = min(times) * scale
        row["runs"] = len(times)
        codes = set(r.get("exit_codes") or [])
        row["exit_codes"] = sorted(c for c in codes if c is not None)
    if "user" in t:
        row["cpu"] = (t["user"] + t.get("sys", 0)) * scale
    if "rss_kb" in t:
        row["rss_mb"] = t["rss_kb"] / 1024
    row["time_exit"] = t.get("exit")
    row["signal"] = t.get("signal")
    rows.append(row)

base = next((r for r in rows if r["name"] == "skill-lsp" and "median" in r), None)
floor = next((r for r in rows if r["name"] == "read-floor" and "median" in r), None)

def fmt(v, f):
    return f.format(v) if v is not None else "n/a"

mad = next((r for r in rows if r["name"] == "madskills-spec-only" and r.get("cpu")), None)
hdr = ["command", "wall median (s)", "± stddev", "CPU user+sys (s)", "peak RSS (MB)",
       "× read floor (wall)", "× madskills spec-only (CPU)", "× skill-lsp (wall)", "exit"]
lines = ["| " + " | ".join(hdr) + " |", "|" + "---|" * len(hdr)]
for r in rows:
    med = r.get("median")
    ratio = fmt(med / base["median"], "{:.2f}×") if base and med else "n/a"
    mratio = (fmt(r["cpu"] / mad["cpu"], "{:.2f}×")
              if mad and r.get("cpu") is not None else "n/a")
    fl = fmt(med / floor["median"], "{:.2f}×") if floor and med and floor["median"] > 0 else "n/a"
    name = r["name"] + (" *" if r["scale"] != 1 else "")
    exitc = ",".join(str(c) for c in r.get("exit_codes", [])) or (
        str(int(r["time_exit"])) if r["time_exit"] is not None else "?")
    if r.get("signal"):
        exitc += f" (signal {r['signal']})"
    lines.append("| " + " | ".join([
        name, fmt(med, "{:.3f}"), fmt(r.get("stddev"), "{:.3f}"), fmt(r.get("cpu"), "{:.2f}"),
        fmt(r.get("rss_mb"), "{:.1f}"), fl, mratio, ratio, exitc]) + " |")

def ratio_table():
    """check with the security group against what it must at least cost (reading every file it
    reads), against itself without the group, and against madskills spec-only's CPU."""
    by = {r["name"]: r for r in rows}
    def ratio(a, b, key):
        x, y = by.get(a, {}).get(key), by.get(b, {}).get(key)
        return f"{x / y:.2f}×" if x and y else "n/a"
    out = ["Ratios, each measured in this run (load average "
           f"{os.environ.get('LOAD_AT_START', '?')} at start, {os.environ.get('LOAD_AT_END', '?')} at end); "
           "targets: ≤ 1.5× the every-file read floor on the bench corpus, ≤ 1.2× it and ≤ 1.5× "
           "madskills spec-only's CPU on the CommonMark corpus, memory flat.\n",
           "| corpus | check ÷ read floor of every file (wall) | check ÷ check without the security group (wall) "
           "| check ÷ madskills spec-only (CPU) | peak RSS: check ÷ without the group |",
           "|---|---|---|---|---|"]
    for label, check, floor_all, without, mad in [
        ("bench (v2)", "skill-lsp", "read-floor-all", "skill-lsp-no-security", "madskills-spec-only"),
        ("CommonMark", "skill-lsp-cm", "read-floor-all-cm", "skill-lsp-cm-no-security", "madskills-spec-only-cm"),
    ]:
        if check not in by:
            continue
        out.append(f"| {label} | {ratio(check, floor_all, 'median')} | {ratio(check, without, 'median')} "
                   f"| {ratio(check, mad, 'cpu')} | {ratio(check, without, 'rss_mb')} |")
    out.append("")
    return out


notes = [l.strip() for l in open(os.path.join(work, "notes.txt")) if l.strip()]
versions = open(os.path.join(work, "versions.txt")).read().strip()
gen = os.path.join(work, "gen_corpus.txt")

md = []
md.append(f"## {n:,} skills\n")
md.append(f"Corpus: `{corpus}/skills` made by `python3 benches/gen_corpus.py {corpus} --skills {n}` "
          f"(seed 42): {skill_bytes / 1e6:.1f} MB in SKILL.md files "
          f"(avg {skill_bytes / n / 1024:.2f} KiB), {all_bytes / 1e6:.1f} MB in {int(os.environ['ALL_FILES']):,} files "
          f"with the scripts and references of corpus v2; "
          f"about 10 % of the skills carry one defect each. "
          f"`-broken` rows: `{corpus}-broken/skills`, the same with `--broken-links {broken_links}` "
          f"(every body links to {broken_links} absent files: {broken_findings or '?'} `broken-link` findings). "
          f"`-cm` rows: `{corpus}-commonmark/skills`, the same with `--commonmark` (every body names its "
          f"bundled files in code spans and links, so every body needs the CommonMark pass; "
          f"{int(os.environ['C_BYTES']) / 1e6:.1f} MB).\n")
md.append("Wall time: median of hyperfine runs (`-i`, fast commands `--warmup 1`). "
          "CPU (user+sys, all child processes) and peak RSS (largest single process): one run under "
          "`/usr/bin/time -v`. `exit` is the exit code(s) seen by hyperfine (1 usually means findings).\n")
md.extend(lines)
md.append("")
md.extend(ratio_table())
if any(r["scale"] != 1 for r in rows):
    md.append("\\* extrapolated: timed on a subset and scaled linearly to the full corpus (see notes).\n")
if notes:
    md.append("Notes:\n")
    md.extend(f"- {x[len('note: '):] if x.startswith('note: ') else x}" for x in notes)
    md.append("")
md.append("Commands:\n")
md.extend(f"- `{r['name']}`: `{r['cmd']}`" for r in rows)
md.append("\nVersions and machine:\n\n```\n" + versions + "\n```\n")
# The repository's files by their paths in it: the machine the run happened on is not the reader's.
text = "\n".join(md).replace(root.rstrip("/") + "/", "")
open(os.path.join(out, f"results-{n}.md"), "w").write(text)

# docs/BENCHMARKS.md: the tables between the markers are this run's, whole.
if docs == "1":
    path = os.path.join(root, "docs", "BENCHMARKS.md")
    begin, end = "<!-- bench:begin -->", "<!-- bench:end -->"
    doc = open(path).read()
    if begin in doc and end in doc:
        block = (f"{begin}\n<!-- written by benches/bench.sh {n} (RUNS={runs} WARMUP={warmup} "
                 f"BROKEN_LINKS={broken_links}); do not edit by hand -->\n\n" + text.rstrip() + f"\n{end}")
        doc = doc[:doc.index(begin)] + block + doc[doc.index(end) + len(end):]
        open(path, "w").write(doc)
        print(f"[bench] wrote the tables of {path}", file=sys.stderr)
    else:
        print(f"[bench] {path} has no {begin} ... {end} markers; not written", file=sys.stderr)

# results.md gathers every results-N.md there is, smallest N first.
parts = sorted(glob.glob(os.path.join(out, "results-*.md")),
               key=lambda p: int(re.search(r"results-(\d+)\.md$", p).group(1)))
with open(os.path.join(out, "results.md"), "w") as f:
    f.write("# skill-lsp benchmark results\n\nMade by `benches/bench.sh N`; raw hyperfine exports are "
            "`bench-out/hyperfine-N-*.json|md`, `/usr/bin/time -v` logs in `bench-out/raw-N/`.\n\n")
    for p in parts:
        f.write(open(p).read().rstrip() + "\n\n")
print(text)
PY
