/*
 * sysmem.c - system memory: one host mapping of a memfd.
 *
 * System pages are what MDLs describe, and drivers reach them both through
 * the GPU (by PFN) and through the CPU (MmGetSystemAddressForMdlSafe). A
 * memfd gives both: the model reads and writes its own MAP_SHARED mapping,
 * and wk_gpu_sysmem_map maps any list of pages at one contiguous host range,
 * exactly as Windows maps an MDL's scattered pages into system space.
 *
 * The mapping is lazy (the kernel backs a page on first write), reset punches
 * the written pages out again (cost: the pages written, as the kernel walks
 * only what is present), and residency is read from the memfd's block count.
 * Without memfd the pool falls back to anonymous memory and only the
 * contiguous multi-page mapping is unavailable.
 */
#define _GNU_SOURCE /* memfd_create, fallocate */

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

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
    return 0;
}

void sysmem_fini(struct wk_gpu *gpu, struct region *r)
{
    munmap(r->host, r->size);
    r->host = NULL;
    if (gpu->sysmem_fd >= 0)
        close(gpu->sysmem_fd);
    gpu->sysmem_fd = -1;
}

void sysmem_reset(struct wk_gpu *gpu, struct region *r)
{
    if (!gpu->sysmem_dirty)
        return;
    int punched = gpu->sysmem_fd >= 0 &&
                  fallocate(gpu->sysmem_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
                            (off_t)r->size) == 0;
    if (!punched) /* no memfd, or a kernel without hole punching on it */
        madvise(r->host, r->size, gpu->sysmem_fd >= 0 ? MADV_REMOVE : MADV_DONTNEED);
    gpu->sysmem_dirty = 0;
}

uint64_t sysmem_resident(const struct wk_gpu *gpu, const struct region *r)
{
    struct stat st;
    if (gpu->sysmem_fd >= 0 && fstat(gpu->sysmem_fd, &st) == 0)
        return (uint64_t)st.st_blocks * 512 / WK_GPU_PAGE_SIZE;
    (void)r;
    return 0;
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
    gpu->sysmem_dirty = 1; /* the host may write through it */
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
    gpu->sysmem_dirty = 1;
    *va = base;
    return WK_OK;
}

void wk_gpu_sysmem_unmap(struct wk_gpu *gpu, void *va, uint64_t count)
{
    (void)gpu;
    if (va && count)
        munmap(va, ((size_t)count + 1) << WK_GPU_PAGE_SHIFT);
}
