#!/usr/bin/env bash
# Differential check against skills-ref 0.1.1 (the Agent Skills reference validator) on our
# own fixtures and bundled skills: fails when skill-lsp's verdict (--target agentskills: any
# error rejects) differs from skills-ref's for a folder not listed, with its reason, in
# scripts/skills_ref_exceptions.txt (or when a listed folder no longer differs).
#
# Usage: scripts/ci_skills_ref.sh            (uses $SKILL_LSP_BIN, else target/debug/skill-lsp,
#                                             building it with `cargo build` when missing)
# skills-ref goes into .bench/venv (gitignored), shared with scripts/install_peers.sh.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VERSION=0.1.1
VENV="$ROOT/.bench/venv"
PY="$VENV/bin/python"

have_version() {
  [ -x "$PY" ] && [ "$("$PY" -c 'import importlib.metadata as m; print(m.version("skills-ref"))' 2>/dev/null)" = "$VERSION" ]
}
if ! have_version; then
  echo "[ci_skills_ref] installing skills-ref==$VERSION into $VENV"
  mkdir -p "$ROOT/.bench"
  [ -x "$PY" ] || python3 -m venv "$VENV"
  "$VENV/bin/pip" install --disable-pip-version-check -q "skills-ref==$VERSION"
fi

BIN="${SKILL_LSP_BIN:-$ROOT/target/debug/skill-lsp}"
if [ ! -x "$BIN" ]; then
  echo "[ci_skills_ref] building $BIN"
  cargo build --quiet
fi

exec "$PY" scripts/differential.py tests/fixtures skills --bin "$BIN" \
  --exceptions scripts/skills_ref_exceptions.txt --quiet
