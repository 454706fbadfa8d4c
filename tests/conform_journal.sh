#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/conform_journal.sh WDDMKIT SLOW_SO OTHER_SO SPECS SCRATCH
#
# Nothing finished is lost (cli/cli_conform.c, conformance/runner/journal.c):
#   - `conform --json r.json | head -3`: the closed pipe stops the run
#     (SIGPIPE, exit 141) and r.json is whole and valid JSON;
#   - SIGTERM mid-run: exit 143, the JUnit file is valid against
#     tests/data/junit.xsd and says how many cases never ran;
#   - SIGHUP mid-run (a closed terminal): exit 129, whole JSON and TAP;
#   - SIGKILL mid-run: every journal line is valid JSON, and --resume
#     finishes the run with the verdicts of an uninterrupted one;
#   - --resume refuses (exit 2, saying which) a journal of another driver,
#     spec set or options.
# SLOW_SO is the reference driver whose StartDevice sleeps
# WK_TEST_SLOW_START_MS (driver_build/slow_start.c): cases still to come
# when the signal arrives; OTHER_SO is any other module.
set -u
wddmkit=$1 slow=$2 other=$3 specs=$4 scratch=$5
spec=$specs/smoke.yaml
here=$(cd "$(dirname "$0")" && pwd)
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
expect_rc() { [ "$2" = "$3" ] || fail "$1: exit code $3, expected $2"; }
expect_in() { grep -q -- "$2" "$3" || { fail "$1: no '$2' in:"; sed 's/^/    /' "$3"; }; }
valid_json() { python3 -m json.tool "$2" >/dev/null 2>&1 || fail "$1: $2 is not valid JSON"; }
# Each line of FILE a JSON document.
valid_lines() {
    python3 -c 'import json,sys
for n, l in enumerate(open(sys.argv[1]), 1):
    json.loads(l)' "$2" 2>"$scratch/py" || { fail "$1: a line of $2 is not JSON:"; cat "$scratch/py"; }
}
# Lines in FILE (0 when absent).
lines() { [ -f "$1" ] && wc -l <"$1" || echo 0; }
# Waits (at most 5 s) until FILE has at least N lines.
wait_lines() {
    for _ in $(seq 500); do [ "$(lines "$1")" -ge "$2" ] && return 0; sleep 0.01; done
    fail "$1 never reached $2 lines"
}
# "id verdict" per case of a JSON report, sorted.
verdicts() { python3 -c 'import json,sys
for c in json.load(open(sys.argv[1]))["cases"]: print(c["id"], c["verdict"])' "$1" | sort; }
conform() { "$wddmkit" conform -j 1 --driver "$slow" "$@"; }

rm -rf "$scratch"
mkdir -p "$scratch"
cd "$scratch" || exit 1
export WK_TEST_SLOW_START_MS=60

# 1. A closed pipe: the run stops, its JSON is whole.
conform --json pipe.json "$spec" | head -3 >/dev/null
rc=${PIPESTATUS[0]}
expect_rc "closed pipe" 141 "$rc"
valid_json "closed pipe" pipe.json
expect_in "closed pipe" '"signal": "SIGPIPE"' pipe.json
valid_lines "closed pipe journal" pipe.json.journal

# 2. SIGTERM mid-run: valid JUnit saying how many never ran.
# exec: $! must be wddmkit's pid, not a subshell's (a function run with &
# is a subshell: the signal would miss the run).
(exec "$wddmkit" conform -j 1 --driver "$slow" --junit term.xml "$spec" >term.out 2>&1) &
pid=$!
wait_lines term.xml.journal 3
kill -TERM $pid
wait $pid
expect_rc "SIGTERM" 143 $?
if command -v xmllint >/dev/null; then
    xmllint --noout --schema "$here/data/junit.xsd" term.xml >xmllint.out 2>&1 ||
        { fail "SIGTERM: term.xml is not valid JUnit:"; cat xmllint.out; }
fi
finished=$(($(lines term.xml.journal) - 1))
expect_in "SIGTERM junit" "<property name=\"not-run\" value=\"$((12 - finished))\"/>" term.xml
expect_in "SIGTERM junit" 'never ran: the run was stopped by SIGTERM' term.xml

# 2b. SIGHUP (the terminal closed) mid-run: exit 129, the JSON and TAP
# reports are whole.
(exec "$wddmkit" conform -j 1 --driver "$slow" --json hup.json --tap hup.tap "$spec" >hup.out 2>&1) &
pid=$!
wait_lines hup.json.journal 3
kill -HUP $pid
wait $pid
expect_rc "SIGHUP" 129 $?
valid_json "SIGHUP" hup.json
expect_in "SIGHUP" '"signal": "SIGHUP"' hup.json
expect_in "SIGHUP tap" "Bail out! interrupted by SIGHUP" hup.tap

# 3. SIGKILL mid-run: the journal's lines are each JSON; --resume ends the
# run as an uninterrupted one would.
WK_TEST_SLOW_START_MS=0 conform --json whole.json "$spec" >whole.out 2>&1
whole_rc=$?
(exec "$wddmkit" conform -j 1 --driver "$slow" --json kill.json "$spec" >kill.out 2>&1) &
pid=$!
wait_lines kill.json.journal 4
kill -KILL $pid
wait $pid 2>/dev/null
[ -f kill.json ] && fail "SIGKILL: kill.json written by a killed run"
valid_lines "SIGKILL journal" kill.json.journal
before=$(lines kill.json.journal)
WK_TEST_SLOW_START_MS=0 conform --resume kill.json.journal --json kill.json "$spec" >resume.out 2>&1
expect_rc "resume" "$whole_rc" $?
expect_in "resume" "resume:  $((before - 1)) of 12 cases finished" resume.out
valid_json "resume" kill.json
verdicts whole.json >whole.verdicts
verdicts kill.json >resume.verdicts
cmp -s whole.verdicts resume.verdicts || { fail "resume: verdicts differ from an uninterrupted run:"; diff whole.verdicts resume.verdicts; }
[ "$(wc -l <resume.verdicts)" = 12 ] || fail "resume: $(wc -l <resume.verdicts) cases reported, expected 12"
[ "$(lines kill.json.journal)" = 13 ] || fail "resume: the journal holds $(lines kill.json.journal) lines, expected 13"

# 4. Refusals: another driver, spec set or option.
"$wddmkit" conform -j 1 --driver "$other" --resume kill.json.journal "$spec" >refuse.out 2>&1
expect_rc "other driver" 2 $?
expect_in "other driver" "driver digest differs" refuse.out
conform --resume kill.json.journal "$spec" "$specs/cancel.yaml" >refuse.out 2>&1
expect_rc "other spec set" 2 $?
expect_in "other spec set" "spec set differs" refuse.out
conform --timeout 3 --resume kill.json.journal "$spec" >refuse.out 2>&1
expect_rc "other options" 2 $?
expect_in "other options" "option --timeout differs (10 in the journal, 3 now)" refuse.out

# 5. --tap - streams to stdout: each case as it finishes, the plan last.
WK_TEST_SLOW_START_MS=0 conform --tap - "$spec" >stream.tap 2>stream.err
expect_in "TAP stream" "^TAP version 13" stream.tap
expect_in "TAP stream" "^ok 1 - smoke\." stream.tap
[ "$(tail -1 stream.tap)" = "1..12" ] || fail "TAP stream: the last line is '$(tail -1 stream.tap)', expected 1..12"

if [ "$fails" = 0 ]; then
    echo "conform_journal: all checks passed"
else
    echo "conform_journal: $fails check(s) failed"
    exit 1
fi
