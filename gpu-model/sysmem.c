/*
 * sysmem.c - system memory: one host mapping of a memfd.
 *
 * System pages are what MDLs describe, and drivers reach them both through
 * the GPU (by PFN) and through the CPU (MmGetSystemAddressForMdlSafe). A
 * memfd gives both: the model reads and writes its own MAP_SHARED mapping,
 * and wk_gpu_sysmem_map maps any list of pages at one contiguous host range,
 * exactly as Windows maps an MDL's scattered pages into system space.
 *
 * Two regimes, because a reset must cost what the last input touched:
 *   - private (no host pointer handed out yet: the fuzzing loop of a bare
 *     model): the model is the only writer, so it keeps the exact set of
 *     pages written since the reset (a bitmap and a list). Reads of other
 *     pages are zeroes without touching the mapping; reset zeroes the listed
 *     pages in place (no system call, no page fault next time) and residency
 *     is the list's length. Pages zeroed this way stay allocated for reuse,
 *     like the segment pages of the pool; a reset after more than
 *     ZERO_LIMIT pages punches the whole file instead.
 *   - shared (after wk_gpu_sysmem_page or wk_gpu_sysmem_map): the host may
 *     write behind the model's back, so the kernel is the truth: reset
 *     punches the whole file out (cost: the pages present, as the kernel
 *     walks only those) and residency is the memfd's block count. Entering
 *     it punches every page the model does not hold data in, so the block
 *     count starts equal to the private count.
 * Without memfd the pool falls back to anonymous memory and only the
 * contiguous multi-page mapping is unavailable.
 */
#define _GNU_SOURCE /* memfd_create, fallocate */

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* Past this many pages written, punching the file out beats zeroing them. */
#define ZERO_LIMIT 512u

