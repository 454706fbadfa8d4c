#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/fuzz_replay_fresh.sh - ctest fuzz.prog_replay_fresh_equals_one_process:
# every committed corpus/fuzz_prog input (seeds, then regressions) replayed
# against a buggy driver in one process, then each in a fresh process,
# prints the same findings in the same order. What `wddmkit repro` relies
# on: a finding of a long campaign replays in a fresh process. The kit's
# state between inputs must not leak into what an input sees (the pages a
# context's DMA buffer gets, reference-impl/vidmm/dma_quarantine.c; the
# placements; the scatter of system pages).
#
# Usage: fuzz_replay_fresh.sh FUZZ_PROG_REPLAY CORPUS_DIR DRIVER_SO
set -u
replay=$1 corpus=$2 driver=$3
export WK_FUZZ_NO_ABORT=1 WK_DRIVER=$driver
files=$(ls "$corpus"/fuzz_prog/seeds/* "$corpus"/fuzz_prog/regressions/* | sort) || exit 1
# Host addresses differ from process to process (a fresh mapping lands anywhere): masked.
norm() { sed -E 's/0x[0-9a-f]{6,}/ADDR/g' | grep -v '^replay: '; }
# shellcheck disable=SC2086 # one argument per file
one=$("$replay" $files 2>&1 | norm)
fresh=$(for f in $files; do "$replay" "$f" 2>&1 | norm; done)
findings=$(printf '%s\n' "$one" | grep -c 'FINDING')
if [ "$findings" -eq 0 ]; then
    echo "FAIL: no finding in one process: the comparison says nothing"
    exit 1
fi
if [ "$one" != "$fresh" ]; then
    echo "FAIL: one process and fresh processes differ:"
    diff <(printf '%s\n' "$one") <(printf '%s\n' "$fresh") | head -40
    exit 1
fi
echo "fuzz_replay_fresh: identical ($findings findings, $(printf '%s\n' $files | wc -l) inputs)"
