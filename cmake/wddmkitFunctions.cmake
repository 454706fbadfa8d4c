# SPDX-License-Identifier: MIT
# wddmkitFunctions.cmake - CMake functions for a driver project
# (docs/driver-project.md):
#
#   wddmkit_add_driver(NAME SOURCES src... [GPU_MODEL] [VARIANTS v...] [OPTIONAL]
#                      [INCLUDE_DIRECTORIES dir...] [COMPILE_DEFINITIONS def...]
#                      [COMPILE_OPTIONS opt...] [LINK_LIBRARIES lib...])
#       the driver module NAME.so, and one more module NAME-<variant>.so per
#       instrumented variant, each built with the compiler and flags the kit's
#       build of that name loads (docs/fuzz-your-driver.md, "Build your driver
#       for the engine");
#   wddmkit_add_conformance_test(DRIVER name [VARIANT v] [NAME test] [SPECS path...]
#                                [EXPECTATIONS file] [PROFILE p] [JOBS n]
#                                [TIMEOUT s] [ARGS arg...])
#       a ctest running `wddmkit conform --driver` with JUnit and JSON reports;
#   wddmkit_add_fuzzers(DRIVER name [HARNESSES h...] [VARIANT v] [SECONDS n] [JOBS n])
#       per harness a ctest replaying the kit's seeds and regressions against
#       the driver, and with a fuzzing variant a short campaign as a ctest and
#       a target <name>_fuzz_<harness> for long ones (<name>_fuzz: all);
#       with a coverage variant, targets <name>_coverage_<harness>;
#   wddmkit_driver_module(OUT DRIVER name [VARIANT v])
#       the module's path (a generator expression for a module built here).
#
# Included by wddmkitConfig.cmake (installed kit) and by the kit's own
# CMakeLists.txt (a build tree, add_subdirectory), each of which sets the
# WDDMKIT_LAYOUT_* variables below first. They are kept as global properties,
# so that the functions work from any directory of the project.
#
# The variants, and what each needs (the kit's build of that name: its
# wddmkit and harness programs load the module, its libwk_gpu.a is the
# encoder such a module links):
#   default           the project's compiler; nothing more
#   coverage          clang, -fprofile-instr-generate -fcoverage-mapping (the
#                     default build replays it: `wddmkit coverage --driver`)
#   asan              clang, ASan + UBSan; the kit's asan build
#   libfuzzer         clang, ASan + UBSan + -fsanitize=fuzzer-no-link; the kit's
#   libfuzzer-driver  libfuzzer or libfuzzer-driver build
#   afl               afl-clang-fast; the kit's afl build
#   afl-driver        afl-clang-fast, ASan + UBSan; the kit's afl-driver build
# A variant whose compiler is the project's own is a target of the project
# (NAME_<variant>, '-' as '_'); any other is built in a sub-build configured
# with that compiler (ExternalProject NAME_<variant>), from the same sources.
include_guard(GLOBAL)
include(ExternalProject)

# The variants, and the fuzzing ones in the order `wddmkit fuzz` prefers
# their builds. A macro, not variables of this file: the file may be
# included in a subdirectory (the kit as a subproject) and the functions
# called from another.
macro(_wddmkit_variant_lists)
  set(_wddmkit_variants default coverage asan libfuzzer libfuzzer-driver afl afl-driver)
  set(_wddmkit_fuzz_variants libfuzzer-driver libfuzzer afl afl-driver)
endmacro()

# The layout, from the includer: where the headers, the builds by name, the
# encoder of a build ({VARIANT} in the pattern), the replay programs of the
# main build and the data are, what the kit is (for messages), and how a
# missing build is made.
foreach(_wddmkit_v INCLUDE_DIR BUILDS_DIR ENCODER_PATTERN DEFAULT_ENCODER REPLAY_DIR DATA_DIR ROOT KIND)
  if(DEFINED WDDMKIT_LAYOUT_${_wddmkit_v})
    set_property(GLOBAL PROPERTY WDDMKIT_LAYOUT_${_wddmkit_v} "${WDDMKIT_LAYOUT_${_wddmkit_v}}")
  endif()
endforeach()
set_property(GLOBAL PROPERTY WDDMKIT_FUNCTIONS_FILE "${CMAKE_CURRENT_LIST_FILE}")

function(_wddmkit_layout out key)
  get_property(v GLOBAL PROPERTY WDDMKIT_LAYOUT_${key})
  set(${out} "${v}" PARENT_SCOPE)
endfunction()

