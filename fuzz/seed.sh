#!/usr/bin/env bash
# Seeds the fuzz corpora from the repository's own SKILL.md files (fixtures and example skills)
# and a few SSE streams. Usage: fuzz/seed.sh   (run from anywhere)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
mkdir -p "$HERE"/corpus/{lint,lsp_session,sse,document,framing}
i=0
while IFS= read -r -d '' file; do
  i=$((i + 1))
  # The lint target's first byte selects the targets (0xff: all of them).
  { printf '\xff'; cat "$file"; } > "$HERE/corpus/lint/seed-$i"
  # The session and document targets read op codes, so a file's bytes make a varied session.
  head -c 512 "$file" > "$HERE/corpus/lsp_session/seed-$i"
  head -c 400 "$file" > "$HERE/corpus/document/seed-$i"
done < <(find "$ROOT/tests/fixtures" "$ROOT/skills" -name 'SKILL.md' -print0)
sse() { printf '\x00%b' "$2" > "$HERE/corpus/sse/$1"; }
sse text 'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"text":"hi"}}\n\n'
sse crlf 'event: message_start\r\ndata: {"a":1}\r\n\r\n: comment\r\ndata: x\r\ndata: y\r\n\r\n'
sse done 'data: {"choices":[{"delta":{"content":"ok"}}]}\n\ndata: [DONE]'
sse bom '\xef\xbb\xbfdata:no-space\revent:e\r\r'
# Framing: the first byte picks the piece size; well-framed, overstated, understated, noise.
frame() { printf '\x05%b' "$2" > "$HERE/corpus/framing/$1"; }
frame good 'Content-Length: 2\r\n\r\n{}Content-Length: 3\r\n\r\n[1]'
frame overstated 'Content-Length: 40\r\n\r\n{}Content-Length: 2\r\n\r\n{}'
frame understated 'Content-Length: 1\r\n\r\n{}Content-Length: 2\r\n\r\n{}'
frame noise 'x\ny\r\n\r\nContent-Type: a\r\ncontent-length:   7\r\n\r\n"\\u000a"'
echo "seeded $i SKILL.md files into $HERE/corpus"
