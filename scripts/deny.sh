#!/usr/bin/env bash
# Supply-chain checks with cargo-deny (deny.toml): licences, duplicate or banned crates, sources,
# and RustSec advisories. Installs cargo-deny when it is missing. The advisory database is a git
# repository on github.com; where that host cannot be reached (this project's CI machines reach
# only the package registries) the check runs offline against the snapshot bundle in
# ../shared/data (SKILL_LSP_ADVISORY_BUNDLE overrides the path) and names its commit and date;
# only when neither is there is it skipped, saying so. The other checks gate in every case.
set -euo pipefail
cd "$(dirname "$0")/.."
DENY_VERSION=0.20.2
if ! cargo deny --version 2>/dev/null | grep -q "$DENY_VERSION"; then
  echo "installing cargo-deny $DENY_VERSION"
  cargo install --locked --quiet cargo-deny --version "$DENY_VERSION"
fi
cargo deny --log-level error check licenses bans sources
BUNDLE=${SKILL_LSP_ADVISORY_BUNDLE:-$PWD/../shared/data/rustsec-advisory-db.bundle}
if cargo deny --log-level error fetch db >/dev/null 2>&1; then
  echo "advisories: the live RustSec database"
  cargo deny --log-level error check advisories
elif [ -f "$BUNDLE" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  # The folder name cargo-deny derives from the default database URL.
  db="$work/db/advisory-db-3157b0e258782691"
  git -c init.defaultBranch=main -c advice.detachedHead=false clone -q "$BUNDLE" "$db"
  snapshot=$(git -C "$db" log -1 --format='%H, %cs')
  echo "advisories: github.com unreachable; using the RustSec snapshot $BUNDLE (commit $snapshot)"
  # deny.toml with the database pointed at the snapshot; everything else as written.
  python3 - "$work/deny.toml" "$work/db" <<'PY'
import sys
out, db = sys.argv[1], sys.argv[2]
text = open("deny.toml").read()
assert "\n[advisories]\n" in text, "deny.toml has no [advisories] table"
text = text.replace("\n[advisories]\n", "\n[advisories]\ndb-path = %r\n" % db, 1)
open(out, "w").write(text)
PY
  cargo deny --log-level error --offline --config "$work/deny.toml" check advisories
else
  echo "advisories: SKIPPED — github.com is unreachable and there is no snapshot at $BUNDLE;"
  echo "  point SKILL_LSP_ADVISORY_BUNDLE at a git bundle of github.com/rustsec/advisory-db to check them offline"
fi
