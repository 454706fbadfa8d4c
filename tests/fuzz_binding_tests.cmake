# SPDX-License-Identifier: MIT
# tests/fuzz_binding_tests.cmake - the driver harnesses with a hardware
# binding (WK_BINDING, fuzz/driver/binding.c): the driver under test's
# adapters run with the binding, its processor executes the driver's
# buffers and the differential compares contents too; a refused binding
# stops the harness at start; a binding's own failure is signed as the
# binding's. include()d by tests/CMakeLists.txt, after the test bindings
# (binding_tests.cmake) and Heron's modules are defined.
#
# fuzz.binding.NAME: a harness's replay binary over corpus folders, with
# the environment ENV (a list of VAR=VALUE); PASS and FAIL are regular
# expressions on its output (FAIL "" for none).
function(wk_fuzz_binding_test name harness env pass fail)
  add_test(NAME fuzz.binding.${name}
    COMMAND ${CMAKE_COMMAND} -E env ${env} $<TARGET_FILE:${harness}_replay> ${ARGN})
  set_tests_properties(fuzz.binding.${name} PROPERTIES LABELS "unit" TIMEOUT 120 PASS_REGULAR_EXPRESSION "${pass}")
  if(fail)
    set_tests_properties(fuzz.binding.${name} PROPERTIES FAIL_REGULAR_EXPRESSION "${fail}")
  endif()
endfunction()

set(_fb_corpus ${PROJECT_SOURCE_DIR}/corpus)
if(TARGET heron_binding AND TARGET wdkstyle_c AND TARGET fuzz_prog_replay AND TARGET fuzz_paging_replay)
  set(_fb_heron WK_BINDING=$<TARGET_FILE:heron_binding>)
  # The correct Heron miniport on its binding: every seed and regression
  # runs (a WDDM 1.3 driver is asked QUERYSEGMENT3 whatever the input
  # says), executed by the binding's processor, with no finding: nothing
  # of Heron's own layout is blamed on it (the regressions
  # heron-layout-*.bin each raised a false finding once).
  foreach(_h prog paging)
    wk_fuzz_binding_test(${_h}_clean fuzz_${_h} "WK_FUZZ_NO_ABORT=1;WK_DRIVER=$<TARGET_FILE:wdkstyle_c>;${_fb_heron}"
      "binding 'heron'.*the binding's processor executes the driver's buffers.*replay: [1-9][0-9]* inputs ran"
      "FINDING|cannot bring up" ${_fb_corpus}/fuzz_${_h}/seeds ${_fb_corpus}/fuzz_${_h}/regressions)
  endforeach()
  # Each planted bug, as fuzz_prog found it by mutation and libFuzzer
  # minimized it (bench/fuzz_binding_bugs.sh; docs/performance.md):
  # the replay on the buggy module with Heron's binding reports the bug's
  # rule; the same input is clean on wdkstyle_c (prog_clean above replays
  # every regression) and passes on the reference (corpus/signatures.tsv).
  foreach(_b fill_byte:PAGING-FILL-001:DxgkDdiBuildPagingBuffer
             transfer_offset:PAGING-TRANSFER-001:DxgkDdiBuildPagingBuffer
             unmap_dummy:PAGING-UNMAP-001:DxgkDdiBuildPagingBuffer
             patch_addr:PATCH-VALUE-001:DxgkDdiPatch)
    string(REPLACE ":" ";" _b ${_b})
    list(GET _b 0 _bug)
    list(GET _b 1 _rule)
    list(GET _b 2 _ddi)
    string(REPLACE "_" "-" _file ${_bug})
    if(TARGET wdkstyle_bug_${_bug})
      wk_fuzz_binding_test(bug_${_bug}_caught fuzz_prog "WK_DRIVER=$<TARGET_FILE:wdkstyle_bug_${_bug}>;${_fb_heron}"
        "signature: ${_rule} in ${_ddi}" "" ${_fb_corpus}/fuzz_prog/regressions/heron-bug-${_file}.bin)
      # `wddmkit repro` runs a program with the binding the environment
      # names (what the campaign's summary prints to reproduce a finding).
      add_test(NAME fuzz.binding.bug_${_bug}_repro
        COMMAND ${CMAKE_COMMAND} -E env ${_fb_heron} $<TARGET_FILE:wddmkit> repro
                ${_fb_corpus}/fuzz_prog/regressions/heron-bug-${_file}.bin --driver $<TARGET_FILE:wdkstyle_bug_${_bug}>)
      set_tests_properties(fuzz.binding.bug_${_bug}_repro PROPERTIES LABELS "unit" TIMEOUT 120
        PASS_REGULAR_EXPRESSION "signature: ${_rule} in ${_ddi}")
    endif()
  endforeach()
  # WK_BINDING=none: no binding, nothing executes the buffers, and a
  # planted semantic bug goes unseen (what the binding is for).
  if(TARGET wdkstyle_bug_fill_byte)
    wk_fuzz_binding_test(none_leaves_bug_unseen fuzz_prog
      "WK_FUZZ_NO_ABORT=1;WK_DRIVER=$<TARGET_FILE:wdkstyle_bug_fill_byte>;WK_BINDING=none"
      "nothing executes its buffers.*replay: [1-9][0-9]* inputs ran" "FINDING|binding 'heron'"
      ${_fb_corpus}/fuzz_prog/seeds)
  endif()
