/* SPDX-License-Identifier: MIT */
/*
 * km_services.c - the kit's side of include/wddmkit/kmservices.h: what
 * km.h, header only inside the driver's module, asks of the kit.
 *
 *   Fail        a misuse km.h detected, or a failed NT_ASSERT, ends the DDI
 *               call running on this thread as the rule its line names
 *               (call.c unwinds the frame; the adapter is then dead, as
 *               after a crash: the driver stopped half-way);
 *   PoolAllocated / PoolFreed
 *               pool blocks counted by tag per adapter, so that what is
 *               left after the teardown is reported (POOL-LEAK-001);
 *   QueueDpc / DequeueDpc
 *               KDPC objects queued to run at the adapter's DPC point;
 *   QueryRegistry
 *               registry reads under the driver's service key, answered
 *               from the adapter's registry map (a case's `registry:`);
 *   ThreadStarted / ThreadEnded
 *               system threads counted per adapter (THREAD-LEAK-001);
 *   ThreadRuns  a new system thread marked with its StartRoutine and the
 *               DDI that created it, for a report of its crash
 *               (crash_slot.c);
 *   MapIoSpace / UnmapIoSpace / RegisterRead / RegisterWrite
 *               register windows onto the adapter's register model
 *               (regwin.c, bars.c);
 *   AllocateContiguous / FreeContiguous
 *               contiguous memory of the adapter's system pool
 *               (contiguous.c);
 *   MemoryRecorded / MemoryReleased
 *               I/O space mappings and contiguous blocks, whoever made
 *               their memory (the two above or kmmemory.h itself), counted
 *               per adapter by kind, DDI and size, so that what is left
 *               after the teardown is reported (MEM-LEAK-001).
 *
 * Pool blocks and DPCs may be freed or dequeued from a thread of the
 * driver's own, where no DDI frame names the adapter: the owner a block
 * carries is the adapter's serial number, looked up among the live
 * adapters under one lock. A block whose adapter is gone is not counted.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "internal.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct wk_vidmm *live[MAX_LIVE_ADAPTERS];
static uint64_t next_serial = 1;

void km_register(struct wk_vidmm *vm)
{
    pthread_mutex_lock(&lock);
    vm->km_serial = 0; /* not counted when every slot is taken */
    for (uint32_t i = 0; i < MAX_LIVE_ADAPTERS; i++)
        if (!live[i]) {
            live[i] = vm;
            vm->km_serial = next_serial++;
            break;
        }
    pthread_mutex_unlock(&lock);
}

void km_unregister(struct wk_vidmm *vm)
{
    pthread_mutex_lock(&lock);
    for (uint32_t i = 0; i < MAX_LIVE_ADAPTERS; i++)
        if (live[i] == vm)
            live[i] = NULL;
    pthread_mutex_unlock(&lock);
    regwin_forget(vm);
    contiguous_forget(vm);
}

/* The live adapter of a serial number (under the lock). */
static struct wk_vidmm *adapter_of(uint64_t serial)
{
    for (uint32_t i = 0; serial && i < MAX_LIVE_ADAPTERS; i++)
        if (live[i] && live[i]->km_serial == serial)
            return live[i];
    return NULL;
}

struct wk_vidmm *km_live_adapter(uint64_t serial)
{
    pthread_mutex_lock(&lock);
    struct wk_vidmm *vm = adapter_of(serial);
    pthread_mutex_unlock(&lock);
    return vm;
}

unsigned char km_irql_enter(struct wk_vidmm *vm, unsigned char irql)
{
    return vm->set_irql ? vm->set_irql(irql) : 0;
}

void km_irql_leave(struct wk_vidmm *vm, unsigned char old)
{
    if (vm->set_irql)
        (void)vm->set_irql(old);
}

/* ------------------------------------------------------------------ */
/* Fail                                                                 */
/* ------------------------------------------------------------------ */

/* The rules km.h's lines may name; any other KM-* line is KM-API-001. */
static const enum wk_rule_id km_rules[] = {
    R_KM_POOL_TAG,   R_KM_POOL_LIVE,  R_KM_POOL_NULL, R_KM_POOL_RAISE, R_KM_IRQL_RAISE,
    R_KM_IRQL_LOWER, R_KM_IRQL_MAX,   R_KM_IRQL_DPC,  R_KM_LOCK_TWICE, R_KM_LOCK_UNHELD,
    R_KM_MUTEX_OWNER, R_KM_MUTEX_INIT, R_KM_LIST,     R_KM_EVENT,      R_KM_DPC,
    R_KM_BUGCHECK,   R_KM_MDL,
};

