#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests (issue 17).
#
#   scripts/pg-test-server.sh start        installs PostgreSQL from Debian's packages when absent
#                                          (as root), creates a cluster in a new temporary folder,
#                                          starts it on a free loopback port and prints, on stdout,
#                                          shell lines to eval:
#                                            export WAKEUP_TEST_PG_URL=postgres://postgres@127.0.0.1:PORT/wakeup_test
#                                            export WAKEUP_TEST_PG_DIR=/tmp/wakeup-pg.XXXXXX
#   scripts/pg-test-server.sh stop DIR     stops the server of that folder by its pid, removes the folder
#
# scripts/with-pg.sh wraps a command with start and stop. Progress and errors go to stderr;
# `start` exits non-zero (printing why) when no server could be started.
#
# WAKEUP_PG_SERVER_OPTS adds server settings, e.g. for a profile of the statements:
#   WAKEUP_PG_SERVER_OPTS='-c shared_preload_libraries=pg_stat_statements' scripts/pg-test-server.sh start
#
# The cluster trusts loopback connections and runs without fsync: it holds test data only.
# Run as root, the server runs as the `postgres` user (PostgreSQL refuses to run as root),
# and the temporary folder belongs to it. Its unix socket lives in that folder, never in
# /var/run/postgresql, so it cannot collide with a system cluster.
set -euo pipefail

log() { echo "pg-test-server: $*" >&2; }

find_bin() {
  # The newest installed major version's binaries (Debian keeps them out of PATH).
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [[ -n "$dir" && -x "$dir/initdb" ]]; then
    echo "$dir"
  elif command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(command -v initdb)"
  fi
}

install_postgres() {
  if [[ $(id -u) -ne 0 ]]; then
    log "PostgreSQL is not installed and this is not root: install the 'postgresql' package"
    return 1
  fi
  command -v apt-get >/dev/null 2>&1 || { log "PostgreSQL is not installed and there is no apt-get"; return 1; }
  log "installing PostgreSQL from Debian's packages (apt-get update, apt-get install -y postgresql)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2 || { log "apt-get update failed"; return 1; }
  apt-get install -y -qq postgresql >&2 || { log "apt-get install postgresql failed"; return 1; }
}

# Runs a command as the cluster's owner: `postgres` when we are root, else ourselves.
as_owner() {
  if [[ $(id -u) -eq 0 ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

start() {
  local bin
  bin=$(find_bin)
  if [[ -z "$bin" ]]; then
    install_postgres || return 1
    bin=$(find_bin)
    [[ -n "$bin" ]] || { log "no initdb found after installing PostgreSQL"; return 1; }
  fi
  if [[ $(id -u) -eq 0 ]] && ! id postgres >/dev/null 2>&1; then
    log "running as root but there is no 'postgres' user to own the cluster"
    return 1
  fi
  local dir
  dir=$(mktemp -d "${TMPDIR:-/tmp}/wakeup-pg.XXXXXX")
  chmod 700 "$dir"
  [[ $(id -u) -eq 0 ]] && chown postgres: "$dir"
  if ! as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1; then
    log "initdb failed:"; cat "$dir/initdb.log" >&2; rm -rf "$dir"; return 1
  fi
  local port tries=0
  while :; do
    port=$(free_port)
    if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
      -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 ${WAKEUP_PG_SERVER_OPTS:-}" >/dev/null 2>&1; then
      break
    fi
    tries=$((tries + 1))
    if [[ $tries -ge 3 ]]; then
      log "the server did not start:"; tail -n 20 "$dir/server.log" >&2 || true; rm -rf "$dir"; return 1
    fi
    log "port $port was taken meanwhile; trying another"
  done
  if ! as_owner "$bin/psql" -h "$dir" -p "$port" -U postgres -d postgres -qAt -c 'CREATE DATABASE wakeup_test' >/dev/null 2>&1; then
    log "could not create the database"; stop "$dir"; return 1
  fi
  log "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port, pid $(head -n 1 "$dir/data/postmaster.pid"), folder $dir"
  echo "export WAKEUP_TEST_PG_URL=postgres://postgres@127.0.0.1:$port/wakeup_test"
  echo "export WAKEUP_TEST_PG_DIR=$dir"
}

stop() {
  local dir=${1:-${WAKEUP_TEST_PG_DIR:-}}
  [[ -n "$dir" && -d "$dir" ]] || { log "stop: no such folder '${dir}'"; return 1; }
  [[ "$(basename "$dir")" == wakeup-pg.* ]] || { log "stop: '$dir' is not a folder this script made"; return 1; }
  local pidfile="$dir/data/postmaster.pid"
  if [[ -f "$pidfile" ]]; then
    local pid
    pid=$(head -n 1 "$pidfile")
    if [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null; then
      kill -INT "$pid" # fast shutdown: roll back open transactions, close connections
      for _ in $(seq 1 100); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
      done
      if kill -0 "$pid" 2>/dev/null; then
        log "pid $pid still running after 10 s: SIGQUIT"
        kill -QUIT "$pid" 2>/dev/null || true
        sleep 1
      fi
      log "stopped pid $pid"
    fi
  fi
  rm -rf "$dir"
}

case "${1:-}" in
  start) start ;;
  stop) stop "${2:-}" ;;
  *)
    echo "usage: $0 start | stop DIR" >&2
    exit 2
    ;;
esac
