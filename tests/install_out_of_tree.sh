#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/install_out_of_tree.sh BUILD SOURCE SCRATCH
#
# A driver project against the installed kit, as a new user meets it
# (docs/driver-project.md): `cmake --install` of the build into a scratch
# prefix, then
#   - examples/out-of-tree/, copied out of the checkout, configured with
#     only CMAKE_PREFIX_PATH=<prefix>, built with the system compiler and
#     (where clang is) a coverage variant built by clang in a sub-build;
#     its own ctest runs the suite against the driver (JUnit and JSON
#     reports) and replays the kit's seeds and regressions against it; its
#     coverage target measures the driver;
#   - the same project asking for a variant the prefix lacks
#     (libfuzzer-driver) stops at configure time with the documented
#     message: what is missing, the kit's builds, the commands that add it;
#   - a C++ driver (a project written here) with OPTIONAL variants, against
#     the prefix with a stand-in libfuzzer-driver build (its wddmkit and
#     encoder): the afl variant the prefix lacks is left out with a warning,
#     the others are built (C++ by g++, and by clang++ in sub-builds with the
#     variants' flags), export DriverEntry only, and the fuzz tests of the
#     libfuzzer variant are registered.
# The default build installs replay programs only: no engine campaign runs
# here (a real one: docs/driver-project.md, and the report of this test's
# change).
set -u
build=$1 src=$2 scratch=$3
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
expect_in() { # NAME PATTERN FILE
    grep -q -- "$2" "$3" || { fail "$1: no '$2' in:"; sed 's/^/    /' "$3" | tail -40; }
}
unset WDDMKIT_DATA_DIR WK_REPLAY_DIR WK_PROMOTE_ROOT WK_DRIVER
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)

rm -rf "$scratch"
mkdir -p "$scratch"
out=$scratch/out
kit=$scratch/kit
cmake --install "$build" --prefix "$kit" >"$scratch/install.log" 2>&1 ||
    { cat "$scratch/install.log"; echo "FAIL: cmake --install"; exit 1; }
[ -f "$(echo "$kit"/lib*/cmake/wddmkit/wddmkitFunctions.cmake)" ] || fail "wddmkitFunctions.cmake not installed"

