#!/usr/bin/env bash
# The CI integrations, exercised as a user's CI would run them:
#   a. the GitHub Action's check step (action/check.sh): annotations, exit codes, SARIF,
#      the sarif-file output;
#   b. the pre-commit hook (.pre-commit-hooks.yaml): a real `pre-commit run` in a sample git repo,
#      with pre-commit building skill-lsp itself (`language: rust`, i.e. `cargo install --path .`).
#
# usage: scripts/ci_integrations.sh
#   SKILL_LSP_BIN            the binary for part a (default: target/release/skill-lsp, built
#                            with `cargo build --release`)
#   PYTHON                   the interpreter for pre-commit's venv (default: python3.11, else python3)
#   SKIP_PRE_COMMIT=1        run part a only
#
# Needs Rust, Python >= 3.9 with venv/pip, git, and PyPI. Everything it keeps lives in
# target/ci-integrations (gitignored): the venv, PRE_COMMIT_HOME (the hook's built environment,
# reused while the sources are unchanged) and a cargo target dir for the hook's build.
# pre-commit clones the hook repository at a commit, so the checkout's files (tracked, and
# untracked but not ignored) are copied to target/ci-integrations/hook-repo and committed there
# with a fixed date and author: the same sources give the same commit, and no rebuild.
# Prints `N passed, M failed` last; exits non-zero when a check fails.
# shellcheck disable=SC2317 # helpers run through `check` look unreachable to shellcheck
set -uo pipefail

cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
WORK=$ROOT/target/ci-integrations
PRE_COMMIT_VERSION=4.7.0
mkdir -p "$WORK"

# shellcheck source=lib/checks.sh
source "$ROOT/scripts/lib/checks.sh"
# lacks PATTERN FILE: no line of FILE matches the extended regex PATTERN.
lacks() { ! grep -Eq "$1" "$2"; }
# The SKILL.md of a skill folder: write_skill DIR NAME [BODY]
write_skill() {
  mkdir -p "$1"
  printf -- '---\nname: %s\ndescription: Formats CSV files as aligned tables. Use when the user asks to pretty-print a CSV file.\n---\n%s' \
    "$2" "${3-$'\n# Tables\n\nRead the CSV and print it as a table.\n'}" >"$1/SKILL.md"
}

