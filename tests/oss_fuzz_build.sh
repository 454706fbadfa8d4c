#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/oss_fuzz_build.sh - the `fuzzbuild` ctest: runs oss-fuzz/build.sh the
# way OSS-Fuzz's libFuzzer build would (CC=clang, CFLAGS with
# -fsanitize=fuzzer-no-link, LIB_FUZZING_ENGINE=-fsanitize=fuzzer, a scratch
# $OUT), then checks that every harness whose source is in the tree landed in
# $OUT with its seed archive, dictionary and options file, and that each
# binary runs one input.
#
# Usage: oss_fuzz_build.sh REPO SCRATCH. Exit 0 pass, 1 fail, 77 skipped
# (clang with libFuzzer, cmake/ninja, or both zip and python3 missing).
set -euo pipefail

repo=$(cd "${1:?usage: oss_fuzz_build.sh REPO SCRATCH}" && pwd)
scratch=${2:?usage: oss_fuzz_build.sh REPO SCRATCH}
# The harnesses: the one list (fuzz/harnesses.txt: NAME MAX_LEN DESCRIPTION).
harnesses=$(awk '$1 !~ /^#/ && NF >= 2 { print $1 }' "$repo/fuzz/harnesses.txt")
[ -n "$harnesses" ] || { echo "FAIL: $repo/fuzz/harnesses.txt names no harness"; exit 1; }

fail() { echo "FAIL: $*"; failed=1; }

rm -rf "$scratch"
mkdir -p "$scratch/out" "$scratch/work"
# shellcheck source=tests/oss_fuzz_tools.sh
. "$repo/tests/oss_fuzz_tools.sh"
wk_ossfuzz_require_tools "$scratch/probe"

out=$scratch/out
echo "running oss-fuzz/build.sh (OUT=$out)"
start=$(date +%s)
env -u WK_DRIVER_SOURCES -u WK_DRIVER_CFLAGS -u WK_DRIVER_LIB -u WK_DRIVER_CMAKE_ARGS -u WK_HARNESSES \
  CC=clang CXX=clang++ CFLAGS="-fsanitize=fuzzer-no-link" CXXFLAGS="-fsanitize=fuzzer-no-link" \
  LIB_FUZZING_ENGINE=-fsanitize=fuzzer SRC="$(dirname "$repo")" OUT="$out" WORK="$scratch/work" \
  WK_REPO="$repo" bash "$repo/oss-fuzz/build.sh" >"$scratch/build.log" 2>&1 || {
  tail -n 40 "$scratch/build.log"
  echo "FAIL: oss-fuzz/build.sh failed (log: $scratch/build.log)"
  exit 1
}
echo "build.sh took $(($(date +%s) - start)) s"

failed=0
checked=0
for h in $harnesses; do
  if [ ! -f "$repo/harnesses/$h.c" ]; then
    echo "skipping $h: harnesses/$h.c is not in this tree"
    continue
  fi
  checked=$((checked + 1))
  [ -x "$out/$h" ] || { fail "$out/$h is missing"; continue; }
  [ -f "$out/$h.options" ] || fail "$out/$h.options is missing"
  grep -q '^\[libfuzzer\]' "$out/$h.options" 2>/dev/null || fail "$h.options has no [libfuzzer] section"
  max_len=$(awk -v h="$h" '$1 == h { print $2 }' "$repo/fuzz/harnesses.txt")
  grep -q "^max_len = $max_len\$" "$out/$h.options" 2>/dev/null || fail "$h.options has no max_len = $max_len (fuzz/harnesses.txt)"
  if [ "$h" = fuzz_hostile ]; then
    grep -q '^detect_leaks = 0' "$out/$h.options" 2>/dev/null || fail "$h.options does not leave leaks to the harness's gate"
  fi
  if [ -f "$repo/harnesses/$h.dict" ]; then
    cmp -s "$repo/harnesses/$h.dict" "$out/$h.dict" || fail "$out/$h.dict is missing or differs"
    grep -q "^dict = $h.dict" "$out/$h.options" || fail "$h.options does not name $h.dict"
  fi
  seed=""
  for f in "$repo/corpus/$h/seeds"/*; do
    case "$(basename "$f")" in README* | *.md | .*) continue ;; esac
    [ -f "$f" ] && seed=$f && break
  done
  if [ -n "$seed" ]; then
    [ -s "$out/${h}_seed_corpus.zip" ] || fail "$out/${h}_seed_corpus.zip is missing"
    if command -v python3 >/dev/null 2>&1; then
      python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; assert sys.argv[2] in z.namelist()' \
        "$out/${h}_seed_corpus.zip" "$(basename "$seed")" || fail "${h}_seed_corpus.zip is broken or lacks $(basename "$seed")"
    fi
  else
    seed=$scratch/empty-input
    : >"$seed"
    echo "note: $h has no seeds yet; running it on an empty input"
  fi
  if "$out/$h" -runs=1 "$seed" >"$scratch/$h.run.log" 2>&1; then
    echo "ok: $h ran $(basename "$seed")"
  else
    tail -n 20 "$scratch/$h.run.log"
    fail "$out/$h -runs=1 $seed failed"
  fi
done
[ "$checked" -gt 0 ] || fail "no harness source found under $repo/harnesses"
[ "$failed" -eq 0 ] || exit 1
echo "PASS: $checked harnesses built, packaged and run"
