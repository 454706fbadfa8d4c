#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/fuzz_driver_refused.sh - ctest cli.fuzz_driver_refused_reasons:
# `wddmkit fuzz --driver X` where no build loads X says what each build's
# loader said, and asks for a preset to be built only when it is not built
# (fuzz/campaign/, explain_refusals). It used to print "no
# libfuzzer build here loads the driver module ... needs the
# libfuzzer-driver preset" whatever the reason, with that preset built.
#
# Stand-in builds in the working directory (build/<preset>/fuzz/fuzz_spec,
# a script, and a copy of this wddmkit as build/<preset>/conformance/
# wddmkit, which answers `driver check` for real), with a module that loads
# but exports no DriverEntry:
#   1. libFuzzer, both of its presets built: exit 2, each build's line with
#      "exports no DriverEntry", and no cmake line;
#   2. AFL++, its afl preset built: the same reason, no cmake line (a
#      missing DriverEntry is not what the afl-driver preset is for).
#
# Usage: fuzz_driver_refused.sh WDDMKIT NO_ENTRY_SO WORK_DIR
set -u
wddmkit=$1 module=$2 work=$3
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf "$work" && mkdir -p "$work" || exit 1
out=$work/out.txt

# stand_in PRESET AFL: a harness binary and a wddmkit of a build.
stand_in() {
    mkdir -p "$work/build/$1/fuzz" "$work/build/$1/cli" || exit 1
    printf '#!/bin/sh\n# %s\nexit 0\n' "$2" >"$work/build/$1/fuzz/fuzz_spec"
    chmod +x "$work/build/$1/fuzz/fuzz_spec"
    cp "$wddmkit" "$work/build/$1/cli/wddmkit" || exit 1
}
stand_in libfuzzer-driver "a libFuzzer build"
stand_in libfuzzer "a libFuzzer build"
stand_in afl "__AFL_SHM_ID"

# The stand-ins' folder is the kit's data (WDDMKIT_DATA_DIR, not a
# checkout), so that the builds of the checkout this wddmkit comes from
# (a partial build/libfuzzer, say) are not the ones tried.
mkdir -p "$work/corpus" "$work/harnesses" || exit 1

# run ENGINE: the campaign's setup, from the stand-ins' folder.
run() {
    (cd "$work" && env -u WK_DRIVER WDDMKIT_DATA_DIR="$work" "$wddmkit" fuzz --harness fuzz_spec --engine "$1" \
        --driver "$module" --dry-run --out "$work/out-$1") >"$out" 2>&1
}

# 1. libFuzzer.
run libfuzzer
status=$?
lines=$(grep -c "/build/libfuzzer\(-driver\)\?: .*exports no DriverEntry" "$out")
if [ "$status" -ne 2 ] || ! grep -q "no libfuzzer build here loads the driver module" "$out" || [ "$lines" -lt 2 ] ||
    grep -q "cmake --preset" "$out" || grep -q "needs the libfuzzer-driver preset" "$out"; then
    fail "libFuzzer: exit $status, $lines builds with the loader's reason, expected 2, both, and no preset to build"
    cat "$out"
fi

# 2. AFL++.
run afl
status=$?
if [ "$status" -ne 2 ] || ! grep -q "/build/afl: .*exports no DriverEntry" "$out" || grep -q "cmake --preset" "$out"; then
    fail "AFL++: exit $status, expected 2 with the afl build's reason and no preset to build"
    cat "$out"
fi

if [ "$fails" -ne 0 ]; then
    echo "fuzz_driver_refused: $fails check(s) failed"
    exit 1
fi
echo "fuzz_driver_refused: all checks passed"
