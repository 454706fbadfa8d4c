/* SPDX-License-Identifier: MIT */
/*
 * conform.h - the conformance library: the mutation catalogue, the step
 * program interpreter, the spec loader and the case runner. Used by the
 * `wddmkit` command line and by the fuzz harnesses (which share the step
 * program); drivers under test never see it.
 */
#ifndef WK_CONFORM_H
#define WK_CONFORM_H

#include <stdint.h>
#include <stdio.h>

#include "prog.h"
#include "reference.h"

/* ------------------------------------------------------------------ */
/* Mutations (mutations.c)                                              */
/* ------------------------------------------------------------------ */

struct wk_mutation {
    const char *name;         /* e.g. "paging-advance-past-end" */
    enum wk_ddi ddi;          /* the DDI whose answer it corrupts */
    const char *rule;         /* the rule it is designed to trip */
    const char *describe;     /* what it does; [param] names the parameter */
};

struct wk_mutation_state {
    const struct wk_mutation *mutation;
    const struct wk_vidmm *vm;  /* the adapter armed (wk_mutation_arm), or NULL */
    uint32_t call;            /* the matching call to corrupt, 1-based; 0: all */
    int64_t param;
    uint32_t seen;            /* matching calls so far */
    uint32_t applied;         /* corruptions done */
    uint32_t unchanged;       /* matching calls whose answer the corruption found nothing of its own to
                                 change in (a command of the kit's GPU looked for in another GPU's buffer):
                                 not counted as applied */
};

const struct wk_mutation *wk_mutation_find(const char *name);
const struct wk_mutation *wk_mutation_at(uint32_t index);  /* NULL past the end */

/* The rewriter wk_mutation_arm installs (user: the wk_mutation_state), for
 * callers that chain to it or call it directly (tests/test_fuzz_hostile.c). */
wk_vidmm_rewrite_fn wk_mutation_rewrite;

/* Installs the mutation as vm's rewriter; `s` must outlive the run. */
void wk_mutation_arm(struct wk_vidmm *vm, struct wk_mutation_state *s, const struct wk_mutation *m,
                     uint32_t call, int64_t param);

/* ------------------------------------------------------------------ */
/* The binary program form (prog_codec.c)                               */
/* ------------------------------------------------------------------ */

/* Every byte string decodes to a valid program (values folded into their
 * ranges); `p` must be released with wk_prog_free. */
void wk_prog_decode(const uint8_t *data, size_t size, struct wk_prog *p);
/* The same program as wk_prog_decode, in time proportional to the input
 * and to the last program in `p` rather than to WK_PROG_MAX_STEPS: `p`
 * must be all zeroes (a static) or the last program this function decoded
 * into it, released with wk_prog_free. For harnesses that decode every
 * input into one program (a whole wk_prog is 70 KiB to clear). */
void wk_prog_decode_again(const uint8_t *data, size_t size, struct wk_prog *p);

/* ------------------------------------------------------------------ */
/* Reducing byte inputs (ddmin_bytes.c)                                 */
/* ------------------------------------------------------------------ */

/* Whether a candidate (n bytes) keeps the property being preserved. */
typedef int wk_bytes_keep_fn(void *user, const uint8_t *data, size_t n);

/* Removes chunks of lines (by_lines) or bytes from data[0, n) while `keep`
 * holds, halving the chunk size down to one unit; returns the new length.
 * `data` itself is assumed to keep. */
size_t wk_ddmin_bytes(uint8_t *data, size_t n, int by_lines, wk_bytes_keep_fn *keep, void *user);

/* Sets each non-zero aligned 4-byte word of data[0, n) to zero where
 * `keep` still holds. */
void wk_ddmin_zero_words(uint8_t *data, size_t n, wk_bytes_keep_fn *keep, void *user);
/* Writes up to `cap` bytes; returns the size of the whole encoding (call
 * with cap 0 to size it). decode(encode(p)) == p within the limits. */
size_t wk_prog_encode(const struct wk_prog *p, uint8_t *buf, size_t cap);

/* ------------------------------------------------------------------ */
/* Running one program (prog_run.c)                                     */
/* ------------------------------------------------------------------ */

