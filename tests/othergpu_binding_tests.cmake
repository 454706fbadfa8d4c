# SPDX-License-Identifier: MIT
# tests/othergpu_binding_tests.cmake - the OtherGPU binding
# (examples/gpus/othergpu/), include()d by tests/CMakeLists.txt. The unit
# tests run every part on a memory system of the test's own
# (heron_fake_mem.c: written against wddmkit/processor.h alone), as the
# binding reaches the kit's; the conform runs hold the driver to the suite
# with the binding (examples/drivers/expect_run.cmake checks exit code and
# output together).
#
#   othergpu_binding.processor   every record's effect, every fault with its
#                                class and offset, the pair latches, the
#                                budget, patch slots, 100k random buffers
#   othergpu_binding.encoder     the binding object, the UMD encoder (its
#                                buffer parsed back with othergpu_umd.h), the
#                                disassembler
#   othergpu_binding.on_model    the same binding on the kit's memory system
#                                through the kit's runner: effects, GART and
#                                TLB, counters, the fault log, 20k random
#                                buffers never misbehaving
#   othergpu_binding.driver_records  the miniport's BuildPagingBuffer and
#                                Patch, called directly, their records run by
#                                the binding: each operation does what WDDM
#                                says, multipass included
#   othergpu_binding.exports     the module exports wk_binding and nothing else
#   othergpu_binding.conform     the suite with the binding (contract profile):
#                                semantic and encoder checks run, all as
#                                expected (OUTSIDER-NOTES.md has the counts)
#   othergpu_binding.conform_none  the same driver with --binding none: the
#                                contract checks only, the semantic ones skipped
#   othergpu_binding.bug_<name>  each planted bug (othergpu_bug_<name>) with
#                                the binding trips the rule it trips without
#                                one, and no other; patch_offset only in the
#                                stress profile, render_outputs (a choice)
#                                only in the reference profile, where the
#                                binding makes Render run at all
#   othergpu_binding.dma_in_gart the variant whose paging buffer asks for the
#                                GART: the kit places it there for an
#                                executing binding too (its GART entries
#                                written first), and the variant passes as
#                                the plain driver does
#   othergpu_binding.dma_too_large the variant asking for DMA buffers larger
#                                than the case's aperture: skipped where the
#                                kit's memory cannot hold them, never failed
if(TARGET othergpu_binding_static)
  add_library(othergpu_test_util STATIC ${CMAKE_CURRENT_LIST_DIR}/heron_fake_mem.c
                                        ${CMAKE_CURRENT_LIST_DIR}/othergpu_test_util.c)
  target_include_directories(othergpu_test_util PUBLIC ${CMAKE_CURRENT_LIST_DIR})
  if(WK_CMOCKA_INCLUDE)
    target_include_directories(othergpu_test_util SYSTEM PUBLIC ${WK_CMOCKA_INCLUDE})
  endif()
  target_link_libraries(othergpu_test_util PUBLIC othergpu_binding_static)
  wk_target_warnings(othergpu_test_util)

  foreach(_part processor encoder)
    wk_cmocka_test(test_othergpu_${_part} othergpu_binding.${_part} 120
      SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_othergpu_${_part}.c LIBS othergpu_test_util)
  endforeach()
  wk_cmocka_test(test_othergpu_on_model othergpu_binding.on_model 120
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_othergpu_on_model.c LIBS othergpu_test_util gpu_test_util)

  # The driver's paging and patch code as a static library, built from its
  # sources as its module is (examples/drivers/othergpu/CMakeLists.txt).
  set(_og_driver_dir ${PROJECT_SOURCE_DIR}/examples/drivers/othergpu)
  add_library(othergpu_driver_records STATIC ${_og_driver_dir}/commands.c ${_og_driver_dir}/paging.c
                                             ${_og_driver_dir}/submit.c)
  target_include_directories(othergpu_driver_records PUBLIC ${_og_driver_dir} ${PROJECT_SOURCE_DIR}/include)
  wk_target_warnings(othergpu_driver_records)
  wk_cmocka_test(test_othergpu_driver_records othergpu_binding.driver_records 60
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_othergpu_driver_records.c LIBS othergpu_driver_records othergpu_test_util)

  find_program(WK_NM nm)
  if(WK_NM)
    add_test(NAME othergpu_binding.exports
      COMMAND ${CMAKE_COMMAND} -DNM=${WK_NM} -DMODULE=$<TARGET_FILE:othergpu_binding> -DONLY=wk_binding
              -P ${CMAKE_CURRENT_LIST_DIR}/module_only_export.cmake)
    set_tests_properties(othergpu_binding.exports PROPERTIES LABELS "unit" TIMEOUT 60)
  endif()
