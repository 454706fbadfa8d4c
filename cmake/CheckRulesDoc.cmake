# SPDX-License-Identifier: MIT
# ctest helper: docs/contract-rules.md must equal `wddmkit rules --markdown`.
# Regenerate with: build/default/cli/wddmkit rules --markdown > docs/contract-rules.md
execute_process(COMMAND ${WDDMKIT} rules --markdown OUTPUT_VARIABLE generated RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "wddmkit rules --markdown failed (${rc})")
endif()
file(READ ${DOC} committed)
if(NOT generated STREQUAL committed)
  message(FATAL_ERROR "${DOC} is out of date with reference-impl/vidmm/rules.h; regenerate it with:\n"
                      "  ${WDDMKIT} rules --markdown > ${DOC}")
endif()
