#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/fuzz_reach.sh WDDMKIT RENDER_REPLAY DRIVER BINDING SRC WORK - ctest
# fuzz.binding.reach_counted: the inputs a harness skips before the driver
# are counted and said (fuzz/driver/reach.c, fuzz/campaign/reach.c).
#
#   1. fuzz_render_replay with the Heron miniport and its binding over the
#      committed seeds: a line says how many never reached the driver, by
#      reason (raw bytes of the kit's format; operations Heron's encoder
#      cannot say), and the counts add up to the inputs;
#   2. without a binding every input reaches the driver: no such line;
#   3. `wddmkit fuzz` with a stand-in engine that runs the real replay
#      binary over the seeds (as an engine's runs would): the summary's
#      `skipped` line gives the same counts, read from the counters' file
#      the engine's processes share (WK_FUZZ_REACH_COUNTS).
set -u
wddmkit=$1 replay=$2 driver=$3 binding=$4 src=$5 work=$6
seeds=$src/corpus/fuzz_render/seeds
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf "$work"
mkdir -p "$work/build/fuzz" || exit 1
out=$work/out

# 1. The replay's own count.
WK_FUZZ_NO_ABORT=1 WK_DRIVER="$driver" WK_BINDING="$binding" "$replay" "$seeds" >"$out" 2>&1
line=$(grep '^replay: [0-9]* of [0-9]* inputs counted never reached the driver' "$out")
inputs=$(ls "$seeds" | wc -l)
if [ -z "$line" ]; then
    fail "replay with a binding: no count of the skipped inputs"
    tail -5 "$out"
else
    skipped=$(echo "$line" | sed -E 's/^replay: ([0-9]+) of ([0-9]+) .*/\1/')
    counted=$(echo "$line" | sed -E 's/^replay: ([0-9]+) of ([0-9]+) .*/\2/')
    raw=$(echo "$line" | sed -nE 's/.*: ([0-9]+) raw bytes.*/\1/p')
    unsayable=$(echo "$line" | sed -nE "s/.*; ([0-9]+) an operation the binding's encoder cannot say.*/\1/p")
    [ "$counted" = "$inputs" ] || fail "replay: $counted inputs counted, expected $inputs"
    [ -n "$raw" ] && [ -n "$unsayable" ] && [ $((raw + unsayable)) = "$skipped" ] ||
        fail "replay: the reasons ($raw, $unsayable) do not add up to $skipped"
fi

# 2. Without a binding nothing is skipped.
WK_FUZZ_NO_ABORT=1 WK_DRIVER="$driver" "$replay" "$seeds" >"$out" 2>&1
grep -q "never reached the driver" "$out" && fail "replay without a binding: inputs said skipped"

# 3. A campaign: the stand-in engine runs the replay binary over the seeds.
cat >"$work/build/fuzz/fuzz_render" <<SH
#!/bin/sh
WK_FUZZ_NO_ABORT=1 "\$(dirname "\$0")/fuzz_render_replay" "$seeds" >/dev/null 2>&1
printf '#2\tINITED cov: 10 ft: 12 corp: 1/1b exec/s: 0 rss: 30Mb\n' >&2
exit 0
SH
chmod +x "$work/build/fuzz/fuzz_render"
ln -s "$replay" "$work/build/fuzz/fuzz_render_replay" || exit 1
env -u WK_DRIVER -u WK_BINDING "$wddmkit" fuzz --harness fuzz_render --build-dir "$work/build" --driver "$driver" \
    --binding "$binding" --out "$work/campaign" --time 1 --no-triage >"$out" 2>&1
status=$?
if [ "$status" -ne 0 ] || ! grep -q "^  skipped   $skipped of $inputs inputs counted never reached the driver" "$out" ||
    ! grep -Eq "^ +$raw  raw bytes of the kit's format" "$out"; then
    fail "campaign: exit $status, expected 0 and a summary line of $skipped skipped of $inputs"
    cat "$out"
fi

if [ "$fails" -ne 0 ]; then
    echo "fuzz_reach: $fails check(s) failed"
    exit 1
fi
echo "fuzz_reach: all checks passed"