/* X(name, "word") — the verdict of one case, separate from wk_status. */
#define WK_VERDICT_MAP(X)                       \
    X(WK_VERDICT_PASS, "pass")                  \
    X(WK_VERDICT_FAIL, "fail")                  \
    X(WK_VERDICT_SKIP, "skip")                  \
    X(WK_VERDICT_CRASH, "crash")                \
    X(WK_VERDICT_TIMEOUT, "timeout")            \
    X(WK_VERDICT_ERROR, "error")                \
    X(WK_VERDICT_EXPECTED_FAIL, "expected-fail") \
    X(WK_VERDICT_UNEXPECTED_PASS, "unexpected-pass") \
    X(WK_VERDICT_FLAKE, "flake")

enum wk_verdict {
#define WK_VERDICT_ENUM_(name, word) name,
    WK_VERDICT_MAP(WK_VERDICT_ENUM_)
#undef WK_VERDICT_ENUM_
    WK_VERDICT_COUNT
};

const char *wk_verdict_name(enum wk_verdict v);

/* The checks of one kind a case ran (evaluated, held or not) and skipped
 * (the kind was left out: wk_run_options.skip_kinds, the contract profile,
 * or after a refused action). Checks after a failure are neither. */
struct wk_check_count {
    uint32_t run;
    uint32_t skipped;
};

#define WK_SKIP_REASON_SIZE 192u       /* a skip reason with its NUL (longer ones are cut) */

/* What a case run produced: the verdict, and for a failure the step, the
 * rule involved, what was expected and what was seen. Plain data: it
 * crosses the pipe from a forked case to the runner as is. */
struct wk_case_result {
    enum wk_verdict verdict;
    int32_t failed_step;               /* -1: none / the whole case */
    char rule[24];                     /* rule of the failure (or the one tripped) */
    char expected[192];
    char seen[320];
    char also[256];                    /* the first violation after seen's of another rule, its message
                                          ("" when none): the root cause is often the second */
    uint32_t not_evaluated;            /* checks the contract profile left out (wk_run_options):
                                          kept for compatibility, always equal to
                                          checks[WK_CHECK_CHOICE].skipped */
    struct wk_check_count checks[WK_CHECK_KIND_COUNT];  /* by kind (wk_step_checks) */
    char skip_reason[WK_CHECK_KIND_COUNT][WK_SKIP_REASON_SIZE]; /* why the first check of each
                                          kind was skipped ("" when none was) */
    uint64_t rules_tripped[WK_RULE_WORDS]; /* bit per catalogue index */
    struct wk_vidmm_stats stats;
    double seconds;
};

/* The spec words of stats and paging operations, in enum order, NULL after
 * the last (spec_checks.c): the loader, the YAML writer and the messages. */
extern const char *const wk_stat_words[];
/* The spec words of WK_REQ_* bits, bit order, NULL after the last (spec_load.c). */
extern const char *const wk_requires_words[];
extern const char *const wk_paging_op_words[];
/* expect_va's `fault:` words, enum wk_prog_va_fault order (spec_checks.c). */
extern const char *const wk_prog_va_fault_words[];
/* queue's `interrupts:` words: once (a node's run, one interrupt), each (spec_steps.c). */
extern const char *const wk_prog_queue_interrupt_words[];

/* What executes the driver's buffers (`--gpu`): the kit's GPU model, or
 * nothing (a driver for other hardware: the semantic checks are skipped,
 * reference-impl/vidmm/vidmm.h no_model); auto decides by the module's
 * WK_DRIVER_TARGETS_GPU_MODEL marker (driver.h; an in-process DriverEntry
 * is the reference driver's, which targets the model). */
enum wk_gpu_target { WK_GPU_AUTO, WK_GPU_MODEL, WK_GPU_NONE, WK_GPU_BINDING };

/* Whether the driver's Render reads the kit's user-mode command format
 * (`--umd`): with the GPU model it must (the model executes what Render
 * makes of it); without, the encoder kind runs only when it does. auto
 * decides by the module's WK_DRIVER_READS_KIT_UMD marker (driver.h). */
