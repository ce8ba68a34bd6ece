#!/usr/bin/env bash
# Runs test files through node:test (tsx, three files at a time) in ONE node --test invocation,
# so the workers stay busy across both databases:
#
#   scripts/test-files.sh --fast [dir...]   the fast tier (npm test): test/engine, test/host,
#                                           test/conformance and test/docs by default, on
#                                           SQLite only, each test within 30 s
#   scripts/test-files.sh [dir...]          every *.test.ts under the dirs (default: test, the
#                                           slow tier's test/e2e and the browser tests in
#                                           test/web included), each test within 180 s
#
# The fast tier ignores WAKEUP_TEST_PG_URL: it runs on SQLite alone. Otherwise, when
# WAKEUP_TEST_PG_URL names a PostgreSQL server (scripts/with-pg.sh exports it; .ci/run and
# `npm run test:pg` use that), the host's HTTP suites (test/host/ and test/e2e/) run a second
# time there: each file through a generated wrapper that sets WAKEUP_TEST_DB=postgres (so
# every test server gets a fresh schema on that server: test/helpers/server.ts) and nests the
# file's tests under "PostgreSQL: <file>". Without the variable it says, in one line, that
# the PostgreSQL run was skipped. Exits with node --test's status.
set -uo pipefail
cd "$(dirname "$0")/.."

fast=0
if [[ "${1:-}" == --fast ]]; then
  fast=1
  shift
fi
dirs=("$@")
if [[ ${#dirs[@]} -eq 0 ]]; then
  if ((fast)); then dirs=(test/engine test/host test/conformance test/docs); else dirs=(test); fi
fi
mapfile -t files < <(find "${dirs[@]}" -name '*.test.ts' | sort)

# Files that never open a test server's database run once: no server at all, or only their
# own SQLite files (the binary, npm start, crash loops, SQLite migrations, the packed engine,
# the documented snippets); db-sql, pg-schema and shared-state check PostgreSQL themselves
# whenever WAKEUP_TEST_PG_URL is set. (`npm run test:http:pg` still runs every host file on
# PostgreSQL.)
ONCE=' billing-config zone-search verification-code calls-crash log-flush upgrade-journal clock config db-sql migrate migrate-engine-tables migration-0010 npm-start pg-schema phone-twilio shared-state single-file twilio-any-host webhooks-target package doc-snippets '

pg=()
if ((fast)); then
  unset WAKEUP_TEST_PG_URL WAKEUP_TEST_DB
  echo "test: the fast tier, ${#files[@]} files on SQLite (npm run test:all adds PostgreSQL, test/e2e and test/web)"
elif [[ -n "${WAKEUP_TEST_PG_URL:-}" ]]; then
  wrappers=$(mktemp -d "${TMPDIR:-/tmp}/wakeup-pg-tests.XXXXXX")
  trap 'rm -rf "$wrappers"' EXIT
  for f in "${files[@]}"; do
    [[ "$f" == test/host/* || "$f" == test/e2e/* ]] || continue
    name=$(basename "$f" .test.ts)
    [[ "$ONCE" == *" $name "* ]] && continue
    cat >"$wrappers/$name.pg.test.mjs" <<EOF2
import { describe } from 'node:test';
process.env.WAKEUP_TEST_DB = 'postgres';
describe('PostgreSQL: $f', async () => {
  await import('$PWD/$f');
});
EOF2
    pg+=("$wrappers/$name.pg.test.mjs")
  done
  echo "test: ${#files[@]} files, and the HTTP suite on PostgreSQL too (${#pg[@]} files, ${WAKEUP_TEST_PG_URL})"
elif [[ "${WAKEUP_TEST_DB:-}" == postgres ]]; then
  echo "test: WAKEUP_TEST_DB=postgres but no WAKEUP_TEST_PG_URL: the test servers run on SQLite" >&2
else
  echo "test: PostgreSQL run SKIPPED (no WAKEUP_TEST_PG_URL; npm run test:pg or .ci/run start a throwaway server)"
fi

# node --test sorts the list by path and runs three files at a time across both sets (the files
# wait on servers and timers a good part of their time; WAKEUP_TEST_CONCURRENCY overrides).
#
# The fast tier holds each test to 30 s. Node 20's runner applies --test-timeout to a whole
# file instead (later lines apply it to each test), which would fail a file of many short
# tests: a probe of two 0.3 s tests under a 0.5 s limit tells which runner this is, and a
# whole-file runner keeps the 180 s limit.
timeout=180000
if ((fast)); then
  probe=$(mktemp -d "${TMPDIR:-/tmp}/wakeup-timeout-probe.XXXXXX")
  printf '%s\n' "import { it } from 'node:test';" \
    "it('a', () => new Promise((r) => setTimeout(r, 300)));" \
    "it('b', () => new Promise((r) => setTimeout(r, 300)));" >"$probe/probe.test.mjs"
  if node --test --test-timeout=500 "$probe/probe.test.mjs" >/dev/null 2>&1; then
    timeout=30000
  else
    echo "test: this Node ($(node --version)) times whole files, not tests: each file gets 180 s"
  fi
  rm -rf "$probe"
fi
node --import tsx --test --test-concurrency="${WAKEUP_TEST_CONCURRENCY:-3}" --test-timeout="$timeout" "${pg[@]}" "${files[@]}"
