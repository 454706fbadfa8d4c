/* SPDX-License-Identifier: MIT */
/*
 * guard.c - buffers handed to the driver, each against a guard page.
 *
 * A write past the end of a buffer faults at the very instruction (the page
 * after the end is PROT_NONE, or holds a guard marker: gbuf_park_ahead),
 * and call.c reports it as MEM-GUARD-001 naming
 * the buffer and the offset. CPU-only buffers end exactly at the guard page;
 * the bytes before their start hold a canary, so underruns are caught after
 * the call. GPU-visible buffers (DMA and paging buffers) must start 4 KiB
 * aligned (facts §5.1 P1): they are system pages mapped contiguously, and a
 * canary fills the tail of their last page up to the guard (and the bytes
 * before them when they sit past the start of their block, below).
 *
 * Buffers the DDI gets as const (Patch's two lists, Render's pCommand) are
 * read-only to the driver instead, with no canary to check:
 * guard_input.c. What Patch gets as its DMA buffer: patch_view.c.
 *
 * Speed: a DDI call hands the driver up to three short-lived CPU buffers
 * (Render's user patch list and allocation list, CreateAllocation's
 * private data; the inputs above likewise). Mapping each afresh
 * cost an mmap, an mprotect, a munmap and a page fault per call, most of a
 * fuzz harness's time. A freed mapping is kept instead (GBUF_SPARES of them,
 * none over GBUF_SPARE_MAX, GBUF_SPARE_BYTES in all: enough for the three
 * CPU buffers of each of a fuzz program's dozens of contexts, which cost
 * 8 ms of mmap/munmap per input with 8 spares) with its guard page still PROT_NONE, and the
 * next buffer of the same page-rounded size takes it: the canary and the
 * zeroes are written again, so a reused buffer is indistinguishable from a
 * fresh one to the driver and to gbuf_check. Of the canary, only what is
 * not known to be there: when the last user's check read its slack intact
 * (gbuf_check_free) and no DDI call ran since (the driver reaches a freed
 * buffer only from inside one), just the bytes where that buffer was.
 * What reuse gives up: a driver that kept a pointer into an earlier call's
 * buffer reads or writes a spare (or a newer buffer) instead of faulting; a
 * fresh mmap usually landed on the just-unmapped address anyway, so that
 * was never reliably caught.
 * Spares outlive wk_vidmm_reset (they are the kit's, not the input's: a
 * differential harness resets per input and would otherwise map afresh
 * every time). wk_vidmm_stop and wk_vidmm_destroy hand them to a
 * process-wide pool (as many as it holds; the rest are unmapped), from
 * which the next adapter's buffers take what their own pool lacks: a
 * harness builds an adapter for many inputs, and each build mapped its
 * buffers afresh and each destruction unmapped them (perf, WK_FUZZ_FRESH=1
 * fuzz_prog: 18% and 9% of the time). A parked spare's canary is written
 * again in full (nothing is known of it in another adapter). The mappings
 * are private and anonymous, so a forked child that takes one has its own
 * copy.
 */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "internal.h"

/* Spares of adapters stopped or destroyed, for the next adapters. */
static struct gbuf_pool parked;
static pthread_mutex_t parked_lock = PTHREAD_MUTEX_INITIALIZER;

#define CANARY GBUF_CANARY
#define PAGE ((uint64_t)WK_GPU_PAGE_SIZE)

static uint64_t round_pages(uint64_t n)
{
    return (n + PAGE - 1) & ~(PAGE - 1);
}

/* The registry is scanned only by fault reports; registering and
 * unregistering run for every short-lived buffer (two per fuzz_patch
 * input), so both start where the answer is: below gbuf_hint every slot is
 * taken, and a buffer remembers its slot (b->reg, checked: a gbuf struct
 * may have been copied). */
void gbuf_register(struct wk_vidmm *vm, struct gbuf *b)
{
    for (uint32_t i = vm->gbuf_hint; i < MAX_GBUFS; i++)
        if (!vm->gbufs[i]) {
            vm->gbufs[i] = b;
            b->reg = i + 1;
            vm->gbuf_hint = i + 1;
            return;
        }
}

