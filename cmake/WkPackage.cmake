# SPDX-License-Identifier: MIT
# cmake/WkPackage.cmake - `cpack` in a build folder: wddmkit-<version>-Linux.tar.gz
# (extract anywhere: the command finds its data beside itself) and a Debian
# package, from what `cmake --install` puts (cmake/WkInstall.cmake).
#
# A package holds this build's install, and that of every build folder in
# WK_PACKAGE_EXTRA_BUILDS: the instrumented builds `wddmkit fuzz` and the
# hand-over use (configured with their presets, which name each and leave
# WK_INSTALL_KIT off), docs/install.md, "Instrumented builds":
#   cmake -B build/default -DWK_PACKAGE_EXTRA_BUILDS="$PWD/build/libfuzzer;$PWD/build/afl" ...
#   cpack --config build/default/CPackConfig.cmake -G DEB
if(NOT WK_INSTALL OR NOT PROJECT_IS_TOP_LEVEL)
  return()
endif()
set(WK_PACKAGE_EXTRA_BUILDS "" CACHE STRING
    "Build folders of instrumented presets whose installs join this build's in the package (;-separated)")
set(WK_PACKAGE_MAINTAINER "The wddmkit authors" CACHE STRING "The Debian package's Maintainer field")

set(CPACK_PACKAGE_NAME wddmkit)
set(CPACK_PACKAGE_VENDOR "The wddmkit authors")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Fuzzing and conformance test kit for WDDM-style GPU kernel drivers on Linux")
set(CPACK_PACKAGE_DESCRIPTION
    "wddmkit plays the Windows graphics kernel for a display miniport's DxgkDdi* code built as a
Linux shared object: a reference video memory manager calls the driver and checks every answer
against the DDI contract, over a GPU model. It ships the wddmkit command (conform, fuzz, repro,
triage), the driver headers, the GPU model's command encoder, the conformance specs, seed corpora
and fuzzing dictionaries, and a CMake package and a pkg-config file.")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_RESOURCE_FILE_README ${PROJECT_SOURCE_DIR}/README.md)
set(CPACK_GENERATOR "TGZ;DEB")
set(CPACK_PACKAGE_FILE_NAME "${CPACK_PACKAGE_NAME}-${PROJECT_VERSION}-${CMAKE_SYSTEM_NAME}")
set(CPACK_INSTALL_CMAKE_PROJECTS "${PROJECT_BINARY_DIR};${PROJECT_NAME};ALL;/")
foreach(dir IN LISTS WK_PACKAGE_EXTRA_BUILDS)
  list(APPEND CPACK_INSTALL_CMAKE_PROJECTS "${dir};${PROJECT_NAME};ALL;/")
endforeach()

# Debian: the shared libraries the programs load (libyaml, jansson, libc)
# become Depends, computed by dpkg-shlibdeps.
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${WK_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
include(CPack)
