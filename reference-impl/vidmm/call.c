/* SPDX-License-Identifier: MIT */
/*
 * call.c - guarded calls into the driver under test.
 *
 * A hostile driver may crash, hang or write past a buffer. Each DDI call
 * runs inside a frame (DDI_CALL in internal.h): fatal signals, including the
 * SIGSEGV of a guard-page hit, and the SIGALRM of the hang timer jump back to
 * the frame, which reports DRV-CRASH-001, DRV-HANG-001 or MEM-GUARD-001 with
 * the DDI, the buffer and the offset, and marks the adapter dead (the
 * driver's state can no longer be trusted). The process goes on.
 *
 * Signals are per process, so the active frame is found through one
 * thread-local pointer: the only mutable state outside a wk_vidmm besides
 * the handlers and the published crash slot below, and it holds nothing
 * between calls. The handler runs on the thread that faulted (SIGSEGV,
 * SIGBUS, SIGFPE, SIGILL, and abort's SIGABRT are sent to it), so it only
 * ever jumps to a frame of its own thread. With no frame active the
 * previous handler (a sanitizer's, or the default) gets the signal
 * unchanged; on a thread of the driver's, which never has a frame, the
 * thread is noted in the crash slot first (crash_slot.c), so that the
 * report names it and not the DDI the kit's thread was waiting in.
 */

#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <pthread.h>
#include <ucontext.h>

#include "internal.h"

static _Thread_local struct ddi_frame *active;

/* Where the DDI of the active frame is published for another process
 * (wk_vidmm_publish_crash_slot): memory the case runner shares with its
 * child, so that a driver that ends the process inside a DDI (exit, _exit:
 * no frame sees those) is named with it. A plain store per frame change,
 * no system call. */
static volatile struct wk_vidmm_crash_slot *published;

/* Set on the threads that call DDIs (the one that published the slot,
 * and any that entered a frame): a signal without a frame on such a
 * thread is the kit's own, never noted as a driver thread's. */
static _Thread_local int calls_ddis;

static void publish(void)
{
    if (published)
        published->ddi = (uint32_t)(active ? active->ddi : WK_DDI_NONE);
}

void wk_vidmm_publish_crash_slot(volatile struct wk_vidmm_crash_slot *slot)
{
    calls_ddis = 1;
    published = slot;
    publish();
}

void wk_vidmm_note_descriptors_taken(int how)
{
    if (published)
        published->descriptors_taken = (uint32_t)how;
}

struct wk_vidmm *call_current_vm(void)
{
    return active ? active->vm : NULL;
}

enum wk_ddi call_current_ddi(void)
{
    return active ? active->ddi : WK_DDI_NONE;
}

/* The frame's signo when km.h ended the call (no signal has it). */
#define SIGNO_KM_FAILURE (-1)

void call_end_with_km_failure(const char *line)
{
    struct ddi_frame *f = active;
    if (!f)
        return;
    snprintf(f->vm->km_failure, sizeof(f->vm->km_failure), "%s", line);
    f->signo = SIGNO_KM_FAILURE;
    f->fault_addr = NULL;
    f->fault_has_addr = 0;
    f->fault_on_stack = 0;
    f->fault_access = FAULT_UNKNOWN;
    active = f->outer;
    publish();
    siglongjmp(f->env, 1);
}

static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM, SIGTRAP };
#define NSIG_CAUGHT (sizeof(fatal_signals) / sizeof(fatal_signals[0]))
static struct sigaction previous[NSIG_CAUGHT];

/* SIGALRM is ours only while our hang timer runs: with no timer (a fuzz
 * harness leaving hangs to its engine) it belongs to whoever armed it, such
 * as libFuzzer's -timeout watchdog. */
static int alarm_is_ours(const struct ddi_frame *f)
{
    return f->vm->cfg.ddi_timeout_ms != UINT32_MAX;
}

/* Whether a SIGSEGV was a read or a write, from the page-fault error code
 * the kernel saves with the context: bit 1 is set for a write on x86-64
 * (REG_ERR). Other hosts do not give it in a portable form: there the
 * report says "accessed" (a read of a guard page and a write look alike). */