enum wk_umd_format { WK_UMD_AUTO, WK_UMD_KIT, WK_UMD_NONE };

struct wk_run_options {
    const char *driver;                /* NULL: the built-in reference driver */
    uint64_t seed;                     /* added to the program's own seed */
    DRIVER_INITIALIZE *entry;          /* when driver is NULL: this DriverEntry linked into the
                                          process instead of the reference driver's (the fuzz
                                          harnesses' quiet or WK_FUZZ_DRIVER_LIB build) */
    struct wk_vidmm_driver *once;      /* non-NULL: the driver's one load in this process
                                          (`conform --no-fork`): DriverEntry runs on the first
                                          case, later cases take its table (vidmm.h), and a case
                                          whose registry differs is a skip saying so */
    int contract;                      /* the contract profile: leave out the checks that pin
                                          the reference driver's own choices (placement offsets,
                                          counts of calls, operations, passes and fences, context
                                          info values); a negative case whose corruption never
                                          applied is a skip (docs/conformance.md, "Profiles");
                                          the same as WK_CHECK_CHOICE in skip_kinds, with the
                                          profile's reason */
    /* Kinds of check the kit cannot judge for this driver (a mode such as
     * `--gpu none`): WK_CHECK_BIT(kind) set ⇒ a check of that kind is
     * skipped, never failed, and counted with skip_reason[kind] (NULL: a
     * generic reason); an action of that kind (a render step, encoder)
     * makes the rest of the case unjudgeable: the case is a skip with that
     * reason, its remaining checks counted as skipped by their kinds. */
    uint32_t skip_kinds;
    const char *skip_reason[WK_CHECK_KIND_COUNT];
    enum wk_gpu_target gpu;            /* WK_GPU_AUTO (0) unless --gpu says; WK_GPU_BINDING: the
                                          binding's processor executes them */
    const char *binding;               /* the module exporting the hardware binding (binding.h):
                                          `--binding PATH`, or the driver module when it exports
                                          one; NULL: none */
    enum wk_umd_format umd;            /* WK_UMD_AUTO (0) unless --umd says */
    int stress;                        /* with contract: the stress profile, which also runs
                                          what no kernel hands a driver (a bare Patch: see
                                          WK_STRESS_SKIP_REASON); the reference profile runs it
                                          too */
};

/* The user command buffer in the kit's UMD format (umd.h) of a render
 * step: its raw bytes, or its records, each as umd.h lays it out (the
 * Reserved fields 0). Returns the length written (at most cap; records
 * that do not fit are left out). What the interpreter hands Render, the
 * seeds hold and the structure-aware mutator writes back. */
uint32_t wk_prog_render_command(const struct wk_prog_render *r, uint8_t *buf, uint32_t cap);
/* The inverse (render_records.c): the records of a user command buffer
 * that is exactly what wk_prog_render_command writes for records, into g
 * (its records and record_count; raw_bytes untouched). 1 when it parses,
 * 0 for raw bytes. */
int wk_render_command_records(const uint8_t *p, size_t len, struct wk_prog_render *g);

/* A render program's records in the driver's own user-mode format, by its
 * hardware binding's encoder (binding.h), over the allocation list `list`:
 * the caller gives e's room (command, command_cap, patch, patch_cap), the
 * rest is filled here. WK_OK; WK_E_NOT_SUPPORTED for what only the kit's
 * format can say (raw bytes, a patch-location list of the program's own)
 * or an operation the encoder cannot say, the reason in
 * wk_vidmm_last_error (a skip); WK_E_BINDING when the encoder failed. What
 * conform's render steps and fuzz_render send a driver with a binding. */
struct wk_encode_render;
struct wk_vidmm_list_entry;
wk_status wk_prog_encode_render(struct wk_vidmm *vm, const struct wk_prog_render *r,
                                const struct wk_vidmm_list_entry *list, uint32_t list_length, struct wk_encode_render *e);

/* Why `--gpu none` skips the semantic and encoder kinds (docs/verdicts.md,
 * "Kinds of check"). */
