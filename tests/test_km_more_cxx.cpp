/* SPDX-License-Identifier: MIT */
#include "test_km_more.c" /* the C checks of kmstring.h, kmmemory.h and kmthread.h, compiled as C++17 */
