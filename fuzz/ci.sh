#!/usr/bin/env bash
# CI's bounded fuzzing: the framing target (the server's reader of client bytes) under
# libFuzzer for FUZZ_SECONDS (default 60). cargo-fuzz is installed from crates.io into
# .cache/cargo-fuzz the first time; the fuzz build lives in fuzz/target. A crash or a broken
# invariant fails the step and leaves the input in fuzz/artifacts/framing/.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
TOOLS="$ROOT/.cache/cargo-fuzz"
if [ ! -x "$TOOLS/bin/cargo-fuzz" ]; then
  cargo install --quiet --locked cargo-fuzz --version '^0.13' --root "$TOOLS"
fi
export PATH="$TOOLS/bin:$PATH"
"$HERE/run.sh" framing 1000000000 "${FUZZ_SECONDS:-60}"
