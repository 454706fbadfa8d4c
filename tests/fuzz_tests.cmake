# SPDX-License-Identifier: MIT
# tests/fuzz_tests.cmake - the wk_vidmm entry points the fuzz harnesses
# stand on: wk_vidmm_reset and wk_vidmm_patch (include()d by
# tests/CMakeLists.txt, which finds cmocka as WK_CMOCKA_LIB/WK_CMOCKA_INCLUDE).
wk_cmocka_test(test_vidmm_fuzzapi vidmm.fuzzapi 120
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_vidmm_fuzzapi.c ${CMAKE_CURRENT_LIST_DIR}/vidmm_test_util.c
  LIBS wk_vidmm wk_refdriver_static wk_gpu)
target_include_directories(test_vidmm_fuzzapi PRIVATE ${PROJECT_SOURCE_DIR}/include ${CMAKE_CURRENT_LIST_DIR})

# The command line in parse-only mode, as fuzz_cli runs it.
wk_cmocka_test(test_cli_parse cli.parse_only 120 SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_cli_parse.c LIBS wk_cli)
target_compile_definitions(test_cli_parse PRIVATE WK_SOURCE_DIR="${PROJECT_SOURCE_DIR}")

# guard.c's spare pools (internal to wk_vidmm).
wk_cmocka_test(test_gbuf_pool vidmm.gbuf_pool 60 SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_gbuf_pool.c
               LIBS wk_vidmm wk_refdriver_static wk_gpu)
target_include_directories(test_gbuf_pool PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/reference-impl/vidmm)

# Fences of buffers in flight (reference-impl/vidmm/queue.c and fence_complete, internal to wk_vidmm).
wk_cmocka_test(test_vidmm_queue vidmm.queue 60 SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_vidmm_queue.c
               LIBS wk_vidmm wk_refdriver_static wk_gpu)
target_include_directories(test_vidmm_queue PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/reference-impl/vidmm)

# The DMA-buffer quarantine (reference-impl/vidmm/dma_quarantine.c, internal to wk_vidmm).
wk_cmocka_test(test_dma_quarantine vidmm.dma_quarantine 120
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_dma_quarantine.c ${CMAKE_CURRENT_LIST_DIR}/vidmm_test_util.c
  LIBS wk_vidmm wk_refdriver_static wk_gpu)
target_include_directories(test_dma_quarantine PRIVATE ${PROJECT_SOURCE_DIR}/include ${CMAKE_CURRENT_LIST_DIR}
                           ${PROJECT_SOURCE_DIR}/reference-impl/vidmm)
