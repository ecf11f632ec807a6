#!/usr/bin/env bash
# Token economy of the catalog-first agent: the system prompt's catalog against inlining every
# SKILL.md, for the bundled skills and a generated 100-skill corpus. Tokens are estimated as
# bytes / 4. Usage: benches/token_economy.sh [SKILL_LSP_BIN]
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-target/release/skill-lsp}"
[ -x "$bin" ] || cargo build --release --quiet
corpus=/tmp/skill-token-100
[ -d "$corpus/skills" ] || python3 benches/gen_corpus.py "$corpus" --skills 100 > /dev/null

row() {
  local label=$1 root=$2
  local catalog inline skills
  catalog=$("$bin" catalog "$root" | wc -c)
  inline=$(find "$root" -name SKILL.md -print0 | xargs -0 cat | wc -c)
  skills=$(find "$root" -name SKILL.md | wc -l)
  awk -v l="$label" -v s="$skills" -v c="$catalog" -v i="$inline" 'BEGIN {
    printf "| %s | %d | %d B (~%d tokens) | %d B (~%d tokens) | %.1f %% |\n", l, s, c, c/4, i, i/4, 100*c/i }'
}

echo "| skills | count | catalog in the system prompt | every SKILL.md inlined | catalog / inlined |"
echo "|---|---|---|---|---|"
row "bundled (skills/)" skills
row "generated (100)" "$corpus/skills"
