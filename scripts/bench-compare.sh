#!/bin/sh
# SPDX-License-Identifier: MIT
# bench-compare.sh - fuzz_speed of this tree against a base commit, measured
# in one session, runs alternating, so that load from other processes falls
# on both sides alike (bench/README.md).
#
#   sh scripts/bench-compare.sh BASE [HARNESSES [ROUNDS [SECONDS]]]
#
#   BASE       a commit (built in a worktree of its own under $TMPDIR, or in
#              BASE_DIR when that names one already built)
#   HARNESSES  comma-separated fuzz_speed harnesses (default: all five)
#   ROUNDS     alternations per harness (default 5)
#   SECONDS    CPU seconds per side of each fuzz_speed run (default 1)
#
# Both sides run on this tree's corpus. Prints each run's ratio (harness
# exec/s over the empty harness's, measured in the same run: the figure
# that does not depend on the machine), then per harness the median
# ratio of each side and the change. This tree must be built
# (cmake --preset default; cmake --build build/default --target fuzz_speed).
set -eu
BASE=${1:?usage: bench-compare.sh BASE [HARNESSES [ROUNDS [SECONDS]]]}
HARNESSES=${2:-fuzz_gpu_decode,fuzz_patch,fuzz_render,fuzz_paging,fuzz_prog}
ROUNDS=${3:-5}
SECONDS_EACH=${4:-1}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
NEW=$ROOT/build/default/bench/fuzz_speed
[ -x "$NEW" ] || { echo "bench-compare: build $NEW first" >&2; exit 2; }

if [ -z "${BASE_DIR:-}" ]; then
    BASE_DIR=${TMPDIR:-/tmp}/bench-compare-$(git -C "$ROOT" rev-parse --short "$BASE")
    if [ ! -d "$BASE_DIR" ]; then
        git -C "$ROOT" worktree add --detach "$BASE_DIR" "$BASE" >/dev/null
        echo "bench-compare: made worktree $BASE_DIR (remove: git worktree remove $BASE_DIR)"
    fi
fi
OLD=$BASE_DIR/build/default/bench/fuzz_speed
if [ ! -x "$OLD" ]; then
    (cd "$BASE_DIR" && cmake --preset default >/dev/null && cmake --build build/default --target fuzz_speed >/dev/null)
fi

# One harness's exec/s over the empty harness's, from its line (the printed
# ratio has four decimals: too few for the slow harnesses).
ratio() {
    "$1" "$SECONDS_EACH" "$ROOT/corpus" "$2" | awk -v h="$2" '$1 == h { printf "%.6f\n", $3 / $4 }'
}

results=${TMPDIR:-/tmp}/bench-compare.$$
trap 'rm -f "$results"' EXIT INT TERM
: >"$results"
for h in $(echo "$HARNESSES" | tr ',' ' '); do
    r=1
    while [ "$r" -le "$ROUNDS" ]; do
        if [ $((r % 2)) -eq 1 ]; then
            b=$(ratio "$OLD" "$h"); n=$(ratio "$NEW" "$h")
        else
            n=$(ratio "$NEW" "$h"); b=$(ratio "$OLD" "$h")
        fi
        echo "$h round $r: base $b  this tree $n"
        echo "$h $b $n" >>"$results"
        r=$((r + 1))
    done
done

echo "harness           base median  this median  change"
for h in $(echo "$HARNESSES" | tr ',' ' '); do
    b=$(awk -v h="$h" '$1 == h { print $2 }' "$results" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
    n=$(awk -v h="$h" '$1 == h { print $3 }' "$results" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
    awk -v h="$h" -v b="$b" -v n="$n" 'BEGIN { printf "%-17s %11.6f  %11.6f  %+6.1f%%\n", h, b, n, (n / b - 1) * 100 }'
done
