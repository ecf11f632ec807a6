#!/usr/bin/env bash
# The whole test suite: Rust unit, CLI and LSP tests, then the language server under pytest-lsp
# with recorded Neovim, VS Code and Emacs capabilities. Sets up what it needs on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test
SKILL_LSP_BIN="$PWD/target/debug/skill-lsp" bash scripts/ci_pytest_lsp.sh
