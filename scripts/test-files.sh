#!/usr/bin/env bash
# Runs test files through node:test (tsx) in ONE node --test invocation, so the workers stay
# busy across both databases:
#
#   scripts/test-files.sh --fast [dir...]   the fast tier (npm test): test/engine, test/host,
#                                           test/conformance and test/docs by default, on
#                                           SQLite only, each test within 30 s, several files
#                                           to a process (see below)
#   scripts/test-files.sh [dir...]          every *.test.ts under the dirs (default: test, the
#                                           slow tier's test/e2e and the browser tests in
#                                           test/web included), each test within 180 s, one
#                                           process a file, three at a time
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

# The fast tier holds each test to 30 s. Node 20's runner applies --test-timeout to a whole
# file instead (later lines apply it to each test), which would fail a file of many short
# tests: a probe of two 0.3 s tests under a 0.5 s limit tells which runner this is, and on a
# whole-file runner each file gets 180 s instead.
timeout=180000
per_test=1
if ((fast)); then
  probe=$(mktemp -d "${TMPDIR:-/tmp}/wakeup-timeout-probe.XXXXXX")
  printf '%s\n' "import { it } from 'node:test';" \
    "it('a', () => new Promise((r) => setTimeout(r, 300)));" \
    "it('b', () => new Promise((r) => setTimeout(r, 300)));" >"$probe/probe.test.mjs"
  if node --test --test-timeout=500 "$probe/probe.test.mjs" >/dev/null 2>&1; then
    timeout=30000
  else
    per_test=0
    echo "test: this Node ($(node --version)) times whole files, not tests: each file gets 180 s"
  fi
  rm -rf "$probe"
fi

if ((!fast)); then
  # node --test sorts the list by path and runs three files at a time across both sets (the
  # files wait on servers and timers a good part of their time; WAKEUP_TEST_CONCURRENCY
  # overrides).
  node --import tsx --test --test-concurrency="${WAKEUP_TEST_CONCURRENCY:-3}" \
    --test-timeout="$timeout" "${pg[@]}" "${files[@]}"
  exit
fi

# The fast tier runs its files in a few shared processes instead of one each: loading tsx, the
# host and the engine costs about 2 s of CPU per process, more than most files' own tests.
# Each group is a generated file that imports its test files, each inside a describe of its
# own: the file's tests run one after another as they would alone, and up to
# WAKEUP_TEST_FILES_PER_GROUP (3) files of a group at a time. Files are dealt to the groups in
# turn (neighbours in the sorted list are often alike in cost), and node --test runs
# WAKEUP_TEST_CONCURRENCY (2, one per core) groups at a time. A file that changes process-wide
# state runs in a group of its own (ALONE below, with the reason). The engine's property tests
# check thousands of cases in synchronous loops that hold the event loop for seconds: they share
# a group of their own, so that they do not stall the timers and servers of other files. Files
# that time real requests in fractions of a second (REAL_TIME) share a group that runs them one
# at a time, where no other file's work can hold the event loop.
#
# ALONE: zone-rules-change swaps the engine's zone-rules source, which is process-wide;
# sqlite-checkpoints counts the process's worker threads, which other files' stores start and stop.
# REAL_TIME: twilio-placement-hosts gives the fake provider 1 s to answer; telephony-twilio
# drives calls through a fake provider on the real clock; account-idp's code exchange with a
# fake identity provider is timed on the real clock.
ALONE=' zone-rules-change sqlite-checkpoints '
REAL_TIME=' twilio-placement-hosts telephony-twilio account-idp '
group_count=${WAKEUP_TEST_GROUPS:-6}
per_group=${WAKEUP_TEST_FILES_PER_GROUP:-3}
groups=$(mktemp -d "${TMPDIR:-/tmp}/wakeup-test-groups.XXXXXX")
trap 'rm -rf "$groups"' EXIT
declare -a members=()
alone=()
busy=''
real_time=''
n=0
for f in "${files[@]}"; do
  if [[ "$ALONE" == *" $(basename "$f" .test.ts) "* ]]; then
    alone+=("$f")
  elif [[ "$REAL_TIME" == *" $(basename "$f" .test.ts) "* ]]; then
    real_time+="$f "
  elif [[ "$f" == test/engine/*.property.test.ts ]]; then
    busy+="$f "
  else
    members[n % group_count]+="$f "
    n=$((n + 1))
  fi
done
[[ -z "$busy" ]] || members[${#members[@]}]=$busy
one_at_a_time=${#members[@]}
[[ -z "$real_time" ]] || members[${#members[@]}]=$real_time
for f in "${alone[@]}"; do
  members[${#members[@]}]="$f "
done
# On a runner that times whole processes, each file's describe carries the 180 s instead, and
# the process limit covers a whole group.
file_timeout=$(((per_test)) && echo undefined || echo "$timeout")
process_timeout=$(((per_test)) && echo "$timeout" || echo 1800000)
wrappers=()
for i in "${!members[@]}"; do
  read -ra list <<<"${members[$i]}"
  ((${#list[@]})) || continue
  wrapper="$groups/group-$((i + 1)).test.mjs"
  {
    echo "import { describe } from 'node:test';"
    echo "describe('test files, group $((i + 1)) of ${#members[@]}', { concurrency: $(((i == one_at_a_time)) && echo 1 || echo "$per_group") }, () => {"
    for f in "${list[@]}"; do
      echo "  describe('$f', { concurrency: 1, timeout: $file_timeout }, () => import('$PWD/$f'));"
    done
    echo "});"
  } >"$wrapper"
  wrappers+=("$wrapper")
done
node --import tsx --test --test-concurrency="${WAKEUP_TEST_CONCURRENCY:-2}" \
  --test-timeout="$process_timeout" "${wrappers[@]}"
