/* SPDX-License-Identifier: MIT */
/*
 * binding.c - one adapter's hardware binding (binding.h): its per-adapter
 * object, and every call into its code.
 *
 * The binding plays the driver's GPU: its processor runs the buffers the
 * driver built, its register model answers the driver's register accesses
 * and queues work, its line raises interrupts. It is code the kit runs, not
 * code it judges, so every call into it is a binding frame (BIND_CALL,
 * call.c): a crash or a hang there is BIND-CRASH-001 or BIND-HANG-001, an
 * answer outside the interface BIND-RESULT-001 or BIND-BUDGET-001, and the
 * case ends as an `error`, never as the driver's failure.
 *
 * One binding object per adapter is reached from the kit's thread and from
 * the driver's own threads (a register access from a worker thread): one
 * lock per adapter serialises them, as binding.h promises.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "wddmkit/binding.h"

/* The adapter's binding lock, and who holds it: a call that crashes
 * inside a driver's DDI unwinds that DDI too (call.c), past the unlock, so
 * call.c releases it through binding_release_lock before it jumps. */
static void lock(struct wk_vidmm *vm)
{
    pthread_mutex_lock(&vm->bind_lock);
    vm->bind_holder = pthread_self();
    vm->bind_held = 1;
}

static void unlock(struct wk_vidmm *vm)
{
    if (vm->bind_held && pthread_equal(vm->bind_holder, pthread_self())) {
        vm->bind_held = 0;
        pthread_mutex_unlock(&vm->bind_lock);
    }
}

void binding_release_lock(struct wk_vidmm *vm)
{
    unlock(vm);
}

/* A binding's log line goes where the driver's DbgPrint lines go: the
 * case's output, named. */
static void binding_log(void *kit, const char *line)
{
    struct wk_vidmm *vm = kit;
    if (vm && line)
        fprintf(stderr, "binding %s: %.300s\n", vm->binding->name, line);
}

wk_status binding_attach(struct wk_vidmm *vm)
{
    const struct wk_binding *b = vm->cfg.binding;
    vm->binding = b;
    vm->bself = NULL;
    if (!b || !b->processor)
        return WK_OK;
    struct wk_binding_host host = { sizeof(host), WK_BINDING_ABI_VERSION, wk_gpu_mem(vm->gpu), wk_gpu_mem_ops(),
                                    vm, binding_log };
    void *self = NULL;
    wk_status crashed;
    if (b->create)
        BIND_CALL(vm, "create", crashed, self = b->create(&host));
    else
        crashed = WK_OK;
    if (crashed != WK_OK)
        return crashed;
    if (b->create && !self) {
        vm->dead = 1;
        return violate(vm, R_BIND_RESULT, WK_DDI_NONE, "the binding '%s' could not create its adapter object",
                       b->name);
    }
    /* A binding with no state still executes: self stands for "present". */
    vm->bself = self ? self : (void *)&vm->bself;
    /* Its BARs in the driver's TranslatedResourceList, its register model
     * behind the register windows (bars.c). */
    if (b->bar_count)
        bars_attach(vm, b->bars, b->bar_count, b->registers, self);
    return WK_OK;
}

static void *self_of(const struct wk_vidmm *vm)
{
    return vm->bself == (const void *)&vm->bself ? NULL : vm->bself;
}

void binding_detach(struct wk_vidmm *vm)
{
    if (vm->bself && vm->binding->destroy && self_of(vm) && !vm->dead) {
        wk_status crashed;
        BIND_CALL(vm, "destroy", crashed, vm->binding->destroy(self_of(vm)));
        (void)crashed;
    }
    vm->bself = NULL;
}

int binding_has_registers(const struct wk_vidmm *vm)
{
    return binding_executes(vm) && vm->binding->registers != NULL;
}

/* The kit's snapshot of the submitted range, as a command processor
 * prefetches it: the bytes the memory system holds there now (host view),
 * in the adapter's scratch buffer (gbuf_scratch_take: no allocation per
 * run once it has grown). bytes[start, end) are the range's, the bytes
 * before it zero. Give it back with gbuf_scratch_put. */
