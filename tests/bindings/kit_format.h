/* SPDX-License-Identifier: MIT */
/*
 * kit_format.h - the test bindings' command processor for the kit's own
 * command set, through processor.h alone (kit_format.c).
 */
#ifndef WK_TEST_KIT_FORMAT_H
#define WK_TEST_KIT_FORMAT_H

#include "wddmkit/gpu.h"
#include "wddmkit/processor.h"

/* wk_processor_ops.exec and .read_address (8 little-endian bytes). */
int wk_test_kit_format_exec(const struct wk_exec *x, struct wk_exec_fault *fault);
int wk_test_kit_format_read_address(void *self, const uint8_t *dma, uint64_t len, uint64_t offset,
                                    uint64_t *address, uint32_t *slot_bytes);

#endif
