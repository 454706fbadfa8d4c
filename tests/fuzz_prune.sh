#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/fuzz_prune.sh - ctest cli.fuzz_prune: `wddmkit fuzz --prune`
# (fuzz/campaign/) against stand-in libFuzzer binaries, and against
# the real harness when one is given.
#
# Checks:
#   1. a stand-in whose -merge=1 keeps every other input: corpus/ holds
#      exactly those afterwards, nothing of corpus.pruning/ or corpus.old/
#      is left, the summary line says before -> after, exit 0;
#   2. a stand-in whose merge fails: exit 2, corpus/ unchanged, the log
#      tail shown;
#   3. a stale corpus.pruning/ from an interrupted prune is cleared first;
#   4. AFL++ (stand-in afl-cmin and harness): corpus/ and every
#      instance's queue are minimized into corpus/, and afl/ is set aside
#      (afl.before-prune/) so that the next campaign starts from it; a
#      campaign that starts from over 5,000 inputs is told about --prune;
#   5. with REAL_BUILD (a libFuzzer build dir, or an AFL++ one with ENGINE
#      afl): the committed fuzz_patch seeds, merged for real, keep at
#      least one input and no more than they were;
#   6. with an AFL++ REAL_BUILD, the same with --driver, the build's own
#      buggy_patch_offset.so (instrumented by afl-clang-fast): afl-cmin's
#      afl-showmap starts the fork server before the harness loads
#      WK_DRIVER, so the module must be preloaded (AFL_PRELOAD) as for the
#      campaign; without it every such prune failed ("no instrumentation
#      output").
#
# Usage: fuzz_prune.sh WDDMKIT WORK_DIR [REAL_BUILD [ENGINE]]
set -u
wddmkit=$1 work=$2 real=${3:-} engine=${4:+--engine $4}
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf "$work" && mkdir -p "$work/halve/fuzz" "$work/broken/fuzz" || exit 1
out=$work/out.txt

# The stand-ins: a libFuzzer binary as far as -merge=1 goes.
cat >"$work/halve/fuzz/fuzz_gpu_decode" <<'SH'
#!/bin/sh
merge=0 into= n=0
for a in "$@"; do
    case "$a" in
    -merge=1) merge=1 ;;
    -*) ;;
    *) if [ -z "$into" ]; then into=$a; else from=$a; fi ;;
    esac
done
[ "$merge" = 1 ] || exit 3
for f in $(ls "$from" | sort); do
    n=$((n + 1))
    [ $((n % 2)) = 1 ] && cp "$from/$f" "$into/$f"
done
echo "MERGE-OUTER: $n files, every other one kept" >&2
SH
printf '#!/bin/sh\necho "MERGE-OUTER: the inner process died" >&2\nexit 1\n' >"$work/broken/fuzz/fuzz_gpu_decode"
chmod +x "$work/halve/fuzz/fuzz_gpu_decode" "$work/broken/fuzz/fuzz_gpu_decode"

# fill DIR N: N distinct inputs.
fill() {
    mkdir -p "$1"
    for i in $(seq 1 "$2"); do printf 'input %d' "$i" >"$1/in-$i"; done
}
count() { find "$1" -maxdepth 1 -type f | wc -l; }

# 1. A merge that keeps every other input. The repository's seeds are
# added to corpus/ before the merge, so the expectation counts them.
fill "$work/one/corpus" 9
mkdir -p "$work/one/corpus.pruning" && printf 'stale' >"$work/one/corpus.pruning/stale" # 3.
"$wddmkit" fuzz --harness fuzz_gpu_decode --build-dir "$work/halve" --out "$work/one" --prune >"$out" 2>&1
status=$?
before=$(sed -n 's/^pruning .* (\([0-9]*\) inputs).*/\1/p' "$out")
after=$(count "$work/one/corpus")
if [ "$status" -ne 0 ] || [ -z "$before" ] || [ "$after" -ne $(((before + 1) / 2)) ] ||
    ! grep -q "^pruned:  $before -> $after inputs" "$out"; then
    fail "a halving merge: exit $status, $before -> $after inputs, expected 0 and half"
    cat "$out"
fi
[ -e "$work/one/corpus.pruning" ] && fail "corpus.pruning/ is left"
[ -e "$work/one/corpus.old" ] && fail "corpus.old/ is left"
[ -e "$work/one/corpus/stale" ] && fail "the stale corpus.pruning/ was merged in"

# 2. A merge that fails.
fill "$work/two/corpus" 5
"$wddmkit" fuzz --harness fuzz_gpu_decode --build-dir "$work/broken" --out "$work/two" --prune >"$out" 2>&1
status=$?
kept=$(count "$work/two/corpus")
if [ "$status" -ne 2 ] || ! grep -q "the merge failed (exit code 1, 0 inputs kept).* is unchanged" "$out" ||
    ! grep -q "the inner process died" "$out" || [ "$kept" -lt 5 ]; then
    fail "a failing merge: exit $status, $kept inputs in corpus/, expected 2, the log tail and the corpus kept"
    cat "$out"
