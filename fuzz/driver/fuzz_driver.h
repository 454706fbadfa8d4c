/* SPDX-License-Identifier: MIT */
/*
 * fuzz_driver.h - the adapters the driver harnesses (fuzz_render,
 * fuzz_patch, fuzz_paging, fuzz_prog) run their inputs on, and how they
 * report a finding.
 *
 * Why one shared layer: every harness must be able to target any driver
 * without a rebuild, build its adapters once per process (creating and
 * starting one costs far more than an input), and report a finding the same
 * way so that every engine (libFuzzer, AFL++, the replay binary) records the
 * input.
 *
 * The driver under test (DUT) is chosen once per process:
 *   1. WK_DRIVER=path.so in the environment: loaded with wk_vidmm_load;
 *   2. else, when the harness was built with the CMake option
 *      WK_FUZZ_DRIVER_LIB=<target or path of a static library>, the
 *      library's `NTSTATUS wk_fuzz_linked_DriverEntry(PDRIVER_OBJECT,
 *      PUNICODE_STRING)` (its DriverEntry, renamed the way
 *      wk_refdriver_static renames the reference driver's);
 *   3. else the reference driver (wk_refdriver_DriverEntry).
 * The reference adapter of the differential harnesses always runs the
 * reference driver linked in.
 *
 * Adapters are built with no DDI timer (ddi_timeout_ms = UINT32_MAX: the
 * engine's -timeout catches hangs, and a timer signal per DDI would cost
 * every input), guard pages on, and the knobs of struct wk_fuzz_knobs: the
 * GPU description (the reference adapter unless an input describes
 * another), seed, multipass bound and paging knobs. Per role, up to
 * WK_FUZZ_KEPT adapters are kept, by knobs, least recently used first
 * out, at most WK_FUZZ_KEPT_PER_BUILD of one description; paging
 * knobs, seed and max_passes can also be set on a reset adapter
 * (wk_vidmm_reconfigure), the GPU description and the segment-query
 * version only by building one (and, with a driver module under test, the
 * paging buffer's size: adapters.c, knobs_applied). A driver under test from WK_DRIVER or
 * WK_FUZZ_DRIVER_LIB gets one live adapter at a time: asking for another
 * version destroys it first, so that a driver keeping adapter state in
 * globals never sees two adapters at once (the reference driver, which
 * both roles run side by side, keeps WK_FUZZ_KEPT).
 *
 * An adapter description other than the reference one may be refused (by
 * the GPU model: overlapping segments, no system pages...; or by the
 * reference driver at start): such an input is not interesting, not a
 * finding; wk_fuzz_differential runs nothing for it. A driver under test
 * that does not start on a description the reference starts on is a
 * finding. On the reference description, a refusal is what it always was:
 * a KIT INVARIANT for the reference, an abort for the driver under test.
 *
 * State between inputs: adapters are reset (wk_vidmm_reset), not rebuilt,
 * unless their knobs change. A reset puts the kit's side back exactly as
 * on a fresh adapter (placements, system pages and their scatter, GART,
 * memory; fence ids keep rising, as on Windows), but the driver under test
 * is not reloaded: a finding that depends on the driver's own history (a
 * counter, a leak, a stale pointer from an earlier input) may not replay
 * in a fresh process. WK_FUZZ_FRESH=1 builds every input's adapters (and
 * so loads the driver) afresh, slower, and then every finding replays.
 *
 * Findings: a contract violation on the DUT, a DUT that crashed (the
 * adapter is dead), or a differential mismatch. wk_fuzz_finding prints the
 * harness, what happened and every recorded violation to stderr, then
 * abort()s: libFuzzer and AFL++ save the input as a crash, the replay binary
 * dies with SIGABRT. With WK_FUZZ_NO_ABORT=1 it prints, counts, marks every
 * adapter for a rebuild and returns (surveying a folder of crash files with
 * the replay binary); the harness then abandons the input.
 * A violation or crash of the REFERENCE adapter is a bug in the kit, never
 * in the DUT: wk_fuzz_kit_invariant reports it as "KIT INVARIANT" and always
 * aborts.
 *
 * Known signatures: WK_FUZZ_IGNORE="SIG;SIG..." lists findings not to stop
 * at (a bug already known, whose inputs would otherwise end every libFuzzer
 * campaign at once). A finding whose signature (wk_fuzz_signature, below:
 * the text `wddmkit repro` and `triage` print) is one of them is counted,
 * named once per process, and treated as under WK_FUZZ_NO_ABORT: the
 * adapters are rebuilt, the input abandoned, and the engine sees no crash,
 * so it goes on looking for other bugs. WK_FUZZ_IGNORE_COUNTS=FILE adds to
 * one 8-byte counter per listed signature in FILE, in list order, through
 * a shared mapping (every process and fork of a campaign adds to the same
 * counters; `wddmkit fuzz` reads them for its summary). A kit invariant is
 * never ignored, and neither is what the kit does not catch (a sanitizer
 * report that ends the process, a signal outside a DDI call, a hang).
 */
