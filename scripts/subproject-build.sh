#!/bin/sh
# SPDX-License-Identifier: MIT
# subproject-build.sh [BUILD_TYPE] - builds the kit the way a driver
# project takes it in: add_subdirectory() from a project of its own, with
# gcc, at BUILD_TYPE (default Debug), in a scratch folder. Checks that it
# builds (no -Werror of ours imposed on the parent: a newer compiler's new
# warning must not break someone else's build), that it registers none of
# its own tests, and that the wddmkit it built runs the conformance suite
# against the reference driver; and that the package's functions work
# there too (docs/driver-project.md): the parent builds a driver
# (examples/drivers/independent/) with wddmkit_add_driver and runs the suite
# on it with wddmkit_add_conformance_test. Run by .ci/run (not by `make
# test`: a second full build).
set -eu
type=${1:-Debug}
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/project"
cat >"$work/project/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.22)
project(a_driver_project C CXX)
add_subdirectory("$src" wddmkit)
enable_testing()
add_test(NAME parent.own_test COMMAND \${CMAKE_COMMAND} -E true)
file(GLOB driver_sources "$src/examples/drivers/independent/*.c")
wddmkit_add_driver(subdriver GPU_MODEL SOURCES \${driver_sources})
wddmkit_add_conformance_test(DRIVER subdriver)
CMAKE
generator=
command -v ninja >/dev/null 2>&1 && generator="-G Ninja"
# shellcheck disable=SC2086
cmake -S "$work/project" -B "$work/build" $generator -DCMAKE_BUILD_TYPE="$type" \
      -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >"$work/configure.log" ||
    { cat "$work/configure.log"; echo "subproject-build: configure failed"; exit 1; }
cmake --build "$work/build" -j "$(nproc 2>/dev/null || echo 2)" >"$work/build.log" 2>&1 ||
    { tail -n 40 "$work/build.log"; echo "subproject-build: build failed ($type, gcc)"; exit 1; }
[ -s "$work/build/compile_commands.json" ] || { echo "subproject-build: no compile_commands.json"; exit 1; }
if grep -q -- '-Werror' "$work/build/compile_commands.json"; then
    echo "subproject-build: the kit imposed -Werror on its parent"; exit 1
fi
tests=$(cd "$work/build" && ctest -N | sed -n 's/^Total Tests: //p')
[ "$tests" = 2 ] || { echo "subproject-build: the parent sees $tests tests (expected only its own 2)"; exit 1; }
kit=$work/build/wddmkit
"$kit/cli/wddmkit" conform -j 2 --quiet --driver "$kit/reference-impl/refdriver/wk_refdriver.so" \
    >"$work/conform.log" 2>&1 || { tail -n 20 "$work/conform.log"; echo "subproject-build: conform failed"; exit 1; }
(cd "$work/build" && ctest -R '^subdriver\.conform$' --output-on-failure) >"$work/ctest.log" 2>&1 ||
    { tail -n 20 "$work/ctest.log"; echo "subproject-build: the parent's driver fails its conformance test"; exit 1; }
echo "subproject-build: wddmkit as a subproject builds with gcc ($type), adds no tests, and passes its suite;"
echo "subproject-build: its functions build the parent's driver and run the suite on it"
