#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/sarif_schema.sh - ctest conform.sarif_schema: real `wddmkit conform
# --sarif` and `wddmkit triage --sarif` logs validate against the vendored
# SARIF 2.1.0 schema (tests/data/sarif/, draft-07) with python3-jsonschema,
# and say what docs/sarif.md says they do:
#   1. conform on a driver that aborts in DxgkDdiRender, with a crash
#      (WK_RUNNER_TEST_ABORT_ID), an expected failure, a stale expectation
#      and a spec error: one result per failing case at the level its
#      verdict maps to, under the rule it tripped (DRV-CRASH-001) or the
#      kit's id, at a spec line that exists, an external suppression for
#      the expected failure, the spec error as a notification at its line,
#      the driver as the analysis target with its SHA-256, ruleIndex
#      pointing at the rule, no result for a pass or a skip;
#   2. a second run gives the same partialFingerprints;
#   3. --sarif - is stdout, the log alone; a bad path is refused before
#      any case runs;
#   4. triage of a crash folder: DRV-CRASH-001 at DxgkDdiRender, a driver
#      thread's crash at its StartRoutine, the input as related location;
#   5. the schema refuses what SARIF does not allow (it is not a rubber
#      stamp).
# Skipped (exit 77) only when python3 has no jsonschema module.
# Usage: sarif_schema.sh WDDMKIT ABORT_DRIVER THREAD_DRIVER SPEC PROGRAM SCHEMA WORK_DIR
set -u
wddmkit=$1 abort=$2 thread=$3 spec=$4 program=$5 schema=$6 work=$7
if ! python3 -c 'import jsonschema' 2>/dev/null; then
    echo "sarif_schema: SKIPPED: python3 has no jsonschema module (Debian: apt-get install python3-jsonschema)"
    exit 77
fi
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

# validate FILE [expect-invalid]: 0 when the verdict is the expected one
validate() {
    python3 - "$schema" "$@" <<'PY'
import json, sys
from jsonschema import Draft7Validator
schema = json.load(open(sys.argv[1]))
Draft7Validator.check_schema(schema)
errors = sorted(Draft7Validator(schema).iter_errors(json.load(open(sys.argv[2]))), key=str)
if len(sys.argv) > 3:
    sys.exit(0 if errors else "%s: the schema accepted it" % sys.argv[2])
for e in errors[:5]:
    print("%s: %s at %s" % (sys.argv[2], e.message, "/".join(map(str, e.absolute_path))))
sys.exit(1 if errors else 0)
PY
}

# 1. conform: every kind of result.
cat >expect.yaml <<'YAML'
- id: smoke.objects
  expect: fail
  reason: stale entry
  link: proj#6
- id: smoke.render-all-commands
  expect: fail
  reason: known abort in Render
  link: proj#7
YAML
printf 'area: broken\ncases:\n  - id: broken.one\n    steps: [no_such_step]\n' >broken.yaml
conform() { # SARIF [ARGS...]
    local out=$1
    shift
    WK_RUNNER_TEST_ABORT_ID=smoke.aperture "$wddmkit" conform -j 2 --driver "$abort" --expectations expect.yaml \
        --sarif "$out" "$@" "$spec" broken.yaml
}
conform run1.sarif >run1.out 2>&1
code=$?
[ "$code" = 2 ] || fail "conform: exit $code, expected 2 (a spec error)"
validate run1.sarif || fail "conform: run1.sarif does not validate"
python3 - run1.sarif "$abort" "$spec" <<'PY' || fail "conform: the log does not say what docs/sarif.md says"
import hashlib, json, os, sys, urllib.parse
log, driver, spec = sys.argv[1:4]
d = json.load(open(log))
run = d["runs"][0]
tool = run["tool"]["driver"]
assert d["version"] == "2.1.0" and tool["name"] == "wddmkit" and tool["semanticVersion"], tool.get("version")
ids = [r["id"] for r in tool["rules"]]
assert "DRV-CRASH-001" in ids and "wddmkit/crash" in ids and len(ids) == len(set(ids)), ids
for r in tool["rules"]:
    assert r["shortDescription"]["text"], r
    if "/" not in r["id"]:
        assert "Source: " in r["help"]["text"], r  # the sentence that backs a contract rule
bases = run["originalUriBaseIds"]
def path_of(loc):
    base = bases[loc["uriBaseId"]]["uri"] if "uriBaseId" in loc else ""
    return urllib.parse.unquote(urllib.parse.urlparse(base + loc["uri"]).path)
levels = {"fail": "error", "crash": "error", "timeout": "error", "error": "warning",
          "unexpected-pass": "warning", "expected-fail": "note"}
seen = {}
for res in run["results"]:
    v = res["properties"]["verdict"]
    seen[v] = res
    assert res["level"] == levels[v], (v, res["level"])
    assert tool["rules"][res["ruleIndex"]]["id"] == res["ruleId"], res["ruleId"]
    phys = res["locations"][0]["physicalLocation"]
    f = path_of(phys["artifactLocation"])
    assert os.path.samefile(f, spec), f
    lines = open(f).read().split("\n")
    assert 1 <= phys["region"]["startLine"] <= len(lines), phys
    assert res["partialFingerprints"]["wddmkitCaseRule/v1"] == res["properties"]["case"] + "|" + res["ruleId"]