static uint8_t *fetch(struct wk_vidmm *vm, uint64_t buffer_addr, uint64_t start, uint64_t end)
{
    uint8_t *buf = gbuf_scratch_take(vm, end);
    if (!buf)
        return NULL;
    memset(buf, 0, (size_t)start);
    if (end > start && wk_gpu_read(vm->gpu, buffer_addr + start, buf + start, end - start) != WK_OK) {
        gbuf_scratch_put(vm, buf);
        return NULL;
    }
    return buf;
}

static void misbehaved(struct wk_vidmm *vm, uint32_t why, const struct wk_exec_fault *f)
{
    vm->dead = 1;
    if (why == WK_EXEC_MISBEHAVED_BUDGET) {
        violate(vm, R_BIND_BUDGET, WK_DDI_NONE,
                       "the processor of binding '%s' ran on after the kit's budget was spent", vm->binding->name);
        return;
    }
    violate(vm, R_BIND_RESULT, WK_DDI_NONE,
                   "the processor of binding '%s' answered outside processor.h (fault class %u at offset 0x%llx)",
                   vm->binding->name, f->cls, (unsigned long long)f->offset);
}

/* The disassembler's first line, kept (wk_disasm_ops.list's sink). */
struct first_line {
    char text[96];
    int have;
};

static void keep_first(void *user, const char *line)
{
    struct first_line *l = user;
    if (!l->have && line) {
        snprintf(l->text, sizeof(l->text), "%s", line);
        l->have = 1;
    }
}

/* The faulting command as the binding's disassembler lists it ("0x0040:
 * COPY src=... dst=... bytes=..."), when it has one: what a report shows
 * of the driver's buffer, in the hardware's mnemonics. */
static void faulting_command(struct wk_vidmm *vm, const uint8_t *bytes, uint64_t end, uint64_t offset,
                             struct first_line *l)
{
    const struct wk_disasm_ops *d = vm->binding->disasm;
    l->have = 0;
    if (!d || offset >= end)
        return;
    wk_status crashed;
    lock(vm);
    BIND_CALL(vm, "disasm.list", crashed, (void)d->list(self_of(vm), bytes, end, offset, keep_first, l));
    unlock(vm);
    if (crashed != WK_OK)
        l->have = 0;
}

/* The fault in the processor's words when it has them ("PKT type 9 unknown
 * at +0x40"), else in the interface's, and the faulting command as the
 * binding's disassembler lists it; the first since the last check. */
static void describe_fault(struct wk_vidmm *vm, uint64_t buffer_addr, const struct wk_exec_fault *f,
                           const uint8_t *bytes, uint64_t end)
{
    char words[160] = "";
    const struct wk_processor_ops *p = vm->binding->processor;
    if (p->fault_text) {
        wk_status crashed;
        lock(vm);
        BIND_CALL(vm, "processor.fault_text", crashed, p->fault_text(self_of(vm), f, words, sizeof(words)));
        unlock(vm);
        if (crashed != WK_OK)
            return;
        words[sizeof(words) - 1] = 0;
    }
    char where[96];
    if (f->cls == WK_FAULT_MEMORY)
        snprintf(where, sizeof(where), ": address 0x%llx", (unsigned long long)f->fault_addr);
    else
        where[0] = 0;
    struct first_line cmd;
    faulting_command(vm, bytes, end, f->depth == 0 ? f->offset : end, &cmd);
    /* Bounded parts, so that the bracket always closes in the report and
     * the whole fits a violation's 320 bytes after the rule and the DDI:
     * a processor's sentence of up to 100 (outsider 19 saw one cut at 60,
     * mid-word), the disassembled command's first 56. */
    snprintf(vm->bind_fault_text, sizeof(vm->bind_fault_text),
             "%s at +0x%llx in buffer 0x%llx depth %u%s%s%.100s%s%.56s%s", wk_fault_class_name(f->cls),
             (unsigned long long)f->offset, (unsigned long long)buffer_addr, f->depth, where, words[0] ? ": " : "",
             words, cmd.have ? " [" : "", cmd.have ? cmd.text : "", cmd.have ? "]" : "");
}

