#!/usr/bin/env bash
# CI: every commit after the base recorded in .ci/subjects-base has a subject of at most 72
# characters (the commit-msg hook's rule; older history is left as it is). Prints the ones
# that are longer and exits 1. Move the base forward when you like; never back.
#
#   scripts/check-subjects.sh            checks <base>..HEAD
#   scripts/check-subjects.sh <rev>      checks <base>..<rev>
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C.UTF-8
max=72
if ! git rev-parse --git-dir >/dev/null 2>&1; then
  echo "check-subjects: not a git work tree; nothing to check"
  exit 0
fi
base=$(tr -d '[:space:]' < .ci/subjects-base)
head=${1:-HEAD}
if ! git cat-file -e "${base}^{commit}" 2>/dev/null; then
  echo "check-subjects: the base $base (.ci/subjects-base) is not in this clone; fetch the history" >&2
  exit 1
fi
count=0
long=0
while IFS= read -r line; do
  hash=${line%% *}
  subject=${line#* }
  count=$((count + 1))
  if (( ${#subject} > max )); then
    echo "check-subjects: $hash has a subject of ${#subject} characters (at most $max): $subject" >&2
    long=$((long + 1))
  fi
done < <(git log --format='%h %s' "$base..$head")
if (( long > 0 )); then
  echo "check-subjects: $long of $count commits after ${base:0:7} have subjects over $max characters" >&2
  exit 1
fi
echo "check-subjects: $count commits after ${base:0:7}, every subject at most $max characters"
