#!/usr/bin/env bash
# The ways in without a Rust toolchain, exercised as a user would (the VS Code package with its
# bundled server is tested in code-server by scripts/ci_vscode.sh):
#   a. one version everywhere: `cargo xtask versions check` passes here, and fails (then
#      `versions sync` mends it) on a copy whose Cargo.toml's version moved and the other
#      manifests did not;
#   b. the binary is stripped (no symbol table), with its size;
#   c. the wheel: `maturin build --release` (bindings = "bin"), what the wheel holds and its
#      tag, `pip install` into a fresh venv, `skill-lsp --version` and `skill-lsp check skills`
#      from the venv's bin, and the `language: system` pre-commit hook (skill-lsp-check-system)
#      in a sample repository with only that venv's skill-lsp on PATH;
#   d. the npm packages (`cargo xtask npm-pack`) of the launcher and linux-x64, installed from
#      the tarballs into an empty folder, `npx skill-lsp check` giving the same JSON and exit
#      codes as the binary itself, the error without the platform package, SIGTERM passed on;
#   e. the Action's `install: release` (action/install.sh) against a fake release
#      served on 127.0.0.1: checksum verified and on PATH, a tampered binary refused, no
#      release or an unknown runner falling back to cargo;
#   f. the release workflow's packaging step (`cargo xtask dist`) with the one binary this
#      machine builds: the .vsix files and npm packages it writes;
#   g. release.yml and action.yml against GitHub's schemas (check-jsonschema), and the three
#      lists of release targets (workflow, packaging, Action download) agreeing.
# The sizes of the binary, the wheel, the npm tarballs and the .vsix files are printed.
#
# usage: scripts/ci_packages.sh SKILL_LSP_BINARY
#   SKILL_LSP_BINARY  the release binary (cargo build --release) for parts b, d and e
#   PYTHON            the interpreter for the venvs (default: python3.11, else python3)
#
# Installs what it needs (pip and npm only): maturin, pre-commit and check-jsonschema into
# .cache/packaging/tools-venv (kept while its place, the interpreter and the pins are unchanged). maturin builds
# with cargo into target/, so after `cargo build --release` it only packs. Prints `N passed,
# M failed` last; exits non-zero when a check fails.
# shellcheck disable=SC2317,SC2329 # helpers run through `check`, `eval` or a trap look unused to shellcheck
set -euo pipefail

if [ $# -ne 1 ] || [ ! -x "$1" ] || [ ! -f "$1" ]; then
  echo "usage: $0 SKILL_LSP_BINARY (an executable file)" >&2
  exit 2
fi
cd "$(dirname "$0")/.."
ROOT=$PWD
MATURIN_VERSION=1.16.0
PRE_COMMIT_VERSION=4.7.0
CHECK_JSONSCHEMA_VERSION=0.39.0
VERSION=$(python3 -c 'import tomllib; print(tomllib.load(open("Cargo.toml", "rb"))["package"]["version"])')

TMP=$(mktemp -d "${TMPDIR:-/tmp}/skill-lsp-ci-packages.XXXXXX")
SERVER_PID=
SLEEP_PID=
cleanup() {
  for pid in $SERVER_PID $SLEEP_PID; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$TMP"
}
trap cleanup EXIT

# The binary is copied once: a later cargo build (maturin's) may replace the file it names.
BIN=$TMP/skill-lsp
cp "$1" "$BIN"

# shellcheck source=lib/checks.sh
source "$ROOT/scripts/lib/checks.sh"
# shellcheck source=lib/path.sh
source "$ROOT/scripts/lib/path.sh"
size_of() { stat -c %s "$1"; }
mib() { python3 -c 'import sys; print(f"{int(sys.argv[1]) / 1048576:.1f} MiB")' "$1"; }
# stripped FILE: an ELF file without a .symtab section.
stripped() {
  python3 - "$1" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:4] == b"\x7fELF" and data[4] == 2, "not a 64-bit ELF file"
shoff, = struct.unpack_from("<Q", data, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
def section(i):
    name, _type, _flags, _addr, offset, size = struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)
    return name, offset, size
_, stroff, _ = section(shstrndx)
names = [data[stroff + section(i)[0]:].split(b"\0", 1)[0].decode() for i in range(shnum)]
sys.exit(1 if ".symtab" in names else 0)
PY
}
# The SKILL.md of a skill folder: write_skill DIR NAME
write_skill() {
  mkdir -p "$1"
  printf -- '---\nname: %s\ndescription: Formats CSV files as aligned tables. Use when the user asks to pretty-print a CSV file.\n---\n\n# Tables\n\nRead the CSV and print it as a table.\n' \
    "$2" >"$1/SKILL.md"
}
# A skill Copilot skips: the unquoted ': ' makes the description a nested mapping (an error
# by default because a real client acts on it, not only a validator).
write_broken_skill() {
  mkdir -p "$1"
  printf -- '---\nname: %s\ndescription: Formats CSV files: aligned tables. Use when the user asks to pretty-print a CSV file.\n---\n\n# Tables\n\nRead the CSV and print it as a table.\n' \
    "$(basename "$1")" >"$1/SKILL.md"
}
# A PATH without any folder that holds a skill-lsp (nor ~/.cargo/bin).
bare_path=$(path_without_skill_lsp)

