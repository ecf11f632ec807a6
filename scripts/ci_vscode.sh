#!/usr/bin/env bash
# The VS Code extension (editors/vscode) tested in a real VS Code: code-server 4.100.3 (VS Code
# 1.100.3) driven by headless Chromium, with the packaged .vsix installed and a mocha suite
# running in the extension host against the real server and a scripted model. The server lookup
# is also unit-tested in plain Node first.
#
#   scripts/ci_vscode.sh SKILL_LSP_BINARY SCRIPTED_MODEL_BINARY
#
# Installs what it needs on a fresh Debian 12 (apt packages, code-server into
# .cache/editors/code-server, the extension's npm packages), skipping what is already there,
# then runs the extension's `npm run lint` (ESLint and Prettier); a lint failure fails the script.
# Builds the universal .vsix as a release ships it and checks that no test hook is in it; then
# the two test packages (SKILL_LSP_TEST_HOOKS=1: the hooks and the API the suite drives): the
# universal .vsix (no server inside) and the linux-x64 one carrying SKILL_LSP_BINARY under
# bundled/linux-x64/ (`cargo xtask vsix`). Runs three windows:
#   main        universal .vsix, server from skillLsp.server.path, trusted workspace:
#               diagnostics, quick fix, completion, Fix All, catalog, Open Skill, the agent with
#               Cancel, trigger evals (code lens, command, Cancel, results panel, eval-set
#               diagnostics), the Skills view (counts against VS Code's diagnostics, Load into
#               Chat, Rename), the status item's version and skill count, Open Settings in the
#               Remote tab, and the chat's Markdown (table, list, sanitised HTML, Copy);
#               afterwards the logs are searched for the planted API key.
#   restricted  universal .vsix, untrusted workspace: linting works, the agent and the trigger
#               evals refuse, a bad server path is reported.
#   bundled     linux-x64 .vsix, no setting, no skill-lsp on PATH, an empty HOME (no
#               ~/.cargo/bin): the bundled server runs and lints; its `--version` is in the log.
# Ends with `N passed, M failed` and exits non-zero on any failure or timeout, and when a window
# passed no test at all.
#
# Screenshots: the tests photograph the window where a person would look (the typed skill with
# its hover and completion list, the inline approval, the chat's Markdown, the Skills view next
# to the Problems panel) into SKILL_LSP_SCREENSHOTS/WINDOW/NAME.png (default
# target/ci-artifacts/screenshots/vscode, emptied first); the list is printed at the end.
#
# Env: SCREENSHOT=file.png (the main window when its tests end), KEEP_STATE=1 (keep the temp
# dirs and print where), SKILL_LSP_EDITOR_CACHE (default .cache/editors), CHROMIUM,
# SKILL_LSP_SCREENSHOTS.
set -euo pipefail

