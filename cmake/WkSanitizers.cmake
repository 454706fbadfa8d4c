# SPDX-License-Identifier: MIT
# Global instrumentation chosen by the preset: sanitizers (asan preset),
# clang source-based coverage (coverage preset). Fuzzer instrumentation is
# applied per target in fuzz/ because only harnesses link an engine.
#
# WK_SANITIZE_SCOPE=driver (the libfuzzer-driver preset) instruments only
# drivers (wk_sanitize_driver_code below) while every program still links
# the sanitizer runtimes, so a driver module built with
# -fsanitize=address,undefined loads and its heap is the checked one.
# Why: in a driver harness most of an input's time is the kit checking the
# driver (vidmm, the GPU model); sanitizing that code (and tracing the
# GPU model's comparisons, fuzz/CMakeLists.txt) made an input of
# fuzz_render, fuzz_paging and fuzz_prog cost 1.85 to 2.35 times as much
# (bench/sanitize_scope_speed.sh; docs/performance.md, "Under libFuzzer
# and sanitizers") without checking the driver any better. The kit itself is
# checked by the asan and libfuzzer presets, where the scope is `all`.
if(NOT WK_SANITIZE_SCOPE MATCHES "^(all|driver)$")
  message(FATAL_ERROR "WK_SANITIZE_SCOPE: expected all or driver, saw '${WK_SANITIZE_SCOPE}'")
endif()
if(WK_SANITIZE_SCOPE STREQUAL "driver" AND NOT WK_SANITIZE)
  message(FATAL_ERROR "WK_SANITIZE_SCOPE=driver needs WK_SANITIZE (the sanitizers to put on the driver)")
endif()
set(wk_sanitize_compile_options -fsanitize=${WK_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer)
if(WK_SANITIZE)
  if(WK_SANITIZE_SCOPE STREQUAL "all")
    add_compile_options(${wk_sanitize_compile_options})
  endif()
  add_link_options(-fsanitize=${WK_SANITIZE} -fno-sanitize-recover=all)
endif()

# C++ driver code under clang's UBSan leaves out two checks, whatever the
# scope. A driver module is loaded by a C program (wddmkit, the harnesses),
# which clang links with the C part of the sanitizer runtime only, so a
# module that calls the C++ handlers does not load ("undefined symbol:
# __ubsan_vptr_type_cache", "__ubsan_handle_function_type_mismatch_v1_abort"):
#   vptr      needs RTTI, and kernel C++ is built with -fno-rtti (clang then
#             drops it by itself, but a driver built with RTTI would not);
#   function  clang 14..16 emit it even under -fno-rtti (the prologue points
#             at the function type's type_info), clang 17+ for C as well.
# GCC's runtime is a shared library with every handler, and its UBSan has no
# `function` check, so nothing is left out there.
set(wk_sanitize_driver_cxx_options "")
if(WK_SANITIZE MATCHES "undefined" AND CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  set(wk_sanitize_driver_cxx_options -fno-sanitize=function,vptr)
endif()

# wk_sanitize_driver_code([TARGETS t...] [SOURCES f...]): with
# WK_SANITIZE_SCOPE=driver, instruments these targets (drivers) and these
# sources of the current directory (the kit code a driver calls and that
# dereferences the driver's pointers: its callbacks, the GPU command
# encoder). With the scope `all` everything already is. In both scopes the
# C++ sources of these targets get wk_sanitize_driver_cxx_options (above).
function(wk_sanitize_driver_code)
  cmake_parse_arguments(arg "" "" "TARGETS;SOURCES" ${ARGN})
  if(NOT WK_SANITIZE)
    return()
  endif()
  set(cxx_only "$<$<COMPILE_LANGUAGE:CXX>:${wk_sanitize_driver_cxx_options}>")
  set(options ${cxx_only})
  if(WK_SANITIZE_SCOPE STREQUAL "driver")
    set(options ${wk_sanitize_compile_options} ${cxx_only})
  endif()
  foreach(t IN LISTS arg_TARGETS)
    target_compile_options(${t} PRIVATE ${options})
  endforeach()
  if(arg_SOURCES AND WK_SANITIZE_SCOPE STREQUAL "driver")
    set_source_files_properties(${arg_SOURCES} PROPERTIES COMPILE_OPTIONS "${options}")
  endif()
endfunction()
if(WK_COVERAGE)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "WK_COVERAGE needs clang (source-based coverage)")
  endif()
  add_compile_options(-fprofile-instr-generate -fcoverage-mapping)
  add_link_options(-fprofile-instr-generate -fcoverage-mapping)
endif()
if(WK_FUZZ_ENGINE STREQUAL "libfuzzer" OR WK_FUZZ_ENGINE STREQUAL "afl")
  # A new coverage ignore list must rebuild everything: its digest is on
  # every command line, and editing it re-runs the configuration.
  set(wk_ignorelist ${PROJECT_SOURCE_DIR}/fuzz/coverage-ignorelist.txt)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${wk_ignorelist})
  file(MD5 ${wk_ignorelist} wk_ignorelist_md5)
  add_compile_definitions(WK_COVERAGE_IGNORELIST_MD5=${wk_ignorelist_md5})
endif()
if(WK_FUZZ_ENGINE STREQUAL "libfuzzer")
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "WK_FUZZ_ENGINE=libfuzzer needs clang")
  endif()
  # Every library the harnesses link gets coverage feedback; only the
  # harness executables link the libFuzzer main (fuzz/CMakeLists.txt).
  # The kit's state-reuse machinery stays uninstrumented (the list says why).
  add_compile_options(-fsanitize=fuzzer-no-link -fsanitize-coverage-ignorelist=${wk_ignorelist})
  # Without a sanitizer runtime (which defines the coverage hooks weakly),
  # a program that does not link the engine (replay binaries, the CLI,
  # benchmarks) takes the hooks from libFuzzer's runtime without its main
  # (the bench-libfuzzer preset). Harnesses link the engine on top of it.
  if(NOT WK_SANITIZE)
    execute_process(COMMAND ${CMAKE_C_COMPILER} --print-runtime-dir
                    OUTPUT_VARIABLE wk_rt_dir OUTPUT_STRIP_TRAILING_WHITESPACE)
    set(wk_fuzzer_no_main ${wk_rt_dir}/libclang_rt.fuzzer_no_main-${CMAKE_SYSTEM_PROCESSOR}.a)
    if(NOT EXISTS ${wk_fuzzer_no_main})
      message(FATAL_ERROR "WK_FUZZ_ENGINE=libfuzzer without sanitizers needs ${wk_fuzzer_no_main} (clang's libFuzzer runtime)")
    endif()
    link_libraries(${wk_fuzzer_no_main} stdc++ m)
  endif()
endif()
if(WK_FUZZ_ENGINE STREQUAL "afl")
  # The same list for afl-clang-fast, which reads it from the environment.
  set(CMAKE_C_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env AFL_LLVM_DENYLIST=${wk_ignorelist})
  set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_C_COMPILER_LAUNCHER})
endif()
