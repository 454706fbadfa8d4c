# SPDX-License-Identifier: MIT
# cmake/WkInstall.cmake - what `cmake --install` puts where (docs/install.md).
#
# The kit (WK_INSTALL_KIT, an uninstrumented build: cmake/WkLayout.cmake):
#   bin/wddmkit                              the command
#   include/wddmkit/                         what a driver includes (wddmkit::headers)
#   include/wddmkit-reference/               reference.h, for a harness that links a
#                                            driver in (wddmkit::vidmm)
#   lib/libwk_gpu.a (PIC)                    the GPU model's encoder a driver links (wddmkit::gpu)
#   lib/libwk_vidmm.a, libwk_refdriver_static.a
#                                            the reference VidMm and driver a harness links
#   lib/wddmkit/wk_refdriver.so              the reference driver module (wddmkit::refdriver)
#   lib/cmake/wddmkit/                       find_package(wddmkit), and the functions
#                                            for driver projects (wddmkitFunctions.cmake)
#   lib/pkgconfig/wddmkit.pc                 pkg-config
#   share/wddmkit/{specs,corpus,harnesses}/  the suite, the seed corpora, the dictionaries
#   share/doc/wddmkit/                       README.md, LICENSE, the docs/ pages and schemas
#   share/man/man1/wddmkit.1                 the manual page } written by the command from
#   share/bash-completion/completions/wddmkit              } its help text (cli/cli_manual.c)
# Every build, named WK_INSTALL_VARIANT ("default", or its preset's name):
#   libexec/wddmkit/<variant>/fuzz/          its harness programs: <harness>_replay, and
#                                            with a fuzz engine <harness>; the AFL++
#                                            mutator library where it is built
# An instrumented build (WK_INSTALL_KIT OFF) also:
#   libexec/wddmkit/<variant>/cli/wddmkit    the wddmkit that loads drivers built like it
#                                            (`wddmkit fuzz` and the hand-over find it)
#   lib/wddmkit/<variant>/libwk_gpu.a        the encoder built like it, for such drivers
# (with GNUInstallDirs' folders: lib may be lib64 or lib/<multiarch>).
if(NOT WK_INSTALL)
  return()
endif()
include(CMakePackageConfigHelpers)

# This build's harness programs.
get_property(_wk_fuzzers GLOBAL PROPERTY WK_FUZZERS)
set(_wk_programs "")
foreach(h IN LISTS _wk_fuzzers)
  foreach(t ${h}_replay ${h})
    if(TARGET ${t})
      list(APPEND _wk_programs ${t})
    endif()
  endforeach()
endforeach()
if(_wk_programs)
  install(TARGETS ${_wk_programs} RUNTIME DESTINATION ${WK_INSTALL_VARIANTDIR}/fuzz)
endif()
if(TARGET wk_afl_prog_mutator)
  install(TARGETS wk_afl_prog_mutator LIBRARY DESTINATION ${WK_INSTALL_VARIANTDIR}/fuzz)
endif()

if(NOT WK_INSTALL_KIT)
  install(TARGETS wddmkit RUNTIME DESTINATION ${WK_INSTALL_EXEDIR})
  install(TARGETS wk_gpu ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}/wddmkit/${WK_INSTALL_VARIANT})
  return()
endif()

# The targets of the CMake package, by the names a project uses
# (wddmkit::NAME; the same names are aliases in a build tree).
set_target_properties(wk_headers PROPERTIES EXPORT_NAME headers)
set_target_properties(wk_gpu PROPERTIES EXPORT_NAME gpu)
set_target_properties(wk_vidmm PROPERTIES EXPORT_NAME vidmm)
install(TARGETS wddmkit EXPORT wddmkitTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS wk_headers wk_gpu wk_vidmm EXPORT wddmkitTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
if(TARGET wk_refdriver) # reference-impl/refdriver/ is there (a checkout always has it)
  set_target_properties(wk_refdriver_static PROPERTIES EXPORT_NAME refdriver_static)
  set_target_properties(wk_refdriver PROPERTIES EXPORT_NAME refdriver)
  install(TARGETS wk_refdriver_static EXPORT wddmkitTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(TARGETS wk_refdriver EXPORT wddmkitTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/wddmkit)
  install(FILES ${PROJECT_SOURCE_DIR}/reference-impl/refdriver/refdriver_entry.h
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/wddmkit-reference/refdriver)
endif()

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/wddmkit DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/reference-impl/reference.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/wddmkit-reference)
install(FILES ${PROJECT_SOURCE_DIR}/reference-impl/vidmm/vidmm.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/wddmkit-reference/vidmm)

# The data the command finds beside itself (util/kit_dirs.c).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/specs ${PROJECT_SOURCE_DIR}/corpus DESTINATION ${WK_INSTALL_DATADIR})
file(GLOB _wk_dicts ${PROJECT_SOURCE_DIR}/harnesses/*.dict)
install(FILES ${_wk_dicts} DESTINATION ${WK_INSTALL_DATADIR}/harnesses)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The documentation pages and the schemas they name (json-report.schema.json:
# a team validates its reports with it), beside README.md.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}
        FILES_MATCHING PATTERN "*.md" PATTERN "*.schema.json" PATTERN "data" EXCLUDE)
if(TARGET wk_manual) # not in a cross build without an emulator (cli/CMakeLists.txt)
  install(FILES ${PROJECT_BINARY_DIR}/cli/wddmkit.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  install(FILES ${PROJECT_BINARY_DIR}/cli/wddmkit.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
          RENAME wddmkit)
endif()

# find_package(wddmkit): wddmkitConfig.cmake, its version file, the targets,
# the functions for driver projects (wddmkitFunctions.cmake).
set(WK_INSTALL_VARIANT_LIBDIR ${CMAKE_INSTALL_LIBDIR}/wddmkit) # lib/wddmkit/<build>/libwk_gpu.a
install(EXPORT wddmkitTargets NAMESPACE wddmkit:: DESTINATION ${WK_INSTALL_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/wddmkitConfig.cmake.in
  ${PROJECT_BINARY_DIR}/wddmkitConfig.cmake
  INSTALL_DESTINATION ${WK_INSTALL_CMAKEDIR}
  PATH_VARS WK_INSTALL_DATADIR WK_INSTALL_BUILDSDIR CMAKE_INSTALL_INCLUDEDIR WK_INSTALL_VARIANTDIR
            WK_INSTALL_VARIANT_LIBDIR)
# 0.x: a minor release may change the DDI surface.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/wddmkitConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/wddmkitConfig.cmake ${PROJECT_BINARY_DIR}/wddmkitConfigVersion.cmake
        ${PROJECT_SOURCE_DIR}/cmake/wddmkitFunctions.cmake DESTINATION ${WK_INSTALL_CMAKEDIR})

# wddmkit.pc, relocatable: its prefix is found from the file's own folder.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(WK_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH _wk_pc_up ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
  string(REGEX REPLACE "/$" "" _wk_pc_up "${_wk_pc_up}")
  set(WK_PC_PREFIX "\${pcfiledir}/${_wk_pc_up}")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/wddmkit.pc.in ${PROJECT_BINARY_DIR}/wddmkit.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/wddmkit.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
