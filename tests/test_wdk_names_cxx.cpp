/* SPDX-License-Identifier: MIT */
#include "test_wdk_names.c" /* the C checks of the WDK names, compiled as C++17 */