#define WK_GPU_NONE_SEMANTIC_REASON "nothing executes the driver's buffers (--gpu none)"
#define WK_GPU_NONE_ENCODER_REASON "the case hands the driver the kit's own UMD format (--gpu none)"
/* The semantic checks a binding's missing parts leave out (binding.h): a
 * fence the kit retired, which no interrupt reported (no register model);
 * a patched address in the driver's encoding (no read_address). */
#define WK_BINDING_NO_REGISTERS_REASON \
    "the binding has no register model: no interrupt reports the fence, the kit retired it"
#define WK_BINDING_NO_ADDRESSES_REASON "the binding's processor reads no addresses (no read_address)"
/* Why a run with a hardware binding skips the encoder kind: the binding
 * has no encoder, and the driver does not read the kit's UMD format. */
#define WK_BINDING_NO_ENCODER_REASON \
    "the case hands the driver the kit's own UMD format, and its binding has no encoder"

/* Why a check of the kit's allocation format is skipped for a driver whose
 * binding encodes its requests into a format of its own (binding.h). */
#define WK_BINDING_OWN_ALLOCATION_FORMAT_REASON                                                 \
    "the driver reads its own allocation format (its binding encodes the requests): what the kit's " \
    "format says of a request (umd.h) need not hold there"

/* Why the contract profile skips a patch step: DxgkDdiPatch called on a
 * buffer and lists that no Render of the driver's made (facts §5.3 T1-T3:
 * the kernel patches the DMA buffer the driver's Render built, with the
 * lists that Render wrote; RosKmd's Patch reads the buffer pointer its
 * Render saved). What a driver does with them is robustness, not the DDI. */
#define WK_STRESS_SKIP_REASON                                                                 \
    "a bare DxgkDdiPatch on a buffer and lists no Render of the driver's made: outside the DDI " \
    "contract (--profile stress runs it)"

/* The reason the contract profile gives for the choice checks it skips. */
#define WK_CHOICE_SKIP_REASON "the reference driver's own choice (--profile reference runs it)"

/* The interpreter, one step at a time, on an adapter the caller built and
 * started (what the fuzz harnesses use to compare two drivers step by
 * step). Objects are numbered as the program creates them. */
