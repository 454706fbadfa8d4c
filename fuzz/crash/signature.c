/* SPDX-License-Identifier: MIT */
/*
 * signature.c - what a run's outcome is called: its class and a one-line
 * signature, the same for the same bug from run to run (no addresses), and
 * the same as the harness's own (wk_fuzz_signature), so that repro,
 * minimize, triage and `wddmkit fuzz` agree on a finding. A program run
 * answers with its case result; a replay binary is read from its exit and
 * its stderr (a FINDING line, a kit invariant, a sanitizer report).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "crash/crash_internal.h"
#include "driver/fuzz_driver.h" /* wk_fuzz_signature: the harnesses' signatures are these */

static void fail_signature(struct outcome *o, const struct wk_prog *p)
{
    const struct wk_case_result *r = &o->r;
    const char *kind = r->failed_step >= 0 && (uint32_t)r->failed_step < p->step_count
                           ? wk_step_keyword(p->steps[r->failed_step].kind) : "case";
    if (p->has_rewrite && r->rule[0] && strcmp(r->rule, p->trips) == 0) {
        snprintf(o->sig, sizeof(o->sig), "%s not tripped by rewrite %s", r->rule, p->rewrite.mutation);
    } else if (r->rule[0]) {
        /* The violation's message (r->seen) names the DDI and any GPU
         * fault class or signal. A sanitizer's abort inside a DDI is the
         * driver crashing: its report says what the crash was
         * (ASAN_OPTIONS=abort_on_error=1, which AFL++ and the asan preset's
         * tests set). */
        wk_fuzz_signature(o->sig, sizeof(o->sig), r->rule, r->seen, o->sanitizer);
    } else if (strncmp(r->seen, "WK_", 3) == 0) { /* a status other than expected */
        snprintf(o->sig, sizeof(o->sig), "%s: expected %s, returned %.*s", kind, r->expected, (int)strcspn(r->seen, ":"),
                 r->seen);
    } else {
        snprintf(o->sig, sizeof(o->sig), "%s: expected %s", kind, r->expected);
    }
    snprintf(o->detail, sizeof(o->detail), "step %d (%.24s): expected %.120s; seen %.300s", r->failed_step, kind,
             r->expected, r->seen);
}

/* Why a program could not run. An adapter that wk_vidmm_create refused
 * leaves no adapter to ask for its last error, so the answer read "the
 * adapter starts: WK_E_INVALID_ARGUMENT: " and stopped there; the GPU
 * model says what is wrong with the description (wk_gpu_check_desc runs
 * first in wk_vidmm_create), and fuzz_prog runs nothing for such an
 * input (fuzz/driver/adapters.c, model_takes). */
static void error_detail(struct outcome *o, const struct wk_prog *p)
{
    const struct wk_case_result *r = &o->r;
    char why[300] = "";
    size_t n = strlen(r->seen);
    int no_reason = n >= 2 && strcmp(r->seen + n - 2, ": ") == 0;
    if (no_reason && strncmp(r->seen, "WK_E_INVALID_ARGUMENT", 21) == 0 &&
        wk_gpu_check_desc(&p->gpu, why, sizeof(why)) != WK_OK) {
        o->input_refused = 1;
        snprintf(o->detail, sizeof(o->detail), "%.60s: %.40sthe GPU model refuses the adapter description: %.250s "
                 "(fuzz_prog runs nothing for such an input)", r->expected, r->seen, why);
    } else if (no_reason) {
        snprintf(o->detail, sizeof(o->detail), "%.150s: %.60sno adapter was created, so it left no reason",
                 r->expected, r->seen);
    } else {
        snprintf(o->detail, sizeof(o->detail), "%.150s: %.300s", r->expected, r->seen);
    }
}

/* A crash the crash slot explains: "DRV-CRASH-001 (SIGSEGV) in the
 * driver's system thread (StartRoutine worker, started during
 * DxgkDdiRender)", "DRV-CRASH-001 (exit 3) in DxgkDdiRender"; the detail is
 * conform's message, with what the result pipe held after an exit. */
void wk_crash_slot_signature(struct outcome *o)
{
    wk_fuzz_signature(o->sig, sizeof(o->sig), "DRV-CRASH-001", o->driver_crash_line, o->sanitizer);
    if (o->driver_crash == WK_VIDMM_CRASH_EXIT)
        snprintf(o->detail, sizeof(o->detail), "%.300s %.200s", o->driver_crash_line,
                 o->refused[0] ? o->refused : "without a result");
    else
        snprintf(o->detail, sizeof(o->detail), "%.500s", o->driver_crash_line);
}

