# SPDX-License-Identifier: MIT
# conform_profiles.cmake - the check behind ctest conform.independent_driver
# (tests/independent_driver_tests.cmake): the whole spec suite against the
# independent driver, once per profile.
#
#   contract   (the default with --driver) exit 0: no unexpected result, no
#              failure. A failure is a contract violation of this driver or
#              a check that pins the reference driver's choices.
#   reference  exit 1 with failures: the driver makes other choices than the
#              reference driver, so a profile that also checks those must
#              find them; if it found none the profile would not matter.
#
#   cmake -DWDDMKIT=<wddmkit> -DDRIVER=<module> -DSPECS=<dir> -DOUT=<dir> -P conform_profiles.cmake
#
# Prints each profile's totals and run time from its --json report.
foreach(var WDDMKIT DRIVER SPECS OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "conform_profiles: -D${var}=... is required")
  endif()
endforeach()
if(NOT EXISTS "${DRIVER}")
  message("conform_profiles: skipped: ${DRIVER} was not built in this configuration")
  return()
endif()
file(MAKE_DIRECTORY "${OUT}")

# Runs conform with the extra arguments ARGN and checks that the report is
# complete and in `profile`; sets <prefix>_code, <prefix>_<total> for pass,
# fail, skip, crash, error, unexpected, and <prefix>_seconds. The output is
# printed whole when `verbose`, else its totals line only (the reference
# profile's is hundreds of failures long, all expected).
function(run_profile prefix profile verbose)
  set(json "${OUT}/${profile}.json")
  file(REMOVE "${json}")
  execute_process(
    COMMAND "${WDDMKIT}" conform -j 2 --quiet ${ARGN} --driver "${DRIVER}" --json "${json}" "${SPECS}"
    RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(verbose)
    message("--- ${profile} profile (exit ${code}) ---\n${out}${err}")
  else()
    string(REGEX MATCH "[0-9]+ of [0-9]+ cases in [^\n]*" line "${out}")
    message("--- ${profile} profile (exit ${code}) ---\n${line}")
  endif()
  if(NOT EXISTS "${json}")
    message(FATAL_ERROR "conform_profiles: ${profile}: no JSON report at ${json}\n${out}${err}")
  endif()
  file(READ "${json}" doc)
  string(JSON status GET "${doc}" status)
  string(JSON ran GET "${doc}" environment profile)
  if(NOT status STREQUAL "complete" OR NOT ran STREQUAL profile)
    message(FATAL_ERROR "conform_profiles: run status '${status}' in profile '${ran}', "
                        "expected complete in '${profile}'")
  endif()
  foreach(total pass fail skip crash error unexpected)
    string(JSON n GET "${doc}" totals ${total})
    set(${prefix}_${total} ${n} PARENT_SCOPE)
  endforeach()
  string(JSON seconds GET "${doc}" seconds)
  string(REGEX REPLACE "^([0-9]+)(\\.[0-9][0-9]?)?.*$" "\\1\\2" seconds "${seconds}")
  set(${prefix}_seconds ${seconds} PARENT_SCOPE)
  set(${prefix}_code ${code} PARENT_SCOPE)
endfunction()

# The contract profile as a driver author gets it: the default with --driver.
run_profile(c contract TRUE)
message("conform_profiles: contract: ${c_pass} pass, ${c_fail} fail, ${c_skip} skip "
        "(${c_crash} crash, ${c_error} error) in ${c_seconds} s, exit ${c_code}")
run_profile(r reference FALSE --profile reference)
message("conform_profiles: reference: ${r_pass} pass, ${r_fail} fail, ${r_skip} skip "
        "(${r_crash} crash, ${r_error} error) in ${r_seconds} s, exit ${r_code}")

if(NOT c_code EQUAL 0 OR NOT c_unexpected EQUAL 0 OR NOT c_fail EQUAL 0)
  message(FATAL_ERROR "conform_profiles: the contract profile must pass: exit ${c_code}, "
                      "${c_unexpected} unexpected, ${c_fail} fail (see its output above)")
endif()
if(NOT r_code EQUAL 1 OR r_fail EQUAL 0)
  message(FATAL_ERROR "conform_profiles: the reference profile must find the driver's other choices: "
                      "exit ${r_code}, ${r_fail} fail (expected exit 1 and failures)")
endif()
message("conform_profiles: all checks passed")
