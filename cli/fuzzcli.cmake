# SPDX-License-Identifier: MIT
# cli/fuzzcli.cmake - the tests of `wddmkit fuzz` (cli_fuzz.c): fuzzing
# campaigns with libFuzzer or AFL++ on the harnesses (docs/fuzzing.md),
# against stand-in engines. include()d at the end of cli/CMakeLists.txt.

# Command-line behaviour without an engine build: usage errors exit 2, a
# dry run prints the engine command lines.
add_test(NAME cli.fuzz_no_harness COMMAND wddmkit fuzz)
set_tests_properties(cli.fuzz_no_harness PROPERTIES LABELS "unit" WILL_FAIL TRUE)
add_test(NAME cli.fuzz_bad_engine COMMAND wddmkit fuzz --harness fuzz_gpu_decode --engine honggfuzz)
set_tests_properties(cli.fuzz_bad_engine PROPERTIES LABELS "unit" WILL_FAIL TRUE)
add_test(NAME cli.fuzz_bad_jobs COMMAND wddmkit fuzz --harness fuzz_gpu_decode --jobs 0)
set_tests_properties(cli.fuzz_bad_jobs PROPERTIES LABELS "unit" WILL_FAIL TRUE)
add_test(NAME cli.fuzz_bad_name COMMAND wddmkit fuzz --harness ../../etc/passwd)
set_tests_properties(cli.fuzz_bad_name PROPERTIES LABELS "unit" WILL_FAIL TRUE)
add_test(NAME cli.fuzz_missing_build
  COMMAND wddmkit fuzz --harness fuzz_gpu_decode --build-dir ${CMAKE_CURRENT_BINARY_DIR}/no-such-build)
set_tests_properties(cli.fuzz_missing_build PROPERTIES LABELS "unit" WILL_FAIL TRUE)
add_test(NAME cli.fuzz_dry_run_afl
  COMMAND wddmkit fuzz --harness fuzz_gpu_decode --engine afl --jobs 3 --time 60 --dry-run
          --out ${CMAKE_CURRENT_BINARY_DIR}/fuzz-dry)
set_tests_properties(cli.fuzz_dry_run_afl PROPERTIES LABELS "unit"
  PASS_REGULAR_EXPRESSION "would run: .*afl-fuzz -i .* -S s2 .*-V 60 -- ")

# The whole campaign loop against a stand-in engine: a shell script that
# prints libFuzzer status lines, writes one crash artifact and a sanitizer
# report, as libFuzzer does. Checks progress, the summary, the crash
# signature from the log (--no-triage) and exit code 1.
# A stand-in engine binary: DIR/fuzz/NAME, an executable script.
function(wk_stand_in_engine dir name script)
  file(MAKE_DIRECTORY ${dir}/fuzz)
  file(WRITE ${dir}/fuzz/${name} "${script}")
  file(CHMOD ${dir}/fuzz/${name} PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
       WORLD_READ WORLD_EXECUTE)
endfunction()

set(_fake_dir ${CMAKE_CURRENT_BINARY_DIR}/fake-engine)
wk_stand_in_engine(${_fake_dir} fuzz_gpu_decode [=[#!/bin/sh
# A stand-in for a libFuzzer binary (written by cli/fuzzcli.cmake).
prefix=./
for a in "$@"; do case "$a" in -artifact_prefix=*) prefix=${a#-artifact_prefix=} ;; esac; done
echo "INFO: Seed: 1" >&2
printf '#2\tINITED cov: 10 ft: 12 corp: 1/1b exec/s: 0 rss: 30Mb\n' >&2
printf '#4096\tpulse  cov: 321 ft: 654 corp: 7/100b lim: 4 exec/s: 2048 rss: 31Mb\n' >&2
sleep 6
echo "==42== ERROR: libFuzzer: deadly signal" >&2
echo "    #0 0x1 in __sanitizer_print_stack_trace x.c:1" >&2
echo "    #1 0x2 in abort libc.c:2" >&2
echo "    #2 0x3 in check_against_validator /src/fuzz/fuzz_gpu_decode.c:70:9" >&2
printf 'X' > "${prefix}crash-0123456789abcdef"
echo "artifact_prefix='$prefix'; Test unit written to ${prefix}crash-0123456789abcdef" >&2
exit 1
]=])
add_test(NAME cli.fuzz_fake_engine
  COMMAND ${CMAKE_COMMAND} -E env --unset=WK_DRIVER
          $<TARGET_FILE:wddmkit> fuzz --harness fuzz_gpu_decode --build-dir ${_fake_dir} --time 30 --no-triage
          --out ${CMAKE_CURRENT_BINARY_DIR}/fuzz-fake-out)
