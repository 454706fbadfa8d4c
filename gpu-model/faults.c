/* SPDX-License-Identifier: MIT */
/*
 * faults.c - fault names, messages, formatting and the bounded fault log.
 *
 * The log keeps the first WK_GPU_FAULT_LOG_SIZE faults since the reset (the
 * first fault is the one that explains the rest) and counts all of them, so
 * a fuzzer-driven flood costs nothing but a counter.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

const char *wk_gpu_fault_name(enum wk_gpu_fault_reason r)
{
    switch (r) {
#define NAME_(name, num, msg) case name: return &(#name)[sizeof("WK_GPU_FAULT_") - 1];
        WK_GPU_FAULT_MAP(NAME_)
#undef NAME_
    default: return "UNKNOWN_FAULT";
    }
}

const char *wk_gpu_fault_message(enum wk_gpu_fault_reason r)
{
    switch (r) {
#define MSG_(name, num, msg) case name: return msg;
        WK_GPU_FAULT_MAP(MSG_)
#undef MSG_
    default: return "unknown fault";
    }
}

const char *wk_gpu_operand_rule_name(enum wk_gpu_operand_rule r)
{
    switch (r) {
#define NAME_(name, num, msg) case name: return &(#name)[sizeof("WK_GPU_RULE_") - 1];
        WK_GPU_OPERAND_RULE_MAP(NAME_)
#undef NAME_
    default: return "UNKNOWN_RULE";
    }
}

const char *wk_gpu_operand_rule_message(enum wk_gpu_operand_rule r)
{
    switch (r) {
#define MSG_(name, num, msg) case name: return msg;
        WK_GPU_OPERAND_RULE_MAP(MSG_)
#undef MSG_
    default: return "unknown operand rule";
    }
}

/* Decided by the reason, not by fault_addr != 0: address 0 can be the one
 * that faulted (a WRITE32 to 0 on an adapter with nothing there).
 * NO_ADDRESS_SPACE's address is the root the submission asked for. */
int wk_gpu_fault_is_translation(enum wk_gpu_fault_reason r)
{
    return r == WK_GPU_FAULT_VA_UNMAPPED || r == WK_GPU_FAULT_VA_READ_ONLY || r == WK_GPU_FAULT_BAD_PTE;
}

int wk_gpu_fault_has_address(enum wk_gpu_fault_reason r)
{
    return r == WK_GPU_FAULT_BAD_ADDRESS || r == WK_GPU_FAULT_UNMAPPED_APERTURE ||
           r == WK_GPU_FAULT_CROSSES_SEGMENT || r == WK_GPU_FAULT_MEMORY_LIMIT || r == WK_GPU_FAULT_VA_UNMAPPED ||
           r == WK_GPU_FAULT_VA_READ_ONLY || r == WK_GPU_FAULT_BAD_PTE || r == WK_GPU_FAULT_NO_ADDRESS_SPACE;
}

const struct wk_gpu_fault_detail fault_no_detail = { WK_GPU_RULE_NONE, 0, 0, 0, { 0, 0 } };

void fault_record(struct wk_gpu *gpu, enum wk_gpu_fault_reason why, uint32_t opcode, uint64_t offset,
                  uint64_t buffer_addr, uint32_t depth, uint64_t fault_addr, const struct wk_gpu_fault_detail *d)
{
    if (gpu->fault_total < WK_GPU_FAULT_LOG_SIZE)
        fault_fill(&gpu->fault_log[gpu->fault_total], why, opcode, offset, buffer_addr, depth, fault_addr, d);
    gpu->fault_total++;
    gpu->counters.faults++;
}

void fault_record_copy(struct wk_gpu *gpu, const struct wk_gpu_fault *f)
{
    if (gpu->fault_total < WK_GPU_FAULT_LOG_SIZE)
        gpu->fault_log[gpu->fault_total] = *f;
    gpu->fault_total++;
    gpu->counters.faults++;
}

uint32_t wk_gpu_faults(const struct wk_gpu *gpu, struct wk_gpu_fault *out, uint32_t max,
                       uint64_t *total)
{
    uint64_t kept = gpu->fault_total < WK_GPU_FAULT_LOG_SIZE ? gpu->fault_total
                                                              : WK_GPU_FAULT_LOG_SIZE;
    uint32_t n = kept < max ? (uint32_t)kept : max;
    if (n)
        memcpy(out, gpu->fault_log, n * sizeof(*out));
    if (total)
        *total = gpu->fault_total;
    return n;
}

void wk_gpu_fault_detail_text(const struct wk_gpu_fault *f, char *buf, size_t size)
{
    char text[FAULT_DETAIL_BYTES + 16];
    char *end = text;
    if (f->reason == WK_GPU_FAULT_BAD_OPERAND && f->detail.rule != WK_GPU_RULE_NONE)
        end = fault_put_detail(text, f->opcode, &f->detail);
    *end = '\0';
    if (size)
        snprintf(buf, size, "%s", text);
}

/* What follows the fault's place: the address of a memory fault (the
 * root asked for, said as one, when no space has it), the detail of a
 * refused operand. */
static void format_tail(const struct wk_gpu_fault *f, char *buf, size_t size)
{
    char detail[FAULT_DETAIL_BYTES + 16];
    if (wk_gpu_fault_has_address(f->reason)) {
        snprintf(buf, size, ": %s 0x%llx", f->reason == WK_GPU_FAULT_NO_ADDRESS_SPACE ? "root" : "address",
                 (unsigned long long)f->fault_addr);
        return;
    }
    wk_gpu_fault_detail_text(f, detail, sizeof(detail));
    snprintf(buf, size, "%s%s", detail[0] ? ": " : "", detail);
}

void wk_gpu_fault_format(const struct wk_gpu_fault *f, char *buf, size_t size)
{
    const struct wk_gpu_opcode_info *op = wk_gpu_opcode_info(f->opcode);
    char opname[16];
    if (op)
        snprintf(opname, sizeof(opname), "%s", op->mnemonic);
    else if (f->opcode == UINT32_MAX)
        snprintf(opname, sizeof(opname), "none");
    else
        snprintf(opname, sizeof(opname), "opcode 0x%02x", f->opcode & 0xFF);
    int n = snprintf(buf, size, "%s at +0x%llx (%s)", wk_gpu_fault_name(f->reason),
                     (unsigned long long)f->offset, opname);
    /* A static fault was found in bytes never fetched: "in buffer 0x0" named
     * nothing. */
    if (n >= 0 && (size_t)n < size && !(f->flags & WK_GPU_FAULT_STATIC))
        n += snprintf(buf + n, size - (size_t)n, " in buffer 0x%llx depth %u",
                      (unsigned long long)f->buffer_addr, f->depth);
    if (n >= 0 && (size_t)n < size)
        format_tail(f, buf + n, size - (size_t)n);
}
