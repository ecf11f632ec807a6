#!/usr/bin/env bash
# The check step of the skill-lsp GitHub Action (action.yml), runnable locally too.
#
# Runs `skill-lsp check` twice over the same paths:
#   1. --format github: workflow commands (::error file=…) that GitHub turns into annotations;
#      its exit code is the script's exit code (0 clean, 1 findings that fail, 2 trouble);
#   2. --format sarif > $INPUT_SARIF_FILE, for github/codeql-action/upload-sarif (exit code ignored).
#
# Environment (as the action sets it):
#   INPUT_PATHS       whitespace-separated files or folders to check (default: .)
#   INPUT_TARGETS     whitespace-separated targets, each passed as --target T (default: none)
#   INPUT_STRICT      true/1/yes: add --strict (fail on warnings too)
#   INPUT_SARIF_FILE  where to write the SARIF report (default: skill-lsp.sarif)
#   GITHUB_OUTPUT     when set, `sarif-file=<path>` is appended to it
#   SKILL_LSP         the binary to run (default: skill-lsp from PATH)
set -uo pipefail

bin=${SKILL_LSP:-skill-lsp}
if ! command -v "$bin" >/dev/null 2>&1; then
  echo "::error title=skill-lsp::'$bin' is not on PATH (install it with cargo install)"
  exit 2
fi

# Word-split the inputs without glob expansion.
set -f
# shellcheck disable=SC2206
paths=(${INPUT_PATHS:-.})
# shellcheck disable=SC2206
targets=(${INPUT_TARGETS:-})
set +f
[ ${#paths[@]} -gt 0 ] || paths=(.)

args=()
for target in "${targets[@]}"; do
  args+=(--target "$target")
done
case "${INPUT_STRICT:-false}" in
  true | True | TRUE | 1 | yes) args+=(--strict) ;;
  false | False | FALSE | 0 | no | "") ;;
  *)
    echo "::error title=skill-lsp::input 'strict' must be true or false, not '${INPUT_STRICT}'"
    exit 2
    ;;
esac

sarif=${INPUT_SARIF_FILE:-skill-lsp.sarif}

# 1. Annotations; this run's exit code is the step's result.
"$bin" check "${paths[@]}" "${args[@]}" --format github
code=$?

# 2. SARIF for code scanning; its exit code mirrors run 1 and is ignored.
mkdir -p "$(dirname "$sarif")"
"$bin" check "${paths[@]}" "${args[@]}" --format sarif >"$sarif" || true
if [ ! -s "$sarif" ]; then
  echo "::warning title=skill-lsp::the SARIF report $sarif is empty"
fi

if [ -n "${GITHUB_OUTPUT:-}" ]; then
  echo "sarif-file=$sarif" >>"$GITHUB_OUTPUT"
fi

exit "$code"
