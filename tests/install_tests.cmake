# SPDX-License-Identifier: MIT
# tests/install_tests.cmake - the kit away from its checkout (docs/install.md):
#   install.kit_dirs  where the command finds its data: a build tree moved
#                     with its checkout or alone, WDDMKIT_DATA_DIR, an
#                     installed layout, nowhere (tests/kit_dirs.sh).
find_program(WK_BASH bash)
add_test(NAME install.kit_dirs
  COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/kit_dirs.sh $<TARGET_FILE:wddmkit> ${PROJECT_SOURCE_DIR}
          ${CMAKE_CURRENT_BINARY_DIR}/kit-dirs ${CMAKE_INSTALL_BINDIR} ${CMAKE_INSTALL_DATADIR})
set_tests_properties(install.kit_dirs PROPERTIES LABELS "unit" PASS_REGULAR_EXPRESSION "every way of finding the data holds")