endif()

if(TARGET wk_refdriver AND TARGET wk_test_binding_abi_2 AND TARGET wk_test_binding_crash_exec AND TARGET fuzz_prog_replay)
  # A binding the kit refuses stops the harness before the first input,
  # with the reason, exit 2: never a finding of an input.
  add_test(NAME fuzz.binding.refused_at_start
    COMMAND sh -c "WK_DRIVER='$<TARGET_FILE:wk_refdriver>' WK_BINDING='$<TARGET_FILE:wk_test_binding_abi_2>' \
'$<TARGET_FILE:fuzz_prog_replay>' '${_fb_corpus}/fuzz_prog/seeds' 2>&1; echo \"exit $?\"")
  set_tests_properties(fuzz.binding.refused_at_start PROPERTIES LABELS "unit" TIMEOUT 60
    PASS_REGULAR_EXPRESSION "cannot fuzz with the hardware binding [^:]*wk_test_binding_abi_2.so: binding 'test' 2.0 [^\n]*was built for binding ABI 2; this kit takes ABI 1\nexit 2"
    FAIL_REGULAR_EXPRESSION "FINDING")
  # An encoder that reads past the opaque bytes it was handed (without
  # counting them, so opaque_used cannot tell): the kit hands them with a
  # guard page after them, and the read is the binding's crash.
  if(TARGET wk_test_binding_overread_opaque AND TARGET fuzz_render_replay)
    wk_fuzz_binding_test(encoder_overreads_opaque fuzz_render
      "WK_FUZZ_NO_ABORT=1;WK_DRIVER=$<TARGET_FILE:wk_refdriver>;WK_BINDING=$<TARGET_FILE:wk_test_binding_overread_opaque>"
      "FINDING: the hardware binding failed, not the driver under test.*violation: BIND-CRASH-001: encoder.render of the binding crashed.*signature: BIND-CRASH-001 \\(SIGSEGV\\) in encoder.render"
      "" ${_fb_corpus}/fuzz_render/regressions/heron-bug-umd-skip.bin)
  endif()
  # A binding whose processor crashes: the finding is the binding's, signed
  # with the part that failed, never the driver's.
  wk_fuzz_binding_test(crash_is_the_bindings fuzz_prog
    "WK_FUZZ_NO_ABORT=1;WK_DRIVER=$<TARGET_FILE:wk_refdriver>;WK_BINDING=$<TARGET_FILE:wk_test_binding_crash_exec>"
    "FINDING: the hardware binding failed, not the driver under test.*signature: BIND-CRASH-001 \\(SIGSEGV\\) in processor.exec"
    "" ${_fb_corpus}/fuzz_prog/seeds/eviction-residency.fill-evict-digest.bin)
endif()

