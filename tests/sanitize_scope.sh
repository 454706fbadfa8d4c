#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/sanitize_scope.sh - ctest fuzz.sanitize_scope: what a sanitized
# build checks of a driver under test, and (WK_SANITIZE_SCOPE=driver, the
# libfuzzer-driver preset) that only the driver side carries the
# instrumentation (cmake/WkSanitizers.cmake says why).
#
# Checks:
#   1. a driver module that overflows its own pool block: ASan reports a
#      heap-buffer-overflow in that module's source;
#   2. a driver module that hands DxgkCbNotifyInterrupt a 4-byte block:
#      ASan reports the read in the kit's callback (cb_notify_interrupt),
#      which stays sanitized in either scope;
#   3. the reference driver as a module: the same input passes (the two
#      reports are the planted bugs', not the build's);
#   4. `wddmkit repro` of the first module's input names the report's class
#      and function in its signature (the report reaches it through the
#      sanitizer's report fd, fuzz/crash/);
#   5. scope `driver` only: the kit's checker objects (vidmm, the GPU
#      model, the conformance library, the harness) carry no ASan
#      instrumentation, the driver side (the reference driver's objects,
#      the kit's callbacks, the GPU command encoder) does, and the harness
#      links the ASan runtime.
#
# Usage: sanitize_scope.sh BUILD_DIR SCOPE REPLAY OVERFLOW_MODULE SHORT_ARG_MODULE REFERENCE_MODULE SEED WDDMKIT
set -u
build=$1 scope=$2 replay=$3 overflow=$4 short_arg=$5 reference=$6 seed=$7 wddmkit=$8
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT

# run MODULE: the replay's exit status, its output in $out.
run() {
    WK_DRIVER=$1 ASAN_OPTIONS=detect_leaks=0 "$replay" "$seed" >"$out" 2>&1
}

run "$overflow"; status=$?
if [ "$status" -eq 0 ] || ! grep -q "AddressSanitizer: heap-buffer-overflow" "$out" ||
    ! grep -q "heap_overflow.c" "$out"; then
    fail "the driver's own overflow: exit $status, expected an ASan heap-buffer-overflow in heap_overflow.c:"
    sed -n 1,30p "$out"
fi

run "$short_arg"; status=$?
if [ "$status" -eq 0 ] || ! grep -q "AddressSanitizer: heap-buffer-overflow" "$out" ||
    ! grep -q "cb_notify_interrupt" "$out"; then
    fail "a short callback argument: exit $status, expected an ASan heap-buffer-overflow in cb_notify_interrupt:"
    sed -n 1,30p "$out"
fi

run "$reference"; status=$?
if [ "$status" -ne 0 ] || grep -q "AddressSanitizer" "$out"; then
    fail "the reference driver: exit $status, expected a clean pass:"
    sed -n 1,30p "$out"
fi

"$wddmkit" repro "$seed" --harness fuzz_prog --driver "$overflow" --runs 2 >"$out" 2>&1
# ASAN_OPTIONS=abort_on_error=1 (the asan test preset's) makes the report an
# abort inside the DDI, DRV-CRASH-001; without it ASan exits with 1. With a
# driver other than the reference, repro judges a fuzz_prog input by the
# harness's replay binary, whose exit names the report: "exit: ...".
if ! grep -Eq "signature: (exit 1|exit|DRV-CRASH-001 \(SIGABRT\) in DxgkDdiCreateDevice|DRV-CRASH-001 in DxgkDdiCreateDevice): AddressSanitizer: heap-buffer-overflow in overflowing_create_device" "$out"; then
    fail "wddmkit repro does not name the ASan report in its signature:"
    grep -E "result|signature" "$out"
fi

# instrumented OBJECT: 0 when the object calls into ASan.
instrumented() {
    nm -u "$1" 2>/dev/null | grep -q " __asan_"
}

if [ "$scope" = driver ]; then
    checked=0
    for o in "$build"/reference-impl/vidmm/CMakeFiles/wk_vidmm.dir/*.o \
             "$build"/gpu-model/CMakeFiles/wk_gpu.dir/*.o \
             "$build"/conformance/CMakeFiles/wk_conformance.dir/*/*.o \
             "$build"/harnesses/CMakeFiles/fuzz_prog.dir/*.o \
             "$build"/harnesses/CMakeFiles/fuzz_prog.dir/__/fuzz/driver/*.o; do
        [ -f "$o" ] || continue
        checked=$((checked + 1))
        case $(basename "$o") in
        callbacks.c.o | ctxalloc.c.o | encode.c.o | opcodes.c.o)
            instrumented "$o" || fail "driver-facing kit code without ASan: $o" ;;
        *)
            ! instrumented "$o" || fail "kit code with ASan in scope 'driver': $o" ;;
        esac
    done
    [ "$checked" -ge 40 ] || fail "only $checked kit objects found under $build"
    for o in "$build"/reference-impl/refdriver/CMakeFiles/wk_refdriver_static.dir/*.o \
             "$build"/fuzz/CMakeFiles/wk_refdriver_quiet.dir/__/reference-impl/refdriver/*.o; do
        [ -f "$o" ] || { fail "no driver objects at $o"; continue; }
        instrumented "$o" || fail "driver object without ASan: $o"
    done
    nm "$replay" | grep -q " T __asan_init" || fail "$replay does not link the ASan runtime"
fi

if [ "$fails" -eq 0 ]; then
    echo "sanitize_scope: all checks passed (scope $scope)"
    exit 0
fi
exit 1
