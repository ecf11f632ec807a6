#!/usr/bin/env bash
# Post the build result to Slack. Message holds no secrets or environment.
set -euo pipefail

: "${SLACK_WEBHOOK_URL:?set SLACK_WEBHOOK_URL as a CI secret}"
status="${1:-unknown}"
text="Build *${status}* for ${GITHUB_REPOSITORY:-repo}@${GITHUB_REF_NAME:-branch} (${GITHUB_SHA:0:7})"

curl -fsS -X POST -H 'Content-Type: application/json' \
  --data "$(jq -n --arg t "$text" '{text: $t}')" \
  "$SLACK_WEBHOOK_URL"