#ifndef WK_FUZZ_DRIVER_H
#define WK_FUZZ_DRIVER_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"
#include "reference.h"

#include "inputs/seeds_lib.h"
#include "reach.h"

/* WK_FUZZ_PROG_BYTES and the paging-buffer bounds of program inputs are
 * in conform.h: `wddmkit repro` folds a fuzz_prog input as the harness
 * does. */

/* Adapters each role keeps (the reference driver as driver under test;
 * one otherwise). 32: the seeds of fuzz_prog run on 23 GPU descriptions
 * of their cases (in two segment-query versions, with other paging knobs),
 * and with four kept, mutated inputs switching between them evicted each
 * other's adapters (bench/fuzz_speed fuzz_prog: 9,700 exec/s with 4,
 * 15,600 with 32 and at most 4 per description and version). With 32, a
 * pass over the committed fuzz_prog seeds still built adapters, each build
 * about 17 mappings (its buffers, views and guard pages): 0.66 mapping
 * changes per seed in the steady state, 1.13 per mutated input; with 64,
 * 0.07 and 0.85, at 575 MB peak resident against 409 (bench/fuzz_speed
 * --floor fuzz_prog; 96 gave 0.07 and 0.59 at 684 MB). An idle kept
 * adapter costs the pages it touched. */
#define WK_FUZZ_KEPT 64
/* Of them, at most this many of one GPU description and segment-query
 * version: other paging knobs on it reconfigure one (what four kept
 * adapters did for every input before descriptions varied). */
#define WK_FUZZ_KEPT_PER_BUILD 4

/* The adapter knobs a harness input may choose (the rest is fixed above).
 * The adapter fields come last and mean the reference adapter, seed 0 and
 * the default multipass bound when zero: a harness that fuzzes no adapter
 * ends its initialiser with `NULL, 0, 0, 0, 0` (-Wextra wants every field). */
struct wk_fuzz_knobs {
    uint32_t paging_buffer_size;      /* 0: the driver's PagingBufferSize */
    uint64_t transfer_chunk;          /* 0: whole transfers */
    int split_submissions;
    uint32_t query_segment_version;   /* 0 or 3: QUERYSEGMENT3; 4 */
    /* The GPU; NULL: wk_gpu_reference_desc(). Compared by value and read
     * only during the call (the kept adapters keep a copy), so it may point
     * into an input that the next one overwrites. At most as many segments
     * and bank ends as a struct wk_prog holds; a larger one is refused. */
    const struct wk_gpu_desc *gpu;
    uint64_t seed;                    /* scatters system pages (wk_vidmm_config) */
    uint32_t max_passes;              /* multipass bound; 0: vidmm's default */
    int grown_patch_list;             /* wk_vidmm_config's */
    /* The first SubmissionFenceId of a new adapter (wk_vidmm_config's; 0:
     * 1). Like the GPU description, only a new adapter takes another: a
     * kept one's ids keep rising across resets. At most
     * WK_FUZZ_MAX_FIRST_FENCE. */
    uint32_t first_fence;
    int move_before_patch;            /* wk_vidmm_config's */
};