void gbuf_unregister(struct wk_vidmm *vm, struct gbuf *b)
{
    uint32_t i = b->reg ? b->reg - 1 : 0;
    if (!b->reg || vm->gbufs[i] != b)
        for (i = 0; i < MAX_GBUFS && vm->gbufs[i] != b; i++)
            ;
    if (i == MAX_GBUFS)
        return;
    vm->gbufs[i] = NULL;
    b->reg = 0;
    if (i < vm->gbuf_hint)
        vm->gbuf_hint = i;
}

struct gbuf_spare gbuf_spare_take(struct gbuf_pool *pool, uint64_t map_len)
{
    struct gbuf_spare none = { .map = NULL };
    for (uint32_t i = pool->count; i-- > 0;)
        if (pool->s[i].map_len == map_len) {
            struct gbuf_spare s = pool->s[i];
            memmove(&pool->s[i], &pool->s[i + 1], (pool->count - i - 1) * sizeof(s));
            pool->count--;
            pool->bytes -= map_len;
            return s;
        }
    return none;
}

int gbuf_spare_put(struct gbuf_pool *pool, const struct gbuf_spare *s)
{
    if (pool->count >= GBUF_SPARES || s->map_len > GBUF_SPARE_MAX || pool->bytes + s->map_len > GBUF_SPARE_BYTES)
        return 0;
    pool->s[pool->count++] = *s;
    pool->bytes += s->map_len;
    return 1;
}

void gbuf_pool_clear(struct gbuf_pool *pool)
{
    pool->count = 0;
    pool->bytes = 0;
}

/* Keeps a CPU buffer's mapping for reuse, its first canary_end bytes
 * known to be canary (0: nothing known); 0 when the pool has no room for
 * it (the caller unmaps it). */
static int keep_spare(struct wk_vidmm *vm, const struct gbuf *b, uint64_t canary_end)
{
    struct gbuf_spare s = { .map = b->map, .map_len = b->map_len, .canary_end = canary_end, .ddi_serial = vm->ddi_serial };
    return gbuf_spare_put(&vm->spares, &s);
}

void gbuf_release_spares(struct wk_vidmm *vm)
{
    pthread_mutex_lock(&parked_lock);
    for (uint32_t i = 0; i < vm->spares.count; i++) {
        struct gbuf_spare s = vm->spares.s[i];
        s.canary_end = 0; /* its canary is another adapter's history */
        if (!gbuf_spare_put(&parked, &s))
            munmap(s.map, s.map_len);
    }
    pthread_mutex_unlock(&parked_lock);
    gbuf_pool_clear(&vm->spares);
    free(vm->scratch); /* never busy here: a busy copy's buffer is alive */
    vm->scratch = NULL;
    vm->scratch_size = 0;
    free(vm->before);
    vm->before = NULL;
    vm->before_size = 0;
}

#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102 /* Linux 6.13 */
#endif

/* A parked spare's guard page: a guard marker in the page table
 * (MADV_GUARD_INSTALL), which faults on any access as PROT_NONE does and
 * goes with the page tables to a forked child, but leaves the block one
 * mapping; PROT_NONE, which splits it, where the kernel has no markers.
 * Why: the spares are parked ahead in the conformance runner's slot
 * process, and a fork and an exit cost about 0.5 us a mapping on the VMs
 * the kit runs in: 16 spares guarded by PROT_NONE were 32 of the slot
 * process's 73 mappings, copied for every case it forks. */
static int guard_parked(uint8_t *page)
{
    if (madvise(page, PAGE, MADV_GUARD_INSTALL) == 0)
        return 0;
    return mprotect(page, PAGE, PROT_NONE);
}