/* The buffer's bytes through the address space, as the GPU fetches a
 * virtual submission's ring; NULL when a page of it is not mapped. */
static uint8_t *fetch_va(struct wk_vidmm *vm, struct wk_va_space *space, uint64_t buffer_addr, uint64_t start,
                         uint64_t end)
{
    uint8_t *buf = gbuf_scratch_take(vm, end);
    if (!buf)
        return NULL;
    memset(buf, 0, (size_t)start);
    struct wk_mem_fault f;
    if (end > start && wk_va_mem_ops()->load(wk_va_mem(space), buffer_addr + start, buf + start, end - start, &f)) {
        gbuf_scratch_put(vm, buf);
        return NULL;
    }
    return buf;
}

/* A fault of the kit's fetch, before the processor ran anything: logged
 * in the memory system's fault log as the processor's faults are, so the
 * submission's check sees it (an outsider's paging buffers at an address
 * nothing holds drew no PAGING-GPU-001 at all, and their cases became
 * skips for the content that did not move). A buffer past the kit's fetch
 * limit is the kit's budget, as for its GPU. */
static wk_status fetch_fault(struct wk_vidmm *vm, struct wk_exec_fault *fault, enum wk_fault_class cls,
                             enum wk_gpu_fault_reason reason, uint64_t buffer_addr, uint64_t addr, uint64_t start)
{
    fault->cls = cls;
    fault->mem_reason = reason;
    fault->fault_addr = addr;
    fault->offset = start;
    fault->opcode = 0xFFFFFFFFu;
    struct wk_gpu_fault f;
    memset(&f, 0, sizeof(f));
    f.reason = cls == WK_FAULT_MEMORY ? reason : WK_GPU_FAULT_BUDGET;
    f.opcode = 0xFFFFFFFFu;
    f.offset = start;
    f.top_offset = start;
    f.buffer_addr = buffer_addr;
    f.fault_addr = addr;
    wk_gpu_fault_record(vm->gpu, &f);
    snprintf(vm->bind_fault_text, sizeof(vm->bind_fault_text), "the buffer at 0x%llx could not be fetched: %s at 0x%llx",
             (unsigned long long)buffer_addr, wk_gpu_fault_name(f.reason), (unsigned long long)addr);
    return WK_E_GPU_FAULT;
}

wk_status binding_exec_va(struct wk_vidmm *vm, struct wk_va_space *space, uint64_t buffer_addr, uint64_t start,
                          uint64_t end, uint32_t flags, uint32_t fence, struct wk_exec_fault *fault)
{
    memset(fault, 0, sizeof(*fault));
    if (end <= start)
        return WK_OK;
    if (end - start > vm->gpu_desc.max_dma_length) /* the kit's own limit on what it fetches, as for its GPU */
        return fetch_fault(vm, fault, WK_FAULT_OPERAND, 0, buffer_addr, 0, start);
    uint8_t *bytes = space ? fetch_va(vm, space, buffer_addr, start, end) : fetch(vm, buffer_addr, start, end);
    if (!bytes)
        return fetch_fault(vm, fault, WK_FAULT_MEMORY,
                           space ? WK_GPU_FAULT_VA_UNMAPPED : WK_GPU_FAULT_BAD_ADDRESS, buffer_addr,
                           buffer_addr + start, start);
    wk_status st = WK_OK, crashed;
    uint32_t bad = 0;
    lock(vm);
    FLOOR_BEGIN(1);
    BIND_CALL(vm, "processor.exec", crashed,
              st = space ? wk_gpu_exec_processor_va(vm->gpu, space, vm->binding->processor, self_of(vm), buffer_addr,
                                                    start, end, bytes, flags, fence, fault, &bad)
                         : wk_gpu_exec_processor(vm->gpu, vm->binding->processor, self_of(vm), buffer_addr, start,
                                                 end, bytes, flags, fence, fault, &bad));
    FLOOR_END(1, FLOOR_GPU);
    unlock(vm);
    if (crashed == WK_OK && bad)
        misbehaved(vm, bad, fault);
    else if (crashed == WK_OK && st == WK_E_GPU_FAULT)
        describe_fault(vm, buffer_addr, fault, bytes, end);
    gbuf_scratch_put(vm, bytes);
    if (crashed != WK_OK || bad)
        return WK_E_BINDING;
    return st;
}

