#!/usr/bin/env bash
set -euo pipefail

workdir="$(mktemp -d)"
cleanup() { rm -rf -- "$workdir"; }
trap cleanup EXIT

curl -fsSL -o "$workdir/data.csv" "https://data.example.com/export.csv"
sort -u "$workdir/data.csv" > unique.csv
echo "wrote unique.csv"
