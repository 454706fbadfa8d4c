# SPDX-License-Identifier: MIT
# tests/prog_dump_tests.cmake - what `wddmkit spec dump` prints and how the
# commands that look a case or a rule up by name answer (include()d at the
# end of tests/CMakeLists.txt, after cmocka is found):
#
#   prog.dump         every field a check compares, stats and paging
#                     operations by their spec words (each read back), no
#                     max without an upper bound, a render record's own
#                     fields only, each step's kind of check (derived:
#                     wk_step_check_kind, the tag of each line)
#                     (tests/test_prog_dump.c)
#   cli.spec_dump_*   --help is usage (exit 0), a glob dumps every match,
#                     a glob matching nothing is exit 2
#   cli.rules_*       an ID or a glob prints the rules' full rows, an
#                     unknown ID is exit 2 and says so
wk_cmocka_test(test_prog_dump prog.dump 60 SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_prog_dump.c LIBS wk_conformance)

# wk_cli_expect (tests/driver_build_tests.cmake, included before this
# file): the exit code and the output, both.

wk_cli_expect(cli.spec_dump_help 0 "^usage: wddmkit spec dump ID\\|GLOB \\[FILE\\|DIR...\\]"
               $<TARGET_FILE:wddmkit> spec dump --help)
# Both cases of the file, one after the other, and nothing else's.
wk_cli_expect(cli.spec_dump_glob 0
               "case paging-fill-discard.distinct-bytes-4k-seg1 .*\n\ncase paging-fill-discard.seg1-fill-8kib "
               $<TARGET_FILE:wddmkit> spec dump "paging-fill-discard.[ds]*-[48]*" ${PROJECT_SOURCE_DIR}/specs)
wk_cli_expect(cli.spec_dump_placement 0
               "\\[contract\\] expect_placement +alloc0 resident=true segment=1 offset=0x1000 \\(choice\\)\n.*\\[choice\\]   expect_stats +stat=paging_op op=fill min=2 max=2"
               $<TARGET_FILE:wddmkit> spec dump paging-fill-discard.distinct-bytes-4k-seg1)
wk_cli_expect(cli.spec_dump_no_match 2 "no case matches 'no-such-area\\.\\*'"
               $<TARGET_FILE:wddmkit> spec dump "no-such-area.*")
wk_cli_expect(cli.rules_by_id 0
               "PAGING-FILL-001\n  checks: +DxgkDdiBuildPagingBuffer\n  rule: +after a Fill.*\n  source: +seed:.*\n  checked in: +reference-impl/vidmm/[a-z_]+\\.c\n  proved by: +vidmm.rules case PAGING-FILL-001"
               $<TARGET_FILE:wddmkit> rules PAGING-FILL-001)
wk_cli_expect(cli.rules_by_glob 0 "SEG-QUERY-001\n.*\nSEG-QUERY-002\n.*\nSEG-QUERY-003\n"
               $<TARGET_FILE:wddmkit> rules "seg-query-*")
wk_cli_expect(cli.rules_unknown 2 "no rule 'NO-SUCH-001'"
               $<TARGET_FILE:wddmkit> rules NO-SUCH-001)

