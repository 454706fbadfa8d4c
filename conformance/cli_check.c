/*
 * cli_check.c - `wddmkit check [--driver PATH] [--seed N] [--paging-buffer BYTES]`:
 * the built-in conformance scenarios, run against any driver object.
 *
 * Each scenario drives one DDI area through the reference video memory
 * manager on a fresh adapter (so a crash in one cannot spoil the next) and
 * passes when the operations succeed with no contract-rule violation. This
 * is the suite `make conform` runs until the YAML spec runner (issue
 * "Conformance") replaces it; the scenarios are the same shapes the specs
 * will spell out case by case.
 *
 * Exit: 0 every scenario passed or was skipped, 1 a scenario failed,
 * 2 usage error or the driver could not be loaded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "wddmkit/refdriver.h"
#include "wddmkit/vidmm.h"

#define MIB (1u << 20)

struct options {
    const char *driver;        /* NULL: the built-in reference driver */
    uint64_t seed;
    uint32_t paging_buffer;
};

struct run {
    struct wk_vidmm *vm;
    uint32_t device, context;
};

typedef wk_status scenario_fn(struct run *r);

static WK_ALLOCATION_REQUEST request(uint64_t size, uint32_t preferred, uint32_t banks, uint32_t set)
{
    WK_ALLOCATION_REQUEST q;
    memset(&q, 0, sizeof(q));
    q.Magic = WK_ALLOCATION_REQUEST_MAGIC;
    q.Version = WK_ALLOCATION_REQUEST_VERSION;
    q.Size = size;
    q.PreferredSegment.Value = preferred;
    q.HintedBank.Value = banks;
    q.SupportedSegmentSet = set;
    q.Priority = 1;
    return q;
}

static wk_status new_allocation(struct run *r, uint64_t size, uint32_t preferred, uint32_t banks,
                                uint32_t set, uint32_t *h)
{
    WK_ALLOCATION_REQUEST q = request(size, preferred, banks, set);
    return wk_vidmm_create_allocation(r->vm, r->device, &q, h);
}

#define TRY(expr)                   \
    do {                            \
        wk_status try_st_ = (expr); \
        if (try_st_ != WK_OK)       \
            return try_st_;         \
    } while (0)

static wk_status sc_start(struct run *r)
{
    (void)r;
    return WK_OK; /* the fixture already started the adapter and made a device and context */
}

static wk_status sc_contexts(struct run *r)
{
    uint32_t c[4];
    TRY(wk_vidmm_create_context(r->vm, r->device, 0, &c[0]));
    TRY(wk_vidmm_create_context(r->vm, r->device, 0x2 /* GdiContext */, &c[1]));
    TRY(wk_vidmm_create_context(r->vm, r->device, 0, &c[2]));
    TRY(wk_vidmm_destroy_context(r->vm, c[1]));
    TRY(wk_vidmm_create_context(r->vm, r->device, 0, &c[3]));
    for (int i = 0; i < 4; i++)
        if (i != 1)
            TRY(wk_vidmm_destroy_context(r->vm, c[i]));
    return WK_OK;
}

static wk_status sc_placement(struct run *r)
{
    uint32_t a, b, c;
    TRY(new_allocation(r, 64 * 1024, 2, 0x83 /* bank 3, top-down */, 0, &a));
    TRY(new_allocation(r, 64 * 1024, 1 | 0x20 /* segment 1 top-down */, 0, 0, &b));
    TRY(new_allocation(r, 300 * 1024, 2, 0x02 /* bank 2, straddles into 3 */, 0, &c));
    TRY(wk_vidmm_page_in(r->vm, a));
    TRY(wk_vidmm_page_in(r->vm, b));
    TRY(wk_vidmm_page_in(r->vm, c));
    return WK_OK;
}

static wk_status sc_fill(struct run *r)
{
    uint32_t a;
    TRY(new_allocation(r, 40 * 1024, 1, 0, 0, &a));
    TRY(wk_vidmm_fill(r->vm, a, 0xC0FFEE11u));
    TRY(wk_vidmm_fill(r->vm, a, 0));
    return wk_vidmm_fill(r->vm, a, 0x01020304u);
}

