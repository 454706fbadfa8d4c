/* SPDX-License-Identifier: MIT */
/*
 * kit_registers.h - a register model of the kit's GPU's ring interface
 * (docs/gpu-model.md, "Registers") through binding.h alone, for the test
 * bindings (kit_registers.c): RING_ADDR, RING_LENGTH, RING_TAG, RING_ROOT
 * and DOORBELL queue a submission, the root latched with it (root()); the
 * kit runs what next() hands it and done() latches COMPLETED (and FAULT) with the
 * tags, which IRQ_ACK clears. So a driver written for the kit's GPU runs
 * unchanged on a binding that has registers.
 */
#ifndef WK_TEST_KIT_REGISTERS_H
#define WK_TEST_KIT_REGISTERS_H

#include "wddmkit/binding.h"

void *wk_test_regs_create(const struct wk_binding_host *host);
void wk_test_regs_destroy(void *self);
void wk_test_regs_reset(void *self);
uint32_t wk_test_regs_read32(void *self, uint32_t bar, uint64_t offset);
void wk_test_regs_write32(void *self, uint32_t bar, uint64_t offset, uint32_t value);
int wk_test_regs_next(void *self, struct wk_submission *out);
void wk_test_regs_done(void *self, const struct wk_submission *s, const struct wk_exec_fault *fault);
int wk_test_regs_irq_pending(void *self);
uint64_t wk_test_regs_root(void *self, const struct wk_submission *s);

#endif