endif()

if(TARGET othergpu_binding AND TARGET othergpu_driver)
  set(_ogb_expect ${PROJECT_SOURCE_DIR}/examples/drivers/expect_run.cmake)
  set(_ogb_binding $<TARGET_FILE:othergpu_binding>)
  # wk_othergpu_binding_test(name target binding code regex [conform args...])
  function(wk_othergpu_binding_test name target binding code regex)
    add_test(NAME othergpu_binding.${name}
      COMMAND ${CMAKE_COMMAND} -DEXPECT=${code} "-DREGEX=${regex}"
              "-DCOMMAND=$<TARGET_FILE:wddmkit>;conform;-j;2;--quiet;--driver;$<TARGET_FILE:${target}>;--binding;${binding};${ARGN}"
              -P ${_ogb_expect})
    set_tests_properties(othergpu_binding.${name} PROPERTIES LABELS "conform;unit" TIMEOUT 300)
  endfunction()
  # Counts of cases change as specs are added (docs/drivers-for-other-hardware.md
  # keeps the measured ones): the tests pin what must hold, no failure, the
  # checks that must run, and each bug's rule alone.
  wk_othergpu_binding_test(conform othergpu_driver ${_ogb_binding} 0
    "binding: binding 'othergpu' 1.0, binding ABI 1: .*gpu: +the binding's processor executes the driver's buffers.*umd: +the binding's encoder writes the driver's own user-mode formats.*semantic +[1-9][0-9]* run.*encoder +[1-9][0-9]* run.*[0-9]+ of [0-9]+ cases in [0-9.]+ s: [1-9][0-9]* pass, [0-9]+ skip[^a-z]+RESULT: all as expected")
  wk_othergpu_binding_test(conform_none othergpu_driver none 0
    "semantic +0 run, [1-9][0-9]* skipped: nothing executes the driver's buffers.*[0-9]+ of [0-9]+ cases in [0-9.]+ s: [1-9][0-9]* pass, [0-9]+ skip[^a-z]+RESULT: all as expected")
  if(TARGET othergpu_bug_paging_stall)
    wk_othergpu_binding_test(bug_paging_stall othergpu_bug_paging_stall ${_ogb_binding} 1
      "unexpected results by rule:[ \n]+[1-9][0-9]* +PAGING-PROGRESS-001\n\n")
    wk_othergpu_binding_test(bug_commit_limit othergpu_bug_commit_limit ${_ogb_binding} 1
      "unexpected results by rule:[ \n]+[1-9][0-9]* +SEG-COMMIT-001\n\n")
    wk_othergpu_binding_test(bug_patch_offset othergpu_bug_patch_offset ${_ogb_binding} 1
      "fail regressions.buggy-patch-offset[^a-z]+rule: +PATCH-CONFINE-001.*fail smoke.patch-direct[^a-z]+rule: +PATCH-CONFINE-001.*[1-9][0-9]* pass, 2 fail, [0-9]+ skip[^a-z]+RESULT: UNEXPECTED RESULTS"
      --profile stress)
    wk_othergpu_binding_test(bug_render_outputs othergpu_bug_render_outputs ${_ogb_binding} 0
      "[1-9][0-9]* pass, [0-9]+ skip[^a-z]+RESULT: all as expected")
    wk_othergpu_binding_test(bug_render_outputs_reference othergpu_bug_render_outputs ${_ogb_binding} 1
      "fail render[.][^\n]+\n +rule: +RENDER-FAIL-001.*fail render[.][^\n]+\n +rule: +RENDER-FAIL-001.*RESULT: UNEXPECTED RESULTS"
      --profile reference --filter "render.*")
    wk_othergpu_binding_test(dma_in_gart othergpu_dma_in_gart ${_ogb_binding} 0
      "semantic +[1-9][0-9]* run.*[1-9][0-9]* pass, [0-9]+ skip[^a-z]+RESULT: all as expected")
    wk_othergpu_binding_test(dma_too_large othergpu_dma_too_large ${_ogb_binding} 0
      "[1-9][0-9]* pass, [0-9]+ skip[^a-z]+RESULT: all as expected")
  endif()
endif()