void wk_crash_shepherd_signature(struct outcome *o)
{
    if (o->shepherd == SHEPHERD_SIGNALLED) {
        snprintf(o->sig, sizeof(o->sig), "the driver sent %s to the kit's shepherd",
                 wk_fuzz_signal_name(o->shepherd_signo));
        snprintf(o->detail, sizeof(o->detail), "the driver sent %s to the kit's shepherd (the process that watches "
                 "the run), which ignored it: the run went on", wk_fuzz_signal_name(o->shepherd_signo));
    } else if (o->shepherd == SHEPHERD_STOPPED) {
        snprintf(o->sig, sizeof(o->sig), "the driver stopped the kit's shepherd (SIGSTOP)");
        snprintf(o->detail, sizeof(o->detail), "the driver stopped the kit's shepherd (SIGSTOP to the process that "
                 "watches its run): the kit killed it, the run's process and every process the run started");
    } else {
        snprintf(o->sig, sizeof(o->sig), "the kit's shepherd was killed (%s)", wk_fuzz_signal_name(o->shepherd_signo));
        snprintf(o->detail, sizeof(o->detail), "the kit's shepherd (the process that watches the run) was killed by "
                 "%s before the run's process ended: a signal from the driver to its parent; the kit killed the "
                 "run's process and every process the run started", wk_fuzz_signal_name(o->shepherd_signo));
    }
}

void wk_crash_make_signature(struct outcome *o, const struct wk_prog *p)
{
    char frames[3 * 200 + 16] = "";
    size_t at = 0;
    for (uint32_t i = 0; i < o->nframes; i++)
        at += (size_t)snprintf(frames + at, sizeof(frames) - at, "%s%s", i ? " < " : " at ", o->frames[i]);
    switch (o->cls) {
    case CLS_PASS:
        snprintf(o->sig, sizeof(o->sig), "%s", o->r.verdict == WK_VERDICT_SKIP ? "skip" : "pass");
        if (o->r.verdict == WK_VERDICT_SKIP)
            snprintf(o->detail, sizeof(o->detail), "skipped: %.400s", o->r.seen);
        break;
    case CLS_FAIL: fail_signature(o, p); break;
    case CLS_CRASH:
        if (o->shepherd) /* before anything the case's process said: the kit could not see it end */
            wk_crash_shepherd_signature(o);
        else if (o->driver_crash) /* the driver's thread that died, or the DDI it exited in, as conform names them */
            wk_crash_slot_signature(o);
        else if (o->signo) /* a signal's name is at most 7 characters: the frames are cut where sig ends anyway */
            snprintf(o->sig, sizeof(o->sig), "%s%.390s", wk_fuzz_signal_name(o->signo), frames);
        else if (o->refused[0]) /* an answer the kit did not write */
            snprintf(o->sig, sizeof(o->sig), "exit %d %.380s", o->exit_code, o->refused);
        else
            snprintf(o->sig, sizeof(o->sig), "exit %d%s%s", o->exit_code,
                     o->sanitizer[0] ? ": " : " without an answer (a sanitizer report?)", o->sanitizer);
        break;
    case CLS_TIMEOUT: snprintf(o->sig, sizeof(o->sig), "no answer within the timeout"); break;
    default:
        snprintf(o->sig, sizeof(o->sig), "%s", "the program could not run");
        if (o->answered)
            error_detail(o, p);
        break;
    }
}

int wk_crash_same_result(const struct outcome *a, const struct outcome *b)
{
    return a->cls == b->cls && strcmp(a->sig, b->sig) == 0;
}
/* The first token of the log that names a rule of the catalogue. */
static const char *rule_in(const char *log, char *rule, size_t size)
{
    for (const char *q = log; *q; q++) {
        if (!(*q >= 'A' && *q <= 'Z') || (q > log && ((q[-1] >= 'A' && q[-1] <= 'Z') || q[-1] == '-')))
            continue;
        size_t n = strspn(q, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-");
        if (n < size) {
            snprintf(rule, size, "%.*s", (int)n, q);
            if (wk_rule_find(rule))
                return rule;
        }
    }
    return NULL;
}

/* A one-line class from a sanitizer report, or the first line. */
/* Addresses differ from run to run (ASLR, the stack): each 0x<hex> of a
 * sanitizer's message becomes "0x?", so that the same bug gives the same
 * signature and `minimize` can keep a smaller input that still shows it. */
static void mask_addresses(char *s)
{
    char *w = s;
    for (const char *r = s; *r;) {
        if (r[0] == '0' && r[1] == 'x' && isxdigit((unsigned char)r[2])) {
            r += 2;
            while (isxdigit((unsigned char)*r))
                r++;
            *w++ = '0', *w++ = 'x', *w++ = '?';
        } else {
            *w++ = *r++;
        }
    }
    *w = '\0';
}

/* The first function of an ASan report's stack that is not the
 * sanitizer's own (an interceptor such as __asan_memcpy says nothing about
 * where the bug is), else the function of its SUMMARY line. */
/* The C library's allocation functions, first in a leak's stack. */
static int is_allocator(const char *fn)
{
    static const char *const names[] = { "malloc", "calloc", "realloc", "aligned_alloc", "posix_memalign" };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        size_t n = strlen(names[i]);
        if (strncmp(fn, names[i], n) == 0 && (fn[n] == ' ' || fn[n] == '\n' || fn[n] == '\0'))
            return 1;
    }
    return 0;
}

