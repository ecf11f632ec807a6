#!/usr/bin/env bash
# Runs one fuzz target until RUNS executions or SECONDS seconds, whichever comes first, and
# prints libFuzzer's final statistics. The stable toolchain builds it with RUSTC_BOOTSTRAP=1
# (cargo-fuzz passes nightly-only flags); no sanitizer, as the code under test is safe Rust and
# the invariants are the point. Usage: fuzz/run.sh TARGET [RUNS] [SECONDS]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TARGET=${1:?target: lint, lsp_session, sse, document or framing}
RUNS=${2:-10000000}
SECONDS_MAX=${3:-1800}
cd "$HERE"
[ -d "corpus/$TARGET" ] || ./seed.sh
mkdir -p "artifacts/$TARGET"
RUSTC_BOOTSTRAP=1 cargo fuzz run -s none "$TARGET" "corpus/$TARGET" -- \
  -runs="$RUNS" -max_total_time="$SECONDS_MAX" -print_final_stats=1 \
  -artifact_prefix="artifacts/$TARGET/" -timeout=30 -rss_limit_mb=2048
