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
#                     entries and TLB lines, counters, a ring; the kit's
#                     runner (wk_gpu_exec_processor): fences, the fault log,
#                     max_commands, 20k random buffers never misbehaving
#   heron.exports     the module exports wk_binding and nothing else
#   heron.driver_packets, heron.bug.<name>
#                     the miniport's BuildPagingBuffer and Patch, called
#                     directly, their packets run by the binding: the clean
#                     driver does what WDDM says; each planted bug
#                     (HERON_BUG_<NAME>) deviates where its rule looks, and
#                     only there
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

  if(COMMAND wk_heron_driver_static)
    foreach(_bug clean fill_byte transfer_offset unmap_dummy patch_addr)
      if(_bug STREQUAL "clean")
        set(_test heron.driver_packets)
        wk_heron_driver_static(heron_driver_${_bug})
        set(_planted "")
      else()
        set(_test heron.bug.${_bug})
        string(TOUPPER ${_bug} _define)
        wk_heron_driver_static(heron_driver_${_bug} HERON_BUG_${_define})
        set(_planted ${_bug})
      endif()
      wk_cmocka_test(test_heron_driver_${_bug} ${_test} 60
        SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_heron_driver_packets.c LIBS heron_driver_${_bug} heron_test_util)
      target_compile_definitions(test_heron_driver_${_bug} PRIVATE "HERON_PLANTED=\"${_planted}\"")
      # As the driver is built: pool tags are multi-character constants,
      # WCHAR is 16 bits.
      target_compile_options(test_heron_driver_${_bug} PRIVATE -Wno-unknown-pragmas -Wno-multichar -fshort-wchar)
    endforeach()
  endif()

  find_program(WK_NM nm)
  if(WK_NM)
    add_test(NAME heron.exports
      COMMAND ${CMAKE_COMMAND} -DNM=${WK_NM} -DMODULE=$<TARGET_FILE:heron_binding> -DONLY=wk_binding
              -P ${CMAKE_CURRENT_LIST_DIR}/module_only_export.cmake)
    set_tests_properties(heron.exports PROPERTIES LABELS "unit" TIMEOUT 60)
  endif()
endif()