TMP=$(mktemp -d "${TMPDIR:-/tmp}/skill-lsp-ci-integrations.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# --- the binary ---
if [ -n "${SKILL_LSP_BIN:-}" ]; then
  if [ ! -x "$SKILL_LSP_BIN" ]; then
    echo "ci_integrations: SKILL_LSP_BIN=$SKILL_LSP_BIN is not an executable file" >&2
    exit 2
  fi
else
  SKILL_LSP_BIN=$ROOT/target/release/skill-lsp
  echo "== cargo build --release"
  if ! cargo build --release --quiet; then
    echo "ci_integrations: cargo build --release failed" >&2
    exit 2
  fi
fi
bin_dir=$(cd "$(dirname "$SKILL_LSP_BIN")" && pwd)
if [ "$(basename "$SKILL_LSP_BIN")" != skill-lsp ]; then
  # The action runs `skill-lsp` from PATH: give the binary that name.
  mkdir -p "$TMP/bin"
  ln -s "$bin_dir/$(basename "$SKILL_LSP_BIN")" "$TMP/bin/skill-lsp"
  bin_dir=$TMP/bin
fi
export PATH="$bin_dir:$PATH"

# ============================================================================================
echo "== a. the GitHub Action's check step (action/check.sh)"
start=$SECONDS
ws=$TMP/ws
write_skill "$ws/skills/good-skill" good-skill
write_skill "$ws/skills/bad-skill" other-name # name-mismatch: an error
write_skill "$ws/warn/warn-skill" warn-skill "" # body-empty: a warning only

# run_action NAME [VAR=VALUE...]: runs the step in $ws with a fresh GITHUB_OUTPUT; leaves
# $TMP/NAME.out, $TMP/NAME.err, $TMP/NAME.github-output and $TMP/NAME.code.
run_action() {
  local name=$1
  shift
  : >"$TMP/$name.github-output"
  (
    cd "$ws" &&
      env -u INPUT_PATHS -u INPUT_TARGETS -u INPUT_STRICT -u INPUT_SARIF_FILE \
        GITHUB_OUTPUT="$TMP/$name.github-output" "$@" \
        bash "$ROOT/action/check.sh" >"$TMP/$name.out" 2>"$TMP/$name.err"
  )
  echo $? >"$TMP/$name.code"
}
code_is() { [ "$(cat "$TMP/$1.code")" = "$2" ]; }
sarif_ok() {
  python3 -c '
import json, sys
with open(sys.argv[1]) as f:
    doc = json.load(f)
assert doc["version"] == "2.1.0", doc.get("version")
assert isinstance(doc["runs"], list) and doc["runs"], "no runs"
' "$1"
}
sarif_has_rule() {
  python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
sys.exit(0 if any(r.get("ruleId") == sys.argv[2] for run in doc["runs"] for r in run.get("results", [])) else 1)
' "$1" "$2"
}

run_action broken INPUT_PATHS=skills INPUT_SARIF_FILE=reports/skill-lsp.sarif
check "broken skill: exit code 1 (got $(cat "$TMP/broken.code"))" code_is broken 1
check "broken skill: a ::error annotation for skills/bad-skill/SKILL.md with title=name-mismatch" \
  grep -q '^::error file=skills/bad-skill/SKILL.md,line=[0-9]*,col=[0-9]*.*title=name-mismatch::' "$TMP/broken.out"
check "broken skill: no annotation for the clean skill" \
  lacks 'file=skills/good-skill/' "$TMP/broken.out"
check "broken skill: the SARIF file (in a new folder) parses as SARIF 2.1.0" \
  sarif_ok "$ws/reports/skill-lsp.sarif"
check "broken skill: the SARIF file has the name-mismatch result" \
  sarif_has_rule "$ws/reports/skill-lsp.sarif" name-mismatch
check "broken skill: GITHUB_OUTPUT has sarif-file=reports/skill-lsp.sarif" \
  grep -qx 'sarif-file=reports/skill-lsp.sarif' "$TMP/broken.github-output"

run_action clean INPUT_PATHS="skills/good-skill" INPUT_TARGETS="agentskills claude-code codex"
check "clean skill (three targets): exit code 0 (got $(cat "$TMP/clean.code"))" code_is clean 0
check "clean skill: no ::error annotation" lacks '^::error' "$TMP/clean.out"
check "clean skill: the default SARIF file skill-lsp.sarif parses as SARIF 2.1.0" \
  sarif_ok "$ws/skill-lsp.sarif"
check "clean skill: GITHUB_OUTPUT has sarif-file=skill-lsp.sarif" \
  grep -qx 'sarif-file=skill-lsp.sarif' "$TMP/clean.github-output"

run_action two-paths INPUT_PATHS=$'skills/good-skill\n  warn' INPUT_SARIF_FILE=two.sarif
check "two paths (newline-separated), a warning only: exit code 0 (got $(cat "$TMP/two-paths.code"))" \
  code_is two-paths 0
check "two paths: a ::warning annotation for warn/warn-skill/SKILL.md" \
  grep -q '^::warning file=warn/warn-skill/SKILL.md' "$TMP/two-paths.out"

run_action strict INPUT_PATHS="skills/good-skill warn" INPUT_STRICT=true INPUT_SARIF_FILE=strict.sarif
check "strict: true with a warning: exit code 1 (got $(cat "$TMP/strict.code"))" code_is strict 1
check "strict: the SARIF file is still written" sarif_ok "$ws/strict.sarif"

run_action bad-target INPUT_PATHS=skills/good-skill INPUT_TARGETS=no-such-target
check "an unknown target: exit code 2 (got $(cat "$TMP/bad-target.code"))" code_is bad-target 2

run_action bad-strict INPUT_PATHS=skills/good-skill INPUT_STRICT=maybe
check "strict: maybe: exit code 2 (got $(cat "$TMP/bad-strict.code"))" code_is bad-strict 2
echo "   (part a: $((SECONDS - start)) s)"

if [ "${SKIP_PRE_COMMIT:-}" = 1 ]; then
  echo "== b. pre-commit: skipped (SKIP_PRE_COMMIT=1)"
  finish
fi

# ============================================================================================
echo "== b. the pre-commit hook (.pre-commit-hooks.yaml)"
start=$SECONDS

# --- pre-commit in a venv, reused while the interpreter and the pin are unchanged ---
if [ -z "${PYTHON:-}" ]; then
  if command -v python3.11 >/dev/null 2>&1; then PYTHON=python3.11; else PYTHON=python3; fi
fi
VENV=$WORK/venv
want="$("$PYTHON" -c 'import sys; print(sys.version)') pre-commit==$PRE_COMMIT_VERSION"
if [ ! -x "$VENV/bin/pre-commit" ] || [ "$(cat "$VENV/.stamp" 2>/dev/null)" != "$want" ]; then
  rm -rf "$VENV"
  if ! { "$PYTHON" -m venv "$VENV" &&
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
      "pre-commit==$PRE_COMMIT_VERSION"; }; then
    not_ok "pip install pre-commit==$PRE_COMMIT_VERSION into $VENV"
    finish
  fi
  echo "$want" >"$VENV/.stamp"
fi
PRE_COMMIT=$VENV/bin/pre-commit
echo "   $("$PRE_COMMIT" --version) ($((SECONDS - start)) s)"

check "pre-commit validate-manifest .pre-commit-hooks.yaml" \
  "$PRE_COMMIT" validate-manifest "$ROOT/.pre-commit-hooks.yaml"

# git without the user's or the machine's settings (no signing, hooks or templates).
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=ci GIT_AUTHOR_EMAIL=ci@localhost GIT_COMMITTER_NAME=ci GIT_COMMITTER_EMAIL=ci@localhost

# --- the hook repository: this checkout's files, committed at a fixed date ---
HOOK_REPO=$WORK/hook-repo
rm -rf "$HOOK_REPO"
mkdir -p "$HOOK_REPO"
git -C "$ROOT" ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' file; do
    [ -f "$ROOT/$file" ] && printf '%s\0' "$file" # a tracked file deleted in the work tree
  done |
  tar -C "$ROOT" --null -T - -cf - | tar -C "$HOOK_REPO" -xf -
(
  cd "$HOOK_REPO" &&
    git init -q -b main &&
    git add -A &&
    GIT_AUTHOR_DATE=2000-01-01T00:00:00Z GIT_COMMITTER_DATE=2000-01-01T00:00:00Z \
      git commit -q --no-verify -m "skill-lsp sources for the pre-commit test"
) || {
  not_ok "commit the checkout's files to $HOOK_REPO"
  finish
}
REV=$(git -C "$HOOK_REPO" rev-parse HEAD)
check "the hook repository has .pre-commit-hooks.yaml at $REV" \
  git -C "$HOOK_REPO" cat-file -e "$REV:.pre-commit-hooks.yaml"

# One built hook environment at a time: a new commit (changed sources) starts PRE_COMMIT_HOME anew.
export PRE_COMMIT_HOME=$WORK/pre-commit-home
if [ "$(cat "$WORK/pre-commit-home.rev" 2>/dev/null)" != "$REV" ]; then
  rm -rf "$PRE_COMMIT_HOME"
  echo "$REV" >"$WORK/pre-commit-home.rev"
fi
# The hook's `cargo install`: a kept target dir makes a rebuild after a source change incremental.
export CARGO_TARGET_DIR=$WORK/cargo-target
export CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-2}
export CARGO_TERM_COLOR=never