# The variant's kit build: its folder under the builds folder, its encoder.
function(_wddmkit_kit_build variant dir_out encoder_out)
  _wddmkit_layout(builds BUILDS_DIR)
  _wddmkit_layout(pattern ENCODER_PATTERN)
  string(REPLACE "{VARIANT}" "${variant}" encoder "${pattern}")
  set(${dir_out} "${builds}/${variant}" PARENT_SCOPE)
  set(${encoder_out} "${encoder}" PARENT_SCOPE)
endfunction()

# The kit's builds present in the builds folder, for messages.
function(_wddmkit_present_builds out)
  _wddmkit_layout(builds BUILDS_DIR)
  file(GLOB entries LIST_DIRECTORIES true "${builds}/*")
  set(names "")
  foreach(e IN LISTS entries)
    if(IS_DIRECTORY "${e}" AND (EXISTS "${e}/cli/wddmkit" OR EXISTS "${e}/fuzz"))
      get_filename_component(n "${e}" NAME)
      list(APPEND names ${n})
    endif()
  endforeach()
  if(NOT names)
    set(names "none")
  endif()
  list(JOIN names ", " joined)
  set(${out} "${joined}" PARENT_SCOPE)
endfunction()

# How a kit build of that name is made and put where it is looked for.
function(_wddmkit_how_to_add_build variant out)
  _wddmkit_layout(kind KIND)
  _wddmkit_layout(root ROOT)
  if(kind STREQUAL "installed")
    set(text "build it in the kit's checkout and install it into the same prefix (docs/install.md, \"Instrumented builds\"):\n"
             "    cmake --preset ${variant} && cmake --build --preset ${variant} && cmake --install build/${variant} --prefix ${root}")
  else()
    set(text "build that preset in the kit's checkout ${root}:\n"
             "    cmake --preset ${variant} && cmake --build --preset ${variant}")
  endif()
  string(JOIN "" text ${text})
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# The compilers of a variant ("" for default: the project's), and the cache
# variable that names each.
function(_wddmkit_variant_compilers variant cc_out cxx_out var_out)
  if(variant STREQUAL "default")
    set(${cc_out} "" PARENT_SCOPE)
    set(${cxx_out} "" PARENT_SCOPE)
    set(${var_out} "" PARENT_SCOPE)
  elseif(variant MATCHES "^afl")
    set(${cc_out} afl-clang-fast PARENT_SCOPE)
    set(${cxx_out} afl-clang-fast++ PARENT_SCOPE)
    set(${var_out} WDDMKIT_AFL_CC PARENT_SCOPE)
  else()
    set(${cc_out} clang PARENT_SCOPE)
    set(${cxx_out} clang++ PARENT_SCOPE)
    set(${var_out} WDDMKIT_CLANG PARENT_SCOPE)
  endif()
endfunction()

# Whether this project's compilers are already the variant's, for the
# languages the sources use.
function(_wddmkit_compiler_is variant langs out)
  set(ok TRUE)
  foreach(lang IN LISTS langs)
    get_filename_component(cc "${CMAKE_${lang}_COMPILER}" NAME)
    if(variant STREQUAL "default")
    elseif(variant MATCHES "^afl")
      if(NOT cc MATCHES "^afl-clang-(fast|lto)")
        set(ok FALSE)
      endif()
    elseif(NOT CMAKE_${lang}_COMPILER_ID STREQUAL "Clang" OR cc MATCHES "^afl-")
      set(ok FALSE)
    endif()
  endforeach()
  set(${out} ${ok} PARENT_SCOPE)
endfunction()

