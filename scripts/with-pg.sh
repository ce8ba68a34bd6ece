#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL server (scripts/pg-test-server.sh) and
# WAKEUP_TEST_PG_URL set, then stops the server, whatever the command's outcome:
#
#   scripts/with-pg.sh npm test
#
# When no server can be started (no PostgreSQL and no way to install it), it says why and
# runs the command without the variable: the PostgreSQL tests then report themselves skipped.
# Exits with the command's status.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)

if [[ $# -eq 0 ]]; then
  echo "usage: $0 <command> [args...]" >&2
  exit 2
fi

if out=$("$here/pg-test-server.sh" start); then
  eval "$out"
  cleanup() {
    "$here/pg-test-server.sh" stop "$WAKEUP_TEST_PG_DIR" || true
  }
  trap cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
else
  echo "with-pg: no PostgreSQL server (see above); running without WAKEUP_TEST_PG_URL, the PostgreSQL tests will be skipped" >&2
  unset WAKEUP_TEST_PG_URL
fi

"$@"