# --- a sample repository that uses the hook ---
SAMPLE=$TMP/sample
mkdir -p "$SAMPLE"
git -C "$SAMPLE" init -q -b main
cat >"$SAMPLE/.pre-commit-config.yaml" <<EOF
repos:
  - repo: $HOOK_REPO
    rev: $REV
    hooks:
      - id: skill-lsp-check
EOF
write_skill "$SAMPLE/skills/good-skill" good-skill
printf '# notes\n\nname: not-a-skill\n' >"$SAMPLE/README.md"
git -C "$SAMPLE" add -A
git -C "$SAMPLE" commit -q --no-verify -m "a clean skill"

# run_pre_commit NAME ARGS...: leaves $TMP/NAME.out (stdout and stderr) and $TMP/NAME.code.
run_pre_commit() {
  local name=$1
  shift
  (cd "$SAMPLE" && "$PRE_COMMIT" run --color never "$@" >"$TMP/$name.out" 2>&1)
  echo $? >"$TMP/$name.code"
}

t=$SECONDS
run_pre_commit pc-clean --all-files
echo "   pre-commit run --all-files, first run (installs the hook when needed): $((SECONDS - t)) s"
check "pre-commit, a clean skill: exit code 0 (got $(cat "$TMP/pc-clean.code"))" code_is pc-clean 0
check "pre-commit, a clean skill: the hook 'skill-lsp check' ran and passed" \
  grep -Eq '^skill-lsp check\.+Passed$' "$TMP/pc-clean.out"
if ! code_is pc-clean 0; then
  sed 's/^/   | /' "$TMP/pc-clean.out"
  [ -f "$PRE_COMMIT_HOME/pre-commit.log" ] && tail -n 40 "$PRE_COMMIT_HOME/pre-commit.log" | sed 's/^/   log| /'
fi

write_skill "$SAMPLE/skills/bad-skill" other-name
git -C "$SAMPLE" add -A
t=$SECONDS
run_pre_commit pc-broken --all-files
echo "   pre-commit run --all-files, hook installed: $((SECONDS - t)) s"
check "pre-commit, a broken skill added: exit code 1 (got $(cat "$TMP/pc-broken.code"))" code_is pc-broken 1
check "pre-commit, a broken skill added: the hook failed" \
  grep -Eq '^skill-lsp check\.+Failed$' "$TMP/pc-broken.out"
check "pre-commit, a broken skill added: the output names the rule name-mismatch" \
  grep -q 'name-mismatch' "$TMP/pc-broken.out"
check "pre-commit, a broken skill added: the output names skills/bad-skill/SKILL.md" \
  grep -q 'skills/bad-skill/SKILL.md' "$TMP/pc-broken.out"
if ! code_is pc-broken 1; then sed 's/^/   | /' "$TMP/pc-broken.out"; fi

run_pre_commit pc-files --files skills/good-skill/SKILL.md README.md
check "pre-commit --files of the clean skill only (pass_filenames): exit code 0 (got $(cat "$TMP/pc-files.code"))" \
  code_is pc-files 0
if ! code_is pc-files 0; then sed 's/^/   | /' "$TMP/pc-files.out"; fi

run_pre_commit pc-none --files README.md
check "pre-commit --files README.md: the hook is skipped (files: matches SKILL.md only)" \
  grep -Eq '^skill-lsp check\.+\(no files to check\)Skipped$' "$TMP/pc-none.out"
echo "   (part b: $((SECONDS - start)) s)"

finish
