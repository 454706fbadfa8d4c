# SPDX-License-Identifier: MIT
# tests/driver_build_tests.cmake - `wddmkit driver check` and the hand-over
# of repro/minimize/promote/triage/conform to a build that can load their
# --driver (cli/hand_over.c), checked by
# tests/driver_build.sh with two modules: one that needs a symbol only an
# instrumentation runtime defines, one whose constructor aborts. A third,
# whose DriverEntry fails, serves tests/test_fuzztools.c; a fourth loads
# but has no DriverEntry; two more hang, in a constructor and in
# DriverEntry. Then the setup errors of conform's --driver and of repro's
# FILE.
foreach(m needs_runtime crashing_ctor entry_fails no_entry hanging_ctor hanging_entry)
  add_library(wk_test_${m} MODULE ${CMAKE_CURRENT_LIST_DIR}/driver_build/${m}.c)
  target_include_directories(wk_test_${m} PRIVATE ${PROJECT_SOURCE_DIR}/include)
  set_target_properties(wk_test_${m} PROPERTIES PREFIX "" POSITION_INDEPENDENT_CODE ON)
  wk_target_warnings(wk_test_${m})
endforeach()
# Two modules of other driver ABIs (driver_build/other_abi.c): ABI 1, the
# kit's table layouts before the Windows ones, and a future 4.
foreach(abi 1 4)
  add_library(wk_test_abi${abi} MODULE ${CMAKE_CURRENT_LIST_DIR}/driver_build/other_abi.c)
  target_include_directories(wk_test_abi${abi} PRIVATE ${PROJECT_SOURCE_DIR}/include)
  target_compile_definitions(wk_test_abi${abi} PRIVATE WK_TEST_ABI=${abi})
  set_target_properties(wk_test_abi${abi} PROPERTIES PREFIX "" POSITION_INDEPENDENT_CODE ON)
  wk_target_warnings(wk_test_abi${abi})
endforeach()
find_program(WK_BASH bash)
if(WK_BASH AND TARGET fuzz_render_replay)
  add_test(NAME cli.driver_build
    COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/driver_build.sh $<TARGET_FILE:wddmkit>
            $<TARGET_FILE:wk_test_needs_runtime> $<TARGET_FILE:wk_test_crashing_ctor> $<TARGET_FILE:wk_refdriver>
            $<TARGET_FILE:fuzz_render_replay> ${CMAKE_CURRENT_BINARY_DIR}/driver-build)
  set_tests_properties(cli.driver_build PROPERTIES LABELS "unit" TIMEOUT 120
    PASS_REGULAR_EXPRESSION "driver_build: all checks passed")
endif()

# A --driver that does not load stops conform before the first case (it
# ran all 561, each an error or a failure), with the loader's reason; a
# folder where repro expects one input file says so. Exit code and output
# both checked (examples/drivers/expect_run.cmake).
set(_expect_run ${PROJECT_SOURCE_DIR}/examples/drivers/expect_run.cmake)
function(wk_cli_expect name code regex)
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} -DEXPECT=${code} "-DREGEX=${regex}" "-DCOMMAND=${ARGN}"
           -P ${_expect_run})
  set_tests_properties(${name} PROPERTIES LABELS "unit" TIMEOUT 60)
endfunction()
wk_cli_expect(cli.conform_driver_missing 2 "--driver [^ ]*no-such-driver.so: .*No such file or directory"
              $<TARGET_FILE:wddmkit> conform --driver ${CMAKE_CURRENT_BINARY_DIR}/no-such-driver.so)
wk_cli_expect(cli.conform_driver_crashing_ctor 2 "crashed while loading"
              $<TARGET_FILE:wddmkit> conform --driver $<TARGET_FILE:wk_test_crashing_ctor>)
# A DriverEntry that crashes, or ends the process with status 0
# (driver_build/entry_ends.c): said to happen in DriverEntry, never "loads".
foreach(way 1 2)
  add_library(wk_test_entry_ends${way} MODULE ${CMAKE_CURRENT_LIST_DIR}/driver_build/entry_ends.c)
  target_include_directories(wk_test_entry_ends${way} PRIVATE ${PROJECT_SOURCE_DIR}/include)
  target_compile_definitions(wk_test_entry_ends${way} PRIVATE WK_TEST_ENTRY_ENDS=${way})
  set_target_properties(wk_test_entry_ends${way} PROPERTIES PREFIX "" POSITION_INDEPENDENT_CODE ON)
  wk_target_warnings(wk_test_entry_ends${way})
endforeach()
# (under ASan, its handler reports the SIGSEGV and exits 1, or aborts
# under the asan test preset's abort_on_error=1)
wk_cli_expect(cli.hostile_entry_crash 3 "entry_ends1.so (crashed in DriverEntry \\(signal (11|6)|ended the process in DriverEntry \\(exit code 1\\): AddressSanitizer)"
              $<TARGET_FILE:wddmkit> driver check $<TARGET_FILE:wk_test_entry_ends1>)
wk_cli_expect(cli.hostile_entry_exit 3 "entry_ends2.so ended the process in DriverEntry \\(exit code 0\\)"
              $<TARGET_FILE:wddmkit> driver check $<TARGET_FILE:wk_test_entry_ends2>)
# A module whose constructor or DriverEntry never returns (driver_build/
# hanging_ctor.c, hanging_entry.c): loading gets a DDI call's time (5 s;
# here --load-timeout 0.5, so that each test takes a second at most), then
# DRV-HANG-001 says where it hung and after how long, with the exit code of
# a module that cannot be loaded. The TIMEOUT makes a regression fail, not
# hang CI.
set(_hang_regex "DRV-HANG-001: [^ ]*hanging_")
set(_hang_within "within 500 ms [(]--load-timeout[)]")
foreach(m hanging_ctor hanging_entry)
  set(_where "hung while loading")
  if(m STREQUAL "hanging_entry")
    set(_where "hung in DriverEntry")
  endif()
  wk_cli_expect(cli.driver_check_${m} 3 "${_hang_regex}[a-z]+.so ${_where}: .* ${_hang_within}"
                $<TARGET_FILE:wddmkit> driver check --load-timeout 0.5 $<TARGET_FILE:wk_test_${m}>)
  wk_cli_expect(cli.conform_driver_${m} 2 "--driver [^ ]*: ${_hang_regex}[a-z]+.so ${_where}: .* ${_hang_within}"
                $<TARGET_FILE:wddmkit> conform --driver $<TARGET_FILE:wk_test_${m}> --load-timeout=0.5)
  wk_cli_expect(cli.repro_driver_${m} 2 "--driver [^ ]*: ${_hang_regex}[a-z]+.so ${_where}: .* ${_hang_within}"
                $<TARGET_FILE:wddmkit> repro --load-timeout 0.5 ${PROJECT_SOURCE_DIR}/corpus/fuzz_prog/seeds/adapter-start.aperture-only.bin
                --driver $<TARGET_FILE:wk_test_${m}>)
  set_tests_properties(cli.driver_check_${m} cli.conform_driver_${m} cli.repro_driver_${m} PROPERTIES TIMEOUT 4)
endforeach()
# An intermittent crash (driver_build/crash_once.c: the case process dies
# on the first run, the rerun passes) fails the run unless the expectations
# file lists the flake; JUnit says <failure type="flake"> or <flakyFailure>
# (tests/conform_flake.sh).
wk_add_refwrap_module(wk_test_crash_once ${CMAKE_CURRENT_LIST_DIR}/driver_build/crash_once.c)
if(WK_BASH)
  add_test(NAME conform.flake_fails_unless_listed
    COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/conform_flake.sh $<TARGET_FILE:wddmkit>
            $<TARGET_FILE:wk_test_crash_once> ${PROJECT_SOURCE_DIR}/specs/smoke.yaml smoke.objects
            ${CMAKE_CURRENT_BINARY_DIR}/conform-flake)
  set_tests_properties(conform.flake_fails_unless_listed PROPERTIES LABELS "unit" TIMEOUT 60
    PASS_REGULAR_EXPRESSION "conform_flake: all checks passed")
