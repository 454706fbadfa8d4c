/* SPDX-License-Identifier: MIT */
/*
 * space.c - the GPU physical address space: which region holds an address,
 * reachability checks, and page-wise bulk access.
 *
 * Every access is first checked whole (space_check) and only then performed
 * page by page, so a faulting command has no effect. Bulk loops work in
 * chunks that end at a page boundary on both sides; untouched source pages
 * read as zeroes without being backed, and copying zeroes onto an untouched
 * page leaves it untouched, which keeps sparse workloads sparse.
 */
#include <string.h>

#include "internal.h"

/* Counts the regions whose base is <= addr, all of them, without a branch
 * on the comparisons: at most 32 regions (4 on the reference adapter), and
 * a binary search's data-dependent branches mispredicted on every other
 * fuzz input. */
struct region *space_find(const struct wk_gpu *gpu, uint64_t addr)
{
    uint32_t below = 0;
    for (uint32_t i = 0; i < gpu->region_count; i++)
        below += gpu->bases[i] <= addr;
    /* The end is compared from the flat array too: the region itself is
     * loaded only once it is known to be the answer. */
    return below && addr < gpu->ends[below - 1] ? gpu->by_base[below - 1] : NULL;
}

struct region *space_segment(const struct wk_gpu *gpu, uint32_t segment_id)
{
    if (segment_id == 0 || segment_id > gpu->desc.segment_count)
        return NULL;
    return &gpu->regions[segment_id - 1];
}

static int check_aperture_pages(struct wk_gpu *gpu, struct region *r, uint64_t off, uint64_t len,
                                int via_tlb, uint64_t *fault_addr)
{
    uint64_t last = (off + len - 1) >> WK_GPU_PAGE_SHIFT;
    for (uint64_t page = off >> WK_GPU_PAGE_SHIFT; page <= last; page++) {
        const struct pte *p = gart_peek(r, page);
        uint64_t line = p ? (via_tlb ? p->tlb : p->entry) : 0;
        if (!(line & PTE_VALID)) {
            uint64_t at = r->base + (page << WK_GPU_PAGE_SHIFT);
            *fault_addr = at > r->base + off ? at : r->base + off;
            return -1;
        }
        if (via_tlb && p->tlb != p->entry)
            gpu->counters.stale_tlb_accesses++;
    }
    return 0;
}

struct region *space_check_region(const struct wk_gpu *gpu, uint64_t addr, uint64_t len,
                                  enum wk_gpu_fault_reason *reason, uint64_t *fault_addr)
{
    struct region *r = space_find(gpu, addr);
    if (!r || len > UINT64_MAX - addr) { /* outside, or addr + len wraps */
        *reason = WK_GPU_FAULT_BAD_ADDRESS;
        *fault_addr = addr;
        return NULL;
    }
    if (len > r->size - (addr - r->base)) {
        *reason = WK_GPU_FAULT_CROSSES_SEGMENT;
        *fault_addr = r->base + r->size;
        return NULL;
    }
    return r;
}

/* Inlined: space_check is on every GPU access, and a call here cost
 * fuzz_paging 2 to 3% (fuzz_speed --per-seed). */
static inline struct region *check_in(struct wk_gpu *gpu, struct region *r, uint64_t addr, uint64_t len,
                                      int via_tlb, enum wk_gpu_fault_reason *reason, uint64_t *fault_addr)
{
    if (len && r->kind == WK_GPU_SEGMENT_APERTURE &&
        check_aperture_pages(gpu, r, addr - r->base, len, via_tlb, fault_addr) != 0) {
        *reason = WK_GPU_FAULT_UNMAPPED_APERTURE;
        return NULL;
    }
    return r;
}

struct region *space_check(struct wk_gpu *gpu, uint64_t addr, uint64_t len, int via_tlb,
                           enum wk_gpu_fault_reason *reason, uint64_t *fault_addr)
{
    struct region *r = space_check_region(gpu, addr, len, reason, fault_addr);
    return r ? check_in(gpu, r, addr, len, via_tlb, reason, fault_addr) : NULL;
}

/* Translates (region, offset) to where its bytes live: system memory (also
 * behind an aperture page) and mappable segments are one host mapping, the
 * memfd's; other memory segments are sparse. Sets *sys_off (the offset in
 * the memfd) for the former, *block for the latter. */
