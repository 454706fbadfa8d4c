# SPDX-License-Identifier: MIT
# tests/wdkstyle_tests.cmake - the Heron HR-2 miniport
# (examples/drivers/wdkstyle/: WDK-style C, one set of sources built as C11,
# wdkstyle_c, and as C++17, wdkstyle_cxx), include()d by tests/CMakeLists.txt.
# Each test checks the exit code and the output
# (examples/drivers/expect_run.cmake).
#
#   wdkstyle.conform_{c,cxx}       the suite, contract profile, --gpu auto
#       decides none: exit 0, contract checks run, semantic skipped, no
#       failure;
#   wdkstyle.driver_check_{c,cxx}  `wddmkit driver check`: the module loads
#       and exports DriverEntry;
#   wdkstyle.registry_{c,cxx}      the driver's own spec
#       (examples/drivers/wdkstyle/specs/registry.yaml) in the reference
#       profile: its settings come from the case's registry: map, with
#       defaults when absent, of the wrong type or out of range;
#   wdkstyle.conform_binding_{c,cxx}  the suite with Heron's binding: the
#       semantic and encoder checks run, all as expected
#   wdkstyle.bug_<name>_caught     each planted bug fails with its rule, and
#       only that rule, once the binding runs the driver's buffers
#   wdkstyle.aperture_binding, wdkstyle.bug_unmap_dummy_aperture  the
#       aperture and multipass specs with the binding, counts pinned: the
#       kit writes their monitored fences itself for this WDDM 1.3 driver
#   wdkstyle.bug_<name>_unseen     each planted bug (wdkstyle_bug_<name>,
#       HERON_BUG_<NAME>) passes the suite without a binding: the bugs are
#       semantic, seen only by running the driver's buffers (heron.bug.<name>
#       runs them on the binding's processor).
if(TARGET wdkstyle_c AND TARGET wdkstyle_cxx)
  set(_wdk_expect ${PROJECT_SOURCE_DIR}/examples/drivers/expect_run.cmake)
  function(wk_wdkstyle_test name code regex) # ARGN: the wddmkit arguments
    add_test(NAME wdkstyle.${name}
      COMMAND ${CMAKE_COMMAND} -DEXPECT=${code} "-DREGEX=${regex}"
              "-DCOMMAND=$<TARGET_FILE:wddmkit>;${ARGN}" -P ${_wdk_expect})
    set_tests_properties(wdkstyle.${name} PROPERTIES LABELS "conform;unit" TIMEOUT 300)
  endfunction()
  foreach(_lang c cxx)
    set(_module $<TARGET_FILE:wdkstyle_${_lang}>)
    wk_wdkstyle_test(conform_${_lang} 0
      "gpu: +none: nothing executes the driver's buffers \\(the driver does not declare WK_DRIVER_TARGETS_GPU_MODEL\\).*contract +[1-9][0-9]* run.*semantic +0 run, [1-9][0-9]* skipped: nothing executes the driver's buffers.*[1-9][0-9]* pass, [0-9]+ skip[^a-z]+RESULT: all as expected"
      conform -j 2 --quiet --driver ${_module})
    wk_wdkstyle_test(driver_check_${_lang} 0
      "wdkstyle_${_lang}.so: loads into this build and exports DriverEntry"
      driver check ${_module})
    wk_wdkstyle_test(registry_${_lang} 0
      "choice +5 run.*5 of 5 cases in [0-9.]+ s: 5 pass[^a-z]+RESULT: all as expected"
      conform --quiet --profile reference --driver ${_module}
      ${PROJECT_SOURCE_DIR}/examples/drivers/wdkstyle/specs/registry.yaml)
  endforeach()
  foreach(_bug fill_byte transfer_offset unmap_dummy patch_addr umd_skip)
    if(TARGET wdkstyle_bug_${_bug})
      wk_wdkstyle_test(bug_${_bug}_unseen 0
        "semantic +0 run, [1-9][0-9]* skipped: nothing executes the driver's buffers.*[1-9][0-9]* pass, [0-9]+ skip[^a-z]+RESULT: all as expected"
        conform -j 2 --quiet --driver $<TARGET_FILE:wdkstyle_bug_${_bug}>)
    endif()
  endforeach()
  # With Heron's binding (examples/gpus/heron/): its processor runs the
  # driver's buffers, its register model takes the doorbell and raises the
  # line, its encoder writes Heron's UMD stream; the whole suite passes with
  # the semantic and encoder checks run (the skips are the adapter roles
  # Heron lacks and what its UMD cannot say). Each planted bug then fails,
  # with its rule and no other.
  if(TARGET heron_binding)
    set(_binding $<TARGET_FILE:heron_binding>)
    foreach(_lang c cxx)
      wk_wdkstyle_test(conform_binding_${_lang} 0
        "binding: binding 'heron' 1.0, binding ABI 1: .*gpu: +the binding's processor executes the driver's buffers.*semantic +[1-9][0-9]* run.*encoder +[1-9][0-9]* run.*[1-9][0-9]* pass, [0-9]+ skip[^a-z]+RESULT: all as expected"
        conform -j 2 --quiet --driver $<TARGET_FILE:wdkstyle_${_lang}> --binding ${_binding})
    endforeach()
    foreach(_pair fill_byte:PAGING-FILL-001 transfer_offset:PAGING-TRANSFER-001 unmap_dummy:PAGING-UNMAP-001
                  patch_addr:PATCH-VALUE-001)
      string(REPLACE ":" ";" _pair ${_pair})
      list(GET _pair 0 _bug)
      list(GET _pair 1 _rule)
      if(TARGET wdkstyle_bug_${_bug})
        wk_wdkstyle_test(bug_${_bug}_caught 1
          "unexpected results by rule:[ \n]+[1-9][0-9]* +${_rule}\n\n"
          conform -j 2 --quiet --driver $<TARGET_FILE:wdkstyle_bug_${_bug}> --binding ${_binding})
      endif()
    endforeach()
    # Heron's driver is WDDM 1.3: the kit writes the aperture cases'
    # monitored fences itself, through the binding's GART (SIGNAL_MONITORED_FENCE
    # is WDDM 2.2's), so paging-aperture and multipass run on it (27 pass
    # and 64 skips before), and its UNMAP bug fails 37 of them (6 before).
    set(_aperture_specs ${PROJECT_SOURCE_DIR}/specs/paging-aperture.yaml ${PROJECT_SOURCE_DIR}/specs/multipass.yaml)
    wk_wdkstyle_test(aperture_binding 0
      "93 of 93 cases in [0-9.]+ s: 59 pass, 34 skip\nRESULT: all as expected"
      conform -j 2 --quiet --driver $<TARGET_FILE:wdkstyle_c> --binding ${_binding} ${_aperture_specs})
    if(TARGET wdkstyle_bug_unmap_dummy)
      wk_wdkstyle_test(bug_unmap_dummy_aperture 1
        "unexpected results by rule:[ \n]+37 +PAGING-UNMAP-001\n.*93 of 93 cases in [0-9.]+ s: 22 pass, 37 fail, 34 skip"
        conform -j 2 --quiet --driver $<TARGET_FILE:wdkstyle_bug_unmap_dummy> --binding ${_binding} ${_aperture_specs})
    endif()
    # The bug only user mode's bytes reach (a header word no case sets):
    # the suite passes it with the binding too; fuzz_render finds it
    # (fuzz.binding.render_finds_umd_skip).
    if(TARGET wdkstyle_bug_umd_skip)
      wk_wdkstyle_test(bug_umd_skip_suite_passes 0
        "semantic +[1-9][0-9]* run.*encoder +[1-9][0-9]* run.*[1-9][0-9]* pass, [0-9]+ skip[^a-z]+RESULT: all as expected"
        conform -j 2 --quiet --driver $<TARGET_FILE:wdkstyle_bug_umd_skip> --binding ${_binding})
    endif()
    # repro with the binding runs the driver's buffers too; --binding none
    # judges the contract only, and the planted bug passes.
    if(TARGET wdkstyle_bug_fill_byte)
      set(_seed ${PROJECT_SOURCE_DIR}/corpus/fuzz_prog/seeds/eviction-residency.discard-refill-wrong-pattern.bin)
      wk_wdkstyle_test(repro_binding 1 "signature: PAGING-FILL-001 in DxgkDdiBuildPagingBuffer"
        repro ${_seed} --driver $<TARGET_FILE:wdkstyle_bug_fill_byte> --binding ${_binding})
      wk_wdkstyle_test(repro_binding_none 0 "result: pass"
        repro ${_seed} --driver $<TARGET_FILE:wdkstyle_bug_fill_byte> --binding none)
    endif()
  endif()
endif()