# ============================================================================================
echo "== a. one version: Cargo.toml's ($VERSION)"
check "cargo xtask versions check: every manifest says $VERSION" cargo xtask versions check
# A copy of the manifests, the only files the version check reads, with Cargo.toml bumped.
drift=$TMP/drift
mkdir -p "$drift/npm/skill-lsp" "$drift/editors/vscode"
cp Cargo.toml pyproject.toml "$drift/"
cp npm/skill-lsp/package.json "$drift/npm/skill-lsp/"
cp editors/vscode/package.json editors/vscode/package-lock.json "$drift/editors/vscode/"
sed -i "0,/^version = \"$VERSION\"/s//version = \"9.8.7\"/" "$drift/Cargo.toml"
cargo xtask versions check --root "$drift" >"$TMP/drift.out" 2>&1 && drift_code=0 || drift_code=$?
check "a version bumped in Cargo.toml only: check fails (exit $drift_code)" [ "$drift_code" = 1 ]
check "... naming the npm launcher, its platform packages and the VS Code manifests" \
  grep -q 'npm/skill-lsp/package.json optionalDependencies @skill-lsp/cli-linux-x64 is 0' "$TMP/drift.out"
check "... and the VS Code package-lock" grep -q 'editors/vscode/package-lock.json version is' "$TMP/drift.out"
check "a tag that is not v + the version fails" \
  eval '! cargo xtask versions check --tag v0.0.0-not-it >/dev/null 2>&1'
check "versions sync brings every manifest to 9.8.7, and check passes" cargo xtask versions sync --root "$drift"
check "... the synced manifests still parse, with the old formatting (only version lines changed)" \
  eval "[ \"\$(diff npm/skill-lsp/package.json '$drift/npm/skill-lsp/package.json' | grep -c '^>')\" = 6 ] && node -e 'JSON.parse(require(\"fs\").readFileSync(process.argv[1]))' '$drift/editors/vscode/package-lock.json'"

# ============================================================================================
echo "== b. the binary"
echo "   $1: $(size_of "$BIN") bytes ($(mib "$(size_of "$BIN")"))"
check "the release binary is stripped (no .symtab)" stripped "$BIN"

# ============================================================================================
echo "== c. the wheel (maturin, bindings = \"bin\") and pip"
start=$SECONDS
if [ -z "${PYTHON:-}" ]; then
  if command -v python3.11 >/dev/null 2>&1; then PYTHON=python3.11; else PYTHON=python3; fi
