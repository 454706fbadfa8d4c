/* SPDX-License-Identifier: MIT */
/*
 * leak_gate.c - whether an input leaked (leak_gate.h says why and when).
 *
 * The allocation hooks (compiler-rt's __sanitizer_install_malloc_and_free_
 * hooks) see every allocation of the process; only the harness thread's,
 * between begin and end, are counted. Blocks the input allocated and did
 * not free are kept in an open-addressing table (address, size), so that at
 * the end each survivor can be asked whether it is a driver's pool block:
 * include/wddmkit/km.h puts a header in front of every block, whose magic
 * says "live, non-paged" or "live, paged". A survivor is read only while
 * it is live (it is, having not been freed).
 */
#include "leak_gate.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "wddmkit/km.h"

/* Weak: present with a sanitizer runtime, NULL otherwise. */
int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void *, size_t),
                                              void (*free_hook)(const volatile void *)) __attribute__((weak));
int __lsan_do_recoverable_leak_check(void) __attribute__((weak));

#define SLOTS (1u << 16) /* live survivors followed; more: suspect */
#define TOMBSTONE ((uintptr_t)1)

/* A block's address is kept complemented: in plain form the table itself
 * would be a reference to every block it follows, and LeakSanitizer, which
 * scans this file's globals, would never call one leaked. */
#define HIDE(p) (~(uintptr_t)(p))

struct slot {
    uintptr_t key; /* HIDE(block); 0 empty, TOMBSTONE removed */
    size_t size;
};

#define TOUCHED 8192u  /* slots written by one input, cleared by the next begin */

static struct slot table[SLOTS];
static uint32_t touched[TOUCHED], touched_count;
static uint64_t mallocs, frees, live;
static int overflowed, touched_overflowed, installed;
static _Thread_local int armed;

static uint32_t home(uintptr_t p)
{
    uint64_t h = (uint64_t)p * 0x9E3779B97F4A7C15ull;
    return (uint32_t)(h >> 48) & (SLOTS - 1);
}

static void on_malloc(const volatile void *ptr, size_t size)
{
    if (!armed || !ptr)
        return;
    mallocs++;
    if (live >= SLOTS / 2) { /* keeps probes short; the input is suspect anyway */
        overflowed = 1;
        return;
    }
    for (uint32_t i = home((uintptr_t)ptr);; i = (i + 1) & (SLOTS - 1)) {
        if (table[i].key == 0 || table[i].key == TOMBSTONE) {
            /* A removed slot was written by this input, so listed already:
             * each slot is listed once. */
            if (table[i].key == 0 && touched_count < TOUCHED)
                touched[touched_count++] = i;
            else if (table[i].key == 0)
                touched_overflowed = 1;
            table[i].key = HIDE(ptr);
            table[i].size = size;
            live++;
            return;
        }
    }
}

static void on_free(const volatile void *ptr)
{
    if (!armed || !ptr)
        return;
    frees++;
    for (uint32_t i = home((uintptr_t)ptr), n = 0; n < SLOTS && table[i].key != 0; i = (i + 1) & (SLOTS - 1), n++) {
        if (table[i].key == HIDE(ptr)) {
            table[i].key = TOMBSTONE;
            live--;
            return;
        }
    }
    /* a block from before the input */
}

int wk_leak_gate_available(void)
{
    return __sanitizer_install_malloc_and_free_hooks && __lsan_do_recoverable_leak_check;
}

void wk_leak_gate_begin(void)
{
    if (!wk_leak_gate_available())
        return;
    if (!installed)
        installed = __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free) != 0;
    if (touched_overflowed) {
        memset(table, 0, sizeof(table));
    } else {
        for (uint32_t i = 0; i < touched_count; i++)
            table[touched[i]].key = 0;
    }
    touched_count = 0;
    mallocs = frees = live = 0;
    overflowed = touched_overflowed = 0;
    armed = installed;
}

/* A block of a driver's pool: its km.h header sits in front of what the
 * driver got, which starts right after it. */
static int is_pool_block(const struct slot *s)
{
    wk_km_pool_header h;
    if (s->size < sizeof(h))
        return 0;
    memcpy(&h, (const void *)HIDE(s->key), sizeof(h));
    return (h.wk_magic == WK_KM_POOL_NONPAGED || h.wk_magic == WK_KM_POOL_PAGED) && h.wk_size == s->size - sizeof(h);
}

int wk_leak_gate_suspect(void)
{
    if (!armed)
        return 0;
    armed = 0;
    if (overflowed)
        return 1;
    /* The survivors are among the slots the input wrote: only those are
     * read (the whole table, 1 MiB, when there were too many to list). */
    uint64_t pool = 0;
    uint32_t n = touched_overflowed ? SLOTS : touched_count;
    for (uint32_t k = 0; k < n; k++) {
        const struct slot *e = &table[touched_overflowed ? k : touched[k]];
        if (e->key > TOMBSTONE && is_pool_block(e))
            pool++;
    }
    return mallocs > frees + pool;
}

/* Not instrumented, so that the area is on the thread's stack even with
 * ASan's fake stacks. */
__attribute__((noinline, no_sanitize("address"))) void wk_leak_gate_wipe_dead_frames(void)
{
    char area[256 * 1024];
    memset(area, 0, sizeof(area));
    __asm__ volatile("" : : "r"(area) : "memory"); /* the stores stay */
}

int wk_leak_gate_check(void)
{
    return __lsan_do_recoverable_leak_check && __lsan_do_recoverable_leak_check() != 0;
}