endif()
# ... and nothing the constructor started outlives the command
# (tests/driver_hang.sh: a helper process that writes its pid).
if(WK_BASH)
  add_test(NAME cli.driver_hang_leaves_nothing
    COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/driver_hang.sh $<TARGET_FILE:wddmkit>
            $<TARGET_FILE:wk_test_hanging_ctor> ${CMAKE_CURRENT_BINARY_DIR}/driver-hang)
  set_tests_properties(cli.driver_hang_leaves_nothing PROPERTIES LABELS "unit" TIMEOUT 8
    PASS_REGULAR_EXPRESSION "driver_hang: all checks passed")
endif()

wk_cli_expect(cli.repro_folder 2 "a folder, where a file was expected"
              $<TARGET_FILE:wddmkit> repro ${PROJECT_SOURCE_DIR}/corpus/fuzz_prog/seeds)
# wddmkit fuzz with a --driver that is not there says so, not that no
# build loads it (it asked every build first and blamed sanitizers).
wk_cli_expect(cli.fuzz_driver_missing 2 "--driver [^ ]*no-such-driver.so: not a readable file"
              ${CMAKE_COMMAND} -E env --unset=WK_DRIVER
              $<TARGET_FILE:wddmkit> fuzz --harness fuzz_render --driver ${CMAKE_CURRENT_BINARY_DIR}/no-such-driver.so)

# A shared object that loads but exports no DriverEntry (a system library
# given by mistake): the harness refuses it before its first input, exit 2
# with the reason (it aborted at the first input, a "crash" libFuzzer kept
# a file for), and repro calls that an error.
if(TARGET fuzz_render_replay)
  wk_cli_expect(fuzz.driver_without_entry 2 "WK_DRIVER=[^ ]*no_entry[^ ]*\\): it loads but exports no DriverEntry"
                ${CMAKE_COMMAND} -E env WK_DRIVER=$<TARGET_FILE:wk_test_no_entry>
                $<TARGET_FILE:fuzz_render_replay> ${PROJECT_SOURCE_DIR}/corpus/fuzz_render/seeds)
  wk_cli_expect(cli.repro_driver_without_entry 2 "result: error \\(exit 2\\).*exports no DriverEntry"
                $<TARGET_FILE:wddmkit> repro ${PROJECT_SOURCE_DIR}/corpus/fuzz_render/regressions/buggy-render-index-render.bin
                --harness fuzz_render --driver $<TARGET_FILE:wk_test_no_entry>)
endif()

# The replay binaries tear their adapters down after the last input, so a
# run always calls the driver's destroy DDIs (coverage counted them only
# when an input forced a rebuild), and a teardown that breaks a rule is a
# finding (tests/fuzz_teardown.sh, with a driver that prints each teardown
# DDI it is given).
wk_add_refwrap_module(wk_test_teardown_probe ${CMAKE_CURRENT_LIST_DIR}/driver_build/teardown_probe.c)
# Two render drivers built like the planted-bug drivers (ASan + UBSan in the
# sanitized presets, fuzzer coverage in the engine presets): the render-index
# bug as a read through a NULL table entry, which the kit reports with a
# signal class (tests/test_fuzztools.c: repro, triage and minimize agree on
# its signature), and buggy_render_index's bug plus a second one only a
# mutation finds (tests/fuzz_known.sh; docs/fuzzing.md, "Known signatures").
foreach(m render_index_table render_two_bugs)
  wk_add_refwrap_module(wk_test_${m} ${CMAKE_CURRENT_LIST_DIR}/driver_build/${m}.c)
endforeach()

if(WK_BASH AND TARGET fuzz_render_replay AND TARGET fuzz_paging_replay)
  add_test(NAME fuzz.teardown_at_exit
    COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/fuzz_teardown.sh $<TARGET_FILE:fuzz_render_replay>
            $<TARGET_FILE:fuzz_paging_replay> $<TARGET_FILE:wk_test_teardown_probe>
            ${CMAKE_CURRENT_BINARY_DIR}/fuzz-teardown)
  set_tests_properties(fuzz.teardown_at_exit PROPERTIES LABELS "unit" TIMEOUT 120
    PASS_REGULAR_EXPRESSION "fuzz_teardown: all checks passed")
endif()

# `wddmkit fuzz --driver X` that no build loads: each build tried and its
# loader's reason; a preset to build only when it is not built
# (tests/fuzz_driver_refused.sh, stand-in builds with this wddmkit).
if(WK_BASH)
  add_test(NAME cli.fuzz_driver_refused_reasons
    COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/fuzz_driver_refused.sh $<TARGET_FILE:wddmkit>
            $<TARGET_FILE:wk_test_no_entry> ${CMAKE_CURRENT_BINARY_DIR}/fuzz-driver-refused)
  set_tests_properties(cli.fuzz_driver_refused_reasons PROPERTIES LABELS "unit" TIMEOUT 60
    PASS_REGULAR_EXPRESSION "fuzz_driver_refused: all checks passed")
endif()

# What `wddmkit fuzz --driver` checks before the engine starts: starting
# inputs that already crash the driver are left out (--keep-crashing-seeds
# keeps them), and a module without the engine's instrumentation is warned
# about (tests/fuzz_driver_start.sh: a stand-in engine, the real replay
# binary, the planted Patch bug).
if(WK_BASH AND TARGET fuzz_patch_replay)
  add_test(NAME cli.fuzz_driver_start
    COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/fuzz_driver_start.sh $<TARGET_FILE:wddmkit>
            $<TARGET_FILE:fuzz_patch_replay> $<TARGET_FILE:buggy_patch_offset> $<TARGET_FILE:wk_refdriver>
            ${CMAKE_CURRENT_BINARY_DIR}/fuzz-driver-start)
  set_tests_properties(cli.fuzz_driver_start PROPERTIES LABELS "unit" TIMEOUT 120
    PASS_REGULAR_EXPRESSION "fuzz_driver_start: all checks passed")
endif()

# Known signatures: a finding whose signature WK_FUZZ_IGNORE lists is
# counted, not a crash, and `wddmkit fuzz` passes over those of the
# starting inputs it leaves out (tests/fuzz_known.sh: the replay binary and
# buggy_render_index on the committed regression, a stand-in engine for
# the campaign, and in a libFuzzer build the engine itself).
if(WK_BASH AND TARGET fuzz_render_replay)
  set(_known_engine "")
  if(WK_FUZZ_ENGINE STREQUAL "libfuzzer" AND TARGET fuzz_render)
    set(_known_engine $<TARGET_FILE:fuzz_render>)
  endif()
  add_test(NAME fuzz.known_signatures
    COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/fuzz_known.sh $<TARGET_FILE:wddmkit> $<TARGET_FILE:fuzz_render_replay>
            $<TARGET_FILE:buggy_render_index> ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/fuzz-known ${_known_engine})
  set_tests_properties(fuzz.known_signatures PROPERTIES LABELS "unit" TIMEOUT 180
    PASS_REGULAR_EXPRESSION "fuzz_known: all checks passed")
endif()

# A module of another driver ABI is refused by name: by `driver check`, and
# by conform before the first case.
wk_cli_expect(cli.driver_check_abi1 2 "compiled against wddmkit driver ABI 1; this kit's is [0-9]+.*rebuild it"
              $<TARGET_FILE:wddmkit> driver check $<TARGET_FILE:wk_test_abi1>)