fi
TOOLS=$ROOT/.cache/packaging/tools-venv
# The venv's own path is part of the stamp: its scripts name their interpreter by absolute path,
# so a cache copied from another checkout has to be built again.
want="$TOOLS $("$PYTHON" -c 'import sys; print(sys.version)') maturin==$MATURIN_VERSION pre-commit==$PRE_COMMIT_VERSION check-jsonschema==$CHECK_JSONSCHEMA_VERSION"
if [ ! -x "$TOOLS/bin/maturin" ] || [ "$(cat "$TOOLS/.stamp" 2>/dev/null)" != "$want" ]; then
  rm -rf "$TOOLS"
  mkdir -p "$(dirname "$TOOLS")"
  "$PYTHON" -m venv "$TOOLS"
  "$TOOLS/bin/python" -m pip install --quiet --disable-pip-version-check \
    "maturin==$MATURIN_VERSION" "pre-commit==$PRE_COMMIT_VERSION" "check-jsonschema==$CHECK_JSONSCHEMA_VERSION"
  echo "$want" >"$TOOLS/.stamp"
fi
echo "   $("$TOOLS/bin/maturin" --version), pre-commit $("$TOOLS/bin/pre-commit" --version | cut -d' ' -f2) ($((SECONDS - start)) s)"

t=$SECONDS
if ! "$TOOLS/bin/maturin" build --release --out "$TMP/wheels" >"$TMP/maturin.log" 2>&1; then
  cat "$TMP/maturin.log"
  not_ok "maturin build --release"
  finish