struct wk_prog_exec {
    const struct wk_prog *p;
    struct wk_vidmm *vm;
    struct wk_case_result *r;          /* expected/seen of a failed check */
    uint32_t devices[WK_PROG_MAX_OBJECTS], ndevices;
    uint32_t contexts[WK_PROG_MAX_OBJECTS], ncontexts;
    uint32_t allocs[WK_PROG_MAX_OBJECTS], nallocs;
    struct wk_vidmm_render_result last_render;
    uint32_t last_cancelled;
    uint32_t va_space[WK_PROG_MAX_PROCESSES]; /* each process's GPU address space, 0: none yet */
    uint8_t va_ended[WK_PROG_MAX_PROCESSES];  /* ended by end_process, and not started again */
    /* The placement fields of the last allocation request the kit made
     * (segment ids the driver's), for the encoder sub-check that the
     * driver kept them (umd.h). */
    uint32_t last_preferred, last_hinted_bank, last_eviction, last_flags;
    /* The driver's handle of each allocation on its device, as the kit
     * kept it (DxgkDdiOpenAllocation's hDeviceSpecificAllocation, or
     * CreateAllocation's hAllocation for a driver without that DDI), for
     * the allocation lists of patch steps. */
    HANDLE driver_allocs[WK_PROG_MAX_OBJECTS];
    /* Whether each allocation's request named segments (preferred,
     * supported or eviction): where one that named none lands is the
     * driver's choice on a layout of its own. */
    uint8_t alloc_named[WK_PROG_MAX_OBJECTS];
    /* Whether each allocation's request asked for an aperture: its
     * supported set holds apertures only, or (none given) its first
     * preference is one. Otherwise being in an aperture at all is where
     * the driver's DXGK_ALLOCATIONINFO and room put it: a choice. */
    uint8_t alloc_aperture_asked[WK_PROG_MAX_OBJECTS];
    int contract;                      /* wk_run_options.contract */
    int stress;                        /* wk_run_options.stress */
    uint32_t skip_kinds;               /* wk_run_options.skip_kinds */
    const char *const *skip_reason;    /* wk_run_options.skip_reason (NULL: none) */
    int binding_encoder;               /* render steps go through the binding's encoder */
    int binding_allocations;           /* CreateAllocation gets the binding's encoding of a request,
                                          not the kit's WK_ALLOCATION_REQUEST */
    int no_interrupts;                 /* a binding's processor without registers: no interrupt comes */
    int gpu_model;                     /* the kit's GPU model executes the driver's buffers */
    const char *rest_skipped;          /* why the steps from a refused action on were skipped */
    char skip_text[384];               /* a run-time reason rest_skipped may point at */
    /* Segment roles (roles.c): when the driver reports a layout other than
     * the program's adapter description, seg_map[n] is the driver's segment
     * that plays description segment n, 0 when none does (the case names
     * it nowhere, or nothing of the driver's can play it: seg_unplayed, the
     * first such id, and seg_why). seg_mapped 0: ids are the description's. */
    uint32_t seg_map[WK_PROG_MAX_SEGMENTS + 1];
    int seg_mapped;
    uint32_t seg_unplayed;
    char seg_why[160];
    /* Whether description segment n's player has the description's banks
     * (the same count and ends): only then are bank numbers comparable. */
    uint8_t seg_banks_same[WK_PROG_MAX_SEGMENTS + 1];
    /* The first allocation of the case the driver answered larger than the
     * request (its Size, or its Alignment past the request's and the
     * page), said in words; empty while none. Such a driver fits fewer of
     * the case's allocations in the room the case was calibrated with, so
     * the memory manager's residency and placement answers can differ:
     * not the driver's fault (umd.h: "it may round Size and Alignment
     * up to what its hardware needs"). */
    char rounded_why[160];
    int sizes_grew;                    /* and that rounding grows what an operation moves: a Size
                                          answered larger, or a segment in 64 KiB pages (not an
                                          Alignment alone) */
    /* The bytes the case asked for each allocation (its request's Size,
     * page-rounded as the reference driver answers it): what a content
     * check of the whole allocation reads, the driver's slack past it
     * being no bytes of the case's (outsider 26). */
    uint64_t alloc_asked[WK_PROG_MAX_OBJECTS];
    /* Where a case expected allocation i (description segment, offset,
     * size) when a choice check the profile skips found it elsewhere: a
     * later absolute address inside that range names another place. */
    struct {
        uint8_t valid;
        uint32_t segment;
        uint64_t offset, size;
    } assumed[WK_PROG_MAX_OBJECTS];
    /* Why the interpreter itself gave a step's status (an allocation the
     * step needs resident is not): empty when the kit's last error says. */
    char step_why[200];
};

/* Whether every segment a driver of the GPU model reports lies in one
 * segment of the GPU of the same kind (gpu_layout.c): 1 when it does; 0
 * with the first that does not in why. */
int wk_layout_matches_gpu(const struct wk_gpu_segment_desc *gpu, uint32_t ngpu,
                          const struct wk_vidmm_segment_info *seg, uint32_t nseg, char *why, size_t cap);

/* Whether a driver kept the placement fields of a request in the kit's
 * format (umd.h; placement_request.c): its PreferredSegment (HintedBank)
 * lists the request's entries in order, each at most once, leaving out only
 * those invalid for it (a segment outside `supported`, a bank above
 * `bank_count`). 1 when it did; 0 with the first difference in why. */
int wk_preference_kept(uint32_t request, uint32_t answer, uint32_t supported, char *why, size_t cap);
int wk_banks_kept(uint32_t request, uint32_t answer, uint32_t bank_count, char *why, size_t cap);

void wk_prog_exec_init(struct wk_prog_exec *x, const struct wk_prog *p, struct wk_vidmm *vm,
                       struct wk_case_result *r);

/* Segment roles (roles.c). The description segments (bit id - 1) a step
 * names, and that the whole program names. */