void gbuf_park_ahead(uint64_t map_len, uint32_t count)
{
    if (map_len <= PAGE || map_len % PAGE || !count)
        return;
    uint8_t *block = mmap(NULL, map_len * count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (block == MAP_FAILED)
        return;
    pthread_mutex_lock(&parked_lock);
    for (uint32_t i = 0; i < count; i++) {
        struct gbuf_spare s = { .map = block + i * map_len, .map_len = map_len };
        if (guard_parked(s.map + map_len - PAGE) != 0 || !gbuf_spare_put(&parked, &s))
            munmap(s.map, map_len); /* each spare is unmapped alone later: so may this one be */
    }
    pthread_mutex_unlock(&parked_lock);
}

uint8_t *gbuf_scratch_take(struct wk_vidmm *vm, uint64_t size)
{
    size = size ? size : 1; /* never NULL for success */
    if (vm->scratch_busy)
        return malloc(size); /* nested: the outer copy stays where it is */
    if (size > vm->scratch_size) {
        uint8_t *p = realloc(vm->scratch, size);
        if (!p)
            return NULL;
        vm->scratch = p;
        vm->scratch_size = size;
    }
    vm->scratch_busy = 1;
    return vm->scratch;
}

void gbuf_scratch_put(struct wk_vidmm *vm, uint8_t *p)
{
    if (p && p == vm->scratch)
        vm->scratch_busy = 0;
    else
        free(p);
}

/* Data pages and a PROT_NONE guard page after them: a spare (*canary_end
 * as keep_spare says, when no DDI call ran since it was kept; else 0), or
 * freshly mapped (zero filled, *fresh set). */
static uint8_t *map_guarded(struct wk_vidmm *vm, uint64_t data, int *fresh, uint64_t *canary_end)
{
    struct gbuf_spare s = gbuf_spare_take(&vm->spares, data + PAGE);
    if (!s.map) { /* one another adapter left */
        pthread_mutex_lock(&parked_lock);
        s = gbuf_spare_take(&parked, data + PAGE);
        pthread_mutex_unlock(&parked_lock);
    }
    *fresh = s.map == NULL;
    *canary_end = s.ddi_serial == vm->ddi_serial ? s.canary_end : 0;
    if (s.map)
        return s.map;
    uint8_t *map = mmap(NULL, data + PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED)
        return NULL;
    if (mprotect(map + data, PAGE, PROT_NONE) != 0) {
        munmap(map, data + PAGE);
        return NULL;
    }
    return map;
}

/* A spare's data pages as a fresh buffer at offset off has them: canary
 * before off, zeroes from it. The canary is written only past canary_end
 * (the bytes its last user's check read intact): where the last buffer
 * was, when this one starts later. The check after the call still reads
 * all of [0, off): MEM-GUARD-001 anywhere in the slack as before. */
static void spare_refill(uint8_t *map, uint64_t data, uint64_t off, uint64_t canary_end)
{
    if (canary_end < off)
        memset(map + canary_end, CANARY, off - canary_end);
    memset(map + off, 0, data - off); /* a spare holds its last user's bytes */
}

static wk_status alloc_unguarded(struct wk_vidmm *vm, struct gbuf *b, uint64_t size, const char *what)
{
    b->map_len = size + 64;
    b->map = malloc(b->map_len);
    if (!b->map)
        return fail(vm, WK_E_NO_MEMORY, "out of memory for %s", what);
    memset(b->map, CANARY, 64);
    b->ptr = b->map + 64;
    memset(b->ptr, 0, size);
    return WK_OK;
}

wk_status gbuf_alloc(struct wk_vidmm *vm, struct gbuf *b, uint64_t size, const char *what)
{
    memset(b, 0, sizeof(*b));
    b->what = what;
    b->size = size;
    if (size > (1ull << 32))
        return fail(vm, WK_E_LIMIT, "%s of %llu bytes is over the 4 GiB limit", what,
                    (unsigned long long)size);
    if (vm->cfg.no_guard_pages)
        return alloc_unguarded(vm, b, size, what);
    uint64_t data = round_pages(size ? size : 1), canary_end = 0;
    int fresh = 0;
    b->map = map_guarded(vm, data, &fresh, &canary_end);
    if (!b->map)
        return fail(vm, WK_E_NO_MEMORY, "cannot map %s", what);
    b->map_len = data + PAGE;
    b->ptr = b->map + data - size;
    if (fresh)
        memset(b->map, CANARY, data - size);
    else
        spare_refill(b->map, data, data - size, canary_end);
    gbuf_register(vm, b);
    return WK_OK;
}

/*
 * GPU-visible buffers. A buffer is the last `pages` pages of a block of
 * contiguous system pages mapped once (map_pfn at map), so its end abuts the
 * mapping's guard page; the rest of its last page holds the tail canary, and
 * when it does not start at the block's start the GPU_HEAD bytes before it
 * hold a head canary. A block larger than the buffer is what lets the
 * paging buffer change size without a system call (gbuf_resize_gpu): a
 * fuzz harness gives it another size for most inputs, and unmapping and
 * mapping again cost two mprotect calls each time.
 */
#define GPU_HEAD 256u

static void gpu_place(struct gbuf *b, uint64_t size)
{
    uint64_t block = b->map_len / PAGE;
    b->size = size;
    b->pages = round_pages(size ? size : 1) / PAGE;
    b->ptr = b->map + (block - b->pages) * PAGE;
    b->first_pfn = b->map_pfn + block - b->pages;
}

static uint64_t gpu_head(const struct gbuf *b)
{
    uint64_t slack = (uint64_t)(b->ptr - b->map);
    return slack < GPU_HEAD ? slack : GPU_HEAD;
}

static uint64_t gpu_tail(const struct gbuf *b)
{
    return (uint64_t)(b->map + b->map_len - (b->ptr + b->size));
}

static void gpu_canaries(struct gbuf *b, int value)
{
    memset(b->ptr - gpu_head(b), value, gpu_head(b));
    memset(b->ptr + b->size, value, gpu_tail(b));
}

/* A mapping of `count` contiguous system pages, a run of kind `run`
 * (SYSMEM_RUN or SYSMEM_RUN_HIGH); 0 or an error. */
static wk_status map_block(struct wk_vidmm *vm, struct gbuf *b, uint64_t count, int run)
{
    uint64_t *pfns = calloc(count, sizeof(*pfns));
    if (!pfns)
        return fail(vm, WK_E_NO_MEMORY, "out of memory for %s", b->what);
    wk_status st = sysmem_pages_alloc(vm, count, run, pfns);
    if (st != WK_OK) {
        free(pfns);
        return fail(vm, st, "no contiguous system memory for %s (%llu pages)", b->what,
                    (unsigned long long)count);
    }
    void *va = NULL;
    st = wk_gpu_sysmem_map(vm->gpu, pfns, count, &va);
    b->map_pfn = pfns[0];
    free(pfns);
    if (st != WK_OK) {
        sysmem_pages_free(vm, &b->map_pfn, 1); /* the run is one block */
        return fail(vm, st, "cannot map %s", b->what);
    }
    b->map = va;
    b->map_len = count * PAGE;
    return WK_OK;
}

static wk_status alloc_gpu(struct wk_vidmm *vm, struct gbuf *b, uint64_t size, uint64_t reserve, int run,
                           const char *what)
{
    memset(b, 0, sizeof(*b));
    b->what = what;
    uint64_t pages = round_pages(size ? size : 1) / PAGE;
    wk_status st = map_block(vm, b, pages > reserve ? pages : reserve, run);
    if (st != WK_OK) {
        memset(b, 0, sizeof(*b));
        return st;
    }
    gpu_place(b, size);
    /* Recycled system pages hold their last user's bytes. */
    memset(b->map, 0, (uint64_t)(b->ptr + size - b->map));
    gpu_canaries(b, CANARY);
    gbuf_register(vm, b);
    return WK_OK;
}

wk_status gbuf_alloc_gpu_in(struct wk_vidmm *vm, struct gbuf *b, uint64_t size, uint64_t reserve,
                            const char *what)
{
    return alloc_gpu(vm, b, size, reserve, SYSMEM_RUN_HIGH, what);
}

wk_status gbuf_alloc_gpu(struct wk_vidmm *vm, struct gbuf *b, uint64_t size, const char *what)
{
    return alloc_gpu(vm, b, size, 0, SYSMEM_RUN, what);
}

int gbuf_resize_gpu(struct gbuf *b, uint64_t size)
{
    if (!b->first_pfn || round_pages(size ? size : 1) > b->map_len)
        return 0;
    /* The old buffer's bytes and canaries, not the whole block: the rest
     * of the block was zeroed when it was mapped and the kit never wrote
     * it; a fresh buffer is zero up to its canaries. */
    uint64_t head = gpu_head(b);
    memset(b->ptr - head, 0, (uint64_t)(b->map + b->map_len - (b->ptr - head)));
    gpu_place(b, size);
    gpu_canaries(b, CANARY);
    return 1;
}

void gbuf_rewrite_canaries(struct gbuf *b)
{
    if (b->first_pfn)
        gpu_canaries(b, CANARY);
}

/* gbuf_free; a CPU buffer's spare knows its first canary_end bytes. */
static void release(struct wk_vidmm *vm, struct gbuf *b, uint64_t canary_end)
{
    if (!b->map)
        return;
    if (b->kit) {
        gbuf_input_release(vm, b);
        return;
    }
    gbuf_unregister(vm, b);
    if (b->first_pfn) {
        /* Retired, not unmapped: still read-write, so the next buffer of
         * the same pages (the paging buffer of the next adapter built on
         * this model's pool, sysmem.c; a DMA buffer) takes it back with no
         * system call, where an unmap and a map cost two protection
         * changes (~120 us each on a touched shared mapping on this kind
         * of VM: most of an adapter build's). The kit holds no pointer into
         * it; a driver's stale pointer writes pages the model counts as
         * zero after the next reset (the DMA buffers a DDI destroyed are
         * held and checked first: dma_quarantine.c). */
        wk_gpu_sysmem_retire(vm->gpu, b->map);
        sysmem_pages_free(vm, &b->map_pfn, 1); /* the run is one block */
    } else if (vm->cfg.no_guard_pages) {
        free(b->map);
    } else if (!keep_spare(vm, b, canary_end)) {
        munmap(b->map, b->map_len);
    }
    memset(b, 0, sizeof(*b));
}

void gbuf_free(struct wk_vidmm *vm, struct gbuf *b)
{
    release(vm, b, 0);
}

wk_status gbuf_check_free(struct wk_vidmm *vm, struct gbuf *b, enum wk_ddi ddi)
{
    wk_status st = gbuf_check(vm, b, ddi);
    release(vm, b, st == WK_OK && b->map ? (uint64_t)(b->ptr - b->map) : 0);
    return st;
}

/*
 * Byte scans: where the first byte of a run that is not `value` is. The
 * checks after every DDI call read whole buffers this way (the canary
 * slack before a CPU buffer, MEM-GUARD-001; the DMA buffer past the bytes
 * Patch was given, PATCH-CONFINE-001), so the common case, nothing
 * changed, must cost one read of the run and nothing else: 1 KiB blocks
 * are XORed with the value and ORed together, one stream (memcmp against
 * a page of zeroes, or of the run against itself shifted by a byte, read
 * two), and only the block that differs is looked at byte by byte. The
 * loop has two widths: 16-byte vectors, which every target has (SSE2 on
 * x86-64), and on x86-64 32-byte ones in a function compiled for AVX2,
 * called when the CPU has it (__builtin_cpu_supports): twice the bytes per
 * load, about 82 ns for 16 KiB where memcmp took 190 and the 16-byte loop
 * 180 on the development machine. A CPU with AVX-512 gets a third form,
 * 64 bytes a load (scan_blocks_avx512, below). No build flag changes: the
 * binary runs on any x86-64.
 */
#define SCAN_BLOCK 1024u
#define SCAN_STEP 128u

/*
 * scan_blocks_<suffix>(p, n, value): the offset of the first SCAN_BLOCK-byte
 * block of p[0, n) holding a byte other than value, then of the first
 * SCAN_STEP-byte one, then of the first vector in the rest; the end of the
 * last whole vector when none does. Four accumulators, so that the loads
 * are not waiting on one chain of ORs; the test for "any bit set" (`any`,
 * a horizontal reduction, which costs as much as several loads) once a
 * block: 1 KiB blocks scan 16 KiB in about 82 ns where 256-byte ones took
 * 116 (AVX2, L1-resident, development machine).
 * A macro only because C has no other way to write the loop once for two
 * vector widths (16 bytes: what every target has; 32: AVX2, whose `any` is
 * one VPTEST).
 */
#define SCAN_BLOCKS(suffix, width, attrs, any)                                                         \
    typedef uint64_t scan_vec_##suffix __attribute__((vector_size(width)));                            \
    typedef uint64_t scan_load_##suffix __attribute__((vector_size(width), aligned(1), may_alias));    \
    static inline __attribute__((always_inline)) attrs uint64_t scan_run_##suffix(                     \
        const uint8_t *p, uint64_t i, uint64_t n, scan_vec_##suffix pattern, uint64_t run)             \
    {                                                                                                  \
        for (; n - i >= run; i += run) {                                                               \
            const scan_load_##suffix *v = (const scan_load_##suffix *)(const void *)(p + i);           \
            scan_vec_##suffix a = v[0] ^ pattern, b = v[1] ^ pattern, c = v[2] ^ pattern,              \
                              d = v[3] ^ pattern;                                                      \
            for (unsigned k = 4; k < run / (width); k += 4) {                                          \
                a |= v[k] ^ pattern;                                                                   \
                b |= v[k + 1] ^ pattern;                                                               \
                c |= v[k + 2] ^ pattern;                                                               \
                d |= v[k + 3] ^ pattern;                                                               \
            }                                                                                          \
            a |= b | c | d;                                                                            \
            if (any(a))                                                                                \
                break;                                                                                 \
        }                                                                                              \
        return i;                                                                                      \
    }                                                                                                  \
    static inline __attribute__((always_inline)) attrs uint64_t scan_blocks_##suffix(const uint8_t *p, \
                                                                                uint64_t n, uint8_t value) \
    {                                                                                                  \
        /* a broadcast, not a memset: the stored halves would not forward to one wide load */          \
        scan_vec_##suffix pattern = (scan_vec_##suffix){ 0 } + (uint64_t)(value * 0x0101010101010101ull); \
        uint64_t i = scan_run_##suffix(p, 0, n, pattern, SCAN_BLOCK);                                  \
        i = scan_run_##suffix(p, i, n, pattern, SCAN_STEP);                                            \
        for (; n - i >= (width); i += (width)) { /* what is left, a vector at a time */               \
            scan_vec_##suffix a = *(const scan_load_##suffix *)(const void *)(p + i) ^ pattern;        \
            if (any(a))                                                                                \
                break;                                                                                 \
        }                                                                                              \
        return i;                                                                                      \
    }