# The example, away from the checkout: nothing in it may name the kit's sources.
cp -r "$src/examples/out-of-tree" "$scratch/project"
rm -rf "$scratch/project/build"
grep -rn -- "$src" "$scratch/project" && fail "the example names the checkout"
# the driver's sources beside it, as a team's own would be
mkdir -p "$scratch/project/src"
cp "$src"/examples/drivers/independent/*.[ch] "$scratch/project/src/"

variants="default"
have_clang=0
if command -v clang >/dev/null && command -v clang++ >/dev/null; then
    have_clang=1
    variants="default;coverage"
else
    echo "note: no clang here: the coverage variant and the C++ sub-builds are left out"
fi
cmake -S "$scratch/project" -B "$scratch/project-build" "${generator[@]}" -DCMAKE_PREFIX_PATH="$kit" \
    -DMYDRIVER_SOURCE_DIR="$scratch/project/src" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMYDRIVER_VARIANTS="$variants" >"$scratch/project.log" 2>&1 &&
    cmake --build "$scratch/project-build" >>"$scratch/project.log" 2>&1 ||
    { fail "examples/out-of-tree does not build against the prefix:"; tail -n 30 "$scratch/project.log"; }
p=$scratch/project-build
if [ -f "$p/mydriver.so" ]; then
    nm -D --defined-only "$p/mydriver.so" >"$out"
    expect_in "mydriver.so exports DriverEntry" " DriverEntry\$" "$out"
    grep -q " wk_gpu_" "$out" && fail "mydriver.so exports the encoder"
fi
# Its own tests: the suite (reports in the build tree) and the replays.
(cd "$p" && ctest --output-on-failure -j 2) >"$out" 2>&1 ||
    { fail "the example's ctest: exit $?"; tail -n 30 "$out"; }
for t in mydriver.conform mydriver.replay.fuzz_render mydriver.replay.fuzz_patch mydriver.replay.fuzz_paging mydriver.replay.fuzz_prog; do
    expect_in "the example's ctest" "$t \.* *Passed" "$out"
done
expect_in "the example's ctest" "100% tests passed, 0 tests failed out of 5" "$out"
expect_in "JUnit report" "<testsuite" "$p/wddmkit-reports/mydriver.conform.junit.xml"
expect_in "JSON report" "\"status\": \"complete\"" "$p/wddmkit-reports/mydriver.conform.json"
expect_in "JSON report" "\"unexpected\": 0" "$p/wddmkit-reports/mydriver.conform.json"
expect_in "JSON report" "\"driver\": \"$p/mydriver.so\"" "$p/wddmkit-reports/mydriver.conform.json"
# Case files are absolute (older reports) or relative to the specs root:
# absolute ones must be the installed specs (install.prefix checks the rest).
if grep -q '"file": "/' "$p/wddmkit-reports/mydriver.conform.json"; then
    grep '"file": "/' "$p/wddmkit-reports/mydriver.conform.json" | grep -v -q "\"$kit/" &&
        fail "the suite ran specs from outside the prefix"
fi
if [ "$have_clang" = 1 ]; then
    nm -D --defined-only "$p/mydriver-coverage.so" >"$out" 2>&1
    expect_in "mydriver-coverage.so exports DriverEntry" " DriverEntry\$" "$out"
    cmake --build "$p" --target mydriver_coverage_fuzz_render >"$out" 2>&1 ||
        { fail "mydriver_coverage_fuzz_render: exit $?"; tail -n 20 "$out"; }
    expect_in "coverage of the driver" "^total: .*% of lines .* 8 files" "$out"
fi

# A variant the prefix lacks: configure stops and says what to do.
cmake -S "$scratch/project" -B "$scratch/missing" "${generator[@]}" -DCMAKE_PREFIX_PATH="$kit" -DMYDRIVER_SOURCE_DIR="$scratch/project/src" \
    -DMYDRIVER_VARIANTS="default;libfuzzer-driver" >"$out" 2>&1 && fail "configured with a variant the kit lacks"
tr -s ' \n' ' ' <"$out" >"$out.flat" # CMake wraps its messages
expect_in "missing variant" "cannot build the libfuzzer-driver variant: the kit ($kit) has no libfuzzer-driver build" "$out.flat"
expect_in "missing variant" "no $kit/libexec/wddmkit/libfuzzer-driver/cli/wddmkit" "$out.flat"
expect_in "missing variant" "Its builds: default\." "$out.flat"
expect_in "missing variant" "cmake --install build/libfuzzer-driver --prefix $kit" "$out.flat"

# A C++ driver with OPTIONAL variants, against a stand-in libfuzzer-driver
# build of the kit (its wddmkit, its encoder: the default one).
if [ "$have_clang" = 1 ]; then
    libdir=$(cd "$kit" && echo lib*/cmake/wddmkit | sed 's,/cmake/wddmkit$,,')
    mkdir -p "$kit/libexec/wddmkit/libfuzzer-driver/cli" "$kit/$libdir/wddmkit/libfuzzer-driver" "$scratch/cxx"
    printf '#!/bin/sh\nexit 0\n' >"$kit/libexec/wddmkit/libfuzzer-driver/cli/wddmkit"
    chmod +x "$kit/libexec/wddmkit/libfuzzer-driver/cli/wddmkit"
    cp "$kit/$libdir/libwk_gpu.a" "$kit/$libdir/wddmkit/libfuzzer-driver/"
    cat >"$scratch/cxx/driver.cpp" <<'CPP'