/* The highest first fence id an adapter is built with: a kept adapter
 * counts its ids on over every input it serves, and from here 2^28 of
 * them are left before 0xFFFFFFFF, past which the facts say nothing (the
 * kit goes on at 1: vidmm submit.c, fence_next), so that no campaign
 * finds what a wrap does to a driver. */
#define WK_FUZZ_MAX_FIRST_FENCE 0xF0000000u

enum wk_fuzz_role {
    WK_FUZZ_DUT,                      /* the driver under test */
    WK_FUZZ_REF,                      /* the reference driver (differential) */
    WK_FUZZ_ROLES
};

/* "reference", "linked", or the WK_DRIVER path. */
const char *wk_fuzz_driver_name(void);
/* The DUT as chosen above, for a harness that builds its adapters itself
 * (fuzz_hostile, through wk_prog_run): the WK_DRIVER path (NULL when
 * unset), else the DriverEntry linked in (WK_FUZZ_DRIVER_LIB's or the
 * reference driver's). */
const char *wk_fuzz_driver_path(void);
DRIVER_INITIALIZE *wk_fuzz_driver_entry(void);

/* The started adapter of `role` with knobs `k` (NULL: all defaults): the
 * kept one with knobs k (as it is, not reset), else built (and every kept
 * one dropped first after a finding). When it cannot be built: on the
 * reference GPU description, aborts with a message (the DUT cannot be
 * fuzzed so; the reference: a KIT INVARIANT); on another, NULL, the kept
 * adapters of a role that can hold two at once left as they were. */
struct wk_vidmm *wk_fuzz_adapter(enum wk_fuzz_role role, const struct wk_fuzz_knobs *k);

/* The adapter of `role` with knobs `k` (NULL: defaults), empty: reset
 * (wk_vidmm_reset, cost proportional to what the last input touched), and
 * given other paging knobs by wk_vidmm_reconfigure when they differ: the
 * kept adapter with knobs k, else the least recently used of k's
 * GPU description and segment-query version; built when there is none
 * (or a free entry is left), when it is dead (or cannot reset), after a
 * finding, and for every input under WK_FUZZ_FRESH=1. NULL as
 * wk_fuzz_adapter. */
struct wk_vidmm *wk_fuzz_ready(enum wk_fuzz_role role, const struct wk_fuzz_knobs *k);

/* Adapters of `role` built so far in this process (tests: reuse versus
 * rebuild). */
uint64_t wk_fuzz_builds(enum wk_fuzz_role role);

/* Counts the builds and resets of the adapter of `role`: what a harness
 * keeping objects on it compares to know they are still there. */
uint64_t wk_fuzz_epoch(enum wk_fuzz_role role);

/* Whether the driver under test targets the GPU model (WK_GPU, else its
 * WK_DRIVER_TARGETS_GPU_MODEL marker; decided at its first adapter, 1
 * before). A driver for other hardware has none of its buffers executed,
 * unless its hardware binding's processor runs them (below). */
int wk_fuzz_dut_targets_model(void);
/* Whether the driver under test reads the kit's user-mode format (umd.h):
 * it targets the GPU model, or its module declares WK_DRIVER_READS_KIT_UMD
 * (decided with the GPU, as conform --umd auto decides). Its Render is then
 * handed the kit's user commands, whatever executes its buffers. */
int wk_fuzz_dut_reads_kit_umd(void);

