#!/usr/bin/env bash
# Symlink files from a dotfiles repo into $HOME, backing up what they replace.
set -euo pipefail

dry=0
if [ "${1:-}" = "--dry-run" ]; then dry=1; shift; fi
repo="${1:?usage: link.sh [--dry-run] <dotfiles-dir>}"
backup="$HOME/.dotfiles-backup/$(date +%Y%m%d-%H%M%S)"

for name in .bashrc .zshrc .gitconfig .tmux.conf .vimrc; do
  src="$repo/$name"
  dst="$HOME/$name"
  [ -e "$src" ] || continue
  if [ "$dry" = 1 ]; then
    echo "would link $dst -> $src"
    continue
  fi
  if [ -e "$dst" ] && [ ! -L "$dst" ]; then
    mkdir -p "$backup"
    mv "$dst" "$backup/"
  fi
  ln -sfn "$src" "$dst"
  echo "linked $dst"
done