# The compile and link options of a variant's module.
function(_wddmkit_variant_flags variant compile_out link_out)
  set(sanitize -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  # The kit's programs are C: clang links only the C half of the UBSan
  # runtime into them, so a C++ module with the function or vptr check does
  # not load (docs/writing-a-driver.md, "C++ drivers").
  set(cxx_sanitize "$<$<COMPILE_LANGUAGE:CXX>:-fno-sanitize=function,vptr>")
  set(compile "")
  set(link "")
  if(variant MATCHES "^(asan|libfuzzer|libfuzzer-driver|afl-driver)$")
    list(APPEND compile ${sanitize} ${cxx_sanitize})
    list(APPEND link -fsanitize=address,undefined)
  endif()
  if(variant MATCHES "^libfuzzer")
    list(APPEND compile -fsanitize=fuzzer-no-link)
    list(APPEND link -fsanitize=fuzzer-no-link)
  endif()
  if(variant STREQUAL "coverage")
    list(APPEND compile -fprofile-instr-generate -fcoverage-mapping)
    list(APPEND link -fprofile-instr-generate -fcoverage-mapping)
  endif()
  set(${compile_out} "${compile}" PARENT_SCOPE)
  set(${link_out} "${link}" PARENT_SCOPE)
endfunction()

# A variant that cannot be built: an error, or with OPTIONAL a warning.
# The text is the arguments after `optional`, joined.
function(_wddmkit_cannot name variant optional)
  string(JOIN "" text ${ARGN})
  if(optional)
    message(WARNING "wddmkit_add_driver(${name}): the ${variant} variant is left out (OPTIONAL): ${text}")
  else()
    message(FATAL_ERROR "wddmkit_add_driver(${name}): cannot build the ${variant} variant: ${text}\n"
                        "Or leave ${variant} out of VARIANTS, or add OPTIONAL to build the variants that can be built.")
  endif()
endfunction()

# The properties every variant's module has: a loadable module whose only
# exports are DriverEntry and what driver.h/km.h mark (hidden visibility),
# the kit's encoder kept inside (--exclude-libs), no "lib" prefix.
function(_wddmkit_module_target target output_name)
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    OUTPUT_NAME ${output_name}
    POSITION_INDEPENDENT_CODE ON
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  if(NOT DEFINED CMAKE_C_STANDARD)
    set_target_properties(${target} PROPERTIES C_STANDARD 11)
  endif()
  if(NOT DEFINED CMAKE_CXX_STANDARD)
    set_target_properties(${target} PROPERTIES CXX_STANDARD 17)
  endif()
  # Kernel C++ as the WDK builds it (the kit supports neither in a driver).
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-fno-exceptions -fno-rtti>)
  target_link_options(${target} PRIVATE -Wl,--exclude-libs,ALL)
endfunction()

# The languages of a source list (C, CXX).
function(_wddmkit_languages sources out)
  set(langs C)
  foreach(s IN LISTS sources)
    if(s MATCHES "\\.(cpp|cxx|cc|C|c\\+\\+)$")
      list(APPEND langs CXX)
      break()
    endif()
  endforeach()
  set(${out} "${langs}" PARENT_SCOPE)
endfunction()

# One variant built by this project: target NAME_<variant>, or NAME for
# default. Links the variant's encoder when GPU_MODEL, and LINK_LIBRARIES
# (the wddmkit:: names mapped to the variant's files).
function(_wddmkit_add_variant_here name variant target)
  set(prefix _wddmkit_arg)
  add_library(${target} MODULE ${${prefix}_SOURCES})
  if(variant STREQUAL "default")
    _wddmkit_module_target(${target} ${name})
  else()
    _wddmkit_module_target(${target} ${name}-${variant})
  endif()
  _wddmkit_variant_flags(${variant} compile link)
  target_compile_options(${target} PRIVATE ${compile} ${${prefix}_COMPILE_OPTIONS})
  target_link_options(${target} PRIVATE ${link})
  target_compile_definitions(${target} PRIVATE ${${prefix}_COMPILE_DEFINITIONS})
  target_include_directories(${target} PRIVATE ${${prefix}_INCLUDE_DIRECTORIES})
  if(variant STREQUAL "default" AND TARGET wddmkit::headers)
    if(${prefix}_GPU_MODEL)
      target_link_libraries(${target} PRIVATE wddmkit::gpu)
    else()
      target_link_libraries(${target} PRIVATE wddmkit::headers)
    endif()
  else()
    _wddmkit_layout(include INCLUDE_DIR)
    target_include_directories(${target} PRIVATE ${include})
    if(${prefix}_GPU_MODEL)
      if(variant STREQUAL "coverage" AND TARGET wddmkit::gpu)
        set(encoder wddmkit::gpu) # the target: built first where the kit is a subproject
      elseif(variant STREQUAL "coverage")
        _wddmkit_layout(encoder DEFAULT_ENCODER)
      else()
        _wddmkit_kit_build(${variant} dir encoder)
      endif()
      target_link_libraries(${target} PRIVATE ${encoder})
    endif()
  endif()
  target_link_libraries(${target} PRIVATE ${${prefix}_LINK_LIBRARIES})
endfunction()