wk_cli_expect(cli.conform_driver_abi4 2 "--driver .*compiled against wddmkit driver ABI 4; this kit's is [0-9]+"
              $<TARGET_FILE:wddmkit> conform --driver $<TARGET_FILE:wk_test_abi4>)

# A table of interface version WDDM 1.3 with garbage in every later member
# and an Escape the kit never calls (examples/drivers/version13_garbage.c):
# `driver check` names Escape alone, and the suite passes as on the
# reference driver (the garbage is never read, nor called).
if(TARGET version13_garbage)
  wk_cli_expect(cli.driver_check_version13 0
                "interface version 0x4002; DDIs it fills that the kit never calls: DxgkDdiEscape\n"
                $<TARGET_FILE:wddmkit> driver check $<TARGET_FILE:version13_garbage>)
  wk_cli_expect(conform.version13_garbage 0 "[0-9]+ of [0-9]+ cases in [0-9.]+ s: [1-9][0-9]* pass, [0-9]+ skip[^a-z]+RESULT: all as expected"
                $<TARGET_FILE:wddmkit> conform -j 2 --quiet --driver $<TARGET_FILE:version13_garbage>)
endif()

# A case's `registry:` map reaches a loaded module's DriverEntry before its
# DxgkInitialize (tests/driver_build/registry_reader.c): with the values
# the case passes, without them DriverEntry fails and the case with it.
wk_add_refwrap_module(wk_test_registry_reader ${CMAKE_CURRENT_LIST_DIR}/driver_build/registry_reader.c)
wk_cli_expect(cli.registry_set 0 "1 of 1 cases in [0-9.]+ s: 1 pass"
              $<TARGET_FILE:wddmkit> conform --driver $<TARGET_FILE:wk_test_registry_reader> --filter t.registry-set
              ${CMAKE_CURRENT_LIST_DIR}/data/specs/registry.yaml)
wk_cli_expect(cli.registry_absent 1 "DriverEntry returned 0xc0000001"
              $<TARGET_FILE:wddmkit> conform --driver $<TARGET_FILE:wk_test_registry_reader> --filter t.registry-absent
              ${CMAKE_CURRENT_LIST_DIR}/data/specs/registry.yaml)
# `conform --no-fork` runs DriverEntry once per process, with the first
# case's registry (t.registry-absent: it fails); a case with another
# registry would need a DriverEntry of its own, so it is a skip that says so.
wk_cli_expect(cli.registry_no_fork_skip 1
              "t.registry-set [.]+ skip.*needs its own DriverEntry [(]registry differs[^)]*[)]; run without --no-fork"
              $<TARGET_FILE:wddmkit> conform --no-fork --driver $<TARGET_FILE:wk_test_registry_reader>
              ${CMAKE_CURRENT_LIST_DIR}/data/specs/registry.yaml)

# Structs and arrays handed to a driver by pointer are guarded
# (tests/arg_guard_tests.cmake: uses wk_cli_expect above).
include(${CMAKE_CURRENT_LIST_DIR}/arg_guard_tests.cmake)

# A driver that leaves DDIs out (tests/driver_build/missing_ddis.c):
# without CreateAllocation and CreateContext, or without StopDevice. The
# run says which before any case, the table's case fails with
# DDI-TABLE-001, the cases that need them are skipped with the DDI's name,
# and the result is not "all as expected" (docs/verdicts.md).
wk_add_refwrap_module(wk_test_missing_alloc_ctx ${CMAKE_CURRENT_LIST_DIR}/driver_build/missing_ddis.c)
target_compile_definitions(wk_test_missing_alloc_ctx PRIVATE WK_MISSING_CREATE_ALLOCATION WK_MISSING_CREATE_CONTEXT)
wk_add_refwrap_module(wk_test_missing_stop ${CMAKE_CURRENT_LIST_DIR}/driver_build/missing_ddis.c)
target_compile_definitions(wk_test_missing_stop PRIVATE WK_MISSING_STOP_DEVICE)
add_test(NAME cli.ddi_table_missing
  COMMAND ${CMAKE_COMMAND} -DEXPECT=1
          "-DREGEX=ddis: +the driver leaves NULL 2 DDIs the kernel calls on an adapter that renders: DxgkDdiCreateAllocation, DxgkDdiCreateContext \\(DDI-TABLE-001\\).*1 unexpected result:[ \n]+fail adapter-start.ddi-table[ \n]+rule: +DDI-TABLE-001.*skipped, by reason:[ \n]+[0-9]+ +the driver has no DxgkDdiCreateAllocation.*RESULT: UNEXPECTED RESULTS"
          "-DCOMMAND=$<TARGET_FILE:wddmkit>;conform;-j;2;--quiet;--driver;$<TARGET_FILE:wk_test_missing_alloc_ctx>"
          -P ${PROJECT_SOURCE_DIR}/examples/drivers/expect_run.cmake)
set_tests_properties(cli.ddi_table_missing PROPERTIES LABELS "unit" TIMEOUT 300)
add_test(NAME cli.ddi_table_missing_stop
  COMMAND ${CMAKE_COMMAND} -DEXPECT=1
          "-DREGEX=ddis: +the driver leaves NULL 1 DDI [^\n]*: DxgkDdiStopDevice \\(DDI-TABLE-001\\).*1 unexpected result:[ \n]+fail adapter-start.ddi-table[ \n]+rule: +DDI-TABLE-001.*RESULT: UNEXPECTED RESULTS"
          "-DCOMMAND=$<TARGET_FILE:wddmkit>;conform;-j;2;--quiet;--driver;$<TARGET_FILE:wk_test_missing_stop>"
          -P ${PROJECT_SOURCE_DIR}/examples/drivers/expect_run.cmake)
set_tests_properties(cli.ddi_table_missing_stop PROPERTIES LABELS "unit" TIMEOUT 300)

# A driver that reads its context object through hSystemContext (the
# system context the kit creates at start, reference-impl/vidmm/
# system_context.c) passes the paging specs: with the made-up handle the
# kit once passed, its first BuildPagingBuffer crashed (DRV-CRASH-001).
wk_add_refwrap_module(wk_test_reads_system_context ${CMAKE_CURRENT_LIST_DIR}/driver_build/reads_system_context.c)
set(_paging_specs)
foreach(s paging-aperture paging-fill-discard paging-physical paging-transfer multipass eviction-residency)
  list(APPEND _paging_specs ${PROJECT_SOURCE_DIR}/specs/${s}.yaml)
endforeach()
wk_cli_expect(conform.reads_system_context 0 "cases in [0-9.]+ s: [0-9]+ pass.*RESULT: all as expected"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_reads_system_context> ${_paging_specs})

# MAP_APERTURE_SEGMENT in chunks (map_chunk: MdlOffset past 0, facts P13):
# a driver that maps from the MDL's first page whatever MdlOffset says
# fails the chunked cases with PAGING-MAP-001, and only them (outsider 7's
# planted bug, which no case reached while every map covered a whole MDL).
wk_add_refwrap_module(wk_test_map_ignores_mdloffset ${CMAKE_CURRENT_LIST_DIR}/driver_build/map_ignores_mdloffset.c)
wk_cli_expect(conform.map_ignores_mdloffset 1
              "4 unexpected results:[ \n]+fail paging-aperture.contiguous-pages-in-chunks-of-3[ \n]+rule: +PAGING-MAP-001.*fail paging-aperture.map-in-chunks-of-1[ \n]+rule: +PAGING-MAP-001.*fail paging-aperture.map-in-chunks-of-3[ \n]+rule: +PAGING-MAP-001.*fail paging-aperture.map-in-chunks-of-5-multipass[ \n]+rule: +PAGING-MAP-001.*RESULT: UNEXPECTED RESULTS"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_map_ignores_mdloffset>
              ${PROJECT_SOURCE_DIR}/specs/paging-aperture.yaml)

