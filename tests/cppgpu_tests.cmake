# SPDX-License-Identifier: MIT
# tests/cppgpu_tests.cmake - the C++ driver for other hardware
# (examples/drivers/cppgpu/: Lattice's own packets and segments, classes
# allocated with wddmkit/kmcpp.h, -fno-exceptions -fno-rtti), include()d by
# tests/CMakeLists.txt. Exit code and output are both checked
# (examples/drivers/expect_run.cmake).
#
#   cppgpu.conform       contract profile, --gpu auto decides none and
#       --umd auto kit (its Render reads the kit's user-mode format and it
#       says so, WK_DRIVER_READS_KIT_UMD): exit 0, contract and encoder
#       checks run, semantic 0 run and some skipped, every case a pass or a
#       skip (KIT-FINDINGS.md: what the kit held against it);
#   cppgpu.driver_check  `wddmkit driver check`: it loads, exports
#       DriverEntry, interface version 0x8001 and no DDI the kit never calls;
#   cppgpu.exports       it exports no operator new or
#       delete (kmcpp.h keeps them hidden, tests/module_exports.cmake).
if(TARGET cppgpu_driver)
  set(_cg_expect ${PROJECT_SOURCE_DIR}/examples/drivers/expect_run.cmake)
  add_test(NAME cppgpu.conform
    COMMAND ${CMAKE_COMMAND} -DEXPECT=0
            "-DREGEX=gpu: +none: nothing executes the driver's buffers \\(the driver does not declare WK_DRIVER_TARGETS_GPU_MODEL\\).*umd: +kit: its Render reads the kit's user-mode format \\(the driver declares WK_DRIVER_READS_KIT_UMD\\).*contract +[1-9][0-9]* run.*semantic +0 run, [1-9][0-9]* skipped: nothing executes the driver's buffers.*encoder +[1-9][0-9]* run.*[1-9][0-9]* pass, [0-9]+ skip[^a-z]+RESULT: all as expected"
            "-DCOMMAND=$<TARGET_FILE:wddmkit>;conform;-j;2;--quiet;--driver;$<TARGET_FILE:cppgpu_driver>"
            -P ${_cg_expect})
  # --umd none overrides the marker: the render cases are skipped again.
  add_test(NAME cppgpu.umd_none
    COMMAND ${CMAKE_COMMAND} -DEXPECT=0
            "-DREGEX=umd: +none \\(given with --umd\\).*encoder +0 run, [1-9][0-9]* skipped: the case hands the driver the kit's own UMD format.*RESULT: all as expected"
            "-DCOMMAND=$<TARGET_FILE:wddmkit>;conform;-j;2;--quiet;--umd;none;--filter;render.*;--driver;$<TARGET_FILE:cppgpu_driver>"
            -P ${_cg_expect})
  set_tests_properties(cppgpu.umd_none PROPERTIES LABELS "conform;unit" TIMEOUT 300)
  add_test(NAME cppgpu.driver_check
    COMMAND ${CMAKE_COMMAND} -DEXPECT=0
            "-DREGEX=loads into this build and exports DriverEntry.*interface version 0x8001"
            "-DCOMMAND=$<TARGET_FILE:wddmkit>;driver;check;$<TARGET_FILE:cppgpu_driver>"
            -P ${_cg_expect})
  add_test(NAME cppgpu.exports
    COMMAND ${CMAKE_COMMAND} -DNM=${CMAKE_NM} -DMODULE=$<TARGET_FILE:cppgpu_driver>
            -P ${CMAKE_CURRENT_LIST_DIR}/module_exports.cmake)
  set_tests_properties(cppgpu.conform PROPERTIES LABELS "conform;unit" TIMEOUT 300)
  set_tests_properties(cppgpu.driver_check PROPERTIES LABELS "unit" TIMEOUT 60)
  set_tests_properties(cppgpu.exports PROPERTIES LABELS "unit" TIMEOUT 60
    PASS_REGULAR_EXPRESSION "module_exports: no operator new or delete exported")
endif()
