# SPDX-License-Identifier: MIT
# d3dkmddi_layout.cmake - the layout test of include/wddmkit/d3dkmddi.h, built
# twice: as C11 and, from the same source file, as C++11, so the header's C++
# claims are checked by the same assertions as its C ones.
#
# include()d from tests/CMakeLists.txt. Expects WK_CMOCKA_LIB to hold the
# cmocka library found by the integrator (find_library(WK_CMOCKA_LIB cmocka)).

# The second target is C++; enable the language here if the project did not.
get_property(_wk_langs GLOBAL PROPERTY ENABLED_LANGUAGES)
if(NOT "CXX" IN_LIST _wk_langs)
  enable_language(CXX)
endif()
unset(_wk_langs)

add_executable(test_d3dkmddi_layout
  ${CMAKE_CURRENT_LIST_DIR}/test_d3dkmddi_layout.c)
set_target_properties(test_d3dkmddi_layout PROPERTIES
  C_STANDARD 11
  C_STANDARD_REQUIRED ON
  C_EXTENSIONS OFF)

add_executable(test_d3dkmddi_layout_cxx
  ${CMAKE_CURRENT_LIST_DIR}/test_d3dkmddi_layout_cxx.cpp)
set_target_properties(test_d3dkmddi_layout_cxx PROPERTIES
  CXX_STANDARD 11
  CXX_STANDARD_REQUIRED ON
  CXX_EXTENSIONS OFF)

foreach(_wk_t test_d3dkmddi_layout test_d3dkmddi_layout_cxx)
  target_include_directories(${_wk_t} PRIVATE ${PROJECT_SOURCE_DIR}/include)
  if(WK_CMOCKA_INCLUDE)
    target_include_directories(${_wk_t} PRIVATE ${WK_CMOCKA_INCLUDE})
  endif()
  target_compile_options(${_wk_t} PRIVATE -Wall -Wextra -Werror)
  target_link_libraries(${_wk_t} PRIVATE ${WK_CMOCKA_LIB})
endforeach()
unset(_wk_t)

add_test(NAME d3dkmddi.layout COMMAND test_d3dkmddi_layout)
add_test(NAME d3dkmddi.layout_cxx COMMAND test_d3dkmddi_layout_cxx)
set_tests_properties(d3dkmddi.layout d3dkmddi.layout_cxx PROPERTIES LABELS "unit")

# The WDK's DDI parameter type names (include/wddmkit/ddiparams.h): every DDI
# declared with them is assigned to its member of DRIVER_INITIALIZATION_DATA,
# as C11 and as C++17 (a name of another type does not compile).
add_executable(test_ddiparams ${CMAKE_CURRENT_LIST_DIR}/test_ddiparams.c)
set_target_properties(test_ddiparams PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
add_executable(test_ddiparams_cxx ${CMAKE_CURRENT_LIST_DIR}/test_ddiparams_cxx.cpp)
set_target_properties(test_ddiparams_cxx PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF)
foreach(_wk_t test_ddiparams test_ddiparams_cxx)
  target_include_directories(${_wk_t} PRIVATE ${PROJECT_SOURCE_DIR}/include ${CMAKE_CURRENT_LIST_DIR})
  if(WK_CMOCKA_INCLUDE)
    target_include_directories(${_wk_t} PRIVATE ${WK_CMOCKA_INCLUDE})
  endif()
  target_compile_options(${_wk_t} PRIVATE -Wall -Wextra -Werror)
  target_link_libraries(${_wk_t} PRIVATE ${WK_CMOCKA_LIB})
endforeach()
unset(_wk_t)
add_test(NAME d3dkmddi.ddiparams COMMAND test_ddiparams)
add_test(NAME d3dkmddi.ddiparams_cxx COMMAND test_ddiparams_cxx)
set_tests_properties(d3dkmddi.ddiparams d3dkmddi.ddiparams_cxx PROPERTIES LABELS "unit")
