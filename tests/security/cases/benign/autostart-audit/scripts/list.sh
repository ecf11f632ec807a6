#!/usr/bin/env bash
# Read-only listing of per-user autostart entries.
echo "== crontab =="
crontab -l 2>/dev/null || echo "(none)"

if command -v systemctl >/dev/null 2>&1; then
  echo "== systemd user units =="
  systemctl --user list-unit-files --state=enabled --no-pager 2>/dev/null
  echo "== timers =="
  systemctl --user list-timers --all --no-pager 2>/dev/null
fi

if [ -d "$HOME/Library/LaunchAgents" ]; then
  echo "== LaunchAgents =="
  ls -l "$HOME/Library/LaunchAgents"
fi

echo "== shell startup lines that run programs =="
grep -nE 'nohup|curl|wget|&$' ~/.bashrc ~/.zshrc ~/.profile 2>/dev/null || echo "(none)"
