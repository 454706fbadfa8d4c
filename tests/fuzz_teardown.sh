#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/fuzz_teardown.sh - ctest fuzz.teardown_at_exit: a driver harness's
# replay binary tears its adapters down after its last input
# (fuzz/driver/fuzz_driver.h, wk_fuzz_teardown), and judges that teardown.
#
# Checks, with tests/driver_build/teardown_probe.c (the reference driver
# printing each teardown DDI it is given) as WK_DRIVER:
#   1. one empty fuzz_render input, which builds the fixture and never
#      rebuilds it: DestroyAllocation, DestroyContext, DestroyDevice,
#      StopDevice and RemoveDevice all ran, exit 0. Before, none did, and
#      `wddmkit coverage` counted them only when an input forced a rebuild;
#   2. the same with fuzz_paging, whose differential run keeps adapters of
#      both roles: StopDevice and RemoveDevice ran;
#   3. a DestroyDevice that crashes (WK_TEST_TEARDOWN_CRASH=1) is a finding
#      of the teardown (DRV-CRASH-001 in DxgkDdiDestroyDevice): the replay
#      aborts as for any finding, and under WK_FUZZ_NO_ABORT=1 it prints
#      the finding and exits 0.
#
# Usage: fuzz_teardown.sh RENDER_REPLAY PAGING_REPLAY PROBE_SO WORK_DIR
set -u
render=$1 paging=$2 probe=$3 work=$4
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf "$work" && mkdir -p "$work" || exit 1
out=$work/out.txt
: >"$work/empty.bin"

# 1. fuzz_render's fixture.
WK_DRIVER=$probe "$render" "$work/empty.bin" >"$out" 2>&1
status=$?
[ "$status" -eq 0 ] || { fail "fuzz_render, one empty input: exit $status, expected 0"; cat "$out"; }
for ddi in DxgkDdiDestroyAllocation DxgkDdiDestroyContext DxgkDdiDestroyDevice DxgkDdiStopDevice DxgkDdiRemoveDevice; do
    grep -q "teardown_probe: $ddi\$" "$out" || fail "fuzz_render, one empty input: $ddi was never called"
done
grep -q "FINDING" "$out" && { fail "fuzz_render: a clean teardown reported a finding"; cat "$out"; }

# 2. fuzz_paging's kept adapters.
WK_DRIVER=$probe "$paging" "$work/empty.bin" >"$out" 2>&1
status=$?
[ "$status" -eq 0 ] || { fail "fuzz_paging, one empty input: exit $status, expected 0"; cat "$out"; }
for ddi in DxgkDdiStopDevice DxgkDdiRemoveDevice; do
    grep -q "teardown_probe: $ddi\$" "$out" || fail "fuzz_paging, one empty input: $ddi was never called"
done

# 3. A teardown that breaks a rule is reported. A driver that crashed in
# DestroyDevice is never removed, so what it allocated stays: under the
# sanitizer presets that is LeakSanitizer's exit, not the check's.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
WK_TEST_TEARDOWN_CRASH=1 WK_DRIVER=$probe "$render" "$work/empty.bin" >"$out" 2>&1
status=$?
if [ "$status" -eq 0 ] || ! grep -q "FINDING: contract violation while the adapters were torn down" "$out" ||
    ! grep -q "violation in DxgkDdiDestroyDevice: DRV-CRASH-001" "$out"; then
    fail "a DestroyDevice that crashes at the end: exit $status, expected an abort with the finding"
    cat "$out"
fi
WK_FUZZ_NO_ABORT=1 WK_TEST_TEARDOWN_CRASH=1 WK_DRIVER=$probe "$render" "$work/empty.bin" >"$out" 2>&1
status=$?
if [ "$status" -ne 0 ] || ! grep -q "violation in DxgkDdiDestroyDevice: DRV-CRASH-001" "$out"; then
    fail "the same under WK_FUZZ_NO_ABORT=1: exit $status, expected 0 with the finding printed"
    cat "$out"
fi

if [ "$fails" -ne 0 ]; then
    echo "fuzz_teardown: $fails check(s) failed"
    exit 1
fi
echo "fuzz_teardown: all checks passed"
