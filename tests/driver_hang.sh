#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/driver_hang.sh WDDMKIT HANGING_CTOR_SO SCRATCH
#
# A driver whose constructor starts a helper process and then never
# returns (driver_build/hanging_ctor.c, with WK_TEST_HANG_PIDFILE): `driver
# check` and `conform` give up within a DDI call's time plus a margin (7 s
# in all) with DRV-HANG-001, and the helper is gone when they return (the
# probe's process group is killed: cli/driver_probe.c).
set -u
wddmkit=$1 hanging=$2 scratch=$3
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

rm -rf "$scratch"
mkdir -p "$scratch"
out=$scratch/out

# NAME WANT_RC COMMAND...: runs it with the pid file set, checks the exit
# code, the time, the verdict, and that the helper it started is gone.
check() {
    local name=$1 want=$2
    shift 2
    local pidfile=$scratch/$name.pid start end rc
    start=$(date +%s%N)
    WK_TEST_HANG_PIDFILE=$pidfile "$@" >"$out" 2>&1
    rc=$?
    end=$(date +%s%N)
    [ "$rc" = "$want" ] || fail "$name: exit code $rc, expected $want"
    grep -q "DRV-HANG-001: .* hung while loading" "$out" || { fail "$name: no DRV-HANG-001 while loading in:"; sed 's/^/    /' "$out"; }
    [ $(((end - start) / 1000000)) -le 2000 ] || fail "$name: took $(((end - start) / 1000000)) ms"
    if [ ! -s "$pidfile" ]; then
        fail "$name: the constructor wrote no pid file"
        return
    fi
    local pid
    pid=$(cat "$pidfile")
    sleep 0.2 # SIGKILL is delivered at once; a zombie is reaped by init
    if kill -0 "$pid" 2>/dev/null && ! grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null; then
        fail "$name: the helper $pid outlived the command"
        kill -9 "$pid" 2>/dev/null
    fi
}

check "driver-check" 3 "$wddmkit" driver check --load-timeout 0.5 "$hanging"
check "conform" 2 "$wddmkit" conform --load-timeout 0.5 --driver "$hanging"

if [ "$fails" = 0 ]; then
    echo "driver_hang: all checks passed"
else
    echo "driver_hang: $fails check(s) failed"
    exit 1
fi
