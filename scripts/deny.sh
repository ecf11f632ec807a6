#!/usr/bin/env bash
# Supply-chain checks with cargo-deny (deny.toml): licences, duplicate or banned crates, sources,
# and RustSec advisories. Installs cargo-deny when it is missing. The advisory database is a git
# repository on github.com; where that host cannot be reached (this project's CI machines reach
# only the package registries) the advisory check says so and is skipped, the others still gate.
set -euo pipefail
cd "$(dirname "$0")/.."
DENY_VERSION=0.20.2
if ! cargo deny --version 2>/dev/null | grep -q "$DENY_VERSION"; then
  echo "installing cargo-deny $DENY_VERSION"
  cargo install --locked --quiet cargo-deny --version "$DENY_VERSION"
fi
cargo deny --log-level error check licenses bans sources
if cargo deny --log-level error fetch db >/dev/null 2>&1; then
  cargo deny --log-level error check advisories
else
  echo "advisories: skipped — the RustSec database (github.com/RustSec/advisory-db) is unreachable from here"
fi