#define SCAN_ANY_16(a) (((a)[0] | (a)[1]) != 0)
SCAN_BLOCKS(16, 16, , SCAN_ANY_16)

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

typedef long long scan_ptest_t __attribute__((vector_size(32)));
#define SCAN_ANY_32(a) (!__builtin_ia32_ptestz256((scan_ptest_t)(a), (scan_ptest_t)(a)))
SCAN_BLOCKS(32, 32, __attribute__((target("avx2"))), SCAN_ANY_32)

__attribute__((target("avx2"))) static uint64_t scan_blocks_avx2(const uint8_t *p, uint64_t n, uint8_t value)
{
    return scan_blocks_32(p, n, value);
}

/*
 * The AVX-512 form, for CPUs that have it (the Intel VMs of
 * docs/performance.md): 64-byte loads, aligned after one unaligned first
 * vector (an unaligned 64-byte load crosses a cache line every time), in
 * 512-byte blocks of four accumulators, and the last vector read where the
 * run ends (overlapping the one before), so that no word or byte loop is
 * left for the caller when nothing differs. A 4 KiB scan took about 18 ns
 * where scan_blocks_avx2 took 30 to 38 (L1-resident, a loop of 10 million
 * on the Intel VM); two such scans follow every fuzz_patch input (the
 * canary slack of DXGKARG_PATCH, the DMA page after the image).
 * Returns what scan_blocks_* do: all bytes before the offset are `value`;
 * n when none differs.
 */
