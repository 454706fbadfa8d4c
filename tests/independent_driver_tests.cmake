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
endif()