/* The rule a km.h line names: its "KM-AREA-NNN:" prefix, DRV-ASSERT-001
 * for a failed assertion ("NT_ASSERT failed: ..."), KM-API-001 else. */
enum wk_rule_id km_rule_of_line(const char *line)
{
    static const char *const assertions[] = { "NT_ASSERT failed:", "NT_VERIFY failed:", "ASSERT failed:" };
    for (size_t i = 0; i < sizeof(assertions) / sizeof(assertions[0]); i++)
        if (strncmp(line, assertions[i], strlen(assertions[i])) == 0)
            return R_DRV_ASSERT;
    const char *colon = strchr(line, ':');
    size_t n = colon ? (size_t)(colon - line) : 0;
    for (size_t i = 0; i < sizeof(km_rules) / sizeof(km_rules[0]); i++) {
        const char *id = rule_id(km_rules[i]);
        if (n == strlen(id) && strncmp(line, id, n) == 0)
            return km_rules[i];
    }
    return R_KM_API;
}

static void service_fail(const char *line)
{
    FLOOR_CALLBACK(); /* the kit's work, not the driver's: out of the floor (floor.c) */
    call_end_with_km_failure(line ? line : "KM-API-001: (no line)");
}

/* ------------------------------------------------------------------ */
/* Pool accounting                                                      */
/* ------------------------------------------------------------------ */

/* The owner word: the adapter's serial, the DDI that allocated the block
 * (7 bits: crash_slot.c asserts the DDIs fit; POOL-LEAK-001 names it), and
 * whether DriverEntry allocated it (a driver without DxgkDdiUnload keeps
 * those for its life). */
#define OWNER_FROM_DRIVER_ENTRY 1u
#define POOL_OWNER_SERIAL_SHIFT 8

static enum wk_ddi pool_owner_ddi(uint64_t owner)
{
    return (enum wk_ddi)((owner >> 1) & 0x7Fu);
}

static struct km_pool_tag *tag_slot(struct wk_vidmm *vm, uint32_t tag)
{
    for (uint32_t i = 0; i < KM_POOL_TAGS && vm->km_pool[i].used; i++)
        if (vm->km_pool[i].tag == tag)
            return &vm->km_pool[i];
    for (uint32_t i = 0; i < KM_POOL_TAGS; i++)
        if (!vm->km_pool[i].used) {
            vm->km_pool[i].used = 1;
            vm->km_pool[i].tag = tag;
            return &vm->km_pool[i];
        }
    return &vm->km_pool_other; /* more tags than slots: counted together */
}

static uint64_t service_pool_allocated(uint32_t tag, size_t bytes)
{
    FLOOR_CALLBACK(); /* the kit's work, not the driver's: out of the floor (floor.c) */
    struct wk_vidmm *vm = call_current_vm();
    if (!vm || !vm->km_serial)
        return 0;
    enum wk_ddi ddi = call_current_ddi();
    int in_entry = ddi == WK_DDI_DRIVER_ENTRY;
    pthread_mutex_lock(&lock);
    struct km_pool_tag *t = tag_slot(vm, tag);
    if (in_entry) {
        t->entry_blocks++;
        t->entry_bytes += bytes;
    } else {
        t->blocks++;
        t->bytes += bytes;
        t->by_ddi[(unsigned)ddi < WK_DDI_COUNT ? ddi : WK_DDI_NONE]++;
    }
    pthread_mutex_unlock(&lock);
    return vm->km_serial << POOL_OWNER_SERIAL_SHIFT | (uint64_t)((unsigned)ddi & 0x7Fu) << 1 |
           (in_entry ? OWNER_FROM_DRIVER_ENTRY : 0);
}

/* A case's injected failure (inject.c): counted inside the DDI it names,
 * on the DDI's own thread (the driver's system threads are not counted). */
static int service_pool_refused(uint32_t tag, size_t bytes)
{
    FLOOR_CALLBACK(); /* the kit's work, not the driver's: out of the floor (floor.c) */
    (void)tag;
    (void)bytes;
    return inject_fails(call_current_vm(), WK_VIDMM_FAIL_POOL);
}