static struct sparse *backing(struct wk_gpu *gpu, struct region *r, uint64_t off, int via_tlb,
                              uint64_t *block, uint64_t *sys_off)
{
    if (r->host) {
        *sys_off = r->pool_off + off;
        return NULL;
    }
    if (r->kind != WK_GPU_SEGMENT_APERTURE) {
        *block = off >> WK_GPU_PAGE_SHIFT;
        return &r->bytes;
    }
    uint64_t pfn = 0;
    gart_translate(gpu, r, off >> WK_GPU_PAGE_SHIFT, via_tlb, &pfn);
    *sys_off = ((pfn - gpu->desc.sysmem_first_pfn) << WK_GPU_PAGE_SHIFT) |
               (off & (WK_GPU_PAGE_SIZE - 1));
    return NULL;
}

uint8_t *space_page_for_read(struct wk_gpu *gpu, struct region *r, uint64_t off, int via_tlb,
                             uint32_t *page_off)
{
    uint64_t block = 0, sys_off = 0;
    struct sparse *s = backing(gpu, r, off, via_tlb, &block, &sys_off);
    *page_off = (uint32_t)(off & (WK_GPU_PAGE_SIZE - 1));
    return s ? sparse_peek(s, block) : sysmem_page_for(gpu, sys_off, 0);
}

uint8_t *space_page_for_write(struct wk_gpu *gpu, struct region *r, uint64_t off, int via_tlb,
                              uint64_t len, uint32_t *page_off)
{
    uint64_t block = 0, sys_off = 0;
    struct sparse *s = backing(gpu, r, off, via_tlb, &block, &sys_off);
    *page_off = (uint32_t)(off & (WK_GPU_PAGE_SIZE - 1));
    return s ? sparse_touch(s, block, *page_off, (uint32_t)len)
             : sysmem_page_for(gpu, sys_off, len);
}

static uint64_t min3(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t m = a < b ? a : b;
    return m < c ? m : c;
}

static uint64_t page_room(uint64_t off)
{
    return WK_GPU_PAGE_SIZE - (off & (WK_GPU_PAGE_SIZE - 1));
}

/* Copies one chunk that stays inside one page on both sides. */
static int copy_chunk(struct wk_gpu *gpu, struct region *dr, uint64_t doff, struct region *sr,
                      uint64_t soff, uint64_t n, int via_tlb)
{
    uint32_t so, dof;
    const uint8_t *src = space_page_for_read(gpu, sr, soff, via_tlb, &so);
    if (!src && !space_page_for_read(gpu, dr, doff, via_tlb, &dof))
        return 0; /* zeroes onto an untouched page: nothing to do */
    uint8_t *dst = space_page_for_write(gpu, dr, doff, via_tlb, n, &dof);
    if (!dst)
        return -1;
    if (src)
        memmove(dst + dof, src + so, n);
    else
        memset(dst + dof, 0, n);
    return 0;
}

int space_copy(struct wk_gpu *gpu, struct region *dr, uint64_t doff, struct region *sr,
               uint64_t soff, uint64_t len, int via_tlb)
{
    /* Same region, destination above an overlapping source: walk backwards
     * so that every source byte is read before it is overwritten. */
    if (dr == sr && doff > soff && doff - soff < len) {
        uint64_t left = len;
        while (left) {
            uint64_t se = soff + left, de = doff + left;
            uint64_t n = min3(left, ((se - 1) & (WK_GPU_PAGE_SIZE - 1)) + 1,
                              ((de - 1) & (WK_GPU_PAGE_SIZE - 1)) + 1);
            if (copy_chunk(gpu, dr, de - n, sr, se - n, n, via_tlb) != 0)
                return -1;
            left -= n;
        }
        return 0;
    }
    for (uint64_t done = 0; done < len;) {
        uint64_t n = min3(len - done, page_room(soff + done), page_room(doff + done));
        if (copy_chunk(gpu, dr, doff + done, sr, soff + done, n, via_tlb) != 0)
            return -1;
        done += n;
    }
    return 0;
}

/* Fills with a multi-byte pattern larger than the cache go past it: stream whole
 * pages with non-temporal stores, as memset does for large sizes, instead of
 * reading every destination line in just to overwrite it (the threshold is
 * host_stream_threshold(), computed once per model). One-byte patterns are
 * memset's own job. */

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/* 32-byte streaming stores where the CPU has AVX2 (chosen at run time, as
 * glibc's memset does), 16-byte ones otherwise (SSE2 is x86-64's baseline). */