# A WDDM 1.3 driver (driver_build/wddm13.c: the reference reporting
# DXGK_DRIVERCAPS.WDDMVersion 1.3) is not asked SIGNAL_MONITORED_FENCE
# (WDDM 2.2's, facts §1.1); a `signal_fence` aimed at an aperture is then
# the kit's own write through the GPU's translation, so the aperture and
# multipass cases run on it (before: 42 skips), with no failure in either
# profile (the counts the write changes are skipped, saying why), and the
# cases about the fence operation itself stay skips that say why. Its
# planted twin, whose MAP also maps the page before the range, breaks a
# neighbour's mapping: PAGING-MAP-001 names the page it changed outside the
# operation's (once only the kit's write through that page failed, in 2 cases).
wk_add_refwrap_module(wk_test_wddm13 ${CMAKE_CURRENT_LIST_DIR}/driver_build/wddm13.c)
wk_add_refwrap_module(wk_test_wddm13_map_underrun ${CMAKE_CURRENT_LIST_DIR}/driver_build/wddm13.c)
target_compile_definitions(wk_test_wddm13_map_underrun PRIVATE WK_WDDM13_MAP_UNDERRUN)
set(_wddm13_specs ${PROJECT_SOURCE_DIR}/specs/paging-aperture.yaml ${PROJECT_SOURCE_DIR}/specs/multipass.yaml)
wk_cli_expect(conform.wddm13_aperture 0
              "93 of 93 cases in [0-9.]+ s: 67 pass, 26 skip\nRESULT: all as expected"
              $<TARGET_FILE:wddmkit> conform -j 2 --quiet --driver $<TARGET_FILE:wk_test_wddm13> ${_wddm13_specs})
wk_cli_expect(conform.wddm13_reference_profile 0
              "choice +[0-9]+ run, [0-9]+ skipped: .*671 of 671 cases in [0-9.]+ s: 591 pass, 80 skip\nRESULT: all as expected"
              $<TARGET_FILE:wddmkit> conform -j 2 --quiet --profile reference --driver $<TARGET_FILE:wk_test_wddm13>)
# The GpuMmu build of the reference driver (wk_refdriver_gpummu): the GPU
# virtual address cases run on it, the negative ones included, and the whole
# suite passes in the reference profile too (the QueryAdapterInfo counts the
# cases pin leave out the kit's GpuMmu questions, which no physical driver
# is asked: an outsider's GpuMmu driver failed 5 cases on them). Its
# transfers and fills run in the paging process, so the negative cases that
# corrupt the physical reference driver's TRANSFER or FILL calls, and the
# counts of paging work, are skips that say so.
wk_cli_expect(conform.gpummu_gpu_va 0
              "skip gpu-va-contexts.root-shrinks|the driver's tree has 3 levels: only a 2-level tree's root is resizable.*[0-9]+ of [0-9]+ cases in [0-9.]+ s: [0-9]+ pass, 2 skip\nRESULT: all as expected"
              $<TARGET_FILE:wddmkit> conform -j 2 --quiet --profile reference --driver $<TARGET_FILE:wk_refdriver_gpummu>
              ${PROJECT_SOURCE_DIR}/specs/gpu-va.yaml ${PROJECT_SOURCE_DIR}/specs/gpu-va-contexts.yaml
              ${PROJECT_SOURCE_DIR}/specs/gpu-va-faults.yaml)
wk_cli_expect(conform.gpummu_contract 0
              "[0-9]+ of [0-9]+ cases in [0-9.]+ s: [0-9]+ pass, [0-9]+ skip\nRESULT: all as expected"
              $<TARGET_FILE:wddmkit> conform -j 2 --quiet --driver $<TARGET_FILE:wk_refdriver_gpummu>)
wk_cli_expect(conform.gpummu_reference 0
              "[0-9]+ of [0-9]+ cases in [0-9.]+ s: [0-9]+ pass(, [0-9]+ skip)?\nRESULT: all as expected"
              $<TARGET_FILE:wddmkit> conform -j 2 --quiet --profile reference --driver $<TARGET_FILE:wk_refdriver_gpummu>)
# ... and on the physical build every one of them is a skip that says why.
wk_cli_expect(conform.gpu_va_not_gpummu 0
              "semantic +[0-9]+ run, [0-9]+ skipped: no GPU virtual address space: the driver is not a GpuMmu driver.*[0-9]+ of [0-9]+ cases in [0-9.]+ s: [0-9]+ skip\nRESULT: all as expected"
              $<TARGET_FILE:wddmkit> conform -j 2 --quiet --profile reference ${PROJECT_SOURCE_DIR}/specs/gpu-va.yaml
              ${PROJECT_SOURCE_DIR}/specs/gpu-va-contexts.yaml ${PROJECT_SOURCE_DIR}/specs/gpu-va-faults.yaml)
# The two-level build (wk_refdriver_gpummu2): a root the kernel sizes by
# DxgkDdiGetRootPageTableSize and grows as a process maps higher, its
# NumEntries programmed before each virtual submission. Every case as
# expected in both profiles; the legal twin that leaves NumberOfPte as asked
# too.
wk_cli_expect(conform.gpummu2_contract 0
              "[0-9]+ of [0-9]+ cases in [0-9.]+ s: [0-9]+ pass, [0-9]+ skip\nRESULT: all as expected"
              $<TARGET_FILE:wddmkit> conform -j 2 --quiet --driver $<TARGET_FILE:wk_refdriver_gpummu2>)
wk_cli_expect(conform.gpummu2_reference 0
              "[0-9]+ of [0-9]+ cases in [0-9.]+ s: [0-9]+ pass, [0-9]+ skip\nRESULT: all as expected"
              $<TARGET_FILE:wddmkit> conform -j 2 --quiet --profile reference --driver $<TARGET_FILE:wk_refdriver_gpummu2>)
wk_cli_expect(conform.gpummu2_count_as_asked 0
              "55 of 55 cases in [0-9.]+ s: 47 pass, 8 skip\nRESULT: all as expected"
              $<TARGET_FILE:wddmkit> conform -j 2 --quiet --driver $<TARGET_FILE:wk_test_gpummu2_count_as_asked>
              ${PROJECT_SOURCE_DIR}/specs/gpu-va.yaml ${PROJECT_SOURCE_DIR}/specs/gpu-va-contexts.yaml
              ${PROJECT_SOURCE_DIR}/specs/gpu-va-faults.yaml)
# The same through a hardware binding whose GPU walks the two-level tree
# (wk_test_binding_gpummu2): the kit bounds the walk by the NumEntries it
# gave; a root size too small is caught there too.
wk_cli_expect(conform.gpummu2_binding 0
              "55 of 55 cases in [0-9.]+ s: 46 pass, 9 skip\nRESULT: all as expected"
              $<TARGET_FILE:wddmkit> conform -j 2 --quiet --driver $<TARGET_FILE:wk_refdriver_gpummu2>
              --binding $<TARGET_FILE:wk_test_binding_gpummu2>
              ${PROJECT_SOURCE_DIR}/specs/gpu-va.yaml ${PROJECT_SOURCE_DIR}/specs/gpu-va-contexts.yaml
              ${PROJECT_SOURCE_DIR}/specs/gpu-va-faults.yaml)
