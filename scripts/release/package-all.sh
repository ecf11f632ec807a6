#!/usr/bin/env bash
# The release's packaging step: from a folder of release binaries, every .vsix and npm package.
#
#   scripts/release/package-all.sh BIN_DIR OUT_DIR
#
# BIN_DIR holds the binaries as the release names them, skill-lsp-<rust target>[.exe]. For each
# platform whose binary is there this writes the platform .vsix files and the npm platform
# package; the universal .vsix and the npm launcher are always written. Linux binaries are the
# static musl builds, so one binary serves both the linux-* and the alpine-* extension targets.
# With REQUIRE_ALL=1 (the release workflow) a missing binary is an error. Needs
# editors/vscode/node_modules (npm ci) and Node.
set -euo pipefail

[ $# -eq 2 ] || {
  echo "usage: $0 BIN_DIR OUT_DIR" >&2
  exit 2
}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN_DIR=$(cd "$1" && pwd)
mkdir -p "$2"
OUT=$(cd "$2" && pwd)
VERSION=$(python3 -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb"))["package"]["version"])' "$ROOT/Cargo.toml")

# rust target | npm platform (also a vsce target) | more vsce targets
PLATFORMS=(
  "x86_64-unknown-linux-musl linux-x64 alpine-x64"
  "aarch64-unknown-linux-musl linux-arm64 alpine-arm64"
  "x86_64-apple-darwin darwin-x64"
  "aarch64-apple-darwin darwin-arm64"
  "x86_64-pc-windows-msvc win32-x64"
)

binary_of() {
  case $1 in
    *windows*) echo "$BIN_DIR/skill-lsp-$1.exe" ;;
    *) echo "$BIN_DIR/skill-lsp-$1" ;;
  esac
}
found=0
for row in "${PLATFORMS[@]}"; do
  read -r triple _ <<<"$row"
  if [ -f "$(binary_of "$triple")" ]; then
    found=$((found + 1))
  elif [ "${REQUIRE_ALL:-}" = 1 ]; then
    echo "package-all: $(binary_of "$triple") is missing" >&2
    exit 1
  fi
done
if [ "$found" -eq 0 ]; then
  echo "package-all: no skill-lsp-<target> binary in $BIN_DIR" >&2
  exit 1
fi

bash "$ROOT/scripts/release/package-vsix.sh" universal "$OUT/skill-lsp-$VERSION.vsix" >/dev/null
echo "$OUT/skill-lsp-$VERSION.vsix"
node "$ROOT/scripts/release/npm-pack.js" launcher "$OUT"
for row in "${PLATFORMS[@]}"; do
  read -r triple platform extra <<<"$row"
  binary=$(binary_of "$triple")
  [ -f "$binary" ] || continue
  for vsce_target in $platform $extra; do
    bash "$ROOT/scripts/release/package-vsix.sh" "$vsce_target" "$binary" "$OUT/skill-lsp-$vsce_target-$VERSION.vsix" >/dev/null
    echo "$OUT/skill-lsp-$vsce_target-$VERSION.vsix"
  done
  node "$ROOT/scripts/release/npm-pack.js" "$platform" "$binary" "$OUT"
done