__attribute__((target("avx2"))) static void stream_page_avx2(uint8_t *page, const uint8_t *pattern16)
{
    __m128i half = _mm_loadu_si128((const __m128i *)(const void *)pattern16);
    __m256i v = _mm256_broadcastsi128_si256(half);
    for (uint32_t i = 0; i < WK_GPU_PAGE_SIZE; i += 128) {
        _mm256_stream_si256((__m256i *)(void *)(page + i), v);
        _mm256_stream_si256((__m256i *)(void *)(page + i + 32), v);
        _mm256_stream_si256((__m256i *)(void *)(page + i + 64), v);
        _mm256_stream_si256((__m256i *)(void *)(page + i + 96), v);
    }
}

static void stream_page_sse2(uint8_t *page, const uint8_t *pattern16)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)pattern16);
    for (uint32_t i = 0; i < WK_GPU_PAGE_SIZE; i += 64) {
        _mm_stream_si128((__m128i *)(void *)(page + i), v);
        _mm_stream_si128((__m128i *)(void *)(page + i + 16), v);
        _mm_stream_si128((__m128i *)(void *)(page + i + 32), v);
        _mm_stream_si128((__m128i *)(void *)(page + i + 48), v);
    }
}

static void stream_page(uint8_t *page, const uint8_t *pattern16, int avx2)
{
    if (avx2)
        stream_page_avx2(page, pattern16);
    else
        stream_page_sse2(page, pattern16);
}

static int have_avx2(void)
{
    return __builtin_cpu_supports("avx2");
}

/* Ordinary (cached) 32-byte stores of the pattern: half the stores of the
 * baseline's 16-byte ones, for the few-KiB FILLs below the streaming size. */
__attribute__((target("avx2"))) static void fill_wide_avx2(uint8_t *dst, uint64_t n, const uint8_t *pattern16)
{
    __m256i v = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)pattern16));
    uint64_t i = 0;
    for (; i + 128 <= n; i += 128) { /* four stores a step: the loop's own work no longer limits it */
        _mm256_storeu_si256((__m256i *)(void *)(dst + i), v);
        _mm256_storeu_si256((__m256i *)(void *)(dst + i + 32), v);
        _mm256_storeu_si256((__m256i *)(void *)(dst + i + 64), v);
        _mm256_storeu_si256((__m256i *)(void *)(dst + i + 96), v);
    }
    for (; i < n; i += 32)
        _mm256_storeu_si256((__m256i *)(void *)(dst + i), v);
}

/* The whole 32-byte blocks of [dst, dst+n) when the CPU has AVX2; 0 when
 * it has not (the caller's 16-byte loop does everything). */
static uint64_t fill_wide(uint8_t *dst, uint64_t n, const uint8_t *pattern16, int avx2)
{
    if (!avx2)
        return 0;
    fill_wide_avx2(dst, n & ~(uint64_t)31, pattern16);
    return n & ~(uint64_t)31;
}

static void stream_done(void)
{
    _mm_sfence(); /* order the streamed stores before anything that follows */
}
#else
static void stream_page(uint8_t *page, const uint8_t *pattern16, int avx2)
{
    (void)avx2;
    for (uint32_t i = 0; i < WK_GPU_PAGE_SIZE; i += 16)
        memcpy(page + i, pattern16, 16);
}

static int have_avx2(void)
{
    return 0;
}

static uint64_t fill_wide(uint8_t *dst, uint64_t n, const uint8_t *pattern16, int avx2)
{
    (void)dst, (void)n, (void)pattern16, (void)avx2;
    return 0;
}

static void stream_done(void)
{
}
#endif

/* Consecutive chunks that are also consecutive in host memory (the pool
 * carves pages in address order) are written by one call: a 64 MiB FILL of
 * pages backed together is one 64 MiB memset, exactly what the host would
 * do, instead of 16,384 small ones. */
struct fill_run {
    uint8_t *start;
    uint64_t len;
    uint64_t phase;              /* fill offset of the run's first byte */
};

/* Writes the pattern over [dst, dst+n) starting at pattern byte `phase`:
 * wide stores of a pattern block, then the tail. Building a whole page of
 * the pattern first (to memcpy from) cost more than the fill itself for the
 * few-KiB FILLs fuzz inputs ask for. */
