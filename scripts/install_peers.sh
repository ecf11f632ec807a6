#!/usr/bin/env bash
# Install the peer tools that benches/bench.sh compares skill-lsp against.
#
# Everything goes into .bench/ at the repository root (gitignored), except
# hyperfine and GNU time, which come from Debian's packages.
# Idempotent: a tool already installed at the pinned version is skipped.
#
# Usage: scripts/install_peers.sh [all|apt|skills-ref|madskills|agnix]...
#
# The cargo installs run one after the other (the machine has 2 cores).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$ROOT/.bench"
mkdir -p "$BENCH"

SKILLS_REF_VERSION="${SKILLS_REF_VERSION:-0.1.1}"
MADSKILLS_VERSION="${MADSKILLS_VERSION:-0.1.1}"
AGNIX_VERSION="${AGNIX_VERSION:-0.60.3}"

status=0
log() { printf '[install_peers] %s\n' "$*"; }

install_apt() {
  local need=()
  command -v hyperfine >/dev/null 2>&1 || need+=(hyperfine)
  [ -x /usr/bin/time ] || need+=(time)
  if [ ${#need[@]} -eq 0 ]; then
    log "hyperfine $(hyperfine --version | awk '{print $2}') and /usr/bin/time already installed"
    return 0
  fi
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  log "apt-get install ${need[*]}"
  if ! $sudo apt-get install -y "${need[@]}" >/dev/null 2>&1; then
    $sudo apt-get update >/dev/null 2>&1 || true
    $sudo apt-get install -y "${need[@]}" || { log "apt-get install ${need[*]} FAILED"; status=1; }
  fi
}

install_skills_ref() {
  local venv="$BENCH/venv"
  if [ -x "$venv/bin/agentskills" ] &&
     [ "$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("skills-ref"))' 2>/dev/null)" = "$SKILLS_REF_VERSION" ]; then
    log "skills-ref $SKILLS_REF_VERSION already installed in $venv"
    return 0
  fi
  log "installing skills-ref==$SKILLS_REF_VERSION into $venv"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv" || { status=1; return; }
  "$venv/bin/pip" install --disable-pip-version-check -q "skills-ref==$SKILLS_REF_VERSION" ||
    { log "skills-ref install FAILED"; status=1; }
}

# cargo_install CRATE VERSION ROOTDIR BIN
cargo_install() {
  local crate="$1" version="$2" root="$3" bin="$4"
  local marker="$root/.installed-$crate-$version"
  if [ -x "$root/bin/$bin" ] && [ -f "$marker" ]; then
    log "$crate $version already installed in $root"
    return 0
  fi
  if ! command -v cargo >/dev/null 2>&1; then
    log "cargo not found; cannot install $crate"; status=1; return
  fi
  log "cargo install $crate --version $version (takes a few minutes)"
  # A separate target dir so we never contend with the project's target/.
  if CARGO_TARGET_DIR="$BENCH/cargo-target" \
     cargo install "$crate" --version "$version" --locked --root "$root"; then
    touch "$marker"
  else
    log "cargo install $crate $version FAILED"; status=1
  fi
}

want="${*:-all}"
for w in $want; do
  case "$w" in
    all) install_apt; install_skills_ref
         cargo_install madskills "$MADSKILLS_VERSION" "$BENCH/madskills" madskills
         cargo_install agnix-cli "$AGNIX_VERSION" "$BENCH/agnix" agnix ;;
    apt) install_apt ;;
    skills-ref) install_skills_ref ;;
    madskills) cargo_install madskills "$MADSKILLS_VERSION" "$BENCH/madskills" madskills ;;
    agnix) cargo_install agnix-cli "$AGNIX_VERSION" "$BENCH/agnix" agnix ;;
    *) log "unknown target: $w"; status=2 ;;
  esac
done

# Free the intermediate build products of the cargo installs.
rm -rf "$BENCH/cargo-target"

log "summary:"
command -v hyperfine >/dev/null 2>&1 && log "  hyperfine: $(hyperfine --version)" || log "  hyperfine: MISSING"
[ -x /usr/bin/time ] && log "  GNU time: $(/usr/bin/time --version 2>&1 | head -1)" || log "  GNU time: MISSING"
[ -x "$BENCH/venv/bin/agentskills" ] &&
  log "  skills-ref: $("$BENCH/venv/bin/python" -c 'import importlib.metadata as m; print(m.version("skills-ref"))')" ||
  log "  skills-ref: MISSING"
[ -x "$BENCH/madskills/bin/madskills" ] && log "  madskills: $("$BENCH/madskills/bin/madskills" --version 2>&1 | head -1)" || log "  madskills: MISSING"
[ -x "$BENCH/agnix/bin/agnix" ] && log "  agnix: $("$BENCH/agnix/bin/agnix" --version 2>&1 | head -1)" || log "  agnix: MISSING"
exit $status
