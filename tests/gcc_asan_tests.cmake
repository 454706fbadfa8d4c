# SPDX-License-Identifier: MIT
# tests/gcc_asan_tests.cmake - a driver built with GCC's -fsanitize=address
# (include()d at the end of tests/CMakeLists.txt): `wddmkit driver check`
# names the runtime to preload instead of "ended the process", and conform
# runs the driver with it preloaded (tests/gcc_asan_driver.sh, which builds
# the driver with gcc whatever compiler CMake uses; cli/driver_probe.c)
find_program(WK_BASH bash)
find_program(WK_GCC gcc)
find_program(WK_READELF readelf)
if(WK_BASH AND WK_GCC AND WK_READELF)
  if(WK_SANITIZE)
    set(_wk_sanitized 1)
  else()
    set(_wk_sanitized 0)
  endif()
  add_test(NAME cli.driver_gcc_asan
    COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/gcc_asan_driver.sh $<TARGET_FILE:wddmkit> ${PROJECT_SOURCE_DIR}
            $<TARGET_FILE:wk_refdriver_static> $<TARGET_FILE:wk_gpu> ${_wk_sanitized}
            ${CMAKE_CURRENT_BINARY_DIR}/gcc-asan-driver)
  set_tests_properties(cli.driver_gcc_asan PROPERTIES LABELS "unit" TIMEOUT 120
    PASS_REGULAR_EXPRESSION "gcc_asan_driver: all checks passed" SKIP_REGULAR_EXPRESSION "gcc_asan_driver: skipped")
endif()