static void fill_bytes(uint8_t *dst, uint64_t n, const uint8_t *pat, uint64_t phase, int avx2)
{
    const uint8_t *from = pat + (phase & 7);
    uint64_t i = fill_wide(dst, n, from, avx2); /* whole blocks of 32: the phase is kept */
    for (; i + 16 <= n; i += 16)
        memcpy(dst + i, from, 16);
    for (; i < n; i++)
        dst[i] = from[i & 15];
}

/* Runs of at least this many bytes of a pool's fresh pages are backed in
 * one system call before they are written (page_pool_prefault). */
#define PREFAULT_MIN (4u * WK_GPU_PAGE_SIZE)

static void fill_flush(struct fill_run *run, const uint8_t *pat, uint64_t pattern, int uniform, int stream,
                       int avx2, struct page_pool *pool)
{
    if (!run->len)
        return;
    if (pool && run->len >= PREFAULT_MIN)
        page_pool_prefault(pool, run->start, run->len);
    if (uniform) { /* memset picks its own strategy for the size (rep stosb, streaming) */
        memset(run->start, (int)(pattern & 0xFF), run->len);
    } else if (stream && !((uintptr_t)run->start & (WK_GPU_PAGE_SIZE - 1)) &&
               !(run->len & (WK_GPU_PAGE_SIZE - 1))) {
        for (uint64_t i = 0; i < run->len; i += WK_GPU_PAGE_SIZE)
            stream_page(run->start + i, pat + (run->phase & 7), avx2);
    } else {
        fill_bytes(run->start, run->len, pat, run->phase, avx2);
    }
    run->len = 0;
}

/* The 8-byte pattern repeated over PATTERN_BYTES: 16 bytes at any phase
 * 0..7 (a shorter pattern comes repeated to 8 bytes). */
#define PATTERN_BYTES 24u

static void repeat_pattern(uint8_t *pat, uint64_t pattern)
{
    for (uint32_t i = 0; i < PATTERN_BYTES; i += 8)
        put_le64(pat + i, pattern);
}

int space_fill(struct wk_gpu *gpu, struct region *r, uint64_t off, uint64_t len,
               uint64_t pattern, int via_tlb)
{
    uint8_t pat[PATTERN_BYTES];
    int uniform = (pattern & 0xFF) * 0x0101010101010101ull == pattern;
    int stream = !uniform && len >= gpu->stream_threshold;
    int avx2 = !uniform && have_avx2();
    /* a memory segment's pages come from the pool; system memory and what an
     * aperture maps are the memfd's */
    struct page_pool *pool = !r->host && r->kind != WK_GPU_SEGMENT_APERTURE ? r->bytes.pool : NULL;
    repeat_pattern(pat, pattern);
    struct fill_run run = { NULL, 0, 0 };
    int rc = 0;
    for (uint64_t done = 0; done < len;) {
        uint64_t n = len - done < page_room(off + done) ? len - done : page_room(off + done);
        uint32_t po;
        if (pattern == 0 && !space_page_for_read(gpu, r, off + done, via_tlb, &po)) {
            done += n; /* zeroes onto an untouched page */
            continue;
        }
        uint8_t *dst = space_page_for_write(gpu, r, off + done, via_tlb, n, &po);
        if (!dst) {
            rc = -1;
            break;
        }
        if (run.len && run.start + run.len == dst + po) {
            run.len += n;
        } else {
            fill_flush(&run, pat, pattern, uniform, stream, avx2, pool);
            run.start = dst + po;
            run.len = n;
            run.phase = done;
        }
        done += n;
    }
    fill_flush(&run, pat, pattern, uniform, stream, avx2, pool);
    if (stream)
        stream_done();
    return rc;
}

int space_store(struct wk_gpu *gpu, struct region *r, uint64_t off, const void *src, uint64_t len,
                int via_tlb)
{
    const uint8_t *s = src;
    for (uint64_t done = 0; done < len;) {
        uint64_t n = len - done < page_room(off + done) ? len - done : page_room(off + done);
        uint32_t po;
        uint8_t *dst = space_page_for_write(gpu, r, off + done, via_tlb, n, &po);
        if (!dst)
            return -1;
        memcpy(dst + po, s + done, n);
        done += n;
    }
    return 0;
}

