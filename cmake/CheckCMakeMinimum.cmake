# SPDX-License-Identifier: MIT
# cmake/CheckCMakeMinimum.cmake - cmake -DSOURCE=<checkout> -DMINIMUM=3.22 -P ...
#
# The kit says it builds with CMake MINIMUM (cmake_minimum_required, the
# presets' cmakeMinimumRequired). A newer command or keyword works on the
# CMake that wrote it and fails, or silently does nothing, on the oldest
# one supported, and only a machine with that CMake would tell. This check
# tells everywhere: every CMake file of the checkout (CMakeLists.txt,
# *.cmake, *.cmake.in, and the scripts that run cmake or ctest) is
# searched for the commands, signatures, properties, generator expressions
# and command-line options CMake added after 3.22, from the release notes
# of 3.23 to 3.32 (the list below: what a build of this kind could
# plausibly use, not every addition). A line that uses one on purpose,
# behind a version test, carries "cmake-min-ok: <why>"; a file that plants
# them for a test of this check says "cmake-min-ok-file: <why>".
# Also: every cmake_minimum_required names MINIMUM, and CMakePresets.json
# is of a schema version MINIMUM reads (3: CMake 3.21) and asks for MINIMUM.
cmake_minimum_required(VERSION 3.22)
if(NOT SOURCE OR NOT MINIMUM)
  message(FATAL_ERROR "usage: cmake -DSOURCE=<checkout> -DMINIMUM=3.22 -P CheckCMakeMinimum.cmake")
endif()

# VERSION~REGEX~WHAT: WHAT needs CMake VERSION. Regexes are CMake's (no \b).
set(newer
  "3.23~[( \t]FILE_SET[ \t)]~target_sources(FILE_SET) / install(FILE_SET)"
  "3.23~INITIALIZE_FROM_VARIABLE~define_property(INITIALIZE_FROM_VARIABLE)"
  "3.23~HEADER_SETS~header sets"
  "3.24~(^|[^_A-Z])COMPILE_WARNING_AS_ERROR~the COMPILE_WARNING_AS_ERROR property (ignored before 3.24)"
  "3.24~compile-no-warning-as-error~cmake --compile-no-warning-as-error"
  "3.24~\\$<LINK_LIBRARY:~$<LINK_LIBRARY:...>"
  "3.24~\\$<LINK_GROUP:~$<LINK_GROUP:...>"
  "3.24~\\$<PATH:~$<PATH:...>"
  "3.24~\\$<PATH_EQUAL:~$<PATH_EQUAL:...>"
  "3.24~[ (]PATH_EQUAL[ )]~if(PATH_EQUAL)"
  "3.24~FIND_PACKAGE_ARGS~FetchContent_Declare(FIND_PACKAGE_ARGS)"
  "3.24~OVERRIDE_FIND_PACKAGE~FetchContent_Declare(OVERRIDE_FIND_PACKAGE)"
  "3.24~SET_DEPENDENCY_PROVIDER~cmake_language(SET_DEPENDENCY_PROVIDER)"
  "3.24~CMAKE_FIND_PACKAGE_TARGETS_GLOBAL~CMAKE_FIND_PACKAGE_TARGETS_GLOBAL"
  "3.24~find_package\\([^)]* GLOBAL~find_package(GLOBAL)"
  "3.24~INTERFACE_LINK_LIBRARIES_DIRECT~INTERFACE_LINK_LIBRARIES_DIRECT"
  "3.24~DOWNLOAD_EXTRACT_TIMESTAMP~DOWNLOAD_EXTRACT_TIMESTAMP"
  "3.24~[ \t]--fresh~cmake --fresh"
  "3.24~CMAKE_VERIFY_INTERFACE_HEADER_SETS~CMAKE_VERIFY_INTERFACE_HEADER_SETS"
  "3.25~^[ \t]*block[ \t]*\\(~block()"
  "3.25~^[ \t]*endblock[ \t]*\\(~endblock()"
  "3.25~return\\([ \t]*PROPAGATE~return(PROPAGATE)"
  "3.25~GET_MESSAGE_LOG_LEVEL~cmake_language(GET_MESSAGE_LOG_LEVEL)"
  "3.25~SOURCE_FROM_(CONTENT|VAR|FILE)~try_compile(SOURCE_FROM_...)"
  "3.25~try_(compile|run)\\([^)]*NO_CACHE~try_compile(NO_CACHE)"
  "3.25~add_subdirectory\\([^)]* SYSTEM~add_subdirectory(SYSTEM)"
  "3.25~find_(program|library|file|path)\\([^)]*VALIDATOR~find_program(VALIDATOR)"
  "3.25~if[ \t]*\\([ \t]*(NOT[ \t]+)?LINUX[ \t)]~the LINUX variable"
  "3.25~env[ \t]+--modify~cmake -E env --modify"
  "3.25~\"workflowPresets\"~workflow presets"
  "3.25~\"packagePresets\"~package presets"
  "3.26~copy(_if_different)?[ \t]+-t[ \t]~cmake -E copy -t"
  "3.26~CONFIGURE_LOG~message(CONFIGURE_LOG)"
  "3.27~\\$<LIST:~$<LIST:...>"
  "3.27~\\$<COMPILE_ONLY:~$<COMPILE_ONLY:...>"
  "3.27~DEPENDS_EXPLICIT_ONLY~add_custom_command(DEPENDS_EXPLICIT_ONLY)"
  "3.27~TIMEOUT_SIGNAL_(NAME|GRACE_PERIOD)~the TIMEOUT_SIGNAL_* test properties"
  "3.27~TARGET_RUNTIME_DLL_PATHS~$<TARGET_RUNTIME_DLL_PATHS>"
  "3.27~cmake_file_api~cmake_file_api()"
  "3.28~EXCLUDE_FROM_ALL[ \t]+SYSTEM~FetchContent EXCLUDE_FROM_ALL"
  "3.28~set_(property|tests_properties)\\([^)]*DIRECTORY[^)]*TEST~test properties of another directory"
  "3.29~TEST_LAUNCHER~TEST_LAUNCHER"
  "3.29~cmake_language\\([ \t]*EXIT~cmake_language(EXIT)"
  "3.29~LINKER_TYPE~LINKER_TYPE"
  "3.30~\\$<QUOTE>~$<QUOTE>"
  "3.32~LINK_WARNING_AS_ERROR~the LINK_WARNING_AS_ERROR property")

