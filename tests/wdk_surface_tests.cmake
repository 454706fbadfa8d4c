# SPDX-License-Identifier: MIT
# docs/wdk-surface.md, the WDK names a miniport touches and what the kit does
# with each, is printed by wk_wdk_surface from the headers, the vidmm DDI and
# callback tables and docs/data/wdk-kernel-names.txt; surface.doc_current
# keeps the committed page equal to what it prints.
add_executable(wk_wdk_surface ${CMAKE_CURRENT_LIST_DIR}/wdk_surface.c ${CMAKE_CURRENT_LIST_DIR}/wdk_surface_scan.c)
target_link_libraries(wk_wdk_surface PRIVATE wk_vidmm wk_util)
# open_memstream, strndup, strcasecmp and opendir are POSIX.1-2008.
target_compile_definitions(wk_wdk_surface PRIVATE _POSIX_C_SOURCE=200809L)
wk_target_warnings(wk_wdk_surface)

add_test(NAME surface.doc_current
  COMMAND ${CMAKE_COMMAND} -DGENERATOR=$<TARGET_FILE:wk_wdk_surface> -DROOT=${PROJECT_SOURCE_DIR}
          -DDOC=${PROJECT_SOURCE_DIR}/docs/wdk-surface.md
          -P ${PROJECT_SOURCE_DIR}/cmake/CheckSurfaceDoc.cmake)
set_tests_properties(surface.doc_current PROPERTIES LABELS "unit")