#define SCAN_ANY_64(a) (_mm512_test_epi64_mask((a), (a)) != 0)
#define SCAN_WIDE 64u
#define SCAN_WIDE_BLOCK 512u

__attribute__((target("avx512f"))) static uint64_t scan_blocks_avx512(const uint8_t *p, uint64_t n, uint8_t value)
{
    if (n < SCAN_WIDE)
        return 0; /* the caller's word loop */
    const __m512i pattern = _mm512_set1_epi8((char)value);
    __m512i head = _mm512_xor_si512(_mm512_loadu_si512((const void *)p), pattern);
    if (SCAN_ANY_64(head))
        return 0;
    uint64_t i = SCAN_WIDE - ((uintptr_t)p & (SCAN_WIDE - 1)); /* the first aligned vector after p */
    for (; n - i >= SCAN_WIDE_BLOCK; i += SCAN_WIDE_BLOCK) {
        const uint8_t *b = p + i;
        __m512i a = _mm512_or_si512(_mm512_xor_si512(_mm512_load_si512((const void *)b), pattern),
                                    _mm512_xor_si512(_mm512_load_si512((const void *)(b + 64)), pattern));
        __m512i c = _mm512_or_si512(_mm512_xor_si512(_mm512_load_si512((const void *)(b + 128)), pattern),
                                    _mm512_xor_si512(_mm512_load_si512((const void *)(b + 192)), pattern));
        __m512i d = _mm512_or_si512(_mm512_xor_si512(_mm512_load_si512((const void *)(b + 256)), pattern),
                                    _mm512_xor_si512(_mm512_load_si512((const void *)(b + 320)), pattern));
        __m512i e = _mm512_or_si512(_mm512_xor_si512(_mm512_load_si512((const void *)(b + 384)), pattern),
                                    _mm512_xor_si512(_mm512_load_si512((const void *)(b + 448)), pattern));
        a = _mm512_or_si512(_mm512_or_si512(a, c), _mm512_or_si512(d, e));
        if (SCAN_ANY_64(a))
            break;
    }
    for (; n - i >= SCAN_WIDE; i += SCAN_WIDE) {
        __m512i a = _mm512_xor_si512(_mm512_load_si512((const void *)(p + i)), pattern);
        if (SCAN_ANY_64(a))
            return i;
    }
    __m512i tail = _mm512_xor_si512(_mm512_loadu_si512((const void *)(p + n - SCAN_WIDE)), pattern);
    return SCAN_ANY_64(tail) ? i : n;
}

