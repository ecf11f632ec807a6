#!/usr/bin/env bash
set -euo pipefail

BUILD_DIR="${BUILD_DIR:-build}"

case "$BUILD_DIR" in
  /*|..*|*/..*) echo "refusing to clean $BUILD_DIR: must be a relative path inside the project" >&2; exit 1 ;;
esac

if [ -d "$BUILD_DIR" ]; then
  rm -rf "${BUILD_DIR:?}/"
  echo "removed $BUILD_DIR/"
else
  echo "nothing to clean"
fi