# One variant built by a sub-build configured with the variant's compilers:
# a generated project that includes this file and calls wddmkit_add_driver
# for that variant alone, writing the module where an in-project build
# would (CMAKE_CURRENT_BINARY_DIR/NAME-<variant>.so). The sources are
# compiled again there, so their edits rebuild it (BUILD_ALWAYS: the
# sub-build's own dependency tracking decides what to redo).
function(_wddmkit_add_variant_sub name variant target cc cxx langs module)
  set(prefix _wddmkit_arg)
  foreach(item IN LISTS ${prefix}_SOURCES ${prefix}_INCLUDE_DIRECTORIES)
    if(item MATCHES "\\$<")
      message(FATAL_ERROR "wddmkit_add_driver(${name}): the ${variant} variant is built in a sub-build "
        "(this project's compiler is not ${cc}), which takes no generator expression: '${item}'")
    endif()
  endforeach()
  # A target of this project would be code built by another compiler,
  # without the variant's instrumentation: not linked into it.
  set(libs "")
  set(gpu ${${prefix}_GPU_MODEL})
  foreach(lib IN LISTS ${prefix}_LINK_LIBRARIES)
    if(TARGET ${lib})
      message(FATAL_ERROR "wddmkit_add_driver(${name}): LINK_LIBRARIES ${lib} is a target, which the ${variant} "
        "variant cannot take: it is built in a sub-build by ${cc}, and ${lib} would be code built without the "
        "variant's instrumentation. Put its sources in SOURCES, or configure this project with ${cc} "
        "(CMAKE_C_COMPILER) so that the variant is built here.")
    else()
      list(APPEND libs ${lib})
    endif()
  endforeach()
  get_property(functions GLOBAL PROPERTY WDDMKIT_FUNCTIONS_FILE)
  set(dir ${CMAKE_BINARY_DIR}/_wddmkit/${name}-${variant})
  file(CONFIGURE OUTPUT ${dir}/src/CMakeLists.txt @ONLY CONTENT
"# Generated by wddmkit_add_driver(${name}): its ${variant} variant, built by ${cc}.
cmake_minimum_required(VERSION 3.22)
project(${name}_${variant} LANGUAGES ${langs})
include(\"${functions}\")
wddmkit_add_driver(${name} SOURCES \${WDDMKIT_SUB_SOURCES} VARIANTS ${variant} _SUB_BUILD
  \${WDDMKIT_SUB_GPU_MODEL}
  INCLUDE_DIRECTORIES \${WDDMKIT_SUB_INCLUDE_DIRECTORIES}
  COMPILE_DEFINITIONS \${WDDMKIT_SUB_COMPILE_DEFINITIONS}
  COMPILE_OPTIONS \${WDDMKIT_SUB_COMPILE_OPTIONS}
  LINK_LIBRARIES \${WDDMKIT_SUB_LINK_LIBRARIES})
")
  if(gpu)
    set(gpu_flag GPU_MODEL)
  else()
    set(gpu_flag "")
  endif()
  set(layout_args "")
  foreach(key INCLUDE_DIR BUILDS_DIR ENCODER_PATTERN DEFAULT_ENCODER REPLAY_DIR DATA_DIR ROOT KIND)
    _wddmkit_layout(v ${key})
    list(APPEND layout_args "-DWDDMKIT_LAYOUT_${key}:STRING=${v}")
  endforeach()
  if(CMAKE_BUILD_TYPE)
    set(build_type ${CMAKE_BUILD_TYPE})
  else()
    set(build_type RelWithDebInfo)
  endif()
  set(compilers -DCMAKE_C_COMPILER:FILEPATH=${cc})
  if("CXX" IN_LIST langs)
    list(APPEND compilers -DCMAKE_CXX_COMPILER:FILEPATH=${cxx})
  endif()
  set(depends "")
  if(variant STREQUAL "coverage" AND gpu AND TARGET wddmkit::gpu)
    get_target_property(real wddmkit::gpu ALIASED_TARGET)
    if(real) # the kit is a subproject: its encoder is built here first
      set(depends DEPENDS ${real})
    endif()
  endif()
  ExternalProject_Add(${target}
    SOURCE_DIR ${dir}/src
    BINARY_DIR ${dir}/build
    PREFIX ${dir}
    CMAKE_CACHE_ARGS
      ${compilers}
      -DCMAKE_BUILD_TYPE:STRING=${build_type}
      -DCMAKE_LIBRARY_OUTPUT_DIRECTORY:PATH=${CMAKE_CURRENT_BINARY_DIR}
      "-DWDDMKIT_SUB_SOURCES:STRING=${${prefix}_SOURCES}"
      "-DWDDMKIT_SUB_GPU_MODEL:STRING=${gpu_flag}"
      "-DWDDMKIT_SUB_INCLUDE_DIRECTORIES:STRING=${${prefix}_INCLUDE_DIRECTORIES}"
      "-DWDDMKIT_SUB_COMPILE_DEFINITIONS:STRING=${${prefix}_COMPILE_DEFINITIONS}"
      "-DWDDMKIT_SUB_COMPILE_OPTIONS:STRING=${${prefix}_COMPILE_OPTIONS}"
      "-DWDDMKIT_SUB_LINK_LIBRARIES:STRING=${libs}"
      ${layout_args}
    INSTALL_COMMAND ""
    BUILD_ALWAYS ON
    BUILD_BYPRODUCTS ${module}
    ${depends})
endfunction()

function(wddmkit_add_driver name)
  _wddmkit_variant_lists()
  set(prefix _wddmkit_arg)
  cmake_parse_arguments(${prefix} "GPU_MODEL;OPTIONAL;_SUB_BUILD" ""
    "SOURCES;VARIANTS;INCLUDE_DIRECTORIES;COMPILE_DEFINITIONS;COMPILE_OPTIONS;LINK_LIBRARIES" ${ARGN})
  if(${prefix}_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "wddmkit_add_driver(${name}): unknown arguments: ${${prefix}_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ${prefix}_SOURCES)
    message(FATAL_ERROR "wddmkit_add_driver(${name}): no SOURCES")
  endif()
  if(NOT ${prefix}_VARIANTS)
    set(${prefix}_VARIANTS default)
  endif()
  list(REMOVE_DUPLICATES ${prefix}_VARIANTS)
  foreach(v IN LISTS ${prefix}_VARIANTS)
    if(NOT v IN_LIST _wddmkit_variants)
      list(JOIN _wddmkit_variants ", " known)
      message(FATAL_ERROR "wddmkit_add_driver(${name}): unknown variant '${v}' (one of: ${known})")
    endif()
  endforeach()
  # Paths as the sub-builds see them: absolute.
  foreach(list SOURCES INCLUDE_DIRECTORIES)
    set(abs "")
    foreach(p IN LISTS ${prefix}_${list})
      if(NOT p MATCHES "^\\$<" AND NOT IS_ABSOLUTE "${p}")
        set(p ${CMAKE_CURRENT_SOURCE_DIR}/${p})
      endif()
      list(APPEND abs "${p}")
    endforeach()
    set(${prefix}_${list} "${abs}")
  endforeach()
  _wddmkit_languages("${${prefix}_SOURCES}" langs)
  # wddmkit::gpu is GPU_MODEL (each variant links its own build's encoder);
  # wddmkit::headers every variant has.
  if("wddmkit::gpu" IN_LIST ${prefix}_LINK_LIBRARIES)
    set(${prefix}_GPU_MODEL TRUE)
  endif()
  list(REMOVE_ITEM ${prefix}_LINK_LIBRARIES wddmkit::gpu wddmkit::headers)

  set(built "")
  foreach(variant IN LISTS ${prefix}_VARIANTS)
    string(REPLACE "-" "_" suffix "${variant}")
    if(variant STREQUAL "default")
      set(target ${name})
      set(output ${name})
    else()
      set(target ${name}_${suffix})
      set(output ${name}-${variant})
    endif()
    if(${prefix}__SUB_BUILD)
      set(target ${name}_${suffix}) # the parent's target of this variant is the sub-build
    endif()
    # The kit's build of that name, and its encoder.
    if(NOT variant MATCHES "^(default|coverage)$" AND NOT ${prefix}__SUB_BUILD)
      _wddmkit_kit_build(${variant} kit_dir encoder)
      set(missing "")
      if(NOT EXISTS "${kit_dir}/cli/wddmkit")
        set(missing "${kit_dir}/cli/wddmkit")
      elseif(${prefix}_GPU_MODEL AND NOT EXISTS "${encoder}")
        set(missing "${encoder}")
      endif()
      if(missing)
        _wddmkit_present_builds(present)
        _wddmkit_how_to_add_build(${variant} how)
        _wddmkit_layout(root ROOT)
        _wddmkit_cannot(${name} ${variant} "${${prefix}_OPTIONAL}"
          "the kit (${root}) has no ${variant} build, which loads such a module: no ${missing}. "
          "Its builds: ${present}. To add it, ${how}")
        continue()
      endif()
    endif()
    # The compiler: this project's, or a sub-build's.
    _wddmkit_compiler_is(${variant} "${langs}" here)
    set(module "")
    if(here)
      _wddmkit_add_variant_here(${name} ${variant} ${target})
      set(module "$<TARGET_FILE:${target}>")
      if(${prefix}__SUB_BUILD AND CMAKE_LIBRARY_OUTPUT_DIRECTORY)
        # Where the parent expects it, whatever the configuration: a
        # generator expression keeps a multi-config generator from adding
        # a folder per configuration.
        set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${CMAKE_LIBRARY_OUTPUT_DIRECTORY}$<0:>")
      endif()
    elseif(${prefix}__SUB_BUILD)
      message(FATAL_ERROR "wddmkit_add_driver(${name}): the sub-build of the ${variant} variant has the compiler "
                          "${CMAKE_C_COMPILER}, not the variant's")
    else()
      _wddmkit_variant_compilers(${variant} cc_name cxx_name var)
      if(var STREQUAL "WDDMKIT_AFL_CC")
        set(xvar WDDMKIT_AFL_CXX)
      else()
        set(xvar WDDMKIT_CLANGXX)
      endif()
      find_program(${var} ${cc_name} DOC "the C compiler of wddmkit_add_driver's ${variant} variants")
      find_program(${xvar} ${cxx_name} DOC "the C++ compiler of wddmkit_add_driver's ${variant} variants")
      set(need ${var})
      if("CXX" IN_LIST langs)
        list(APPEND need ${xvar})
      endif()
      set(lacking "")
      foreach(v IN LISTS need)
        if(NOT ${v} OR NOT EXISTS "${${v}}")
          list(APPEND lacking ${v})
        endif()
      endforeach()
      if(lacking)
        if(cc_name MATCHES "^afl")
          set(pkg "AFL++ (Debian, Ubuntu: apt install afl++)")
        else()
          set(pkg "clang (Debian, Ubuntu: apt install clang)")
        endif()
        list(JOIN lacking " and " lacking_text)
        _wddmkit_cannot(${name} ${variant} "${${prefix}_OPTIONAL}"
          "it is compiled by ${cc_name}, which was not found (${lacking_text}: '${${var}}'). Install ${pkg}, "
          "or name the compiler with -D${var}=/path/to/${cc_name}")
        continue()
      endif()
      set(module ${CMAKE_CURRENT_BINARY_DIR}/${output}${CMAKE_SHARED_MODULE_SUFFIX})
      _wddmkit_add_variant_sub(${name} ${variant} ${target} ${${var}} "${${xvar}}" "${langs}" ${module})
    endif()
    list(APPEND built ${variant})
    set(module_${suffix} "${module}")
    set(target_${suffix} ${target})
  endforeach()
  if(${prefix}__SUB_BUILD)
    return()
  endif()

  # NAME is the default module, or a target that builds every variant.
  if(NOT TARGET ${name})
    add_custom_target(${name})
    foreach(variant IN LISTS built)
      string(REPLACE "-" "_" suffix "${variant}")
      add_dependencies(${name} ${target_${suffix}})
    endforeach()
  endif()
  set_property(TARGET ${name} PROPERTY WDDMKIT_VARIANTS "${built}")
  set_property(TARGET ${name} PROPERTY WDDMKIT_GPU_MODEL "${${prefix}_GPU_MODEL}")
  foreach(variant IN LISTS built)
    string(REPLACE "-" "_" suffix "${variant}")
    set_property(TARGET ${name} PROPERTY WDDMKIT_MODULE_${suffix} "${module_${suffix}}")
    set_property(TARGET ${name} PROPERTY WDDMKIT_TARGET_${suffix} "${target_${suffix}}")
  endforeach()
endfunction()

# The driver's variants as wddmkit_add_driver built them.
function(_wddmkit_driver_variants driver caller out)
  if(NOT TARGET ${driver})
    message(FATAL_ERROR "${caller}: DRIVER ${driver}: no such target (wddmkit_add_driver(${driver} ...) first)")
  endif()
  get_target_property(variants ${driver} WDDMKIT_VARIANTS)
  if(variants STREQUAL "variants-NOTFOUND")
    message(FATAL_ERROR "${caller}: DRIVER ${driver}: not a driver of wddmkit_add_driver")
  endif()
  set(${out} "${variants}" PARENT_SCOPE)
endfunction()

function(wddmkit_driver_module out)
  cmake_parse_arguments(arg "" "DRIVER;VARIANT" "" ${ARGN})
  if(NOT arg_VARIANT)
    set(arg_VARIANT default)
  endif()
  _wddmkit_driver_variants(${arg_DRIVER} wddmkit_driver_module variants)
  if(NOT arg_VARIANT IN_LIST variants)
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  string(REPLACE "-" "_" suffix "${arg_VARIANT}")
  get_target_property(module ${arg_DRIVER} WDDMKIT_MODULE_${suffix})
  set(${out} "${module}" PARENT_SCOPE)
endfunction()

# The wddmkit command: the package's imported target, or the build tree's.
function(_wddmkit_command out)
  if(TARGET wddmkit::wddmkit)
    set(${out} "$<TARGET_FILE:wddmkit::wddmkit>" PARENT_SCOPE)
  else()
    message(FATAL_ERROR "wddmkit: no wddmkit::wddmkit target (find_package(wddmkit) or add_subdirectory of the kit first)")
  endif()
endfunction()

# The variant a test runs: VARIANT, else default when built, else the first.
function(_wddmkit_pick_variant caller driver wanted candidates out)
  _wddmkit_driver_variants(${driver} ${caller} variants)
  if(wanted)
    if(NOT wanted IN_LIST variants)
      message(FATAL_ERROR "${caller}: DRIVER ${driver} has no ${wanted} variant (built: ${variants})")
    endif()
    set(${out} ${wanted} PARENT_SCOPE)
    return()
  endif()
  foreach(c IN LISTS candidates)
    if(c IN_LIST variants)
      set(${out} ${c} PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out} "" PARENT_SCOPE)
endfunction()

function(_wddmkit_absolute list out)
  set(abs "")
  foreach(p IN LISTS list)
    if(NOT IS_ABSOLUTE "${p}")
      set(p ${CMAKE_CURRENT_SOURCE_DIR}/${p})
    endif()
    list(APPEND abs "${p}")
  endforeach()
  set(${out} "${abs}" PARENT_SCOPE)
endfunction()

function(wddmkit_add_conformance_test)
  cmake_parse_arguments(arg "" "DRIVER;VARIANT;NAME;EXPECTATIONS;PROFILE;JOBS;TIMEOUT" "SPECS;ARGS" ${ARGN})
  set(caller "wddmkit_add_conformance_test(DRIVER ${arg_DRIVER})")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${caller}: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  _wddmkit_driver_variants(${arg_DRIVER} "${caller}" variants)
  _wddmkit_pick_variant("${caller}" ${arg_DRIVER} "${arg_VARIANT}" "default;${variants}" variant)
  if(NOT variant)
    message(WARNING "${caller}: no variant of the driver was built: no test")
    return()
  endif()
  wddmkit_driver_module(module DRIVER ${arg_DRIVER} VARIANT ${variant})
  if(NOT arg_NAME)
    set(arg_NAME ${arg_DRIVER}.conform)
    if(NOT variant STREQUAL "default")
      set(arg_NAME ${arg_NAME}.${variant})
    endif()
  endif()
  if(NOT arg_JOBS)
    set(arg_JOBS 2)
  endif()
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 900)
  endif()
  set(reports ${CMAKE_CURRENT_BINARY_DIR}/wddmkit-reports)
  file(MAKE_DIRECTORY ${reports})
  set(options -j ${arg_JOBS} --quiet --driver ${module}
      --junit ${reports}/${arg_NAME}.junit.xml --json ${reports}/${arg_NAME}.json)
  if(arg_PROFILE)
    list(APPEND options --profile ${arg_PROFILE})
  endif()
  if(arg_EXPECTATIONS)
    _wddmkit_absolute("${arg_EXPECTATIONS}" expectations)
    list(APPEND options --expectations ${expectations})
  endif()
  _wddmkit_absolute("${arg_SPECS}" specs)
  _wddmkit_command(wddmkit)
  add_test(NAME ${arg_NAME} COMMAND ${wddmkit} conform ${options} ${arg_ARGS} ${specs})
  set_tests_properties(${arg_NAME} PROPERTIES
    LABELS "wddmkit;conform" TIMEOUT ${arg_TIMEOUT} PROCESSORS ${arg_JOBS})
endfunction()

function(wddmkit_add_fuzzers)
  _wddmkit_variant_lists()
  cmake_parse_arguments(arg "" "DRIVER;VARIANT;SECONDS;JOBS" "HARNESSES" ${ARGN})
  set(caller "wddmkit_add_fuzzers(DRIVER ${arg_DRIVER})")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${caller}: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  set(driver ${arg_DRIVER})
  _wddmkit_driver_variants(${driver} "${caller}" variants)
  if(NOT arg_HARNESSES)
    # fuzz_render's inputs are the kit's user commands: a driver for other
    # hardware takes them only through a binding's encoder.
    get_target_property(gpu ${driver} WDDMKIT_GPU_MODEL)
    if(gpu)
      set(arg_HARNESSES fuzz_render fuzz_patch fuzz_paging fuzz_prog)
    else()
      set(arg_HARNESSES fuzz_patch fuzz_paging fuzz_prog)
    endif()
  endif()
  if(NOT arg_SECONDS)
    set(arg_SECONDS 10)
  endif()
  if(NOT arg_JOBS)
    set(arg_JOBS 1)
  endif()
  set(WDDMKIT_FUZZ_SECONDS 600 CACHE STRING "seconds each harness runs in the <driver>_fuzz targets (0: until Ctrl-C)")
  _wddmkit_command(wddmkit)
  _wddmkit_layout(data DATA_DIR)
  set(work ${CMAKE_CURRENT_BINARY_DIR}/wddmkit-${driver})
  file(MAKE_DIRECTORY ${work})

  # Replay: the kit's seeds and regressions of each harness against the
  # module, by the harness's replay program of the build that loads it
  # (every build has them; the main build's for default and coverage).
  _wddmkit_pick_variant("${caller}" ${driver} "" "default;asan;${_wddmkit_fuzz_variants}" replay_variant)
  if(replay_variant)
    wddmkit_driver_module(module DRIVER ${driver} VARIANT ${replay_variant})
    if(replay_variant STREQUAL "default")
      _wddmkit_layout(replay_dir REPLAY_DIR)
    else()
      _wddmkit_kit_build(${replay_variant} kit_dir encoder)
      set(replay_dir ${kit_dir}/fuzz)
    endif()
    foreach(h IN LISTS arg_HARNESSES)
      set(dirs "")
      foreach(d seeds regressions)
        if(IS_DIRECTORY ${data}/corpus/${h}/${d})
          list(APPEND dirs ${data}/corpus/${h}/${d})
        endif()
      endforeach()
      if(NOT dirs)
        message(WARNING "${caller}: no seeds or regressions of ${h} in ${data}/corpus/${h}: no replay test")
        continue()
      endif()
      add_test(NAME ${driver}.replay.${h}
        COMMAND ${CMAKE_COMMAND} -E env WK_DRIVER=${module} ${replay_dir}/${h}_replay ${dirs})
      set_tests_properties(${driver}.replay.${h} PROPERTIES LABELS "wddmkit;fuzz-replay" TIMEOUT 300)
    endforeach()
  endif()

  # Campaigns: with a fuzzing variant, a short one per harness as a test,
  # and targets for long ones. Their output is fuzz-out/<harness>-<engine>
  # under the driver's work folder, where `wddmkit coverage` and `triage`
  # look when run there.
  _wddmkit_pick_variant("${caller}" ${driver} "${arg_VARIANT}" "${_wddmkit_fuzz_variants}" fuzz_variant)
  if(fuzz_variant AND NOT fuzz_variant IN_LIST _wddmkit_fuzz_variants)
    message(FATAL_ERROR "${caller}: VARIANT ${fuzz_variant} is not a fuzzing variant (${_wddmkit_fuzz_variants})")
  endif()
  if(fuzz_variant)
    if(fuzz_variant MATCHES "^afl")
      set(engine afl)
    else()
      set(engine libfuzzer)
    endif()
    wddmkit_driver_module(module DRIVER ${driver} VARIANT ${fuzz_variant})
    set(all_commands "")
    foreach(h IN LISTS arg_HARNESSES)
      set(campaign fuzz --harness ${h} --engine ${engine} --driver ${module} --jobs ${arg_JOBS})
      add_test(NAME ${driver}.fuzz.${h}
        COMMAND ${wddmkit} ${campaign} --time ${arg_SECONDS} --out ${work}/fuzz-smoke/${h}-${engine})
      math(EXPR timeout "${arg_SECONDS} * 3 + 120")
      set_tests_properties(${driver}.fuzz.${h} PROPERTIES LABELS "wddmkit;fuzz" TIMEOUT ${timeout}
        PROCESSORS ${arg_JOBS})
      add_custom_target(${driver}_fuzz_${h}
        COMMAND ${wddmkit} ${campaign} --time ${WDDMKIT_FUZZ_SECONDS}
        WORKING_DIRECTORY ${work} USES_TERMINAL VERBATIM
        COMMENT "wddmkit fuzz: ${h} against ${driver} (${fuzz_variant}), ${WDDMKIT_FUZZ_SECONDS} s; output ${work}/fuzz-out/${h}-${engine}")
      list(APPEND all_commands COMMAND ${wddmkit} ${campaign} --time ${WDDMKIT_FUZZ_SECONDS})
    endforeach()
    add_custom_target(${driver}_fuzz ${all_commands} WORKING_DIRECTORY ${work} USES_TERMINAL VERBATIM
      COMMENT "wddmkit fuzz: ${arg_HARNESSES} against ${driver} (${fuzz_variant}), ${WDDMKIT_FUZZ_SECONDS} s each")
  elseif(arg_VARIANT)
    message(FATAL_ERROR "${caller}: VARIANT ${arg_VARIANT} is not a fuzzing variant")
  endif()

  # Coverage of the driver over the seeds, regressions and campaigns.
  if("coverage" IN_LIST variants)
    wddmkit_driver_module(module DRIVER ${driver} VARIANT coverage)
    foreach(h IN LISTS arg_HARNESSES)
      add_custom_target(${driver}_coverage_${h}
        COMMAND ${wddmkit} coverage --harness ${h} --driver ${module}
        WORKING_DIRECTORY ${work} USES_TERMINAL VERBATIM
        COMMENT "wddmkit coverage: ${h} against ${driver}; reports in ${work}/fuzz-out/${h}-coverage")
    endforeach()
  endif()
endfunction()
