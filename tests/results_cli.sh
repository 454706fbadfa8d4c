#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/results_cli.sh - ctest results.cli: `wddmkit results` and
# `conform --caselist` on real `conform --json` output, as a team uses them:
#   1. baseline: a failing run's baseline loads as an expectations file and
#      makes the same run pass (exit 0, the failures expected-fail), a flake
#      included; --link is required;
#   2. diff: exit 1 on a planted regression (the reference driver's run,
#      then a buggy driver's) and on a new flake, 0 on the fix (the other way
#      round) and on a run compared with its baselined rerun, 2 on a bad
#      report (named, with the place);
#   3. merge: the reports of --shard 1/2 and 2/2 merge into the unsharded
#      run's case set and verdicts, valid against the schema; a case in two
#      shards with different results is refused;
#   4. --caselist: exactly the listed ids run; an unknown id is FILE:LINE,
#      exit 2; with --filter, the intersection;
#   5. a case's file is relative to the specs root in JSON and JUnit.
# Usage: results_cli.sh WDDMKIT REFDRIVER.so BUGGY.so SPECS_DIR SCHEMA WORK_DIR
set -u
wddmkit=$1 ref=$2 buggy=$3 specs=$4 schema=$5 work=$6
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
run() { "$wddmkit" "$@"; }
has_python_jsonschema=0
python3 -c 'import jsonschema' 2>/dev/null && has_python_jsonschema=1

# The render and smoke areas: the buggy driver fails render.index-* there.
sel=(--filter 'render.*' --filter 'smoke.*' --filter 'regressions.buggy-render-index*')

# 1. baseline round trip, a flake among the failures
WK_RUNNER_TEST_FLAKY_ID=smoke.objects run conform -j 2 --quiet --driver "$buggy" "${sel[@]}" --json bug.json \
    "$specs" >bug.out 2>&1
[ $? = 1 ] || fail "the buggy driver's run: exit $?, expected 1"
run results baseline bug.json >nolink.yaml 2>nolink.err && fail "baseline without --link: exit 0"
grep -q -- "--link is required" nolink.err || fail "baseline without --link: $(cat nolink.err)"
run results baseline bug.json --link 'https://bugs.example/42' >base.yaml 2>base.err || fail "baseline: exit $?: $(cat base.err)"
grep -q '^- id: "render.index-16-of-16"$' base.yaml || fail "baseline: no entry for render.index-16-of-16"
grep -A1 '^- id: "smoke.objects"$' base.yaml | grep -q 'expect: flake' || fail "baseline: the flake is not expect: flake"
grep -q 'smoke.aperture' base.yaml && fail "baseline: a passing case has an entry"
WK_RUNNER_TEST_FLAKY_ID=smoke.objects run conform -j 2 --quiet --driver "$buggy" "${sel[@]}" --expectations base.yaml \
    --json rerun.json "$specs" >rerun.out 2>&1
code=$?
[ "$code" = 0 ] || fail "the rerun under the baseline: exit $code, expected 0: $(tail -3 rerun.out)"
grep -q '"verdict": "expected-fail"' rerun.json || fail "the rerun under the baseline has no expected-fail"
run results baseline - --link proj#1 <rerun.json >base2.yaml || fail "baseline of stdin: exit $?"
cmp -s <(grep -v '^#' base.yaml | grep -v reason) <(grep -v '^#' base2.yaml | grep -v reason) ||
    fail "the baseline of the baselined rerun lists other cases: $(diff base.yaml base2.yaml | head -5)"

# 2. diff exit codes
run conform -j 2 --quiet --driver "$ref" "${sel[@]}" --json ref.json "$specs" >ref.out 2>&1 || fail "reference run: exit $?"
run results diff ref.json bug.json >regressed.txt 2>&1
[ $? = 1 ] || fail "diff ref -> buggy: exit $?, expected 1 (a regression)"
grep -Eq '^  render.index-16-of-16 +pass -> fail +MEM-GUARD-001' regressed.txt || fail "diff: the regression is not listed: $(cat regressed.txt)"
grep -q '1 new flake' regressed.txt || fail "diff: the new flake is not counted"
grep -q 'RESULT: REGRESSED' regressed.txt || fail "diff: no RESULT: REGRESSED line"
run results diff bug.json ref.json >fixed.txt 2>&1
[ $? = 0 ] || fail "diff buggy -> ref: exit $?, expected 0 (fixes only)"
grep -q '^fixes (failed in OLD, pass in NEW): 6' fixed.txt || fail "diff: the fixes are not listed: $(cat fixed.txt)"
run results diff bug.json rerun.json >same.txt 2>&1 || fail "diff of a run and its baselined rerun: exit $?: $(cat same.txt)"
grep -q '^0 regressions, 0 new errors, 0 fixes' same.txt || fail "diff of a run and its baselined rerun: $(tail -2 same.txt)"
WK_RUNNER_TEST_FLAKY_ID=smoke.aperture run conform -j 2 --quiet --driver "$ref" "${sel[@]}" --json flaky.json \
    "$specs" >flaky.out 2>&1