uint32_t wk_roles_named_by(const struct wk_prog *p, const struct wk_step *s);
uint32_t wk_roles_named(const struct wk_prog *p);
/* The WK_ROLE_* bits description segment n's player must have: its
 * `role:`, and CPU visibility where a CpuVisible allocation names it. */
uint32_t wk_roles_needed(const struct wk_prog *p, uint32_t n);
/* Casts each named description segment onto a distinct segment of the
 * driver's (d[0..nd), as wk_vidmm_segments reports them) that can play it:
 * player[n] is the driver's id for description segment n, 0 when not cast.
 * Returns 0 when every named segment has a player, else the first id that
 * has none, with the reason in why (may be NULL). */
uint32_t wk_roles_cast(const struct wk_prog *p, const struct wk_vidmm_segment_info *d, uint32_t nd, uint32_t named,
                       uint32_t player[WK_PROG_MAX_SEGMENTS + 1], char *why, size_t why_size);
/* Runs one step: the action's status, or for a check WK_OK with
 * *check_failed set when it did not hold (x->r says why). */
wk_status wk_prog_exec_step(struct wk_prog_exec *x, const struct wk_step *s, int *check_failed);
/* Whether the step can be run on this adapter: 0 when it names a segment
 * role (docs/verdicts.md, "Segments by role") the driver has no segment
 * for; nothing after it can be compared then. */
int wk_prog_exec_judgeable(const struct wk_prog_exec *x, const struct wk_step *s);
/* Whether a render step lists an allocation the driver answered larger than
 * the program asked: a reference past the asked end may fit the driver's. */
int wk_prog_exec_render_rounded(struct wk_prog_exec *x, const struct wk_step *s);

/* Whether the program runs anything in a GPU address space (a va step, a
 * virtual context, a device of a process): then its devices are made in
 * the case's process, whose page tables the kit places. */
int wk_prog_uses_va(const struct wk_prog *p);

/* Runs a program in this process: builds the adapter, loads the driver,
 * executes the steps, judges the result. Never aborts on a bad program or a
 * hostile driver: everything becomes the result. */
void wk_prog_run(const struct wk_prog *p, const struct wk_run_options *o, struct wk_case_result *r);

/* ------------------------------------------------------------------ */
/* A program as YAML (prog_yaml.c)                                      */
/* ------------------------------------------------------------------ */

/* Writes `p` as a spec file of one case (docs/spec-format.md) that the
 * loader reads back to the same program; area/id/describe NULL: p's own.
 * Objects are named by creation index (device0, context0, alloc0...).
 * Returns 0, or -1 with nothing written when the program has no YAML form
 * (see wk_prog_yaml_check) or the names are invalid, or on a write error. */
int wk_prog_write_yaml(const struct wk_prog *p, const char *area, const char *id, const char *describe, FILE *out);
/* The number of things in `p` YAML cannot say (0: it can be written); the
 * first one's step in *first (-1: the case itself) and why, one line. */
int wk_prog_yaml_check(const struct wk_prog *p, int32_t *first, char *why, size_t size);

/* ------------------------------------------------------------------ */
/* Limits of the fuzz harnesses' program inputs                         */
/* ------------------------------------------------------------------ */

/* Program inputs of the fuzz harnesses (fuzz_prog, fuzz_hostile), and
 * `wddmkit repro`/`minimize`/`triage`, which run a fuzz_prog input as that
 * harness does: the allocation bytes one input may ask for (every spec case
 * fits), the smallest paging buffer a non-zero size is raised to (a COPY,
 * the largest paging command: no driver makes progress in less), and the
 * largest one it is lowered to (what the program header alone can say; an
 * adapter block may ask for 64 MiB, which every submission's Patch check
 * would scan; no spec case uses more than 16 KiB). */
#define WK_FUZZ_PROG_BYTES (2u << 20)
#define WK_FUZZ_MIN_PAGING_BUFFER 28u
#define WK_FUZZ_MAX_PAGING_BUFFER 0xFFFFu

/* A program's paging-buffer size folded into those bounds (0, the
 * driver's own, stays 0). */
