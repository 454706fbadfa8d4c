/* SPDX-License-Identifier: MIT */
/*
 * findings.c - how the driver harnesses report what they find: a finding
 * on the driver under test, a kit invariant broken by the reference, and
 * the teardown at the end of a process, judged like an input
 * (fuzz_driver.h says what each prints and when it aborts).
 *
 * One way for every harness, so that every engine (libFuzzer, AFL++, the
 * replay binary) keeps the input alike: print what happened, every
 * recorded violation and the finding's signature (the text `wddmkit
 * repro` and `triage` print, wk_fuzz_signature), then abort(). A finding
 * of a known signature is handed to known.c and passed over; under
 * WK_FUZZ_NO_ABORT a finding is counted and the input abandoned. Either
 * way every kept adapter is marked stale: nothing a finding touched is
 * reused (adapters.c rebuilds them).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "wddmkit/binding.h"

#include "internal.h"

uint64_t wk_fuzz_violation_count(const struct wk_vidmm *vm)
{
    uint64_t total = 0;
    wk_vidmm_violations(vm, NULL, 0, &total);
    return total;
}

uint64_t wk_fuzz_findings(void)
{
    return wk_fuzzdrv_state()->findings;
}

uint64_t wk_fuzz_ignored(void)
{
    return wk_fuzzdrv_state()->ignored;
}

/* The signature of a finding on vm (may be NULL): its first violation's,
 * else that of the harness's own text. */
static void finding_signature(struct wk_vidmm *vm, const char *what, const char *what_kind, char *sig,
                              size_t cap)
{
    struct wk_violation v;
    uint64_t total = 0;
    if (vm && wk_vidmm_violations(vm, &v, 1, &total) == 1)
        wk_fuzz_signature(sig, cap, v.rule, v.message, NULL);
    else
        wk_fuzz_signature(sig, cap, NULL, what_kind ? what_kind : what, NULL);
}

static void print_violations(const char *harness, struct wk_vidmm *vm)
{
    if (!vm)
        return;
    struct wk_violation v[16];
    uint64_t total = 0;
    uint32_t n = wk_vidmm_violations(vm, v, 16, &total);
    for (uint32_t i = 0; i < n; i++) {
        if (v[i].ddi == WK_DDI_NONE) /* outside any DDI: the binding's code, a kernel-API check */
            fprintf(stderr, "%s:   violation: %s\n", harness, v[i].message);
        else
            fprintf(stderr, "%s:   violation in %s: %s\n", harness, wk_ddi_name(v[i].ddi), v[i].message);
    }
    if (total > n)
        fprintf(stderr, "%s:   ... %llu violations in all\n", harness, (unsigned long long)total);
    if (wk_vidmm_last_error(vm)[0])
        fprintf(stderr, "%s:   last error: %s\n", harness, wk_vidmm_last_error(vm));
}

static int no_abort(void)
{
    const char *e = getenv("WK_FUZZ_NO_ABORT");
    return e && e[0] == '1';
}

static void mark_stale(void)
{
    for (int r = 0; r < WK_FUZZ_ROLES; r++)
        wk_fuzzdrv_state()->slots[r].stale = 1;
}

static void finding(const char *harness, struct wk_vidmm *vm, const char *what_kind, const char *what);

static void vfinding(const char *harness, struct wk_vidmm *vm, const char *what_kind, const char *fmt,
                     va_list ap) __attribute__((format(printf, 4, 0)));
static void vfinding(const char *harness, struct wk_vidmm *vm, const char *what_kind, const char *fmt, va_list ap)
{
    char what[2048];
    vsnprintf(what, sizeof(what), fmt, ap);
    finding(harness, vm, what_kind, what);
}

void wk_fuzz_finding(const char *harness, struct wk_vidmm *vm, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfinding(harness, vm, NULL, fmt, ap);
    va_end(ap);
}

void wk_fuzz_finding_as(const char *harness, struct wk_vidmm *vm, const char *what_kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfinding(harness, vm, what_kind, fmt, ap);
    va_end(ap);
}

