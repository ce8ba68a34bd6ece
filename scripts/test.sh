#!/usr/bin/env bash
# The two test tiers, with the checks both run first:
#
#   scripts/test.sh fast [dir...]   npm test: lint (ESLint, Prettier), the schema drift check,
#                                   the architecture check, types, then the fast tests on SQLite
#                                   (scripts/test-files.sh --fast)
#   scripts/test.sh all [dir...]    npm run test:all: the same checks, then every test (test/e2e
#                                   and the browser tests in test/web included; with
#                                   WAKEUP_TEST_PG_URL the host's HTTP suites on PostgreSQL too)
#
# Dirs, when given, replace the tier's default folders (npm test -- test/docs).
#
# The five checks run at the same time (ESLint's type-checked pass is the long one, about a
# minute and a half of a 2-core machine's time; the others fit beside it), each into its own
# log; a failing check's log is printed, and the tests do not start. Prints how long it took,
# failed or not.
set -euo pipefail
cd "$(dirname "$0")/.."
tier=${1:?usage: scripts/test.sh fast|all [dir...]}
shift
case "$tier" in
  fast) name='npm test' files=(scripts/test-files.sh --fast) ;;
  all) name='npm run test:all' files=(scripts/test-files.sh) ;;
  *)
    echo "usage: scripts/test.sh fast|all [dir...]" >&2
    exit 2
    ;;
esac
SECONDS=0
logs=$(mktemp -d "${TMPDIR:-/tmp}/wakeup-checks.XXXXXX")
trap 'status=$?; rm -rf "$logs"; echo "test: $name $( ((status == 0)) && echo passed || echo FAILED) in $((SECONDS / 60)) min $((SECONDS % 60)) s"' EXIT

declare -A checks=(
  [eslint]='npx eslint .'
  [prettier]='npx prettier --check --log-level warn .'
  [check:gen]='npm run --silent check:gen'
  [check:arch]='npm run --silent check:arch'
  [types]='npx tsc -p .'
)
declare -A pids=()
for check in "${!checks[@]}"; do
  bash -c "${checks[$check]}" >"$logs/$check" 2>&1 &
  pids[$check]=$!
done
failed=()
for check in "${!pids[@]}"; do
  wait "${pids[$check]}" || failed+=("$check")
done
for check in "${failed[@]}"; do
  echo "test: $check failed (${checks[$check]}):"
  cat "$logs/$check"
done
((${#failed[@]} == 0)) || exit 1
echo "test: lint, check:gen, check:arch and types passed in $((SECONDS / 60)) min $((SECONDS % 60)) s"
"${files[@]}" "$@"