set_tests_properties(cli.fuzz_fake_engine PROPERTIES LABELS "unit" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "exec/s 2,048.*crash-0123456789abcdef  \\(1 bytes\\)  libFuzzer: deadly signal in check_against_validator fuzz_gpu_decode.c:70:9.*result: 1 new crash")

# --seeds: a corpus folder's inputs for the harness join the campaign's
# corpus (a stand-in engine that stops at once); a missing folder is a
# usage error.
set(_quick_dir ${CMAKE_CURRENT_BINARY_DIR}/quick-engine)
wk_stand_in_engine(${_quick_dir} fuzz_spec [=[#!/bin/sh
# A stand-in for a libFuzzer binary that ends at once (cli/fuzzcli.cmake).
printf '#2\tINITED cov: 10 ft: 12 corp: 1/1b exec/s: 0 rss: 30Mb\n' >&2
exit 0
]=])
add_test(NAME cli.fuzz_seeds_clean
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${CMAKE_CURRENT_BINARY_DIR}/fuzz-seeds-out)
set_tests_properties(cli.fuzz_seeds_clean PROPERTIES LABELS "unit" FIXTURES_SETUP fuzz_seeds_out)
add_test(NAME cli.fuzz_seeds
  COMMAND ${CMAKE_COMMAND} -E env --unset=WK_DRIVER
          $<TARGET_FILE:wddmkit> fuzz --harness fuzz_spec --build-dir ${_quick_dir} --time 30 --no-triage
          --seeds ${PROJECT_SOURCE_DIR}/corpus --out ${CMAKE_CURRENT_BINARY_DIR}/fuzz-seeds-out)
set_tests_properties(cli.fuzz_seeds PROPERTIES LABELS "unit" TIMEOUT 60 FIXTURES_REQUIRED fuzz_seeds_out
  PASS_REGULAR_EXPRESSION "corpus: .*regressions added now, [1-9][0-9]* from --seeds\\)")
add_test(NAME cli.fuzz_bad_seeds
  COMMAND wddmkit fuzz --harness fuzz_spec --seeds ${CMAKE_CURRENT_BINARY_DIR}/no-such-seeds --dry-run)
set_tests_properties(cli.fuzz_bad_seeds PROPERTIES LABELS "unit" WILL_FAIL TRUE)

# A replay binary much older than the engine binary (a preset rebuilt for
# the engine target only): the campaign warns before its triage, which
# would replay what the harness no longer is (cli_fuzz.c warn_if_older).
set(_stale_dir ${CMAKE_CURRENT_BINARY_DIR}/stale-replay)
wk_stand_in_engine(${_stale_dir} fuzz_spec [=[#!/bin/sh
# A stand-in for a libFuzzer binary that saves one crash and stops (cli/fuzzcli.cmake).
prefix=./
for a in "$@"; do case "$a" in -artifact_prefix=*) prefix=${a#-artifact_prefix=} ;; esac; done
printf '#2\tINITED cov: 10 ft: 12 corp: 1/1b exec/s: 0 rss: 30Mb\n' >&2
printf 'X' > "${prefix}crash-0123456789abcdef"
exit 1
]=])
wk_stand_in_engine(${_stale_dir} fuzz_spec_replay [=[#!/bin/sh
# A stand-in replay binary: every input passes (cli/fuzzcli.cmake).
exit 0
]=])
add_test(NAME cli.fuzz_stale_replay
  COMMAND sh -c "touch -d '2 hours ago' '${_stale_dir}/fuzz/fuzz_spec_replay' && touch '${_stale_dir}/fuzz/fuzz_spec' && \
env -u WK_DRIVER -u WK_REPLAY_DIR '$<TARGET_FILE:wddmkit>' fuzz --harness fuzz_spec --build-dir '${_stale_dir}' --time 30 \
--out '${CMAKE_CURRENT_BINARY_DIR}/fuzz-stale-out'")
set_tests_properties(cli.fuzz_stale_replay PROPERTIES LABELS "unit" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "warning: .*/fuzz_spec_replay is older than .*/fuzz_spec: rebuild")