fi
[ -e "$work/two/corpus.pruning" ] && fail "a failing merge left corpus.pruning/"

# A campaign that starts from a large corpus is told about --prune.
fill "$work/big/corpus" 5001
"$wddmkit" fuzz --harness fuzz_gpu_decode --build-dir "$work/halve" --out "$work/big" --time 1 >"$out" 2>&1
grep -q "note: the engine first runs every one of these inputs; .*--prune --out $work/big" "$out" ||
    { fail "a 5,001-input corpus: no --prune note"; cat "$out"; }

# 4. AFL++: afl-cmin over corpus/ and every instance's queue, then afl/
# set aside so that the next campaign starts from the pruned corpus. A
# stand-in afl-cmin (on PATH) keeps every other input; the stand-in harness
# only has to look like an AFL++ build.
mkdir -p "$work/aflbin/fuzz" "$work/path"
printf '#!/bin/sh\n# __AFL_SHM_ID\nexit 0\n' >"$work/aflbin/fuzz/fuzz_gpu_decode"
cat >"$work/path/afl-cmin" <<'SH'
#!/bin/sh
while [ $# -gt 0 ]; do
    case "$1" in -i) from=$2; shift ;; -o) into=$2; shift ;; --) break ;; esac
    shift
done
mkdir -p "$into" && n=0
for f in $(ls "$from" | sort); do
    n=$((n + 1))
    [ $((n % 2)) = 1 ] && cp "$from/$f" "$into/$f"
done
echo "[+] Narrowed down to $(ls "$into" | wc -l) files" >&2
SH
chmod +x "$work/aflbin/fuzz/fuzz_gpu_decode" "$work/path/afl-cmin"
fill "$work/afl/corpus" 4
fill "$work/afl/afl/main/queue" 6
fill "$work/afl/afl/s1/queue" 3
mkdir -p "$work/afl/afl/main/queue/.state"
PATH="$work/path:$PATH" "$wddmkit" fuzz --harness fuzz_gpu_decode --engine afl --build-dir "$work/aflbin" \
    --out "$work/afl" --prune >"$out" 2>&1
status=$?
before=$(sed -n 's/^pruning .* (\([0-9]*\) inputs, with every instance.s queue).*/\1/p' "$out")
after=$(count "$work/afl/corpus")
seeded=$(sed -n 's/^corpus: .* (\([0-9]*\) inputs;.*/\1/p' "$out") # the corpus with the seeds added
if [ "$status" -ne 0 ] || [ -z "$before" ] || [ -z "$seeded" ] || [ "$before" -ne $((seeded + 9)) ] ||
    [ "$after" -ne $(((before + 1) / 2)) ] || [ -e "$work/afl/afl" ] || [ ! -d "$work/afl/afl.before-prune/main" ] ||
    [ -e "$work/afl/corpus.gathered" ]; then
    fail "AFL++ prune: exit $status, $before -> $after inputs (corpus $seeded + 9 queued), expected 0, half, afl/ set aside"
    cat "$out"
fi

# 5. The real harness.
if [ -n "$real" ]; then
    [ -x "$real/fuzz/fuzz_patch" ] || fail "$real/fuzz/fuzz_patch is not built"
    "$wddmkit" fuzz --harness fuzz_patch --build-dir "$real" --out "$work/real" --prune $engine >"$out" 2>&1
    status=$?
    line=$(grep "^pruned: " "$out")
    b=$(echo "$line" | sed -n 's/^pruned: *\([0-9]*\) -> \([0-9]*\) inputs.*/\1/p')
    a=$(echo "$line" | sed -n 's/^pruned: *\([0-9]*\) -> \([0-9]*\) inputs.*/\2/p')
    if [ "$status" -ne 0 ] || [ -z "$a" ] || [ "$a" -lt 1 ] || [ "$a" -gt "$b" ]; then
        fail "a real merge of fuzz_patch's seeds: exit $status, '$line'"
        cat "$out"
    fi
fi

# 6. The real AFL++ harness with a driver module.
driver=${real:+$real/examples/drivers/buggy_patch_offset.so}
if [ "${4:-}" = afl ] && [ -f "$driver" ]; then
    env -u AFL_IGNORE_PROBLEMS -u AFL_PRELOAD "$wddmkit" fuzz --harness fuzz_patch --build-dir "$real" \
        --out "$work/real-driver" --prune $engine --driver "$driver" >"$out" 2>&1
    status=$?
    line=$(grep "^pruned: " "$out")
    a=$(echo "$line" | sed -n 's/^pruned: *\([0-9]*\) -> \([0-9]*\) inputs.*/\2/p')
    if [ "$status" -ne 0 ] || [ -z "$a" ] || [ "$a" -lt 1 ]; then
        fail "a real AFL++ merge with --driver $driver: exit $status, '$line'"
        cat "$out"
    fi
fi

if [ "$fails" -ne 0 ]; then
    echo "fuzz_prune: $fails check(s) failed"
    exit 1
fi
echo "fuzz_prune: all checks passed"