static const char *asan_function(const char *asan)
{
    for (const char *f = strstr(asan, "\n    #"); f; f = strstr(f + 1, "\n    #")) {
        const char *in = strstr(f, " in ");
        if (!in || in > f + 1 + strcspn(f + 1, "\n"))
            continue;
        in += 4;
        if (strncmp(in, "__asan", 6) != 0 && strncmp(in, "__interceptor", 13) != 0 &&
            strncmp(in, "__sanitizer", 11) != 0 && !is_allocator(in))
            return in;
    }
    const char *sum = strstr(asan, "SUMMARY: AddressSanitizer: ");
    const char *in = sum ? strstr(sum, " in ") : NULL;
    return in && in < sum + strcspn(sum, "\n") ? in + 4 : NULL;
}

/* The sanitizer's class of the failure: ASan's kind and the first function
 * of its stack that is not the sanitizer's, UBSan's message, or where
 * LeakSanitizer's first leak was allocated; addresses masked. */
void wk_crash_log_class(const char *log, char *out, size_t size)
{
    const char *asan = strstr(log, "ERROR: AddressSanitizer: "), *ub = strstr(log, "runtime error: ");
    const char *lsan = strstr(log, "ERROR: LeakSanitizer: ");
    const char *leak = lsan ? strstr(lsan, " leak of ") : NULL;
    const char *fn = asan ? asan_function(asan) : leak ? asan_function(leak) : NULL;
    if (asan)
        snprintf(out, size, "AddressSanitizer: %.*s%s%.*s", (int)strcspn(asan + 25, " \n"), asan + 25, fn ? " in " : "",
                 fn ? (int)strcspn(fn, " \n") : 0, fn ? fn : "");
    else if (ub)
        snprintf(out, size, "UndefinedBehaviorSanitizer: %.*s", (int)strcspn(ub + 15, "\n"), ub + 15);
    else if (lsan)
        snprintf(out, size, "LeakSanitizer: leak%s%.*s", fn ? " allocated in " : "", fn ? (int)strcspn(fn, " \n") : 0,
                 fn ? fn : "");
    else
        out[0] = '\0';
    mask_addresses(out);
}

/* "FILE:LINE:COL" (COL optional) of [p, end) into f; 0 when it is not one. */
static int parse_file_line(const char *p, const char *end, struct wk_crash_frame *f)
{
    unsigned line = 0, column = 0;
    const char *c2 = NULL, *c1 = NULL;
    for (const char *q = p; q < end; q++)
        if (*q == ':')
            c1 = c2, c2 = q;
    if (c2 && c1 && sscanf(c1, ":%u:%u", &line, &column) == 2 && line) {
        snprintf(f->file, sizeof(f->file), "%.*s", (int)(c1 - p), p);
    } else if (c2 && sscanf(c2, ":%u", &line) == 1 && line) {
        snprintf(f->file, sizeof(f->file), "%.*s", (int)(c2 - p), p);
        column = 0;
    } else {
        return 0;
    }
    f->line = line;
    f->column = column;
    return f->file[0] != '\0';
}

void wk_crash_log_frame(const char *log, struct wk_crash_frame *f)
{
    memset(f, 0, sizeof(*f));
    const char *asan = strstr(log, "ERROR: AddressSanitizer: "), *lsan = strstr(log, "ERROR: LeakSanitizer: ");
    const char *ub = strstr(log, ": runtime error: ");
    if (!asan && lsan)
        asan = strstr(lsan, " leak of ");
    const char *fn = asan ? asan_function(asan) : NULL;
    if (fn) { /* "FUNCTION FILE:LINE:COL" or "FUNCTION (MODULE+0xOFF)" */
        size_t n = strcspn(fn, " \n");
        snprintf(f->function, sizeof(f->function), "%.*s", (int)n, fn);
        const char *at = fn + n, *end = fn + strcspn(fn, "\n");
        while (at < end && *at == ' ')
            at++;
        const char *plus = memchr(at, '+', (size_t)(end - at));
        if (at < end && *at == '(' && plus) {
            snprintf(f->module, sizeof(f->module), "%.*s", (int)(plus - at - 1), at + 1);
            f->offset = strtoull(plus + 1, NULL, 16);
        } else if (at < end) {
            parse_file_line(at, end, f);
        }
    } else if (ub) { /* the line up to ": runtime error" is FILE:LINE:COL */
        const char *start = ub;
        while (start > log && start[-1] != '\n')
            start--;
        parse_file_line(start, ub, f);
    }
}