static int fault_access_of(int signo, void *uctx)
{
#if defined(__x86_64__) && defined(__linux__) && defined(REG_ERR)
    const ucontext_t *uc = uctx;
    if (signo == SIGSEGV && uc)
        return (uc->uc_mcontext.gregs[REG_ERR] & 2) ? FAULT_WRITE : FAULT_READ;
#else
    (void)uctx;
#endif
    (void)signo;
    return FAULT_UNKNOWN;
}

/* Whether si_addr says where the CPU faulted: only for the signals that
 * carry one, raised by the hardware (si_code > 0). A signal sent by kill,
 * raise or abort (si_code <= 0) holds the sender's pid and uid there, so
 * printing it as an "address" made reports differ from run to run. */
static int carries_address(int signo, const siginfo_t *info)
{
    if (!info || info->si_code <= 0)
        return 0;
    return signo == SIGSEGV || signo == SIGBUS || signo == SIGFPE || signo == SIGILL || signo == SIGTRAP;
}

/* Whether a SIGSEGV hit next to the faulting thread's stack pointer: a
 * stack overflow (runaway recursion, a huge local array), which the
 * handler can only see on its own signal stack. The window is generous on
 * both sides: the new frame was reserved by moving the pointer down, and
 * its first store may be anywhere in it (a sanitizer's frame holds
 * redzones too: under ASan one in ten faults of the test's recursion was
 * 300 bytes and more above the pointer). A memory access lands that near
 * the stack pointer by chance only, on a stack that has run out. The
 * address itself is not printed: it differs from run to run (ASLR), the
 * overflow does not. */
#define STACK_FAULT_WINDOW (64u * 1024u)
static int fault_on_stack(int signo, const siginfo_t *info, void *uctx)
{
    if (signo != SIGSEGV || !info || info->si_code <= 0 || !uctx)
        return 0;
    const ucontext_t *uc = uctx;
    uintptr_t sp;
#if defined(__x86_64__) && defined(__linux__) && defined(REG_RSP)
    sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__) && defined(__linux__)
    sp = (uintptr_t)uc->uc_mcontext.sp;
#else
    (void)uc;
    return 0;
#endif
    uintptr_t at = (uintptr_t)info->si_addr;
    return at < sp + STACK_FAULT_WINDOW && at + STACK_FAULT_WINDOW >= sp;
}

static void on_signal(int signo, siginfo_t *info, void *uctx)
{
    struct ddi_frame *f = active;
    if (f && (signo != SIGALRM || alarm_is_ours(f))) {
        f->signo = signo;
        f->fault_has_addr = carries_address(signo, info);
        f->fault_addr = f->fault_has_addr ? info->si_addr : NULL;
        f->fault_access = fault_access_of(signo, uctx);
        f->fault_on_stack = fault_on_stack(signo, info, uctx);
        active = f->outer;
        publish();
        siglongjmp(f->env, 1);
    }
    if (!f && !calls_ddis && published)
        crash_slot_note_thread(published, signo, info, carries_address(signo, info));
    for (size_t i = 0; i < NSIG_CAUGHT; i++) {
        if (fatal_signals[i] != signo)
            continue;
        if (previous[i].sa_flags & SA_SIGINFO && previous[i].sa_sigaction && previous[i].sa_sigaction != on_signal) {
            previous[i].sa_sigaction(signo, info, uctx);
            return;
        }
        if (previous[i].sa_handler != SIG_DFL && previous[i].sa_handler != SIG_IGN &&
            previous[i].sa_handler) {
            previous[i].sa_handler(signo);
            return;
        }
    }
    signal(signo, SIG_DFL);
    raise(signo);
}

static void our_action(struct sigaction *sa)
{
    memset(sa, 0, sizeof(*sa));
    sa->sa_sigaction = on_signal;
    sa->sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa->sa_mask);
}

/* Ours again for every caught signal, whatever replaced it, without making
 * the replacement the "previous" handler: between two calls of an adapter
 * only the driver runs code that would (a handler of its own, installed in
 * DriverEntry, that returns at once turned a guard-page hit into a fault
 * retried for ever, a hang). A host that wants its handler chained to sets
 * it before creating an adapter (call_install_handlers adopts it then).
 * One sigaction system call per signal, about 0.2 us each. */
