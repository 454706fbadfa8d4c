/* SPDX-License-Identifier: MIT */
/*
 * faults.c - why Heron's command processor halted, in the kit's classes
 * (wddmkit/processor.h, enum wk_fault_class) and in Heron's words.
 *
 * One table (HERON_FAULT_MAP, heron_gpu.h) gives each code its class and
 * its words, so the processor, the disassembler and the reports say the
 * same thing. The binding links nothing of the kit, so the words of a
 * memory system's refusal (gpu.h's fault reasons) are written here too.
 */
#include <stdio.h>

#include "heron_gpu.h"

struct heron_fault_entry {
    uint32_t cls;
    const char *words;
};

static const struct heron_fault_entry heron_faults[HERON_FAULT_CODE_COUNT] = {
#define HERON_FAULT_ENTRY_(name, cls, words) [name] = { cls, words },
    HERON_FAULT_MAP(HERON_FAULT_ENTRY_)
#undef HERON_FAULT_ENTRY_
};

uint32_t heron_fault_class(uint32_t code)
{
    return code < HERON_FAULT_CODE_COUNT ? heron_faults[code].cls : WK_FAULT_STATE;
}

const char *heron_fault_words(uint32_t code)
{
    return code < HERON_FAULT_CODE_COUNT ? heron_faults[code].words : "?";
}

const char *heron_mem_reason_words(uint32_t reason)
{
    switch (reason) {
    case WK_GPU_FAULT_BAD_ADDRESS:
        return "no memory at that address";
    case WK_GPU_FAULT_UNMAPPED_APERTURE:
        return "aperture page not mapped";
    case WK_GPU_FAULT_CROSSES_SEGMENT:
        return "access crosses the end of its segment";
    case WK_GPU_FAULT_MEMORY_LIMIT:
        return "the model's memory limit";
    case WK_GPU_FAULT_BAD_OPERAND:
        return "GART range refused";
    default:
        return "refused";
    }
}

/* "COPY", or "opcode 0x1f" for one Heron does not have, or "no header". */
static void name_opcode(uint32_t opcode, char *buf, size_t size)
{
    const struct heron_packet_info *info = heron_packet_info(opcode);
    if (info != NULL) {
        snprintf(buf, size, "%s", info->mnemonic);
    } else if (opcode == HERON_OPCODE_NONE) {
        snprintf(buf, size, "no header");
    } else {
        snprintf(buf, size, "opcode 0x%02x", opcode & 0xFFu);
    }
}

void heron_fault_text(void *self, const struct wk_exec_fault *f, char *buf, size_t size)
{
    char what[32];

    (void)self;
    if (buf == NULL || size == 0) {
        return;
    }
    if (f == NULL) {
        snprintf(buf, size, "Heron: no fault");
        return;
    }
    name_opcode(f->opcode, what, sizeof what);
    if (f->cls == WK_FAULT_MEMORY) {
        snprintf(buf, size, "Heron CP halted at +0x%llx (%s): memory access at 0x%llx refused: %s",
                 (unsigned long long)f->offset, what, (unsigned long long)f->fault_addr,
                 heron_mem_reason_words(f->mem_reason));
        return;
    }
    snprintf(buf, size, "Heron CP halted at +0x%llx (%s): %s", (unsigned long long)f->offset, what,
             heron_fault_words(f->code));
}