static wk_status sc_eviction(struct run *r)
{
    uint32_t a;
    uint64_t before, after;
    TRY(new_allocation(r, 24 * 1024, 2, 0, 0, &a));
    TRY(wk_vidmm_fill(r->vm, a, 0x5A5A1234u));
    TRY(wk_vidmm_digest(r->vm, a, &before));
    TRY(wk_vidmm_evict(r->vm, a));
    TRY(wk_vidmm_page_in(r->vm, a));
    TRY(wk_vidmm_relocate(r->vm, a, 1));
    TRY(wk_vidmm_digest(r->vm, a, &after));
    if (before != after) {
        fprintf(stderr, "  content changed across evict/page-in/relocate: digest 0x%llx -> 0x%llx\n",
                (unsigned long long)before, (unsigned long long)after);
        return WK_E_CONTRACT;
    }
    return WK_OK;
}

/* An allocation that can live only in an aperture segment. */
static wk_status sc_aperture(struct run *r)
{
    const struct wk_gpu_desc *d = wk_gpu_description(wk_vidmm_gpu(r->vm));
    uint32_t aperture = 0;
    for (uint32_t i = 0; i < d->segment_count; i++)
        if (d->segments[i].kind == WK_GPU_SEGMENT_APERTURE)
            aperture = i + 1;
    if (!aperture)
        return WK_E_NOT_SUPPORTED;
    uint32_t a;
    TRY(new_allocation(r, 16 * 1024, aperture, 0, 1u << (aperture - 1), &a));
    TRY(wk_vidmm_page_in(r->vm, a));
    TRY(wk_vidmm_evict(r->vm, a));
    return wk_vidmm_page_in(r->vm, a);
}

static wk_status sc_render(struct run *r)
{
    uint32_t a, b;
    TRY(new_allocation(r, 16 * 1024, 1, 0, 0, &a));
    TRY(new_allocation(r, 16 * 1024, 2, 0, 0, &b));
    TRY(wk_vidmm_fill(r->vm, a, 0x11223344u));
    struct {
        WK_USER_COMMAND_HEADER h;
        WK_USER_COPY copy;
        WK_USER_FILL fill;
        WK_USER_WRITE32 write;
        WK_USER_BLIT blit;
    } cb;
    memset(&cb, 0, sizeof(cb));
    cb.h.Magic = WK_USER_COMMAND_MAGIC;
    cb.h.Version = WK_USER_COMMAND_VERSION;
    cb.h.RecordCount = 4;
    cb.copy.Record.Op = WK_USER_OP_COPY;
    cb.copy.Record.Length = sizeof(cb.copy);
    cb.copy.Destination.AllocationIndex = 1;
    cb.copy.Size = 4096;
    cb.fill.Record.Op = WK_USER_OP_FILL;
    cb.fill.Record.Length = sizeof(cb.fill);
    cb.fill.Destination.AllocationIndex = 1;
    cb.fill.Destination.Offset = 4096;
    cb.fill.Size = 4096;
    cb.fill.Pattern = 0xABCD0123u;
    cb.write.Record.Op = WK_USER_OP_WRITE32;
    cb.write.Record.Length = sizeof(cb.write);
    cb.write.Destination.AllocationIndex = 1;
    cb.write.Destination.Offset = 8192;
    cb.write.Value = 0xFEEDFACEu;
    cb.blit.Record.Op = WK_USER_OP_BLIT;
    cb.blit.Record.Length = sizeof(cb.blit);
    cb.blit.Destination.AllocationIndex = 1;
    cb.blit.Destination.Offset = 12288;
    cb.blit.Width = 64;
    cb.blit.Height = 8;
    cb.blit.SourcePitch = 128;
    cb.blit.DestinationPitch = 64;
    struct wk_vidmm_list_entry list[2] = { { a, 0 }, { b, 1 } };
    struct wk_vidmm_render args = { r->context, &cb, sizeof(cb), list, 2, NULL, 0, 0 };
    struct wk_vidmm_render_result res;
    TRY(wk_vidmm_render(r->vm, &args, &res));
    TRY(wk_vidmm_evict(r->vm, b)); /* and once more with no pre-patch information */
    args.no_prepatch_info = 1;
    TRY(wk_vidmm_render(r->vm, &args, &res));
    uint32_t seen[3];
    TRY(wk_vidmm_read(r->vm, b, 0, &seen[0], 4));
    TRY(wk_vidmm_read(r->vm, b, 4096, &seen[1], 4));
    TRY(wk_vidmm_read(r->vm, b, 8192, &seen[2], 4));
    if (seen[0] != 0x11223344u || seen[1] != 0xABCD0123u || seen[2] != 0xFEEDFACEu) {
        fprintf(stderr, "  rendered bytes 0x%08x 0x%08x 0x%08x, expected 0x11223344 0xabcd0123 0xfeedface\n",
                seen[0], seen[1], seen[2]);
        return WK_E_CONTRACT;
    }
    return WK_OK;
}

