/* SPDX-License-Identifier: MIT */
/*
 * reference.h - the API of reference-impl/ for the modules above it
 * (conformance/, fuzz/, cli/): the reference video memory manager
 * (vidmm/vidmm.h) and the entry point of the reference driver linked in as
 * a static library (refdriver/refdriver_entry.h). What lies behind them
 * (vidmm/internal.h, rules.h, placement.h, the driver's own refdriver.h)
 * is private to this folder.
 */
#ifndef WK_REFERENCE_H
#define WK_REFERENCE_H

#include "refdriver/refdriver_entry.h"
#include "vidmm/vidmm.h"

#endif
