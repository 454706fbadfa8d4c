#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/conform_spec_errors.sh - ctest cli.conform_spec_errors: a spec with
# an error costs only the cases it concerns (cli/cli_conform.c,
# docs/conformance.md "Spec errors").
#
# Checks, on a folder with the repository's smoke.yaml and one broken file:
#   1. the smoke cases run and pass; the error is printed before the run and
#      again in the summary, the RESULT line says SPEC ERRORS; exit 2;
#   2. the JSON, JUnit and TAP reports hold the cases and the error, with
#      its file:line:column;
#   3. --list lists the cases that loaded and exits 2;
#   4. an expectations entry for the dropped case is not called unused;
#   5. a folder of broken files only: "no case loaded", exit 2, no report.
#
# Usage: conform_spec_errors.sh WDDMKIT SPECS_DIR WORK_DIR
set -u
wddmkit=$1 specs=$2 work=$3
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf "$work" && mkdir -p "$work/mixed" "$work/broken" || exit 1
cp "$specs/smoke.yaml" "$work/mixed/" || exit 1
cat >"$work/mixed/broken.yaml" <<'YAML'
area: broken
cases:
  - id: broken.one
    describe: A case with an unknown step.
    steps:
      - create_device
      - frob: 1
YAML
cp "$work/mixed/broken.yaml" "$work/broken/"
cases=$(grep -c '^  - id: ' "$specs/smoke.yaml")
out=$work/out.txt err=$work/err.txt

# 1. the run
"$wddmkit" conform -j 2 --json "$work/r.json" --junit "$work/r.xml" --tap "$work/r.tap" "$work/mixed" \
    >"$out" 2>"$err"
code=$?
[ "$code" = 2 ] || fail "exit $code, expected 2"
grep -q "broken.yaml:7:9: case 'broken.one': unknown step 'frob'" "$err" || fail "error not printed before the run"
grep -q "cases they concern are dropped, the others run" "$err" || fail "no word that the others run"
grep -q "^$cases of $cases cases in .*: $cases pass; 1 spec error$" "$out" || fail "totals line: $(grep ' cases in ' "$out")"
grep -q "^  .*broken.yaml:7:9: case 'broken.one'" "$out" || fail "error not repeated in the summary"
grep -q "^RESULT: SPEC ERRORS" "$out" || fail "RESULT line: $(grep RESULT "$out")"

# 2. the reports
grep -q '"spec_errors": \[' "$work/r.json" || fail "json: no spec_errors"
grep -q "broken.yaml:7:9: case 'broken.one'" "$work/r.json" || fail "json: the error's text"
grep -q '"spec_errors": 1' "$work/r.json" || fail "json: totals.spec_errors"
[ "$(grep -c '"verdict": "pass"' "$work/r.json")" = "$cases" ] || fail "json: $cases passing cases"
grep -q '<testsuite name="spec-errors" tests="1"' "$work/r.xml" || fail "junit: no spec-errors suite"
grep -q '<testcase classname="spec-errors" name="[^"]*broken.yaml:7:9"' "$work/r.xml" || fail "junit: testcase name"
grep -q '<error type="spec-error"' "$work/r.xml" || fail "junit: no <error>"
grep -q "^1\.\.$((cases + 1))$" "$work/r.tap" || fail "tap: plan"
grep -q "^not ok $((cases + 1)) - spec error .*broken.yaml:7:9$" "$work/r.tap" || fail "tap: the error's line"

# 3. --list
"$wddmkit" conform --list "$work/mixed" >"$out" 2>"$err"
code=$?
[ "$code" = 2 ] || fail "--list: exit $code, expected 2"
[ "$(grep -c '^smoke\.' "$out")" = "$cases" ] || fail "--list: the loaded cases"

# 4. expectations naming the dropped case
cat >"$work/expect.yaml" <<'YAML'
- id: broken.one
  expect: fail
  reason: the step does not exist yet
  link: proj#1
YAML
"$wddmkit" conform --quiet --expectations "$work/expect.yaml" "$work/mixed" >"$out" 2>"$err"
code=$?
[ "$code" = 2 ] || fail "expectations: exit $code, expected 2"
grep -v "not checked for unused" "$err" | grep -qi "unused\|matches no case" &&
    fail "expectations: the dropped case's entry was called unused: $(cat "$err")"
grep -q "^$cases of $cases cases" "$out" || fail "expectations: the cases did not run"

# 5. nothing loads
rm -f "$work/none.json"
"$wddmkit" conform --json "$work/none.json" "$work/broken" >"$out" 2>"$err"
code=$?
[ "$code" = 2 ] || fail "broken only: exit $code, expected 2"
grep -q "no case loaded" "$err" || fail "broken only: message: $(tail -1 "$err")"
[ ! -e "$work/none.json" ] || fail "broken only: a report was written"

[ "$fails" = 0 ] && echo "conform_spec_errors: all checks passed"
exit $((fails != 0))
