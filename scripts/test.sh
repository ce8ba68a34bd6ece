#!/usr/bin/env bash
# The two test tiers, each with the same checks beside its tests:
#
#   scripts/test.sh fast [dir...]   npm test: lint (ESLint, Prettier), the schema drift check,
#                                   the architecture check and types, and the fast tests on
#                                   SQLite (scripts/test-files.sh --fast)
#   scripts/test.sh all [dir...]    npm run test:all: the same checks, and every test (test/e2e
#                                   and the browser tests in test/web included; with
#                                   WAKEUP_TEST_PG_URL the host's HTTP suites on PostgreSQL too)
#
# Dirs, when given, replace the tier's default folders (npm test -- test/docs).
#
# The checks run beside the tests, each into its own log: types and ESLint in one process over
# one TypeScript program (scripts/lint-and-types.mjs: ESLint's type-checked pass is the long
# one), Prettier, the schema drift check and the architecture check. A failing check's log is
# printed after the tests, and the run fails. Prints how long it took, failed or not.
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
  [lint-and-types]='node scripts/lint-and-types.mjs'
  [prettier]='npx prettier --check --log-level warn .'
  [check:gen]='npm run --silent check:gen'
  [check:arch]='npm run --silent check:arch'
)
declare -A pids=()
for check in "${!checks[@]}"; do
  bash -c "${checks[$check]}" >"$logs/$check" 2>&1 &
  pids[$check]=$!
done
tests=0
"${files[@]}" "$@" || tests=$?
failed=()
for check in "${!pids[@]}"; do
  wait "${pids[$check]}" || failed+=("$check")
done
for check in "${failed[@]}"; do
  echo "test: $check failed (${checks[$check]}):"
  cat "$logs/$check"
done
if ((${#failed[@]} == 0)); then
  echo "test: types, eslint, prettier, check:gen and check:arch passed"
fi
((${#failed[@]} == 0 && tests == 0))