/* The kit's handlers, and the signals they catch unblocked on this thread:
 * a driver that blocks SIGSEGV (sigprocmask in DriverEntry) turned a
 * guard-page hit into a bare kill by SIGSEGV, with no rule or argument
 * (the kernel kills a thread that faults with the signal blocked), and
 * one that blocks SIGALRM defeated the hang timer. */
static void reassert_handlers(void)
{
    struct sigaction sa;
    our_action(&sa);
    sigset_t ours;
    sigemptyset(&ours);
    for (size_t i = 0; i < NSIG_CAUGHT; i++) {
        sigaction(fatal_signals[i], &sa, NULL);
        sigaddset(&ours, fatal_signals[i]);
    }
    pthread_sigmask(SIG_UNBLOCK, &ours, NULL);
}

/* Installed once per process (idempotent), with an alternate stack per
 * thread so that a driver that overflowed its stack can still be reported. */
void call_install_handlers(void)
{
    static _Thread_local int have_stack;
    if (!have_stack) {
        static _Thread_local char stack_mem[64 * 1024];
        stack_t ss;
        memset(&ss, 0, sizeof(ss));
        ss.ss_sp = stack_mem;
        ss.ss_size = sizeof(stack_mem);
        sigaltstack(&ss, NULL);
        have_stack = 1;
    }
    struct sigaction cur;
    if (sigaction(SIGSEGV, NULL, &cur) == 0 && cur.sa_sigaction == on_signal)
        return;
    /* Someone replaced the SIGSEGV handler since (a runtime such as
     * AFL++'s, a test): signals still ours keep the handler they had
     * before us. Recording ours as their "previous" made a signal with no
     * frame active call on_signal from on_signal without end: a process
     * that aborted outside a DDI call (AFL++'s runtime refusing a module
     * loaded late) spun instead of dying. */
    for (size_t i = 0; i < NSIG_CAUGHT; i++) {
        if (sigaction(fatal_signals[i], NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) &&
            cur.sa_sigaction == on_signal)
            continue;
        struct sigaction sa;
        our_action(&sa);
        sigaction(fatal_signals[i], &sa, &previous[i]);
    }
}

static void arm_timer(uint32_t ms)
{
    struct itimerval t;
    memset(&t, 0, sizeof(t));
    t.it_value.tv_sec = ms / 1000;
    t.it_value.tv_usec = (long)(ms % 1000) * 1000;
    setitimer(ITIMER_REAL, &t, NULL);
}

static int frame_enter(struct wk_vidmm *vm, enum wk_ddi ddi, struct ddi_frame *f, int count, int timed);

/* The stack below the caller's frame, where the driver's frames will be,
 * filled with 0xA5 before a call into the driver: left as the kit's own
 * calls leave it, it is mostly zeroes, and a structure the driver hands
 * the kernel with fields it never set (a callback's arguments without
 * their RtlZeroMemory) passes every check by luck. Filled, those fields
 * read as garbage the checks see. Writing below the stack pointer inside
 * this function's own array is always safe, nested calls included. Only
 * for timed calls (the runner and the tools, where a case costs
 * milliseconds): the fuzz harnesses count microseconds. */
#define STACK_POISON_BYTES 8192
static __attribute__((noinline)) void poison_stack(void)
{
    unsigned char area[STACK_POISON_BYTES];
    memset(area, 0xA5, sizeof(area));
    __asm__ volatile("" : : "r"(area) : "memory"); /* the stores are kept */
}

int ddi_enter(struct wk_vidmm *vm, enum wk_ddi ddi, struct ddi_frame *f, int count)
{
    int st = frame_enter(vm, ddi, f, count, 1);
    if (st == 0 && count && f->timed)
        poison_stack();
    return st;
}

/* timed 0: the frame never arms or disarms the process's one hang timer
 * (a register access from a driver's own thread, whose arming would cut
 * the timer of a DDI call running on another thread). */
