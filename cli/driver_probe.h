/* SPDX-License-Identifier: MIT */
/*
 * driver_probe.h - what `driver check` (cli_driver.c) and the hand-over
 * (hand_over.c) share of driver_probe.c beyond wk_cli_driver_probe (cli.h):
 * a module built with GCC's shared ASan runtime.
 */
#ifndef WK_CLI_DRIVER_PROBE_H
#define WK_CLI_DRIVER_PROBE_H

#include <stddef.h>
#include <stdio.h>

/* Whether the module at path is built with GCC's shared ASan runtime (it
 * names libasan.so.N, or err is that runtime's "does not come first"
 * message); the runtime's soname into soname. */
int wk_cli_gcc_asan_module(const char *path, const char *err, char *soname, size_t cap);

/* How to run such a module: the runtime preloaded, on out. */
void wk_cli_gcc_asan_advice(FILE *out, const char *soname);

#endif
