#!/usr/bin/env bash
# The client oracles: the real agent clients, each installed from npm at the version pinned in
# tests/clients/clients.py, run offline against a recording model server on 127.0.0.1, and the
# skill listing each one sends compared with `skill-lsp catalog --target CLIENT` (tests/clients).
#
# usage: scripts/ci_clients.sh [pytest args...]
#   SKILL_LSP_BIN     the binary (default: target/debug/skill-lsp, built when missing)
#   SKILL_LSP_CLIENTS where the clients are installed (default: .cache/clients, reused)
#
# Needs Node 20 with npm and Python 3; the first install takes a minute or two, later runs reuse
# it. Prints a per-client tally of agreements at the end (target/oracle-report.jsonl).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CLIENTS=${SKILL_LSP_CLIENTS:-$ROOT/.cache/clients}
VENV=$ROOT/target/clients-venv

if [ -z "${SKILL_LSP_BIN:-}" ]; then
  SKILL_LSP_BIN=$ROOT/target/debug/skill-lsp
  [ -x "$SKILL_LSP_BIN" ] || cargo build --quiet --bin skill-lsp
fi
export SKILL_LSP_BIN SKILL_LSP_CLIENTS=$CLIENTS

# The pins of the clients with oracles, read from the harness: a new release is one edit there.
pins=$(cd tests/clients && python3 -c 'from clients import CLIENTS, PINS; [print(*PINS[c]) for c in CLIENTS]')
start=$(date +%s)
while read -r folder package version; do
  [ -n "$folder" ] || continue
  manifest=$CLIENTS/$folder/node_modules/$package/package.json
  if [ -f "$manifest" ] && grep -q "\"version\": \"$version\"" "$manifest"; then
    continue
  fi
  echo "ci_clients: installing $package@$version into $CLIENTS/$folder"
  mkdir -p "$CLIENTS/$folder"
  (cd "$CLIENTS/$folder" && echo '{"private": true}' > package.json \
    && npm install --no-audit --no-fund --loglevel=error "$package@$version" >/dev/null)
done <<< "$pins"
echo "ci_clients: clients ready in $(( $(date +%s) - start )) s"

if [ ! -x "$VENV/bin/pytest" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet "pytest==8.3.4"
fi
REPORT=$ROOT/target/oracle-report.jsonl
rm -f "$REPORT"
status=0
(cd tests/clients && SKILL_LSP_ORACLE_REPORT=$REPORT "$VENV/bin/pytest" -q "$@") || status=$?
if [ -f "$REPORT" ]; then
  python3 - "$REPORT" <<'PY'
import collections, json, sys
tally = collections.defaultdict(lambda: [0, 0, 0, ""])
for line in open(sys.argv[1]):
    row = json.loads(line)
    entry = tally[row["client"]]
    entry[0] += row["lines"]; entry[1] += row["agree"]; entry[2] += row["differ"]; entry[3] = row["version"]
for client, (lines, agree, differ, version) in sorted(tally.items()):
    print(f"ci_clients: {client} {version}: {lines} listed lines, {agree} agree, {differ} differ")
PY
fi
exit $status
