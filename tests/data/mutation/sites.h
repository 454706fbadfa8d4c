/* SPDX-License-Identifier: MIT */
/* The header of tests/data/mutation/sites.c: its macro bodies hold
 * operators and constants that are NOT sites of sites.c (they are spelled
 * here), and the STATUS_ names it swaps. */
#ifndef MUTATION_SITES_H
#define MUTATION_SITES_H
#define STATUS_SUCCESS ((int)0)
#define STATUS_UNSUCCESSFUL ((int)-1)
#define STATUS_NO_MEMORY ((int)-2)
#define HEADER_MAX(a, b) ((a) > (b) ? (a) : (b))
int sink(int v);
#endif
