# SPDX-License-Identifier: MIT
# wdk_names_tests.cmake - the WDK names a RosKmd port found missing
# (D3DDDIFORMAT, DXGI_FORMAT, the DXGKQAITYPE values and runtime power
# types, FLOAT, FILE_OBJECT, GENERIC_*, DECLARE_CONST_UNICODE_STRING,
# RtlStringCb/CchPrintfW, MmMapLockedPagesSpecifyCache/MmUnmapLockedPages,
# KeBugCheckEx). One source, tests/test_wdk_names.c, built three ways:
#   test_wdk_names             C11                          -> km.wdk_names
#   test_wdk_names_cxx         C++17 (test_wdk_names_cxx.cpp) -> km.wdk_names_cxx
#   test_wdk_names_short_wchar C11 with -fshort-wchar (WCHAR is wchar_t,
#                              literals L"...")            -> km.wdk_names_short_wchar
# each linked with test_wdk_names_tu2, the same file with WK_WDK_NAMES_TU2:
# a C unit that includes d3dkmddi.h alone to see the whole D3DDDIFORMAT.
#
# include()d from tests/CMakeLists.txt after km_tests.cmake, whose
# wk_km_header_suite builds the programs. Expects WK_CMOCKA_LIB (and, if set,
# WK_CMOCKA_INCLUDE) from the integrator's find_library/find_path.

wk_km_header_suite(wdk_names ${CMAKE_CURRENT_LIST_DIR}/test_wdk_names.c ${CMAKE_CURRENT_LIST_DIR}/test_wdk_names_cxx.cpp
                   WK_WDK_NAMES_TU2 17 SHORT_WCHAR)

add_test(NAME km.wdk_names COMMAND test_wdk_names)
add_test(NAME km.wdk_names_cxx COMMAND test_wdk_names_cxx)
add_test(NAME km.wdk_names_short_wchar COMMAND test_wdk_names_short_wchar)
set_tests_properties(km.wdk_names km.wdk_names_cxx km.wdk_names_short_wchar PROPERTIES
  LABELS "unit" TIMEOUT 60)
