# SPDX-License-Identifier: MIT
# cmake/WkLayout.cmake - where the wddmkit command finds its data and its
# builds at run time (util/kit_dirs.c), in a build tree and installed.
#
# Nothing of the source tree is compiled in:
#   - a build tree holds wddmkit-source-dir.txt (util.h's
#     WK_BUILD_TREE_FILE) in the kit's build folder, naming the source
#     folder relative to it (a checkout moved with its build still works),
#     then absolutely; it is never installed;
#   - an installed wddmkit finds <datadir>/wddmkit, <libexecdir>/wddmkit and
#     its replay programs relative to its own folder: the paths below,
#     relative between install folders, so `cmake --install --prefix`
#     anywhere keeps them true.
#
# The builds of one installed kit:
#   WK_INSTALL_VARIANT  this build's name under <libexecdir>/wddmkit/ (the
#                       presets set their own name; default "default");
#   WK_INSTALL_KIT      install the kit itself (the command, headers,
#                       libraries, data, CMake package); OFF for an
#                       instrumented build (sanitizers, a fuzz engine,
#                       coverage), which installs only its programs, into
#                       <libexecdir>/wddmkit/<variant>/{cli,fuzz}/, where
#                       `wddmkit fuzz` and the hand-over look (docs/install.md).
include(GNUInstallDirs)

option(WK_INSTALL "Generate the install rules (cmake --install, cpack)" ${PROJECT_IS_TOP_LEVEL})
set(WK_INSTALL_VARIANT "default" CACHE STRING
    "This build's name under <libexecdir>/wddmkit/ when installed (the presets set their own name)")
if(WK_SANITIZE OR WK_COVERAGE OR NOT WK_FUZZ_ENGINE STREQUAL "none")
  set(_wk_instrumented ON)
else()
  set(_wk_instrumented OFF)
endif()
if(_wk_instrumented)
  set(_wk_kit_default OFF)
else()
  set(_wk_kit_default ON)
endif()
option(WK_INSTALL_KIT
       "Install the kit itself (command, headers, libraries, data); OFF: only this build's programs under libexec/wddmkit/<variant>/"
       ${_wk_kit_default})
if(NOT WK_INSTALL_VARIANT MATCHES "^[A-Za-z0-9_.+-]+$")
  message(FATAL_ERROR "WK_INSTALL_VARIANT '${WK_INSTALL_VARIANT}': expected letters, digits and _.+-")
endif()

# Install folders, relative to the prefix (GNUInstallDirs).
set(WK_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/wddmkit)
set(WK_INSTALL_BUILDSDIR ${CMAKE_INSTALL_LIBEXECDIR}/wddmkit)
set(WK_INSTALL_VARIANTDIR ${WK_INSTALL_BUILDSDIR}/${WK_INSTALL_VARIANT})
set(WK_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/wddmkit)

# Where this build's wddmkit lands, and the paths from there that
# util/kit_dirs.c follows.
if(WK_INSTALL_KIT)
  set(WK_INSTALL_EXEDIR ${CMAKE_INSTALL_BINDIR})
  set(_wk_exe_dir ${CMAKE_INSTALL_FULL_BINDIR})
else()
  set(WK_INSTALL_EXEDIR ${WK_INSTALL_VARIANTDIR}/cli)
  set(_wk_exe_dir ${CMAKE_INSTALL_FULL_LIBEXECDIR}/wddmkit/${WK_INSTALL_VARIANT}/cli)
endif()
file(RELATIVE_PATH WK_INSTALL_DATA_REL ${_wk_exe_dir} ${CMAKE_INSTALL_FULL_DATADIR}/wddmkit)
file(RELATIVE_PATH WK_INSTALL_BUILDS_REL ${_wk_exe_dir} ${CMAKE_INSTALL_FULL_LIBEXECDIR}/wddmkit)
file(RELATIVE_PATH WK_INSTALL_REPLAY_REL ${_wk_exe_dir}
     ${CMAKE_INSTALL_FULL_LIBEXECDIR}/wddmkit/${WK_INSTALL_VARIANT}/fuzz)

# The build tree's pointer to its sources (util/kit_dirs.c reads it).
file(RELATIVE_PATH _wk_source_rel ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
if(_wk_source_rel STREQUAL "")
  set(_wk_source_rel ".")
endif()
file(CONFIGURE OUTPUT ${PROJECT_BINARY_DIR}/wddmkit-source-dir.txt
     CONTENT "${_wk_source_rel}\n${PROJECT_SOURCE_DIR}\n" @ONLY)
