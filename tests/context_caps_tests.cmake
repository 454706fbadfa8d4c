# SPDX-License-Identifier: MIT
# tests/context_caps_tests.cmake - DXGK_CONTEXTINFO.Caps
# (reference-impl/vidmm/context_caps.c), include()d by tests/CMakeLists.txt.
#
# The reference driver with one DDI replaced (tests/driver_build/context_caps.c):
# its contexts report the caps WK_CONTEXT_CAPS names; WK_NO_PATCH leaves
# DxgkDdiPatch NULL.
foreach(v claims_no_patching no_patching_no_patch no_patch manages_residency use_iommu)
  wk_add_refwrap_module(wk_test_${v} ${CMAKE_CURRENT_LIST_DIR}/driver_build/context_caps.c)
endforeach()
target_compile_definitions(wk_test_claims_no_patching PRIVATE WK_CONTEXT_CAPS=0x1u)
target_compile_definitions(wk_test_no_patching_no_patch PRIVATE WK_CONTEXT_CAPS=0x1u WK_NO_PATCH)
target_compile_definitions(wk_test_no_patch PRIVATE WK_NO_PATCH)
target_compile_definitions(wk_test_manages_residency PRIVATE WK_CONTEXT_CAPS=0x2u)
target_compile_definitions(wk_test_use_iommu PRIVATE WK_CONTEXT_CAPS=0x4u)

set(_caps_cases ${CMAKE_CURRENT_LIST_DIR}/data/specs/context-caps.yaml)
set(_patch_cases ${PROJECT_SOURCE_DIR}/specs/patch.yaml)
set(_start_cases ${PROJECT_SOURCE_DIR}/specs/adapter-start.yaml)

# The reference driver passes the cases of context-caps.yaml.
wk_cli_expect(context_caps.reference 0 "2 of 2 cases in [0-9.]+ s: 2 pass"
              $<TARGET_FILE:wddmkit> conform ${_caps_cases})

# NoPatchingRequired on a driver whose buffers need patching: no Patch is
# called, so the cases whose allocations are not where Render saw them
# (evicted, never resident, no pre-patch information) fail, each saying the
# context reported the cap: SUBMIT-GPU-001 where the unpatched address
# faults, the data check where it does not (a segment at 0). What Render
# pre-patched passes.
wk_cli_expect(context_caps.claims_no_patching 1
              "t.pre-patched [.]+ pass.*unexpected results:.*fail patch.split-evicted\n +rule: +SUBMIT-GPU-001\n[^\n]*\n +seen: +[^\n]*built by DxgkDdiRender, not patched: context 1 reported Caps.NoPatchingRequired.*fail t.not-pre-patched\n +rule: +none broken: a check of the case failed\n[^\n]*\n +seen: +byte [+]0x8 is 0x00, expected 0x11; DxgkDdiPatch was not called for 1 render submission with patch locations: context 1 reported DXGK_CONTEXTINFO.Caps.NoPatchingRequired"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_claims_no_patching>
              --filter patch.split-* --filter t.* ${_patch_cases} ${_caps_cases})

# NoPatchingRequired and no Patch: not told Patch is missing, before the run
# or by the table's case, and its pre-patched render passes.
wk_cli_expect(context_caps.no_patch_needed 0
              "ddis: +the driver leaves DxgkDdiPatch NULL, needed only for a context that does not report DXGK_CONTEXTINFO.Caps.NoPatchingRequired.*2 of 2 cases in [0-9.]+ s: 2 pass"
              $<TARGET_FILE:wddmkit> conform --driver $<TARGET_FILE:wk_test_no_patching_no_patch>
              --filter adapter-start.ddi-table --filter t.pre-patched ${_start_cases} ${_caps_cases})

# No cap and no Patch: the table's case fails with DDI-TABLE-001 naming
# Patch, and a render case is skipped for it.
wk_cli_expect(context_caps.patch_missing 1
              "fail adapter-start.ddi-table\n +rule: +DDI-TABLE-001\n[^\n]*\n +seen: +DDI-TABLE-001: DriverEntry: the table handed to DxgkInitialize leaves NULL DxgkDdiPatch, [^\n]*context 1 does not.*skipped, by reason:\n +1 +the driver has no DxgkDdiPatch, which the kernel calls for context 1's DMA buffers"
              $<TARGET_FILE:wddmkit> conform --driver $<TARGET_FILE:wk_test_no_patch>
              --filter adapter-start.ddi-table --filter patch.split-evicted ${_start_cases} ${_patch_cases})

# DriverManagesResidency, UseIoMmu: not modelled, so every render case is a
# skip naming the cap, and nothing fails.
foreach(v manages_residency:DriverManagesResidency use_iommu:UseIoMmu)
  string(REPLACE ":" ";" v "${v}")
  list(GET v 0 _driver)
  list(GET v 1 _cap)
  wk_cli_expect(context_caps.${_driver} 0
                "skipped, by reason:.*context 1 reports DXGK_CONTEXTINFO.Caps.${_cap}, which the kit does not model.*RESULT: all as expected"
                $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_${_driver}> ${_patch_cases} ${_caps_cases})
endforeach()
