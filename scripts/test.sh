#!/usr/bin/env bash
# The two test tiers, with the checks both run first:
#
#   scripts/test.sh fast [dir...]   npm test: lint, the schema drift check, the architecture check,
#                                   types, then the fast tests on SQLite (scripts/test-files.sh --fast)
#   scripts/test.sh all [dir...]    npm run test:all: the same checks, then every test (test/e2e and the
#                                   browser tests in test/web included; with WAKEUP_TEST_PG_URL the
#                                   host's HTTP suites on PostgreSQL as well)
#
# Dirs, when given, replace the tier's default folders (npm test -- test/docs).
# Stops at the first failing step and prints how long it took, failed or not.
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
trap 'status=$?; echo "test: $name $( ((status == 0)) && echo passed || echo FAILED) in $((SECONDS / 60)) min $((SECONDS % 60)) s"' EXIT
npm run --silent lint
npm run --silent check:gen
npm run --silent check:arch
npx tsc -p .
"${files[@]}" "$@"
