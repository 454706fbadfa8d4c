#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/bench_quick.sh - ctest bench.quick: `make bench QUICK=1` runs
# (bench/run_all.py --quick), every benchmark of the build gives its
# figures, and the results file validates against
# docs/bench-results.schema.json with python3-jsonschema; a results file
# with a figure lacking its goal key is refused, so the schema is no rubber
# stamp. Timings are not judged: a test never times anything.
# Usage: bench_quick.sh REPO BUILD WORK_DIR
set -u
repo=$1 build=$2 work=$3
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf "$work" && mkdir -p "$work" || exit 1
if ! python3 -c 'import jsonschema' 2>/dev/null; then
    echo "bench_quick: SKIPPED: python3 has no jsonschema module (Debian: apt-get install python3-jsonschema)"
    exit 77
fi
python3 "$repo/bench/run_all.py" --build "$build" --quick --out "$work/results.json" >"$work/out" 2>&1
rc=$?
[ "$rc" = 0 ] || { fail "run_all.py --quick: exit $rc"; tail -20 "$work/out"; }
grep -q "^figure " "$work/out" || fail "no table printed"
# the table's figures of each benchmark that is built
for b in gpu_copy gpu_blit gpu_reset conform_speed fuzz_speed; do
    grep -q "^$b\." "$work/out" || fail "no figure of $b in the table"
done
validate() { # FILE: 0 when valid
    python3 - "$repo/docs/bench-results.schema.json" "$1" <<'PY'
import json, sys
from jsonschema import Draft202012Validator
schema = json.load(open(sys.argv[1]))
Draft202012Validator.check_schema(schema)
errors = sorted(Draft202012Validator(schema).iter_errors(json.load(open(sys.argv[2]))), key=str)
for e in errors[:5]:
    print(f"  {list(e.absolute_path)}: {e.message}")
sys.exit(1 if errors else 0)
PY
}
validate "$work/results.json" || fail "results.json does not validate"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["quick"] is True and d["figures"], "quick or figures"' \
    "$work/results.json" || fail "results.json: not a quick run with figures"
python3 - "$work/results.json" "$work/broken.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
del d["figures"][0]["goal"]
json.dump(d, open(sys.argv[2], "w"))
PY
validate "$work/broken.json" >/dev/null && fail "a figure without its goal key validated"
# the committed baseline is a valid full run
validate "$repo/docs/bench-baseline.json" || fail "docs/bench-baseline.json does not validate"
if [ "$fails" -gt 0 ]; then
    echo "bench_quick: $fails check(s) failed"
    exit 1
fi
echo "bench_quick: all checks passed"
