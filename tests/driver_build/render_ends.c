/* SPDX-License-Identifier: MIT */
/*
 * render_ends.c - the reference driver whose DxgkDdiRender ends badly, one
 * way per build (WK_TEST_RENDER_ENDS), for what a crash report says
 * (tests/hostile_reports.sh):
 *
 *   1 noisy-abort   prints 300 lines (a NUL byte among the last ones), then a
 *                   distinctive FATAL line, and dies of SIGABRT (its own
 *                   disposition: SIG_DFL): the report shows the last line,
 *                   not the first of the tail, nor the text up to the NUL;
 *   2 abort         abort() with the kit's handler in place: DRV-CRASH-001
 *                   with no "address" (SIGABRT carries none; the pid was
 *                   printed as one, so reports differed run to run);
 *   3 exit          exit(3): the report names DxgkDdiRender;
 *   4 _exit         _exit(3), past any atexit handler: the same;
 *   5 segv-handler  DriverEntry installs a SIGSEGV and SIGBUS handler that
 *                   returns at once; Render then writes the first byte of the
 *                   guard page after its DMA buffer: MEM-GUARD-001, not a
 *                   fault retried until the hang timer (DRV-HANG-001).
 *   6 recurse       recurses without end: a stack overflow is a named crash
 *                   in DxgkDdiRender (the kit's handler runs on its own
 *                   signal stack), not a silent death;
 *   7 spin          loops for ever: DRV-HANG-001 naming DxgkDdiRender when
 *                   the DDI timer (WK_VIDMM_DDI_TIMEOUT_MS) runs out;
 *   8 flood         writes 16 MiB of binary garbage to stdout and stderr,
 *                   then renders: the case passes, its report stays small;
 *   9 close-fds     closes every descriptor it inherited (the case's result
 *                   pipe among them), then renders: a crash that says the
 *                   kit's record could not be written, never a pass;
 *  10 hijack-fds    puts /dev/null on every descriptor it inherited, then
 *                   renders: the same;
 *  11 blocked       DriverEntry blocks SIGSEGV, SIGBUS and SIGALRM; Render
 *                   then writes the guard page after its DMA buffer:
 *                   MEM-GUARD-001, not a bare kill by SIGSEGV.
 *  12 exit0         exit(0): a crash naming DxgkDdiRender, also when a
 *                   replay binary judges (its exit status 0 is no pass).
 *  13 spin_blocked  blocks SIGALRM, then loops for ever: the DDI timer
 *                   never fires, the case's timeout kills it, and the
 *                   timeout verdict names DxgkDdiRender.
 *  14 divide        divides by zero (SIGFPE): the report gives the
 *                   instruction as module+offset, the same in every run.
 */
#define _POSIX_C_SOURCE 200809L /* sigaction under -std=c11 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>

#include "refwrap.h"

#ifndef WK_TEST_RENDER_ENDS
#error "build with -DWK_TEST_RENDER_ENDS=1..11"
#endif

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static void noisy_abort(void)
{
    for (int i = 0; i < 300; i++) {
        fprintf(stderr, "render_ends: noise line %d of 300, which a crash report may drop\n", i);
        if (i == 298) { /* a NUL among the last lines: the tail must not end there */
            fflush(stderr);
            if (write(2, "\0", 1) < 0)
                break;
        }
    }
    fprintf(stderr, "FATAL: render_ends: the last word before the abort\n");
    fflush(stderr);
    signal(SIGABRT, SIG_DFL);
    abort();
}

static void ignore_signal(int signo)
{
    (void)signo; /* returns: the faulting instruction runs again */
}

static void install_own_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = ignore_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
}

static void block_signals(void)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGSEGV);
    sigaddset(&set, SIGBUS);
    sigaddset(&set, SIGALRM);
    sigprocmask(SIG_BLOCK, &set, NULL);
}

/* The first byte of the page after the DMA buffer: the guard page (the
 * bytes between the buffer's end and it are a canary, checked later). */
static void write_past_dma(const DXGKARG_RENDER *r)
{
    uintptr_t end = (uintptr_t)r->pDmaBuffer + r->DmaSize;
    volatile uint8_t *guard = (volatile uint8_t *)((end + 4095u) & ~(uintptr_t)4095u);
    *guard = 0xAB;
}

/* volatile: the frame and the loop are the test, the compiler keeps them */
static unsigned recurse(volatile unsigned depth)
{
    volatile char frame[512];
    frame[0] = (char)depth;
    if (depth == ~0u) /* never: the stack ends first; a base case the compiler cannot prove dead */
        return 0;
    return recurse(depth + 1) + (unsigned)frame[0];
}

static void spin(void)
{
    for (volatile unsigned long i = 0;; i++)
        ;
}

static void flood(void)
{
    static char garbage[1 << 16];
    for (size_t i = 0; i < sizeof(garbage); i++)
        garbage[i] = (char)(i * 131u + 7u);
    for (int i = 0; i < 128; i++) { /* 8 MiB to each */
        if (write(1, garbage, sizeof(garbage)) < 0 || write(2, garbage, sizeof(garbage)) < 0)
            break;
    }
}

static void close_fds(int hijack)
{
    int null = hijack ? open("/dev/null", O_WRONLY) : -1;
    for (int fd = 0; fd < 1024; fd++) {
        if (fd == null)
            continue;
        if (hijack)
            dup2(null, fd);
        else
            close(fd);
    }
}

static NTSTATUS ending_render(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    switch (WK_TEST_RENDER_ENDS) {
    case 1: noisy_abort(); break;
    case 2: abort();
    case 3: exit(3);
    case 4: _exit(3);
    case 5: write_past_dma(pRender); break;
    case 6: (void)recurse(0); break;
    case 7: spin(); break;
    case 8: flood(); break;
    case 9: close_fds(0); break;
    case 10: close_fds(1); break;
    case 11: write_past_dma(pRender); break;
    case 12: exit(0);
    case 14: {
        volatile int zero = 0, seven = 7; /* 1 / zero became a compare: 1 / x is 0 or +-1 */
        volatile int x = seven / zero;
        (void)x;
        break;
    }
    case 13: {
        sigset_t alarm;
        sigemptyset(&alarm);
        sigaddset(&alarm, SIGALRM);
        sigprocmask(SIG_BLOCK, &alarm, NULL);
        spin();
        break;
    }
    default: break;
    }
    return wk_wrap_reference.DxgkDdiRender(hContext, pRender);
}

static void plant_bug(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiRender = ending_render;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    if (WK_TEST_RENDER_ENDS == 5)
        install_own_handlers();
    else if (WK_TEST_RENDER_ENDS == 11)
        block_signals();
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_bug);
}
