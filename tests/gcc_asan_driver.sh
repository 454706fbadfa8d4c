#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/gcc_asan_driver.sh WDDMKIT SOURCE_DIR REFDRIVER_STATIC GPU_LIB SANITIZED SCRATCH
#
# A driver built with GCC's -fsanitize=address (cli/driver_probe.c, cli/hand_over.c):
# GCC links it to the shared runtime libasan.so.N, which ends a process it
# was not preloaded into ("ASan runtime does not come first"). Checked:
#   - `driver check` exits 2 (not 3, "ended the process"), names GCC's
#     AddressSanitizer and the runtime, and says how to run it (LD_PRELOAD);
#   - with that runtime preloaded, an uninstrumented wddmkit loads it;
#   - conform hands itself over: runs again with LD_PRELOAD=libasan.so.N and
#     the case passes (the driver is the reference one behind a wrapper);
#   - the build that took over (WK_DRIVER_BUILD_CHOSEN=1) does not hand over
#     again: conform stops with the reason, exit 2.
# SANITIZED=1 (a wddmkit with clang's ASan, which cannot share a process
# with GCC's): only the first check, whose advice then names an
# uninstrumented build. Prints "skipped" (ctest's SKIP_REGULAR_EXPRESSION)
# when gcc cannot build with ASan.
set -u
wddmkit=$1 src=$2 refdriver=$3 gpu=$4 sanitized=$5 scratch=$6
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
expect_rc() { # NAME WANT GOT
    [ "$2" = "$3" ] || fail "$1: exit code $3, expected $2"
}
expect_in() { # NAME PATTERN FILE
    grep -q -- "$2" "$3" || { fail "$1: no '$2' in:"; sed 's/^/    /' "$3"; }
}

rm -rf "$scratch"
mkdir -p "$scratch"
out=$scratch/out
so=$scratch/gcc_asan.so
if ! gcc -std=c11 -O1 -g -fPIC -shared -fvisibility=hidden -fsanitize=address,undefined \
        -I"$src/include" -I"$src/reference-impl" -I"$src/examples/drivers" "$src/tests/driver_build/gcc_asan.c" \
        "$refdriver" "$gpu" -Wl,--exclude-libs,ALL -o "$so" >"$out" 2>&1; then
    echo "gcc_asan_driver: skipped, gcc cannot build a module with -fsanitize=address:"
    cat "$out"
    exit 0
fi
runtime=$(readelf -d "$so" | sed -n 's/.*NEEDED.*\[\(libasan\.so\.[0-9]*\)\].*/\1/p')
[ -n "$runtime" ] || fail "the module names no libasan.so.N in its DT_NEEDED"

"$wddmkit" driver check "$so" >"$out" 2>&1; expect_rc "check" 2 $?
expect_in "check" "does not load into this build: built with GCC's AddressSanitizer" "$out"
expect_in "check" "runtime ($runtime) must be the first library of the process" "$out"
expect_in "check" "LD_PRELOAD=$runtime" "$out"
grep -q "ended the process" "$out" && fail "check: reported as a module that ended the process"

if [ "$sanitized" != 1 ]; then
    LD_PRELOAD=$runtime "$wddmkit" driver check "$so" >"$out" 2>&1; expect_rc "check, preloaded" 0 $?
    expect_in "check, preloaded" "loads into this build" "$out"

    "$wddmkit" conform --driver "$so" --filter smoke.objects "$src/specs/smoke.yaml" >"$out" 2>&1
    expect_rc "conform" 0 $?
    expect_in "conform" "built with GCC's AddressSanitizer.*running .* with LD_PRELOAD=$runtime" "$out"
    expect_in "conform" "smoke.objects ... pass" "$out"

    WK_DRIVER_BUILD_CHOSEN=1 "$wddmkit" conform --driver "$so" --filter smoke.objects "$src/specs/smoke.yaml" \
        >"$out" 2>&1
    expect_rc "chosen build" 2 $?
    expect_in "chosen build" "built with GCC's AddressSanitizer" "$out"
fi

[ $fails = 0 ] && echo "gcc_asan_driver: all checks passed"
exit $((fails > 0))
