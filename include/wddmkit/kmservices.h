/* SPDX-License-Identifier: MIT */
/*
 * wddmkit/kmservices.h - how km.h, which is header only, reaches the kit.
 *
 * Most of km.h needs nothing but the C library. These need the kit:
 *
 *   - a misuse km.h detects (a wrong pool tag, a lock taken twice, a failed
 *     NT_ASSERT) ends the DDI call as a named rule of the verdict, with the
 *     line km.h printed, instead of ending the process: Fail;
 *   - pool blocks are counted by tag, so that blocks still allocated when
 *     the adapter is torn down are reported (POOL-LEAK-001): PoolAllocated
 *     and PoolFreed; and an allocation a case makes fail returns NULL:
 *     PoolRefused;
 *   - a DPC object (KeInsertQueueDpc) runs at the kit's DPC point, after
 *     the interrupt routine and DxgkDdiDpcRoutine, as on Windows where DPCs
 *     run once the interrupt is dismissed: QueueDpc and DequeueDpc;
 *   - a registry read under the driver's service key is answered from the
 *     case's `registry:` map: QueryRegistry;
 *   - system threads are counted, so one still running after the teardown
 *     is reported (THREAD-LEAK-001): ThreadStarted and ThreadEnded;
 *   - a system thread that crashes is named in the report by its
 *     StartRoutine and the DDI that created it, not by the DDI the kit's
 *     own thread happened to be in: ThreadRuns;
 *   - MmMapIoSpace of a register BAR the adapter's TranslatedResourceList
 *     lists gives a window whose READ_REGISTER_* and WRITE_REGISTER_* reach
 *     the register model (the kit's GPU or a binding's): MapIoSpace,
 *     UnmapIoSpace, RegisterRead and RegisterWrite;
 *   - MmAllocateContiguousMemory inside a DDI gives pages of the adapter's
 *     system pool, whose MmGetPhysicalAddress is the address the GPU reads
 *     them at: AllocateContiguous and FreeContiguous;
 *   - I/O space mappings and contiguous blocks are counted by kind, size
 *     and the DDI that made them, whichever way kmmemory.h made them (the
 *     kit's window or pool, or plain memory of its own), so that one still
 *     live when the adapter is torn down is reported (MEM-LEAK-001):
 *     MemoryRecorded and MemoryReleased.
 *
 * The way in: the kit fills a WK_KM_SERVICES and points its DRIVER_OBJECT
 * at it; DxgkInitialize (driver.h) copies that pointer into wk_km_services
 * below, one weak hidden variable every translation unit of the module
 * shares (C or C++), and sets the calling thread's modelled IRQL back to
 * PASSIVE_LEVEL (a DDI that the kit ended mid-way may have left it raised).
 * A module the kit loads gets the pointer earlier still, before DriverEntry,
 * through wk_km_set_services below.
 * Until DxgkInitialize runs, and in a program with no kit (a unit test of
 * driver code), the pointer is NULL and km.h does without: a misuse prints
 * its line and aborts, nothing is counted, a DPC runs at once, the registry
 * has no keys, an I/O space mapping and contiguous memory are plain memory.
 *
 * The table grows only at its end; Size says how much of it the kit that
 * filled it has, and km.h calls no member past it.
 */
