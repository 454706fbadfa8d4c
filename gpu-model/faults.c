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

void fault_record(struct wk_gpu *gpu, enum wk_gpu_fault_reason why, uint32_t opcode, uint64_t offset,
                  uint64_t buffer_addr, uint32_t depth, uint64_t fault_addr)
{
    if (gpu->fault_total < WK_GPU_FAULT_LOG_SIZE)
        fault_fill(&gpu->fault_log[gpu->fault_total], why, opcode, offset, buffer_addr, depth, fault_addr);
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
    int n = snprintf(buf, size, "%s at +0x%llx (%s) in buffer 0x%llx depth %u",
                     wk_gpu_fault_name(f->reason), (unsigned long long)f->offset, opname,
                     (unsigned long long)f->buffer_addr, f->depth);
    if (n >= 0 && (size_t)n < size && f->fault_addr)
        snprintf(buf + n, size - (size_t)n, ": address 0x%llx", (unsigned long long)f->fault_addr);
}