assert set(seen) == {"fail", "crash", "unexpected-pass", "expected-fail"}, set(seen)
assert seen["crash"]["ruleId"] == "wddmkit/crash" and seen["crash"]["properties"]["case"] == "smoke.aperture"
assert seen["fail"]["ruleId"] == "DRV-CRASH-001", seen["fail"]["ruleId"]
assert seen["unexpected-pass"]["ruleId"] == "wddmkit/unexpected-pass"
sup = seen["expected-fail"]["suppressions"]
assert sup[0]["kind"] == "external" and "known abort in Render" in sup[0]["justification"], sup
assert "suppressions" not in seen["fail"]
# the case's line: the crash (no step) points at its `- id:` line
line = seen["crash"]["locations"][0]["physicalLocation"]["region"]["startLine"]
assert "smoke.aperture" in open(spec).read().split("\n")[line - 1], line
notes = run["invocations"][0]["toolConfigurationNotifications"]
assert notes and all(n["level"] == "error" for n in notes), notes
loc = notes[0]["locations"][0]["physicalLocation"]
assert os.path.samefile(path_of(loc["artifactLocation"]), "broken.yaml") and loc["region"]["startLine"] >= 3, loc
art = run["artifacts"][0]
assert art["roles"] == ["analysisTarget"] and os.path.samefile(path_of(art["location"]), driver)
assert art["hashes"]["sha-256"] == hashlib.sha256(open(driver, "rb").read()).hexdigest()
PY

# 2. The fingerprints are the same from run to run.
conform run2.sarif >run2.out 2>&1
python3 - run1.sarif run2.sarif <<'PY' || fail "conform: the fingerprints differ between two runs"
import json, sys
fp = [sorted(r["partialFingerprints"]["wddmkitCaseRule/v1"] for r in json.load(open(f))["runs"][0]["results"])
      for f in sys.argv[1:]]
assert fp[0] == fp[1] and fp[0], fp
PY

# 3. stdout, and a path refused before the run.
conform - >stdout.sarif 2>stdout.err
validate stdout.sarif || fail "--sarif -: stdout is not the log alone"
grep -q "cases in" stdout.err || fail "--sarif -: the console did not go to stderr"
conform "$work/no/such/folder/r.sarif" >bad.out 2>&1
code=$?
[ "$code" = 2 ] && grep -q -- "--sarif $work/no/such/folder/r.sarif" bad.out && ! grep -q "cases in" bad.out ||
    fail "a bad --sarif path: exit $code, expected 2 before any case: $(head -3 bad.out)"

# 4. triage.
mkdir -p crashes && cp "$program" crashes/
prog=$(basename "$program")
for driver in "$abort" "$thread"; do
    name=$(basename "$driver" .so)
    "$wddmkit" triage crashes --harness fuzz_prog --driver "$driver" --timeout 5 --no-calibrate \
        --sarif "triage-$name.sarif" >"triage-$name.out" 2>&1
    code=$?
    [ "$code" = 0 ] || fail "triage $name: exit $code"
    validate "triage-$name.sarif" || fail "triage $name: the log does not validate"
    python3 - "triage-$name.sarif" "$name" "$prog" <<'PY' || fail "triage $name: not the result docs/sarif.md says"
import json, sys
log, name, prog = sys.argv[1:4]
run = json.load(open(log))["runs"][0]
[res] = run["results"]
assert res["ruleId"] == "DRV-CRASH-001" and res["level"] == "error", res["ruleId"]
assert run["tool"]["driver"]["rules"][res["ruleIndex"]]["id"] == res["ruleId"]
top = res["locations"][0]["logicalLocations"][0]["name"]
assert top == ("crashing_worker" if "thread" in name else "DxgkDdiRender"), top
assert res["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith(prog)
assert res["partialFingerprints"]["wddmkitSignature/v1"] == "DRV-CRASH-001|" + res["properties"]["signature"]
assert run["invocations"][0]["executionSuccessful"] is True
PY
done

# 5. The schema refuses what SARIF does not allow.
python3 - run1.sarif <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
a = copy.deepcopy(d); a["runs"][0]["results"][0]["level"] = "fatal"; json.dump(a, open("bad-level.json", "w"))
b = copy.deepcopy(d); del b["runs"][0]["results"][0]["message"]; json.dump(b, open("no-message.json", "w"))
c = copy.deepcopy(d); c["version"] = "2.0.0"; json.dump(c, open("bad-version.json", "w"))
PY
for bad in bad-level no-message bad-version; do
    validate "$bad.json" invalid || fail "$bad.json: the schema accepted it"
done

[ "$fails" = 0 ] && echo "sarif_schema: all checks passed"
exit $((fails != 0))