file(GLOB_RECURSE files RELATIVE ${SOURCE}
     ${SOURCE}/CMakeLists.txt ${SOURCE}/*/CMakeLists.txt ${SOURCE}/*.cmake ${SOURCE}/*.cmake.in
     ${SOURCE}/*.sh ${SOURCE}/.ci/run ${SOURCE}/Makefile ${SOURCE}/CMakePresets.json)
set(problems "")
set(count 0)
foreach(f IN LISTS files)
  if(f MATCHES "^build/" OR f MATCHES "/build/")
    continue()
  endif()
  math(EXPR count "${count} + 1")
  # Lines as a list: ';' and brackets (which would join list items) are
  # masked first, and shown again in a message.
  file(READ ${SOURCE}/${f} text)
  string(REPLACE ";" "<semicolon>" text "${text}")
  string(REPLACE "[" "<lbracket>" text "${text}")
  string(REPLACE "]" "<rbracket>" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  if(text MATCHES "cmake-min-ok-file:") # a test of this check, which plants newer CMake
    continue()
  endif()
  set(n 0)
  foreach(line IN LISTS lines)
    math(EXPR n "${n} + 1")
    if(line MATCHES "cmake-min-ok:" OR f STREQUAL "cmake/CheckCMakeMinimum.cmake")
      continue()
    endif()
    # Comments say what a thing does, even a newer one: only code counts.
    string(REGEX REPLACE "^[ \t]*#.*" "" code "${line}")
    foreach(entry IN LISTS newer)
      string(REGEX MATCH "^([^~]+)~(.+)~([^~]+)$" _ "${entry}")
      set(version ${CMAKE_MATCH_1})
      set(regex "${CMAKE_MATCH_2}")
      set(what "${CMAKE_MATCH_3}")
      if(version VERSION_GREATER MINIMUM AND code MATCHES "${regex}")
        string(REPLACE "<lbracket>" "[" shown "${line}")
        string(REPLACE "<rbracket>" "]" shown "${shown}")
        string(REPLACE "<semicolon>" "\\;" shown "${shown}")
        string(STRIP "${shown}" shown)
        string(APPEND problems "\n  ${f}:${n}: ${what} needs CMake ${version}: ${shown}")
      endif()
    endforeach()
    if(line MATCHES "cmake_minimum_required[ \t]*\\([ \t]*VERSION[ \t]+([0-9]+\\.[0-9]+)")
      if(NOT CMAKE_MATCH_1 VERSION_EQUAL MINIMUM)
        string(APPEND problems "\n  ${f}:${n}: cmake_minimum_required(VERSION ${CMAKE_MATCH_1}), not ${MINIMUM}")
      endif()
    endif()
  endforeach()
endforeach()

# The presets: schema version 3 is the newest CMake 3.21 and 3.22 read.
file(READ ${SOURCE}/CMakePresets.json presets)
string(JSON schema GET "${presets}" version)
if(schema GREATER 3)
  string(APPEND problems "\n  CMakePresets.json: schema version ${schema} needs CMake newer than 3.22 (3 is the newest it reads)")
endif()
string(JSON major GET "${presets}" cmakeMinimumRequired major)
string(JSON minor GET "${presets}" cmakeMinimumRequired minor)
if(NOT "${major}.${minor}" VERSION_EQUAL MINIMUM)
  string(APPEND problems "\n  CMakePresets.json: cmakeMinimumRequired ${major}.${minor}, not ${MINIMUM}")
endif()

if(problems)
  message(FATAL_ERROR "CMake newer than ${MINIMUM} is used:${problems}")
endif()
message(STATUS "cmake minimum: ${count} files use nothing newer than CMake ${MINIMUM}")
