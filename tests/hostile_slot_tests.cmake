# SPDX-License-Identifier: MIT
# tests/hostile_slot_tests.cmake - the shepherd of a -j slot lives across
# cases, and nothing of one case reaches the next (issue 26, item 4;
# tests/hostile_slot.sh): tests/driver_build/slot_leftovers.c built one way
# per WK_TEST_SLOT, every case of specs/smoke.yaml through `conform -j 1`.
foreach(way 1 2)
  wk_add_refwrap_module(wk_test_slot_leftovers_${way} ${CMAKE_CURRENT_LIST_DIR}/driver_build/slot_leftovers.c)
  target_compile_definitions(wk_test_slot_leftovers_${way} PRIVATE WK_TEST_SLOT=${way})
endforeach()
if(WK_BASH)
  function(wk_hostile_slot name mode driver)
    wk_hostile_test(${name} hostile_slot ${mode} ${PROJECT_SOURCE_DIR}/specs/smoke.yaml
                    ${CMAKE_CURRENT_BINARY_DIR}/hostile-${name} ${driver})
  endfunction()
  wk_hostile_slot(slot_leftovers leftovers $<TARGET_FILE:wk_test_slot_leftovers_1>)
  wk_hostile_slot(slot_limits limits $<TARGET_FILE:wk_test_slot_leftovers_2>)
endif()
