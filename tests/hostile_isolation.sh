#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/hostile_isolation.sh WDDMKIT MODE SPEC PROGRAM DRIVER SCRATCH
#
# A driver can neither forge a case's verdict nor outlive its case (issue
# 22, "No forged verdicts" and "Every process a driver starts is found and
# killed"; docs/threat-model.md). Each MODE runs DRIVER on the
# one case of SPEC that calls DxgkDdiRender (smoke.render-all-commands)
# with `conform`, and on PROGRAM (the same case as a fuzz_prog file) with
# `repro`:
#   forge-fd      tests/driver_build/forge_result.c, WK_TEST_FORGE=1: a PASS
#                 record to every fd 0..63 in Render, then _exit(0): the
#                 case is a crash naming the forgery, never a pass;
#   forge-atexit  ... WK_TEST_FORGE=2: the same record from an atexit
#                 handler, run by exit(0) in Render: the same;
#   forge-thread  ... WK_TEST_FORGE=3: a thread Render starts forges until
#                 the process ends, while the case runs on to the kit's own
#                 record: the case is a crash naming the forgery;
#   orphan        tests/driver_build/fork_orphan.c: Render leaves a
#                 grandchild that called setsid() sleeping 60 s with the
#                 case's pipes: the case passes at once (no timeout), and
#                 the grandchild is gone when the command ends;
#   no-fork-entry tests/driver_build/entry_once.c: a second DriverEntry in
#                 one process fails. `conform --no-fork` runs every case of
#                 SPEC in its own process, DriverEntry once: all pass.
set -u
wddmkit=$1 mode=$2 spec=$3 program=$4 driver=$5 scratch=$6
. "$(dirname "$0")/hostile_lib.sh"

rm -rf "$scratch"
mkdir -p "$scratch"
out=$scratch/out

conform() { # the Render case on DRIVER, one attempt's worth of time
    "$wddmkit" conform -j 1 --timeout 5 --driver "$driver" --filter smoke.render-all-commands "$spec" >"$out" 2>&1
}
repro() {
    "$wddmkit" repro "$program" --driver "$driver" --timeout 5 --no-calibrate >"$out" 2>/dev/null
}
# No process whose pid the driver wrote to FILE is alive.
none_left() { # NAME FILE
    [ -s "$2" ] || { fail "$1: the driver wrote no pid"; return; }
    local pid
    while read -r pid; do
        [ ! -d "/proc/$pid" ] || { fail "$1: process $pid of the driver is still there"; kill -9 "$pid"; }
    done <"$2"
}
seconds() { # NAME LIMIT START
    local took=$((SECONDS - $3))
    [ "$took" -le "$2" ] || fail "$1: took ${took} s, more than $2"
}

case $mode in
forge-fd | forge-atexit)
    conform
    expect_rc "conform" 1 $?
    expect_in "conform" "1 crash" "$out"
    expect_in "conform" "the kit did not write (not sealed with this case's nonce)" "$out"
    repro
    expect_rc "repro" 3 $?
    expect_in "repro" "result: crash (exit 3)" "$out"
    expect_in "repro" "signature: DRV-CRASH-001 (exit 0) in DxgkDdiRender" "$out"
    expect_in "repro" "the driver exited the process (exit status 0) after a result record the kit did not write" "$out"
    ;;
forge-thread)
    conform
    expect_rc "conform" 1 $?
    expect_in "conform" "1 crash" "$out"
    expect_in "conform" "the kit did not write" "$out"
    repro
    expect_rc "repro" 3 $?
    expect_in "repro" "result: crash (exit 3)" "$out"
    ;;
orphan)
    export WK_TEST_ORPHAN_FILE=$scratch/pids
    start=$SECONDS
    conform
    expect_rc "conform" 0 $?
    expect_in "conform" "1 of 1 cases in" "$out"
    expect_in "conform" "1 pass" "$out"
    seconds "conform" 2 "$start"
    none_left "conform" "$WK_TEST_ORPHAN_FILE"
    rm -f "$WK_TEST_ORPHAN_FILE"
    start=$SECONDS
    repro
    expect_rc "repro" 0 $?
    expect_in "repro" "result: pass (exit 0)" "$out"
    seconds "repro" 2 "$start"
    none_left "repro" "$WK_TEST_ORPHAN_FILE"
    ;;
no-fork-entry)
    start=$SECONDS
    "$wddmkit" conform --no-fork --driver "$driver" "$spec" >"$out" 2>&1
    expect_rc "conform --no-fork" 0 $?
    expect_in "conform --no-fork" "RESULT: all as expected" "$out"
    grep -q "entry_once: DriverEntry called" "$out" && fail "conform --no-fork called DriverEntry again"
    grep -Eq "cases in [0-9.]+ s: [0-9]+ pass(, [0-9]+ skip)?$" "$out" || fail "conform --no-fork: a case did not pass"
    seconds "conform --no-fork" 2 "$start"
    ;;
*)
    fail "unknown mode $mode"
    ;;
esac
hostile_done "hostile_isolation $mode"
