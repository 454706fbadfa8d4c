#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/hostile_shepherd.sh WDDMKIT MODE SPEC PROGRAM SCRATCH DRIVER [DRIVER2]
#
# A driver that turns on the process above it, the kit's shepherd, or
# leaves processes behind while it loads, can neither hang the kit nor
# leave a process (docs/threat-model.md; the drivers are
# tests/driver_build/signal_shepherd.c). Every command is bounded by
# timeout(1), so a kit that hangs fails here rather than at ctest's limit.
#   stopped        WK_TEST_SHEPHERD=1, Render SIGSTOPs its parent: `conform`
#                  and `repro` call it a crash ("the driver stopped the kit's
#                  shepherd") at once, not at --timeout, and end;
#   stopped-repeated  =1, `repro` 150 times: every run a crash, none
#                  stopping `wddmkit` itself (a case's process killed after
#                  its shepherd could be handed to wddmkit and stop it: 2% of
#                  runs before the shepherd's group was killed with it);
#   killed-orphan  =2, Render leaves an orphan holding the pipes, then
#                  SIGKILLs its parent: a crash ("the kit's shepherd ... was
#                  killed by SIGKILL") at once, no timeout wait, no orphan
#                  left, from `conform` and `repro`;
#   probe-orphan   =3 and =4 (DRIVER2), DriverEntry leaves an orphan, then
#                  returns or hangs: `driver check` and `conform` leave no
#                  orphan, and the hang is DRV-HANG-001;
#   probe-stopped  =5, DriverEntry SIGSTOPs its parent: `driver check` and
#                  `conform` refuse the driver at once, naming the stop.
set -u
wddmkit=$1 mode=$2 spec=$3 program=$4 scratch=$5 driver=$6 driver2=${7:-}
. "$(dirname "$0")/hostile_lib.sh"

rm -rf "$scratch"
mkdir -p "$scratch"
out=$scratch/out
export WK_TEST_ORPHAN_FILE=$scratch/pids

now_ms() { date +%s%3N; }
started=0
clock() { started=$(now_ms); }
within() { # NAME LIMIT-MS
    local took=$(($(now_ms) - started))
    [ "$took" -le "$2" ] || fail "$1: took ${took} ms, more than $2"
}
# No process whose pid the driver wrote is alive; the file is emptied.
none_left() { # NAME
    [ -s "$WK_TEST_ORPHAN_FILE" ] || { fail "$1: the driver wrote no pid"; return; }
    local pid
    while read -r pid; do
        [ ! -d "/proc/$pid" ] || { fail "$1: process $pid of the driver is still there"; kill -9 "$pid"; }
    done <"$WK_TEST_ORPHAN_FILE"
    rm -f "$WK_TEST_ORPHAN_FILE"
}
conform() { # DRIVER [ARGS]: the Render case
    local d=$1
    shift
    timeout -k 1 4 "$wddmkit" conform -j 1 --driver "$d" --filter smoke.render-all-commands "$@" "$spec" >"$out" 2>&1
}
repro() { # DRIVER [ARGS]
    local d=$1
    shift
    timeout -k 1 4 "$wddmkit" repro "$program" --driver "$d" --no-calibrate "$@" >"$out" 2>/dev/null
}
check() { # DRIVER [ARGS]
    local d=$1
    shift
    timeout -k 1 4 "$wddmkit" driver check "$d" "$@" >"$out" 2>&1
}

case $mode in
stopped)
    clock
    conform "$driver" --timeout 3
    expect_rc "conform" 1 $?
    expect_in "conform" "1 crash" "$out"
    expect_in "conform" "the driver stopped the kit's shepherd (SIGSTOP to the process that watches its case)" "$out"
    within "conform" 1500
    clock
    repro "$driver" --timeout 3
    expect_rc "repro" 3 $?
    expect_in "repro" "signature: the driver stopped the kit's shepherd (SIGSTOP)" "$out"
    within "repro" 1500
    ;;
stopped-repeated)
    hung=0
    for i in $(seq 1 150); do
        repro "$driver" --timeout 3
        rc=$?
        [ "$rc" = 3 ] || { hung=$((hung + 1)); fail "repro run $i: exit code $rc, expected 3"; }
        [ "$hung" -lt 3 ] || break
    done
    ;;
killed-orphan)
    clock
    conform "$driver" --timeout 3
    expect_rc "conform" 1 $?
    expect_in "conform" "1 crash" "$out"
    expect_in "conform" "the kit's shepherd (the process that watches the case) was killed by SIGKILL before the case's process ended" "$out"
    within "conform" 1500
    none_left "conform"
    clock
    repro "$driver" --timeout 3
    expect_rc "repro" 3 $?
    expect_in "repro" "signature: the kit's shepherd was killed (SIGKILL)" "$out"
    within "repro" 1500
    none_left "repro"
    ;;
probe-orphan)
    check "$driver"
    expect_rc "driver check" 0 $?
    none_left "driver check"
    conform "$driver" --timeout 3
    expect_rc "conform" 0 $?
    expect_in "conform" "1 pass" "$out"
    none_left "conform"
    check "$driver2" --load-timeout 0.2
    expect_rc "driver check (hang)" 3 $?
    expect_in "driver check (hang)" "DRV-HANG-001" "$out"
    none_left "driver check (hang)"
    conform "$driver2" --load-timeout 0.2
    expect_rc "conform (hang)" 2 $?
    expect_in "conform (hang)" "DRV-HANG-001" "$out"
    none_left "conform (hang)"
    ;;
probe-stopped)
    clock
    check "$driver"
    expect_rc "driver check" 3 $?
    expect_in "driver check" "stopped the kit's process above the one that loaded it (SIGSTOP to its parent) in DriverEntry" "$out"
    conform "$driver"
    expect_rc "conform" 2 $?
    expect_in "conform" "stopped the kit's process above the one that loaded it" "$out"
    within "driver check and conform" 1500
    ;;
*)
    fail "unknown mode $mode"
    ;;
esac
hostile_done "hostile_shepherd $mode"