static void service_pool_freed(uint64_t owner, uint32_t tag, size_t bytes)
{
    FLOOR_CALLBACK(); /* the kit's work, not the driver's: out of the floor (floor.c) */
    pthread_mutex_lock(&lock);
    struct wk_vidmm *vm = adapter_of(owner >> POOL_OWNER_SERIAL_SHIFT);
    if (vm) {
        struct km_pool_tag *t = tag_slot(vm, tag);
        if (owner & OWNER_FROM_DRIVER_ENTRY) {
            t->entry_blocks -= t->entry_blocks ? 1 : 0;
            t->entry_bytes -= t->entry_bytes >= bytes ? bytes : t->entry_bytes;
        } else {
            t->blocks -= t->blocks ? 1 : 0;
            t->bytes -= t->bytes >= bytes ? bytes : t->bytes;
            enum wk_ddi ddi = pool_owner_ddi(owner);
            uint32_t *left = &t->by_ddi[(unsigned)ddi < WK_DDI_COUNT ? ddi : WK_DDI_NONE];
            *left -= *left ? 1 : 0;
        }
    }
    pthread_mutex_unlock(&lock);
}

static void tag_text(uint32_t tag, char out[5])
{
    for (int i = 0; i < 4; i++) {
        unsigned ch = (tag >> (8 * i)) & 0xFFu;
        out[i] = (char)(ch >= 0x20 && ch <= 0x7E ? ch : '.');
    }
    out[4] = '\0';
}

/* ", made by DxgkDdiOpenAllocation (2), DxgkDdiCreateContext (1)": the
 * DDIs whose blocks of tag t are left, most first, at most three, where
 * the leak is (MEM-LEAK-001 names the DDI too); "" when none is known. */
static void made_by(const struct km_pool_tag *t, char *out, size_t cap)
{
    out[0] = '\0';
    uint32_t shown[3], n = 0;
    size_t used = 0;
    while (n < 3) {
        uint32_t best = WK_DDI_COUNT;
        for (uint32_t d = 0; d < WK_DDI_COUNT; d++) {
            int taken = 0;
            for (uint32_t k = 0; k < n; k++)
                taken |= shown[k] == d;
            if (!taken && t->by_ddi[d] && (best == WK_DDI_COUNT || t->by_ddi[d] > t->by_ddi[best]))
                best = d;
        }
        if (best == WK_DDI_COUNT || best == (uint32_t)WK_DDI_NONE)
            break;
        int w = snprintf(out + used, cap - used, "%s%s (%u)", n ? ", " : ", made by ", wk_ddi_name((enum wk_ddi)best),
                         t->by_ddi[best]);
        if (w < 0 || (size_t)w >= cap - used)
            break;
        used += (size_t)w;
        shown[n++] = best;
    }
}

/* POOL-LEAK-001, once the driver was stopped and removed (and unloaded):
 * one violation per tag with blocks left. */
void km_check_pool_leaks(struct wk_vidmm *vm, int unloaded)
{
    pthread_mutex_lock(&lock);
    for (uint32_t i = 0; i <= KM_POOL_TAGS; i++) {
        const struct km_pool_tag *t = i < KM_POOL_TAGS ? &vm->km_pool[i] : &vm->km_pool_other;
        uint64_t blocks = t->blocks + (unloaded ? t->entry_blocks : 0);
        uint64_t bytes = t->bytes + (unloaded ? t->entry_bytes : 0);
        if (!blocks)
            continue;
        char text[5], by[160];
        tag_text(t->tag, text);
        made_by(t, by, sizeof(by));
        pthread_mutex_unlock(&lock);
        violate(vm, R_POOL_LEAK, WK_DDI_REMOVE_DEVICE,
                "%llu pool block%s (%llu bytes) tagged %s%s%s 0x%08x still allocated after %s%s", (unsigned long long)blocks,
                blocks == 1 ? "" : "s", (unsigned long long)bytes, i < KM_POOL_TAGS ? "'" : "", i < KM_POOL_TAGS ? text : "with other tags", i < KM_POOL_TAGS ? "'" : "",
                (unsigned)t->tag, unloaded ? "DxgkDdiUnload" : "DxgkDdiRemoveDevice", by);
        pthread_mutex_lock(&lock);
    }
    pthread_mutex_unlock(&lock);
}