wk_cli_expect(conform.gpummu2_binding_root_short 1
              "rule: +GPUMMU-ROOTSIZE-001.*19 of 19 cases in [0-9.]+ s: 1 pass, 18 fail"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_gpummu2_root_short>
              --binding $<TARGET_FILE:wk_test_binding_gpummu2> ${PROJECT_SOURCE_DIR}/specs/gpu-va-contexts.yaml)
# Its planted twins, each caught: a root size too small for the entries
# asked (GPUMMU-ROOTSIZE-001); a GPU never given the root's entry count,
# which stops at a root of 0 (SUBMITV-GPU-001, the hint saying the address
# is mapped); a context that keeps its first count, whose buffers fault past
# it once the root grew, while a context made after the growth passes; a GPU
# told the widest root whatever NumEntries says.
wk_cli_expect(conform.gpummu2_root_short 1
              "fail gpu-va-contexts.above-4gib[ \n]+rule: +GPUMMU-ROOTSIZE-001.*DxgkDdiGetRootPageTableSize\\(NumberOfPte [0-9]+\\) returned [0-9]+ bytes, which cannot hold the [0-9]+ entries asked.*19 of 19 cases in [0-9.]+ s: 1 pass, 18 fail"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_gpummu2_root_short>
              ${PROJECT_SOURCE_DIR}/specs/gpu-va-contexts.yaml)
wk_cli_expect(conform.gpummu2_no_entries 1
              "rule: +SUBMITV-GPU-001.*is mapped, at root entry [0-9]+ of the [0-9]+ the kernel gave as NumEntries: the GPU stopped at a shorter root, RING_ROOT_ENTRIES.*19 of 19 cases in [0-9.]+ s: 4 pass, 15 fail"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_gpummu2_no_entries>
              ${PROJECT_SOURCE_DIR}/specs/gpu-va-contexts.yaml)
# A context that takes a NumEntries only when it grows: its GPU walks past
# a shrunk root's end (the two root-shrinks cases, and only they).
wk_cli_expect(conform.gpummu2_entries_grow_only 1
              "2 unexpected results:[ \n]+fail gpu-va-contexts.root-shrinks[ \n]+rule: +SUBMITV-GPU-001.*ran under RING_ROOT_ENTRIES [0-9]+, past the 512 entries of its root \\(NumEntries\\).*fail gpu-va-contexts.root-shrinks-by-copy.*19 of 19 cases in [0-9.]+ s: 17 pass, 2 fail"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_gpummu2_entries_grow_only>
              ${PROJECT_SOURCE_DIR}/specs/gpu-va-contexts.yaml)
wk_cli_expect(conform.gpummu2_entries_kept 1
              "14 unexpected results:[ \n]+fail gpu-va-contexts.above-4gib.*rule: +SUBMITV-GPU-001.*19 of 19 cases in [0-9.]+ s: 5 pass, 14 fail"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_gpummu2_entries_kept>
              ${PROJECT_SOURCE_DIR}/specs/gpu-va-contexts.yaml)
# One entry fewer than NumEntries is seen only where a page sits in the
# root's last entry (gpu-va-contexts.root-last-entries).
wk_cli_expect(conform.gpummu2_entries_short 1
              "3 unexpected results:[ \n]+fail gpu-va-contexts.root-last-entries[ \n]+rule: +SUBMITV-GPU-001.*at root entry 511 of the 512 the kernel gave as NumEntries.*fail gpu-va-contexts.root-last-entries-high.*fail gpu-va-contexts.root-shrinks[ \n].*19 of 19 cases in [0-9.]+ s: 16 pass, 3 fail"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_gpummu2_entries_short>
              ${PROJECT_SOURCE_DIR}/specs/gpu-va-contexts.yaml)
# A space of 32 bits: every case above 4 GiB a skip that says so, none failed.
wk_cli_expect(conform.gpummu2_va32 0
              "skip gpu-va-contexts.above-4gib|the driver's address space has 32 bits.*[0-9]+ of [0-9]+ cases in [0-9.]+ s: [0-9]+ pass, [0-9]+ skip\nRESULT: all as expected"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_gpummu2_va32>)
wk_cli_expect(conform.gpummu2_entries_max 1
              "rule: +SUBMITV-GPU-001.*ran under RING_ROOT_ENTRIES 262144, past the [0-9]+ entries of its root \\(NumEntries\\).*19 of 19 cases in [0-9.]+ s: 3 pass, 16 fail"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_gpummu2_entries_max>
              ${PROJECT_SOURCE_DIR}/specs/gpu-va-contexts.yaml)
# Page tables in system memory (wk_refdriver_gpummu_sysmem: segment 0, as
# an integrated GPU keeps them) and written by the CPU
# (wk_refdriver_gpummu_cpu: CPU_VIRTUAL, each update through the table's CPU
# view, nothing in the paging buffer): every case as expected in both
# profiles. Their twins: a system-memory table's address taken as
# segment-relative (PAGING-GPU-001, the GPU faulting on it), entries written
# by the CPU from the table's start, StartIndex ignored (PAGING-UPDATEPT-001).
foreach(_b gpummu_sysmem gpummu_cpu gpummu_gpuva)
  wk_cli_expect(conform.${_b} 0
                "[0-9]+ of [0-9]+ cases in [0-9.]+ s: [0-9]+ pass, [0-9]+ skip\nRESULT: all as expected"
                $<TARGET_FILE:wddmkit> conform -j 2 --quiet --driver $<TARGET_FILE:wk_refdriver_${_b}>)
  wk_cli_expect(conform.${_b}_reference 0
                "[0-9]+ of [0-9]+ cases in [0-9.]+ s: [0-9]+ pass, [0-9]+ skip\nRESULT: all as expected"
                $<TARGET_FILE:wddmkit> conform -j 2 --quiet --profile reference --driver $<TARGET_FILE:wk_refdriver_${_b}>)
endforeach()
wk_cli_expect(conform.gpummu_sysmem_as_segment 1
              "rule: +PAGING-GPU-001.*paging buffer faulted on the GPU: BAD_ADDRESS.*23 of 23 cases in [0-9.]+ s: 19 fail, 4 skip"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_gpummu_sysmem_as_segment>
              ${PROJECT_SOURCE_DIR}/specs/gpu-va.yaml)
# The GPU_VIRTUAL build (wk_refdriver_gpummu_gpuva) passes both profiles
# above; its twin writes through the paging process's address of a table as
# if it were a physical one: the entries land nowhere (PAGING-UPDATEPT-001).
wk_cli_expect(conform.gpummu_gpuva_physical 1
              "rule: +PAGING-UPDATEPT-001.*entry [0-9]+ reads not valid, where its DXGK_PTE says valid.*23 of 23 cases in [0-9.]+ s: [0-9]+ fail, 4 skip"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_gpummu_gpuva_physical>
              ${PROJECT_SOURCE_DIR}/specs/gpu-va.yaml)
# A GPU_VIRTUAL driver that runs every paging buffer in the paging process
# ("all paging operation will occur in the virtual address space of the
# system context") initializes context resources at their GpuVirtualAddress
# there, and meets the operations the kit still gives physical addresses:
# skips that say so.
wk_cli_expect(conform.gpummu_gpuva_all_in_pp 0
              "a limit of the kit: with GPU_VIRTUAL .all paging operation will occur in the virtual address space of the system context.*671 of 671 cases in [0-9.]+ s: [0-9]+ pass, [0-9]+ skip\nRESULT: all as expected"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_gpummu_gpuva_all_in_pp>)
# A context resource initialized a page past its SegmentAddress writes over
# what follows it: PAGING-CONFINE-001 (outsider 27's driver, whose resource
# was followed by another context's, went unseen before). The reference
# driver initializes with zeroes, so only a case where something follows
# the resource sees it.
wk_cli_expect(conform.init_next_page 1
              "rule: +PAGING-CONFINE-001.*INIT_CONTEXT_RESOURCE changed bytes after its destination"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_init_next_page>
              ${PROJECT_SOURCE_DIR}/specs/contexts.yaml)
