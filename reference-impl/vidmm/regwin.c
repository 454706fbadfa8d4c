/* SPDX-License-Identifier: MIT */
/*
 * regwin.c - register windows: what MmMapIoSpace of a register BAR gives a
 * driver (kmservices.h MapIoSpace, UnmapIoSpace, RegisterRead,
 * RegisterWrite; facts 5.10 M4, M7).
 *
 * A window is an inaccessible (PROT_NONE) mapping made once, at map time,
 * as long as the range mapped. READ_REGISTER_* and WRITE_REGISTER_* on an
 * address in it come here and reach the register model through
 * bars_read32/bars_write32; a plain load or store faults at once, and the
 * report says which register was touched without its accessor. No
 * protection changes per access: an access costs a lookup in the table of
 * live windows, which is what a register access may cost.
 *
 * The table is process-wide, because a driver's own system thread reaches
 * its registers too, outside any DDI frame: a window names its adapter by
 * km_serial, so an access after the adapter is gone reads all ones (no
 * device decodes it) and a write is dropped.
 *
 * A range in a segment BAR (the CPU view of a memory segment, facts 5.5 G6)
 * is not a register window: it is memory, and the driver reads and writes
 * it with plain loads and stores (or READ_REGISTER_*, which then access it
 * themselves). MapIoSpace gives the model's own mapping of the segment's
 * bytes there (wk_gpu_segment_map, BAR offset = segment offset), kept in
 * the same table so that UnmapIoSpace and the adapter's end undo it; a
 * range that starts in the BAR but runs past it, or past the segment
 * behind it, is refused (2: MmMapIoSpace returns NULL). Windows would map
 * whatever the bus has there; no device memory answers, and the plain
 * memory km.h would give instead is exactly the silent second copy this
 * exists to prevent.
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>

#include "internal.h"

#define PAGE 4096ull
#define MAX_WINDOWS 256u

struct window {
    uint8_t *map;           /* NULL: the slot is free */
    uint64_t map_len;
    uint64_t serial;        /* the adapter's km_serial */
    struct wk_vidmm *vm;    /* for regwin_forget and the fault report only */
    uint32_t bar;
    uint64_t bar_offset;    /* the BAR offset of map[0] */
    void *segment_va;       /* a segment BAR's: what wk_gpu_segment_map returned; NULL: registers */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct window windows[MAX_WINDOWS];

/*
 * Unmapped register windows' reservations, kept for the next window of the
 * same length: a driver maps its registers at StartDevice and unmaps them
 * at StopDevice, and a fuzz harness with a driver module rebuilds its
 * adapter for every other paging-buffer size, so each rebuild cost an mmap
 * and a munmap (bench/fuzz_speed --floor, the Heron miniport: half its
 * mapping changes). A reservation is PROT_NONE for its whole life, so a
 * parked one is exactly as inaccessible as an unmapped range, and a stale
 * pointer into it faults as it did (the kernel usually handed the same
 * range to the next mmap anyway). Its own lock, taken after `lock` when
 * both are (regwin_forget).
 */
#define PARKED_RESERVATIONS 8u
static pthread_mutex_t parked_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    uint8_t *map;
    uint64_t map_len;
} parked[PARKED_RESERVATIONS];