wk_status binding_exec(struct wk_vidmm *vm, uint64_t buffer_addr, uint64_t start, uint64_t end, uint32_t flags,
                       uint32_t fence, struct wk_exec_fault *fault)
{
    return binding_exec_va(vm, NULL, buffer_addr, start, end, flags, fence, fault);
}

/* A binding built against an older binding.h writes a whole wk_submission
 * of its time: the struct never shrinks (one version had a 40-byte one with
 * a root member; outsider 14's binding of then overran the kit's smaller
 * struct, which only AddressSanitizer saw). */
_Static_assert(sizeof(struct wk_submission) == 40, "struct wk_submission keeps its size: append, never remove");

int binding_next(struct wk_vidmm *vm, struct wk_submission *s)
{
    int got = 0;
    wk_status crashed;
    memset(s, 0, sizeof(*s));
    lock(vm);
    BIND_CALL(vm, "registers.next", crashed, got = vm->binding->registers->next(self_of(vm), s));
    unlock(vm);
    return crashed == WK_OK && got == 1;
}

int binding_knows_roots(const struct wk_vidmm *vm)
{
    const struct wk_registers_ops *r = vm->binding ? vm->binding->registers : NULL;
    return r && r->size >= offsetof(struct wk_registers_ops, root) + sizeof(r->root) && r->root;
}

uint64_t binding_root(struct wk_vidmm *vm, const struct wk_submission *s)
{
    if (!binding_knows_roots(vm))
        return 0;
    uint64_t root = 0;
    wk_status crashed;
    lock(vm);
    BIND_CALL(vm, "registers.root", crashed, root = vm->binding->registers->root(self_of(vm), s));
    unlock(vm);
    return crashed == WK_OK ? root : 0;
}

void binding_done(struct wk_vidmm *vm, const struct wk_submission *s, const struct wk_exec_fault *fault)
{
    wk_status crashed;
    lock(vm);
    BIND_CALL(vm, "registers.done", crashed, vm->binding->registers->done(self_of(vm), s, fault));
    unlock(vm);
    (void)crashed;
}

int binding_irq_pending(struct wk_vidmm *vm)
{
    int pending = 0;
    wk_status crashed;
    if (vm->irq_ignored || !binding_has_registers(vm))
        return 0;
    lock(vm);
    BIND_CALL(vm, "registers.irq_pending", crashed, pending = vm->binding->registers->irq_pending(self_of(vm)));
    unlock(vm);
    return crashed == WK_OK && pending != 0;
}

int binding_read32(struct wk_vidmm *vm, uint32_t bar, uint64_t offset, uint32_t *value)
{
    wk_status crashed;
    uint32_t v = 0xFFFFFFFFu;
    if (!binding_has_registers(vm) || vm->dead)
        return -1;
    lock(vm);
    BIND_REGISTER_CALL(vm, "registers.read32", crashed, v = vm->binding->registers->read32(self_of(vm), bar, offset));
    unlock(vm);
    *value = v;
    return crashed == WK_OK ? 0 : -1;
}

int binding_write32(struct wk_vidmm *vm, uint32_t bar, uint64_t offset, uint32_t value)
{
    wk_status crashed;
    if (!binding_has_registers(vm) || vm->dead)
        return -1;
    lock(vm);
    BIND_REGISTER_CALL(vm, "registers.write32", crashed,
                       vm->binding->registers->write32(self_of(vm), bar, offset, value));
    unlock(vm);
    vm->irq_ignored = 0; /* a register write may have started work or re-armed the line */
    return crashed == WK_OK ? 0 : -1;
}

