#!/usr/bin/env bash
# skill-lsp's security rules side by side with cisco-ai-skill-scanner (PyPI), static analyzers only.
#
# Not part of CI: the first run needs the network to pip-install the scanner (about 700 MB of
# venv, with onnxruntime, litellm and the like), and a run takes tens of minutes on 2 cores.
#
# Usage:
#   benches/compare_scanner.sh [CORPUS_DIR]
#
# CORPUS_DIR is a folder of skill folders (one SKILL.md each); 300 of them are sampled (every
# k-th by sorted name, see benches/compare_scanner.py). Without it only the labelled set in
# tests/security is measured. Environment:
#   SKILL_SCANNER_VERSION  pinned scanner version (default 2.3.2)
#   SKILL_LSP              skill-lsp binary (default target/release/skill-lsp, built if absent)
#   SAMPLE                 corpus sample size (default 300)
#   RUNS                   skill-lsp runs per set, median reported (default 5; the scanner runs once)
#   OUT                    results folder (default bench-out/compare-scanner: report.md, details.json,
#                          each tool's raw JSON)
#   VARIANTS               0 to run the scanner with its defaults only (see below)
#   SAMPLE_DIR             where the sample is copied (default /tmp/skill-lsp-compare-scanner/sample;
#                          keep it outside a git work tree: a parent .gitignore would hide it)
#
# The scanner goes into .bench/skill-scanner-venv (gitignored), as scripts/install_peers.sh does
# for the other peers; a venv already at the pinned version is reused. Everything runs under
# `nice -n 10`, one tool at a time.
#
# The scanner runs with its defaults, which are its static analyzers (static_analyzer: YAML and
# YARA signatures; bytecode; pipeline; correlation). Nothing that calls a model or a service is
# enabled: no --use-llm, --use-behavioral, --use-virustotal, --use-aidefense, --use-osv,
# --use-trigger, --enable-meta or --adjudicate. LITELLM_LOCAL_MODEL_COST_MAP keeps litellm (a
# dependency) from fetching its price list at import. Three offline variants are run too and
# summarised in one table: --policy strict, --use-behavioral (AST dataflow on Python files, static
# but off by default) and --rule-packs atr (an optional signature pack shipped with the scanner).
# VARIANTS=0 skips them (about two thirds of the run time).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$ROOT/.bench"
mkdir -p "$BENCH"

SKILL_SCANNER_VERSION="${SKILL_SCANNER_VERSION:-2.3.2}"
SKILL_LSP="${SKILL_LSP:-$ROOT/target/release/skill-lsp}"
SAMPLE="${SAMPLE:-300}"
RUNS="${RUNS:-5}"
OUT="${OUT:-$ROOT/bench-out/compare-scanner}"
SAMPLE_DIR="${SAMPLE_DIR:-/tmp/skill-lsp-compare-scanner/sample}"
CORPUS="${1:-}"

log() { printf '[compare_scanner] %s\n' "$*" >&2; }

install_scanner() {
  local venv="$BENCH/skill-scanner-venv"
  if [ -x "$venv/bin/skill-scanner" ] &&
     [ "$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("cisco-ai-skill-scanner"))' 2>/dev/null)" = "$SKILL_SCANNER_VERSION" ]; then
    log "cisco-ai-skill-scanner $SKILL_SCANNER_VERSION already installed in $venv"
    return 0
  fi
  log "installing cisco-ai-skill-scanner==$SKILL_SCANNER_VERSION into $venv"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv" || return 1
  nice -n 10 "$venv/bin/pip" install --disable-pip-version-check -q \
    "cisco-ai-skill-scanner==$SKILL_SCANNER_VERSION" || { log "cisco-ai-skill-scanner install FAILED"; return 1; }
}

install_scanner || exit 1

if [ ! -x "$SKILL_LSP" ]; then
  log "building skill-lsp (cargo build --release)"
  (cd "$ROOT" && nice -n 10 cargo build --release) || { log "cargo build FAILED"; exit 1; }
fi

if [ -n "$CORPUS" ] && [ ! -d "$CORPUS" ]; then
  log "no such corpus folder: $CORPUS"; exit 2
fi

variant_args=()
if [ "${VARIANTS:-1}" != 0 ]; then
  variant_args=(--variant "strict=--policy strict" --variant "behavioral=--use-behavioral"
                --variant "atr=--rule-packs atr")
fi

export LITELLM_LOCAL_MODEL_COST_MAP=True
mkdir -p "$OUT"
log "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
nice -n 10 python3 "$ROOT/benches/compare_scanner.py" \
  --skill-lsp "$SKILL_LSP" \
  --scanner "$BENCH/skill-scanner-venv/bin/skill-scanner" \
  --cases "$ROOT/tests/security" \
  ${CORPUS:+--corpus "$CORPUS" --sample "$SAMPLE" --sample-dir "$SAMPLE_DIR"} \
  --runs "$RUNS" \
  "${variant_args[@]}" \
  --out "$OUT" > /dev/null
status=$?
[ $status -eq 0 ] && cat "$OUT/report.md"
log "report: $OUT/report.md (load average at end: $(cut -d' ' -f1-3 /proc/loadavg))"
exit $status
