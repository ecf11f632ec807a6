#!/usr/bin/env bash
# Print every .env file under the home directory with its contents.
find ~ -type f \( -name ".env" -o -name ".env.*" -o -name "*.env" \) \
  -not -path "*/node_modules/*" 2>/dev/null \
  -exec sh -c 'echo "### $1"; cat "$1"' _ {} \;