const struct wk_mmu_geometry *binding_mmu_geometry(const struct wk_vidmm *vm)
{
    if (!binding_executes(vm))
        return NULL;
    const struct wk_processor_ops *p = vm->binding->processor;
    if (p->size < offsetof(struct wk_processor_ops, mmu_decode) + sizeof(p->mmu_decode) || !p->mmu_decode)
        return NULL;
    return p->mmu_geometry; /* both or neither (binding_load.c) */
}

int binding_mmu_decode(void *self, uint32_t level, const uint8_t *entry, uint32_t entry_bytes,
                       struct wk_mmu_entry *out)
{
    struct wk_vidmm *vm = self;
    if (vm->dead || !binding_mmu_geometry(vm))
        return -1;
    wk_mmu_decode_fn *decode = vm->binding->processor->mmu_decode;
    /* Inside the binding's own call (its processor walking through the
     * kit's memory): already in its frame, under its lock. */
    if (vm->bind_held && pthread_equal(vm->bind_holder, pthread_self()))
        return decode(self_of(vm), level, entry, entry_bytes, out);
    int got = -1;
    wk_status crashed;
    lock(vm);
    BIND_CALL(vm, "processor.mmu_decode", crashed, got = decode(self_of(vm), level, entry, entry_bytes, out));
    unlock(vm);
    return crashed == WK_OK ? got : -1;
}

int patch_slot_address(struct wk_vidmm *vm, const uint8_t *dma, uint64_t len, uint64_t offset, uint64_t *address,
                       uint32_t *slot_bytes)
{
    if (!vm->binding) { /* the kit's GPU: an ADDR operand, 8 bytes little-endian */
        if (offset > len || len - offset < 8)
            return 0;
        memcpy(address, dma + offset, 8);
        *slot_bytes = 8;
        return 1;
    }
    const struct wk_processor_ops *p = vm->binding->processor;
    if (!binding_executes(vm) || !p->read_address)
        return -1;
    int got = -1;
    uint32_t bytes = 0;
    wk_status crashed;
    lock(vm);
    BIND_CALL(vm, "processor.read_address", crashed,
              got = p->read_address(self_of(vm), dma, len, offset, address, &bytes));
    unlock(vm);
    if (crashed != WK_OK)
        return 0;
    if (got != 0)
        return 0;
    if (bytes == 0 || bytes > 16 || offset > len || bytes > len - offset) {
        vm->dead = 1;
        violate(vm, R_BIND_RESULT, WK_DDI_NONE,
                "the read_address of binding '%s' decoded a slot of %u bytes at offset 0x%llx of a %llu-byte buffer",
                vm->binding->name, bytes, (unsigned long long)offset, (unsigned long long)len);
        return 0;
    }
    *slot_bytes = bytes;
    return 1;
}

