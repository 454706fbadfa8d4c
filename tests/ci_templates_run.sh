#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/ci_templates_run.sh - the `ci.templates_run` test: the shell part of
# the driver-repository CI templates (examples/ci/gitlab/.gitlab-ci.yml and
# examples/ci/github/wddmkit.yml, job `conformance`), extracted by
# tests/ci_template_steps.py and run as the CI would, in a driver
# repository made here: the examples/drivers/independent sources with a
# plain CMakeLists.txt (find_package(wddmkit)). The kit is this build,
# installed into the prefix the templates cache (the templates' own kit
# build is skipped, as on a cache hit; WK_CI_TEMPLATES_FULL=1 runs it too,
# cloning REPO at its HEAD commit). Checked: the driver builds, `wddmkit
# conform` passes, junit.xml, conform.json and conform.sarif are written,
# and the GitHub job summary lists the cases.
#
# Usage: ci_templates_run.sh REPO BUILD SCRATCH. Exit 0 pass, 1 fail, 77
# skipped (no python3 with yaml).
set -euo pipefail

repo=$(cd "${1:?usage: ci_templates_run.sh REPO BUILD SCRATCH}" && pwd)
build=$(cd "${2:?usage: ci_templates_run.sh REPO BUILD SCRATCH}" && pwd)
scratch=${3:?usage: ci_templates_run.sh REPO BUILD SCRATCH}
failed=0
fail() { echo "FAIL: $*"; failed=1; }

python3 -c 'import yaml' 2>/dev/null || { echo "SKIP: python3 with yaml is needed (Debian: python3-yaml)"; exit 77; }
rm -rf "$scratch"
mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)

# ---- the kit, installed where the templates cache it --------------------------
prefix=$scratch/kit
cmake --install "$build" --prefix "$prefix" >"$scratch/install.log" 2>&1 || {
  tail -n 20 "$scratch/install.log"
  echo "FAIL: cmake --install $build failed"
  exit 1
}

# ---- a driver repository -------------------------------------------------------
make_driver_repo() { # DIR
  mkdir -p "$1"
  cp "$repo"/examples/drivers/independent/*.c "$repo"/examples/drivers/independent/*.h "$1/"
  cat >"$1/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.22)
project(mydriver C)
find_package(wddmkit CONFIG REQUIRED)
add_library(mydriver MODULE independent.c segments.c device.c allocation.c paging.c render.c submit.c)
target_link_libraries(mydriver PRIVATE wddmkit::gpu)
target_link_options(mydriver PRIVATE -Wl,--exclude-libs,ALL)
set_target_properties(mydriver PROPERTIES C_STANDARD 11 C_VISIBILITY_PRESET hidden PREFIX "")
CMAKE
}

# run_template KIND FILE DIR [NAME=VALUE...]: the job's shell part in DIR.
run_template() {
  local kind=$1 file=$2 dir=$3
  shift 3
  python3 "$repo/tests/ci_template_steps.py" "$kind" "$file" conformance "$@" >"$dir.script.sh"
  (cd "$dir" && env GITHUB_STEP_SUMMARY="$dir.summary.md" bash "$dir.script.sh") >"$dir.log" 2>&1
}

# check_reports DIR WHO: what the conform step must leave.
check_reports() {
  local dir=$1 who=$2
  [ -f "$dir/build/mydriver.so" ] || fail "$who: the driver was not built (build/mydriver.so)"
  if python3 - "$dir/junit.xml" <<'PY'; then
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
cases = root.findall(".//testcase")
bad = [c for c in cases if c.find("failure") is not None or c.find("error") is not None]
assert cases and not bad, (len(cases), len(bad))
print("junit.xml: %d cases, none failed" % len(cases))
PY
    :
  else
    fail "$who: junit.xml is missing, unreadable or reports failures"
  fi
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["cases"]' "$dir/conform.json" ||
    fail "$who: conform.json is missing or has no cases"
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["version"] == "2.1.0" and d["runs"]' \
    "$dir/conform.sarif" || fail "$who: conform.sarif is missing or not SARIF 2.1.0"
}

# A short run: one shard of ten, two jobs (WDDMKIT_CONFORM_ARGS, which a team may set too).
args=(WDDMKIT_PREFIX="$prefix" WDDMKIT_CONFORM_ARGS="--shard 1/10 -j 2")

gl=$scratch/gitlab-driver
make_driver_repo "$gl"
if run_template gitlab "$repo/examples/ci/gitlab/.gitlab-ci.yml" "$gl" "${args[@]}"; then
  echo "ok: the GitLab template's conformance script ran (log: $gl.log)"
  check_reports "$gl" gitlab
else
  tail -n 30 "$gl.log"
  fail "the GitLab template's conformance script failed (script: $gl.script.sh)"
fi

gh=$scratch/github-driver
make_driver_repo "$gh"
if run_template github "$repo/examples/ci/github/wddmkit.yml" "$gh" "${args[@]}"; then
  echo "ok: the GitHub template's conformance steps ran (log: $gh.log)"
  check_reports "$gh" github
  grep -q '^| [1-9][0-9]* | 0 | 0 | ' "$gh.summary.md" || fail "the GitHub job summary does not count the cases: $(cat "$gh.summary.md")"
else
  tail -n 30 "$gh.log"
  fail "the GitHub template's conformance steps failed (script: $gh.script.sh)"
fi

# Nothing filled in and nothing cached: the templates stop and say what to set.
none=$scratch/unset-driver
make_driver_repo "$none"
if run_template gitlab "$repo/examples/ci/gitlab/.gitlab-ci.yml" "$none" WDDMKIT_PREFIX="$scratch/empty-prefix"; then
  fail "the GitLab template ran with neither WDDMKIT_REPOSITORY nor a cached kit"
else
  grep -q 'set WDDMKIT_REPOSITORY and WDDMKIT_REF' "$none.log" || fail "the GitLab template did not say what to set"
fi

# The templates' own kit build, from a clone of REPO at HEAD (slow: a full build).
if [ "${WK_CI_TEMPLATES_FULL:-0}" = 1 ]; then
  full=$scratch/full-driver
  make_driver_repo "$full"
  if run_template gitlab "$repo/examples/ci/gitlab/.gitlab-ci.yml" "$full" WDDMKIT_REPOSITORY="$repo" \
    WDDMKIT_REF="$(git -C "$repo" rev-parse HEAD)" WDDMKIT_CONFORM_ARGS="--shard 1/10 -j 2"; then
    echo "ok: the GitLab template built the kit from $repo at HEAD and ran (log: $full.log)"
    check_reports "$full" gitlab-full
  else
    tail -n 30 "$full.log"
    fail "the GitLab template's full run failed (script: $full.script.sh)"
  fi
fi

[ "$failed" -eq 0 ] || exit 1
echo "ci_templates_run: all checks passed"
