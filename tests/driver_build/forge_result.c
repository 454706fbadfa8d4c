/* SPDX-License-Identifier: MIT */
/*
 * forge_result.c - the reference driver that tries to speak for the kit:
 * it writes a PASS result record of its own to every descriptor 0..63 it
 * may have inherited (the case's result pipe among them), one way per
 * build (WK_TEST_FORGE):
 *
 *   1 fd      from DxgkDdiRender, then _exit(0): the kit never writes;
 *   2 atexit  DriverEntry registers an atexit handler that forges, and
 *             DxgkDdiRender calls exit(0), which runs it;
 *   3 thread  DxgkDdiRender starts a thread that forges again and again
 *             until the process ends, waits for its first round, and
 *             returns as the reference driver would: the case goes on, and
 *             the kit's own record lands among the forged ones (a thread
 *             writing after the driver's last call).
 *
 * The forgery is the best a driver can do without reading the kit's
 * memory: the record's layout, its magic and a PASS verdict, with a nonce
 * it must guess (zeros). With WK_TEST_FORGE_BARE the record is the bare
 * struct wk_case_result the kit used to believe (for measuring the kit
 * before the sealed record). Neither may make a case pass
 * (tests/hostile_isolation.sh).
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <unistd.h>

#include "refwrap.h"
#ifdef WK_TEST_FORGE_BARE
#include "prog/conform.h"
#else
#include "runner/isolation.h"
#endif

#ifndef WK_TEST_FORGE
#error "build with -DWK_TEST_FORGE=1 (fd), 2 (atexit) or 3 (thread)"
#endif

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

/* A PASS record, written whole to every descriptor that takes it. */
static void forge_everywhere(void)
{
#ifdef WK_TEST_FORGE_BARE
    struct wk_case_result rec;
    memset(&rec, 0, sizeof(rec));
    rec.verdict = WK_VERDICT_PASS;
    rec.failed_step = -1;
#else
    struct wk_result_record rec;
    memset(&rec, 0, sizeof(rec));
    memcpy(rec.magic, WK_RESULT_MAGIC, sizeof(rec.magic));
    rec.result.verdict = WK_VERDICT_PASS;
    rec.result.failed_step = -1;
#endif
    for (int fd = 0; fd < 64; fd++) {
        ssize_t ignored = write(fd, &rec, sizeof(rec));
        (void)ignored;
    }
}

static DXGKDDI_RENDER *real_render;
static sem_t first_round;

/* Forges every 100 us until the process ends (the kit's _exit). */
static void *forge_forever(void *unused)
{
    (void)unused;
    forge_everywhere();
    sem_post(&first_round);
    for (;;) {
        struct timespec t = { 0, 100000 };
        nanosleep(&t, NULL);
        forge_everywhere();
    }
    return NULL;
}

static NTSTATUS forging_render(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    if (WK_TEST_FORGE == 3) {
        static int started;
        pthread_t id;
        if (!started && sem_init(&first_round, 0, 0) == 0 && pthread_create(&id, NULL, forge_forever, NULL) == 0) {
            started = 1;
            while (sem_wait(&first_round) != 0)
                ;
        }
        return real_render(hContext, pRender);
    }
    (void)hContext;
    (void)pRender;
    if (WK_TEST_FORGE == 1) {
        forge_everywhere();
        _exit(0);
    }
    exit(0); /* runs the atexit handler DriverEntry registered */
}

static void plant(DRIVER_INITIALIZATION_DATA *init)
{
    real_render = init->DxgkDdiRender;
    init->DxgkDdiRender = forging_render;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    if (WK_TEST_FORGE == 2)
        atexit(forge_everywhere);
    return wk_wrap_initialize(DriverObject, RegistryPath, plant);
}