/* ------------------------------------------------------------------ */
/* System threads                                                       */
/* ------------------------------------------------------------------ */

/* A thread's owner word: the adapter's serial, the DDI that created the
 * thread (7 bits: crash_slot.c asserts the DDIs fit) and whether it was
 * DriverEntry (such a thread may live as long as the driver). */
#define THREAD_OWNER_SERIAL_SHIFT 8

static enum wk_ddi thread_owner_ddi(uint64_t owner)
{
    return owner ? (enum wk_ddi)((owner >> 1) & 0x7Fu) : WK_DDI_NONE;
}

static uint64_t service_thread_started(void)
{
    FLOOR_CALLBACK(); /* the kit's work, not the driver's: out of the floor (floor.c) */
    struct wk_vidmm *vm = call_current_vm();
    if (!vm || !vm->km_serial)
        return 0;
    enum wk_ddi ddi = call_current_ddi();
    int in_entry = ddi == WK_DDI_DRIVER_ENTRY;
    pthread_mutex_lock(&lock);
    if (in_entry)
        vm->km_entry_threads++;
    else
        vm->km_threads++;
    pthread_mutex_unlock(&lock);
    return vm->km_serial << THREAD_OWNER_SERIAL_SHIFT | (uint64_t)ddi << 1 | (in_entry ? OWNER_FROM_DRIVER_ENTRY : 0);
}

static void service_thread_runs(uint64_t owner, void (*routine)(void *context))
{
    FLOOR_CALLBACK(); /* the kit's work, not the driver's: out of the floor (floor.c) */
    crash_slot_mark_system_thread(routine, thread_owner_ddi(owner));
}

static void service_thread_ended(uint64_t owner)
{
    FLOOR_CALLBACK(); /* the kit's work, not the driver's: out of the floor (floor.c) */
    pthread_mutex_lock(&lock);
    struct wk_vidmm *vm = adapter_of(owner >> THREAD_OWNER_SERIAL_SHIFT);
    uint64_t *count = !vm ? NULL : (owner & OWNER_FROM_DRIVER_ENTRY) ? &vm->km_entry_threads : &vm->km_threads;
    if (count && *count)
        (*count)--;
    pthread_mutex_unlock(&lock);
}

static uint64_t threads_running(struct wk_vidmm *vm, int unloaded)
{
    pthread_mutex_lock(&lock);
    uint64_t n = vm->km_threads + (unloaded ? vm->km_entry_threads : 0);
    pthread_mutex_unlock(&lock);
    return n;
}

void km_check_thread_leaks(struct wk_vidmm *vm, int unloaded)
{
    /* A driver may signal its worker and return without waiting for it:
     * a second's grace keeps the verdict from depending on the scheduler. */
    for (int waited = 0; waited < 100 && threads_running(vm, unloaded); waited++) {
        struct timespec pause = { 0, 10 * 1000 * 1000 };
        nanosleep(&pause, NULL);
    }
    uint64_t n = threads_running(vm, unloaded);
    if (n)
        violate(vm, R_THREAD_LEAK, WK_DDI_REMOVE_DEVICE, "%llu system thread%s the driver created still running 1 s after %s",
                (unsigned long long)n, n == 1 ? "" : "s", unloaded ? "DxgkDdiUnload" : "DxgkDdiRemoveDevice");
}

/* ------------------------------------------------------------------ */
/* I/O space mappings and contiguous memory                             */
/* ------------------------------------------------------------------ */

/* A mapping's or block's owner word: the adapter's serial above the slot
 * that counts it, plus one (so that a counted one is never 0). */
#define MEM_OWNER_SLOT_BITS 8
_Static_assert(KM_MEM_ALL_SLOTS < (1u << MEM_OWNER_SLOT_BITS), "a slot index fits the owner word");

static int memory_kind_known(uint32_t kind)
{
    return kind == WK_KM_MEMORY_IO_SPACE || kind == WK_KM_MEMORY_CONTIGUOUS;
}

/* The slot counting kind, ddi and size (under the lock): the key's own or
 * a fresh one; past KM_MEM_SLOTS keys, the shared slot of its kind and of
 * whether DriverEntry made it. Slots are never given back, so a key keeps
 * its slot for the adapter's life. */
