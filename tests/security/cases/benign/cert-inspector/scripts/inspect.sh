#!/usr/bin/env bash
# Turn a base64 certificate body into PEM and print its fields.
set -euo pipefail

in="$1"
pem="${in%.*}.pem"

if ! grep -q "BEGIN CERTIFICATE" "$in"; then
  {
    echo "-----BEGIN CERTIFICATE-----"
    tr -d ' \n\r' < "$in" | base64 -d | base64 -w 64
    echo "-----END CERTIFICATE-----"
  } > "$pem"
else
  cp "$in" "$pem"
fi

openssl x509 -in "$pem" -noout -subject -issuer -dates -ext subjectAltName