/*
 * Whether vm's first violation is its hardware binding's (BIND-*): the
 * kit ran the binding's code and that code failed (a crash, an answer
 * outside binding.h), which says nothing of the driver, and whatever the
 * driver did after it was judged on a dead adapter. It is still a finding
 * that aborts: the binding is the driver project's code, the input that
 * breaks it is worth keeping (the engine keeps it, triage groups it by its
 * signature, "BIND-CRASH-001 (SIGSEGV) in processor.exec"), and
 * WK_FUZZ_IGNORE passes over it like any other to look for driver bugs.
 * It is only never called the driver's.
 */
static int binding_failed(struct wk_vidmm *vm)
{
    struct wk_violation v;
    uint64_t total = 0;
    return vm && wk_vidmm_violations(vm, &v, 1, &total) == 1 && wk_rule_is_binding(v.rule);
}

static void print_culprit(const char *harness, struct wk_vidmm *vm, const char *what)
{
    if (!binding_failed(vm)) {
        fprintf(stderr, "%s: FINDING: %s\n%s:   driver under test: %s\n", harness, what, harness, wk_fuzz_driver_name());
        return;
    }
    const struct wk_binding *b = wk_vidmm_binding(vm);
    fprintf(stderr, "%s: FINDING: the hardware binding failed, not the driver under test: %s\n", harness, what);
    fprintf(stderr, "%s:   binding: '%s' %s (a bug in the binding: the driver's part of this input is not judged)\n",
            harness, b && b->name ? b->name : "?", b && b->version ? b->version : "");
    fprintf(stderr, "%s:   driver under test: %s\n", harness, wk_fuzz_driver_name());
}

static void finding(const char *harness, struct wk_vidmm *vm, const char *what_kind, const char *what)
{
    char sig[512];
    finding_signature(vm, what, what_kind, sig, sizeof(sig));
    if (wk_fuzzdrv_known_finding(harness, sig)) {
        mark_stale(); /* as after any finding: nothing of these adapters is reused */
        return;
    }
    print_culprit(harness, vm, what);
    print_violations(harness, vm);
    fprintf(stderr, "%s:   signature: %s\n", harness, sig);
    wk_fuzzdrv_state()->findings++;
    if (!no_abort())
        abort();
    mark_stale();
}

void wk_fuzz_kit_invariant(const char *harness, struct wk_vidmm *ref, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: KIT INVARIANT: ", harness);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n%s:   the reference driver on the reference adapter must never do this: "
                    "a bug in wddmkit, please report it with this input\n", harness);
    print_violations(harness, ref);
    abort();
}

int wk_fuzz_check(const char *harness, enum wk_fuzz_role role, struct wk_vidmm *vm, const char *when)
{
    if (wk_fuzz_violation_count(vm) == 0)
        return 0;
    if (role == WK_FUZZ_REF)
        wk_fuzz_kit_invariant(harness, vm, "the reference adapter recorded a violation %s", when);
    wk_fuzz_finding(harness, vm, "contract violation %s", when);
    return 1;
}

/* Stops one kept adapter and judges only what its teardown added: the
 * violations of the input before were reported then. */
static void teardown_one(enum wk_fuzz_role role, struct kept *e)
{
    const char *harness_seen = wk_fuzzdrv_state()->harness_seen;
    uint64_t before = wk_fuzz_violation_count(e->vm);
    wk_vidmm_stop(e->vm);
    if (wk_fuzz_violation_count(e->vm) > before) {
        if (role == WK_FUZZ_REF)
            wk_fuzz_kit_invariant(harness_seen, e->vm, "the reference adapter recorded a violation while it was "
                                                       "torn down at the end of the process");
        wk_fuzz_finding(harness_seen, e->vm, "contract violation while the adapters were torn down at the end of "
                                             "the process (the destroy DDIs, StopDevice, RemoveDevice)");
    }
    wk_fuzzdrv_drop(e);
}

void wk_fuzz_teardown(void)
{
    for (int r = 0; r < WK_FUZZ_ROLES; r++) {
        struct slot *s = &wk_fuzzdrv_state()->slots[r];
        for (int i = 0; i < KEPT; i++) {
            if (s->kept[i].vm && s->stale)
                wk_fuzzdrv_drop(&s->kept[i]); /* after a finding: as a rebuild would drop it */
            else if (s->kept[i].vm)
                teardown_one((enum wk_fuzz_role)r, &s->kept[i]);
        }
    }
    wk_fuzzdrv_state()->fixture.vm = NULL;
}
