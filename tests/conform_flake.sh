#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/conform_flake.sh WDDMKIT CRASH_ONCE_SO SPEC CASE SCRATCH
#
# An intermittent crash (driver_build/crash_once.c: the case process dies
# on the first run, passes the rerun) is a flake, and a flake fails the run
# unless the expectations file lists it (conformance/runner/verdicts.c):
#   - not listed: exit 1, "RESULT: UNEXPECTED RESULTS", the flake's own
#     line saying it fails the run, JUnit <failure type="flake"> carrying
#     the first run's output, TAP "not ok", JSON "unexpected": true;
#   - listed (expect: flake): exit 0, JUnit <flakyFailure>, TAP "ok";
#   - the JUnit files are well-formed and, where xmllint is installed,
#     valid against tests/data/junit.xsd.
set -u
wddmkit=$1 driver=$2 spec=$3 case=$4 scratch=$5
here=$(cd "$(dirname "$0")" && pwd)
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
expect_rc() { # NAME WANT GOT
    [ "$2" = "$3" ] || fail "$1: exit code $3, expected $2"
}
expect_in() { # NAME PATTERN FILE
    grep -q -- "$2" "$3" || { fail "$1: no '$2' in:"; sed 's/^/    /' "$3"; }
}
expect_not_in() { # NAME PATTERN FILE
    ! grep -q -- "$2" "$3" || fail "$1: '$2' in $3"
}
valid_junit() { # NAME FILE
    command -v xmllint >/dev/null || return 0
    xmllint --noout --schema "$here/data/junit.xsd" "$2" >"$scratch/xmllint" 2>&1 ||
        { fail "$1: $2 is not valid JUnit:"; sed 's/^/    /' "$scratch/xmllint"; }
}

rm -rf "$scratch"
mkdir -p "$scratch"
out=$scratch/out
# NAME [ARGS...]: one run of the case with a fresh marker (the first
# StartDevice dies), its reports in $scratch/NAME.*.
run() {
    local name=$1
    shift
    rm -f "$scratch/marker"
    WK_TEST_CRASH_ONCE_FILE=$scratch/marker "$wddmkit" conform -j 1 --driver "$driver" --filter "$case" \
        --junit "$scratch/$name.xml" --tap "$scratch/$name.tap" --json "$scratch/$name.json" "$@" "$spec" >"$out" 2>&1
}

run unlisted; expect_rc "unlisted flake" 1 $?
expect_in "unlisted flake" "RESULT: UNEXPECTED RESULTS" "$out"
expect_in "unlisted flake" "flake $case: crash first (.*), pass on the rerun; FAILS THE RUN" "$out"
expect_in "unlisted flake" "1 unexpected result:" "$out"
expect_in "unlisted flake junit" '<failure type="flake" message="crash on the first run, pass on the rerun' "$scratch/unlisted.xml"
expect_in "unlisted flake junit" "crash_once: first run, the driver dies in DxgkDdiStartDevice" "$scratch/unlisted.xml"
expect_in "unlisted flake junit" '<testsuites name="wddmkit conform" tests="1" failures="1"' "$scratch/unlisted.xml"
expect_in "unlisted flake tap" "^not ok 1 - $case" "$scratch/unlisted.tap"
expect_in "unlisted flake json" '"unexpected": true' "$scratch/unlisted.json"
valid_junit "unlisted flake" "$scratch/unlisted.xml"

cat >"$scratch/expect.yaml" <<YAML
- id: $case
  expect: flake
  reason: StartDevice dies once in a while
  link: wddmkit#22
YAML
run listed --expectations "$scratch/expect.yaml"; expect_rc "listed flake" 0 $?
expect_in "listed flake" "RESULT: all as expected" "$out"
expect_in "listed flake" "flake $case: .*listed as a flake: StartDevice dies once in a while" "$out"
expect_in "listed flake junit" '<flakyFailure type="crash" message="crash on the first run' "$scratch/listed.xml"
expect_in "listed flake junit" "crash_once: first run, the driver dies in DxgkDdiStartDevice" "$scratch/listed.xml"
expect_in "listed flake junit" '<testsuites name="wddmkit conform" tests="1" failures="0" errors="0"' "$scratch/listed.xml"
expect_not_in "listed flake junit" "<failure" "$scratch/listed.xml"
expect_in "listed flake tap" "^ok 1 - $case" "$scratch/listed.tap"
valid_junit "listed flake" "$scratch/listed.xml"

if [ "$fails" = 0 ]; then
    echo "conform_flake: all checks passed"
else
    echo "conform_flake: $fails check(s) failed"
    exit 1
fi
