# SPDX-License-Identifier: MIT
# wk_target_warnings(target): the warning set every target of ours builds
# with. Warnings are errors (the target's COMPILE_WARNING_AS_ERROR, so
# `cmake --compile-no-warning-as-error` still turns them off; before CMake
# 3.24, which has no such property, -Werror) when the kit
# is the top-level project or CMAKE_COMPILE_WARNING_AS_ERROR says so
# (WK_WARNINGS_AS_ERRORS, CMakeLists.txt); never for third-party sources.
function(wk_target_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wshadow -Wstrict-prototypes
      -Wmissing-prototypes -Wvla -Wformat=2>
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>)
  set_property(TARGET ${target} PROPERTY COMPILE_WARNING_AS_ERROR ${WK_WARNINGS_AS_ERRORS}) # cmake-min-ok: below 3.24, -Werror
  # CMake before 3.24 has no such property: the flag itself.
  if(CMAKE_VERSION VERSION_LESS 3.24 AND WK_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
