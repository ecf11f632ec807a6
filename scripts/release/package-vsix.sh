#!/usr/bin/env bash
# Packages the VS Code extension (editors/vscode) as a .vsix.
#
#   scripts/release/package-vsix.sh universal OUT.vsix
#   scripts/release/package-vsix.sh TARGET BINARY OUT.vsix
#
# TARGET is a `vsce package --target` name (linux-x64, linux-arm64, alpine-x64, alpine-arm64,
# darwin-x64, darwin-arm64, win32-x64); BINARY is the skill-lsp built for it. The binary goes in
# as bundled/TARGET/skill-lsp (skill-lsp.exe for win32-*) with mode 755, which the extension runs
# before looking on PATH. `universal` packages no binary: that extension looks on PATH.
# Needs editors/vscode/node_modules (npm ci). The bundled/ folder is removed again afterwards.
set -euo pipefail

usage() {
  echo "usage: $0 universal OUT.vsix | $0 TARGET BINARY OUT.vsix" >&2
  exit 2
}
abspath() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }

[ $# -ge 2 ] || usage
target=$1
if [ "$target" = universal ]; then
  [ $# -eq 2 ] || usage
  binary=
  out=$(abspath "$2")
else
  [ $# -eq 3 ] || usage
  case $target in
    linux-x64 | linux-arm64 | alpine-x64 | alpine-arm64 | darwin-x64 | darwin-arm64 | win32-x64 | win32-arm64) ;;
    *)
      echo "package-vsix: unknown target '$target'" >&2
      exit 2
      ;;
  esac
  binary=$(abspath "$2")
  out=$(abspath "$3")
  if [ ! -f "$binary" ]; then
    echo "package-vsix: $binary is not a file" >&2
    exit 2
  fi
fi

EXT=$(cd "$(dirname "$0")/../../editors/vscode" && pwd)
cd "$EXT"
# A bundled/ folder left from an interrupted run would end up in the next package.
rm -rf bundled
trap 'rm -rf "$EXT/bundled"' EXIT

args=(--skip-license -o "$out")
if [ -n "$binary" ]; then
  name=skill-lsp
  case $target in win32-*) name=skill-lsp.exe ;; esac
  mkdir -p "bundled/$target"
  install -m 755 "$binary" "bundled/$target/$name"
  args+=(--target "$target")
fi
mkdir -p "$(dirname "$out")"
npx vsce package "${args[@]}"