static inline uint32_t wk_fuzz_paging_buffer(uint32_t size)
{
    if (size && size < WK_FUZZ_MIN_PAGING_BUFFER)
        return WK_FUZZ_MIN_PAGING_BUFFER;
    return size > WK_FUZZ_MAX_PAGING_BUFFER ? WK_FUZZ_MAX_PAGING_BUFFER : size;
}

/* ------------------------------------------------------------------ */
/* The render/patch harnesses' fixture as steps (fixture_steps.c)       */
/* ------------------------------------------------------------------ */

/* create_device, create_context (with `context_flags`), then each of the
 * seven slot allocations created and paged in: allocation index = slot - 1. */
#define WK_FIXTURE_STEPS 16u
/* Appends a zeroed step of `kind` (the caller checks the room). */
struct wk_step *wk_prog_add_step(struct wk_prog *p, enum wk_step_kind kind);
void wk_fixture_steps(struct wk_prog *p, uint32_t context_flags);
/* 1 when `p` starts with that fixture (its context's flags in *flags). */
int wk_fixture_shape(const struct wk_prog *p, uint32_t *context_flags);

/* ------------------------------------------------------------------ */
/* fuzz_patch inputs as programs (patch_input.c)                        */
/* ------------------------------------------------------------------ */

/* A fuzz_patch input (fuzz/inputs/seeds_lib.h) as the program that makes the same
 * DxgkDdiPatch call: the harness's fixture (device, context, its seven
 * allocations paged in) and one patch step, folded as the harness folds it
 * for a context with `info` (the driver's DXGK_CONTEXTINFO) on a GPU with
 * `slots` (wk_vidmm_patch_slots of the driver's adapter; NULL: the kit's
 * GPU). Every input converts; -1 only when out of memory. Release `p`
 * with wk_prog_free. */
int wk_patch_input_to_prog(const uint8_t *data, size_t size, const DXGK_CONTEXTINFO *info,
                           const struct wk_vidmm_patch_slots *slots, struct wk_prog *p);
/* The inverse for programs of that shape: fuzz_patch's bytes in *data
 * (malloc'd). -1 with the reason in `why` when `p` has no such form. */
int wk_patch_input_from_prog(const struct wk_prog *p, uint8_t **data, size_t *size, char *why, size_t why_size);

/* ------------------------------------------------------------------ */
/* fuzz_render inputs as programs (render_input.c)                      */
/* ------------------------------------------------------------------ */

/* What fuzz_render's fixture finds on the driver: the plain context's
 * DXGK_CONTEXTINFO and, when the driver creates GDI contexts, the GDI
 * context's (the harness renders there for inputs with WK_RENDER_GDI). */
struct wk_render_target {
    DXGK_CONTEXTINFO info;
    int gdi;
    DXGK_CONTEXTINFO gdi_info;
};

/* A fuzz_render input (fuzz/inputs/seeds_lib.h) as the program that makes the same
 * DxgkDdiRender call: the fixture with a context of the kind the harness
 * renders on, and one render step (the list by slot, the user patch list
 * entry by entry, the raw command buffer, the pre-patch flag), folded as
 * the harness folds them for that context. -1 only when out of memory.
 * Release `p` with wk_prog_free. */
int wk_render_input_to_prog(const uint8_t *data, size_t size, const struct wk_render_target *t, struct wk_prog *p);
/* The inverse for programs of that shape: fuzz_render's bytes in *data
 * (malloc'd). -1 with the reason in `why` when `p` has no such form. */
int wk_render_input_from_prog(const struct wk_prog *p, uint8_t **data, size_t *size, char *why, size_t why_size);

/* A fuzz_paging input (fuzz/inputs/seeds_lib.h) as the program that harness runs:
 * create_device, the input's allocations, one step per paging operation,
 * with its paging-buffer size and transfer chunk as the adapter's knobs.
 * wk_paging_input_steps appends only the steps (the harness's own program
 * is reused between inputs). */
struct wk_paging_input;
void wk_paging_input_steps(const struct wk_paging_input *in, struct wk_prog *p);
void wk_paging_input_to_prog(const uint8_t *data, size_t size, struct wk_prog *p);


#endif
