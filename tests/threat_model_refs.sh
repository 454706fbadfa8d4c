#!/bin/sh
# SPDX-License-Identifier: MIT
# docs.threat_model_tests: docs/threat-model.md ties each line to a test;
# this keeps the page and the test set in step.
#
#   sh tests/threat_model_refs.sh ROOT CTEST BUILD
#
# The tests are those ctest lists in BUILD (`ctest -N`). Fails, listing
# them, when
#   - a test the page names in backquotes (cli.*, vidmm.*, conform.*,
#     runner.*, corpus.*) is not one of them;
#   - a hostile test (cli.hostile_*, vidmm.arg_guard_*, cli.*hanging_*) is
#     not named on the page.
set -u
usage="usage: threat_model_refs.sh ROOT CTEST BUILD"
root=${1:?$usage} ctest=${2:?$usage} build=${3:?$usage}
page=$root/docs/threat-model.md
name=${page#"$root"/}
[ -r "$page" ] || { echo "threat_model_refs: no $page" >&2; exit 2; }
list=${TMPDIR:-/tmp}/threat_model_refs.$$
trap 'rm -f "$list"' EXIT INT TERM
"$ctest" --test-dir "$build" -N | sed -n 's/^ *Test *#[0-9]*: *//p' >"$list"
[ -s "$list" ] || { echo "threat_model_refs: ctest lists no test in $build" >&2; exit 2; }

named=$(grep -o '`\(cli\|vidmm\|conform\|runner\|corpus\)\.[A-Za-z0-9_.]*`' "$page" | tr -d '`' | sort -u)
fails=0
for t in $named; do
    grep -qx -- "$t" "$list" || { echo "FAIL: $name names $t, which is no test"; fails=$((fails + 1)); }
done
for t in $(grep -E '^(cli\.hostile_|vidmm\.arg_guard_|cli\.[a-z_]*hanging_)' "$list"); do
    echo "$named" | grep -qx -- "$t" || { echo "FAIL: hostile test $t is not on $name"; fails=$((fails + 1)); }
done
[ "$fails" -eq 0 ] || { echo "threat_model_refs: $fails problem(s)"; exit 1; }
echo "threat_model_refs: $(echo "$named" | wc -l) tests named, all present"