run results diff --json ref.json flaky.json >flaky-diff.json 2>&1
[ $? = 1 ] || fail "diff with a new flake: exit $?, expected 1"
python3 - flaky-diff.json <<'PY' || fail "diff --json: not the new flake"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["counts"]["new-flake"] == 1 and d["regressed"], d["counts"]
assert [c["id"] for c in d["changes"]] == ["smoke.aperture"], d["changes"]
PY
python3 -c 'import json,sys; d=json.load(open("ref.json")); d["cases"][3]["verdict"]="x"; json.dump(d,open("bad.json","w"))'
run results diff ref.json bad.json >bad.out 2>&1
[ $? = 2 ] || fail "diff of a bad report: exit $?, expected 2"
grep -q '^bad.json: cases\[3\].verdict: unknown verdict "x"$' bad.out || fail "diff of a bad report: $(cat bad.out)"

# 3. merge of two shards = the unsharded run
for i in 1 2; do
    WK_RUNNER_TEST_FLAKY_ID=smoke.objects run conform -j 2 --quiet --driver "$buggy" "${sel[@]}" --shard "$i/2" \
        --json "s$i.json" "$specs" >"s$i.out" 2>&1
done
run results merge s1.json s2.json >merged.json 2>merge.err || fail "merge: exit $?: $(cat merge.err)"
python3 - merged.json bug.json <<'PY' || fail "merge: not the unsharded run's cases"
import json, sys
m, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
ids = lambda d: [(c["id"], c["verdict"], c["rule"]) for c in d["cases"]]
assert ids(m) == ids(b), "cases differ"
assert m["totals"] == b["totals"], (m["totals"], b["totals"])
assert m["checks"] == b["checks"], "checks differ"
assert m["environment"]["shard"] is None
PY
if [ "$has_python_jsonschema" = 1 ]; then
    python3 -c 'import json,sys,jsonschema; jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))' \
        "$schema" merged.json || fail "merge: the merged report does not validate against the schema"
else
    echo "results_cli: python3-jsonschema missing: the merged report not validated"
fi
# a leg missing: the report is printed, the exit says so
run results merge s1.json >partial.json 2>partial.err
rc=$?
[ "$rc" = 1 ] || fail "merge with shard 2/2 missing: exit $rc, expected 1"
grep -q '1 of 2 shards missing: 2/2' partial.err || fail "merge with a shard missing: $(cat partial.err)"
[ -s partial.json ] || fail "merge with a shard missing printed no report"
run results merge s1.json ref.json >/dev/null 2>other.err && fail "merge of another driver's run: exit 0"
grep -q 'not shards of one run' other.err || fail "merge of another driver's run: $(cat other.err)"
python3 -c '
import json
d = json.load(open("s2.json")); c = dict(d["cases"][0]); c["verdict"] = "crash"; c["run_verdict"] = "crash"
s = json.load(open("s1.json")); s["cases"].append(c); s["cases"].sort(key=lambda x: x["id"]); json.dump(s, open("s1x.json", "w"))'
run results merge s1x.json s2.json >/dev/null 2>conflict.err && fail "merge of a case with two results: exit 0"
grep -q 'with different results' conflict.err || fail "merge of a case with two results: $(cat conflict.err)"

# 4. --caselist
printf '# two cases\nsmoke.objects\n\n  smoke.aperture   # and a comment\n' >list.txt
run conform --list --caselist list.txt "$specs" >listed.txt 2>&1 || fail "--caselist --list: exit $?"
[ "$(cat listed.txt)" = "$(printf 'smoke.aperture\nsmoke.objects')" ] || fail "--caselist --list: $(cat listed.txt)"
run conform -j 2 --quiet --caselist list.txt --json cl.json "$specs" >cl.out 2>&1 || fail "--caselist run: exit $?"
[ "$(python3 -c 'import json; print(len(json.load(open("cl.json"))["cases"]))')" = 2 ] || fail "--caselist run: not 2 cases"
run conform --list --caselist list.txt --filter 'smoke.obj*' "$specs" >both.txt 2>&1
[ "$(cat both.txt)" = smoke.objects ] || fail "--caselist with --filter: $(cat both.txt)"
printf 'smoke.objects\nsmoke.no-such-case\n' >unknown.txt
run conform --list --caselist unknown.txt "$specs" >unknown.out 2>&1
[ $? = 2 ] || fail "--caselist with an unknown id: exit $?, expected 2"
grep -q '^unknown.txt:2: no case .smoke.no-such-case. among the loaded specs$' unknown.out || fail "--caselist unknown id: $(cat unknown.out)"

# 5. file relative to the specs root
grep -q '"file": "smoke.yaml"' cl.json || fail "JSON file is not relative to the specs root: $(grep -m1 '"file"' cl.json)"
run conform -j 2 --quiet --caselist list.txt --junit cl.xml "$specs/" >/dev/null 2>&1
grep -q 'file="smoke.yaml"' cl.xml || fail "JUnit file is not relative to the specs root: $(grep -m1 -o 'file="[^"]*"' cl.xml)"
run conform -j 2 --quiet --filter smoke.objects --json one.json "$specs/smoke.yaml" >/dev/null 2>&1
grep -q '"file": "smoke.yaml"' one.json || fail "a spec file given: not named by its name: $(grep -m1 '"file"' one.json)"
run conform -j 2 --quiet --filter 'regressions.buggy-render-index' --json sub.json "$specs" >/dev/null 2>&1
grep -q '"file": "regressions/' sub.json || fail "a spec in a subfolder: $(grep -m1 '"file"' sub.json)"

[ "$fails" = 0 ] && echo "results_cli: all checks passed"
exit $((fails != 0))
