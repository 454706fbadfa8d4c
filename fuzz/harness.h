/* SPDX-License-Identifier: MIT */
/*
 * harness.h - the entry points every harness defines and every engine calls
 * (libFuzzer, AFL++'s driver, and replay_main.c).
 */
#ifndef WK_FUZZ_HARNESS_H
#define WK_FUZZ_HARNESS_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#endif