static int frame_enter(struct wk_vidmm *vm, enum wk_ddi ddi, struct ddi_frame *f, int count, int timed)
{
    if (vm->dead)
        return -1;
    f->vm = vm;
    f->ddi = ddi;
    f->signo = 0;
    f->fault_addr = NULL;
    f->fault_has_addr = 0;
    f->fault_on_stack = 0;
    f->binding_op = NULL;
    f->timed = timed && vm->cfg.ddi_timeout_ms != UINT32_MAX;
    f->outer = active;
    calls_ddis = 1;
    if (count) {
        vm->stats.ddi_calls[ddi]++;
        vm->last_ddi = ddi;
    }
    /* The handlers before each outermost call where a timer runs (the
     * runner, the tools: a case costs milliseconds, seven sigactions about
     * 1.4 us); the fuzz harnesses, which run no timer and count
     * microseconds, get them back after DriverEntry only (ddi_leave). */
    if (!f->outer && f->timed) {
        reassert_handlers();
        arm_timer(vm->cfg.ddi_timeout_ms);
    }
    active = f;
    publish();
    return 0;
}

/* A binding frame carries the DDI it runs inside (a register write from
 * SubmitCommand), or none (the kit running a buffer between calls). */
int bind_enter(struct wk_vidmm *vm, const char *op, struct ddi_frame *f, int timed)
{
    enum wk_ddi ddi = active && active->vm == vm ? active->ddi : WK_DDI_NONE;
    if (frame_enter(vm, ddi, f, 0, timed) != 0)
        return -1;
    f->binding_op = op;
    return 0;
}

void ddi_leave(struct ddi_frame *f)
{
    active = f->outer;
    publish();
    if (!f->outer && f->timed)
        arm_timer(0);
    if (!f->outer && f->ddi == WK_DDI_DRIVER_ENTRY)
        reassert_handlers(); /* what a driver installs, it installs there */
}

#if defined(__clang__) || defined(__GNUC__)
__attribute__((no_sanitize("address")))
#endif
void guarded_copy(void *dst, const void *src, size_t n)
{
    /* volatile: not turned back into a memcpy call, which ASan intercepts */
    const volatile uint8_t *s = src;
    uint8_t *d = dst;
    for (size_t i = 0; i < n; i++)
        d[i] = s[i];
}

/* The frame's signo when binding code failed inside a driver's call: the
 * driver's call is unwound, and nothing is recorded against the driver. */
#define SIGNO_BINDING (-2)

/* Binding code failed in frame f: BIND-CRASH-001 or BIND-HANG-001 against
 * the binding, then, inside a driver's call, that call is left too. */
static wk_status binding_crashed(struct ddi_frame *f)
{
    struct wk_vidmm *vm = f->vm;
    if (f->signo > 0) {
        sigset_t one;
        sigemptyset(&one);
        sigaddset(&one, f->signo);
        sigprocmask(SIG_UNBLOCK, &one, NULL);
    }
    const char *in = f->ddi != WK_DDI_NONE ? " during " : "";
    const char *ddi = f->ddi != WK_DDI_NONE ? wk_ddi_name(f->ddi) : "";
    if (f->signo == SIGALRM)
        violate(vm, R_BIND_HANG, WK_DDI_NONE, "%s of the binding did not return within %u ms%s%s", f->binding_op,
                vm->cfg.ddi_timeout_ms, in, ddi);
    else if (f->fault_has_addr)
        violate(vm, R_BIND_CRASH, WK_DDI_NONE, "%s of the binding crashed with signal %d (%s) at address %p%s%s",
                f->binding_op, f->signo, strsignal(f->signo), f->fault_addr, in, ddi);
    else
        violate(vm, R_BIND_CRASH, WK_DDI_NONE, "%s of the binding crashed with signal %d (%s)%s%s", f->binding_op,
                f->signo, strsignal(f->signo), in, ddi);
    struct ddi_frame *outer = f->outer;
    if (outer && outer->vm == vm && !outer->binding_op) {
        /* Unwind the driver's call that reached the binding: it must not go
         * on with an adapter whose GPU is gone, and it is not to blame. */
        binding_release_lock(vm);
        outer->signo = SIGNO_BINDING;
        outer->fault_addr = NULL;
        outer->fault_has_addr = 0;
        outer->fault_on_stack = 0;
        active = outer->outer;
        publish();
        siglongjmp(outer->env, 1);
    }
    return WK_E_BINDING;
}

/* Signals whose address is the instruction's, not the data's (SIGFPE,
 * SIGILL, SIGTRAP): a code address moves with ASLR from run to run. */
static int code_fault(int signo)
{
    return signo == SIGFPE || signo == SIGILL || signo == SIGTRAP;
}

