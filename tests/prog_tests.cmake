# SPDX-License-Identifier: MIT
# The binary step-program form (conformance/prog/prog_codec.c).
wk_cmocka_test(test_prog_codec prog.codec 120 SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_prog_codec.c LIBS wk_conformance)
target_compile_definitions(test_prog_codec PRIVATE WK_SPECS_DIR="${PROJECT_SOURCE_DIR}/specs")
# fuzz_render inputs as programs (fuzz/inputs/render_input.c): the harness
# (harnesses/fuzz_render.c and fuzz/driver/fixture.c, linked in) and the
# converted program observed at wk_vidmm_render (ld --wrap) make the same
# call; the render step's new fields through YAML and the codec.
wk_cmocka_test(test_render_input prog.render_input 300
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_render_input.c ${PROJECT_SOURCE_DIR}/harnesses/fuzz_render.c
          ${WK_FUZZ_DRIVER_SOURCES}
  LIBS wk_refdriver_quiet wk_fuzz_gate wk_fuzz wk_conformance)
target_include_directories(test_render_input PRIVATE ${PROJECT_SOURCE_DIR}/fuzz)
target_link_options(test_render_input PRIVATE "LINKER:--wrap=wk_vidmm_render")
target_compile_definitions(test_render_input PRIVATE WK_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
# The structure-aware mutator (fuzz/mutator/prog_mutator.c, its AFL++ entry points
# compiled in): outputs stay programs that round-trip, the render step's
# new fields survive and are mutated.
wk_cmocka_test(test_prog_mutator prog.mutator 300
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_prog_mutator.c ${PROJECT_SOURCE_DIR}/fuzz/mutator/prog_mutator.c
  LIBS wk_fuzz)
target_compile_definitions(test_prog_mutator PRIVATE WK_MUTATOR_AFL)
# fuzz_patch's input parsing (fuzz/inputs/seeds_lib.h): the fast cursor, parse
# without clearing, fold's overlap adjustment, against the obvious code.
wk_cmocka_test(test_fuzz_inputs fuzz.inputs 60 SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_fuzz_inputs.c LIBS wk_fuzz)
# Segment casting (conformance/prog/roles.c): which of the driver's segments
# plays each segment a case names, by kind, size and role, and the reason
# when none can.
wk_cmocka_test(test_roles prog.roles 60 SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_roles.c LIBS wk_conformance)
# The encoder sub-check that a driver kept a request's placement fields
# (conformance/prog/placement_request.c).
wk_cmocka_test(test_placement_request prog.placement_request 30
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_placement_request.c LIBS wk_conformance)
