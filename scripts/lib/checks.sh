# TAP-like assertions for the shell test scripts (ci_packages.sh) with a `N passed, M failed`
# summary, the same lines xtask/src/integrations.rs prints. Source it.

passed=0
failed=0
ok() {
  echo "ok - $1"
  passed=$((passed + 1))
}
not_ok() {
  echo "FAIL - $1"
  failed=$((failed + 1))
}
# check DESCRIPTION COMMAND...: one assertion.
check() {
  local description=$1
  shift
  if "$@"; then ok "$description"; else not_ok "$description"; fi
}
# Prints the summary and exits: 0 when nothing failed.
finish() {
  echo
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
}