static uint32_t memory_slot(struct wk_vidmm *vm, uint32_t kind, enum wk_ddi ddi, uint64_t size)
{
    for (uint32_t i = 0; i < KM_MEM_SLOTS; i++) {
        struct km_mem_slot *m = &vm->km_mem[i];
        if (!m->kind) {
            m->kind = kind;
            m->ddi = (uint32_t)ddi;
            m->size = size;
            return i;
        }
        if (m->kind == kind && m->ddi == (uint32_t)ddi && m->size == size)
            return i;
    }
    int in_entry = ddi == WK_DDI_DRIVER_ENTRY;
    uint32_t other = KM_MEM_SLOTS + (kind == WK_KM_MEMORY_CONTIGUOUS ? 2u : 0u) + (in_entry ? 1u : 0u);
    vm->km_mem[other].kind = kind;
    vm->km_mem[other].ddi = (uint32_t)(in_entry ? WK_DDI_DRIVER_ENTRY : WK_DDI_NONE);
    return other;
}

static uint64_t service_memory_recorded(uint32_t kind, size_t bytes)
{
    FLOOR_CALLBACK(); /* the kit's work, not the driver's: out of the floor (floor.c) */
    struct wk_vidmm *vm = call_current_vm();
    if (!vm || !vm->km_serial || !memory_kind_known(kind))
        return 0;
    enum wk_ddi ddi = call_current_ddi();
    pthread_mutex_lock(&lock);
    uint32_t slot = memory_slot(vm, kind, ddi, bytes);
    vm->km_mem[slot].live++;
    vm->km_mem[slot].bytes += bytes;
    pthread_mutex_unlock(&lock);
    return vm->km_serial << MEM_OWNER_SLOT_BITS | (slot + 1);
}

uint64_t km_contiguous_bytes(struct wk_vidmm *vm)
{
    uint64_t bytes = 0;
    pthread_mutex_lock(&lock);
    for (uint32_t i = 0; i < KM_MEM_ALL_SLOTS; i++) {
        const struct km_mem_slot *m = &vm->km_mem[i];
        if (m->kind == WK_KM_MEMORY_CONTIGUOUS && m->ddi != (uint32_t)WK_DDI_DRIVER_ENTRY)
            bytes += m->bytes;
    }
    pthread_mutex_unlock(&lock);
    return bytes;
}

static void service_memory_released(uint64_t owner, uint32_t kind, size_t bytes)
{
    FLOOR_CALLBACK(); /* the kit's work, not the driver's: out of the floor (floor.c) */
    (void)kind; /* the slot knows it */
    uint32_t slot = (uint32_t)(owner & ((1u << MEM_OWNER_SLOT_BITS) - 1));
    if (!slot || slot > KM_MEM_ALL_SLOTS)
        return;
    pthread_mutex_lock(&lock);
    struct wk_vidmm *vm = adapter_of(owner >> MEM_OWNER_SLOT_BITS);
    if (vm) {
        struct km_mem_slot *m = &vm->km_mem[slot - 1];
        m->live -= m->live ? 1 : 0;
        m->bytes -= m->bytes >= bytes ? bytes : m->bytes;
    }
    pthread_mutex_unlock(&lock);
}

/* One MEM-LEAK-001 line: how many of which kind, their size, the routine
 * and DDI that made them, and the routine that undoes them. */
static void report_memory_slot(struct wk_vidmm *vm, const struct km_mem_slot *m, int shared, int unloaded)
{
    int io = m->kind == WK_KM_MEMORY_IO_SPACE;
    const char *what = io ? "I/O space mapping" : "contiguous memory block";
    const char *plural = m->live == 1 ? "" : "s";
    const char *made = io ? "MmMapIoSpace[Ex]" : "MmAllocateContiguousMemory[SpecifyCache]";
    const char *undo = io ? "MmUnmapIoSpace" : "MmFreeContiguousMemory[SpecifyCache]";
    const char *after = unloaded ? "DxgkDdiUnload" : "DxgkDdiRemoveDevice";
    char size[64], where[80];
    if (shared)
        snprintf(size, sizeof(size), "%llu bytes in all", (unsigned long long)m->bytes);
    else
        snprintf(size, sizeof(size), "%llu bytes%s", (unsigned long long)m->size, m->live == 1 ? "" : " each");
    if (m->ddi == WK_DDI_DRIVER_ENTRY || !shared)
        snprintf(where, sizeof(where), "in %s", m->ddi == WK_DDI_NONE ? "no DDI" : wk_ddi_name((enum wk_ddi)m->ddi));
    else
        snprintf(where, sizeof(where), "in various DDIs (the kit names %u DDI and size pairs apart)",
                 (unsigned)KM_MEM_SLOTS);
    violate(vm, R_MEM_LEAK, WK_DDI_REMOVE_DEVICE, "%llu %s%s (%s) made by %s %s still %s after %s; %s releases it",
            (unsigned long long)m->live, what, plural, size, made, where, io ? "mapped" : "allocated", after, undo);
}

