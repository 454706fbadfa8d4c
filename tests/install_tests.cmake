# SPDX-License-Identifier: MIT
# tests/install_tests.cmake - the kit away from its checkout (docs/install.md):
#   install.kit_dirs  where the command finds its data: a build tree moved
#                     with its checkout or alone, WDDMKIT_DATA_DIR, an
#                     installed layout, nowhere (tests/kit_dirs.sh);
#   install.prefix    cmake --install into a scratch prefix, moved, run, and
#                     built against (tests/install_kit.sh);
#   install.package   cpack's .tar.gz and .deb, unpacked and run
#                     (tests/package_kit.sh);
#   install.out_of_tree  a driver project with the package's functions
#                     against a scratch prefix (tests/install_out_of_tree.sh).
find_program(WK_BASH bash)
add_test(NAME install.kit_dirs
  COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/kit_dirs.sh $<TARGET_FILE:wddmkit> ${PROJECT_SOURCE_DIR}
          ${CMAKE_CURRENT_BINARY_DIR}/kit-dirs ${WK_INSTALL_EXEDIR} ${CMAKE_INSTALL_DATADIR})
set_tests_properties(install.kit_dirs PROPERTIES LABELS "unit" PASS_REGULAR_EXPRESSION "every way of finding the data holds")

# install.prefix: `cmake --install` of this build into a scratch prefix,
# moved: the layout, no checkout path in the command, conform from another
# folder (and with the checkout hidden, where mount namespaces are
# allowed), WDDMKIT_DATA_DIR, the replay programs, the message for a
# missing engine build, and a driver project built against it with
# find_package and with pkg-config (tests/install_kit.sh,
# tests/install_consumer/).
if(WK_INSTALL AND WK_INSTALL_KIT AND TARGET wk_refdriver)
  add_test(NAME install.prefix
    COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/install_kit.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR}
            ${CMAKE_CURRENT_BINARY_DIR}/install-prefix ${CMAKE_INSTALL_BINDIR} ${CMAKE_INSTALL_LIBDIR}
            ${CMAKE_INSTALL_INCLUDEDIR} ${CMAKE_INSTALL_DATADIR} ${CMAKE_INSTALL_LIBEXECDIR}
            $<TARGET_FILE:wk_test_needs_runtime>)
  set_tests_properties(install.prefix PROPERTIES LABELS "unit" TIMEOUT 300 RESOURCE_LOCK wk_install_manifest
    PASS_REGULAR_EXPRESSION "install: the kit installs, moves, runs from its prefix")
endif()

# install.package: cpack's .tar.gz (and .deb where dpkg-deb is) made from
# this build, unpacked, and run from there (tests/package_kit.sh). Both
# tests install this build, and cmake --install writes install_manifest.txt
# into the build folder: they take turns.
if(WK_INSTALL AND WK_INSTALL_KIT AND TARGET wk_refdriver AND PROJECT_IS_TOP_LEVEL)
  add_test(NAME install.package
    COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/package_kit.sh ${PROJECT_BINARY_DIR}
            ${CMAKE_CURRENT_BINARY_DIR}/package)
  set_tests_properties(install.package PROPERTIES LABELS "unit;package" TIMEOUT 600 RESOURCE_LOCK wk_install_manifest
    PASS_REGULAR_EXPRESSION "package: cpack made")
endif()

# install.out_of_tree: examples/out-of-tree/ (and a C++ driver project)
# built against a scratch prefix with the package's functions
# (wddmkit_add_driver, wddmkit_add_conformance_test, wddmkit_add_fuzzers;
# docs/driver-project.md), its own ctest run, and a variant the prefix lacks
# refused at configure time (tests/install_out_of_tree.sh).
if(WK_INSTALL AND WK_INSTALL_KIT AND PROJECT_IS_TOP_LEVEL)
  add_test(NAME install.out_of_tree
    COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/install_out_of_tree.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR}
            ${CMAKE_CURRENT_BINARY_DIR}/install-out-of-tree)
  set_tests_properties(install.out_of_tree PROPERTIES LABELS "unit" TIMEOUT 300 RESOURCE_LOCK wk_install_manifest
    PROCESSORS 2 PASS_REGULAR_EXPRESSION "install: a driver project builds and tests its driver against the installed kit")
endif()