# fuzz_render with Heron's binding: the input's records go through the
# binding's encoder into Heron's own UMD stream (raw bytes of the kit's
# format are a skip), so the planted Patch bug is found through Render; the
# correct miniport runs clean. fuzz_patch builds its fixture on the
# binding's adapter and runs clean too.
if(TARGET heron_binding AND TARGET wdkstyle_c AND TARGET fuzz_render_replay AND TARGET fuzz_patch_replay)
  set(_fb_heron WK_BINDING=$<TARGET_FILE:heron_binding>)
  foreach(_h render patch)
    wk_fuzz_binding_test(${_h}_clean fuzz_${_h} "WK_FUZZ_NO_ABORT=1;WK_DRIVER=$<TARGET_FILE:wdkstyle_c>;${_fb_heron}"
      "binding 'heron'.*replay: [1-9][0-9]* inputs ran" "FINDING|cannot build|cannot fuzz"
      ${_fb_corpus}/fuzz_${_h}/seeds ${_fb_corpus}/fuzz_${_h}/regressions)
  endforeach()
  # The planted bug only user mode's bytes reach: Render reads a nonzero
  # Reserved word of Heron's UMD header as bytes to skip, past pCommand. The
  # abstract operations never set that word; the encoder's opaque bytes (the
  # input's user patch entries) do. libFuzzer found it from the seeds in
  # 1361 runs and `wddmkit minimize` reduced it (docs/drivers-for-other-hardware.md);
  # wdkstyle_c refuses the same stream (render_clean above). The word is 0x42434b57:
  # the read lands 1.1 GB past pCommand, in the moat of PROT_NONE address space the
  # kit keeps past every const input (reference-impl/vidmm/guard_input.c), so it is
  # named as a read past the user command buffer on every machine (a CI machine once
  # had memory mapped there, and the input ran clean).
  if(TARGET wdkstyle_bug_umd_skip)
    set(_umd_skip ${_fb_corpus}/fuzz_render/regressions/heron-bug-umd-skip.bin)
    wk_fuzz_binding_test(render_finds_umd_skip fuzz_render
      "WK_DRIVER=$<TARGET_FILE:wdkstyle_bug_umd_skip>;${_fb_heron}"
      "read past the end of the user command buffer.*signature: MEM-GUARD-001 in DxgkDdiRender" "" ${_umd_skip})
    # minimize runs the input as a program through the binding's encoder,
    # the opaque bytes included, and keeps the finding.
    add_test(NAME fuzz.binding.render_minimize
      COMMAND wddmkit minimize ${_umd_skip} --driver $<TARGET_FILE:wdkstyle_bug_umd_skip>
              --binding $<TARGET_FILE:heron_binding> -o ${CMAKE_CURRENT_BINARY_DIR}/umd-skip-min.bin)
    set_tests_properties(fuzz.binding.render_minimize PROPERTIES LABELS "unit" TIMEOUT 300
      PASS_REGULAR_EXPRESSION "signature: fail: MEM-GUARD-001 in DxgkDdiRender.*wrote [^\n]*umd-skip-min.bin")
  endif()
  if(TARGET wdkstyle_bug_patch_addr)
    wk_fuzz_binding_test(render_finds_patch_addr fuzz_render
      "WK_FUZZ_NO_ABORT=1;WK_DRIVER=$<TARGET_FILE:wdkstyle_bug_patch_addr>;${_fb_heron}"
      "signature: PATCH-VALUE-001 in DxgkDdiPatch" "" ${_fb_corpus}/fuzz_render/seeds)
  endif()
endif()

# `wddmkit fuzz --binding PATH` hands the binding to every process of the
# campaign (WK_BINDING) and says so; a path that is no file is refused
# before anything runs.
if(TARGET heron_binding AND TARGET wdkstyle_c)
  add_test(NAME fuzz.binding.cli_dry_run
    COMMAND wddmkit fuzz --harness fuzz_prog --driver $<TARGET_FILE:wdkstyle_c> --binding $<TARGET_FILE:heron_binding>
            --dry-run --build-dir ${CMAKE_BINARY_DIR}/fuzz --out ${CMAKE_CURRENT_BINARY_DIR}/fuzz-binding-dry)
  set_tests_properties(fuzz.binding.cli_dry_run PROPERTIES LABELS "unit" TIMEOUT 60
    PASS_REGULAR_EXPRESSION "driver: +[^\n]*wdkstyle_c.so\nbinding: [^\n]*heron_binding.so\n")
  add_test(NAME fuzz.binding.cli_missing
    COMMAND sh -c "'$<TARGET_FILE:wddmkit>' fuzz --harness fuzz_prog --binding /nonexistent/binding.so --dry-run 2>&1; echo \"exit $?\"")
  set_tests_properties(fuzz.binding.cli_missing PROPERTIES LABELS "unit" TIMEOUT 60
    PASS_REGULAR_EXPRESSION "--binding /nonexistent/binding.so: not a readable file\nexit 2")
endif()
# OtherGPU with its DMA and paging buffers in its GART aperture: every
# fuzz_prog and fuzz_paging seed and regression on one process's kept
# adapters, reset between inputs, with no finding. The GPU's reset emptied
# the GART, and the paging buffer's block, which the kit maps there at
# start, stayed unmapped: from the second input on, each paging buffer
# faulted at its own address and the driver was blamed for the maps it
# carried (176 findings over the fuzz_prog seeds; an outsider's 32-bit GPU
# the same; paging_place_restore).
if(TARGET othergpu_binding AND TARGET othergpu_dma_in_gart AND TARGET fuzz_prog_replay AND TARGET fuzz_paging_replay)
  foreach(_h prog paging)
    wk_fuzz_binding_test(othergpu_gart_${_h}_clean fuzz_${_h}
      "WK_FUZZ_NO_ABORT=1;WK_DRIVER=$<TARGET_FILE:othergpu_dma_in_gart>;WK_BINDING=$<TARGET_FILE:othergpu_binding>"
      "binding 'othergpu'.*replay: [1-9][0-9]* inputs ran" "FINDING|cannot bring up"
      ${_fb_corpus}/fuzz_${_h}/seeds ${_fb_corpus}/fuzz_${_h}/regressions)
  endforeach()