void km_check_memory_leaks(struct wk_vidmm *vm, int unloaded)
{
    for (uint32_t i = 0; i < KM_MEM_ALL_SLOTS; i++) {
        pthread_mutex_lock(&lock);
        struct km_mem_slot m = vm->km_mem[i];
        pthread_mutex_unlock(&lock);
        /* A driver without DxgkDdiUnload keeps what DriverEntry made for its
         * life, as with pool. */
        if (!m.kind || !m.live || (m.ddi == WK_DDI_DRIVER_ENTRY && !unloaded))
            continue;
        report_memory_slot(vm, &m, i >= KM_MEM_SLOTS, unloaded);
    }
}

/* ------------------------------------------------------------------ */
/* DPC objects                                                          */
/* ------------------------------------------------------------------ */

static int service_queue_dpc(void *dpc, void (*run)(void *dpc))
{
    FLOOR_CALLBACK(); /* the kit's work, not the driver's: out of the floor (floor.c) */
    struct wk_vidmm *vm = call_current_vm();
    int queued = 0;
    pthread_mutex_lock(&lock);
    if (vm && vm->km_serial && vm->nkdpc < KM_DPC_QUEUE) {
        vm->kdpc[vm->nkdpc].dpc = dpc;
        vm->kdpc[vm->nkdpc].run = run;
        vm->nkdpc++;
        queued = 1;
    }
    pthread_mutex_unlock(&lock);
    return queued; /* 0: km.h runs it at once */
}

static void service_dequeue_dpc(void *dpc)
{
    FLOOR_CALLBACK(); /* the kit's work, not the driver's: out of the floor (floor.c) */
    pthread_mutex_lock(&lock);
    for (uint32_t a = 0; a < MAX_LIVE_ADAPTERS; a++) {
        struct wk_vidmm *vm = live[a];
        for (uint32_t i = 0; vm && i < vm->nkdpc;) {
            if (vm->kdpc[i].dpc == dpc) {
                memmove(&vm->kdpc[i], &vm->kdpc[i + 1], (vm->nkdpc - i - 1) * sizeof(vm->kdpc[0]));
                vm->nkdpc--;
            } else {
                i++;
            }
        }
    }
    pthread_mutex_unlock(&lock);
}

/* One DPC in its guarded call (its own function: sigsetjmp and a local
 * struct do not mix). */
static wk_status run_dpc(struct wk_vidmm *vm, void *dpc, void (*run)(void *dpc))
{
    wk_status crashed;
    DDI_CALL(vm, WK_DDI_KDPC_ROUTINE, crashed, run(dpc));
    return crashed;
}

/* Runs the queued DPCs in order, each in its own guarded call; a routine
 * may queue DPCs again, which run in the same drain up to a bound (a DPC
 * that always queues itself would never let the drain end). */
wk_status km_run_queued_dpcs(struct wk_vidmm *vm)
{
    for (uint32_t ran = 0; ran < 4 * KM_DPC_QUEUE && !vm->dead; ran++) {
        pthread_mutex_lock(&lock);
        if (!vm->nkdpc) {
            pthread_mutex_unlock(&lock);
            break;
        }
        struct km_dpc next = vm->kdpc[0];
        memmove(&vm->kdpc[0], &vm->kdpc[1], (vm->nkdpc - 1) * sizeof(vm->kdpc[0]));
        vm->nkdpc--;
        pthread_mutex_unlock(&lock);
        wk_status crashed = run_dpc(vm, next.dpc, next.run);
        if (crashed != WK_OK)
            return crashed;
    }
    return vm->dead ? WK_E_DEAD : WK_OK;
}

