/* SPDX-License-Identifier: MIT */
#include "test_km.c" /* the C checks of km.h, compiled as C++ */
