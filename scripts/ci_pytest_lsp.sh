#!/usr/bin/env bash
# The independent-client LSP suite: pytest-lsp drives the skill-lsp binary with the recorded
# capability sets of Neovim 0.11, VS Code 1.65.2 and Emacs 29.1 (tests/pytest_lsp).
#
# usage: scripts/ci_pytest_lsp.sh [pytest args...]
#   SKILL_LSP_BIN  the server binary (default: target/debug/skill-lsp, built with `cargo build`
#                  when missing)
#   PYTHON         the interpreter for the venv (default: python3.11, else python3; >= 3.10)
#
# Needs only Python and PyPI. The venv lives in target/pytest-venv (gitignored) and is reused:
# pip runs again only when tests/pytest_lsp/requirements.txt or the interpreter changes.
# Exits non-zero when a test fails.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
REQUIREMENTS=tests/pytest_lsp/requirements.txt
VENV=${PYTEST_LSP_VENV:-$ROOT/target/pytest-venv}

# --- the server binary ---
if [ -n "${SKILL_LSP_BIN:-}" ]; then
  if [ ! -x "$SKILL_LSP_BIN" ]; then
    echo "ci_pytest_lsp: SKILL_LSP_BIN=$SKILL_LSP_BIN is not an executable file" >&2
    exit 2
  fi
else
  SKILL_LSP_BIN=$ROOT/target/debug/skill-lsp
  if [ ! -x "$SKILL_LSP_BIN" ]; then
    echo "ci_pytest_lsp: $SKILL_LSP_BIN is missing; running cargo build" >&2
    cargo build --quiet
  fi
fi
SKILL_LSP_BIN=$(cd "$(dirname "$SKILL_LSP_BIN")" && pwd)/$(basename "$SKILL_LSP_BIN")
export SKILL_LSP_BIN

# --- the venv ---
if [ -z "${PYTHON:-}" ]; then
  if command -v python3.11 >/dev/null 2>&1; then PYTHON=python3.11; else PYTHON=python3; fi
fi
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
  echo "ci_pytest_lsp: $PYTHON is older than 3.10 (pytest-lsp needs >= 3.10)" >&2
  exit 2
fi

stamp_of() {
  { "$PYTHON" -c 'import sys; print(sys.version)'; cat "$REQUIREMENTS"; } | cksum
}
STAMP=$VENV/.requirements-stamp
want=$(stamp_of)
if [ ! -x "$VENV/bin/python" ] || [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$want" ]; then
  rm -rf "$VENV"
  mkdir -p "$(dirname "$VENV")"
  if "$PYTHON" -m venv "$VENV" 2>/dev/null; then
    PIP=("$VENV/bin/python" -m pip)
  else
    # No ensurepip (Debian without python3-venv): an empty venv, filled by the outer pip.
    rm -rf "$VENV"
    "$PYTHON" -m venv --without-pip "$VENV"
    PIP=("$PYTHON" -m pip --python "$VENV/bin/python")
  fi
  "${PIP[@]}" install --quiet --disable-pip-version-check -r "$REQUIREMENTS"
  echo "$want" > "$STAMP"
fi

# --- the suite ---
echo "ci_pytest_lsp: $SKILL_LSP_BIN" >&2
# No __pycache__ or .pytest_cache in the source tree (pytest.ini disables the cache provider).
export PYTHONDONTWRITEBYTECODE=1
exec "$VENV/bin/python" -m pytest tests/pytest_lsp -q "$@"