void space_load(struct wk_gpu *gpu, struct region *r, uint64_t off, void *dst, uint64_t len,
                int via_tlb)
{
    uint8_t *d = dst;
    for (uint64_t done = 0; done < len;) {
        uint64_t n = len - done < page_room(off + done) ? len - done : page_room(off + done);
        uint32_t po;
        const uint8_t *src = space_page_for_read(gpu, r, off + done, via_tlb, &po);
        if (src)
            memcpy(d + done, src + po, n);
        else
            memset(d + done, 0, n);
        done += n;
    }
}

/* Index of the bank holding `off`: the number of bank ends <= off. */
static uint32_t bank_of(const struct region *r, uint64_t off)
{
    uint32_t lo = 0, hi = r->bank_count - 1;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (r->bank_ends[mid] <= off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void space_count_banks(struct wk_gpu *gpu, const struct region *r, uint64_t off, uint64_t len)
{
    if (r->bank_count < 2 || len == 0)
        return;
    if (bank_of(r, off) != bank_of(r, off + len - 1))
        gpu->counters.bank_crossings++;
}

wk_status wk_gpu_locate(const struct wk_gpu *gpu, uint64_t addr, struct wk_gpu_location *loc)
{
    const struct region *r = space_find(gpu, addr);
    if (!r)
        return WK_E_BAD_ADDRESS;
    loc->segment_id = r->segment_id;
    loc->offset = addr - r->base;
    loc->bank = r->bank_count >= 2 ? bank_of(r, loc->offset) : 0;
    return WK_OK;
}

/* Host access: the GPU view minus the TLB. */
wk_status space_host_check(struct wk_gpu *gpu, uint64_t addr, uint64_t len, struct region **r)
{
    enum wk_gpu_fault_reason why = WK_GPU_FAULT_NONE;
    uint64_t at = 0;
    if (len == 0)
        return WK_OK;
    *r = space_check(gpu, addr, len, 0, &why, &at);
    if (*r)
        return WK_OK;
    switch (why) {
    case WK_GPU_FAULT_BAD_ADDRESS: return WK_E_BAD_ADDRESS;
    case WK_GPU_FAULT_UNMAPPED_APERTURE: return WK_E_UNMAPPED;
    default: return WK_E_CROSSES_SEGMENT;
    }
}

wk_status wk_gpu_read(struct wk_gpu *gpu, uint64_t addr, void *buf, uint64_t len)
{
    struct region *r = NULL;
    wk_status st = space_host_check(gpu, addr, len, &r);
    if (st == WK_OK && len)
        space_load(gpu, r, addr - r->base, buf, len, 0);
    return st;
}

wk_status wk_gpu_write(struct wk_gpu *gpu, uint64_t addr, const void *buf, uint64_t len)
{
    struct region *r = NULL;
    wk_status st = space_host_check(gpu, addr, len, &r);
    if (st != WK_OK || len == 0)
        return st;
    return space_store(gpu, r, addr - r->base, buf, len, 0) == 0 ? WK_OK : WK_E_LIMIT;
}

/* Digest chunk k of the range: untouched whole chunks use the cached value. */
wk_status wk_gpu_digest(struct wk_gpu *gpu, uint64_t addr, uint64_t len, uint64_t *out)
{
    struct region *r = NULL;
    wk_status st = space_host_check(gpu, addr, len, &r);
    if (st != WK_OK)
        return st;
    uint64_t h = 0xCBF29CE484222325ull;
    uint8_t chunk[WK_GPU_PAGE_SIZE];
    for (uint64_t done = 0; done < len; done += WK_GPU_PAGE_SIZE) {
        uint64_t n = len - done < WK_GPU_PAGE_SIZE ? len - done : WK_GPU_PAGE_SIZE;
        uint64_t off = addr - r->base + done;
        uint32_t po;
        uint64_t c;
        if (n == WK_GPU_PAGE_SIZE && !(off & (WK_GPU_PAGE_SIZE - 1)) &&
            !space_page_for_read(gpu, r, off, 0, &po)) {
            c = gpu->zero_chunk_digest;
        } else {
            space_load(gpu, r, off, chunk, n, 0);
            c = digest_chunk(chunk, n);
        }
        h = digest_mix(h + c);
    }
    *out = digest_mix(h ^ len);
    return WK_OK;
}