int sysmem_init(struct wk_gpu *gpu, struct region *r)
{
    gpu->sysmem_fd = memfd_create("wddmkit-sysmem", MFD_CLOEXEC);
    if (gpu->sysmem_fd >= 0 && ftruncate(gpu->sysmem_fd, (off_t)r->size) != 0) {
        close(gpu->sysmem_fd);
        gpu->sysmem_fd = -1;
    }
    void *p = gpu->sysmem_fd >= 0
                  ? mmap(NULL, r->size, PROT_READ | PROT_WRITE, MAP_SHARED, gpu->sysmem_fd, 0)
                  : mmap(NULL, r->size, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return -1;
    r->host = p;
    /* Without the bitmap the model simply starts shared (slower resets). */
    gpu->sys_bits = calloc((size_t)((r->size >> WK_GPU_PAGE_SHIFT) + 63) / 64, sizeof(uint64_t));
    gpu->sysmem_shared = !gpu->sys_bits;
    gpu->sysmem_dirty = gpu->sysmem_shared;
    return 0;
}

void sysmem_fini(struct wk_gpu *gpu, struct region *r)
{
    munmap(r->host, r->size);
    r->host = NULL;
    if (gpu->sysmem_fd >= 0)
        close(gpu->sysmem_fd);
    gpu->sysmem_fd = -1;
    free(gpu->sys_bits);
    free(gpu->sys_list);
    gpu->sys_bits = gpu->sys_list = NULL;
}

/* Gives [off, off+len) of the pool back to the kernel: it reads as zeroes. */
static void release(struct wk_gpu *gpu, struct region *r, uint64_t off, uint64_t len)
{
    int punched = gpu->sysmem_fd >= 0 &&
                  fallocate(gpu->sysmem_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off,
                            (off_t)len) == 0;
    if (!punched) /* no memfd, or a kernel without hole punching on it */
        madvise(r->host + off, len, gpu->sysmem_fd >= 0 ? MADV_REMOVE : MADV_DONTNEED);
}

static int bit(const uint64_t *bits, uint64_t page)
{
    return (int)(bits[page / 64] >> (page % 64)) & 1;
}

static void reset_private(struct wk_gpu *gpu, struct region *r)
{
    int punch = gpu->sys_count > ZERO_LIMIT;
    for (uint64_t i = 0; i < gpu->sys_count; i++) {
        uint64_t page = gpu->sys_list[i];
        gpu->sys_bits[page / 64] &= ~(1ull << (page % 64));
        if (!punch)
            memset(r->host + (page << WK_GPU_PAGE_SHIFT), 0, WK_GPU_PAGE_SIZE);
    }
    if (punch)
        release(gpu, r, 0, r->size);
    gpu->sys_count = 0;
}

void sysmem_reset(struct wk_gpu *gpu, struct region *r)
{
    if (!gpu->sysmem_shared) {
        reset_private(gpu, r);
        return;
    }
    if (gpu->sysmem_dirty)
        release(gpu, r, 0, r->size);
    gpu->sysmem_dirty = 0;
}

uint64_t sysmem_resident(const struct wk_gpu *gpu, const struct region *r)
{
    struct stat st;
    if (!gpu->sysmem_shared)
        return gpu->sys_count;
    if (gpu->sysmem_fd >= 0 && fstat(gpu->sysmem_fd, &st) == 0)
        return (uint64_t)st.st_blocks * 512 / WK_GPU_PAGE_SIZE;
    (void)r;
    return 0;
}

/* Private regime: records a page written since the reset. The list never
 * holds a page twice (the bitmap says), so it is at most the pool's size. */
static int note_write(struct wk_gpu *gpu, uint64_t page)
{
    if (bit(gpu->sys_bits, page))
        return 0;
    if (gpu->sys_count == gpu->sys_capacity) {
        uint64_t cap = gpu->sys_capacity ? gpu->sys_capacity * 2 : 64;
        uint64_t *l = realloc(gpu->sys_list, cap * sizeof(*l));
        if (!l)
            return -1;
        gpu->sys_list = l;
        gpu->sys_capacity = cap;
    }
    gpu->sys_list[gpu->sys_count++] = page;
    gpu->sys_bits[page / 64] |= 1ull << (page % 64);
    return 0;
}

static int by_page(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Enters the shared regime: pages zeroed in place by earlier resets are
 * still allocated, so punch every gap between the pages holding data. */
static void share(struct wk_gpu *gpu)
{
    struct region *r = sysmem_region(gpu);
    if (gpu->sysmem_shared)
        return;
    gpu->sysmem_shared = 1;
    gpu->sysmem_dirty = 1;
    if (gpu->sys_count)
        qsort(gpu->sys_list, gpu->sys_count, sizeof(*gpu->sys_list), by_page);
    uint64_t from = 0;
    for (uint64_t i = 0; i <= gpu->sys_count; i++) {
        uint64_t to = i < gpu->sys_count ? gpu->sys_list[i] << WK_GPU_PAGE_SHIFT : r->size;
        if (to > from)
            release(gpu, r, from, to - from);
        from = to + WK_GPU_PAGE_SIZE;
    }
    gpu->sys_count = 0;
}

uint8_t *sysmem_page_for(struct wk_gpu *gpu, uint64_t sys_off, int write)
{
    uint64_t page = sys_off >> WK_GPU_PAGE_SHIFT;
    uint8_t *host = sysmem_region(gpu)->host + (page << WK_GPU_PAGE_SHIFT);
    if (gpu->sysmem_shared) {
        gpu->sysmem_dirty = 1; /* a read of a shared-memory hole backs a page too */
        return host;
    }
    if (!write)
        return bit(gpu->sys_bits, page) ? host : NULL;
    if (note_write(gpu, page) != 0)
        share(gpu); /* out of host memory for the list: let the kernel keep count */
    return host;
}

static int pfn_in_pool(const struct wk_gpu *gpu, uint64_t pfn)
{
    return pfn >= gpu->desc.sysmem_first_pfn &&
           pfn - gpu->desc.sysmem_first_pfn < gpu->desc.sysmem_pages;
}

uint8_t *wk_gpu_sysmem_page(struct wk_gpu *gpu, uint64_t pfn)
{
    if (!pfn_in_pool(gpu, pfn))
        return NULL;
    share(gpu); /* the host may write through it, now or after a reset */
    return sysmem_region(gpu)->host + ((pfn - gpu->desc.sysmem_first_pfn) << WK_GPU_PAGE_SHIFT);
}

wk_status wk_gpu_sysmem_map(struct wk_gpu *gpu, const uint64_t *pfns, uint64_t count, void **va)
{
    if (!pfns || !va || count == 0 || count > gpu->desc.sysmem_pages)
        return WK_E_INVALID_ARGUMENT;
    for (uint64_t i = 0; i < count; i++)
        if (!pfn_in_pool(gpu, pfns[i]))
            return WK_E_INVALID_ARGUMENT;
    if (gpu->sysmem_fd < 0)
        return WK_E_NOT_SUPPORTED;
    share(gpu);
    /* One more page than mapped stays inaccessible: a guard after the end. */
    size_t len = ((size_t)count + 1) << WK_GPU_PAGE_SHIFT;
    uint8_t *base = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED)
        return WK_E_NO_MEMORY;
    for (uint64_t i = 0; i < count; i++) {
        off_t at = (off_t)((pfns[i] - gpu->desc.sysmem_first_pfn) << WK_GPU_PAGE_SHIFT);
        void *p = mmap(base + (i << WK_GPU_PAGE_SHIFT), WK_GPU_PAGE_SIZE, PROT_READ | PROT_WRITE,
                       MAP_SHARED | MAP_FIXED, gpu->sysmem_fd, at);
        if (p == MAP_FAILED) {
            munmap(base, len);
            return WK_E_NO_MEMORY;
        }
    }
    *va = base;
    return WK_OK;
}

void wk_gpu_sysmem_unmap(struct wk_gpu *gpu, void *va, uint64_t count)
{
    (void)gpu;
    if (va && count)
        munmap(va, ((size_t)count + 1) << WK_GPU_PAGE_SHIFT);
}
