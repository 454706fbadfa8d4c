/* SPDX-License-Identifier: MIT */
/*
 * harness_names.h - the names of the fuzz harnesses (harness_names.c).
 */
#ifndef WK_FUZZ_HARNESS_NAMES_H
#define WK_FUZZ_HARNESS_NAMES_H

/* A harness name goes into paths: lower-case letters, digits and '_', at
 * most 32 of them. */
int wk_fuzz_harness_name_ok(const char *name);
/* Whether name is one of the harnesses; their names, ", " separated, for
 * "unknown harness" messages. */
int wk_fuzz_harness_known(const char *name);
const char *wk_fuzz_harness_list(void);

#endif
