#!/bin/sh
# SPDX-License-Identifier: MIT
# cmake-min-ok-file: it plants newer CMake on purpose, for the check to find
# tests/cmake_minimum_rule.sh SOURCE - cmake/CheckCMakeMinimum.cmake finds
# what it is for: a scratch tree whose CMake files use block() (3.25), a
# FILE_SET (3.23) and a newer cmake_minimum_required, and whose presets
# are of schema 6, fails the check with each named; the same tree without
# them, and with a newer keyword behind "cmake-min-ok:", passes.
set -u
src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
mkdir -p "$work/bad/sub" "$work/good"
cat >"$work/bad/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(p C)
block(SCOPE_FOR VARIABLES)
endblock()
CMAKE
cat >"$work/bad/sub/x.cmake" <<'CMAKE'
target_sources(t PUBLIC FILE_SET HEADERS FILES a.h)
CMAKE
printf '{ "version": 6, "cmakeMinimumRequired": { "major": 3, "minor": 25, "patch": 0 } }\n' >"$work/bad/CMakePresets.json"
cmake -DSOURCE="$work/bad" -DMINIMUM=3.22 -P "$src/cmake/CheckCMakeMinimum.cmake" >"$work/out" 2>&1 &&
    fail "the planted tree passed"
for want in "CMakeLists.txt:1: cmake_minimum_required(VERSION 3.25), not 3.22" \
            "CMakeLists.txt:3: block() needs CMake 3.25" "CMakeLists.txt:4: endblock() needs CMake 3.25" \
            "sub/x.cmake:1: target_sources(FILE_SET)" "schema version 6" "cmakeMinimumRequired 3.25, not 3.22"; do
    grep -qF -- "$want" "$work/out" || fail "not reported: $want"
done
cat >"$work/good/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.22...3.25)
project(p C)
# block() in a comment is no use of it
if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.25)
  cmake_language(GET_MESSAGE_LOG_LEVEL level) # cmake-min-ok: behind a version test
endif()
CMAKE
printf '{ "version": 3, "cmakeMinimumRequired": { "major": 3, "minor": 22, "patch": 0 } }\n' >"$work/good/CMakePresets.json"
cmake -DSOURCE="$work/good" -DMINIMUM=3.22 -P "$src/cmake/CheckCMakeMinimum.cmake" >"$work/out" 2>&1 ||
    { fail "the clean tree failed:"; cat "$work/out"; }
[ "$fails" = 0 ] || { cat "$work/out"; exit 1; }
echo "cmake minimum: the check finds what it looks for"
