# SPDX-License-Identifier: MIT
# tests/cli_options_tests.cmake - the command line's one option style
# (cli/cli_options.h), include()d by tests/CMakeLists.txt:
#   cli.options_parser  the helper itself: table -> getopt tables, order of
#                       options and operands, --, --opt=, missing values,
#                       number ranges, "did you mean", help layout, two
#                       parses in one process (tests/test_cli_options.c)
#   cli.options         every converted command from the outside: --help
#                       to stdout exit 0, --opt=value, unknown options exit 2
#                       with "wddmkit <cmd>: ", "did you mean" for options,
#                       subcommands and commands (tests/cli_options.sh)
wk_cmocka_test(test_cli_options cli.options_parser 60 SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_cli_options.c LIBS wk_cli)
find_program(WK_BASH bash)
if(WK_BASH)
  add_test(NAME cli.options
    COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/cli_options.sh $<TARGET_FILE:wddmkit> ${PROJECT_SOURCE_DIR}/specs
            ${CMAKE_CURRENT_BINARY_DIR}/cli-options)
  set_tests_properties(cli.options PROPERTIES LABELS "unit" TIMEOUT 120
    PASS_REGULAR_EXPRESSION "cli_options: all checks passed")
endif()
# cli.manual: the manual page and bash completion the build writes from the
# help text (cli/cli_manual.c), read by groff, man and bash (tests/cli_manual.sh).
if(WK_BASH AND TARGET wk_manual)
  add_test(NAME cli.manual
    COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/cli_manual.sh $<TARGET_FILE:wddmkit>
            ${PROJECT_BINARY_DIR}/cli/wddmkit.1 ${PROJECT_BINARY_DIR}/cli/wddmkit.bash
            ${CMAKE_CURRENT_BINARY_DIR}/cli-manual)
  set_tests_properties(cli.manual PROPERTIES LABELS "unit" TIMEOUT 120
    PASS_REGULAR_EXPRESSION "cli_manual: all checks passed")
endif()