static uint64_t scan_blocks_best(const uint8_t *p, uint64_t n, uint8_t value)
{
    if (__builtin_cpu_supports("avx512f"))
        return scan_blocks_avx512(p, n, value);
    return __builtin_cpu_supports("avx2") ? scan_blocks_avx2(p, n, value) : scan_blocks_16(p, n, value);
}
#else
static uint64_t scan_blocks_best(const uint8_t *p, uint64_t n, uint8_t value)
{
    return scan_blocks_16(p, n, value);
}
#endif

uint64_t gbuf_first_not(const uint8_t *p, uint64_t n, uint8_t value)
{
    uint64_t i = scan_blocks_best(p, n, value);
    uint64_t word = value * 0x0101010101010101ull;
    for (; n - i >= 8; i += 8) { /* less than a vector at the end, or the block or vector that differs */
        uint64_t w;
        memcpy(&w, p + i, 8);
        if (w != word)
            break;
    }
    while (i < n && p[i] == value)
        i++;
    return i;
}

static uint64_t first_not_canary(const uint8_t *p, uint64_t n)
{
    return gbuf_first_not(p, n, CANARY);
}

wk_status gbuf_check(struct wk_vidmm *vm, const struct gbuf *b, enum wk_ddi ddi)
{
    if (!b->map || b->kit) /* an input: the driver could not have written it (guard_input.c) */
        return WK_OK;
    if (b->first_pfn) { /* head (when the block has room before it) and tail canaries */
        uint64_t head = gpu_head(b), tail = gpu_tail(b);
        uint64_t at = first_not_canary(b->ptr - head, head);
        if (at < head)
            return violate(vm, R_MEM_GUARD, ddi, "wrote before the start of the %s at offset -%llu",
                           b->what, (unsigned long long)(head - at));
        at = first_not_canary(b->ptr + b->size, tail);
        if (at < tail)
            return violate(vm, R_MEM_GUARD, ddi, "wrote past the end of the %s (%llu bytes) at offset +%llu",
                           b->what, (unsigned long long)b->size, (unsigned long long)(b->size + at));
        return WK_OK;
    }
    uint64_t head = (uint64_t)(b->ptr - b->map);
    uint64_t at = first_not_canary(b->map, head);
    if (at < head)
        return violate(vm, R_MEM_GUARD, ddi, "wrote before the start of the %s at offset -%llu",
                       b->what, (unsigned long long)(head - at));
    return WK_OK;
}

