#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/conform_console.sh - ctest cli.conform_console: what `wddmkit
# conform` prints after the run (conformance/runner/report_console.c):
#   1. skipped cases grouped by reason, with counts;
#   2. a failed check that broke no rule says so on its `rule:` line and
#      shows `covers:` (the case's rules), never a `rule:` line that would
#      blame them;
#   3. --profile contract without --driver: the checks by kind with the
#      profile, the choice checks skipped with the reason, and the rerun
#      command naming the profile;
#   4. six unexpected results: a table of them by rule;
#   5. a spec with the deprecated `requires: [model]` still loads and runs,
#      and both conform and `spec lint` print the warning with file:line:col.
# Usage: conform_console.sh WDDMKIT WORK_DIR
set -u
wddmkit=$1 work=$2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf "$work" && mkdir -p "$work" || exit 1
cat >"$work/t.yaml" <<'YAML'
area: t
cases:
  - id: t.pinned-a
    describe: Pins the reference driver's context allocations.
    requires: [reference-driver]
    steps:
      - create_device
  - id: t.pinned-b
    describe: Pins them too.
    requires: [reference-driver]
    steps:
      - create_device
  - id: t.wrong-data
    describe: A check that fails without a rule.
    covers: [PAGING-FILL-001]
    steps:
      - create_device
      - create_allocation: {as: a, size: 4KiB}
      - fill: {allocation: a, pattern: 0x11111111}
      - expect_pattern: {allocation: a, pattern: 0x22222222}
  - id: t.choice
    describe: A count of the reference driver's, skipped in the contract profile.
    steps:
      - create_device
      - expect_stats: {stat: ddi_calls, ddi: CreateDevice, min: 1}
YAML
block=$(sed -n '/  - id: t.wrong-data/,/  - id: t.choice/p' "$work/t.yaml" | sed '$d')
for i in 2 3 4 5 6; do # six failures: enough for the table by rule
    printf '%s\n' "$block" | sed "s/t.wrong-data/t.wrong-data-$i/" >>"$work/t.yaml"
done
out=$work/out.txt
"$wddmkit" conform -j 1 --profile contract "$work/t.yaml" >"$out" 2>&1
code=$?
[ "$code" = 1 ] || fail "exit $code, expected 1"
grep -q "^skipped, by reason:$" "$out" || fail "no skip reasons"
grep -q "^      2  the case pins choices .*requires: reference-driver" "$out" || fail "reasons not grouped"
grep -A3 "^  fail t.wrong-data" "$out" | grep -q "^    covers:   PAGING-FILL-001$" || fail "no covers: row"
grep -A1 "^  fail t.wrong-data" "$out" | grep -q "^    rule:     none broken: a check of the case failed$" ||
    fail "no rule: row saying that no rule was broken"
grep -A3 "^  fail t.wrong-data" "$out" | grep -q "^    rule: .*PAGING-FILL-001" && fail "a rule: row blames the covered rule"
grep -A1 "^unexpected results by rule:$" "$out" | grep -q "^      6  (no rule: a failed check or step)$" ||
    fail "no table of unexpected results by rule"
grep -q '^checks by kind, profile contract (docs/verdicts.md, "Kinds of check"):$' "$out" || fail "no checks by kind"
# 6 x (create_device, create_allocation, fill) + t.choice's create_device: 19 contract checks;
# 6 expect_pattern and the 7 run cases' segment layouts: semantic; t.choice's stat: a choice,
# skipped; no encoder step: no line
grep -q "^  contract       19 run$" "$out" || fail "contract checks"
grep -q "^  semantic       13 run$" "$out" || fail "semantic checks"
grep -q "^  choice          0 run, 1 skipped: the reference driver's own choice (--profile reference runs it)$" "$out" ||
    fail "choice checks skipped, with the reason"
grep -q "^  encoder" "$out" && fail "a line for a kind without checks"
grep -q "command:  wddmkit conform --filter 't.wrong-data' --profile contract " "$out" || fail "rerun command"
cat >"$work/model.yaml" <<'YAML'
area: m
cases:
  - id: m.old
    describe: Uses the deprecated requirement.
    requires: [model]
    steps:
      - create_device
YAML
warning="^$work/model.yaml:5:16: warning: requires: model is deprecated: the kind of each check says what needs the GPU model (docs/verdicts.md)$"
"$wddmkit" conform -j 1 "$work/model.yaml" >"$out" 2>&1
code=$?
[ "$code" = 0 ] || fail "conform of a deprecated spec: exit $code, expected 0"
grep -q "$warning" "$out" || fail "conform: no deprecation warning"
grep -q "1 pass" "$out" || fail "conform: the deprecated spec did not run"
"$wddmkit" spec lint "$work/model.yaml" >"$out" 2>&1
code=$?
[ "$code" = 0 ] || fail "spec lint of a deprecated spec: exit $code, expected 0"
grep -q "$warning" "$out" || fail "spec lint: no deprecation warning"
grep -q "^wddmkit spec lint: 1 case valid, 0 errors, 1 warning$" "$out" || fail "spec lint: no warning count"
[ "$fails" = 0 ] && echo "conform_console: all checks passed"
exit $((fails != 0))
