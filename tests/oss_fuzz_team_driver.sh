#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/oss_fuzz_team_driver.sh - the `fuzzbuild` test of a team's driver in
# oss-fuzz/build.sh (docs/fuzzing.md, "OSS-Fuzz and ClusterFuzzLite with your
# driver"): the harnesses OSS-Fuzz runs hold nothing but themselves, so the
# driver is linked in, and this proves it is that driver they run.
#
#   1. WK_DRIVER_SOURCES = examples/drivers/independent/*.c (a complete driver
#      not derived from the reference one): only the four harnesses that fuzz
#      a driver are built, each runs a seed of its corpus, and fuzz_paging
#      passes the input that catches buggy_paging_restart (a correct driver);
#   2. the same build folder, WK_DRIVER_SOURCES = buggy_paging_restart.c and
#      WK_HARNESSES = fuzz_paging: the same input is now a finding, signed
#      PAGING-PROGRESS-001 against "linked (WK_FUZZ_DRIVER_LIB)". The
#      reference driver passes that input (bugs.paging_restart_paging.
#      repro_reference), so the harness runs the driver it was given;
#   3. a source that does not exist and a harness that is not listed are
#      refused before anything is built.
#
# Usage: oss_fuzz_team_driver.sh REPO SCRATCH. Exit 0 pass, 1 fail, 77
# skipped (as oss_fuzz_build.sh).
set -euo pipefail

repo=$(cd "${1:?usage: oss_fuzz_team_driver.sh REPO SCRATCH}" && pwd)
scratch=${2:?usage: oss_fuzz_team_driver.sh REPO SCRATCH}
failed=0
fail() { echo "FAIL: $*"; failed=1; }

rm -rf "$scratch"
mkdir -p "$scratch/work"
# shellcheck source=tests/oss_fuzz_tools.sh
. "$repo/tests/oss_fuzz_tools.sh"
wk_ossfuzz_require_tools "$scratch/probe"

# build.sh the way OSS-Fuzz's libFuzzer build runs it, from the repository
# (relative WK_DRIVER_SOURCES are taken from the working directory).
# Usage: build OUT [VAR=VALUE...]
build() {
  local out=$1
  shift
  (cd "$repo" && env -u WK_DRIVER_SOURCES -u WK_DRIVER_CFLAGS -u WK_DRIVER_LIB -u WK_DRIVER_CMAKE_ARGS -u WK_HARNESSES \
    CC=clang CXX=clang++ CFLAGS="-fsanitize=fuzzer-no-link" CXXFLAGS="-fsanitize=fuzzer-no-link" \
    LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT="$out" WORK="$scratch/work" WK_REPO="$repo" "$@" \
    bash "$repo/oss-fuzz/build.sh")
}
input=$repo/corpus/fuzz_paging/regressions/buggy-paging-restart-paging.bin
[ -f "$input" ] || { echo "FAIL: $input is missing"; exit 1; }

# ---- 1. the independent driver ----------------------------------------------
out=$scratch/out-independent
echo "building with WK_DRIVER_SOURCES=examples/drivers/independent/*.c (OUT=$out)"
start=$(date +%s)
build "$out" WK_DRIVER_SOURCES='examples/drivers/independent/*.c' >"$scratch/build-independent.log" 2>&1 || {
  tail -n 40 "$scratch/build-independent.log"
  echo "FAIL: oss-fuzz/build.sh with the independent driver failed (log: $scratch/build-independent.log)"
  exit 1
}
echo "build.sh took $(($(date +%s) - start)) s"
grep -q 'compiled the driver under test: 7 sources' "$scratch/build-independent.log" ||
  fail "build.sh did not compile the 7 sources of examples/drivers/independent"