# AFL++'s side of the summary against a stand-in afl-fuzz (first on PATH)
# and a stand-in harness that carries AFL++'s marker: the main instance's
# fuzzer_stats give the runs and the stability, and a stability below 90%
# points at bench/fuzz_stability.
set(_afl_dir ${CMAKE_CURRENT_BINARY_DIR}/afl-stand-in)
wk_stand_in_engine(${_afl_dir} fuzz_gpu_decode [=[#!/bin/sh
# A stand-in for an AFL++ harness (its runtime's marker: __AFL_SHM_ID); afl-fuzz never runs it.
exit 0
]=])
file(MAKE_DIRECTORY ${_afl_dir}/bin)
file(WRITE ${_afl_dir}/bin/afl-fuzz [=[#!/bin/sh
# A stand-in for afl-fuzz (cli/fuzzcli.cmake): the stats of a main
# instance that ran 3 s, then exit.
out= name=
while [ $# -gt 0 ]; do case "$1" in -o) out=$2; shift ;; -M|-S) name=$2; shift ;; --) break ;; esac; shift; done
mkdir -p "$out/$name/queue" "$out/$name/crashes"
printf 'x' > "$out/$name/queue/id:000000,orig:seed"
now=$(date +%s)
printf 'start_time        : %s\nlast_update       : %s\nrun_time          : 3\nfuzzer_pid        : %s\nexecs_done        : 30000\nexecs_per_sec     : 10000.00\ncorpus_count      : 1\nstability         : 72.50%%\nedges_found       : 50\ntotal_edges       : 5000\n' "$now" "$now" "$$" > "$out/$name/fuzzer_stats"
exit 0
]=])
file(CHMOD ${_afl_dir}/bin/afl-fuzz PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
     WORLD_READ WORLD_EXECUTE)
add_test(NAME cli.fuzz_afl_stand_in
  COMMAND ${CMAKE_COMMAND} -E env --unset=WK_DRIVER "PATH=${_afl_dir}/bin:$ENV{PATH}"
          $<TARGET_FILE:wddmkit> fuzz --harness fuzz_gpu_decode --engine afl --build-dir ${_afl_dir} --time 5
          --no-triage --out ${CMAKE_CURRENT_BINARY_DIR}/fuzz-afl-out)
set_tests_properties(cli.fuzz_afl_stand_in PROPERTIES LABELS "unit" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "runs      30,000.*stability 72.50%.*below 90%: .*bench/fuzz_stability.*result: no crash")

# The crashes of a campaign are triaged, and the reproduce line names, the
# wddmkit of the engine's build (<build>/cli/wddmkit beside
# <build>/fuzz/), which loads a driver built like the harness: here a
# stand-in that records the triage it was asked for.
set(_tools_dir ${CMAKE_CURRENT_BINARY_DIR}/engine-build-tools)
wk_stand_in_engine(${_tools_dir} fuzz_gpu_decode [=[#!/bin/sh
# A stand-in for a libFuzzer binary that finds a crash at once (cli/fuzzcli.cmake).
prefix=./
for a in "$@"; do case "$a" in -artifact_prefix=*) prefix=${a#-artifact_prefix=} ;; esac; done
printf '#2\tINITED cov: 10 ft: 12 corp: 1/1b exec/s: 0 rss: 30Mb\n' >&2
printf 'X' > "${prefix}crash-feedface"
echo "artifact_prefix='$prefix'; Test unit written to ${prefix}crash-feedface" >&2
exit 1
]=])
file(MAKE_DIRECTORY ${_tools_dir}/cli)
file(WRITE ${_tools_dir}/cli/wddmkit [=[#!/bin/sh
# A stand-in for the engine build's wddmkit (cli/fuzzcli.cmake).
case "$1 $2" in
"help "*) printf 'commands:\n  repro FILE [--driver PATH] [--harness NAME]\n  triage DIR [--driver PATH] [--harness NAME]\n' ;;
"triage --help"|"repro --help") printf 'usage: wddmkit %s FILE [--driver PATH] [--harness NAME]\n' "$1" ;;
"triage "*) echo "stand-in triage of $2 with $*" ;;
esac
exit 0
]=])
file(CHMOD ${_tools_dir}/cli/wddmkit PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
     GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
add_test(NAME cli.fuzz_engine_build_tools
  COMMAND ${CMAKE_COMMAND} -E env --unset=WK_DRIVER
          $<TARGET_FILE:wddmkit> fuzz --harness fuzz_gpu_decode --build-dir ${_tools_dir} --time 30
          --out ${CMAKE_CURRENT_BINARY_DIR}/fuzz-tools-out)
set_tests_properties(cli.fuzz_engine_build_tools PROPERTIES LABELS "unit" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "stand-in triage of [^\n]*/fuzz-tools-out/crashes with triage [^\n]*--harness fuzz_gpu_decode.*reproduce: [^\n]*/engine-build-tools/cli/wddmkit repro [^\n]*/crashes/crash-feedface --harness fuzz_gpu_decode.*result: 1 new crash")

# Which build serves a libFuzzer campaign: against a driver module, the
# libfuzzer-driver build first (sanitizers on the driver only, up to twice
# the exec/s); for the built-in reference driver, the libfuzzer build.
# Stand-in builds under the working directory, which the command searches
# after the repository's own.
set(_pick_dir ${CMAKE_CURRENT_BINARY_DIR}/preset-pick)
foreach(_preset libfuzzer libfuzzer-driver)
  wk_stand_in_engine(${_pick_dir}/build/${_preset} fuzz_spec [=[#!/bin/sh
exit 0
]=])
endforeach()
add_test(NAME cli.fuzz_driver_preset
  COMMAND ${CMAKE_COMMAND} -E env --unset=WK_DRIVER
          $<TARGET_FILE:wddmkit> fuzz --harness fuzz_spec --driver ${PROJECT_SOURCE_DIR}/CMakeLists.txt --dry-run
          --out ${CMAKE_CURRENT_BINARY_DIR}/fuzz-pick-out)
set_tests_properties(cli.fuzz_driver_preset PROPERTIES LABELS "unit" WORKING_DIRECTORY ${_pick_dir}
  PASS_REGULAR_EXPRESSION "binary: +[^\n]*/build/libfuzzer-driver/fuzz/fuzz_spec\n")
add_test(NAME cli.fuzz_reference_preset
  COMMAND ${CMAKE_COMMAND} -E env --unset=WK_DRIVER
          $<TARGET_FILE:wddmkit> fuzz --harness fuzz_spec --dry-run --out ${CMAKE_CURRENT_BINARY_DIR}/fuzz-pick-out)
set_tests_properties(cli.fuzz_reference_preset PROPERTIES LABELS "unit" WORKING_DIRECTORY ${_pick_dir}
  PASS_REGULAR_EXPRESSION "binary: +[^\n]*/build/libfuzzer/fuzz/fuzz_spec\n")

# fuzz_hostile leaves leak detection to its leak gate (fuzz/gate/leak_gate.h):
# libFuzzer's own is turned off, unless the user's engine options say.
wk_stand_in_engine(${_pick_dir}/build/libfuzzer fuzz_hostile [=[#!/bin/sh
exit 0
]=])
add_test(NAME cli.fuzz_hostile_leak_gate
  COMMAND ${CMAKE_COMMAND} -E env --unset=WK_DRIVER
          $<TARGET_FILE:wddmkit> fuzz --harness fuzz_hostile --build-dir ${_pick_dir}/build/libfuzzer --dry-run
          --out ${CMAKE_CURRENT_BINARY_DIR}/fuzz-pick-out)
set_tests_properties(cli.fuzz_hostile_leak_gate PROPERTIES LABELS "unit"
  PASS_REGULAR_EXPRESSION "would run: [^\n]*/fuzz_hostile [^\n]* -detect_leaks=0 ")
add_test(NAME cli.fuzz_hostile_leak_option_kept
  COMMAND ${CMAKE_COMMAND} -E env --unset=WK_DRIVER
          $<TARGET_FILE:wddmkit> fuzz --harness fuzz_hostile --build-dir ${_pick_dir}/build/libfuzzer --dry-run
          --out ${CMAKE_CURRENT_BINARY_DIR}/fuzz-pick-out -- -detect_leaks=1)
set_tests_properties(cli.fuzz_hostile_leak_option_kept PROPERTIES LABELS "unit"
  PASS_REGULAR_EXPRESSION "would run: [^\n]* -detect_leaks=1 " FAIL_REGULAR_EXPRESSION "detect_leaks=0")

# AFL++ against a driver module: the afl build first (no sanitizer, the
# faster), afl-driver when the afl build's wddmkit cannot load the module
# (one built with sanitizers); neither: a usage error naming the preset.
# Stand-in wddmkits answer `driver check`: the afl one refuses, the
# afl-driver one loads.
set(_afl_pick ${CMAKE_CURRENT_BINARY_DIR}/afl-pick)
foreach(_preset afl afl-driver)
  wk_stand_in_engine(${_afl_pick}/build/${_preset} fuzz_spec [=[#!/bin/sh
# __AFL_SHM_ID
exit 0
]=])
endforeach()
file(MAKE_DIRECTORY ${_afl_pick}/build/afl/cli ${_afl_pick}/build/afl-driver/cli)
# Both are of this build's commit (`version`): a build of another commit is
# not taken (fuzz/campaign/builds.c, build_is_current).
set(_stand_in_version "if [ \"$1\" = version ]; then printf 'wddmkit 0\\ncommit ${WK_KIT_COMMIT}\\n'; exit 0; fi\n")
file(WRITE ${_afl_pick}/build/afl/cli/wddmkit
     "#!/bin/sh\n${_stand_in_version}echo 'undefined symbol: __asan_report_load8' >&2\nexit 1\n")
file(WRITE ${_afl_pick}/build/afl-driver/cli/wddmkit "#!/bin/sh\n${_stand_in_version}exit 0\n")
file(CHMOD ${_afl_pick}/build/afl/cli/wddmkit ${_afl_pick}/build/afl-driver/cli/wddmkit
     PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
add_test(NAME cli.fuzz_afl_driver_preset
  COMMAND ${CMAKE_COMMAND} -E env --unset=WK_DRIVER
          $<TARGET_FILE:wddmkit> fuzz --harness fuzz_spec --engine afl --driver ${PROJECT_SOURCE_DIR}/CMakeLists.txt
          --dry-run --out ${CMAKE_CURRENT_BINARY_DIR}/fuzz-afl-pick-out)
set_tests_properties(cli.fuzz_afl_driver_preset PROPERTIES LABELS "unit" WORKING_DIRECTORY ${_afl_pick}
  PASS_REGULAR_EXPRESSION "binary: +[^\n]*/build/afl-driver/fuzz/fuzz_spec\n")
set(_afl_refuse ${CMAKE_CURRENT_BINARY_DIR}/afl-refuse)
wk_stand_in_engine(${_afl_refuse}/build/afl fuzz_spec [=[#!/bin/sh
# __AFL_SHM_ID
exit 0
]=])
file(MAKE_DIRECTORY ${_afl_refuse}/build/afl/cli)
file(COPY ${_afl_pick}/build/afl/cli/wddmkit DESTINATION ${_afl_refuse}/build/afl/cli)
add_test(NAME cli.fuzz_afl_driver_refused
  COMMAND ${CMAKE_COMMAND} -E env --unset=WK_DRIVER
          $<TARGET_FILE:wddmkit> fuzz --harness fuzz_spec --engine afl --driver ${PROJECT_SOURCE_DIR}/CMakeLists.txt
          --dry-run --out ${CMAKE_CURRENT_BINARY_DIR}/fuzz-afl-refuse-out)
set_tests_properties(cli.fuzz_afl_driver_refused PROPERTIES LABELS "unit" WORKING_DIRECTORY ${_afl_refuse}
  WILL_FAIL TRUE)
add_test(NAME cli.fuzz_afl_driver_refused_says
  COMMAND sh -c "env -u WK_DRIVER '$<TARGET_FILE:wddmkit>' fuzz --harness fuzz_spec --engine afl \
--driver '${PROJECT_SOURCE_DIR}/CMakeLists.txt' --dry-run --out '${CMAKE_CURRENT_BINARY_DIR}/fuzz-afl-refuse-out' 2>&1; true")
set_tests_properties(cli.fuzz_afl_driver_refused_says PROPERTIES LABELS "unit" WORKING_DIRECTORY ${_afl_refuse}
  PASS_REGULAR_EXPRESSION "no afl build here loads the driver module .*needs the afl-driver preset")

# --prune: the corpus merged down with libFuzzer's -merge=1 or afl-cmin,
# against stand-in engines (every preset) and, in a libFuzzer or AFL++
# build, for real (tests/fuzz_prune.sh).
find_program(WK_BASH bash)
if(WK_BASH)
  find_program(WK_AFL_CMIN afl-cmin)
  set(_prune_real "")
  # (fuzz/ is configured after this folder: no TARGET test for its harnesses)
  if(WK_FUZZ_ENGINE STREQUAL "libfuzzer")
    set(_prune_real ${CMAKE_BINARY_DIR} libfuzzer)
  elseif(WK_FUZZ_ENGINE STREQUAL "afl" AND WK_AFL_CMIN)
    set(_prune_real ${CMAKE_BINARY_DIR} afl)
  endif()
  add_test(NAME cli.fuzz_prune
    COMMAND ${CMAKE_COMMAND} -E env --unset=WK_DRIVER
            ${WK_BASH} ${PROJECT_SOURCE_DIR}/tests/fuzz_prune.sh $<TARGET_FILE:wddmkit>
            ${CMAKE_CURRENT_BINARY_DIR}/fuzz-prune ${_prune_real})
  set_tests_properties(cli.fuzz_prune PROPERTIES LABELS "unit" TIMEOUT 120
    PASS_REGULAR_EXPRESSION "fuzz_prune: all checks passed")
endif()