endif()

# A GPU whose address slots are 5 bytes at any byte (an outsider's Finch
# F1: 40-bit addresses at packet offsets 2 and 7): the test binding
# TB_SLOT5 and a driver that patches 5 bytes. fuzz_patch asks the binding
# where its slots are (wk_vidmm_patch_slots), rounds no offset to a dword
# and hands Patch no two entries whose 5-byte slots overlap. The
# regression lists slots at +0 and +4 in a range ending at 11: the kit
# judged only +0 (4 + 8 > 11), the driver wrote both, and the correct
# driver failed PATCH-VALUE-001 ("patch location 0 (+0) holds 0x100100010").
wk_add_refwrap_module(wk_test_patch_five_byte_slots ${CMAKE_CURRENT_LIST_DIR}/driver_build/patch_five_byte_slots.c)
if(TARGET wk_test_binding_slot5 AND TARGET fuzz_patch_replay)
  set(_slot5 "WK_DRIVER=$<TARGET_FILE:wk_test_patch_five_byte_slots>;WK_BINDING=$<TARGET_FILE:wk_test_binding_slot5>")
  wk_fuzz_binding_test(patch_five_byte_slots_overlap fuzz_patch "WK_FUZZ_NO_ABORT=1;${_slot5}"
    "binding 'test'.*replay: 1 inputs ran" "FINDING|cannot build|cannot fuzz"
    ${_fb_corpus}/fuzz_patch/regressions/five-byte-slots-overlap.bin)
  # Every seed and regression too: no finding on the correct driver.
  wk_fuzz_binding_test(patch_five_byte_slots_clean fuzz_patch "WK_FUZZ_NO_ABORT=1;${_slot5}"
    "binding 'test'.*replay: [1-9][0-9]* inputs ran" "FINDING|cannot build|cannot fuzz"
    ${_fb_corpus}/fuzz_patch/seeds ${_fb_corpus}/fuzz_patch/regressions)
  unset(_slot5)
endif()
# The same driver for 12-byte slots (an address and a flags dword it writes
# too), on TB_SLOT12: the kit's Patch checks take the hardware's field, not
# 8 bytes, as what Patch may write (PATCH-CONFINE-001 blamed the flags
# before) and what a Render may list before its buffer's end.
wk_add_refwrap_module(wk_test_patch_twelve_byte_slots ${CMAKE_CURRENT_LIST_DIR}/driver_build/patch_five_byte_slots.c)
target_compile_definitions(wk_test_patch_twelve_byte_slots PRIVATE SLOT_BYTES=12u)
if(TARGET wk_test_binding_slot12 AND TARGET fuzz_patch_replay)
  wk_fuzz_binding_test(patch_twelve_byte_slots_clean fuzz_patch
    "WK_FUZZ_NO_ABORT=1;WK_DRIVER=$<TARGET_FILE:wk_test_patch_twelve_byte_slots>;WK_BINDING=$<TARGET_FILE:wk_test_binding_slot12>"
    "binding 'test'.*replay: [1-9][0-9]* inputs ran" "FINDING|cannot build|cannot fuzz"
    ${_fb_corpus}/fuzz_patch/seeds ${_fb_corpus}/fuzz_patch/regressions)
endif()

# The inputs fuzz_render skips before the driver with Heron's binding
# (raw bytes of the kit's format, operations its encoder cannot say) are
# counted, by the replay and in a campaign's summary (tests/fuzz_reach.sh).
find_program(WK_BASH bash)
if(WK_BASH AND TARGET heron_binding AND TARGET wdkstyle_c AND TARGET fuzz_render_replay)
  add_test(NAME fuzz.binding.reach_counted
    COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/fuzz_reach.sh $<TARGET_FILE:wddmkit> $<TARGET_FILE:fuzz_render_replay>
            $<TARGET_FILE:wdkstyle_c> $<TARGET_FILE:heron_binding> ${PROJECT_SOURCE_DIR}
            ${CMAKE_CURRENT_BINARY_DIR}/fuzz-reach)
  set_tests_properties(fuzz.binding.reach_counted PROPERTIES LABELS "unit" TIMEOUT 120
    PASS_REGULAR_EXPRESSION "fuzz_reach: all checks passed")
endif()
unset(_fb_corpus)
unset(_fb_heron)
