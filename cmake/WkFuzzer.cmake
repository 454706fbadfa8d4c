# SPDX-License-Identifier: MIT
# cmake/WkFuzzer.cmake - wk_add_fuzzer(NAME SOURCES ... LIBS ...): one fuzz
# harness (one source with LLVMFuzzerTestOneInput), built three ways:
#   <name>_replay  always: plain binary over files/folders
#                  (harnesses/replay_main.c), used by ctest to replay
#                  corpus/<name>/{seeds,regressions};
#   <name>         WK_FUZZ_ENGINE=libfuzzer: linked with libFuzzer;
#                  WK_FUZZ_ENGINE=afl: linked with AFL++'s driver
#                  (afl-clang-fast -fsanitize=fuzzer).
# Every harness program lands in <build>/fuzz/, where `wddmkit fuzz`, the
# engines and the replay lookups find them, whichever folder defines it.
function(wk_add_fuzzer name)
  cmake_parse_arguments(F "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name}_replay ${F_SOURCES} ${PROJECT_SOURCE_DIR}/harnesses/replay_main.c)
  target_include_directories(${name}_replay PRIVATE ${PROJECT_SOURCE_DIR}/fuzz)
  target_link_libraries(${name}_replay PRIVATE ${F_LIBS})
  set_target_properties(${name}_replay PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz)
  wk_target_warnings(${name}_replay)
  foreach(dir seeds regressions)
    set(path ${PROJECT_SOURCE_DIR}/corpus/${name}/${dir})
    if(WK_BUILD_TESTS AND EXISTS ${path})
      add_test(NAME corpus.${name}.${dir} COMMAND ${name}_replay ${path})
      set_tests_properties(corpus.${name}.${dir} PROPERTIES LABELS "corpus")
    endif()
  endforeach()
  if(WK_FUZZ_ENGINE STREQUAL "libfuzzer" OR WK_FUZZ_ENGINE STREQUAL "afl")
    add_executable(${name} ${F_SOURCES})
    target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/fuzz)
    target_link_libraries(${name} PRIVATE ${F_LIBS})
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
    set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz)
    wk_target_warnings(${name})
  endif()
endfunction()
