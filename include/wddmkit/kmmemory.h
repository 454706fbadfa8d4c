/* SPDX-License-Identifier: MIT */
/*
 * wddmkit/kmmemory.h - the memory-manager and hardware-access routines of
 * the kernel API a display miniport calls: physically contiguous memory
 * (MmAllocateContiguousMemory[SpecifyCache], MmFreeContiguousMemory[SpecifyCache]),
 * MmGetPhysicalAddress, I/O space mappings (MmMapIoSpace[Ex],
 * MmUnmapIoSpace), MDL mappings (MmMapLockedPagesSpecifyCache,
 * MmUnmapLockedPages) and the register and port accessors (READ_REGISTER_*,
 * WRITE_REGISTER_*, their _BUFFER_ forms, READ_PORT_*, WRITE_PORT_*).
 *
 * Shape and strictness as km.h (read its header comment): header only,
 * static inline; misuse that crashes Windows aborts with a rule line
 * (KM-MEM-001 .. KM-MEM-003, KM-MDL-001, and km.h's KM-IRQL-003 for calls above their
 * IRQL). km.h already has the page macros, MmGetSystemAddressForMdlSafe and
 * pool; this header follows the pool's conventions (fresh memory that
 * Windows leaves uninitialised reads 0xCD, freed memory 0xDD, requests above
 * WK_KM_POOL_MAX_BYTES fail like an exhausted system).
 *
 * Physical memory and devices: what the kit gives behind these calls
 * (docs/writing-a-driver.md, "Registers and resources"; facts 5.10):
 *   - inside a DDI call of a driver the kit loaded, for an adapter whose GPU
 *     reads system memory (the kit's model, or a binding's), contiguous
 *     memory is pages of the adapter's system pool: MmGetPhysicalAddress of
 *     any byte of the block is the address the GPU reads that byte at, so a
 *     ring the driver puts there is the ring the GPU fetches;
 *   - MmMapIoSpace[Ex] of a range inside a register BAR that
 *     DxgkCbGetDeviceInformation's TranslatedResourceList lists is a window
 *     onto the register model: READ_REGISTER_* and WRITE_REGISTER_* on it
 *     reach the model (from any thread), and a plain load or store faults,
 *     named in the report (a register is only reached through the accessors);
 *   - MmMapIoSpace[Ex] of a range inside a BAR that shows a memory segment
 *     to the CPU (a binding's WK_BAR_SEGMENT: BAR offset = segment offset)
 *     maps the segment's own memory, the bytes the GPU and the kit's checks
 *     read; a range that starts there but runs past the BAR or the segment
 *     gives NULL;
 *   - everywhere else (no kit, outside a DDI, a range in no register BAR, a
 *     GPU that reads no system memory) a block's "physical" address is its
 *     host virtual address (unique, stable, page aligned where the block is,
 *     contiguous wherever the virtual range is, but read by nothing), and an
 *     I/O space mapping is fresh zero-filled memory that keeps what is
 *     written to it: no device answers behind it, and two mappings of one
 *     physical range are two separate memories.
 *
 * State. Which blocks and mappings are live is kept in one registry per
 * module (a weak hidden global, as km.h's IRQL is, guarded by a lock word),
 * so a free or unmap of an address the kit never handed out is named as
 * such without reading the memory around it. Every record, whichever of
 * the ways above made it, is also counted by the kit (kmservices.h,
 * MemoryRecorded and MemoryReleased): one still live when the adapter is
 * torn down is MEM-LEAK-001, as pool is POOL-LEAK-001.
 *
 * Valid C11 and C++11 (checked as C++17 too), warning-free with -Wall -Wextra.
 */
#ifndef WDDMKIT_KMMEMORY_H
#define WDDMKIT_KMMEMORY_H

#include "wddmkit/km.h"
#include "wddmkit/driver.h" /* MEMORY_CACHING_TYPE (dispmprt.h) */

