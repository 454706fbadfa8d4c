/* SPDX-License-Identifier: MIT */
#include "test_d3dkmddi_layout.c" /* the C layout checks, compiled as C++ */