for h in fuzz_render fuzz_patch fuzz_paging fuzz_prog; do
  [ -x "$out/$h" ] || { fail "$out/$h is missing"; continue; }
  nm "$out/$h" >"$scratch/$h.nm" 2>/dev/null || true
  grep -q ' T wk_fuzz_linked_DriverEntry$' "$scratch/$h.nm" || fail "$h does not define wk_fuzz_linked_DriverEntry"
  seed=""
  for f in "$repo/corpus/$h/seeds"/*; do
    case "$(basename "$f")" in README* | *.md | .*) continue ;; esac
    [ -f "$f" ] && seed=$f && break
  done
  [ -n "$seed" ] || { fail "corpus/$h/seeds has no seed"; continue; }
  if "$out/$h" -runs=1 "$seed" >"$scratch/$h.independent.log" 2>&1; then
    echo "ok: $h with the independent driver ran $(basename "$seed")"
  else
    tail -n 20 "$scratch/$h.independent.log"
    fail "$h with the independent driver failed on $(basename "$seed")"
  fi
done
for h in fuzz_spec fuzz_cli fuzz_elf fuzz_gpu_decode fuzz_hostile; do
  [ ! -e "$out/$h" ] || fail "$h was built: with a driver only the four driver harnesses are (WK_HARNESSES)"
done
if "$out/fuzz_paging" -runs=1 "$input" >"$scratch/paging.independent.log" 2>&1; then
  echo "ok: fuzz_paging with the independent driver passes $(basename "$input")"
else
  tail -n 20 "$scratch/paging.independent.log"
  fail "fuzz_paging with the independent driver (a correct one) failed on $(basename "$input")"
fi

# ---- 2. a driver with a planted bug, same build folder ----------------------
out=$scratch/out-buggy
echo "building with WK_DRIVER_SOURCES=examples/drivers/buggy_paging_restart.c (OUT=$out)"
build "$out" WK_DRIVER_SOURCES=examples/drivers/buggy_paging_restart.c \
  WK_DRIVER_CFLAGS="-I$repo/examples/drivers -I$repo/reference-impl" WK_HARNESSES=fuzz_paging \
  >"$scratch/build-buggy.log" 2>&1 || {
  tail -n 40 "$scratch/build-buggy.log"
  echo "FAIL: oss-fuzz/build.sh with buggy_paging_restart.c failed (log: $scratch/build-buggy.log)"
  exit 1
}
if "$out/fuzz_paging" -runs=1 "$input" >"$scratch/paging.buggy.log" 2>&1; then
  fail "fuzz_paging with buggy_paging_restart.c linked in passed $(basename "$input"): it does not run that driver"
else
  grep -q 'driver under test: linked (WK_FUZZ_DRIVER_LIB)' "$scratch/paging.buggy.log" ||
    fail "the finding does not name the linked driver (log: $scratch/paging.buggy.log)"
  if grep -q 'signature: PAGING-PROGRESS-001 in DxgkDdiBuildPagingBuffer' "$scratch/paging.buggy.log"; then
    echo "ok: fuzz_paging with buggy_paging_restart.c linked in finds PAGING-PROGRESS-001 on $(basename "$input")"
  else
    tail -n 20 "$scratch/paging.buggy.log"
    fail "fuzz_paging with buggy_paging_restart.c linked in did not sign PAGING-PROGRESS-001"
  fi
fi

# ---- 3. refusals -------------------------------------------------------------
if build "$scratch/out-none" WK_DRIVER_SOURCES=no/such/driver.c >"$scratch/refuse-source.log" 2>&1; then
  fail "build.sh accepted a WK_DRIVER_SOURCES file that does not exist"
else
  grep -q 'WK_DRIVER_SOURCES: no such file' "$scratch/refuse-source.log" || fail "no reason given for a missing source"
fi
if build "$scratch/out-none" WK_HARNESSES=fuzz_nothing >"$scratch/refuse-harness.log" 2>&1; then
  fail "build.sh accepted WK_HARNESSES=fuzz_nothing"
else
  grep -q 'WK_HARNESSES names fuzz_nothing' "$scratch/refuse-harness.log" || fail "no reason given for an unknown harness"
fi

[ "$failed" -eq 0 ] || exit 1
echo "oss_fuzz_team_driver: all checks passed"