/* What a fault at addr did to buffer b, or NULL when addr is not b's:
 * its guard page (past the end; for an input, and the moat after it), for an input any of its read-only pages
 * (before, inside or after its bytes), for a Patch view its read-only part
 * (patch_view.c: inside the buffer, a byte outside the listed patch
 * locations). */
static const char *fault_in(const struct gbuf *b, const uint8_t *a, enum fault_access access, char *buf, size_t size,
                            enum wk_rule_id *rule)
{
    /* A guard page takes no access at all: say which one hit it. A
     * read-only page faults only on a write. */
    const char *verb = access == FAULT_WRITE ? "wrote" : access == FAULT_READ ? "read" : "accessed";
    const uint8_t *guard = b->map + (b->first_pfn ? b->map_len : b->map_len - PAGE);
    long long at = (long long)(a - b->ptr);
    unsigned long long n = (unsigned long long)b->size;
    int read_only = (b->kit && a >= b->map && a < guard) ||
                    (a >= b->map + b->ro_start && a < b->map + b->ro_end);
    *rule = R_MEM_GUARD;
    if (a >= guard && a < guard + PAGE + b->moat)
        snprintf(buf, size, "%s past the end of the %s (%llu bytes) at offset +%lld (guard page hit)", verb, b->what, n,
                 at);
    else if (b->first_pfn && a < b->map && a >= b->map - PAGE) /* the guard before a GPU buffer's block (sysmap.c) */
        snprintf(buf, size, "%s before the start of the %s at offset %lld (guard page hit)", verb, b->what, at);
    else if (read_only && b->kit)
        snprintf(buf, size, "wrote to the %s (%llu bytes), which the DDI gets as const, at offset %+lld (read-only page hit)",
                 b->what, n, at);
    else if (read_only && at < 0)
        snprintf(buf, size, "wrote before the start of the %s at offset %lld (read-only page hit)", b->what, at);
    else if (read_only && (unsigned long long)at >= n)
        snprintf(buf, size, "wrote past the end of the %s (%llu bytes) at offset +%lld (read-only page hit)", b->what, n, at);
    else if (read_only) {
        *rule = R_PATCH_CONFINE;
        snprintf(buf, size, "changed byte +%lld of the %s, outside the listed patch locations (read-only page hit)", at,
                 b->what);
    } else
        return NULL;
    return buf;
}

const char *gbuf_describe_fault(struct wk_vidmm *vm, const void *addr, enum fault_access access, char *buf,
                                size_t size, enum wk_rule_id *rule)
{
    for (uint32_t i = 0; i < MAX_GBUFS; i++) {
        const struct gbuf *b = vm->gbufs[i];
        if (b && b->map && fault_in(b, addr, access, buf, size, rule))
            return buf;
    }
    *rule = R_MEM_GUARD;
    return gbuf_input_describe_spare(addr, buf, size);
}