/*
 * The hardware binding (wddmkit/binding.h) the driver under test runs
 * with: the module WK_BINDING names, else the driver module's own export
 * of wk_binding (WK_DRIVER), else none; WK_BINDING=none, or WK_GPU=none,
 * refuses it. Opened and checked once per process, at the first call
 * (LLVMFuzzerInitialize makes it): a binding the kit refuses ends the
 * harness there with the reason (exit 2), never an input. Every DUT adapter
 * is built with it (wk_vidmm_config.binding): the binding's segments and
 * system memory, whatever the input describes (the reference adapter
 * follows the input); its processor, when it has one, runs the
 * driver's buffers, and the DUT is judged by the semantic checks too, on
 * the contract profile (docs/fuzz-your-driver.md, "A driver for other
 * hardware"). The reference adapter never has one.
 */
struct wk_binding;
const struct wk_binding *wk_fuzz_dut_binding(void);
/* Whether the DUT's binding has a processor (its buffers execute on it),
 * and a render encoder (the kit's abstract render operations become the
 * driver's own pCommand: wk_vidmm_encode_render). */
int wk_fuzz_dut_binding_executes(void);
int wk_fuzz_dut_binding_encodes(void);
/* Whether anything executes the DUT's buffers: the GPU model, or its
 * binding's processor (then allocation contents are compared). */
int wk_fuzz_dut_executes(void);

/* Defined by a harness whose every input hands the driver the kit's own
 * user-mode format (the encoder kind: fuzz_render): against a driver that
 * does not target the GPU model (WK_GPU=none or no marker) and has no
 * binding whose encoder writes its own format, it cannot fuzz anything,
 * and says so at start and exits 2 (LLVMFuzzerInitialize), rather than
 * dying in set-up on every input. */
int wk_fuzz_harness_needs_kit_umd(void) __attribute__((weak));

/* Violations recorded on vm since its creation or last reset. */
uint64_t wk_fuzz_violation_count(const struct wk_vidmm *vm);

/* A finding on the DUT: prints "<harness>: FINDING: <what>", the driver,
 * every violation of vm (may be NULL), its last error and the finding's
 * signature, then aborts (or returns under WK_FUZZ_NO_ABORT=1, see above).
 * A finding of a known signature (WK_FUZZ_IGNORE, above) is counted, not
 * printed after its first, and returns. */
