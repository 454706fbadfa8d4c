/* SPDX-License-Identifier: MIT */
/*
 * crash_slot.c - which thread of the driver died, told to the process that
 * forked the case's (vidmm.h, "The crash slot").
 *
 * A driver's worker thread that dereferences NULL dies while the kit's own
 * thread is somewhere else, often waiting inside the DDI that handed the
 * worker its job. The signal is delivered to the thread that faulted, so
 * the kit's handler (call.c) runs there: it finds no frame of its own on
 * that thread, notes the thread here, and lets the process die as before.
 * The verdict is still the driver's crash; the report names the thread
 * instead of the DDI (issue 22, "a crash in a driver's deferred worker
 * names the work item or thread, not whichever DDI ran it").
 *
 * Which thread: the kit's trampoline for a system thread (kmthread.h,
 * wk_km_thread_main) tells the kit, through the ThreadRuns service, before
 * the driver's StartRoutine runs; the kit keeps that in a thread-local
 * marker, with the routine's name resolved then (dladdr is no call for a
 * signal handler). A thread without the marker that never called a DDI is
 * one the driver started itself (pthread_create).
 *
 * Only signals sent to the thread itself are noted: a fault (si_code > 0)
 * or its own abort() (SI_TKILL). A signal sent to the process (kill,
 * the hang timer's SIGALRM) lands on any thread and says nothing of it.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "internal.h"

_Static_assert(WK_DDI_COUNT < 128, "km_services.c keeps a DDI in 7 bits of a thread's owner word");

/* What the trampoline said about the calling thread. */
static _Thread_local struct {
    int system;                            /* a system thread of the kit's */
    uint32_t created_in;                   /* enum wk_ddi */
    char routine[WK_VIDMM_ROUTINE_NAME];   /* its StartRoutine, for the report */
} this_thread;

/* The routine's exported name when it has one; else module+offset, the
 * same from run to run (ASLR moves the address, not the offset) and what
 * `addr2line -e module` takes; else the bare address. */
static void routine_name(void (*routine)(void *), char *out, size_t cap)
{
    void *addr;
    Dl_info di;
    memcpy(&addr, &routine, sizeof(addr)); /* a function pointer as an address */
    memset(&di, 0, sizeof(di));
    if (dladdr(addr, &di) && di.dli_sname && di.dli_saddr == addr) {
        snprintf(out, cap, "%s", di.dli_sname);
    } else if (di.dli_fname && di.dli_fbase) {
        const char *base = strrchr(di.dli_fname, '/');
        snprintf(out, cap, "%s+0x%zx", base ? base + 1 : di.dli_fname, (size_t)((char *)addr - (char *)di.dli_fbase));
    } else {
        snprintf(out, cap, "%p", addr);
    }
}

void crash_slot_mark_system_thread(void (*routine)(void *), enum wk_ddi created_in)
{
    routine_name(routine, this_thread.routine, sizeof(this_thread.routine));
    this_thread.created_in = (uint32_t)created_in;
    this_thread.system = 1;
}

void crash_slot_note_thread(volatile struct wk_vidmm_crash_slot *slot, int signo, const siginfo_t *info,
                            int has_addr)
{
    if (signo == SIGALRM || !info || !(info->si_code > 0 || info->si_code == SI_TKILL))
        return;
    if (__atomic_exchange_n(&slot->thread_claimed, 1u, __ATOMIC_SEQ_CST))
        return; /* another thread died first: its note stands */
    slot->thread_signo = signo;
    slot->thread_fault_has_addr = has_addr ? 1u : 0u;
    slot->thread_fault_addr = has_addr ? (uint64_t)(uintptr_t)info->si_addr : 0;
    slot->thread_created_in = this_thread.system ? this_thread.created_in : (uint32_t)WK_DDI_NONE;
    for (size_t i = 0; i < sizeof(slot->thread_routine); i++)
        slot->thread_routine[i] = this_thread.system ? this_thread.routine[i] : '\0';
    slot->thread_kind = this_thread.system ? WK_VIDMM_THREAD_SYSTEM : WK_VIDMM_THREAD_OWN;
}

void wk_vidmm_crash_slot_init(volatile struct wk_vidmm_crash_slot *slot)
{
    slot->ddi = WK_DDI_NONE;
    slot->thread_kind = WK_VIDMM_THREAD_NONE;
    slot->thread_signo = 0;
    slot->thread_created_in = WK_DDI_NONE;
    slot->thread_fault_has_addr = 0;
    slot->thread_claimed = 0;
    slot->thread_fault_addr = 0;
    slot->descriptors_taken = 0;
    for (size_t i = 0; i < sizeof(slot->thread_routine); i++)
        slot->thread_routine[i] = '\0';
}