static wk_status sc_physical(struct run *r)
{
    TRY(wk_vidmm_touch_physical(r->vm, 1, 0x1000, 0));
    TRY(wk_vidmm_touch_physical(r->vm, 1, 0x2000, 1));
    uint32_t a;
    TRY(new_allocation(r, 8 * 1024, 1, 0, 0, &a));
    TRY(wk_vidmm_fill(r->vm, a, 0x77777777u));
    TRY(wk_vidmm_special_lock_transfer(r->vm, a));
    struct wk_vidmm_allocation_state s;
    TRY(wk_vidmm_allocation_state(r->vm, a, &s));
    return wk_vidmm_signal_monitored_fence(r->vm, s.gpu_address, 0x1234567890ull);
}

static wk_status sc_cancel(struct run *r)
{
    uint32_t a;
    TRY(new_allocation(r, 4096, 1, 0, 0, &a));
    struct {
        WK_USER_COMMAND_HEADER h;
        WK_USER_FILL fill;
    } cb;
    memset(&cb, 0, sizeof(cb));
    cb.h.Magic = WK_USER_COMMAND_MAGIC;
    cb.h.Version = WK_USER_COMMAND_VERSION;
    cb.h.RecordCount = 1;
    cb.fill.Record.Op = WK_USER_OP_FILL;
    cb.fill.Record.Length = sizeof(cb.fill);
    cb.fill.Size = 4096;
    struct wk_vidmm_list_entry list[1] = { { a, 1 } };
    struct wk_vidmm_render args = { r->context, &cb, sizeof(cb), list, 1, NULL, 0, 0 };
    struct wk_vidmm_render_result res;
    wk_vidmm_hold_submissions(r->vm, 1);
    TRY(wk_vidmm_render(r->vm, &args, &res));
    uint32_t n = 0;
    TRY(wk_vidmm_cancel_held(r->vm, &n));
    return n == 1 ? WK_OK : WK_E_STATE;
}

static wk_status sc_multipass(struct run *r)
{
    uint32_t a;
    TRY(new_allocation(r, 256 * 1024, 2, 0, 0, &a));
    TRY(wk_vidmm_fill(r->vm, a, 0x0BADF00Du));
    TRY(wk_vidmm_evict(r->vm, a));
    return wk_vidmm_page_in(r->vm, a);
}

static const struct {
    const char *name;
    scenario_fn *fn;
    uint32_t paging_buffer; /* forced paging-buffer size, 0: the driver's */
    uint32_t query_segment; /* 3 or 4 (0: 3) */
} scenarios[] = {
    { "adapter.start", sc_start, 0, 0 },
    { "adapter.start-querysegment4", sc_start, 0, 4 },
    { "contexts.create-destroy", sc_contexts, 0, 0 },
    { "allocation.placement-banks", sc_placement, 0, 0 },
    { "paging.fill", sc_fill, 0, 0 },
    { "paging.evict-page-in-relocate", sc_eviction, 0, 0 },
    { "paging.aperture-map-unmap", sc_aperture, 0, 0 },
    { "paging.multipass-64-byte-buffer", sc_multipass, 64, 0 },
    { "render.patch-submit", sc_render, 0, 0 },
    { "paging.physical-lock-fence", sc_physical, 0, 0 },
    { "submit.cancel", sc_cancel, 0, 0 },
};

