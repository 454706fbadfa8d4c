# SPDX-License-Identifier: MIT
# km_more_tests.cmake - the tests of kmstring.h, kmmemory.h and kmthread.h
# (include/wddmkit/), the headers that extend km.h. One source,
# test_km_more.c, built four ways:
#   test_km_more_tu2         a second C unit, strict C11 with no POSIX
#                            feature macro (the headers must not need one),
#                            without -fshort-wchar; linked into the three
#                            programs, it proves the weak registries are
#                            shared across units and that WCHAR strings
#                            cross between the two WCHAR spellings;
#   test_km_more             C11                       -> km.more
#   test_km_more_cxx         C++17 (test_km_more_cxx.cpp) -> km.more_cxx
#   test_km_more_short_wchar C11 with -fshort-wchar, so WCHAR is wchar_t
#                            and L"..." literals are checked -> km.more_short_wchar
#
# include()d from tests/CMakeLists.txt after km_tests.cmake, whose
# wk_km_header_suite builds the programs. Expects WK_CMOCKA_LIB (and, if set,
# WK_CMOCKA_INCLUDE) from the integrator's find_library/find_path.

wk_km_header_suite(km_more ${CMAKE_CURRENT_LIST_DIR}/test_km_more.c ${CMAKE_CURRENT_LIST_DIR}/test_km_more_cxx.cpp
                   WK_KM_MORE_TU2 17 SHORT_WCHAR)

add_test(NAME km.more COMMAND test_km_more)
add_test(NAME km.more_cxx COMMAND test_km_more_cxx)
add_test(NAME km.more_short_wchar COMMAND test_km_more_short_wchar)
set_tests_properties(km.more km.more_cxx km.more_short_wchar PROPERTIES LABELS "unit" TIMEOUT 120)
