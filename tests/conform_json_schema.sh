#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/conform_json_schema.sh - ctest conform.json_schema: real `wddmkit
# conform --json` output validates against docs/json-report.schema.json
# with a maintained validator (python3-jsonschema, Draft 2020-12), and the
# schema is not a rubber stamp: a report with a verdict it does not know, a
# key missing or a key it does not list is refused. The runs cover the
# shapes a report takes: the built-in driver (no driver digest), a driver
# module with a crash, a flake, an expected skip, a spec error and a shard,
# and a run interrupted by --total-timeout; docs/json-report.md's example
# validates too.
# Skipped (exit 77) only when python3 has no jsonschema module.
# Usage: conform_json_schema.sh WDDMKIT DRIVER.so SPEC SCHEMA WORK_DIR
set -u
wddmkit=$1 driver=$2 spec=$3 schema=$4 work=$5
if ! python3 -c 'import jsonschema' 2>/dev/null; then
    echo "conform_json_schema: SKIPPED: python3 has no jsonschema module (Debian: apt-get install python3-jsonschema)"
    exit 77
fi
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

# validate SCHEMA FILE [expect-invalid]: 0 when the verdict is the expected one
validate() {
    python3 - "$@" <<'PY'
import json, sys
from jsonschema import Draft202012Validator
schema = json.load(open(sys.argv[1]))
Draft202012Validator.check_schema(schema)
errors = sorted(Draft202012Validator(schema).iter_errors(json.load(open(sys.argv[2]))), key=str)
if len(sys.argv) > 3:
    sys.exit(0 if errors else "%s: the schema accepted it" % sys.argv[2])
for e in errors[:5]:
    print("%s: %s at %s" % (sys.argv[2], e.message, "/".join(map(str, e.absolute_path))))
sys.exit(1 if errors else 0)
PY
}

# 1. The built-in reference driver, the whole smoke spec.
"$wddmkit" conform -j 2 --json builtin.json "$spec" >builtin.out 2>&1 || fail "built-in run: exit $?"
validate "$schema" builtin.json || fail "built-in run: builtin.json does not validate"

# 2. A driver module: a crash, a flake, an expected skip, a spec error, a shard.
cat >expect.yaml <<'YAML'
- id: smoke.objects
  expect: skip
  reason: not today
  link: proj#1
YAML
printf 'area: broken\ncases:\n  - id: broken.one\n    steps: [no_such_step]\n' >broken.yaml
WK_RUNNER_TEST_ABORT_ID=smoke.aperture WK_RUNNER_TEST_FLAKY_ID=smoke.hold-cancel \
    "$wddmkit" conform -j 2 --driver "$driver" --expectations expect.yaml --shard 1/1 --json mixed.json \
    "$spec" broken.yaml >mixed.out 2>&1
code=$?
[ "$code" = 2 ] || fail "mixed run: exit $code, expected 2 (a spec error)"
validate "$schema" mixed.json || fail "mixed run: mixed.json does not validate"
python3 - mixed.json <<'PY' || fail "mixed run: not the shapes it was meant to cover"
import json, sys
d = json.load(open(sys.argv[1]))
seen = {c["verdict"] for c in d["cases"]}
need = {"crash", "flake", "skip", "pass"}
assert need <= seen, seen
assert d["spec_errors"] and d["environment"]["shard"] == "1/1", d["environment"]
assert d["environment"]["driver_sha256"] and any(c["expectation"] for c in d["cases"])
PY

# 3. Cut short by --total-timeout.
"$wddmkit" conform -j 1 --total-timeout 0.001 --driver "$driver" --json short.json "$spec" >short.out 2>&1
validate "$schema" short.json || fail "short run: short.json does not validate"
grep -q '"status": "total-timeout"' short.json || fail "short run: not cut short: $(grep status short.json)"

# 4. The example in docs/json-report.md is a report the schema accepts.
sed -n '/^```json$/,/^```$/p' "$(dirname "$schema")/json-report.md" | sed '1d;$d' >example.json
[ -s example.json ] || fail "docs/json-report.md: no json example found"
validate "$schema" example.json || fail "docs/json-report.md: its example does not validate"

# 5. The schema refuses what the kit does not write.
python3 - builtin.json <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
a = copy.deepcopy(d); a["cases"][0]["verdict"] = "bogus"; json.dump(a, open("bad-verdict.json", "w"))
b = copy.deepcopy(d); del b["environment"]["driver_sha256"]; json.dump(b, open("missing-key.json", "w"))
c = copy.deepcopy(d); c["surprise"] = 1; json.dump(c, open("extra-key.json", "w"))
e = copy.deepcopy(d); e["environment"]["driver_sha256"] = "abc"; json.dump(e, open("short-digest.json", "w"))
PY
for bad in bad-verdict missing-key extra-key short-digest; do
    validate "$schema" "$bad.json" invalid || fail "$bad.json: the schema accepted it"
done

[ "$fails" = 0 ] && echo "conform_json_schema: all checks passed"
exit $((fails != 0))