fi
WHEEL=$(echo "$TMP"/wheels/*.whl)
echo "   maturin build --release: $((SECONDS - t)) s"
echo "   size: $(basename "$WHEEL"): $(size_of "$WHEEL") bytes ($(mib "$(size_of "$WHEEL")"))"
# The tag: manylinux with the glibc the binary needs (maturin's auditwheel check picks it: 2_34
# when built on Debian 12; the release workflow builds in the manylinux2014 image for 2_17).
check "the wheel is skill_lsp-$VERSION-py3-none-manylinux_*_x86_64" \
  eval "[[ \$(basename '$WHEEL') == skill_lsp-$VERSION-py3-none-manylinux_2_[0-9]*_x86_64.whl ]]"
check "the wheel holds the binary, the two licences and the metadata, and nothing else" python3 - "$WHEEL" "$VERSION" <<'PY'
import sys, zipfile
wheel, version = sys.argv[1:]
names = sorted(zipfile.ZipFile(wheel).namelist())
info = f"skill_lsp-{version}.dist-info"
want = sorted([f"skill_lsp-{version}.data/scripts/skill-lsp", f"{info}/METADATA", f"{info}/WHEEL", f"{info}/RECORD",
               f"{info}/licenses/LICENSE-MIT", f"{info}/licenses/LICENSE-APACHE"])
if names != want:
    print(f"   got {names}")
    sys.exit(1)
PY
python3 -c 'import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))' \
  "$WHEEL" "skill_lsp-$VERSION.data/scripts/skill-lsp" >"$TMP/wheel-skill-lsp"
check "the binary in the wheel is stripped ($(size_of "$TMP/wheel-skill-lsp") bytes)" stripped "$TMP/wheel-skill-lsp"

VENV=$TMP/venv
"$PYTHON" -m venv "$VENV"
check "pip install of the wheel into a fresh venv (no index)" \
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-index "$WHEEL"
check "the venv's bin/skill-lsp is executable" test -x "$VENV/bin/skill-lsp"
check "'skill-lsp --version' from the venv says skill-lsp $VERSION" \
  eval "'$VENV/bin/skill-lsp' --version | grep -q '^skill-lsp $VERSION '"
check "with the venv activated, skill-lsp on PATH is the venv's" \
  eval "[ \"\$(PATH='$VENV/bin:$bare_path' command -v skill-lsp)\" = '$VENV/bin/skill-lsp' ]"
check "'skill-lsp check skills' from the venv: the bundled skills are clean (exit 0)" \
  eval "'$VENV/bin/skill-lsp' check skills >'$TMP/venv-check.out' 2>&1"

# --- the language: system hook, with only the venv's skill-lsp on PATH ---
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=ci GIT_AUTHOR_EMAIL=ci@localhost GIT_COMMITTER_NAME=ci GIT_COMMITTER_EMAIL=ci@localhost
PRE_COMMIT=$TOOLS/bin/pre-commit
check "pre-commit validate-manifest .pre-commit-hooks.yaml" "$PRE_COMMIT" validate-manifest "$ROOT/.pre-commit-hooks.yaml"
# A `language: system` hook needs nothing of the repository but the manifest.
HOOK_REPO=$TMP/hook-repo
mkdir -p "$HOOK_REPO"
cp .pre-commit-hooks.yaml "$HOOK_REPO/"
git -C "$HOOK_REPO" init -q -b main
git -C "$HOOK_REPO" add -A
git -C "$HOOK_REPO" commit -q --no-verify -m "the hook manifest"
SAMPLE=$TMP/sample
mkdir -p "$SAMPLE"
git -C "$SAMPLE" init -q -b main
cat >"$SAMPLE/.pre-commit-config.yaml" <<EOF
repos:
  - repo: $HOOK_REPO
    rev: $(git -C "$HOOK_REPO" rev-parse HEAD)
    hooks:
      - id: skill-lsp-check-system
EOF
write_skill "$SAMPLE/skills/good-skill" good-skill
git -C "$SAMPLE" add -A
git -C "$SAMPLE" commit -q --no-verify -m "a clean skill"
run_hook() {
  local name=$1
  (cd "$SAMPLE" && PATH="$VENV/bin:$bare_path" PRE_COMMIT_HOME="$TMP/pre-commit-home" \
    "$PRE_COMMIT" run --color never --all-files >"$TMP/$name.out" 2>&1) && echo 0 >"$TMP/$name.code" || echo $? >"$TMP/$name.code"
}
run_hook hook-clean
check "skill-lsp-check-system, a clean skill: exit 0 (got $(cat "$TMP/hook-clean.code"))" [ "$(cat "$TMP/hook-clean.code")" = 0 ]
check "... the hook ran and passed" grep -Eq '^skill-lsp check \(system\)\.+Passed$' "$TMP/hook-clean.out"
write_broken_skill "$SAMPLE/skills/bad-skill"
git -C "$SAMPLE" add -A
run_hook hook-broken
check "skill-lsp-check-system, a broken skill added: exit 1 (got $(cat "$TMP/hook-broken.code"))" [ "$(cat "$TMP/hook-broken.code")" = 1 ]
check "... the hook failed, naming unquoted-colon in skills/bad-skill/SKILL.md" \
  eval "grep -Eq '^skill-lsp check \(system\)\.+Failed$' '$TMP/hook-broken.out' && grep -q 'unquoted-colon' '$TMP/hook-broken.out' && grep -q 'skills/bad-skill/SKILL.md' '$TMP/hook-broken.out'"
if [ "$(cat "$TMP/hook-clean.code")" != 0 ] || [ "$(cat "$TMP/hook-broken.code")" != 1 ]; then
  sed 's/^/   | /' "$TMP/hook-clean.out" "$TMP/hook-broken.out"
fi
echo "   (part c: $((SECONDS - start)) s)"

# ============================================================================================
echo "== d. the npm packages"
start=$SECONDS
NPM_OUT=$TMP/npm
LAUNCHER_TGZ=$(cargo xtask npm-pack launcher "$NPM_OUT" 2>"$TMP/npm-pack.err") || { cat "$TMP/npm-pack.err"; not_ok "npm pack of the launcher"; finish; }
PLATFORM_TGZ=$(cargo xtask npm-pack linux-x64 "$BIN" "$NPM_OUT" 2>"$TMP/npm-pack.err") || { cat "$TMP/npm-pack.err"; not_ok "npm pack of @skill-lsp/cli-linux-x64"; finish; }
echo "   size: $(basename "$LAUNCHER_TGZ"): $(size_of "$LAUNCHER_TGZ") bytes"
echo "   size: $(basename "$PLATFORM_TGZ"): $(size_of "$PLATFORM_TGZ") bytes ($(mib "$(size_of "$PLATFORM_TGZ")"))"
check "the tarballs are skill-lsp-$VERSION.tgz and skill-lsp-cli-linux-x64-$VERSION.tgz" \
  eval "[ \"\$(basename '$LAUNCHER_TGZ')\" = skill-lsp-$VERSION.tgz ] && [ \"\$(basename '$PLATFORM_TGZ')\" = skill-lsp-cli-linux-x64-$VERSION.tgz ]"
check "the launcher carries no binary; the platform package carries bin/skill-lsp with mode 755 and os/cpu linux/x64" \
  python3 - "$LAUNCHER_TGZ" "$PLATFORM_TGZ" <<'PY'
import json, sys, tarfile
launcher, platform = (tarfile.open(p) for p in sys.argv[1:])
assert sorted(launcher.getnames()) == sorted(["package/package.json", "package/README.md", "package/bin/skill-lsp.js",
                                              "package/LICENSE-MIT", "package/LICENSE-APACHE"]), launcher.getnames()
binary = platform.getmember("package/bin/skill-lsp")
assert binary.mode & 0o777 == 0o755, oct(binary.mode)
manifest = json.load(platform.extractfile("package/package.json"))
assert manifest["name"] == "@skill-lsp/cli-linux-x64" and manifest["os"] == ["linux"] and manifest["cpu"] == ["x64"], manifest
PY

APP=$TMP/npm-app
mkdir -p "$APP"
echo '{"private": true}' >"$APP/package.json"
# --offline: everything comes from the two tarballs; the other platforms' optional packages are
# skipped as npm skips any optional dependency it cannot fetch.
if (cd "$APP" && npm install --offline --no-audit --no-fund --loglevel=error "$LAUNCHER_TGZ" "$PLATFORM_TGZ" >"$TMP/npm-install.log" 2>&1); then
  ok "npm install of the two tarballs into an empty folder"
else
  cat "$TMP/npm-install.log"
  not_ok "npm install of the two tarballs into an empty folder"
  finish
fi
# A workspace with a clean and a broken skill; npx runs from there, like a user's project.
WS=$APP/ws
write_skill "$WS/skills/good-skill" good-skill
write_broken_skill "$WS/skills/bad-skill"
npx_run() { (cd "$WS" && PATH="$APP/node_modules/.bin:$bare_path" npx --offline --no-install skill-lsp "$@"); }
code_of() { "$@" >/dev/null 2>&1 && echo 0 || echo $?; }
check "npx skill-lsp --version says skill-lsp $VERSION" eval "npx_run --version | grep -q '^skill-lsp $VERSION '"
npx_run check --format json >"$TMP/npx.json" 2>"$TMP/npx.err" && npx_code=0 || npx_code=$?
(cd "$WS" && "$BIN" check --format json) >"$TMP/bin.json" 2>/dev/null && bin_code=0 || bin_code=$?
check "npx skill-lsp check --format json: exit $npx_code, as the binary itself ($bin_code; 1: a finding fails)" \
  eval "[ $npx_code = $bin_code ] && [ $npx_code = 1 ]"
check "... and byte for byte the same JSON ($(wc -c <"$TMP/npx.json") bytes, with unquoted-colon)" \
  eval "cmp -s '$TMP/npx.json' '$TMP/bin.json' && grep -q '\"rule\": \"unquoted-colon\"' '$TMP/npx.json'"
check "npx skill-lsp check skills/good-skill: exit 0" eval "[ \$(code_of npx_run check skills/good-skill) = 0 ]"
check "npx skill-lsp check of a missing path: exit 2, as the binary's" eval "[ \$(code_of npx_run check no-such-path) = 2 ]"

# SIGTERM to the launcher reaches the server, and the launcher dies by it too (exit 128+15).
mkfifo "$TMP/lsp-in"
sleep 300 >"$TMP/lsp-in" &
SLEEP_PID=$!
"$APP/node_modules/.bin/skill-lsp" serve --stdio <"$TMP/lsp-in" >/dev/null 2>&1 &
SERVER_PID=$!
child=
for _ in $(seq 1 50); do
  # The launcher's child, from /proc (no procps needed): the process whose parent is the launcher.
  child=$(python3 -c '
import glob, sys
for stat in glob.glob("/proc/[0-9]*/stat"):
    try:
        fields = open(stat).read().rsplit(")", 1)[1].split()
    except OSError:
        continue
    if fields[1] == sys.argv[1]:
        print(stat.split("/")[2])
' "$SERVER_PID")
  [ -n "$child" ] && break
  sleep 0.1
done
kill -TERM "$SERVER_PID"
wait "$SERVER_PID" && term_code=0 || term_code=$?
SERVER_PID=
check "SIGTERM to the launcher of 'skill-lsp serve': it ends by SIGTERM (exit $term_code)" [ "$term_code" = 143 ]
check "... and its skill-lsp process ($child) is gone" eval "[ -n '$child' ] && ! kill -0 '$child' 2>/dev/null"
kill "$SLEEP_PID" 2>/dev/null || true
wait "$SLEEP_PID" 2>/dev/null || true
SLEEP_PID=

rm -rf "$APP/node_modules/@skill-lsp"
npx_run check >/dev/null 2>"$TMP/npx-missing.err" && missing_code=0 || missing_code=$?
check "without @skill-lsp/cli-linux-x64: exit 2 (got $missing_code) and an error naming the package" \
  eval "[ $missing_code = 2 ] && grep -q '@skill-lsp/cli-linux-x64, which holds the skill-lsp binary for linux-x64, is not installed' '$TMP/npx-missing.err'"
echo "   (part d: $((SECONDS - start)) s)"

# ============================================================================================
echo "== e. the Action's install: release (action/install.sh), against a fake release"
start=$SECONDS
REL=$TMP/release
mkdir -p "$REL/v$VERSION" "$REL/v0.0.1"
# The real release names the Linux binary after the musl target; here the binary under test stands in.
cp "$BIN" "$REL/v$VERSION/skill-lsp-x86_64-unknown-linux-musl"
(cd "$REL/v$VERSION" && sha256sum skill-lsp-x86_64-unknown-linux-musl >SHA256SUMS)
# v0.0.1: a binary that does not match its checksum.
cp "$BIN" "$REL/v0.0.1/skill-lsp-x86_64-unknown-linux-musl"
(cd "$REL/v0.0.1" && sha256sum skill-lsp-x86_64-unknown-linux-musl >SHA256SUMS && printf 'x' >>skill-lsp-x86_64-unknown-linux-musl)
python3 - "$REL" "$TMP/http.port" >"$TMP/http.log" 2>&1 <<'PY' &
import functools, http.server, sys
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
with open(sys.argv[2] + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
import os; os.rename(sys.argv[2] + ".tmp", sys.argv[2])
server.serve_forever()
PY
SERVER_PID=$!
for _ in $(seq 1 50); do [ -s "$TMP/http.port" ] && break; sleep 0.1; done
BASE="http://127.0.0.1:$(cat "$TMP/http.port")"
# A fake cargo that records its arguments and "installs" the binary the way cargo install would.
mkdir -p "$TMP/fake-cargo/bin"
cat >"$TMP/fake-cargo/bin/cargo" <<EOF
#!/usr/bin/env bash
echo "cargo \$*" >>"$TMP/cargo.calls"
mkdir -p "$TMP/fake-cargo/home/bin"
cp "$BIN" "$TMP/fake-cargo/home/bin/skill-lsp"
EOF
chmod +x "$TMP/fake-cargo/bin/cargo"
# The fallback with a version builds that tag of the action's repository: a git server on disk
# with the tags v9.9.9 (no release for it) and v$VERSION.
GIT_SERVER=$TMP/git-server
mkdir -p "$GIT_SERVER/OWNER/skill-lsp"
git -C "$GIT_SERVER/OWNER/skill-lsp" init -q -b main
for tag in v9.9.9 "v$VERSION"; do
  echo "$tag" >"$GIT_SERVER/OWNER/skill-lsp/TAG"
  git -C "$GIT_SERVER/OWNER/skill-lsp" add TAG
  git -C "$GIT_SERVER/OWNER/skill-lsp" commit -q --no-verify -m "$tag"
  git -C "$GIT_SERVER/OWNER/skill-lsp" tag "$tag"
done

# run_install NAME [VAR=VALUE...]: leaves $TMP/NAME.{out,code,github-path}.
run_install() {
  local name=$1
  shift
  : >"$TMP/$name.github-path"
  rm -rf "$TMP/cargo.calls" "$TMP/fake-cargo/home"
  mkdir -p "$TMP/runner-$name"
  env -i HOME="$TMP/home" PATH="$TMP/fake-cargo/bin:$TMP/fake-cargo/home/bin:$bare_path" \
    GITHUB_PATH="$TMP/$name.github-path" GITHUB_ACTION_PATH="$ROOT" GITHUB_SERVER_URL="file://$GIT_SERVER" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null \
    ACTION_REPOSITORY=OWNER/skill-lsp RUNNER_TEMP="$TMP/runner-$name" RUNNER_OS=Linux RUNNER_ARCH=X64 \
    SKILL_LSP_RELEASE_URL="$BASE" INPUT_INSTALL=release "$@" \
    bash "$ROOT/action/install.sh" >"$TMP/$name.out" 2>&1 && echo 0 >"$TMP/$name.code" || echo $? >"$TMP/$name.code"
}
show_on_failure() { [ "$(cat "$TMP/$1.code")" = "$2" ] || sed 's/^/   | /' "$TMP/$1.out"; }

run_install good INPUT_VERSION="v$VERSION"
show_on_failure good 0
installed_dir=$TMP/runner-good/skill-lsp-release/bin
check "release v$VERSION: exit 0 (got $(cat "$TMP/good.code")), the checksum verified" \
  eval "[ \$(cat '$TMP/good.code') = 0 ] && grep -q 'checksum verified' '$TMP/good.out'"
check "... GITHUB_PATH gets the folder of the downloaded binary, the very binary of the release" \
  eval "[ \"\$(cat '$TMP/good.github-path')\" = '$installed_dir' ] && cmp -s '$installed_dir/skill-lsp' '$BIN' && [ -x '$installed_dir/skill-lsp' ]"
check "... and cargo was not run" test ! -e "$TMP/cargo.calls"

run_install tag ACTION_REF="v$VERSION"
check "no version input, the action used at tag v$VERSION: that release is installed" \
  eval "[ \$(cat '$TMP/tag.code') = 0 ] && [ -s '$TMP/tag.github-path' ] && [ ! -e '$TMP/cargo.calls' ]"

run_install tampered INPUT_VERSION=v0.0.1
check "a binary that does not match SHA256SUMS: exit 1 (got $(cat "$TMP/tampered.code")) with an ::error" \
  eval "[ \$(cat '$TMP/tampered.code') = 1 ] && grep -q '^::error title=skill-lsp::skill-lsp-x86_64-unknown-linux-musl of release v0.0.1 does not match' '$TMP/tampered.out'"
check "... nothing on GITHUB_PATH and no cargo fallback" \
  eval "[ ! -s '$TMP/tampered.github-path' ] && [ ! -e '$TMP/cargo.calls' ]"

run_install missing INPUT_VERSION=v9.9.9
show_on_failure missing 0
check "a release that does not exist: a ::warning, then cargo builds that tag of the action's repository" \
  eval "[ \$(cat '$TMP/missing.code') = 0 ] && grep -q '^::warning title=skill-lsp::could not download' '$TMP/missing.out' && [ \"\$(cat '$TMP/cargo.calls')\" = 'cargo install --path $TMP/runner-missing/skill-lsp-src --locked --force' ] && [ \"\$(cat '$TMP/runner-missing/skill-lsp-src/TAG')\" = v9.9.9 ]"

run_install freebsd INPUT_VERSION="v$VERSION" RUNNER_OS=FreeBSD
show_on_failure freebsd 0
check "a runner without a prebuilt binary: a ::warning, then cargo" \
  eval "[ \$(cat '$TMP/freebsd.code') = 0 ] && grep -q '^::warning title=skill-lsp::no prebuilt skill-lsp for FreeBSD/X64' '$TMP/freebsd.out' && [ -e '$TMP/cargo.calls' ]"

run_install notag ACTION_REF=main
show_on_failure notag 0
check "no version and the action at a branch: a ::warning, then cargo install --path <the action> --locked" \
  eval "[ \$(cat '$TMP/notag.code') = 0 ] && grep -q 'install: release needs a release tag' '$TMP/notag.out' && [ \"\$(cat '$TMP/cargo.calls')\" = 'cargo install --path $ROOT --locked' ]"

run_install bad INPUT_INSTALL=binary
check "install: binary (no such mode): exit 2 with an ::error" \
  eval "[ \$(cat '$TMP/bad.code') = 2 ] && grep -q \"^::error title=skill-lsp::input 'install' must be cargo or release\" '$TMP/bad.out'"
echo "   (part e: $((SECONDS - start)) s)"
kill "$SERVER_PID" 2>/dev/null || true
wait "$SERVER_PID" 2>/dev/null || true
SERVER_PID=

# ============================================================================================
echo "== f. the release workflow's packaging step (cargo xtask dist), Linux x64 only"
start=$SECONDS
if [ ! -d editors/vscode/node_modules ]; then
  (cd editors/vscode && npm ci --no-fund --no-audit --loglevel=error)
fi
mkdir -p "$TMP/release-bin"
cp "$BIN" "$TMP/release-bin/skill-lsp-x86_64-unknown-linux-musl"
if cargo xtask dist "$TMP/release-bin" "$TMP/release-out" >"$TMP/dist.out" 2>"$TMP/dist.err"; then
  ok "cargo xtask dist with the x86_64-unknown-linux-musl binary"
else
  cat "$TMP/dist.err"
  not_ok "cargo xtask dist with the x86_64-unknown-linux-musl binary"
fi
expected="skill-lsp-$VERSION.tgz skill-lsp-$VERSION.vsix skill-lsp-alpine-x64-$VERSION.vsix skill-lsp-cli-linux-x64-$VERSION.tgz skill-lsp-linux-x64-$VERSION.vsix"
got=$(cd "$TMP/release-out" 2>/dev/null && find . -type f -printf '%f\n' | sort | tr '\n' ' ' | sed 's/ $//')
check "it writes the universal, linux-x64 and alpine-x64 .vsix, the launcher and @skill-lsp/cli-linux-x64 (got: $got)" \
  [ "$got" = "$expected" ]
for file in "$TMP"/release-out/*; do
  echo "   size: $(basename "$file"): $(size_of "$file") bytes"
done
cargo xtask dist --require-all "$TMP/release-bin" "$TMP/release-out-all" >/dev/null 2>"$TMP/dist-all.err" && all_code=0 || all_code=$?
check "--require-all (the workflow) without the other binaries: exit 1 naming skill-lsp-aarch64-unknown-linux-musl" \
  eval "[ $all_code = 1 ] && grep -q 'skill-lsp-aarch64-unknown-linux-musl is missing' '$TMP/dist-all.err'"
echo "   (part f: $((SECONDS - start)) s)"

# ============================================================================================
echo "== g. the release workflow and the Action, as files"
check "release.yml and examples/github-workflow.yml are valid workflows (check-jsonschema, GitHub's schema)" \
  "$TOOLS/bin/check-jsonschema" --builtin-schema vendor.github-workflows .github/workflows/release.yml examples/github-workflow.yml
check "action.yml is a valid action (check-jsonschema, GitHub's schema)" \
  "$TOOLS/bin/check-jsonschema" --builtin-schema vendor.github-actions action.yml
# Three lists of the release targets: the workflow builds them, xtask's dist packages them,
# action/install.sh downloads them. They must name the same ones.
check "the workflow's binaries, xtask/src/dist.rs and action/install.sh name the same five targets" python3 - <<'PY'
import re, sys
workflow = open(".github/workflows/release.yml").read()
built = set(re.findall(r"\{ target: ([a-z0-9_-]+), os:", workflow))
packaged = set(re.findall(r'triple: "([a-z0-9_-]+)"', open("xtask/src/dist.rs").read()))
downloaded = set(re.findall(r"echo skill-lsp-([a-z0-9_-]+?)(?:\.exe)? ;;", open("action/install.sh").read()))
print(f"   built {sorted(built)}")
if not (len(built) == 5 and built == packaged == downloaded):
    print(f"   packaged {sorted(packaged)}\n   downloaded {sorted(downloaded)}")
    sys.exit(1)
PY

finish
