# SPDX-License-Identifier: MIT
# tests/binding_tests.cmake - hardware bindings (include/wddmkit/binding.h):
# the test bindings of tests/bindings/test_binding.c, one module per
# variant, and what the kit makes of each (tests/binding_cli.sh): the
# refused ones by name and reason, the hostile ones as BIND-* errors that
# never blame the driver, the good one running the reference driver's
# buffers through the binding path. include()d by tests/CMakeLists.txt.
set(_wk_tb_variants GOOD BAD_MAGIC ABI_2 SMALL NO_EXEC BAD_BAR NO_MEMORY CRASH_EXEC LOOP_EXEC BAD_FAULT IGNORE_BUDGET
    FAULTS CRASH_REGWRITE NONDET GREEDY_OPAQUE OVERREAD_OPAQUE RENDER_ENCODER SLOT5 SLOT12 SPEND_BUDGET
    GPUMMU MMU_MISREAD MMU_HALF GPUMMU_REGS ENC_FILL_WRONG GPUMMU2 NODE_ENCODER)
set(_wk_tb_modules)
foreach(v ${_wk_tb_variants})
  string(TOLOWER ${v} _wk_tb_name)
  set(_wk_tb_target wk_test_binding_${_wk_tb_name})
  add_library(${_wk_tb_target} MODULE ${CMAKE_CURRENT_LIST_DIR}/bindings/test_binding.c
              ${CMAKE_CURRENT_LIST_DIR}/bindings/kit_format.c ${CMAKE_CURRENT_LIST_DIR}/bindings/kit_registers.c)
  target_include_directories(${_wk_tb_target} PRIVATE ${PROJECT_SOURCE_DIR}/include)
  target_compile_definitions(${_wk_tb_target} PRIVATE TB_${v})
  # TB_GOOD decodes the kit's format with the module's own copy of the GPU
  # model library's decoder; memory only through processor.h's table.
  target_link_libraries(${_wk_tb_target} PRIVATE wk_gpu)
  target_link_options(${_wk_tb_target} PRIVATE -Wl,--exclude-libs,ALL)
  set_target_properties(${_wk_tb_target} PROPERTIES PREFIX "" POSITION_INDEPENDENT_CODE ON
                        C_VISIBILITY_PRESET hidden)
  wk_target_warnings(${_wk_tb_target})
  list(APPEND _wk_tb_modules $<TARGET_FILE:${_wk_tb_target}>)
endforeach()
find_program(WK_BASH bash)
if(WK_BASH)
  add_test(NAME cli.binding
    COMMAND ${WK_BASH} ${CMAKE_CURRENT_LIST_DIR}/binding_cli.sh $<TARGET_FILE:wddmkit> $<TARGET_FILE:wk_refdriver>
            $<TARGET_FILE:wk_refdriver_mmio>
            ${PROJECT_SOURCE_DIR}/specs ${CMAKE_CURRENT_BINARY_DIR}/binding-cli ${_wk_tb_modules}
            $<TARGET_FILE:wk_refdriver_gpummu> $<TARGET_FILE:wk_test_gpummu_root_kept>
            $<TARGET_FILE:wk_test_two_nodes>)
  set_tests_properties(cli.binding PROPERTIES LABELS "unit" TIMEOUT 600
    PASS_REGULAR_EXPRESSION "binding_cli: all checks passed")
endif()
unset(_wk_tb_variants)
unset(_wk_tb_modules)