#ifndef WDDMKIT_KMSERVICES_H
#define WDDMKIT_KMSERVICES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct _WK_KM_SERVICES {
    uint32_t Size;     /* sizeof the kit's table */
    uint32_t Reserved; /* 0 */
    /* Ends the DDI call running on this thread as a violation of the rule
     * `line` starts with ("KM-POOL-001: ...", "NT_ASSERT failed: ..."), and
     * never returns then. Returns when no DDI call of the kit's is running
     * on this thread (a thread of the driver's own): km.h then aborts. */
    void (*Fail)(const char *line);
    /* A pool block of `bytes` with `tag` was allocated: returns the owner
     * to pass back to PoolFreed, 0 when the block is not counted (no DDI
     * call running on this thread). */
    uint64_t (*PoolAllocated)(uint32_t tag, size_t bytes);
    /* The block PoolAllocated answered `owner` for was freed, from any
     * thread (0: nothing to do). */
    void (*PoolFreed)(uint64_t owner, uint32_t tag, size_t bytes);
    /* Queues `dpc` to run at the kit's next DPC point: the kit calls
     * run(dpc), on a thread of its own choosing, inside a DDI frame. Returns
     * 0 when no DDI call of the kit's is running on this thread (km.h then
     * runs the DPC at once). */
    int (*QueueDpc)(void *dpc, void (*run)(void *dpc));
    /* Takes `dpc` off the kit's queue (KeRemoveQueueDpc: the driver may
     * free it next). */
    void (*DequeueDpc)(void *dpc);
    /* A registry read: the value `name` (NULL: none, the question is then
     * whether the key exists) of the key at the absolute path `key`, both
     * UTF-16 with their lengths in characters. Returns 1 when it exists,
     * with *type, *size (bytes) and the first min(*size, cap) bytes copied
     * to data; 0 when not. */
    int (*QueryRegistry)(const uint16_t *key, size_t key_chars, const uint16_t *name, size_t name_chars,
                         uint32_t *type, void *data, uint32_t cap, uint32_t *size);
    /* A system thread (PsCreateSystemThread) started: returns the owner to
     * pass back when it ends, 0 when it is not counted (no DDI call running
     * on this thread). The kit reports a thread still running after the
     * driver's teardown (THREAD-LEAK-001). */
    uint64_t (*ThreadStarted)(void);
    void (*ThreadEnded)(uint64_t owner);
    /* Called on a new system thread before its StartRoutine runs, with the
     * owner ThreadStarted answered (0 too) and the routine: the kit marks
     * the thread, so that a crash on it names the thread. */
    void (*ThreadRuns)(uint64_t owner, void (*routine)(void *context));
    /* Device registers (kmmemory.h; docs/writing-a-driver.md, "Registers
     * and resources"). MapIoSpace: when [physical, physical + bytes) lies in
     * a register BAR of the adapter whose DDI runs on this thread, returns 1
     * and the address of `physical` in a window of the kit's (inaccessible
     * to plain loads and stores); in a segment BAR (the CPU view of a memory
     * segment), 1 and the address of that byte of the segment's own memory;
     * 2 when the range starts in a segment BAR but runs past it or past its
     * segment (km.h then returns NULL); 0 otherwise (km.h then maps memory of
     * its own, as without a kit). UnmapIoSpace ends a window or a segment
     * mapping (va as returned). */
    int (*MapIoSpace)(uint64_t physical, size_t bytes, void **va);
    void (*UnmapIoSpace)(void *va, size_t bytes);
    /* A register access of `width` bytes (1, 2, 4 or 8) at reg, from any
     * thread: 0 when reg is in no window (km.h then accesses the memory
     * itself), 1 when the register model answered (*value for a read), 2
     * when the model cannot take this access (km.h names the misuse). */
    int (*RegisterRead)(const volatile void *reg, uint32_t width, uint64_t *value);
    int (*RegisterWrite)(volatile void *reg, uint32_t width, uint64_t value);
    /* Physically contiguous memory a device can reach: inside a DDI of an
     * adapter whose GPU reads system memory, `bytes` rounded to pages of the
     * adapter's system pool with every page address in [lowest, highest] and
     * no `boundary` multiple crossed (0: none): returns 1, the host address
     * at *va and the first page's GPU address at *physical; 2 when the pool
     * cannot satisfy it (km.h returns NULL, as Windows); 0 when the kit does
     * not take the request (km.h allocates memory of its own).
     * FreeContiguous gives the pages back (va as returned). */
    int (*AllocateContiguous)(size_t bytes, uint64_t lowest, uint64_t highest, uint64_t boundary, void **va,
                              uint64_t *physical);
    void (*FreeContiguous)(void *va);
    /* An I/O space mapping (kind WK_KM_MEMORY_IO_SPACE) or a contiguous
     * block (WK_KM_MEMORY_CONTIGUOUS) of `bytes` (the size the driver asked
     * for) became live, by whichever path kmmemory.h took: returns the
     * owner to pass back to MemoryReleased, 0 when it is not counted (no
     * DDI call running on this thread). The kit reports one still live
     * after the driver's teardown (MEM-LEAK-001). */
    uint64_t (*MemoryRecorded)(uint32_t kind, size_t bytes);
    /* The mapping or block MemoryRecorded answered `owner` for was
     * unmapped or freed, from any thread (0: nothing to do). */
    void (*MemoryReleased)(uint64_t owner, uint32_t kind, size_t bytes);
    /* Whether the pool allocation about to be made (a block of `bytes`
     * tagged `tag`, by a caller that takes NULL for an answer) is refused:
     * 1 when the case injects a failure there, and km.h returns NULL as
     * Windows does when pool runs out. */
    int (*PoolRefused)(uint32_t tag, size_t bytes);
} WK_KM_SERVICES;