static void *reservation_take(uint64_t map_len)
{
    void *m = NULL;
    pthread_mutex_lock(&parked_lock);
    for (uint32_t i = 0; i < PARKED_RESERVATIONS && !m; i++)
        if (parked[i].map && parked[i].map_len == map_len) {
            m = parked[i].map;
            parked[i].map = NULL;
        }
    pthread_mutex_unlock(&parked_lock);
    if (!m)
        m = mmap(NULL, map_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return m == MAP_FAILED ? NULL : m;
}

static void reservation_put(uint8_t *map, uint64_t map_len)
{
    int kept = 0;
    pthread_mutex_lock(&parked_lock);
    for (uint32_t i = 0; i < PARKED_RESERVATIONS && !kept; i++)
        if (!parked[i].map) {
            parked[i].map = map;
            parked[i].map_len = map_len;
            kept = 1;
        }
    pthread_mutex_unlock(&parked_lock);
    if (!kept)
        munmap(map, map_len);
}
static uint32_t live; /* windows in the table: 0 makes every access a plain one at once */

/* The window holding addr, copied (under the lock); 0 when none. */
static int window_of(const volatile void *addr, struct window *out)
{
    if (!__atomic_load_n(&live, __ATOMIC_ACQUIRE))
        return 0;
    const uint8_t *a = (const uint8_t *)(uintptr_t)addr;
    int found = 0;
    pthread_mutex_lock(&lock);
    for (uint32_t i = 0; i < MAX_WINDOWS && !found; i++)
        if (windows[i].map && !windows[i].segment_va && a >= windows[i].map &&
            (uint64_t)(a - windows[i].map) < windows[i].map_len) {
            *out = windows[i];
            found = 1;
        }
    pthread_mutex_unlock(&lock);
    return found;
}

static int keep(const struct window *w)
{
    int kept = 0;
    pthread_mutex_lock(&lock);
    for (uint32_t i = 0; i < MAX_WINDOWS && !kept; i++)
        if (!windows[i].map) {
            windows[i] = *w;
            __atomic_add_fetch(&live, 1, __ATOMIC_RELEASE);
            kept = 1;
        }
    pthread_mutex_unlock(&lock);
    return kept;
}

/* MapIoSpace in a segment BAR: the segment's bytes, as a window of the
 * table (1), or refused (2). */
static int map_segment(struct wk_vidmm *vm, uint32_t bar, uint64_t physical, size_t bytes, void **va)
{
    const struct wk_binding_bar *b = &bars_of(vm)->bar[bar];
    uint64_t off = physical - b->physical;
    void *seg = NULL;
    if (wk_gpu_segment_map(vm->gpu, b->segment_id, off, bytes, &seg) != WK_OK)
        return 2;
    uint64_t in_page = off & (PAGE - 1);
    struct window w = { .map = (uint8_t *)seg - in_page, .map_len = (in_page + bytes + PAGE - 1) & ~(PAGE - 1),
                        .serial = vm->km_serial, .vm = vm, .bar = bar, .bar_offset = off - in_page,
                        .segment_va = seg };
    if (!keep(&w)) {
        (void)wk_gpu_segment_unmap(vm->gpu, seg);
        return 2;
    }
    *va = seg;
    return 1;
}

int regwin_map(uint64_t physical, size_t bytes, void **va)
{
    struct wk_vidmm *vm = call_current_vm();
    uint32_t bar;
    if (!vm || !vm->km_serial)
        return 0;
    int in_segment = bars_find_segment(vm, physical, bytes, &bar);
    if (in_segment == 1)
        return map_segment(vm, bar, physical, bytes, va);
    if (in_segment == 2)
        return 2;
    if (!bars_find_registers(vm, physical, bytes, &bar))
        return 0;
    uint64_t first = physical & ~(PAGE - 1);
    struct window w = { .map_len = (physical - first + bytes + PAGE - 1) & ~(PAGE - 1), .serial = vm->km_serial,
                        .vm = vm, .bar = bar, .bar_offset = first - bars_of(vm)->bar[bar].physical };
    void *m = reservation_take(w.map_len);
    if (!m)
        return 0;
    w.map = m;
    if (!keep(&w)) {
        reservation_put(m, w.map_len);
        return 0;
    }
    *va = w.map + (physical - first);
    return 1;
}

/* Undoes a window taken out of the table: a register window is the kit's
 * own reservation; a segment's mapping is the model's. */
static void release_window(const struct window *w)
{
    if (w->segment_va)
        (void)wk_gpu_segment_unmap(w->vm->gpu, w->segment_va);
    else
        reservation_put(w->map, w->map_len);
}

void regwin_unmap(void *va, size_t bytes)
{
    (void)bytes; /* km.h checked it against the mapping's */
    struct window gone = { 0 };
    pthread_mutex_lock(&lock);
    for (uint32_t i = 0; i < MAX_WINDOWS && !gone.map; i++)
        if (windows[i].map && (uint8_t *)va >= windows[i].map &&
            (uint64_t)((uint8_t *)va - windows[i].map) < windows[i].map_len) {
            gone = windows[i];
            windows[i].map = NULL;
            __atomic_sub_fetch(&live, 1, __ATOMIC_RELEASE);
        }
    pthread_mutex_unlock(&lock);
    if (gone.map)
        release_window(&gone);
}

/* Before the model goes (km_unregister runs before wk_gpu_destroy), so a
 * segment's mapping is unmapped by the model that made it. */
void regwin_forget(struct wk_vidmm *vm)
{
    pthread_mutex_lock(&lock);
    for (uint32_t i = 0; i < MAX_WINDOWS; i++)
        if (windows[i].map && windows[i].vm == vm) {
            release_window(&windows[i]);
            windows[i].map = NULL;
            __atomic_sub_fetch(&live, 1, __ATOMIC_RELEASE);
        }
    pthread_mutex_unlock(&lock);
}

/* ------------------------------------------------------------------ */
/* Accesses                                                             */
/* ------------------------------------------------------------------ */

/* The register model takes 32-bit registers (binding.h): aligned 32- and
 * 64-bit accesses (two 32-bit ones, low first), and 8- and 16-bit reads of
 * a register's bytes. Anything else is refused (2): km.h names it. */
static int takes(uint64_t offset, uint32_t width, int write)
{
    switch (width) {
    case 4:
    case 8:
        return offset % 4 == 0;
    case 1:
    case 2:
        return !write && offset % width == 0;
    default:
        return 0;
    }
}

int regwin_read(const volatile void *reg, uint32_t width, uint64_t *value)
{
    struct window w;
    if (!window_of(reg, &w))
        return 0;
    uint64_t offset = w.bar_offset + (uint64_t)((const uint8_t *)(uintptr_t)reg - w.map);
    if (!takes(offset, width, 0))
        return 2;
    struct wk_vidmm *vm = km_live_adapter(w.serial);
    if (!vm) {
        *value = width == 8 ? UINT64_MAX : (1ull << (8 * width)) - 1; /* no device decodes it now */
        return 1;
    }
    if (width == 8) {
        uint64_t low = bars_read32(vm, w.bar, offset);
        *value = low | (uint64_t)bars_read32(vm, w.bar, offset + 4) << 32;
    } else {
        uint32_t word = bars_read32(vm, w.bar, offset & ~3ull);
        *value = width == 4 ? word : (word >> (8 * (offset & 3))) & ((1u << (8 * width)) - 1);
    }
    return 1;
}

int regwin_write(volatile void *reg, uint32_t width, uint64_t value)
{
    struct window w;
    if (!window_of(reg, &w))
        return 0;
    uint64_t offset = w.bar_offset + (uint64_t)((uint8_t *)(uintptr_t)reg - w.map);
    if (!takes(offset, width, 1))
        return 2;
    struct wk_vidmm *vm = km_live_adapter(w.serial);
    if (!vm)
        return 1; /* dropped */
    bars_write32(vm, w.bar, offset, (uint32_t)value);
    if (width == 8)
        bars_write32(vm, w.bar, offset + 4, (uint32_t)(value >> 32));
    return 1;
}

/* ------------------------------------------------------------------ */
/* A plain access that faulted                                          */
/* ------------------------------------------------------------------ */

const char *regwin_describe_fault(struct wk_vidmm *vm, const void *addr, int write, char *buf, size_t size)
{
    struct window w;
    /* After a crash the lock may be taken by no one but this thread's own
     * interrupted access, which never faults inside it: a failed trylock
     * only means another thread is mapping. */
    if (!__atomic_load_n(&live, __ATOMIC_ACQUIRE) || pthread_mutex_trylock(&lock) != 0)
        return NULL;
    int found = 0;
    for (uint32_t i = 0; i < MAX_WINDOWS && !found; i++)
        if (windows[i].map && !windows[i].segment_va && windows[i].vm == vm && (const uint8_t *)addr >= windows[i].map &&
            (uint64_t)((const uint8_t *)addr - windows[i].map) < windows[i].map_len) {
            w = windows[i];
            found = 1;
        }
    pthread_mutex_unlock(&lock);
    if (!found)
        return NULL;
    uint64_t offset = w.bar_offset + (uint64_t)((const uint8_t *)addr - w.map);
    snprintf(buf, size,
             "%s the register window of BAR%u at +0x%llx without %s: a device register is reached only "
             "through the register accessors (facts 5.10 M7), and the kit's window faults on a plain access",
             write == 1 ? "wrote" : write == 0 ? "read" : "accessed", (unsigned)w.bar, (unsigned long long)offset,
             write == 1 ? "WRITE_REGISTER_ULONG" : write == 0 ? "READ_REGISTER_ULONG" : "READ/WRITE_REGISTER_ULONG");
    return buf;
}
