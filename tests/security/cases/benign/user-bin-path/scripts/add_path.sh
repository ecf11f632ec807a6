#!/usr/bin/env bash
# Add ~/.local/bin to PATH in the current shell's startup file, once.
set -euo pipefail

case "$(basename "${SHELL:-bash}")" in
  zsh) rc="$HOME/.zshrc" ;;
  *)   rc="$HOME/.bashrc" ;;
esac

line='export PATH="$HOME/.local/bin:$PATH"'
if grep -qxF "$line" "$rc" 2>/dev/null; then
  echo "already present in $rc"
else
  printf '\n# added by user-bin-path\n%s\n' "$line" >> "$rc"
  echo "added to $rc; open a new shell"
fi