void wk_fuzz_finding(const char *harness, struct wk_vidmm *vm, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The same, for a finding that broke no rule (a differential mismatch, a
 * kit call that failed without a violation), with `what_kind`, a few words
 * that name the bug and never the input (no step or allocation number, no
 * byte offset, digest or reference status: "differential: render returned
 * WK_E_DRIVER_FAILED on the driver under test"), as its signature
 * ("finding: <what_kind>"): one bug, one signature, whatever input found
 * it, so triage groups them and WK_FUZZ_IGNORE passes over them all. When
 * vm recorded a violation, the signature is the violation's, as above. */
void wk_fuzz_finding_as(const char *harness, struct wk_vidmm *vm, const char *what_kind, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The reference itself misbehaved: "<harness>: KIT INVARIANT: ..." and abort. */
void wk_fuzz_kit_invariant(const char *harness, struct wk_vidmm *ref, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));

/* When vm recorded a violation or died: a finding (DUT) or a kit invariant
 * (REF). Returns 1 when the input must be abandoned (WK_FUZZ_NO_ABORT). */
int wk_fuzz_check(const char *harness, enum wk_fuzz_role role, struct wk_vidmm *vm, const char *when);

/* Findings reported so far in this process (WK_FUZZ_NO_ABORT runs). */
uint64_t wk_fuzz_findings(void);

/* Findings of a known signature (WK_FUZZ_IGNORE) passed over so far in
 * this process. */
uint64_t wk_fuzz_ignored(void);

/* Defined (returning 1) by a harness whose inputs crash drivers routinely
 * (fuzz_hostile): LeakSanitizer is then never told about the blocks a
 * crashed driver's pool keeps, as in a campaign with known signatures
 * (known.c, __lsan_default_suppressions). */
int wk_fuzz_crashed_pools_routine(void) __attribute__((weak));

/* The name of a signal as signatures give it ("SIGSEGV"), "signal" for one
 * without a name here. */
static inline const char *wk_fuzz_signal_name(int signo)
{
    static const struct { int no; const char *name; } names[] = {
        { SIGSEGV, "SIGSEGV" }, { SIGBUS, "SIGBUS" }, { SIGFPE, "SIGFPE" }, { SIGILL, "SIGILL" },
        { SIGABRT, "SIGABRT" }, { SIGTRAP, "SIGTRAP" }, { SIGKILL, "SIGKILL" }, { SIGTERM, "SIGTERM" },
        { SIGALRM, "SIGALRM" }, { SIGPIPE, "SIGPIPE" }, { SIGSYS, "SIGSYS" }, { SIGXCPU, "SIGXCPU" },
        { SIGHUP, "SIGHUP" },   { SIGINT, "SIGINT" },
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (names[i].no == signo)
            return names[i].name;
    return "signal";
}

/*
 * The signature of a finding: what every tool prints for it (`wddmkit
 * repro`, `triage`, `minimize`, `promote`, `fuzz` and its check of the
 * starting inputs), what triage groups by and what WK_FUZZ_IGNORE matches.
 * One function, here, for the harnesses and the command line alike: repro
 * and triage of a replayed input used to print "SUBMIT-GPU-001 in
 * DxgkDdiSubmitCommand" where minimize and promote printed
 * "SUBMIT-GPU-001 (CROSSES_SEGMENT) in DxgkDdiSubmitCommand".
 *
 *   "RULE (CLASS) in DDI[: SANITIZER]" for a rule violated (`rule` its ID):
 *      CLASS the GPU fault class ("faulted on the GPU: CROSSES_SEGMENT ..."),
 *      the signal of a crash the kit caught ("crashed with signal 11") or
 *      the status the driver exited the process with ("exited the process
 *      (exit status 3)": "exit 3") or a stack overflow ("stack-overflow")
 *      when the violation's message names one,
 *      else left out; DDI the one the message names ("RULE: DDI: detail",
 *      as the kit records a violation), or the thread of the driver's that
 *      crashed ("... in the driver's system thread (StartRoutine worker,
 *      started during DxgkDdiRender)", "... in a thread the driver started
 *      itself (not a DDI)": the crash slot's words, vidmm.h), for a
 *      hardware binding's rule (BIND-*) the part of the binding that failed
 *      ("BIND-CRASH-001: processor.exec of the binding crashed ...":
 *      "processor.exec"; "the encoder of binding 'heron' ...": "encoder";
 *      wk_fuzz_binding_part), "the kit" when it names none;
 *   "finding: WHAT[: SANITIZER]" for a harness finding without a rule (a
 *      differential mismatch): WHAT the message's first line, at most 200
 *      characters.
 * SANITIZER (NULL or "": none) is the class of a sanitizer report, which
 * only a tool that reads the report can add.
 */
/* Where a hardware binding's violation happened, from its message ("RULE:
 * DETAIL"): the words of DETAIL before " of ", without a leading "the "
 * (the binding's part: "processor.exec", "encoder", "register model"), or
 * "the binding" when DETAIL names no part within 40 characters. A
 * binding's rule names no DDI (WK_DDI_NONE): the DDI a crash came during
 * is the input's, not the bug's. */
static inline void wk_fuzz_binding_part(char *out, size_t cap, const char *message, size_t rule_len)
{
    const char *from = message + rule_len;
    from += strncmp(from, ": ", 2) == 0 ? 2 : 0;
    from += strncmp(from, "the ", 4) == 0 ? 4 : 0;
    const char *of = strstr(from, " of ");
    size_t w = of ? (size_t)(of - from) : 0;
    if (!of || w == 0 || w > 40 || memchr(from, '\n', w))
        snprintf(out, cap, "the binding");
    else
        snprintf(out, cap, "%.*s", (int)w, from);
}

static inline void wk_fuzz_signature(char *out, size_t cap, const char *rule, const char *message,
                                     const char *sanitizer)
{
    const char *san = sanitizer && sanitizer[0] ? sanitizer : NULL;
    size_t n = rule ? strlen(rule) : 0;
    if (!n) {
        size_t w = strcspn(message, "\n");
        snprintf(out, cap, "finding: %.*s%s%s", (int)(w < 200 ? w : 200), message, san ? ": " : "", san ? san : "");
        return;
    }
    char ddi[200] = "the kit", cls[64] = "";
    const char *thread = strstr(message, " in the driver's system thread (");
    if (!thread)
        thread = strstr(message, " in a thread the driver started itself");
    if (strncmp(rule, "BIND-", 5) == 0) {
        wk_fuzz_binding_part(ddi, sizeof(ddi), message, strncmp(message, rule, n) == 0 ? n : 0);
    } else if (thread) {
        size_t w = strcspn(thread + 4, "\n");
        snprintf(ddi, sizeof(ddi), "%.*s", (int)(w < sizeof(ddi) - 1 ? w : sizeof(ddi) - 1), thread + 4);
    } else if (strncmp(message, rule, n) == 0 && message[n] == ':' && message[n + 1] == ' ') {
        const char *from = message + n + 2;
        size_t w = strcspn(from, ": \n");
        if (w && w < sizeof(ddi) && from[w] == ':')
            snprintf(ddi, sizeof(ddi), "%.*s", (int)w, from);
    }
    const char *gpu = strstr(message, "faulted on the GPU: "), *sig = strstr(message, "crashed with signal ");
    const char *exited = strstr(message, "exited the process (exit status ");
    if (gpu) {
        gpu += strlen("faulted on the GPU: ");
        size_t w = strcspn(gpu, " :\n");
        snprintf(cls, sizeof(cls), " (%.*s)", (int)(w < 40 ? w : 40), gpu);
    } else if (sig) {
        snprintf(cls, sizeof(cls), " (%s)", wk_fuzz_signal_name(atoi(sig + strlen("crashed with signal "))));
    } else if (strstr(message, "overflowed its stack")) {
        snprintf(cls, sizeof(cls), " (stack-overflow)");
    } else if (exited) {
        snprintf(cls, sizeof(cls), " (exit %d)", atoi(exited + strlen("exited the process (exit status ")));
    }
    snprintf(out, cap, "%s%s in %s%s%s", rule, cls, ddi, san ? ": " : "", san ? san : "");
}

/* Whether an entry of WK_FUZZ_IGNORE names signature `sig` (as
 * wk_fuzz_signature made it, without a sanitizer's part): the same text,
 * or the text followed by ": " and a sanitizer's class (an entry copied
 * from `wddmkit repro`, which reads the report; the harness does not, so
 * such an entry matches every finding of that rule, class and DDI). */
static inline int wk_fuzz_signature_matches(const char *entry, const char *sig)
{
    size_t n = strlen(sig);
    return strncmp(entry, sig, n) == 0 && (entry[n] == '\0' || (entry[n] == ':' && entry[n + 1] == ' '));
}

/*
 * The end of a process that ran inputs (the replay binary calls it after
 * its last one): every kept adapter of both roles is stopped, its objects
 * destroyed (the fixture's too) and the driver's StopDevice and
 * RemoveDevice called. Without it the destroy DDIs ran only when an input
 * happened to force a rebuild, so `wddmkit coverage` counted them by the
 * order of its inputs (more inputs gave lower coverage). What the teardown
 * records is judged as after an input: a violation on the DUT is a finding
 * (it aborts, or under WK_FUZZ_NO_ABORT prints and returns), on the
 * reference a KIT INVARIANT. Adapters left stale by a finding are dropped
 * unjudged, as a rebuild drops them. Nothing is kept afterwards.
 */
void wk_fuzz_teardown(void);

/*
 * Whether an input reached the driver under test (reach.c): a harness that
 * gives up on an input before any DDI call says why, once per input, and
 * one that calls the driver says WK_FUZZ_REACHED. The counts are the
 * process's ([0] inputs counted, [1 + reason] each reason's) and, with
 * WK_FUZZ_REACH_COUNTS naming a file of
 * WK_FUZZ_REACH_COUNTERS 8-byte counters, that file's too (`wddmkit fuzz`
 * prints them in its summary; the layout and the reasons' words are
 * reach.h). wk_fuzz_reach_report prints a line to
 * stderr when any input was skipped (the replay binaries do at the end).
 */
void wk_fuzz_count_input(enum wk_fuzz_reach why);
void wk_fuzz_reach_report(const char *harness);

/*
 * The objects fuzz_render and fuzz_patch keep across inputs on the DUT: a
 * device, a context and a GDI context (0 when the driver declines one), and
 * the allocations of wk_render_slots, each paged in once. Their placement
 * is recorded: an input that moved one (an eviction) leaves the fixture
 * "not intact" and the harness rebuilds it, so every input starts from the
 * same placement.
 */
struct wk_fuzz_fixture {
    struct wk_vidmm *vm;                       /* NULL: not built */
    uint64_t epoch;                            /* wk_fuzz_epoch(WK_FUZZ_DUT) when built */
    uint32_t device, context, gdi_context;
    DXGK_CONTEXTINFO info, gdi_info;
    uint32_t alloc[WK_RENDER_SLOTS + 1];       /* handles by slot (index 0 unused) */
    uint64_t where[WK_RENDER_SLOTS + 1];       /* GPU address when built */
    uint64_t placement;                        /* wk_vidmm_placement_epoch when last seen intact */
};

/* The fixture, ready: kept when it is still there and intact, else the DUT
 * is reset and the fixture built again. A violation meanwhile is a finding
 * (NULL is returned under WK_FUZZ_NO_ABORT), a refusal to build it aborts
 * (the driver cannot be fuzzed so). */
struct wk_fuzz_fixture *wk_fuzz_fixture(const char *harness);

/*
 * The differential run of fuzz_paging and fuzz_prog: program `p` step by
 * step on the DUT and on the reference adapter, both reset first and built
 * with knobs `k`. After every step:
 *   - a violation on the reference: KIT INVARIANT (abort);
 *   - a violation on the DUT: a finding;
 *   - different statuses: a finding;
 *   - a content check (expect_bytes, expect_pattern, expect_digest,
 *     expect_gart) holding on one and not the other: a finding (an
 *     expect_digest on an allocation whose bytes are equal on both sides
 *     holds or fails alike: decided by a byte compare, no digest computed);
 * and at the end every allocation's bytes must be equal (compared directly,
 * page by page; the digests are printed when they differ), and readable
 * on both sides or on neither; then every device the input left is
 * destroyed on both sides, checked like a step (the teardown the
 * conformance runner judges too). Checks that read driver-chosen numbers
 * (expect_stats, expect_context_info) or placement are run but not
 * compared: a correct driver may differ there. Left out on both sides:
 * steps `skip` (may be NULL) names (a harness's work cap). An adapter
 * description (k->gpu) the reference refuses runs nothing on either side,
 * no finding (the DUT's adapter is not even asked for); one the reference
 * starts on and the DUT does not is a finding. A DUT with a layout of its
 * own (other hardware, with or without its binding) is compared only on
 * what a layout cannot explain, and a bare patch step is left out on both
 * sides (the contract profile's): differential.c says what and why. From
 * the first step the reference cannot take (WK_E_NOT_SUPPORTED) and the
 * DUT took (a GpuMmu driver's address spaces and virtual contexts), the
 * rest runs on the DUT alone: its violations, its teardown's included, are
 * findings; nothing else is compared.
 * Returns 1 when the run was clean, 0 after a finding under
 * WK_FUZZ_NO_ABORT and for a refused description.
 */
typedef int wk_fuzz_skip_fn(void *user, const struct wk_prog *p, uint32_t step);
int wk_fuzz_differential(const char *harness, const struct wk_prog *p, const struct wk_fuzz_knobs *k,
                         wk_fuzz_skip_fn *skip, void *user);

#endif