#ifdef __cplusplus
extern "C" {
#endif

/* Page protections of MmMapIoSpaceEx (winnt.h values). */
#ifndef PAGE_NOACCESS
#define PAGE_NOACCESS 0x01u
#define PAGE_READONLY 0x02u
#define PAGE_READWRITE 0x04u
#define PAGE_WRITECOPY 0x08u
#define PAGE_EXECUTE 0x10u
#define PAGE_EXECUTE_READ 0x20u
#define PAGE_EXECUTE_READWRITE 0x40u
#define PAGE_EXECUTE_WRITECOPY 0x80u
#define PAGE_GUARD 0x100u
#define PAGE_NOCACHE 0x200u
#define PAGE_WRITECOMBINE 0x400u
#endif

/* ------------------------------------------------------------------------ */
/* The registry of live blocks and mappings                                  */
/* ------------------------------------------------------------------------ */

#define WK_KM_MEM_CONTIGUOUS 0x434D4B57u /* 'WKMC': MmAllocateContiguousMemory* */
#define WK_KM_MEM_IO_SPACE 0x494D4B57u   /* 'WKMI': MmMapIoSpace* */

/* One live block or mapping. The memory itself is a separate C allocation,
 * so ASan still sees overruns of it; this record holds what the free or
 * unmap must check. */
typedef struct wk_km_mem_block {
    LIST_ENTRY wk_link;
    ULONG wk_kind;                /* WK_KM_MEM_CONTIGUOUS or WK_KM_MEM_IO_SPACE */
    MEMORY_CACHING_TYPE wk_cache; /* as requested */
    PVOID wk_base;                /* the address the driver was given */
    PVOID wk_alloc;               /* the C allocation behind it (NULL: the kit's) */
    SIZE_T wk_size;               /* bytes the driver asked for */
    SIZE_T wk_alloc_size;         /* bytes allocated: whole pages */
    ULONG64 wk_physical;          /* the kit's: the GPU address of wk_base (contiguous) */
    ULONG64 wk_owner;             /* the kit's count of it (MemoryRecorded); 0: not counted */
} wk_km_mem_block;

typedef struct wk_km_mem_registry {
    ULONG_PTR volatile wk_lock; /* km.h's spin word: owning thread or 0 */
    LIST_ENTRY wk_blocks;       /* set up on first use */
} wk_km_mem_registry;

/* Weak so every unit of a module shares one registry, hidden so a driver
 * module and the kit never share theirs (as km.h's IRQL). */
extern wk_km_mem_registry wk_km_mem_live;
__attribute__((weak, visibility("hidden"))) wk_km_mem_registry wk_km_mem_live = {0, {NULL, NULL}};

/* Takes the registry lock, setting the list up on first use. */
static inline void wk_km_mem_lock(void)
{
    wk_km_word_take(&wk_km_mem_live.wk_lock, "wddmkit memory registry");
    if (!wk_km_mem_live.wk_blocks.Flink)
        InitializeListHead(&wk_km_mem_live.wk_blocks);
}

static inline void wk_km_mem_unlock(void)
{
    wk_km_word_give(&wk_km_mem_live.wk_lock, "wddmkit memory registry");
}

/* The live record whose driver address is base, or NULL. Lock held.
 * Newest first: a record of the kit's memory outlives that memory when its
 * adapter goes first (a driver that died, or leaked it), and the kit may
 * hand the same address out again later; the newer record is then the one
 * the driver holds, and the one whose release the kit must count. */
static inline wk_km_mem_block *wk_km_mem_find_locked(const void *base)
{
    PLIST_ENTRY e;
    for (e = wk_km_mem_live.wk_blocks.Blink; e != &wk_km_mem_live.wk_blocks; e = e->Blink) {
        wk_km_mem_block *b = CONTAINING_RECORD(e, wk_km_mem_block, wk_link);
        if (b->wk_base == base)
            return b;
    }
    return NULL;
}

/* Number of live blocks and mappings (for tests and leak reports). */
static inline SIZE_T wk_km_mem_live_count(void)
{
    SIZE_T n = 0;
    PLIST_ENTRY e;
    wk_km_mem_lock();
    for (e = wk_km_mem_live.wk_blocks.Flink; e != &wk_km_mem_live.wk_blocks; e = e->Flink)
        n++;
    wk_km_mem_unlock();
    return n;
}

/* The kind kmservices.h's MemoryRecorded and MemoryReleased take. */
static inline uint32_t wk_km_mem_service_kind(ULONG kind)
{
    return kind == WK_KM_MEM_CONTIGUOUS ? WK_KM_MEMORY_CONTIGUOUS : WK_KM_MEMORY_IO_SPACE;
}

/* Records a live block or mapping at base (alloc: the C allocation behind
 * it, NULL for the kit's memory); returns base, or NULL when the record
 * cannot be had. This is the one place every block and mapping passes,
 * whoever made its memory (the kit or km.h itself), so it is where the kit
 * counts them (MEM-LEAK-001 at teardown). */
static inline PVOID wk_km_mem_record(ULONG kind, PVOID base, PVOID alloc, SIZE_T size, SIZE_T alloc_size,
                                     MEMORY_CACHING_TYPE cache, ULONG64 physical)
{
    wk_km_mem_block *b = (wk_km_mem_block *)malloc(sizeof *b);
    if (!b)
        return NULL;
    b->wk_owner = WK_KM_SERVICE(MemoryRecorded)
                      ? wk_km_services->MemoryRecorded(wk_km_mem_service_kind(kind), size)
                      : 0;
    b->wk_kind = kind;
    b->wk_cache = cache;
    b->wk_alloc = alloc;
    b->wk_base = base;
    b->wk_size = size;
    b->wk_alloc_size = alloc_size;
    b->wk_physical = physical;
    wk_km_mem_lock();
    InsertTailList(&wk_km_mem_live.wk_blocks, &b->wk_link);
    wk_km_mem_unlock();
    return base;
}

/* Allocates alloc_size bytes aligned to align (a power of two, at least a
 * page, dividing alloc_size), fills them, and records them; returns the
 * address at offset inside, or NULL. */
static inline PVOID wk_km_mem_create(ULONG kind, SIZE_T size, SIZE_T alloc_size, SIZE_T align,
                                     SIZE_T offset, MEMORY_CACHING_TYPE cache, int fill)
{
    void *mem = aligned_alloc(align, alloc_size);
    if (!mem)
        return NULL;
    memset(mem, fill, alloc_size);
    if (!wk_km_mem_record(kind, (char *)mem + offset, mem, size, alloc_size, cache, 0)) {
        free(mem);
        return NULL;
    }
    return (char *)mem + offset;
}

/* What a kind is called in a rule line. */
static inline const char *wk_km_mem_kind_name(ULONG kind)
{
    return kind == WK_KM_MEM_CONTIGUOUS ? "a contiguous memory block" : "an I/O space mapping";
}

/*
 * Removes and returns the live record of kind at base. Aborts with rule
 * when there is none (naming the other kind if base is one), and with
 * KM-MEM-003 when check_size is set and size differs from the recorded one.
 */
static inline wk_km_mem_block *wk_km_mem_take(const void *base, ULONG kind, const char *rule,
                                              int check_size, SIZE_T size, const char *api)
{
    wk_km_mem_block *b;
    wk_km_mem_lock();
    b = wk_km_mem_find_locked(base);
    if (b && b->wk_kind == kind && !(check_size && b->wk_size != size))
        RemoveEntryList(&b->wk_link);
    wk_km_mem_unlock();
    if (!b)
        wk_km_fail("%s: %s(%p): not an address that %s returned, or released already "
                   "(Windows: bug check)",
                   rule, api, base,
                   kind == WK_KM_MEM_CONTIGUOUS ? "MmAllocateContiguousMemory*" : "MmMapIoSpace*");
    if (b->wk_kind != kind)
        wk_km_fail("%s: %s(%p): the address is %s, not %s", rule, api, base,
                   wk_km_mem_kind_name(b->wk_kind), wk_km_mem_kind_name(kind));
    if (check_size && b->wk_size != size)
        wk_km_fail("KM-MEM-003: %s(%p, %llu): %s was made with %llu bytes; the size must match "
                   "(Windows: bug check)",
                   api, base, (unsigned long long)size, wk_km_mem_kind_name(kind),
                   (unsigned long long)b->wk_size);
    return b;
}

/* Fills the block with fill and gives it back to the C library, or to the
 * kit that made it: its contiguous pages (filled first, as the library's),
 * its register window (no bytes to fill: the window faults on access). */
static inline void wk_km_mem_destroy(wk_km_mem_block *b, int fill)
{
    if (b->wk_owner && WK_KM_SERVICE(MemoryReleased))
        wk_km_services->MemoryReleased(b->wk_owner, wk_km_mem_service_kind(b->wk_kind), b->wk_size);
    if (b->wk_alloc) {
        memset(b->wk_alloc, fill, b->wk_alloc_size);
        free(b->wk_alloc);
    } else if (b->wk_kind == WK_KM_MEM_CONTIGUOUS) {
        memset(b->wk_base, fill, b->wk_alloc_size);
        if (WK_KM_SERVICE(FreeContiguous))
            wk_km_services->FreeContiguous(b->wk_base);
    } else if (WK_KM_SERVICE(UnmapIoSpace)) {
        wk_km_services->UnmapIoSpace(b->wk_base, b->wk_size);
    }
    free(b);
}

/* ------------------------------------------------------------------------ */
/* Physically contiguous memory                                              */
/* ------------------------------------------------------------------------ */

/* TRUE for a caching type Windows defines. The value is read as bytes: in
 * C++ loading an enum that holds an undeclared value is undefined, and a
 * fuzzed driver may pass one. */
static inline int wk_km_cache_type_ok(const MEMORY_CACHING_TYPE *type)
{
    int v;
    memcpy(&v, type, sizeof v);
    return v >= 0 && v < (int)MmMaximumCacheType;
}

/* Smallest power of two >= n (n <= 2^62). */
static inline SIZE_T wk_km_pow2_at_least(SIZE_T n)
{
    SIZE_T p = 1;
    while (p < n)
        p <<= 1;
    return p;
}

/* TRUE when [lo, hi] can hold bytes bytes at all (addresses as unsigned). */
static inline int wk_km_range_holds(PHYSICAL_ADDRESS lo, PHYSICAL_ADDRESS hi, SIZE_T bytes)
{
    ULONG64 l = (ULONG64)lo.QuadPart, h = (ULONG64)hi.QuadPart;
    return h >= l && h - l >= bytes - 1;
}

/* Contiguous pages of the kit's system pool (kmservices.h,
 * AllocateContiguous), filled with 0xCD and recorded: 1 and *out, 2 when
 * the pool cannot satisfy the constraints, 0 when the kit does not take
 * the request (no kit, no DDI running, a GPU that reads no system memory). */
static inline int wk_km_contiguous_from_kit(SIZE_T bytes, SIZE_T pages, PHYSICAL_ADDRESS lowest,
                                            PHYSICAL_ADDRESS highest, ULONG64 boundary,
                                            MEMORY_CACHING_TYPE cache, PVOID *out)
{
    void *va = NULL;
    uint64_t physical = 0;
    int got;
    if (!WK_KM_SERVICE(AllocateContiguous))
        return 0;
    got = wk_km_services->AllocateContiguous(pages, (uint64_t)lowest.QuadPart, (uint64_t)highest.QuadPart,
                                             boundary, &va, &physical);
    if (got != 1)
        return got;
    memset(va, WK_KM_POOL_NEW_FILL, pages);
    if (!wk_km_mem_record(WK_KM_MEM_CONTIGUOUS, va, NULL, bytes, pages, cache, physical)) {
        if (WK_KM_SERVICE(FreeContiguous))
            wk_km_services->FreeContiguous(va);
        return 2;
    }
    *out = va;
    return 1;
}

/*
 * Allocates NumberOfBytes of "physically contiguous" non-paged memory,
 * page-aligned, as Windows does; NULL when it cannot. Windows leaves the
 * contents uninitialised; the kit fills them with 0xCD (as new pool).
 * Requires IRQL <= DISPATCH_LEVEL.
 *
 * Inside a DDI of a driver the kit loaded, for an adapter whose GPU reads
 * system memory, the block is pages of the adapter's system pool (see the
 * header comment), every page in [LowestAcceptableAddress,
 * HighestAcceptableAddress] and no BoundaryAddressMultiple crossed, or NULL
 * when the pool has no such run (facts 5.10 M8).
 *
 * Elsewhere the block's "physical" address is its virtual one, typically
 * far above 4 GB, so the kit does not enforce LowestAcceptableAddress and
 * HighestAcceptableAddress: doing so would fail every driver that asks for
 * 32-bit DMA memory, for a reason that is the kit's, and no device reads
 * the address. They are checked for sense instead: a range that cannot hold
 * the block at all (Highest below Lowest + size - 1) gives NULL, as no
 * memory would satisfy it on Windows either. BoundaryAddressMultiple is
 * honoured: the block does not
 * cross a multiple of it (it is aligned to a power of two at least its
 * size), and a block larger than a non-zero boundary gives NULL. A zero
 * size, an unknown CacheType or a size above WK_KM_POOL_MAX_BYTES gives
 * NULL. CacheType is recorded and otherwise has no effect (host memory is
 * cached).
 */
static inline PVOID MmAllocateContiguousMemorySpecifyCache(SIZE_T NumberOfBytes,
                                                           PHYSICAL_ADDRESS LowestAcceptableAddress,
                                                           PHYSICAL_ADDRESS HighestAcceptableAddress,
                                                           PHYSICAL_ADDRESS BoundaryAddressMultiple,
                                                           MEMORY_CACHING_TYPE CacheType)
{
    SIZE_T pages, align = PAGE_SIZE;
    ULONG64 boundary = (ULONG64)BoundaryAddressMultiple.QuadPart;
    PVOID p;
    wk_km_require_irql(DISPATCH_LEVEL, "MmAllocateContiguousMemorySpecifyCache", "");
    if (NumberOfBytes == 0 || NumberOfBytes > WK_KM_POOL_MAX_BYTES ||
        !wk_km_cache_type_ok(&CacheType))
        return NULL;
    pages = ROUND_TO_PAGES(NumberOfBytes);
    if (!wk_km_range_holds(LowestAcceptableAddress, HighestAcceptableAddress, pages))
        return NULL;
    if (boundary && pages > boundary)
        return NULL;
    switch (wk_km_contiguous_from_kit(NumberOfBytes, pages, LowestAcceptableAddress, HighestAcceptableAddress,
                                      boundary, CacheType, &p)) {
    case 1:
        return p;
    case 2:
        return NULL; /* the pool the device reaches cannot hold it: as Windows */
    default:
        break;
    }
    if (boundary) {
        align = wk_km_pow2_at_least(pages);
        pages = align; /* aligned_alloc wants a multiple of the alignment */
    }
    p = wk_km_mem_create(WK_KM_MEM_CONTIGUOUS, NumberOfBytes, pages, align, 0, CacheType,
                         WK_KM_POOL_NEW_FILL);
    /* A boundary that is not a power of two may still be crossed. */
    if (p && boundary && ((ULONG64)(uintptr_t)p / boundary) !=
                             (((ULONG64)(uintptr_t)p + NumberOfBytes - 1) / boundary)) {
        wk_km_mem_destroy(wk_km_mem_take(p, WK_KM_MEM_CONTIGUOUS, "KM-MEM-001", 0, 0,
                                         "MmAllocateContiguousMemorySpecifyCache"),
                          WK_KM_POOL_FREED_FILL);
        return NULL;
    }
    return p;
}

/* MmAllocateContiguousMemorySpecifyCache with no lower limit, no boundary
 * and cached memory (Windows' defaults for this form). */
static inline PVOID MmAllocateContiguousMemory(SIZE_T NumberOfBytes,
                                               PHYSICAL_ADDRESS HighestAcceptableAddress)
{
    PHYSICAL_ADDRESS zero;
    zero.QuadPart = 0;
    return MmAllocateContiguousMemorySpecifyCache(NumberOfBytes, zero, HighestAcceptableAddress,
                                                  zero, MmCached);
}

/* Frees a block MmAllocateContiguousMemory* returned; requires IRQL <=
 * DISPATCH_LEVEL (Windows Server 2008 and later). Any other address -
 * never returned, freed already, an I/O mapping, pool - aborts with
 * KM-MEM-001 (Windows bug-checks). The block is filled with 0xDD first. */
static inline VOID MmFreeContiguousMemory(PVOID BaseAddress)
{
    wk_km_require_irql(DISPATCH_LEVEL, "MmFreeContiguousMemory", "");
    wk_km_mem_destroy(wk_km_mem_take(BaseAddress, WK_KM_MEM_CONTIGUOUS, "KM-MEM-001", 0, 0,
                                     "MmFreeContiguousMemory"),
                      WK_KM_POOL_FREED_FILL);
}

/* MmFreeContiguousMemory that also checks NumberOfBytes against the
 * allocation (KM-MEM-003 when it differs); CacheType is not checked. */
static inline VOID MmFreeContiguousMemorySpecifyCache(PVOID BaseAddress, SIZE_T NumberOfBytes,
                                                      MEMORY_CACHING_TYPE CacheType)
{
    (void)CacheType;
    wk_km_require_irql(DISPATCH_LEVEL, "MmFreeContiguousMemorySpecifyCache", "");
    wk_km_mem_destroy(wk_km_mem_take(BaseAddress, WK_KM_MEM_CONTIGUOUS, "KM-MEM-001", 1,
                                     NumberOfBytes, "MmFreeContiguousMemorySpecifyCache"),
                      WK_KM_POOL_FREED_FILL);
}

/* The physical address of BaseAddress: inside a contiguous block of the
 * kit's system pool, the GPU address of that byte; for any other memory the
 * address itself (see the header comment: unique and stable, but no device
 * reads through it). Windows returns the real physical address, or 0 for an
 * unmapped one. Any IRQL (facts 5.10 M9). */
static inline PHYSICAL_ADDRESS MmGetPhysicalAddress(PVOID BaseAddress)
{
    PHYSICAL_ADDRESS pa;
    PLIST_ENTRY e;
    uintptr_t at = (uintptr_t)BaseAddress;
    pa.QuadPart = (LONGLONG)at;
    wk_km_mem_lock();
    /* Newest first, as wk_km_mem_find_locked: a stale record may cover it. */
    for (e = wk_km_mem_live.wk_blocks.Blink; e != &wk_km_mem_live.wk_blocks; e = e->Blink) {
        const wk_km_mem_block *b = CONTAINING_RECORD(e, wk_km_mem_block, wk_link);
        uintptr_t base = (uintptr_t)b->wk_base;
        if (b->wk_physical && at >= base && at - base < b->wk_alloc_size) {
            pa.QuadPart = (LONGLONG)(b->wk_physical + (at - base));
            break;
        }
    }
    wk_km_mem_unlock();
    return pa;
}

/* ------------------------------------------------------------------------ */
/* I/O space mappings                                                        */
/* ------------------------------------------------------------------------ */

/* A mapping of the kit's (kmservices.h, MapIoSpace: a register window or a
 * segment's memory), recorded in *window: 1; 2 when the kit refuses the
 * range (*window NULL); 0 when the range is in no BAR of the kit's. */
static inline int wk_km_window_from_kit(PHYSICAL_ADDRESS physical, SIZE_T bytes, MEMORY_CACHING_TYPE cache,
                                        PVOID *window)
{
    void *va = NULL;
    int kit = WK_KM_SERVICE(MapIoSpace) ? wk_km_services->MapIoSpace((uint64_t)physical.QuadPart, bytes, &va) : 0;
    *window = NULL;
    if (kit != 1)
        return kit == 2 ? 2 : 0;
    if (!wk_km_mem_record(WK_KM_MEM_IO_SPACE, va, NULL, bytes,
                          ROUND_TO_PAGES(BYTE_OFFSET((uintptr_t)physical.QuadPart) + bytes), cache, 0)) {
        if (WK_KM_SERVICE(UnmapIoSpace))
            wk_km_services->UnmapIoSpace(va, bytes);
        return 2; /* out of memory for the record: as Windows out of PTEs */
    }
    *window = va;
    return 1;
}

/*
 * Maps NumberOfBytes of device memory at PhysicalAddress (facts 5.10 M4).
 * Windows returns a virtual address with the physical address's page
 * offset; so does the kit: a window onto the register model when the range
 * lies in a register BAR of the adapter, the segment's own memory when it
 * lies in a segment BAR (see the header comment), else fresh zero-filled,
 * page-aligned memory of its own, which keeps what is written (no device
 * behind it). NULL for 0 bytes, an unknown CacheType, a size above
 * WK_KM_POOL_MAX_BYTES, or a range that runs past a segment BAR or its
 * segment. Requires IRQL <= DISPATCH_LEVEL.
 */
static inline PVOID MmMapIoSpace(PHYSICAL_ADDRESS PhysicalAddress, SIZE_T NumberOfBytes,
                                 MEMORY_CACHING_TYPE CacheType)
{
    SIZE_T offset = BYTE_OFFSET((uintptr_t)PhysicalAddress.QuadPart);
    PVOID window;
    wk_km_require_irql(DISPATCH_LEVEL, "MmMapIoSpace", "");
    if (NumberOfBytes == 0 || NumberOfBytes > WK_KM_POOL_MAX_BYTES ||
        !wk_km_cache_type_ok(&CacheType))
        return NULL;
    if (wk_km_window_from_kit(PhysicalAddress, NumberOfBytes, CacheType, &window) != 0)
        return window; /* the kit's mapping, or NULL when it refused the range */
    return wk_km_mem_create(WK_KM_MEM_IO_SPACE, NumberOfBytes,
                            ROUND_TO_PAGES(offset + NumberOfBytes), PAGE_SIZE, offset, CacheType,
                            0);
}

/* MmMapIoSpace with a page protection: PAGE_READWRITE or PAGE_READONLY,
 * optionally with PAGE_NOCACHE or PAGE_WRITECOMBINE (one of them); any
 * other value gives NULL, as Windows refuses executable and other
 * protections for device memory. The kit does not enforce read-only: a
 * write through a PAGE_READONLY mapping, which faults on Windows, is kept. */
static inline PVOID MmMapIoSpaceEx(PHYSICAL_ADDRESS PhysicalAddress, SIZE_T NumberOfBytes,
                                   ULONG Protect)
{
    ULONG access = Protect & ~(PAGE_NOCACHE | PAGE_WRITECOMBINE);
    ULONG cache = Protect & (PAGE_NOCACHE | PAGE_WRITECOMBINE);
    if ((access != PAGE_READWRITE && access != PAGE_READONLY) ||
        cache == (PAGE_NOCACHE | PAGE_WRITECOMBINE))
        return NULL;
    return MmMapIoSpace(PhysicalAddress, NumberOfBytes,
                        cache == PAGE_NOCACHE        ? MmNonCached
                        : cache == PAGE_WRITECOMBINE ? MmWriteCombined
                                                     : MmCached);
}

/* Unmaps what MmMapIoSpace* returned. BaseAddress must be the address it
 * returned and NumberOfBytes the size it was given: an unknown address
 * aborts with KM-MEM-002 and another size with KM-MEM-003 (Windows
 * bug-checks or corrupts its page tables). Requires IRQL <= DISPATCH_LEVEL. */
static inline VOID MmUnmapIoSpace(PVOID BaseAddress, SIZE_T NumberOfBytes)
{
    wk_km_require_irql(DISPATCH_LEVEL, "MmUnmapIoSpace", "");
    wk_km_mem_destroy(wk_km_mem_take(BaseAddress, WK_KM_MEM_IO_SPACE, "KM-MEM-002", 1,
                                     NumberOfBytes, "MmUnmapIoSpace"),
                      WK_KM_POOL_FREED_FILL);
}

/* ------------------------------------------------------------------------ */
/* MDL mappings (added)                                                      */
/* ------------------------------------------------------------------------ */

/*
 * The MDLs a driver meets are the kit's (MmGetMdlPfnArray's pages of a
 * paging operation), and the kit maps each at most once, at one host range
 * it keeps until it frees the MDL: km.h's MmGetSystemAddressForMdlSafe
 * returns that range and sets MDL_MAPPED_TO_SYSTEM_VA. These two routines
 * keep to that model, so a driver may write the Windows sequence
 *
 *     mapped = Mdl->MdlFlags & MDL_MAPPED_TO_SYSTEM_VA;
 *     va = MmGetSystemAddressForMdlSafe(Mdl, NormalPagePriority);
 *     ... use va ...
 *     if (!mapped) MmUnmapLockedPages(va, Mdl);
 *
 * (RosKmd's paging path does) and get Windows' flags at every step, while
 * the kit's mapping itself outlives the unmap: the next
 * MmGetSystemAddressForMdlSafe returns the same address again.
 */

/*
 * Maps the MDL's pages for the kernel (AccessMode KernelMode) and returns
 * their address: the kit's mapping, as MmGetSystemAddressForMdlSafe gives
 * it, which sets MDL_MAPPED_TO_SYSTEM_VA. CacheType, RequestedAddress
 * (ignored for KernelMode on Windows too) and Priority are accepted and not
 * used. UserMode mappings (into a process) are not modelled: NULL. NULL
 * also when the kit cannot map the MDL, unless BugCheckOnFailure is set:
 * Windows bug-checks then, and the kit ends the DDI call with KM-MDL-001.
 * Requires IRQL <= DISPATCH_LEVEL (APC_LEVEL for UserMode), as Windows.
 */
static inline PVOID MmMapLockedPagesSpecifyCache(PMDL MemoryDescriptorList,
                                                 KPROCESSOR_MODE AccessMode,
                                                 MEMORY_CACHING_TYPE CacheType,
                                                 PVOID RequestedAddress, ULONG BugCheckOnFailure,
                                                 ULONG Priority)
{
    PVOID va;
    (void)CacheType;
    (void)RequestedAddress;
    wk_km_require_irql(AccessMode == KernelMode ? DISPATCH_LEVEL : APC_LEVEL,
                       "MmMapLockedPagesSpecifyCache", "");
    if (AccessMode != KernelMode)
        return NULL;
    va = MmGetSystemAddressForMdlSafe(MemoryDescriptorList, Priority);
    if (!va && BugCheckOnFailure)
        wk_km_fail("KM-MDL-001: MmMapLockedPagesSpecifyCache(%p, KernelMode, ...): the MDL "
                   "could not be mapped and BugCheckOnFailure is set (Windows bug-checks)",
                   (void *)MemoryDescriptorList);
    return va;
}

/*
 * Ends a mapping MmMapLockedPagesSpecifyCache or MmGetSystemAddressForMdlSafe
 * made: clears MDL_MAPPED_TO_SYSTEM_VA. The kit's mapping stays (the kit
 * frees it with the MDL), so the driver must not touch BaseAddress again
 * before mapping anew - which gives the same address back. BaseAddress
 * must be the MDL's mapped address and the MDL mapped; anything else
 * (another address, an MDL never mapped or already unmapped) is what
 * Windows bug-checks for, and the kit ends the DDI call with KM-MDL-001.
 * Requires IRQL <= DISPATCH_LEVEL.
 */
static inline VOID MmUnmapLockedPages(PVOID BaseAddress, PMDL MemoryDescriptorList)
{
    PVOID va = __atomic_load_n(&MemoryDescriptorList->wk_mapped_va, __ATOMIC_ACQUIRE);
    CSHORT flags = __atomic_load_n(&MemoryDescriptorList->MdlFlags, __ATOMIC_RELAXED);
    wk_km_require_irql(DISPATCH_LEVEL, "MmUnmapLockedPages", "");
    if (!(flags & MDL_MAPPED_TO_SYSTEM_VA) || !va || BaseAddress != va)
        wk_km_fail("KM-MDL-001: MmUnmapLockedPages(%p, %p): %s", BaseAddress,
                   (void *)MemoryDescriptorList,
                   !(flags & MDL_MAPPED_TO_SYSTEM_VA)
                       ? "the MDL is not mapped (never mapped, or unmapped already)"
                       : "not the address the MDL is mapped at");
    __atomic_fetch_and(&MemoryDescriptorList->MdlFlags, (CSHORT)~MDL_MAPPED_TO_SYSTEM_VA,
                       __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------------------ */
/* Register and port access                                                  */
/* ------------------------------------------------------------------------ */
/*
 * Registers: one access of the register's width, between two full barriers
 * (KeMemoryBarrier). Windows orders these accesses against all other memory
 * accesses (on x64 device memory is uncached and the macros are compiler
 * barriers; on ARM64 they add a barrier instruction); two full fences give
 * at least that ordering on every host (facts 5.10 M7).
 *
 * In a register window (MmMapIoSpace of a register BAR, see the header
 * comment) the access goes to the register model instead of memory: a
 * 32-bit one as one read32/write32 of the model, a 64-bit one as two, low
 * half first; an 8- or 16-bit read as the read32 of the aligned register
 * holding it, the bytes picked out. The model takes 32-bit registers only,
 * so an 8- or 16-bit write, or an access that is not aligned to its width,
 * ends the call as KM-API-001 (a partial write would need a read-modify-
 * write the device never sees on Windows). Anywhere else the access is a
 * plain volatile one, as before. The _BUFFER_ forms copy Count elements
 * between consecutive registers and the buffer, in order, each element one
 * access as above (Windows does a string move on x64).
 *
 * Ports: the kit has no I/O port space. A read returns all ones (what a PC
 * returns for a port no device decodes) and a write is dropped. The
 * _BUFFER_ forms repeat the access Count times on the one port, as
 * Windows' do.
 */

/* An access of the kit's register model (kmservices.h, RegisterRead and
 * RegisterWrite): 1 when reg is in a register window and the model took
 * it (*value: what a read gave), 0 when reg is ordinary memory. */
static inline int wk_km_reg_kit(volatile void *reg, uint32_t width, int write, uint64_t *value,
                                const char *api)
{
    int got;
    if (write ? !WK_KM_SERVICE(RegisterWrite) : !WK_KM_SERVICE(RegisterRead))
        return 0;
    got = write ? wk_km_services->RegisterWrite(reg, width, *value)
                : wk_km_services->RegisterRead(reg, width, value);
    if (got == 2)
        wk_km_fail("KM-API-001: %s(%p): the register model behind this window takes 32-bit registers: "
                   "aligned 32- and 64-bit accesses, aligned 8- and 16-bit reads; not this %u-bit %s",
                   api, (void *)(uintptr_t)reg, (unsigned)(width * 8), write ? "write" : "read");
    return got == 1;
}

static inline UCHAR READ_REGISTER_UCHAR(volatile UCHAR *Register)
{
    UCHAR v;
    uint64_t kit = 0;
    KeMemoryBarrier();
    if (wk_km_reg_kit(Register, sizeof(v), 0, &kit, "READ_REGISTER_UCHAR"))
        v = (UCHAR)kit;
    else
        v = *Register;
    KeMemoryBarrier();
    return v;
}

static inline USHORT READ_REGISTER_USHORT(volatile USHORT *Register)
{
    USHORT v;
    uint64_t kit = 0;
    KeMemoryBarrier();
    if (wk_km_reg_kit(Register, sizeof(v), 0, &kit, "READ_REGISTER_USHORT"))
        v = (USHORT)kit;
    else
        v = *Register;
    KeMemoryBarrier();
    return v;
}

static inline ULONG READ_REGISTER_ULONG(volatile ULONG *Register)
{
    ULONG v;
    uint64_t kit = 0;
    KeMemoryBarrier();
    if (wk_km_reg_kit(Register, sizeof(v), 0, &kit, "READ_REGISTER_ULONG"))
        v = (ULONG)kit;
    else
        v = *Register;
    KeMemoryBarrier();
    return v;
}

static inline ULONG64 READ_REGISTER_ULONG64(volatile ULONG64 *Register)
{
    ULONG64 v;
    uint64_t kit = 0;
    KeMemoryBarrier();
    if (wk_km_reg_kit(Register, sizeof(v), 0, &kit, "READ_REGISTER_ULONG64"))
        v = (ULONG64)kit;
    else
        v = *Register;
    KeMemoryBarrier();
    return v;
}

static inline VOID WRITE_REGISTER_UCHAR(volatile UCHAR *Register, UCHAR Value)
{
    uint64_t kit = Value;
    KeMemoryBarrier();
    if (!wk_km_reg_kit(Register, sizeof(Value), 1, &kit, "WRITE_REGISTER_UCHAR"))
        *Register = Value;
    KeMemoryBarrier();
}

static inline VOID WRITE_REGISTER_USHORT(volatile USHORT *Register, USHORT Value)
{
    uint64_t kit = Value;
    KeMemoryBarrier();
    if (!wk_km_reg_kit(Register, sizeof(Value), 1, &kit, "WRITE_REGISTER_USHORT"))
        *Register = Value;
    KeMemoryBarrier();
}

static inline VOID WRITE_REGISTER_ULONG(volatile ULONG *Register, ULONG Value)
{
    uint64_t kit = Value;
    KeMemoryBarrier();
    if (!wk_km_reg_kit(Register, sizeof(Value), 1, &kit, "WRITE_REGISTER_ULONG"))
        *Register = Value;
    KeMemoryBarrier();
}

static inline VOID WRITE_REGISTER_ULONG64(volatile ULONG64 *Register, ULONG64 Value)
{
    uint64_t kit = Value;
    KeMemoryBarrier();
    if (!wk_km_reg_kit(Register, sizeof(Value), 1, &kit, "WRITE_REGISTER_ULONG64"))
        *Register = Value;
    KeMemoryBarrier();
}

static inline VOID READ_REGISTER_BUFFER_UCHAR(volatile UCHAR *Register, UCHAR *Buffer, ULONG Count)
{
    ULONG i;
    for (i = 0; i < Count; i++)
        Buffer[i] = READ_REGISTER_UCHAR(&Register[i]);
}

static inline VOID READ_REGISTER_BUFFER_USHORT(volatile USHORT *Register, USHORT *Buffer, ULONG Count)
{
    ULONG i;
    for (i = 0; i < Count; i++)
        Buffer[i] = READ_REGISTER_USHORT(&Register[i]);
}

static inline VOID READ_REGISTER_BUFFER_ULONG(volatile ULONG *Register, ULONG *Buffer, ULONG Count)
{
    ULONG i;
    for (i = 0; i < Count; i++)
        Buffer[i] = READ_REGISTER_ULONG(&Register[i]);
}

static inline VOID READ_REGISTER_BUFFER_ULONG64(volatile ULONG64 *Register, ULONG64 *Buffer, ULONG Count)
{
    ULONG i;
    for (i = 0; i < Count; i++)
        Buffer[i] = READ_REGISTER_ULONG64(&Register[i]);
}

static inline VOID WRITE_REGISTER_BUFFER_UCHAR(volatile UCHAR *Register, const UCHAR *Buffer, ULONG Count)
{
    ULONG i;
    for (i = 0; i < Count; i++)
        WRITE_REGISTER_UCHAR(&Register[i], Buffer[i]);
}

static inline VOID WRITE_REGISTER_BUFFER_USHORT(volatile USHORT *Register, const USHORT *Buffer, ULONG Count)
{
    ULONG i;
    for (i = 0; i < Count; i++)
        WRITE_REGISTER_USHORT(&Register[i], Buffer[i]);
}

static inline VOID WRITE_REGISTER_BUFFER_ULONG(volatile ULONG *Register, const ULONG *Buffer, ULONG Count)
{
    ULONG i;
    for (i = 0; i < Count; i++)
        WRITE_REGISTER_ULONG(&Register[i], Buffer[i]);
}

static inline VOID WRITE_REGISTER_BUFFER_ULONG64(volatile ULONG64 *Register, const ULONG64 *Buffer, ULONG Count)
{
    ULONG i;
    for (i = 0; i < Count; i++)
        WRITE_REGISTER_ULONG64(&Register[i], Buffer[i]);
}

static inline UCHAR READ_PORT_UCHAR(PUCHAR Port)
{
    (void)Port;
    return 0xFFu;
}

static inline USHORT READ_PORT_USHORT(PUSHORT Port)
{
    (void)Port;
    return 0xFFFFu;
}

static inline ULONG READ_PORT_ULONG(PULONG Port)
{
    (void)Port;
    return 0xFFFFFFFFu;
}

static inline VOID WRITE_PORT_UCHAR(PUCHAR Port, UCHAR Value)
{
    (void)Port;
    (void)Value;
}

static inline VOID WRITE_PORT_USHORT(PUSHORT Port, USHORT Value)
{
    (void)Port;
    (void)Value;
}

static inline VOID WRITE_PORT_ULONG(PULONG Port, ULONG Value)
{
    (void)Port;
    (void)Value;
}

static inline VOID READ_PORT_BUFFER_UCHAR(PUCHAR Port, PUCHAR Buffer, ULONG Count)
{
    (void)Port;
    if (Count)
        memset(Buffer, 0xFF, Count);
}

static inline VOID READ_PORT_BUFFER_USHORT(PUSHORT Port, PUSHORT Buffer, ULONG Count)
{
    (void)Port;
    if (Count)
        memset(Buffer, 0xFF, (size_t)Count * sizeof *Buffer);
}

static inline VOID READ_PORT_BUFFER_ULONG(PULONG Port, PULONG Buffer, ULONG Count)
{
    (void)Port;
    if (Count)
        memset(Buffer, 0xFF, (size_t)Count * sizeof *Buffer);
}

static inline VOID WRITE_PORT_BUFFER_UCHAR(PUCHAR Port, const UCHAR *Buffer, ULONG Count)
{
    (void)Port;
    (void)Buffer;
    (void)Count;
}

static inline VOID WRITE_PORT_BUFFER_USHORT(PUSHORT Port, const USHORT *Buffer, ULONG Count)
{
    (void)Port;
    (void)Buffer;
    (void)Count;
}

static inline VOID WRITE_PORT_BUFFER_ULONG(PULONG Port, const ULONG *Buffer, ULONG Count)
{
    (void)Port;
    (void)Buffer;
    (void)Count;
}

#ifdef __cplusplus
}
#endif

#endif /* WDDMKIT_KMMEMORY_H */
