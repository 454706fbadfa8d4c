# SPDX-License-Identifier: MIT
# tests/independent_driver_tests.cmake - the whole spec suite against a
# driver that is not derived from the reference driver
# (examples/drivers/independent/), include()d by tests/CMakeLists.txt.
#
#   conform.independent_driver  contract profile (the default with
#       --driver): exit 0, no failure, so no check of the suite pins a
#       choice the reference driver makes and the DDI leaves open; reference
#       profile on the same driver: failures, so the profile matters
#       (examples/drivers/independent/conform_profiles.cmake).
#   fuzz.independent_driver_seeds  every committed seed and regression of
#       the driver harnesses replayed against it: no finding, since it is a
#       correct driver; in particular no differential finding where it only
#       chose otherwise than the reference driver (where it placed an
#       allocation, how many devices it takes, what its placement evicted,
#       bytes no step defined: fuzz/driver/differential.c).
#
# In every preset that builds the example drivers (the asan one included);
# skipped where the module is not built.
if(TARGET independent_driver)
  add_test(NAME conform.independent_driver
    COMMAND ${CMAKE_COMMAND} -DWDDMKIT=$<TARGET_FILE:wddmkit> -DDRIVER=$<TARGET_FILE:independent_driver>
            -DSPECS=${PROJECT_SOURCE_DIR}/specs -DOUT=${CMAKE_CURRENT_BINARY_DIR}/independent-driver
            -P ${PROJECT_SOURCE_DIR}/examples/drivers/independent/conform_profiles.cmake)
  set_tests_properties(conform.independent_driver PROPERTIES LABELS "conform;unit" TIMEOUT 300
    SKIP_REGULAR_EXPRESSION "conform_profiles: skipped")
  foreach(h fuzz_prog fuzz_paging fuzz_render fuzz_patch)
    set(_wk_inputs ${PROJECT_SOURCE_DIR}/corpus/${h}/seeds ${PROJECT_SOURCE_DIR}/corpus/${h}/regressions)
    if(TARGET ${h}_replay)
      add_test(NAME fuzz.independent_driver_seeds.${h}
        COMMAND ${CMAKE_COMMAND} -E env WK_DRIVER=$<TARGET_FILE:independent_driver>
                $<TARGET_FILE:${h}_replay> ${_wk_inputs})
      set_tests_properties(fuzz.independent_driver_seeds.${h} PROPERTIES LABELS "unit" TIMEOUT 300
        PASS_REGULAR_EXPRESSION "replay: [1-9][0-9]* inputs ran, 0 paths could not be read" FAIL_REGULAR_EXPRESSION "FINDING")
    endif()
  endforeach()
endif()