# A CPU_VIRTUAL driver that runs every paging buffer but READ/WRITE_PHYSICAL
# in the paging process ("Most paging operations occur in a context of the
# system paging process"): its fences and context resources hold there (the
# kit maps their bytes at their own address in the process), and the
# teardown's UNMAPs run before the process goes. It failed 51 cases.
wk_cli_expect(conform.gpummu_most_in_pp 0
              "671 of 671 cases in [0-9.]+ s: [0-9]+ pass, [0-9]+ skip\nRESULT: all as expected"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_gpummu_most_in_pp>)
# Its twin writes the fence a page past MonitoredFenceGpuVa: in the paging
# process, where the kit mapped only the fence's page, the GPU faults there.
wk_cli_expect(conform.gpummu_most_in_pp_fence_off 1
              "rule: +PAGING-GPU-001.*in the paging process, where the kit mapped the operation's bytes at their own address.*VA_UNMAPPED at [+]0x0 .FENCE."
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_gpummu_most_in_pp_fence_off>
              ${PROJECT_SOURCE_DIR}/specs/paging-physical.yaml)
# A FLUSH_TLB that names the root by its offset in the segment: the message
# says which root the GPU's flush named, and why it names no space.
wk_cli_expect(conform.gpummu_flush_no_base 1
              "rule: +PAGING-FLUSHTLB-001.*the GPU flushed none of that space's translations: its flush named root 0x[0-9a-f]+, no address space's \\(the root's offset in its segment, without the segment's base\\)"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_gpummu_flush_no_base>
              ${PROJECT_SOURCE_DIR}/specs/gpu-va.yaml)
# A virtual context's buffer run under another space's root: the message
# names that root (wk_test_gpummu_root_kept's, after the kit moved it).
wk_cli_expect(conform.gpummu_root_kept_named 1
              "rule: +SUBMITV-GPU-001.*faulted on the GPU \\(it ran under root 0x[0-9a-f]+, no address space's, not its own\\)"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_gpummu_root_kept>
              ${PROJECT_SOURCE_DIR}/specs/gpu-va-contexts.yaml)
# A driver that forgets the paging process's root in any process's
# DxgkDdiDestroyProcess: the paging after a user process ends runs with no
# root (end_process), in the three cases that page on after one.
wk_cli_expect(conform.gpummu_any_process_drops_root 1
              "3 unexpected results:[ \n]+fail gpu-va-contexts.process-ends-another-runs[ \n]+rule: +PAGING-GPU-001.*run with no root.*fail gpu-va-contexts.process-ends-paging-goes-on[ \n]+rule: +PAGING-GPU-001.*fail gpu-va-contexts.process-starts-again[ \n]+rule: +PAGING-GPU-001.*19 of 19 cases in [0-9.]+ s: 14 pass, 3 fail, 2 skip"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_gpummu_any_process_drops_root>
              ${PROJECT_SOURCE_DIR}/specs/gpu-va-contexts.yaml)
# A driver that needs more than a 28-byte paging buffer for a context
# allocation's update (wk_test_wide_update): the kit gives up for its own
# reason, the callback fails, and the driver's CreateContext after it is a
# skip saying so, never its failure (outsider 23's false verdict).
wk_cli_expect(conform.wide_update 0
              "the kit refused DxgkCbUpdateContextAllocation for a limit of its own: UPDATE_CONTEXT_ALLOCATION needs more room than a 28-byte paging buffer.*RESULT: all as expected"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_wide_update> ${PROJECT_SOURCE_DIR}/specs/multipass.yaml)
# wk_conform_all_expected(NAME DRIVER): the whole suite on a legal twin of
# the reference driver, contract profile, every result as expected.
function(wk_conform_all_expected name driver)
  wk_cli_expect(${name} 0 "671 of 671 cases in [0-9.]+ s: [0-9]+ pass, [0-9]+ skip\nRESULT: all as expected"
                $<TARGET_FILE:wddmkit> conform -j 2 --quiet --driver $<TARGET_FILE:${driver}>)
endfunction()
# A driver whose hardware needs 64 KiB alignment (wk_test_align64k; "it may
# round Size and Alignment up", umd.h) fits fewer of a case's allocations in
# the room the case was calibrated with: a residency, a placement or a step
# the memory manager then answers otherwise is a skip that says so, and an
# absolute fence aimed at where the case expected an allocation placed
# elsewhere too, never a failure (outsider 24's seven false verdicts).
wk_cli_expect(conform.align64k 0
              "the driver's answers round the case's allocations up \\(allocation 0 is 65536-byte aligned where the case asked 4096\\): fewer fit the room the case was calibrated with.*671 of 671 cases in [0-9.]+ s: [0-9]+ pass, [0-9]+ skip\nRESULT: all as expected"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_align64k>)
# Allocations answered in whole 64 KiB (wk_test_size64k): the content
# checks read the bytes the case asked for, a render the case meant to run
# past an allocation's end fits the driver's, and a bound on a paging
# operation's calls counted for the asked sizes is a skip (outsider 26's 78
# false failures).
wk_conform_all_expected(conform.size64k wk_test_size64k)
wk_cli_expect(conform.align64k_absolute_fence 0
              "the case's absolute address \\(segment 2 offset 0xffff8\\) aims at allocation 1, expected at 0xff000; the driver's answers put it at 0xf0000: a choice"
              $<TARGET_FILE:wddmkit> conform --driver $<TARGET_FILE:wk_test_align64k>
              --filter paging-physical.fence-absolute-segment-2-edges ${PROJECT_SOURCE_DIR}/specs/paging-physical.yaml)
# A rule broken outside the step's frame (a callback from a thread of the
# driver's) fails the case at its violations check, which names the rule
# (outsider 25: "rule: none broken", JSON rule null).
wk_cli_expect(conform.rule_at_violations_check 1
              "rule: +CTXALLOC-ARGS-001\n    expected: violations = 0\n    seen: +1 violation, the first: CTXALLOC-ARGS-001: DxgkCbCreateContextAllocation: "
              $<TARGET_FILE:wddmkit> conform --driver $<TARGET_FILE:wk_test_callback_from_thread>
              --filter adapter-start.reference-clean ${PROJECT_SOURCE_DIR}/specs/adapter-start.yaml)
# DxgkDdiPatch's inputs are const: a write to the argument struct or to
# either list is MEM-GUARD-001 naming what and where (outsider 25).
wk_cli_expect(conform.patch_const_args 1
              "MEM-GUARD-001: DxgkDdiPatch: wrote to the DXGKARG_PATCH argument \\(\\*pPatch\\), which the DDI gets as const, at offset \\+40 \\(DmaBufferSubmissionEndOffset\\)"
              $<TARGET_FILE:wddmkit> conform --driver $<TARGET_FILE:wk_test_patch_const_args>
              --filter smoke.render-all-commands ${PROJECT_SOURCE_DIR}/specs/smoke.yaml)
wk_cli_expect(conform.patch_const_alloc 1
              "MEM-GUARD-001: DxgkDdiPatch: wrote to the allocation list \\(pAllocationList, [0-9]+ entries\\), which the DDI gets as const, at entry 0 byte"
              $<TARGET_FILE:wddmkit> conform --driver $<TARGET_FILE:wk_test_patch_const_alloc>
              --filter smoke.render-all-commands ${PROJECT_SOURCE_DIR}/specs/smoke.yaml)