/* The kinds of MemoryRecorded and MemoryReleased. */
#define WK_KM_MEMORY_IO_SPACE 1u   /* MmMapIoSpace[Ex] */
#define WK_KM_MEMORY_CONTIGUOUS 2u /* MmAllocateContiguousMemory[SpecifyCache] */

/* The services of the kit that loaded this module (NULL before
 * DxgkInitialize and without a kit); weak so every translation unit of the
 * module shares one, hidden so a module and the kit never see each other's. */
extern const WK_KM_SERVICES *wk_km_services;
__attribute__((weak, visibility("hidden"))) const WK_KM_SERVICES *wk_km_services = NULL;

/* The calling thread's modelled IRQL (km.h, "IRQL"), here so that
 * DxgkInitialize can reset it without including km.h. */
extern __thread unsigned char wk_km_thread_irql;
__attribute__((weak, visibility("hidden"))) __thread unsigned char wk_km_thread_irql = 0;

/* How a loaded module gets the services before its DriverEntry runs (a
 * driver may read the registry there, before DxgkInitialize): the kit looks
 * this function up in the module it loaded and calls it first. Protected,
 * so the module exports it and its own definition is the one found and
 * called, never another module's or the program's. A driver linked into
 * the program itself gets the services at DxgkInitialize. */
void wk_km_set_services(const WK_KM_SERVICES *services);
#ifndef WK_KM_NO_SET_SERVICES
/* A static library of driver code that a module links with
 * -Wl,--exclude-libs is built with WK_KM_NO_SET_SERVICES defined: the
 * linker gives a symbol the most hidden visibility of its definitions, so
 * the library's copy would hide the module's. */
__attribute__((weak, visibility("protected"))) void wk_km_set_services(const WK_KM_SERVICES *services)
{
    wk_km_services = services;
    wk_km_thread_irql = 0;
}
#endif

/* How the kit calls a DDI at the IRQL Windows calls it at (DxgkDdiSubmitCommand
 * and DxgkDdiDpcRoutine at DISPATCH_LEVEL, DxgkDdiInterruptRoutine at a
 * device IRQL): it sets the calling thread's modelled IRQL around the call
 * through this function of a module it loaded, and gets the old value
 * back. Exported and protected, as wk_km_set_services. */
unsigned char wk_km_set_irql(unsigned char irql);
#ifndef WK_KM_NO_SET_SERVICES
__attribute__((weak, visibility("protected"))) unsigned char wk_km_set_irql(unsigned char irql)
{
    unsigned char old = wk_km_thread_irql;
    wk_km_thread_irql = irql;
    return old;
}
#endif

/* The services table member `m` exists in the kit's table. */
#define WK_KM_SERVICE(m)                                                                        \
    (wk_km_services && wk_km_services->Size >= offsetof(WK_KM_SERVICES, m) + sizeof(void (*)(void)) && \
     wk_km_services->m)

#ifdef __cplusplus
}
#endif

#endif /* WDDMKIT_KMSERVICES_H */
