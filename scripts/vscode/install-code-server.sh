#!/usr/bin/env bash
# Installs code-server (VS Code server + web workbench) and headless Chromium for the VS Code
# extension tests, idempotently.
#
#   scripts/vscode/install-code-server.sh PREFIX      -> PREFIX/node_modules/.bin/code-server
#
# Why the dance: code-server 4.100.3 (VS Code 1.100.3) is the newest release whose engines.node is
# 20; its npm postinstall downloads ripgrep and prebuilt argon2 from GitHub, which is unreachable
# here, so we run the postinstall steps ourselves with Debian's ripgrep and source builds.
set -euo pipefail

PREFIX=${1:?usage: install-code-server.sh PREFIX}
CS_VERSION=${CS_VERSION:-4.100.3}
STAMP="$PREFIX/.installed-$CS_VERSION"
export DEBIAN_FRONTEND=noninteractive

# Debian packages: chromium drives the workbench; krb5/ripgrep/toolchain are code-server's build needs.
PKGS=(chromium libkrb5-dev ripgrep build-essential pkg-config python3 curl)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install: apt-get install ${missing[*]}"
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ -f "$STAMP" ] && [ -x "$PREFIX/node_modules/.bin/code-server" ]; then
  echo "install: code-server $CS_VERSION already in $PREFIX"
  exit 0
fi

echo "install: code-server $CS_VERSION into $PREFIX"
rm -rf "$PREFIX"
mkdir -p "$PREFIX"
cd "$PREFIX"
echo '{"private":true}' > package.json
npm install --no-fund --no-audit --loglevel=error --ignore-scripts "code-server@$CS_VERSION"
npm rebuild --loglevel=error --build-from-source argon2
cd node_modules/code-server/lib/vscode
npm install --no-fund --no-audit --loglevel=error --omit=dev --ignore-scripts
mkdir -p node_modules/@vscode/ripgrep/bin
cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
npm_config_yes=true npm rebuild --loglevel=error
ln -sfn node_modules node_modules.asar
(cd bin/remote-cli && ln -sfn code-linux.sh code-server)
(cd bin/helpers && ln -sfn browser-linux.sh browser.sh)
(cd extensions && npm install --no-fund --no-audit --loglevel=error --omit=dev)

# --version writes ~/.config/code-server/config.yaml unless XDG_CONFIG_HOME points elsewhere.
tmp=$(mktemp -d)
XDG_CONFIG_HOME=$tmp XDG_DATA_HOME=$tmp "$PREFIX/node_modules/.bin/code-server" --version 2>/dev/null | grep -E '^[0-9]' 
rm -rf "$tmp"
touch "$STAMP"