/* ------------------------------------------------------------------ */
/* Registry                                                             */
/* ------------------------------------------------------------------ */

/* UTF-16 to ASCII, for comparing with the map's names (which are ASCII); 0
 * when a character is not ASCII or it does not fit. */
static int ascii_of(const uint16_t *s, size_t n, char *out, size_t cap)
{
    if (n >= cap)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == 0 || s[i] > 0x7E)
            return 0;
        out[i] = (char)s[i];
    }
    out[n] = '\0';
    return 1;
}

/* Windows compares registry names without regard to case. */
static int same_name(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char x = a[i], y = b[i];
        if (x >= 'a' && x <= 'z')
            x = (char)(x - 32);
        if (y >= 'a' && y <= 'z')
            y = (char)(y - 32);
        if (x != y)
            return 0;
    }
    return 1;
}

/* The key path relative to the driver's service key: "" for the key itself,
 * "Parameters" for a subkey; NULL when the path is outside it. */
static const char *relative_key(const char *key)
{
    static const char service[] = WK_VIDMM_SERVICE_KEY;
    size_t n = sizeof(service) - 1;
    if (strlen(key) < n || !same_name(key, service, n))
        return NULL;
    if (key[n] == '\0')
        return key + n;
    return key[n] == '\\' ? key + n + 1 : NULL;
}

/* The map's entry for `name` under the relative key `sub`; for a NULL
 * name, whether the key exists: the service key always, a subkey when a
 * value lives in it or below. */
static const struct wk_vidmm_registry_value *registry_find(const struct wk_vidmm_registry *r, const char *sub,
                                                         const char *name, int *key_exists)
{
    size_t ns = strlen(sub);
    *key_exists = ns == 0;
    for (uint32_t i = 0; i < r->count && i < WK_VIDMM_REGISTRY_MAX; i++) {
        const char *full = r->values[i].name, *slash = strrchr(full, '\\');
        size_t key_len = slash ? (size_t)(slash - full) : 0;
        if (ns && strlen(full) > ns && same_name(full, sub, ns) && full[ns] == '\\')
            *key_exists = 1;
        if (name && key_len == ns && same_name(full, sub, ns) &&
            strlen(slash ? slash + 1 : full) == strlen(name) && same_name(slash ? slash + 1 : full, name, strlen(name)))
            return &r->values[i];
    }
    return NULL;
}

static int service_query_registry(const uint16_t *key, size_t key_chars, const uint16_t *name, size_t name_chars,
                                  uint32_t *type, void *data, uint32_t cap, uint32_t *size)
{
    FLOOR_CALLBACK(); /* the kit's work, not the driver's: out of the floor (floor.c) */
    struct wk_vidmm *vm = call_current_vm();
    char k[512], n[128];
    const char *sub;
    if (!vm || !key || !ascii_of(key, key_chars, k, sizeof(k)) || !(sub = relative_key(k)))
        return 0;
    if (name && !ascii_of(name, name_chars, n, sizeof(n)))
        return 0;
    int key_exists = 0;
    const struct wk_vidmm_registry_value *v = registry_find(&vm->registry, sub, name ? n : NULL, &key_exists);
    if (!name)
        return key_exists;
    if (!v)
        return 0;
    *type = v->type;
    *size = v->size;
    if (data && cap)
        memcpy(data, v->data, v->size < cap ? v->size : cap);
    return 1;
}

const WK_KM_SERVICES wk_km_services_of_kit = {
    .Size = sizeof(WK_KM_SERVICES),
    .Fail = service_fail,
    .PoolAllocated = service_pool_allocated,
    .PoolFreed = service_pool_freed,
    .QueueDpc = service_queue_dpc,
    .DequeueDpc = service_dequeue_dpc,
    .QueryRegistry = service_query_registry,
    .ThreadStarted = service_thread_started,
    .ThreadEnded = service_thread_ended,
    .ThreadRuns = service_thread_runs,
    .MapIoSpace = regwin_map,
    .UnmapIoSpace = regwin_unmap,
    .RegisterRead = regwin_read,
    .RegisterWrite = regwin_write,
    .AllocateContiguous = contiguous_alloc,
    .FreeContiguous = contiguous_free,
    .MemoryRecorded = service_memory_recorded,
    .PoolRefused = service_pool_refused,
    .MemoryReleased = service_memory_released,
};
