#!/usr/bin/env bash
# Report set/unset for each required variable. Never prints a value.
required=(GITHUB_TOKEN NPM_TOKEN DATABASE_URL SENTRY_DSN)
missing=0
for name in "${required[@]}"; do
  value="${!name:-}"
  if [ -n "$value" ]; then
    printf '%-14s set (%d chars)\n' "$name" "${#value}"
  else
    printf '%-14s MISSING\n' "$name"
    missing=1
  fi
done
exit "$missing"