static wk_status fixture(const struct options *o, uint32_t paging_buffer, uint32_t query_segment,
                         struct run *r)
{
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.seed = o->seed;
    cfg.paging_buffer_size = paging_buffer ? paging_buffer : o->paging_buffer;
    cfg.query_segment_version = query_segment;
    memset(r, 0, sizeof(*r));
    wk_status st = wk_vidmm_create(&cfg, &r->vm);
    if (st != WK_OK)
        return st;
    st = o->driver ? wk_vidmm_load(r->vm, o->driver) : wk_vidmm_attach(r->vm, wk_refdriver_DriverEntry);
    if (st == WK_OK)
        st = wk_vidmm_start(r->vm);
    if (st == WK_OK)
        st = wk_vidmm_create_device(r->vm, 0, &r->device);
    if (st == WK_OK)
        st = wk_vidmm_create_context(r->vm, r->device, 0, &r->context);
    return st;
}

static void print_violations(struct wk_vidmm *vm)
{
    struct wk_violation v[16];
    uint64_t total = 0;
    uint32_t n = wk_vidmm_violations(vm, v, 16, &total);
    for (uint32_t i = 0; i < n; i++)
        printf("    %s\n", v[i].message);
    if (total > n)
        printf("    ... and %llu more\n", (unsigned long long)(total - n));
}

/* 0 pass, 1 fail, 2 skip, 3 cannot load. */
static int run_one(const struct options *o, size_t i)
{
    struct run r;
    wk_status st = fixture(o, scenarios[i].paging_buffer, scenarios[i].query_segment, &r);
    if (st == WK_E_IO) {
        fprintf(stderr, "wddmkit: %s\n", r.vm ? wk_vidmm_last_error(r.vm) : "cannot load the driver");
        wk_vidmm_destroy(r.vm);
        return 3;
    }
    if (st == WK_OK)
        st = scenarios[i].fn(&r);
    if (st == WK_OK)
        st = wk_vidmm_wait_idle(r.vm);
    uint64_t total = 0;
    wk_vidmm_violations(r.vm, NULL, 0, &total);
    int verdict = st == WK_E_NOT_SUPPORTED ? 2 : (st != WK_OK || total) ? 1 : 0;
    printf("%-36s %s\n", scenarios[i].name, verdict == 0 ? "pass" : verdict == 2 ? "skip" : "FAIL");
    if (verdict == 1) {
        if (st != WK_OK && st != WK_E_CONTRACT)
            printf("    %s: %s\n", wk_status_name(st), wk_vidmm_last_error(r.vm));
        print_violations(r.vm);
    }
    wk_vidmm_destroy(r.vm);
    return verdict;
}

static int parse(int argc, char **argv, struct options *o)
{
    memset(o, 0, sizeof(*o));
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--driver") == 0 && i + 1 < argc) {
            o->driver = argv[++i];
        } else if ((strcmp(a, "--seed") == 0 || strcmp(a, "--paging-buffer") == 0) && i + 1 < argc) {
            char *end = NULL;
            unsigned long long v = strtoull(argv[++i], &end, 0);
            if (!end || *end || v > (strcmp(a, "--seed") == 0 ? UINT64_MAX : 64ull * MIB)) {
                fprintf(stderr, "wddmkit check: %s: bad value '%s'\n", a, argv[i]);
                return -1;
            }
            if (strcmp(a, "--seed") == 0)
                o->seed = v;
            else
                o->paging_buffer = (uint32_t)v;
        } else {
            fprintf(stderr, "wddmkit check: unknown or incomplete option '%s'\n"
                            "usage: wddmkit check [--driver PATH] [--seed N] [--paging-buffer BYTES]\n", a);
            return -1;
        }
    }
    return 0;
}

int wk_cli_check(int argc, char **argv)
{
    struct options o;
    if (parse(argc, argv, &o) != 0)
        return 2;
    printf("wddmkit check: %s, seed %llu\n", o.driver ? o.driver : "built-in reference driver",
           (unsigned long long)o.seed);
    int passed = 0, failed = 0, skipped = 0;
    for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
        int v = run_one(&o, i);
        if (v == 3)
            return 2;
        passed += v == 0;
        failed += v == 1;
        skipped += v == 2;
    }
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return failed ? 1 : 0;
}