usage() {
  echo "usage: $0 SKILL_LSP_BINARY SCRIPTED_MODEL_BINARY" >&2
  exit 2
}
[ $# -eq 2 ] || usage
abspath() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
SERVER=$(abspath "$1")
MODEL=$(abspath "$2")
for bin in "$SERVER" "$MODEL"; do
  if [ ! -x "$bin" ] || [ ! -f "$bin" ]; then
    echo "ci_vscode: $bin is not an executable file" >&2
    echo "0 passed, 1 failed"
    exit 1
  fi
done

ROOT=$(cd "$(dirname "$0")/.." && pwd)
EXT="$ROOT/editors/vscode"
CACHE=${SKILL_LSP_EDITOR_CACHE:-$ROOT/.cache/editors}
CS="$CACHE/code-server/node_modules/.bin/code-server"
export CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
SHOTS=${SKILL_LSP_SCREENSHOTS:-$ROOT/target/ci-artifacts/screenshots/vscode}
rm -rf "$SHOTS"
mkdir -p "$SHOTS"

started=$(date +%s)

# --- install (idempotent) -------------------------------------------------------------------
install_failed() {
  echo "ci_vscode: $1 failed" >&2
  echo "0 passed, 1 failed"
  exit 1
}
bash "$ROOT/scripts/vscode/install-code-server.sh" "$CACHE/code-server" || install_failed "installing code-server"
cd "$EXT"
lock_id="$(node --version) $(sha256sum package-lock.json | cut -d' ' -f1)"
if [ ! -f node_modules/.ci-lock-id ] || [ "$(cat node_modules/.ci-lock-id)" != "$lock_id" ]; then
  echo "install: npm ci in editors/vscode"
  npm ci --no-fund --no-audit --loglevel=error || install_failed "npm ci in editors/vscode"
  echo "$lock_id" > node_modules/.ci-lock-id
else
  echo "install: editors/vscode node_modules up to date"
fi
# ESLint and Prettier (`npm run format` fixes the formatting), before anything is built.
echo "install: npm run lint in editors/vscode"
npm run --silent lint || install_failed "npm run lint in editors/vscode"
# The extension against Node's and VS Code's types, the webview pages against the DOM's, both
# against the messages they share (src/webview/messages.ts).
echo "install: npm run typecheck in editors/vscode"
npm run --silent typecheck || install_failed "npm run typecheck in editors/vscode"
installed=$(date +%s)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/skill-lsp-vscode.XXXXXX")
# Only the processes this script started and has not reaped yet.
CS_PID=
MODEL_PID=
stop_pid() {
  [ -n "$1" ] || return 0
  kill "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}
cleanup() {
  stop_pid "$CS_PID"
  stop_pid "$MODEL_PID"
  if [ -n "${KEEP_STATE:-}" ]; then
    echo "kept: $WORK"
  else
    rm -rf "$WORK"
  fi
}
trap cleanup EXIT

PASSED=0
FAILED=0
pass() { PASSED=$((PASSED + 1)); echo "  ok: $1"; }
fail() { FAILED=$((FAILED + 1)); echo "  FAILED: $1"; }
finish() {
  echo "screenshots ($(find "$SHOTS" -name '*.png' | wc -l), kept in $SHOTS):"
  find "$SHOTS" -name '*.png' | sort | sed 's/^/  /'
  echo "timings: install ${1}s, build and tests $(($(date +%s) - installed))s"
  echo "$PASSED passed, $FAILED failed"
  [ "$FAILED" -eq 0 ]
  exit $?
}

# --- 1. build the .vsix files ------------------------------------------------------------------
echo "== build"
VSIX="$WORK/skill-lsp.vsix"
PLATFORM_VSIX="$WORK/skill-lsp-linux-x64.vsix"
SHIPPED_VSIX="$WORK/skill-lsp-shipped.vsix"
# vsce runs vscode:prepublish: tsc (strict, tests included, into out/) and the esbuild bundle
# (editors/vscode/esbuild.mjs). The windows below install the test package: the same code with
# the hooks the suite drives (SKILL_LSP_TEST_HOOKS=1). The shipped package is built as a
# release builds it, and checked to carry none of them.
if cargo xtask vsix universal "$SHIPPED_VSIX" >"$WORK/vsce-shipped.log" 2>&1; then
  pass "vsce package without test hooks: skill-lsp-shipped.vsix, $(stat -c %s "$SHIPPED_VSIX") bytes"
else
  cat "$WORK/vsce-shipped.log" 2>/dev/null || true
  fail "building the shipped .vsix"
  finish $((installed - started))
fi
export SKILL_LSP_TEST_HOOKS=1
if cargo xtask vsix universal "$VSIX" >"$WORK/vsce.log" 2>&1; then
  files=$(python3 -c 'import sys, zipfile; print(len(zipfile.ZipFile(sys.argv[1]).namelist()))' "$VSIX")
  pass "tsc (strict) and vsce package: skill-lsp.vsix, $(stat -c %s "$VSIX") bytes, $files files"
else
  cat "$WORK/vsce.log" 2>/dev/null || true
  fail "building the .vsix"
  finish $((installed - started))
fi

# The server lookup (setting, bundled, PATH, ~/.cargo/bin) and the --version probe, in plain Node.
if npx mocha --ui tdd --reporter dot 'out/test/unit/**/*.test.js' >"$WORK/unit.log" 2>&1; then
  pass "unit tests of the server lookup: $(grep -Eo '[0-9]+ passing' "$WORK/unit.log")"
else
  cat "$WORK/unit.log"
  fail "unit tests of the server lookup"
fi

if cargo xtask vsix linux-x64 "$SERVER" "$PLATFORM_VSIX" >"$WORK/vsce-linux-x64.log" 2>&1; then
  pass "vsce package --target linux-x64: skill-lsp-linux-x64.vsix, $(stat -c %s "$PLATFORM_VSIX") bytes"
else
  cat "$WORK/vsce-linux-x64.log" 2>/dev/null || true
  fail "building the linux-x64 .vsix"
  finish $((installed - started))
fi
# What each package holds: the universal one no server; the linux-x64 one the very binary given,
# mode 755, and TargetPlatform linux-x64 in its manifest.
if python3 - "$VSIX" "$PLATFORM_VSIX" "$SERVER" <<'PY'
import hashlib, sys, zipfile
universal, platform, server = sys.argv[1:]
bad = [n for n in zipfile.ZipFile(universal).namelist() if n.startswith("extension/bundled/")]
assert not bad, f"the universal .vsix carries {bad}"
z = zipfile.ZipFile(platform)
entry = z.getinfo("extension/bundled/linux-x64/skill-lsp")
mode = (entry.external_attr >> 16) & 0o777
assert mode == 0o755, f"mode {oct(mode)}"
digest = hashlib.sha256(z.read(entry)).hexdigest()
want = hashlib.sha256(open(server, "rb").read()).hexdigest()
assert digest == want, "the bundled binary is not the one given"
assert 'TargetPlatform="linux-x64"' in z.read("extension.vsixmanifest").decode(), "no TargetPlatform in the manifest"
PY
then
  pass "the universal .vsix has no bundled/; the linux-x64 one has bundled/linux-x64/skill-lsp (mode 755, the given binary) and TargetPlatform linux-x64"
else
  fail "the contents of the .vsix files"
fi

# No test hook ships: none of the hooks' message types, API names or helpers is in the shipped
# package's bundles, and each is in the test package's (else this check could not fail).
if python3 - "$SHIPPED_VSIX" "$VSIX" <<'PY'
import sys, zipfile
MARKERS = ['"simulate"', '"audit"', '"contrast"', '"rendered"', '"draft"', "renderedHtml", "sendToPanel", "willReadFrequently", "promptTop"]
def bundles(path):
    z = zipfile.ZipFile(path)
    return {n: z.read(n).decode() for n in z.namelist() if n.startswith("extension/dist/") and n.endswith(".js")}
shipped, test = bundles(sys.argv[1]), bundles(sys.argv[2])
assert shipped, "the shipped package has no bundles"
found = [f"{marker} in {name}" for name, text in shipped.items() for marker in MARKERS if marker in text]
assert not found, f"test hooks in the shipped package: {found}"
missing = [marker for marker in MARKERS if not any(marker in text for text in test.values())]
assert not missing, f"the test package lacks {missing}, so their absence proves nothing"
PY
then
  pass "no test hook in the shipped .vsix (9 markers, each present in the test package)"
else
  fail "test hooks in the shipped .vsix"
fi

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# run_window NAME TRUST(trusted|untrusted) TIMEOUT_MS VSIX SERVER_SETTING USER_SETTINGS_JSON [VAR=VALUE...]
# Starts a private code-server with VSIX installed, runs the suite NAME, adds its counts.
# SERVER_SETTING is skillLsp.server.path ('' leaves it unset).
run_window() {
  local name=$1 trust=$2 timeout_ms=$3 vsix=$4 server_setting=$5 settings=$6
  shift 6
  local state="$WORK/$name"
  mkdir -p "$state/user/User" "$state/user/Machine" "$state/out"
  printf '%s\n' "$settings" >"$state/user/User/settings.json"
  # skillLsp.server.path is machine-scoped: in code-server (a remote window to VS Code) it is
  # read from the machine settings, as a user would set it in the Remote settings tab.
  if [ -n "$server_setting" ]; then
    python3 -c 'import json, sys; print(json.dumps({"skillLsp.server.path": sys.argv[1]}))' "$server_setting" >"$state/user/Machine/settings.json"
  fi
  cp -r "$EXT/test/fixtures/workspace" "$state/workspace"
  local port
  port=$(free_port)
  printf 'bind-addr: 127.0.0.1:%s\nauth: none\ncert: false\n' "$port" >"$state/config.yaml"
  local -a cs_env=(XDG_CONFIG_HOME="$state/xdg-config" XDG_DATA_HOME="$state/xdg-data" EXTENSIONS_GALLERY='{"serviceUrl":""}')
  local -a cs_args=(--config "$state/config.yaml" --extensions-dir "$state/ext" --user-data-dir "$state/user")
  if ! env "${cs_env[@]}" "$CS" "${cs_args[@]}" --install-extension "$vsix" >"$state/install.log" 2>&1; then
    cat "$state/install.log"
    fail "$name: installing $(basename "$vsix") into code-server"
    return
  fi
  local -a flags=(--disable-telemetry --disable-update-check --disable-getting-started-override)
  [ "$trust" = trusted ] && flags+=(--disable-workspace-trust)
  env "${cs_env[@]}" "$@" SKILL_LSP_E2E_MODE="$name" SKILL_LSP_E2E_OUT="$state/out" SKILL_LSP_E2E_SCREENSHOTS="$SHOTS/$name" \
    SKILL_LSP_E2E_EXTENSIONS_DIR="$state/ext" SKILL_LSP_RETRY_BASE_MS=5 \
    "$CS" "${cs_args[@]}" "${flags[@]}" "$state/workspace" >"$state/code-server.log" 2>&1 &
  CS_PID=$!
  local cs_pid=$CS_PID
  local up=
  for _ in $(seq 1 150); do
    if curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then up=1; break; fi
    kill -0 "$cs_pid" 2>/dev/null || break
    sleep 0.2
  done
  if [ -z "$up" ]; then
    cat "$state/code-server.log"
    stop_pid "$cs_pid"
    CS_PID=
    fail "$name: code-server did not start"
    return
  fi
  local shot=
  [ "$name" = main ] && shot=${SCREENSHOT:-}
  SCREENSHOT=$shot SCREENSHOT_DIR="$SHOTS/$name" timeout $((timeout_ms / 1000 + 60)) node "$EXT/test/run-e2e.js" "http://127.0.0.1:$port" "$state/workspace" \
    "$EXT/test/harness" "$EXT/out/test/index.js" "$timeout_ms" 2>&1 | grep -v -e 'vsda' -e 'unexpected operator' | tee "$state/e2e.log" || true
  stop_pid "$cs_pid"
  CS_PID=
  local counts
  counts=$(sed -n 's/^e2e result: passed=\([0-9]*\) failed=\([0-9]*\)$/\1 \2/p' "$state/e2e.log" | tail -1)
  if [ -n "$counts" ]; then
    PASSED=$((PASSED + ${counts% *}))
    FAILED=$((FAILED + ${counts#* }))
  fi
  # A window that ran nothing is a failure, whatever its exit code says.
  local none_passed=
  if [ -z "$counts" ] || [ "${counts% *}" = 0 ]; then none_passed=1; fi
  if [ -n "$none_passed" ] || { ! grep -q '^e2e exit code: 0$' "$state/e2e.log" && [ "${counts#* }" = 0 ]; }; then
    echo "--- code-server.log ($name)"
    tail -n 60 "$state/code-server.log"
    if [ -n "$none_passed" ]; then
      fail "$name: no test passed in the window (timeout, crash, no result line or an empty suite)"
    else
      fail "$name: the window did not finish its tests (timeout, crash or no result line)"
    fi
  fi
}

# --- 2. main window: trusted, working server, scripted model ------------------------------------
echo "== main window"
mkdir -p "$WORK/model"
MODEL_RECORD="$WORK/main/out/requests.jsonl"
mkdir -p "$WORK/main/out"
"$MODEL" "$EXT/test/fixtures/scripted-model.json" --record "$MODEL_RECORD" >"$WORK/model/url" 2>"$WORK/model/stderr" &
MODEL_PID=$!
MODEL_URL=
for _ in $(seq 1 100); do
  MODEL_URL=$(head -n 1 "$WORK/model/url" 2>/dev/null || true)
  [ -n "$MODEL_URL" ] && break
  sleep 0.1
done
if [ -z "$MODEL_URL" ]; then
  cat "$WORK/model/stderr"
  fail "the scripted model did not start"
  finish $((installed - started))
fi

main_settings=$(python3 - "$MODEL_URL" <<'EOF'
import json, sys
print(json.dumps({
    "skillLsp.agent.provider": "anthropic",
    "skillLsp.agent.model": "scripted-model",
    "skillLsp.agent.baseUrl": sys.argv[1],
    "skillLsp.trace.server": "verbose",
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": False,
    "extensions.autoCheckUpdates": False,
    "extensions.autoUpdate": False,
    "telemetry.telemetryLevel": "off",
    "git.enabled": False,
    "security.workspace.trust.enabled": False,
}, indent=2))
EOF
)
# ANTHROPIC_API_KEY is blanked so the key can only come from the Set API Key command.
run_window main trusted 240000 "$VSIX" "$SERVER" "$main_settings" ANTHROPIC_API_KEY= OPENAI_API_KEY= SKILL_LSP_E2E_RECORD="$MODEL_RECORD"

# The planted key must not be in any log: output channels, LSP trace, exthost and server logs.
KEY_FILE="$WORK/main/out/planted-key.txt"
if [ -s "$KEY_FILE" ]; then
  key=$(cat "$KEY_FILE")
  logs=("$WORK/main/user/logs" "$WORK/main/code-server.log" "$WORK/main/e2e.log")
  trace_files=$( (grep -rlF 'skill/agentEvent' "$WORK/main/user/logs" 2>/dev/null || true) | wc -l)
  if [ "$trace_files" -eq 0 ]; then
    fail "the verbose LSP trace was not found under the user-data logs, so the key check would prove nothing"
  elif grep -rlF -- "$key" "${logs[@]}" 2>/dev/null; then
    fail "the planted API key appears in the logs listed above"
  else
    pass "the planted API key is in none of $(find "${logs[@]}" -type f | wc -l) log files ($trace_files with the verbose LSP trace of the chats)"
  fi
else
  fail "the agent suite did not plant its API key"
fi

# --- 3. restricted window: untrusted workspace ----------------------------------------------------
echo "== restricted window"
restricted_settings=$(python3 - "$MODEL_URL" <<'EOF'
import json, sys
print(json.dumps({
    "skillLsp.agent.model": "scripted-model",
    "skillLsp.agent.baseUrl": sys.argv[1],
    "workbench.startupEditor": "none",
    "telemetry.telemetryLevel": "off",
    "git.enabled": False,
    "security.workspace.trust.enabled": True,
    "security.workspace.trust.startupPrompt": "never",
}, indent=2))
EOF
)
# A key in the environment: the restricted server must not get it.
requests_before=0
[ -f "$MODEL_RECORD" ] && requests_before=$(wc -l <"$MODEL_RECORD")
run_window restricted untrusted 120000 "$VSIX" "$SERVER" "$restricted_settings" ANTHROPIC_API_KEY=restricted-env-key
# The model server appends its record every 50 ms: give a stray request time to show.
sleep 0.3
requests_after=0
[ -f "$MODEL_RECORD" ] && requests_after=$(wc -l <"$MODEL_RECORD")
if [ "$requests_after" -eq "$requests_before" ]; then
  pass "the restricted window sent nothing to the model ($requests_after requests in all, from the main window)"
else
  fail "the restricted window reached the model ($((requests_after - requests_before)) requests)"
fi

# --- 4. bundled window: the linux-x64 package and nothing else ------------------------------------
echo "== bundled window"
# PATH without any folder holding a skill-lsp (nor ~/.cargo/bin), and an empty HOME, so the
# extension can only find the server it carries. node stays reachable: code-server runs on it.
# shellcheck source=lib/path.sh
source "$ROOT/scripts/lib/path.sh"
bare_path=$(path_without_skill_lsp)
if PATH=$bare_path command -v skill-lsp >/dev/null 2>&1; then
  fail "the bundled window's PATH still finds a skill-lsp"
fi
mkdir -p "$WORK/bundled/home"
bundled_settings=$(python3 - <<'EOF'
import json
print(json.dumps({
    "workbench.startupEditor": "none",
    "telemetry.telemetryLevel": "off",
    "git.enabled": False,
    "security.workspace.trust.enabled": False,
}, indent=2))
EOF
)
run_window bundled trusted 120000 "$PLATFORM_VSIX" "" "$bundled_settings" PATH="$bare_path" HOME="$WORK/bundled/home" \
  ANTHROPIC_API_KEY= OPENAI_API_KEY=
# The extension's output channel (a log file under the user-data logs) has the --version line.
version_line=$("$SERVER" --version | head -n 1)
if grep -rhF -- "skill-lsp --version: $version_line ($WORK/bundled/ext/" "$WORK/bundled/user/logs" 2>/dev/null | grep -q 'found via bundled'; then
  pass "the Skill LSP output channel logs 'skill-lsp --version: $version_line' for the bundled binary"
else
  fail "no 'skill-lsp --version: $version_line (...bundled...)' line in the Skill LSP output channel"
fi

finish $((installed - started))
