/* SPDX-License-Identifier: MIT */
/*
 * inject.c - the failures the kit plays as Windows may (cfg.inject,
 * vidmm.h): a pool allocation that returns NULL, a
 * DxgkCbCreateContextAllocation that returns STATUS_NO_MEMORY, the Nth
 * such call made inside a call of one DDI.
 *
 * Why: a driver's failure paths run only when something fails under it,
 * and on Windows memory does run out. A path that leaks what it allocated
 * before the failure, or reports success without its outputs, is a real
 * bug the happy path never shows (POOL-LEAK-001, CTX-CREATE-002 ...).
 * Counting only inside the named DDI keeps the Nth the same call whatever
 * the driver allocates elsewhere.
 */
#include "internal.h"

int inject_fails(struct wk_vidmm *vm, enum wk_vidmm_fail_what what)
{
    if (!vm || vm->cfg.inject.what != what || vm->injected || call_current_ddi() != vm->cfg.inject.ddi ||
        vm->system_setup) /* the system device and context are the start's, not the case's (system_context.c) */
        return 0;
    if (++vm->inject_seen != vm->cfg.inject.nth)
        return 0;
    vm->injected = 1;
    return 1;
}

uint32_t wk_vidmm_injected(const struct wk_vidmm *vm)
{
    return vm ? vm->injected : 0;
}
