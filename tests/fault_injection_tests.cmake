# SPDX-License-Identifier: MIT
# tests/fault_injection_tests.cmake - the failures the kit plays (adapter
# `fail:`, reference-impl/vidmm/inject.c), include()d by tests/CMakeLists.txt.
#
# The reference driver whose CreateDevice leaks its own record when the
# reference CreateDevice fails (tests/driver_build/leaks_on_failure.c).
wk_add_refwrap_module(wk_test_leaks_on_failure ${CMAKE_CURRENT_LIST_DIR}/driver_build/leaks_on_failure.c)
set(_fault_cases ${PROJECT_SOURCE_DIR}/specs/fault-injection.yaml)

# Its own allocation refused (nth 1): NO_MEMORY with nothing taken, a pass.
# The reference driver's refused (nth 2): the record leaks, POOL-LEAK-001.
wk_cli_expect(fault_injection.leak_caught 1
              "fault-injection.pool-create-device-1 [.]+ pass.*fail fault-injection.pool-create-device-2\n +rule: +POOL-LEAK-001\n[^\n]*\n +seen: +[^\n]*'LEAK'"
              $<TARGET_FILE:wddmkit> conform -j 1 --driver $<TARGET_FILE:wk_test_leaks_on_failure>
              --filter fault-injection.pool-create-device-* ${_fault_cases})

# A failure the driver never meets (no 9th pool allocation inside
# CreateDevice) is a skip that says so, not a pass.
set(_never ${CMAKE_CURRENT_BINARY_DIR}/fault-never.yaml)
file(WRITE ${_never} "area: t\ncases:\n  - id: t.never\n    describe: Nine allocations in CreateDevice.\n"
     "    adapter: {fail: {what: pool, ddi: CreateDevice, nth: 9}}\n    steps:\n      - create_device\n")
wk_cli_expect(fault_injection.never_applied 0
              "skipped, by reason:\n +1 +the injected failure never applied: the driver made fewer than 9 pool allocations inside DxgkDdiCreateDevice"
              $<TARGET_FILE:wddmkit> conform ${_never})
