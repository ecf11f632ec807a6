#!/usr/bin/env bash
# The install step of the skill-lsp GitHub Action (action.yml), runnable locally too.
#
#   install: cargo    (the default) use a skill-lsp already on PATH, else build the action's own
#                     checkout with `cargo install`; with `version`, fetch that git ref of the
#                     action's repository and build it.
#   install: release  download the prebuilt binary for the runner from the GitHub release
#                     `version` (default: the action's own ref, when it is a tag such as v0.1.0),
#                     check it against the release's SHA256SUMS, and put it on PATH. No release,
#                     no asset for this runner, or no network: a warning, then the cargo way.
#                     A checksum that does not match is an error: nothing is installed.
#
# Environment (as the action sets it): INPUT_INSTALL, INPUT_VERSION, ACTION_REPOSITORY,
# ACTION_REF, GITHUB_SERVER_URL, GITHUB_ACTION_PATH, GITHUB_PATH, RUNNER_OS, RUNNER_ARCH,
# RUNNER_TEMP; SKILL_LSP_RELEASE_URL replaces
# $GITHUB_SERVER_URL/$ACTION_REPOSITORY/releases/download (the tests serve a fake release).
set -euo pipefail

install_mode=${INPUT_INSTALL:-cargo}
version=${INPUT_VERSION:-}

cargo_install() {
  if [ -z "$version" ]; then
    if command -v skill-lsp >/dev/null 2>&1; then
      echo "Using $(command -v skill-lsp)"
      return 0
    fi
    cargo install --path "$GITHUB_ACTION_PATH" --locked
  else
    if [ -z "${ACTION_REPOSITORY:-}" ]; then
      echo "::error title=skill-lsp::cannot tell which repository to install version '$version' from"
      exit 2
    fi
    local src="${RUNNER_TEMP:-/tmp}/skill-lsp-src"
    rm -rf "$src"
    git init -q "$src"
    git -C "$src" fetch -q --depth 1 "$GITHUB_SERVER_URL/$ACTION_REPOSITORY" "$version"
    git -C "$src" checkout -q FETCH_HEAD
    cargo install --path "$src" --locked --force
  fi
}

# The release asset for this runner: the Rust target triple the release workflow builds for it.
release_asset() {
  case "${RUNNER_OS:-}/${RUNNER_ARCH:-}" in
    Linux/X64) echo skill-lsp-x86_64-unknown-linux-musl ;;
    Linux/ARM64) echo skill-lsp-aarch64-unknown-linux-musl ;;
    macOS/X64) echo skill-lsp-x86_64-apple-darwin ;;
    macOS/ARM64) echo skill-lsp-aarch64-apple-darwin ;;
    Windows/X64) echo skill-lsp-x86_64-pc-windows-msvc.exe ;;
    *) return 1 ;;
  esac
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d' ' -f1
  else
    shasum -a 256 "$1" | cut -d' ' -f1
  fi
}

# Downloads and installs the release binary; returns 1 (after a warning) when the cargo way
# should be tried instead, and exits on a checksum that does not match.
release_install() {
  local tag=$version
  if [ -z "$tag" ]; then
    case "${ACTION_REF:-}" in
      v[0-9]*) tag=$ACTION_REF ;;
      *)
        echo "::warning title=skill-lsp::install: release needs a release tag: set version (e.g. v0.1.0) or use the action at a tag; building with cargo instead"
        return 1
        ;;
    esac
  fi
  local asset
  if ! asset=$(release_asset); then
    echo "::warning title=skill-lsp::no prebuilt skill-lsp for ${RUNNER_OS:-?}/${RUNNER_ARCH:-?}; building with cargo instead"
    return 1
  fi
  local base=${SKILL_LSP_RELEASE_URL:-$GITHUB_SERVER_URL/${ACTION_REPOSITORY:-}/releases/download}
  local dir="${RUNNER_TEMP:-/tmp}/skill-lsp-release"
  rm -rf "$dir"
  mkdir -p "$dir/bin"
  echo "Downloading $asset and SHA256SUMS of release $tag"
  if ! curl -fsSL --retry 3 --connect-timeout 20 -o "$dir/SHA256SUMS" "$base/$tag/SHA256SUMS" ||
    ! curl -fsSL --retry 3 --connect-timeout 20 -o "$dir/$asset" "$base/$tag/$asset"; then
    echo "::warning title=skill-lsp::could not download $asset of release $tag; building with cargo instead"
    return 1
  fi
  local want got
  want=$(awk -v f="$asset" '$2 == f || $2 == "*" f { print $1; exit }' "$dir/SHA256SUMS")
  got=$(sha256_of "$dir/$asset")
  if [ -z "$want" ]; then
    echo "::error title=skill-lsp::SHA256SUMS of release $tag does not list $asset; not installing it"
    exit 1
  fi
  if [ "$want" != "$got" ]; then
    echo "::error title=skill-lsp::$asset of release $tag does not match its SHA256SUMS entry (expected $want, got $got); not installing it"
    exit 1
  fi
  local exe=skill-lsp
  case $asset in *.exe) exe=skill-lsp.exe ;; esac
  mv "$dir/$asset" "$dir/bin/$exe"
  chmod 755 "$dir/bin/$exe"
  local reported
  if ! reported=$("$dir/bin/$exe" --version); then
    echo "::error title=skill-lsp::the downloaded $asset does not run"
    exit 1
  fi
  case "$reported" in
    "skill-lsp ${tag#v} "* | "skill-lsp ${tag#v}") ;;
    *)
      echo "::error title=skill-lsp::release $tag holds '$reported', not skill-lsp ${tag#v}"
      exit 1
      ;;
  esac
  echo "$dir/bin" >>"${GITHUB_PATH:?GITHUB_PATH is not set}"
  echo "Installed $reported (checksum verified) to $dir/bin"
  export PATH="$dir/bin:$PATH"
}

case $install_mode in
  cargo) cargo_install ;;
  release) release_install || cargo_install ;;
  *)
    echo "::error title=skill-lsp::input 'install' must be cargo or release, not '$install_mode'"
    exit 2
    ;;
esac
skill-lsp --version
