#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/hostile_slot.sh WDDMKIT MODE SPEC SCRATCH DRIVER
#
# The shepherd of a -j slot lives across cases (conformance/runner/zygote.c)
# and nothing of one case reaches the next (docs/architecture.md,
# "Processes"): tests/driver_build/slot_leftovers.c, whose DriverEntry
# checks what the load before it left, then leaves as much again. `conform
# -j 1` of every case of SPEC (the cases that run: some skip):
#   leftovers  WK_TEST_SLOT=1, each case leaves a child in its group and a
#              daemon in a session of its own: every case passes, none finds
#              a process of the last one alive or shares its process group,
#              the cases that pass have one parent (the slot's shepherd), and
#              nothing is left after the run;
#   limits     =2, each case lowers its parent's RLIMIT_NOFILE and priority:
#              no case starts with the limits the last one set, so each has a
#              parent of its own (a changed shepherd is replaced).
set -u
wddmkit=$1 mode=$2 spec=$3 scratch=$4 driver=$5
. "$(dirname "$0")/hostile_lib.sh"

rm -rf "$scratch"
mkdir -p "$scratch"
out=$scratch/out
export WK_TEST_SLOT_FILE=$scratch/loads
timeout -k 1 20 "$wddmkit" conform -j 1 --driver "$driver" "$spec" >"$out" 2>&1
expect_rc "conform" 0 $?
expect_in "conform" "RESULT: all as expected" "$out"
passes=$(sed -n 's/.* cases in .*: \([0-9][0-9]*\) pass.*/\1/p' "$out")
[ "${passes:-0}" -ge 3 ] || fail "conform: ${passes:-no} cases passed, expected 3 or more"
expect_not_in "conform" "LEFTOVER" "$WK_TEST_SLOT_FILE"
expect_not_in "conform" "SHARED" "$WK_TEST_SLOT_FILE"
expect_not_in "conform" "INHERITED" "$WK_TEST_SLOT_FILE"
# Each load's parent (the cases', and a load probe's before them): how many
# loads the most common one had, and how many had one that another had too.
grep '^LOAD ' "$WK_TEST_SLOT_FILE" | awk '{ print $3 }' | sort | uniq -c | sort -rn >"$scratch/parents"
most=$(head -1 "$scratch/parents" | awk '{ print $1 }')
case $mode in
leftovers)
    [ "${most:-0}" -ge "${passes:-0}" ] || fail "at most ${most:-0} loads had one parent, expected the ${passes:-0} cases that passed: one shepherd"
    grep '^LOAD ' "$WK_TEST_SLOT_FILE" | awk '{ print $2, $6, $7 }' | tr ' ' '\n' | while read -r pid; do
        [ "$pid" -le 0 ] || [ ! -d "/proc/$pid" ] || { echo "FAIL: process $pid of a case is still there"; kill -9 "$pid"; }
    done >"$scratch/alive"
    [ ! -s "$scratch/alive" ] || fail "$(cat "$scratch/alive")"
    ;;
limits)
    [ "${most:-0}" = 1 ] || fail "${most:-0} loads had one parent, expected a new shepherd each"
    ;;
*)
    fail "unknown mode $mode"
    ;;
esac
[ "$fails" = 0 ] || show_tail "$WK_TEST_SLOT_FILE"
hostile_done "hostile_slot $mode"