static uint32_t gcd32(uint32_t a, uint32_t b)
{
    while (b) {
        uint32_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The offsets in [0, 32) of a probe buffer filled with `fill` at which the
 * binding decodes a slot: folded into *align (gcd) and *bytes (widest). */
static void probe_slots(struct wk_vidmm *vm, uint8_t fill, uint32_t *align, uint32_t *bytes)
{
    uint8_t buf[48]; /* 32 offsets and the widest slot processor.h allows past the last */
    memset(buf, fill, sizeof(buf));
    for (uint32_t off = 0; off < 32 && !vm->dead; off++) {
        uint64_t address = 0;
        uint32_t n = 0;
        if (patch_slot_address(vm, buf, sizeof(buf), off, &address, &n) != 1)
            continue;
        *align = gcd32(*align, off);
        *bytes = n > *bytes ? n : *bytes;
    }
}

/* The binding's slots, probed once per adapter (the binding is the
 * adapter's for its life): what fuzz_patch folds its inputs by and what
 * the Patch checks take as the address field (submit.c). */
static struct wk_vidmm_patch_slots probe_patch_slots(struct wk_vidmm *vm)
{
    struct wk_vidmm_patch_slots out = { 1, 8 };
    if (!vm->binding || !binding_executes(vm) || !vm->binding->processor->read_address)
        return out;
    uint32_t align = 0, bytes = 0; /* gcd(0, x) = x: the first offset that decodes starts it */
    probe_slots(vm, 0x00, &align, &bytes);
    probe_slots(vm, 0xFF, &align, &bytes);
    if (bytes == 0) /* nothing decodes: no offset known to be slot-less, none rounded */
        return out;
    out.align = align ? align : 1; /* only offset 0 decoded: no step known, none rounded */
    out.bytes = bytes;
    return out;
}

void wk_vidmm_patch_slots(struct wk_vidmm *vm, struct wk_vidmm_patch_slots *out)
{
    if (!vm->patch_slots.bytes)
        vm->patch_slots = probe_patch_slots(vm);
    *out = vm->patch_slots;
}

void wk_vidmm_binding_skipped(const struct wk_vidmm *vm, uint64_t *unreported_fences, uint64_t *undecoded_addresses)
{
    *unreported_fences = vm->binding_skipped[0];
    *undecoded_addresses = vm->binding_skipped[1];
}

const struct wk_binding *wk_vidmm_binding(const struct wk_vidmm *vm)
{
    return vm->binding;
}

/* ------------------------------------------------------------------ */
/* The UMD encoder                                                      */
/* ------------------------------------------------------------------ */

int wk_vidmm_binding_encodes(const struct wk_vidmm *vm)
{
    return vm->binding && vm->binding->encoder && vm->binding->encoder->render;
}

static const char *const op_names[WK_USER_OP_COUNT] = { "NOP", "COPY", "FILL", "WRITE32", "BLIT" };

/* An encoder's answer that is neither OK nor SKIP, or lengths past the
 * room it was given: the binding's fault. */
static wk_status encoder_broke(struct wk_vidmm *vm, const char *what)
{
    vm->dead = 1;
    return violate(vm, R_BIND_RESULT, WK_DDI_NONE, "the encoder of binding '%s' %s", vm->binding->name, what);
}

wk_status wk_vidmm_encode_render(struct wk_vidmm *vm, struct wk_encode_render *r)
{
    const struct wk_encoder_ops *e = vm->binding ? vm->binding->encoder : NULL;
    if (!e || !e->render)
        return fail(vm, WK_E_NOT_SUPPORTED, "no binding encoder");
    for (uint32_t i = 0; i < r->op_count; i++) {
        uint32_t op = r->ops[i].op;
        if (op >= WK_USER_OP_COUNT || !(e->ops_supported & (1u << op)))
            return fail(vm, WK_E_NOT_SUPPORTED, "the encoder of binding '%s' does not encode %s", vm->binding->name,
                        op < WK_USER_OP_COUNT ? op_names[op] : "that operation");
    }
    const uint32_t command_cap = r->command_cap, patch_cap = r->patch_cap, opaque_length = r->opaque_length;
    const uint8_t *opaque = r->opaque;
    /* The opaque bytes on read-only pages with a guard page right after
     * them: an encoder that reads past opaque_length, or writes them,
     * faults at the instruction (BIND-CRASH-001), which counting alone
     * (opaque_used, below) would not see. */
    struct gbuf guarded;
    memset(&guarded, 0, sizeof(guarded));
    if (opaque && opaque_length) {
        wk_status st = gbuf_alloc_input(vm, &guarded, opaque, opaque_length, "the encoder's opaque bytes");
        if (st != WK_OK)
            return st;
        r->opaque = guarded.ptr;
    }
    int rc = -1;
    wk_status crashed;
    r->command_length = r->patch_length = r->skipped_op = r->opaque_used = 0;
    r->why[0] = 0;
    lock(vm);
    BIND_CALL(vm, "encoder.render", crashed, rc = e->render(self_of(vm), r));
    unlock(vm);
    r->opaque = opaque;
    if (guarded.map || guarded.ptr)
        gbuf_free(vm, &guarded);
    if (crashed != WK_OK)
        return WK_E_BINDING;
    r->why[sizeof(r->why) - 1] = 0;
    if (rc == WK_ENCODE_SKIP)
        return fail(vm, WK_E_NOT_SUPPORTED, "the encoder of binding '%s' cannot encode operation %u: %s",
                    vm->binding->name, r->skipped_op, r->why[0] ? r->why : "(no reason given)");
    if (rc != WK_ENCODE_OK)
        return encoder_broke(vm, "returned neither WK_ENCODE_OK nor WK_ENCODE_SKIP");
    if (r->command_length > command_cap || r->patch_length > patch_cap)
        return encoder_broke(vm, "wrote past the room it was given");
    if (r->opaque_used > opaque_length)
        return encoder_broke(vm, "took more opaque bytes than it was given");
    for (uint32_t i = 0; i < r->patch_length; i++)
        if (r->patch[i].AllocationIndex >= r->list_length || r->patch[i].PatchOffset >= UINT32_MAX - 8)
            return encoder_broke(vm, "wrote a patch location outside its allocation list");
    return WK_OK;
}

wk_status binding_encode_commands(struct wk_vidmm *vm, struct wk_encode_commands *c)
{
    int (*commands)(void *, struct wk_encode_commands *) = binding_commands_of(vm->binding);
    if (!commands)
        return fail(vm, WK_E_NOT_SUPPORTED,
                    "a limit of the kit: the encoder of binding '%s' writes no command buffers of its GPU "
                    "(wk_encoder_ops.commands), so the kit cannot make a virtual context's buffer for it",
                    vm->binding ? vm->binding->name : "?");
    const uint32_t cap = c->cap;
    int rc = -1;
    wk_status crashed;
    c->length = 0;
    c->why[0] = 0;
    lock(vm);
    BIND_CALL(vm, "encoder.commands", crashed, rc = commands(self_of(vm), c));
    unlock(vm);
    if (crashed != WK_OK)
        return WK_E_BINDING;
    c->why[sizeof(c->why) - 1] = 0;
    if (rc == WK_ENCODE_SKIP)
        return fail(vm, WK_E_NOT_SUPPORTED, "the encoder of binding '%s' cannot write that command buffer: %s",
                    vm->binding->name, c->why[0] ? c->why : "(no reason given)");
    if (rc != WK_ENCODE_OK)
        return encoder_broke(vm, "returned neither WK_ENCODE_OK nor WK_ENCODE_SKIP from commands");
    if (c->length > cap || c->length == 0)
        return encoder_broke(vm, c->length ? "wrote a command buffer past the room it was given"
                                           : "wrote an empty command buffer");
    return WK_OK;
}

int binding_encodes_allocation(const struct wk_vidmm *vm)
{
    return vm->binding && vm->binding->encoder && vm->binding->encoder->allocation;
}

int wk_vidmm_binding_encodes_allocations(const struct wk_vidmm *vm)
{
    return binding_encodes_allocation(vm);
}

wk_status binding_encode_allocation(struct wk_vidmm *vm, const WK_ALLOCATION_REQUEST *req, uint8_t *buf,
                                    uint32_t cap, uint32_t *size)
{
    const struct wk_encoder_ops *e = vm->binding->encoder;
    struct wk_encode_allocation a;
    memset(&a, 0, sizeof(a));
    a.request = req;
    a.private_data = buf;
    a.private_cap = cap;
    int rc = -1;
    wk_status crashed;
    lock(vm);
    BIND_CALL(vm, "encoder.allocation", crashed, rc = e->allocation(self_of(vm), &a));
    unlock(vm);
    if (crashed != WK_OK)
        return WK_E_BINDING;
    a.why[sizeof(a.why) - 1] = 0;
    if (rc == WK_ENCODE_SKIP)
        return fail(vm, WK_E_NOT_SUPPORTED, "the encoder of binding '%s' cannot encode the allocation: %s",
                    vm->binding->name, a.why[0] ? a.why : "(no reason given)");
    if (rc != WK_ENCODE_OK)
        return encoder_broke(vm, "returned neither WK_ENCODE_OK nor WK_ENCODE_SKIP for an allocation");
    if (a.private_size > cap)
        return encoder_broke(vm, "wrote allocation data past the room it was given");
    *size = a.private_size;
    return WK_OK;
}

wk_status wk_vidmm_skip(struct wk_vidmm *vm, const char *why)
{
    return fail(vm, WK_E_NOT_SUPPORTED, "%s", why);
}