wk_cli_expect(conform.patch_const_patch 1
              "MEM-GUARD-001: DxgkDdiPatch: wrote to the patch-location list \\(pPatchLocationList, [0-9]+ entries\\), which the DDI gets as const, at entry [0-9]+ byte"
              $<TARGET_FILE:wddmkit> conform --driver $<TARGET_FILE:wk_test_patch_const_patch>
              --filter smoke.render-all-commands ${PROJECT_SOURCE_DIR}/specs/smoke.yaml)
# The driver's segments against the hardware's memory, with a binding too:
# a segment reported where the binding's hardware has no memory (outsider 24
# found a binding's layout unchecked).
wk_cli_expect(conform.binding_layout_checked 1
              "expected: the hardware's segments \\(the binding's memory\\), each reported as the kind it has at its addresses"
              $<TARGET_FILE:wddmkit> conform --driver $<TARGET_FILE:wk_test_segment_moved>
              --binding $<TARGET_FILE:wk_test_binding_good>
              --filter smoke.render-all-commands ${PROJECT_SOURCE_DIR}/specs/smoke.yaml)
# Memory segments reported with Use64KBPages are placed in whole 64 KiB
# pages (facts 5.5 G12: a top-down 4 KiB allocation in a 1 MiB segment at
# 0xf0000, not 0xff000), and the room that leaves a case is a skip, not a
# failure (wk_test_seg64k; outsider 24 saw the flag ignored).
wk_cli_expect(conform.seg64k 0
              "segment 1 is managed in 64 KiB pages, Use64KBPages\\): fewer fit the room the case was calibrated with.*671 of 671 cases in [0-9.]+ s: [0-9]+ pass, [0-9]+ skip\nRESULT: all as expected"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_seg64k>)
# A fill of its allocation's whole 64 KiB pages in such a segment changes
# nothing of anyone else's: no PAGING-CONFINE-001 (outsider 26).
wk_conform_all_expected(conform.seg64k_fill_pages wk_test_seg64k_fill_pages)
wk_cli_expect(conform.seg64k_placement 0
              "expected at 0xff000; the driver's answers put it at 0xf0000"
              $<TARGET_FILE:wddmkit> conform --driver $<TARGET_FILE:wk_test_seg64k>
              --filter paging-physical.fence-absolute-segment-2-edges ${PROJECT_SOURCE_DIR}/specs/paging-physical.yaml)
# A second engine: a context on node 1 renders, its completions reported on
# node 1 (wk_test_two_nodes passes the contract profile); its twin that
# reports them on node 0 is INTR-ORDINAL-001 (outsider 24: no case made a
# context on another node).
wk_conform_all_expected(conform.two_nodes wk_test_two_nodes)
wk_cli_expect(conform.two_nodes_node0 1
              "INTR-ORDINAL-001: DxgkCbNotifyInterrupt: fence [0-9]+ reported by node 0 engine 0; it was submitted to node 1 engine 0"
              $<TARGET_FILE:wddmkit> conform --driver $<TARGET_FILE:wk_test_two_nodes_node0>
              --filter contexts.render-on-node-1 ${PROJECT_SOURCE_DIR}/specs/contexts.yaml)
# Renders queued on the GPU (the `queue` step, reference-impl/vidmm/queue.c):
# an interrupt routine that takes each interrupt for one finished buffer
# leaves the others of a coalesced interrupt unreported, and one that
# reports the last fence it submitted reports a buffer the GPU has not run;
# the reference driver, which reports COMPLETED_TAG ("the latest completed
# DMA buffer"), passes both, and the two-engine build the two-node case.
wk_cli_expect(conform.queued_one_per_interrupt 1
              "5 unexpected results:.*fail submit-fence.queued-one-interrupt[ \n]+rule: +SUBMIT-FENCE-001.*DxgkDdiInterruptRoutine: fence [0-9]+ was submitted and was never reported complete.*9 of 9 cases in [0-9.]+ s: 3 pass, 5 fail, 1 skip"
              $<TARGET_FILE:wddmkit> conform --driver $<TARGET_FILE:wk_test_one_per_interrupt>
              --filter submit-fence.queued-* ${PROJECT_SOURCE_DIR}/specs/submit-fence.yaml)
wk_cli_expect(conform.queued_report_submitted 1
              "2 unexpected results:.*fail submit-fence.queued-interrupt-each[ \n]+rule: +SUBMIT-FENCE-001.*fence [0-9]+ reported complete before the GPU ran its buffer: the GPU has run [0-9]+ of the [0-9]+ buffers rung so far.*9 of 9 cases in [0-9.]+ s: 6 pass, 2 fail, 1 skip"
              $<TARGET_FILE:wddmkit> conform --driver $<TARGET_FILE:wk_test_report_submitted>
              --filter submit-fence.queued-* ${PROJECT_SOURCE_DIR}/specs/submit-fence.yaml)
wk_cli_expect(conform.queued_two_nodes 0
              "9 of 9 cases in [0-9.]+ s: 9 pass"
              $<TARGET_FILE:wddmkit> conform --driver $<TARGET_FILE:wk_test_two_nodes>
              --filter submit-fence.queued-* ${PROJECT_SOURCE_DIR}/specs/submit-fence.yaml)
wk_cli_expect(conform.queued_two_nodes_node0 1
              "fail submit-fence.queued-two-nodes[ \n]+rule: +INTR-ORDINAL-001"
              $<TARGET_FILE:wddmkit> conform --driver $<TARGET_FILE:wk_test_two_nodes_node0>
              --filter submit-fence.queued-* ${PROJECT_SOURCE_DIR}/specs/submit-fence.yaml)
# The message of the second rule is there too (`also`): the entry that
# reads not valid is the symptom, the write outside the entries the cause.
wk_cli_expect(conform.gpummu_cpu_no_start 1
              "rule: +PAGING-UPDATEPT-001.*UPDATE_PAGE_TABLE of level [0-9] \\(1 entries from [0-9]+, table at 0x[0-9a-f]+\\): entry [0-9]+ reads not valid[^\n]*and 1 more: PAGING-CONFINE-001\\)\n +also: +PAGING-CONFINE-001: [^\n]*outside the entries it was asked to write.*23 of 23 cases in [0-9.]+ s: 19 fail, 4 skip"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_gpummu_cpu_no_start>
              ${PROJECT_SOURCE_DIR}/specs/gpu-va.yaml)
# A virtual context whose driver keeps the first root SetRootPageTable named
# (wk_test_gpummu_root_kept, a planted bug): its buffers run as long as the
# root stays, and fault on the GPU once the kit moved it (SUBMITV-GPU-001,
# the GPU naming the stale root); the cases that never move it pass.
wk_cli_expect(conform.gpummu_root_kept 1
              "4 unexpected results:[ \n]+fail gpu-va-contexts.after-root-move[ \n]+rule: +SUBMITV-GPU-001.*NO_ADDRESS_SPACE.*fail gpu-va-contexts.after-two-root-moves.*fail gpu-va-contexts.root-moved-by-copy.*fail gpu-va-contexts.two-contexts-one-move.*19 of 19 cases in [0-9.]+ s: 13 pass, 4 fail, 2 skip"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_gpummu_root_kept>
              ${PROJECT_SOURCE_DIR}/specs/gpu-va-contexts.yaml)
# A page fault of the MMU reported as DMA_FAULTED (wk_test_gpummu_pf_as_fault):
# every case whose buffer page-faults fails on it, the others pass.
wk_cli_expect(conform.gpummu_pf_as_fault 1
              "9 unexpected results:[ \n]+fail gpu-va-faults.after-unmap[ \n]+rule: +PAGEFAULT-NOTIFY-001.*reported it as DMA_FAULTED.*13 of 13 cases in [0-9.]+ s: 1 pass, 9 fail, 3 skip"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_gpummu_pf_as_fault>
              ${PROJECT_SOURCE_DIR}/specs/gpu-va-faults.yaml)
