#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/hostile_runner.sh WDDMKIT MODE SPEC DRIVER SCRATCH
#
# A driver cannot rewrite the run's results by path, nor stop the run with
# a signal to the kit's processes (docs/threat-model.md, "Against the
# run"). DRIVER is a build of tests/driver_build/runner_attack.c, run on
# two cases of SPEC, smoke.render-all-commands (which calls
# DxgkDdiRender) and smoke.write-discard after it, with -j 1:
#   journal          each case's DriverEntry rewrites the run's journal,
#                    found through /proc, so that every fail reads pass;
#                    Render fails. The reports hold the verdicts the runner
#                    received: exit 1, the fail in the JSON and the JUnit
#                    file, and the runner says the journal was changed and
#                    writes it again whole;
#   signal-runner    Render sends SIGTERM to the runner: the run goes on
#                    and completes (not "interrupted", not exit 143), the
#                    case is a crash naming the signal and the runner;
#   signal-shepherd  Render sends SIGTERM to the case's shepherd: a crash
#                    naming the signal and the shepherd, not "killed by
#                    SIGKILL"; `repro` of the case signs it so too.
# Each in well under 2 s.
set -u
wddmkit=$1 mode=$2 spec=$3 driver=$4 scratch=$5
. "$(dirname "$0")/hostile_lib.sh"
# "id verdict unexpected" per case of a JSON report.
verdicts() {
    python3 -c 'import json,sys
for c in json.load(open(sys.argv[1]))["cases"]: print(c["id"], c["verdict"], c["unexpected"])' "$1"
}

rm -rf "$scratch"
mkdir -p "$scratch"
cd "$scratch" || exit 1
out=$scratch/out
start=$(date +%s%N)
# A relative --json, as a user types it: the driver resolves it through
# the runner's working directory.
"$wddmkit" conform -j 1 --driver "$driver" --filter smoke.render-all-commands --filter smoke.write-discard \
    --json r.json --junit r.xml "$spec" >"$out" 2>&1
rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$ms" -lt 2000 ] || fail "the run took $ms ms"

case $mode in
journal)
    expect_rc "conform" 1 "$rc"
    expect_in "console" "RESULT: UNEXPECTED RESULTS" "$out"
    expect_not_in "console" "RESULT: all as expected" "$out"
    verdicts r.json >verdicts
    expect_in "JSON" "smoke.render-all-commands fail True" verdicts
    expect_in "JSON" "smoke.write-discard pass False" verdicts
    expect_in "JUnit" '<failure' r.xml
    expect_in "journal" "was changed during the run" "$out"
    expect_in "journal written again" '"verdict": "fail"' r.json.journal
    ;;
signal-runner)
    expect_rc "conform" 1 "$rc"
    expect_in "console" "the driver sent SIGTERM to the kit's runner" "$out"
    expect_in "console" "2 of 2 cases" "$out"
    expect_in "console" "RESULT: UNEXPECTED RESULTS" "$out"
    expect_not_in "console" "interrupted" "$out"
    verdicts r.json >verdicts
    expect_in "JSON" "smoke.render-all-commands crash True" verdicts
    expect_in "JSON" "smoke.write-discard pass False" verdicts
    expect_in "JSON" "the driver sent SIGTERM to the kit's runner" r.json
    ;;
signal-shepherd)
    expect_rc "conform" 1 "$rc"
    expect_in "console" "the driver sent SIGTERM to the kit's shepherd" "$out"
    expect_not_in "console" "killed by SIGKILL" "$out"
    verdicts r.json >verdicts
    expect_in "JSON" "smoke.render-all-commands crash True" verdicts
    expect_in "JSON" "smoke.write-discard pass False" verdicts
    # repro of the same case as a program: the same words, a crash
    program=$(dirname "$spec")/../corpus/fuzz_prog/seeds/smoke.render-all-commands.bin
    "$wddmkit" repro "$program" --driver "$driver" >repro.out 2>&1
    expect_rc "repro" 3 $?
    expect_in "repro" "signature: the driver sent SIGTERM to the kit's shepherd" repro.out
    ;;
*)
    fail "unknown mode $mode"
    ;;
esac

hostile_done "hostile_runner $mode"
