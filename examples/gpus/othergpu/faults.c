/* SPDX-License-Identifier: MIT */
/*
 * faults.c - why OtherGPU's command processor halted, in the kit's classes
 * (wddmkit/processor.h, enum wk_fault_class) and in OtherGPU's words.
 *
 * One table (OGB_FAULT_MAP, othergpu_gpu.h) gives each code its class and
 * its words, so the processor and the reports say the same thing. The
 * binding links nothing of the kit, so the words of a memory system's
 * refusal (gpu.h's fault reasons) are written here too.
 */
#include <stdio.h>

#include "othergpu_gpu.h"

struct ogb_fault_entry {
    uint32_t cls;
    const char *words;
};

static const struct ogb_fault_entry og_faults[OGB_FAULT_CODE_COUNT] = {
#define OGB_FAULT_ENTRY_(name, cls, words) [name] = { cls, words },
    OGB_FAULT_MAP(OGB_FAULT_ENTRY_)
#undef OGB_FAULT_ENTRY_
};

uint32_t ogb_fault_class(uint32_t code)
{
    return code < OGB_FAULT_CODE_COUNT ? og_faults[code].cls : WK_FAULT_STATE;
}

const char *ogb_fault_words(uint32_t code)
{
    return code < OGB_FAULT_CODE_COUNT ? og_faults[code].words : "?";
}

const char *ogb_mem_reason_words(uint32_t reason)
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
        return "GART entry refused";
    default:
        return "refused";
    }
}

/* "COPY", or "op 0x1f" for one OtherGPU does not have, or "no record". */
static void name_op(uint32_t op, char *buf, size_t size)
{
    const struct ogb_record_info *info = ogb_record_info(op);
    if (info != NULL) {
        snprintf(buf, size, "%s", info->mnemonic);
    } else if (op == OGB_OPCODE_NONE) {
        snprintf(buf, size, "no record");
    } else {
        snprintf(buf, size, "op 0x%x", op);
    }
}

void ogb_fault_text(void *self, const struct wk_exec_fault *f, char *buf, size_t size)
{
    char what[32];

    (void)self;
    if (buf == NULL || size == 0) {
        return;
    }
    if (f == NULL) {
        snprintf(buf, size, "OtherGPU: no fault");
        return;
    }
    name_op(f->opcode, what, sizeof what);
    if (f->cls == WK_FAULT_MEMORY) {
        snprintf(buf, size, "OtherGPU halted at +0x%llx (%s): memory access at 0x%llx refused: %s",
                 (unsigned long long)f->offset, what, (unsigned long long)f->fault_addr,
                 ogb_mem_reason_words(f->mem_reason));
        return;
    }
    snprintf(buf, size, "OtherGPU halted at +0x%llx (%s): %s", (unsigned long long)f->offset, what,
             ogb_fault_words(f->code));
}
