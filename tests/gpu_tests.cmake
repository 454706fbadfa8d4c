# SPDX-License-Identifier: MIT
# tests/gpu_tests.cmake - the GPU-model unit tests (include()d by
# tests/CMakeLists.txt, which finds cmocka as WK_CMOCKA_LIB/WK_CMOCKA_INCLUDE).
#
# gpu_test_util: the standard adapter and the bool-returning checks the
# suites share. Every suite is its own executable, so each runs in its own
# process (a crash in one cannot hide the others' results).
#   gpu.commands, gpu.faults  labels unit;conform  (`make conform` runs these)
#   gpu.memory, gpu.codec, gpu.view, gpu.processor, gpu.segmap, gpu.mem_spans,
#   gpu.golden
#                                  label  unit

add_library(gpu_test_util STATIC ${CMAKE_CURRENT_LIST_DIR}/gpu_test_util.c)
target_include_directories(gpu_test_util PUBLIC
  ${CMAKE_CURRENT_LIST_DIR}
  ${PROJECT_SOURCE_DIR}/include)
if(WK_CMOCKA_INCLUDE)
  target_include_directories(gpu_test_util SYSTEM PUBLIC ${WK_CMOCKA_INCLUDE})
endif()
target_link_libraries(gpu_test_util PUBLIC wk_gpu ${WK_CMOCKA_LIB})
wk_target_warnings(gpu_test_util)

foreach(suite commands faults memory codec view processor segmap va)
  add_executable(test_gpu_${suite} ${CMAKE_CURRENT_LIST_DIR}/test_gpu_${suite}.c)
  target_link_libraries(test_gpu_${suite} PRIVATE wk_gpu gpu_test_util ${WK_CMOCKA_LIB})
  wk_target_warnings(test_gpu_${suite})
  add_test(NAME gpu.${suite} COMMAND test_gpu_${suite})
endforeach()

set_tests_properties(gpu.commands gpu.faults PROPERTIES LABELS "unit;conform" TIMEOUT 120)
set_tests_properties(gpu.memory gpu.codec gpu.view gpu.processor gpu.segmap gpu.va PROPERTIES LABELS "unit" TIMEOUT 120)

# gpu.mem_spans: the memory system through processor.h's table.
add_executable(test_mem_spans ${CMAKE_CURRENT_LIST_DIR}/test_mem_spans.c)
target_link_libraries(test_mem_spans PRIVATE wk_gpu gpu_test_util ${WK_CMOCKA_LIB})
wk_target_warnings(test_mem_spans)
add_test(NAME gpu.mem_spans COMMAND test_mem_spans)
set_tests_properties(gpu.mem_spans PROPERTIES LABELS "unit" TIMEOUT 120)

# gpu.golden: every observable outcome of the corpus, hand-built and random
# buffers, compared with the record tests/data/gpu_golden.txt (written with
# `test_gpu_golden --write` before a rewrite of the model, so the rewrite is
# proven bit-identical). A plain program: a difference names input and field.
add_executable(test_gpu_golden ${CMAKE_CURRENT_LIST_DIR}/test_gpu_golden.c)
target_link_libraries(test_gpu_golden PRIVATE wk_gpu)
wk_target_warnings(test_gpu_golden)
add_test(NAME gpu.golden COMMAND test_gpu_golden ${CMAKE_CURRENT_LIST_DIR}/data/gpu_golden.txt
         ${PROJECT_SOURCE_DIR}/corpus/fuzz_gpu_decode)
set_tests_properties(gpu.golden PROPERTIES LABELS "unit" TIMEOUT 120)