/* A code address as "module.so+0x1240", the same in every run and what
 * `addr2line -e module.so` takes (outsider 25: a SIGFPE's report differed
 * run to run); the bare address outside any module. Not in a signal
 * handler: dladdr takes the loader's lock. */
static const char *code_place(const void *addr, char *out, size_t cap)
{
    Dl_info di;
    memset(&di, 0, sizeof(di));
    if (dladdr(addr, &di) && di.dli_fname && di.dli_fbase) {
        const char *base = strrchr(di.dli_fname, '/');
        snprintf(out, cap, "%s+0x%zx", base ? base + 1 : di.dli_fname,
                 (size_t)((const char *)addr - (const char *)di.dli_fbase));
    } else {
        snprintf(out, cap, "address %p", addr);
    }
    return out;
}

wk_status ddi_crashed(struct ddi_frame *f)
{
    struct wk_vidmm *vm = f->vm;
    if (!f->outer && f->timed)
        arm_timer(0);
    vm->dead = 1;
    if (f->binding_op)
        return binding_crashed(f);
    if (f->signo == SIGNO_BINDING)
        return WK_E_BINDING;
    if (f->signo == SIGNO_KM_FAILURE) { /* km.h ended it: no signal to unblock */
        enum wk_rule_id rule = km_rule_of_line(vm->km_failure);
        const char *detail = vm->km_failure;
        size_t n = strlen(rule_id(rule));
        if (strncmp(detail, rule_id(rule), n) == 0 && detail[n] == ':') /* said once */
            detail += n + 1 + (detail[n + 1] == ' ');
        violate(vm, rule, f->ddi, "%s", detail);
        return WK_E_DRIVER_CRASH;
    }
    sigset_t all;
    sigemptyset(&all);
    sigaddset(&all, f->signo);
    sigprocmask(SIG_UNBLOCK, &all, NULL);
    if (f->signo == SIGALRM) {
        violate(vm, R_DRV_HANG, f->ddi, "did not return within %u ms", vm->cfg.ddi_timeout_ms);
        return WK_E_DRIVER_HANG;
    }
    char where[320];
    enum wk_rule_id rule = R_MEM_GUARD;
    if ((f->signo == SIGSEGV || f->signo == SIGBUS) && f->fault_has_addr &&
        regwin_describe_fault(vm, f->fault_addr,
                              f->fault_access == FAULT_WRITE ? 1 : f->fault_access == FAULT_READ ? 0 : 2, where,
                              sizeof(where))) {
        violate(vm, R_DRV_CRASH, f->ddi, "%s", where);
        return WK_E_DRIVER_CRASH;
    }
    if ((f->signo == SIGSEGV || f->signo == SIGBUS) && f->fault_has_addr &&
        aperture_view_report_fault(vm, f->ddi, f->fault_addr, (enum fault_access)f->fault_access))
        return WK_E_DRIVER_CRASH;
    if ((f->signo == SIGSEGV || f->signo == SIGBUS) && f->fault_has_addr &&
        gbuf_describe_fault(vm, f->fault_addr, (enum fault_access)f->fault_access, where, sizeof(where), &rule)) {
        violate(vm, rule, f->ddi, "%s", where);
        return WK_E_DRIVER_CRASH;
    }
    if (f->fault_on_stack)
        violate(vm, R_DRV_CRASH, f->ddi, "overflowed its stack (signal %d, %s, at the end of its stack)",
                f->signo, strsignal(f->signo));
    else if (f->fault_has_addr && code_fault(f->signo))
        violate(vm, R_DRV_CRASH, f->ddi, "crashed with signal %d (%s) at %s", f->signo, strsignal(f->signo),
                code_place(f->fault_addr, where, sizeof(where)));
    else if (f->fault_has_addr)
        violate(vm, R_DRV_CRASH, f->ddi, "crashed with signal %d (%s) at address %p", f->signo,
                strsignal(f->signo), f->fault_addr);
    else
        violate(vm, R_DRV_CRASH, f->ddi, "crashed with signal %d (%s)", f->signo, strsignal(f->signo));
    return WK_E_DRIVER_CRASH;
}

void ddi_rewrite(struct wk_vidmm *vm, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    if (vm->rewrite)
        vm->rewrite(vm->rewrite_user, ddi, args, status);
}