// SPDX-License-Identifier: MIT
// A C++ driver source: a class from kmcpp.h's operator new, one call into
// the GPU model's encoder, so a module that lacks either fails to load.
#include "wddmkit/driver.h"
#include "wddmkit/gpu.h"
#include "wddmkit/kmcpp.h"

WK_DRIVER_TARGETS_GPU_MODEL;

namespace {
struct Adapter {
    uint8_t buffer[64];
    int emit()
    {
        struct wk_gpu_writer w;
        wk_gpu_writer_init(&w, buffer, sizeof(buffer));
        return wk_gpu_emit_nop(&w) == WK_OK;
    }
};
} // namespace

extern "C" WK_DRIVER_EXPORT DRIVER_INITIALIZE DriverEntry;

extern "C" NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    UNREFERENCED_PARAMETER(RegistryPath);
    Adapter *a = new (NonPagedPoolNx) Adapter;
    int ok = a && DriverObject && a->emit();
    delete a;
    return ok ? STATUS_NOT_SUPPORTED : STATUS_INVALID_PARAMETER;
}
CPP
    cat >"$scratch/cxx/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.22)
project(cxxdriver CXX)
find_package(wddmkit CONFIG REQUIRED)
wddmkit_add_driver(cxxdriver SOURCES driver.cpp GPU_MODEL OPTIONAL
                   VARIANTS default coverage libfuzzer-driver afl)
enable_testing()
wddmkit_add_conformance_test(DRIVER cxxdriver)
wddmkit_add_fuzzers(DRIVER cxxdriver HARNESSES fuzz_patch SECONDS 5)
CMAKE
    c=$scratch/cxx-build
    cmake -S "$scratch/cxx" -B "$c" "${generator[@]}" -DCMAKE_PREFIX_PATH="$kit" -DCMAKE_CXX_COMPILER=g++ \
        >"$scratch/cxx.log" 2>&1 && cmake --build "$c" >>"$scratch/cxx.log" 2>&1 ||
        { fail "the C++ project does not build:"; tail -n 30 "$scratch/cxx.log"; }
    tr -s ' \n' ' ' <"$scratch/cxx.log" >"$out.flat"
    expect_in "OPTIONAL variant" "wddmkit_add_driver(cxxdriver): the afl variant is left out (OPTIONAL)" "$out.flat"
    for m in cxxdriver.so cxxdriver-coverage.so cxxdriver-libfuzzer-driver.so; do
        [ -f "$c/$m" ] || { fail "C++ driver: $m not built"; continue; }
        nm -D --defined-only "$c/$m" | grep -v -e "__llvm_prf_" -e " wk_km_set_" >"$out"
        expect_in "$m exports DriverEntry" " DriverEntry\$" "$out"
        grep -q -e " wk_gpu_" -e " _Zn" -e " _Zd" "$out" && { fail "$m exports more:"; cat "$out"; }
    done
    [ -f "$c/cxxdriver-afl.so" ] && fail "the afl variant was built against a kit without an afl build"
    sub=$c/_wddmkit/cxxdriver-libfuzzer-driver/build
    for flag in -fsanitize=address,undefined -fsanitize=fuzzer-no-link -fno-sanitize=function,vptr -fno-rtti; do
        grep -rqF -- "$flag" "$sub" 2>/dev/null || fail "the libfuzzer-driver sub-build does not compile with $flag"
    done
    for m in cxxdriver.so cxxdriver-coverage.so; do
        "$kit/bin/wddmkit" driver check "$c/$m" >"$out" 2>&1 || { fail "driver check $m: exit $?"; cat "$out"; }
    done
    (cd "$c" && ctest -N) >"$out" 2>&1
    for t in cxxdriver.conform cxxdriver.replay.fuzz_patch cxxdriver.fuzz.fuzz_patch; do
        expect_in "the C++ project's tests" ": $t\$" "$out"
    done
fi

if [ "$fails" != 0 ]; then
    echo "$fails failure(s)"
    exit 1
fi
echo "install: a driver project builds and tests its driver against the installed kit with the package's functions"
