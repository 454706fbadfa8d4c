# SPDX-License-Identifier: MIT
# wk_target_warnings(target): the warning set every target of ours builds
# with. -Werror is on for our code only, never for third-party sources.
function(wk_target_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
      -Wmissing-prototypes -Wvla -Wformat=2>
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Werror>)
endfunction()
