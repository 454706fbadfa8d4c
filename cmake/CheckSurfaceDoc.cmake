# SPDX-License-Identifier: MIT
# ctest helper: docs/wdk-surface.md must equal what wk_wdk_surface prints.
# Regenerate with: build/default/tests/wk_wdk_surface . > docs/wdk-surface.md
execute_process(COMMAND ${GENERATOR} ${ROOT} OUTPUT_VARIABLE generated ERROR_VARIABLE errors RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "wk_wdk_surface failed (${rc}):\n${errors}")
endif()
if(NOT EXISTS ${DOC})
  message(FATAL_ERROR "${DOC} does not exist; generate it with:\n  ${GENERATOR} ${ROOT} > ${DOC}")
endif()
file(READ ${DOC} committed)
if(NOT generated STREQUAL committed)
  message(FATAL_ERROR "${DOC} is out of date with the headers of include/wddmkit/, the DDI and callback "
                      "tables of reference-impl/vidmm/ or docs/data/wdk-kernel-names.txt; regenerate it with:\n"
                      "  ${GENERATOR} ${ROOT} > ${DOC}")
endif()