# AllocationOffsetInBytes added to the paging process's addresses of
# TRANSFER_VIRTUAL and FILL_VIRTUAL (wk_test_gpummu_offset_added), which
# point at the bytes already: a chunk past the first lands outside the
# scratch window; and the paging buffers of those operations run
# physically, not under the root the system context got
# (wk_test_gpummu_paging_physical). Each caught, the message saying where.
wk_cli_expect(conform.gpummu_offset_added 1
              "PAGING-GPU-001: .*in the paging process, at 0x[0-9a-f]+, in its scratch windows .*, where the operation's pages are not mapped\\).*VA_UNMAPPED"
              $<TARGET_FILE:wddmkit> conform --driver $<TARGET_FILE:wk_test_gpummu_offset_added>
              --filter paging-transfer.chunk-4k-everything ${PROJECT_SOURCE_DIR}/specs)
wk_cli_expect(conform.gpummu_paging_physical 1
              "PAGING-GPU-001: .*run with no root: its addresses are the paging process's"
              $<TARGET_FILE:wddmkit> conform --driver $<TARGET_FILE:wk_test_gpummu_paging_physical>
              --filter paging-transfer.chunk-4k-everything ${PROJECT_SOURCE_DIR}/specs)
# COPY_PAGE_TABLE_ENTRIES one entry short of each range
# (wk_test_gpummu_copy_one_short): a root moved by copy misses a link.
wk_cli_expect(conform.gpummu_copy_one_short 1
              "PAGING-COPYPTE-001: .*entry 1 holds 0x0+, where the source entry held 0x"
              $<TARGET_FILE:wddmkit> conform --driver $<TARGET_FILE:wk_test_gpummu_copy_one_short>
              --filter gpu-va.root-copied-in-ranges ${PROJECT_SOURCE_DIR}/specs)
# MAP_APERTURE_SEGMENT2 (reference-impl/vidmm/map_aperture2.c): the WDDM 3.0
# build that opts in passes the whole suite as the reference driver does,
# every aperture mapping now operation 17; its planted twins are caught: one
# that reads BasePageNumber of a page array (the pointer taken for a page:
# the GART_MAP faults), one that reads Pages of a contiguous ADL (the page
# number taken for a pointer: a crash), one that ignores AdlOffset.
wk_cli_expect(conform.map2_reference 0
              "671 of 671 cases in [0-9.]+ s: 614 pass, 57 skip.*RESULT: all as expected"
              $<TARGET_FILE:wddmkit> conform -j 2 --quiet --profile reference --driver $<TARGET_FILE:wk_refdriver_map2>)
wk_cli_expect(conform.map2_always_contiguous 1
              "PAGING-GPU-001: .*GART_MAP.*outside system memory.*PAGING-MAP-001"
              $<TARGET_FILE:wddmkit> conform --driver $<TARGET_FILE:wk_test_map2_always_contiguous>
              --filter paging-aperture.map-in-chunks-of-3 ${PROJECT_SOURCE_DIR}/specs)
wk_cli_expect(conform.map2_always_array 1
              "DRV-CRASH-001: DxgkDdiBuildPagingBuffer: crashed with signal 11"
              $<TARGET_FILE:wddmkit> conform --driver $<TARGET_FILE:wk_test_map2_always_array>
              --filter adapter-start.aperture-only ${PROJECT_SOURCE_DIR}/specs)
wk_cli_expect(conform.map2_no_offset 1
              "PAGING-MAP-001: .*MAP_APERTURE_SEGMENT2: page 1 of segment 3 points at the wrong page .*AdlOffset 1 \\+ 0; a page array"
              $<TARGET_FILE:wddmkit> conform --driver $<TARGET_FILE:wk_test_map2_no_offset>
              --filter paging-aperture.map-in-chunks-of-1 ${PROJECT_SOURCE_DIR}/specs)
# The adapter-wide reset after a page fault (reference-impl/vidmm/tdr.c): the
# GpuMmu build without per-engine reset passes every page-fault case through
# DxgkDdiResetFromTimeout and DxgkDdiRestartFromTimeout; its twin whose
# DxgkDdiResetFromTimeout fails is caught in every case that faults.
wk_cli_expect(conform.gpummu_adapter_reset 0
              "13 of 13 cases in [0-9.]+ s: 10 pass, 3 skip.*RESULT: all as expected"
              $<TARGET_FILE:wddmkit> conform -j 2 --quiet --driver $<TARGET_FILE:wk_refdriver_gpummu_no_engine_reset>
              ${PROJECT_SOURCE_DIR}/specs/gpu-va-faults.yaml)
wk_cli_expect(conform.gpummu_tdr_fails 1
              "TDR-RESET-001: DxgkDdiResetFromTimeout: returned 0xc0000001 during the adapter reset after a page fault, the driver having no per-engine reset.*13 of 13 cases in [0-9.]+ s: 1 pass, 9 fail, 3 skip"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_gpummu_tdr_fails>
              ${PROJECT_SOURCE_DIR}/specs/gpu-va-faults.yaml)
# RING_ROOT left set after a virtual submission (wk_test_gpummu_root_left):
# the next paging buffer, a physical one, runs through the address space and
# faults, and the message says a root was still active.
wk_cli_expect(conform.gpummu_root_left 1
              "PAGING-GPU-001: .*a physical buffer run through an address space: a root, RING_ROOT, was still active.*VA_UNMAPPED"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_gpummu_root_left>
              --filter gpu-va-contexts.target-moved ${PROJECT_SOURCE_DIR}/specs/gpu-va-contexts.yaml)
# A buffer rung at an address nothing holds, on a binding with registers:
# the kit's fetch of it faults, and that is the driver's PAGING-GPU-001 as a
# processor's fault would be (it was dropped, and the case a skip for the
# content that did not move: outsider 12).
wk_cli_expect(conform.binding_fetch_fault 1
              "PAGING-GPU-001: .*the buffer at 0x[0-9a-f]+ could not be fetched: BAD_ADDRESS"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_gpummu_ring_far>
              --binding $<TARGET_FILE:wk_test_binding_gpummu_regs> --filter gpu-va.map-read
              ${PROJECT_SOURCE_DIR}/specs/gpu-va.yaml)
# A multipass Render that lists no patch locations for its later passes
# (driver_build/render_drops_later_patches.c, outsider 8's planted bug):
# unseen while nothing moves (render.multipass-copies and -writes pass), seen
# when the kernel moves the listed allocations between Render and the
# submission (adapter move_before_patch: the -moved cases fail on data).
wk_add_refwrap_module(wk_test_render_drops_later_patches ${CMAKE_CURRENT_LIST_DIR}/driver_build/render_drops_later_patches.c)
wk_cli_expect(conform.render_drops_later_patches 1
              "2 unexpected results:[ \n]+fail render.multipass-copies-moved.*fail render.multipass-writes-moved.*5 of 5 cases in [0-9.]+ s: 3 pass, 2 fail"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_render_drops_later_patches>
              --filter render.multipass-* ${PROJECT_SOURCE_DIR}/specs/render.yaml)
wk_cli_expect(conform.wddm13_map_underrun 1
              "9 unexpected results:.*fail paging-aperture.eight-side-by-side[ \n]+rule: +PAGING-MAP-001.*MAP_APERTURE_SEGMENT of pages \\[8, 16\\) of segment 3 changed page 7 outside them.*93 of 93 cases in [0-9.]+ s: 58 pass, 9 fail, 26 skip"
              $<TARGET_FILE:wddmkit> conform -j 2 --driver $<TARGET_FILE:wk_test_wddm13_map_underrun> ${_wddm13_specs})
