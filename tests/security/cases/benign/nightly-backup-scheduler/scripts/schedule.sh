#!/usr/bin/env bash
# Add or remove one crontab line for the user's backup script.
set -euo pipefail

if [ "${1:-}" = "--remove" ]; then
  script="${2:?script path}"
  crontab -l 2>/dev/null | grep -vF "$script" | crontab -
  echo "removed schedule for $script"
  exit 0
fi

script="${1:?script path}"
time="${2:-02:30}"
hh="${time%:*}"; mm="${time#*:}"
line="$mm $hh * * * $script >> \$HOME/backup.log 2>&1"

( crontab -l 2>/dev/null | grep -vF "$script"; echo "$line" ) | crontab -
echo "scheduled: $line"
