#!/usr/bin/env bash
# Encrypted local backup of keys and dotfiles. No network access.
set -euo pipefail

dest="${1:?usage: backup.sh <mount-point>}"
[ -d "$dest" ] || { echo "not a directory: $dest" >&2; exit 1; }

stamp="$(date +%Y%m%d-%H%M%S)"
archive="$dest/home-keys-$stamp.tar.gz.gpg"

tar -C "$HOME" -czf - \
  .ssh .gnupg .gitconfig .bashrc .zshrc 2>/dev/null \
  | gpg --symmetric --cipher-algo AES256 -o "$archive"

chmod 600 "$archive"
echo "wrote $archive ($(du -h "$archive" | cut -f1))"