/* The first violation a harness report lists ("violation in <DDI>:
 * <message>", fuzz/driver/findings.c): its rule and message, the latter
 * cut at the end of its line into msg; NULL when it lists none. What the
 * harness takes its own signature from (wk_fuzz_finding), so the two
 * agree. */
static const char *first_violation(const char *log, char *rule, size_t rule_size, char *msg, size_t msg_size)
{
    const char *v = strstr(log, "violation in ");
    const char *colon = v ? strstr(v + 13, ": ") : NULL;
    if (!colon || colon > v + 13 + strcspn(v + 13, "\n"))
        return NULL;
    const char *m = colon + 2;
    size_t n = strspn(m, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-");
    snprintf(msg, msg_size, "%.*s", (int)strcspn(m, "\n"), m);
    if (n == 0 || n >= rule_size)
        return NULL;
    snprintf(rule, rule_size, "%.*s", (int)n, m);
    return wk_rule_find(rule) ? rule : NULL;
}

/* The harness reports a finding and aborts (fuzz/driver/fuzz_driver.h): a rule
 * with its DDI, a differential mismatch, or a kit invariant. */
/* The signature line a harness prints after its FINDING line
 * ("<harness>:   signature: ...", fuzz/driver/findings.c), into sig; 0
 * when there is none. What the campaign's summary and its known
 * signatures use: a differential finding's names the step's kind, not its
 * number, so a crash and its minimized form are one signature. */
static int harness_signature(const char *finding, char *sig, size_t cap)
{
    const char *line = strstr(finding, ":   signature: ");
    if (!line || line - finding > 4096)
        return 0;
    line += 15;
    size_t n = strcspn(line, "\n");
    if (n == 0)
        return 0;
    snprintf(sig, cap, "%.*s", (int)(n < cap ? n : cap - 1), line);
    return 1;
}

void wk_crash_classify_replay(struct outcome *o, int status, const char *log)
{
    char rule[32], what[200], msg[400] = "";
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    o->cls = code == 0 ? CLS_PASS : code == 2 ? CLS_ERROR : CLS_CRASH;
    if (code == 0 || code == 2) { /* 2: an input it could not read, a driver it could not load */
        size_t n = strcspn(log, "\n");
        snprintf(o->sig, sizeof(o->sig), "%s%.*s", code == 0 ? "pass" : n ? "the replay binary could not run: " : "the replay binary could not read the input",
                 code == 0 ? 0 : (int)(n < 300 ? n : 300), log);
        return;
    }
    o->signo = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    const char *finding = strstr(log, ": FINDING: "), *kit = strstr(log, ": KIT INVARIANT: ");
    wk_crash_log_class(log, what, sizeof(what));
    snprintf(o->sanitizer, sizeof(o->sanitizer), "%s", what);
    wk_crash_log_frame(log, &o->frame);
    if (kit) {
        snprintf(o->sig, sizeof(o->sig), "kit invariant: %s", rule_in(kit, rule, sizeof(rule)) ? rule : "the reference misbehaved");
    } else if (finding && first_violation(finding, rule, sizeof(rule), msg, sizeof(msg))) {
        o->cls = CLS_FAIL;
        snprintf(o->r.rule, sizeof(o->r.rule), "%.23s", rule);
        wk_fuzz_signature(o->sig, sizeof(o->sig), rule, msg, what);
    } else if (finding && harness_signature(finding, o->sig, sizeof(o->sig))) {
        o->cls = CLS_FAIL; /* the harness's own words: the campaign's, and no step number in them */
    } else if (finding) {
        o->cls = CLS_FAIL;
        wk_fuzz_signature(o->sig, sizeof(o->sig), NULL, finding + 11, what);
    } else {
        snprintf(o->sig, sizeof(o->sig), "%s%s%s", o->signo ? wk_fuzz_signal_name(o->signo) : "exit", what[0] ? ": " : "",
                 what);
    }
    const char *first = finding ? finding : kit ? kit : log;
    while (first > log && first[-1] != '\n') /* the whole line: "<harness>: FINDING: ..." */
        first--;
    /* A violation's own message says what and where ("UNMAPPED_APERTURE at
     * +0x0 (COPY) ... address 0x804000"), where the FINDING line only says
     * when ("contract violation during Render/Patch/SubmitCommand"). */
    if (o->cls == CLS_FAIL && o->r.rule[0] && msg[0])
        snprintf(o->detail, sizeof(o->detail), "%.*s: %.400s", (int)strcspn(first, "\n") < 200 ? (int)strcspn(first, "\n") : 200,
                 first, msg);
    else
        snprintf(o->detail, sizeof(o->detail), "%.*s", (int)strcspn(first, "\n"), first);
}