/* A DDI number read back from the slot: the driver shares the memory. */
static enum wk_ddi valid_ddi(uint32_t d)
{
    return d < (uint32_t)WK_DDI_COUNT ? (enum wk_ddi)d : WK_DDI_NONE;
}

enum wk_ddi wk_vidmm_crash_slot_ddi(const volatile struct wk_vidmm_crash_slot *slot)
{
    return slot ? valid_ddi(slot->ddi) : WK_DDI_NONE;
}

/* "the driver's system thread (StartRoutine worker, started during
 * DxgkDdiRender)" or "a thread the driver started itself (not a DDI)". */
static void thread_words(const volatile struct wk_vidmm_crash_slot *slot, char *out, size_t cap)
{
    if (slot->thread_kind != WK_VIDMM_THREAD_SYSTEM) {
        snprintf(out, cap, "a thread the driver started itself (not a DDI)");
        return;
    }
    char routine[WK_VIDMM_ROUTINE_NAME];
    size_t n = 0;
    for (; n + 1 < sizeof(routine) && slot->thread_routine[n]; n++) {
        char c = slot->thread_routine[n];
        routine[n] = c >= 0x20 && c <= 0x7E ? c : '?';
    }
    routine[n] = '\0';
    enum wk_ddi created_in = valid_ddi(slot->thread_created_in);
    snprintf(out, cap, "the driver's system thread (StartRoutine %s, started %s%s)", n ? routine : "unknown",
             created_in == WK_DDI_NONE ? "outside any DDI" : "during ",
             created_in == WK_DDI_NONE ? "" : wk_ddi_name(created_in));
}

int wk_vidmm_crash_slot_describe(const volatile struct wk_vidmm_crash_slot *slot, int status, int sanitizer,
                                 char *out, size_t cap)
{
    if (cap)
        out[0] = '\0';
    if (!slot)
        return 0;
    uint32_t kind = slot->thread_kind;
    if (kind == WK_VIDMM_THREAD_SYSTEM || kind == WK_VIDMM_THREAD_OWN) {
        char where[WK_VIDMM_ROUTINE_NAME + 96], at[48] = "";
        int signo = slot->thread_signo;
        thread_words(slot, where, sizeof(where));
        if (slot->thread_fault_has_addr) /* as call.c words a crash inside a DDI */
            snprintf(at, sizeof(at), " at address %p", (void *)(uintptr_t)slot->thread_fault_addr);
        snprintf(out, cap, "%s: crashed with signal %d (%s)%s in %s", rule_id(R_DRV_CRASH), signo,
                 signo > 0 && signo < 65 ? strsignal(signo) : "unknown", at, where);
        return WK_VIDMM_CRASH_THREAD;
    }
    enum wk_ddi ddi = wk_vidmm_crash_slot_ddi(slot);
    if (ddi != WK_DDI_NONE && WIFEXITED(status) && sanitizer) {
        /* ASan, UBSan (halt_on_error) and kin report, then exit: the
         * driver's fault, not its exit() (the report says what). */
        snprintf(out, cap, "%s: %s: a sanitizer report ended the process (exit status %d)", rule_id(R_DRV_CRASH),
                 wk_ddi_name(ddi), WEXITSTATUS(status));
        return WK_VIDMM_CRASH_EXIT;
    }
    if (ddi != WK_DDI_NONE && WIFEXITED(status)) {
        /* Only the driver's code runs inside a DDI, and the kit's own
         * ways out of one never exit: the driver ended the process. */
        snprintf(out, cap, "%s: %s: the driver exited the process (exit status %d)", rule_id(R_DRV_CRASH),
                 wk_ddi_name(ddi), WEXITSTATUS(status));
        return WK_VIDMM_CRASH_EXIT;
    }
    if (slot->descriptors_taken) {
        /* as conform words a case whose result pipe the driver took */
        snprintf(out, cap, "%s: the driver %s the process's standard error, where the kit reports its findings: "
                 "the run's findings are lost", rule_id(R_DRV_CRASH),
                 slot->descriptors_taken == 1 ? "closed" : "put another file on");
        return WK_VIDMM_CRASH_DESCRIPTORS;
    }
    return 0;
}
