# SPDX-License-Identifier: MIT
# tests/heron_binding_tests.cmake - the Heron HR-2 binding
# (examples/gpus/heron/), include()d by tests/CMakeLists.txt. Every part runs
# on a memory system of the test's own (heron_fake_mem.c), reached only
# through wddmkit/processor.h, as the binding reaches the kit's.
#
#   heron.processor   every packet's effect, every fault class with its
#                     offset, the budget, patch slots, 100k random buffers
#   heron.registers   the register file, the ring walk, done/IRQ latching,
#                     garbage rings and descriptors
#   heron.encoder     the binding object, the UMD encoder (its stream
#                     parsed back with heron_umd.h), the disassembler
#   heron.on_model    the same binding on the kit's memory system
#                     (wk_gpu_mem): effects read back with wk_gpu_read, GART
#                     entries and TLB lines, counters, a ring, 20k random
#                     buffers
#   heron.exports     the module exports wk_binding and nothing else
if(TARGET heron_binding_static)
  add_library(heron_test_util STATIC ${CMAKE_CURRENT_LIST_DIR}/heron_fake_mem.c
                                     ${CMAKE_CURRENT_LIST_DIR}/heron_test_util.c)
  target_include_directories(heron_test_util PUBLIC ${CMAKE_CURRENT_LIST_DIR})
  if(WK_CMOCKA_INCLUDE)
    target_include_directories(heron_test_util SYSTEM PUBLIC ${WK_CMOCKA_INCLUDE})
  endif()
  target_link_libraries(heron_test_util PUBLIC heron_binding_static)
  wk_target_warnings(heron_test_util)

  foreach(_part processor registers encoder on_model)
    wk_cmocka_test(test_heron_${_part} heron.${_part} 120
      SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_heron_${_part}.c LIBS heron_test_util gpu_test_util)
  endforeach()

  find_program(WK_NM nm)
  if(WK_NM)
    add_test(NAME heron.exports
      COMMAND ${CMAKE_COMMAND} -DNM=${WK_NM} -DMODULE=$<TARGET_FILE:heron_binding> -DONLY=wk_binding
              -P ${CMAKE_CURRENT_LIST_DIR}/module_only_export.cmake)
    set_tests_properties(heron.exports PROPERTIES LABELS "unit" TIMEOUT 60)
  endif()
endif()
