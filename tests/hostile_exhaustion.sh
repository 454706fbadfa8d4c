#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/hostile_exhaustion.sh WDDMKIT MODE SPEC DRIVER SCRATCH
#
# A run whose processes or descriptors run out gives no crash and no
# failure for it (issue 22: "EAGAIN/EMFILE on fork, pipe or open is retried
# with backoff for at most 10 s, then the case is error naming the errno"; docs/verdicts.md,
# "When the kit runs out of processes or descriptors"). SPEC's twelve cases
# run with -j 4:
#   fd     under `ulimit -n 12` a launch finds no descriptor while three
#          cases run (each holds four in the runner): the launch waits for
#          one to end, and all twelve pass, in well under --resource-wait;
#          under `ulimit -n 8` no case can ever start: each is `error`
#          naming pipe() and EMFILE after --resource-wait 0.3 (the wait is
#          paid once), and the JSON report holds all twelve;
#   nproc  run as nobody (so RLIMIT_NPROC counts only this run's processes;
#          root ignores the limit: skipped, exit 77, without root): DRIVER
#          (tests/driver_build/hog_processes.c) takes every process left
#          in its first Render and holds them 150 ms; the cases that cannot
#          start meanwhile wait and pass (before, the shepherd's failed fork
#          read as a case that exited 127: a crash). With `--nproc 2` and the
#          reference driver nothing can start: each case is `error` naming
#          fork() and EAGAIN after --resource-wait 0.3.
set -u
wddmkit=$1 mode=$2 spec=$3 driver=$4 scratch=$5
. "$(dirname "$0")/hostile_lib.sh"
within() { # NAME LIMIT-MS START-NS
    local ms=$((($(date +%s%N) - $3) / 1000000))
    [ "$ms" -le "$2" ] || fail "$1: took ${ms} ms, more than $2"
}

rm -rf "$scratch"
mkdir -p "$scratch"
out=$scratch/out

# ctest's own descriptors would count against the low limits: close them.
for fd in $(ls /proc/$$/fd); do
    [ "$fd" -gt 2 ] && eval "exec $fd>&-"
done 2>/dev/null

case $mode in
fd)
    t0=$(date +%s%N)
    (ulimit -n 12 && exec "$wddmkit" conform -j 4 --resource-wait 5 "$spec") >"$out" 2>&1
    expect_rc "ulimit -n 12" 0 $?
    expect_in "ulimit -n 12" "12 of 12 cases in" "$out"
    expect_in "ulimit -n 12" ": 12 pass" "$out"
    within "ulimit -n 12 (waits for running cases, not for the deadline)" 1500 "$t0"

    t0=$(date +%s%N)
    (ulimit -n 8 && exec "$wddmkit" conform -j 4 --resource-wait 0.3 --json "$scratch/r.json" "$spec") >"$out" 2>&1
    expect_rc "ulimit -n 8" 1 $?
    expect_in "ulimit -n 8" ": 12 error" "$out"
    expect_count "ulimit -n 8" 12 "seen:     could not start the case: pipe: Too many open files (EMFILE), retried for 0.3 s" "$out"
    expect_count "ulimit -n 8: the JSON report" 12 '"verdict": "error"' "$scratch/r.json"
    within "ulimit -n 8 (one wait of 0.3 s)" 1500 "$t0"
    ;;
nproc)
    if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null || ! command -v prlimit >/dev/null; then
        echo "hostile_exhaustion nproc: skipped (needs root, setpriv and prlimit to run as nobody)"
        exit 77
    fi
    as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all prlimit "$@"; }
    # nobody must reach the binary, the driver and the spec: a clone under
    # a private folder (mktemp -d, /root) is closed to it. A staging folder
    # of its own, open to all, and removed at the end.
    stage=$(mktemp -d /tmp/wk-nproc.XXXXXX) || exit 1
    trap 'rm -rf "$stage"' EXIT
    cp "$wddmkit" "$stage/wddmkit" && cp "$driver" "$stage/driver.so" && cp "$spec" "$stage/spec.yaml" || exit 1
    chmod 755 "$stage" "$stage/wddmkit" "$stage/driver.so" && chmod 644 "$stage/spec.yaml"
    wddmkit=$stage/wddmkit driver=$stage/driver.so spec=$stage/spec.yaml
    cd "$stage" || exit 1
    t0=$(date +%s%N)
    as_nobody --nproc=12 "$wddmkit" conform -j 4 --resource-wait 5 --profile reference --driver "$driver" "$spec" >"$out" 2>&1
    expect_rc "hog, --nproc 12" 0 $?
    expect_in "hog, --nproc 12" ": 12 pass" "$out"
    within "hog, --nproc 12" 1800 "$t0"

    t0=$(date +%s%N)
    as_nobody --nproc=2 "$wddmkit" conform -j 4 --resource-wait 0.3 "$spec" >"$out" 2>&1
    expect_rc "--nproc 2" 1 $?
    expect_in "--nproc 2" ": 12 error" "$out"
    expect_count "--nproc 2" 12 "seen:     could not start the case: fork: Resource temporarily unavailable (EAGAIN), retried for 0.3 s" "$out"
    within "--nproc 2 (one wait of 0.3 s)" 1500 "$t0"
    ;;
*)
    echo "unknown mode $mode"
    exit 2
    ;;
esac
hostile_done "hostile_exhaustion $mode"
