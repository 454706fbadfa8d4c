/* SPDX-License-Identifier: MIT */
/*
 * render.c - DxgkDdiRender: the kit's user command buffer (wddmkit/umd.h)
 * translated into model commands plus patch locations.
 *
 * The command buffer is user memory and hostile (facts 5.2 R1). The walk is
 * the etnaviv shape: a per-opcode size table bounds every record; each record
 * is copied out of [pCommand, pCommand + CommandLength) once, into a local,
 * and only the local is checked and used, so a record that changes under the
 * driver cannot get past its checks. Two passes over the buffer:
 *   1. validate every record (structure, opcodes, allocation references and
 *      extents against the allocation sizes) and find the resume point;
 *   2. translate from the resume point (MultipassOffset) until done or until
 *      the DMA buffer or the patch list cannot take the next whole record.
 * Bad input is rejected in pass 1, so it never leaves a partial DMA buffer.
 *
 * Translation (docs/refdriver.md, "Render"):
 *   COPY → COPY, FILL → FILL, WRITE32 → WRITE32, BLIT → BLIT, NOP → nothing.
 * Each address operand gets a patch location {AllocationIndex, SlotId = the
 * operand's rank among the command's address operands (0 or 1), DriverId 0,
 * AllocationOffset = the reference's offset, PatchOffset = operand position
 * in the DMA buffer, SplitOffset = start of the command}, and is pre-patched
 * now when the allocation list says where the allocation is (R6, R7).
 * pPatchLocationListIn is not read: the list is regenerated from the stream
 * (R9).
 */
#include "refdriver.h"

/* A decoded, checked user record. */
union user_record {
    WK_USER_RECORD header;
    WK_USER_COPY copy;
    WK_USER_FILL fill;
    WK_USER_WRITE32 write32;
    WK_USER_BLIT blit;
};

/* Bytes of each record type: a record's Length may be larger (the tail is
 * skipped), never smaller. */
static const UINT record_size[WK_USER_OP_COUNT] = {
    [WK_USER_OP_NOP] = sizeof(WK_USER_RECORD),
    [WK_USER_OP_COPY] = sizeof(WK_USER_COPY),
    [WK_USER_OP_FILL] = sizeof(WK_USER_FILL),
    [WK_USER_OP_WRITE32] = sizeof(WK_USER_WRITE32),
    [WK_USER_OP_BLIT] = sizeof(WK_USER_BLIT),
};

/* The model command each record becomes, and its address operands. */
struct translation {
    enum wk_gpu_opcode opcode;
    UINT refs;                /* address operands = patch locations */
    WK_USER_REF ref[2];       /* in operand order */
};

struct render_input {
    const BYTE *cmd;
    UINT length;
    const DXGK_ALLOCATIONLIST *list;
    UINT list_size;
};

/* ------------------------------------------------------------------ */
/* Pass 1: validation                                                   */
/* ------------------------------------------------------------------ */

/* A reference to `extent` bytes at ref: a listed, live allocation of ours,
 * and the bytes inside it (64-bit math, so no 32-bit offset can wrap). */
static NTSTATUS check_ref(const struct render_input *in, WK_USER_REF ref, UINT64 extent)
{
    if (ref.AllocationIndex >= in->list_size)
        return STATUS_INVALID_PARAMETER;
    const struct rd_allocation *alloc =
        rd_allocation_from(in->list[ref.AllocationIndex].hDeviceSpecificAllocation);
    /* A NULL (unbind) entry or a handle not ours has no memory to address;
     * a context allocation is kernel-private and never user-addressable. */
    if (!alloc || alloc->context_allocation)
        return STATUS_INVALID_HANDLE;
    if (ref.Offset > alloc->size || extent > alloc->size - ref.Offset)
        return STATUS_INVALID_PARAMETER;
    return STATUS_SUCCESS;
}

static BOOLEAN blit_in_limits(const WK_USER_BLIT *b)
{
    const struct wk_gpu_opcode_info *op = wk_gpu_opcode_info(WK_GPU_OP_BLIT);
    const UINT64 max_width = op->operands[2].max_value, max_height = op->operands[3].max_value;
    return (!max_width || b->Width <= max_width) && (!max_height || b->Height <= max_height);
}

/* Field checks of a record already copied out; fills the translation. */
static NTSTATUS check_fields(const struct render_input *in, const union user_record *r,
                             struct translation *t)
{
    NTSTATUS st = STATUS_SUCCESS;
    t->refs = 0;
    switch (r->header.Op) {
    case WK_USER_OP_NOP:
        t->opcode = WK_GPU_OP_NOP;
        return STATUS_SUCCESS;
    case WK_USER_OP_COPY:
        if (r->copy.Reserved != 0)
            return STATUS_INVALID_PARAMETER;
        if (!NT_SUCCESS(st = check_ref(in, r->copy.Source, r->copy.Size)))
            return st;
        st = check_ref(in, r->copy.Destination, r->copy.Size);
        *t = (struct translation){ WK_GPU_OP_COPY, 2, { r->copy.Source, r->copy.Destination } };
        return st;
    case WK_USER_OP_FILL:
        st = check_ref(in, r->fill.Destination, r->fill.Size);
        *t = (struct translation){ WK_GPU_OP_FILL, 1, { r->fill.Destination, { 0, 0 } } };
        return st;
    case WK_USER_OP_WRITE32:
        if (r->write32.Reserved != 0)
            return STATUS_INVALID_PARAMETER;
        st = check_ref(in, r->write32.Destination, 4);
        *t = (struct translation){ WK_GPU_OP_WRITE32, 1, { r->write32.Destination, { 0, 0 } } };
        return st;
    default: /* WK_USER_OP_BLIT: read_record admits no other op */
        if (!blit_in_limits(&r->blit))
            return STATUS_INVALID_PARAMETER;
        st = check_ref(in, r->blit.Source,
                       wk_user_blit_extent(r->blit.Width, r->blit.Height, r->blit.SourcePitch));
        if (!NT_SUCCESS(st))
            return st;
        st = check_ref(in, r->blit.Destination,
                       wk_user_blit_extent(r->blit.Width, r->blit.Height, r->blit.DestinationPitch));
        *t = (struct translation){ WK_GPU_OP_BLIT, 2, { r->blit.Source, r->blit.Destination } };
        return st;
    }
}

/* Copies the record at byte `off` out of the user buffer and checks it.
 * *length receives its Length. Under/overruns: INVALID_USER_BUFFER; an
 * unknown op: ILLEGAL_INSTRUCTION (facts 2.2). */
static NTSTATUS read_record(const struct render_input *in, UINT off, union user_record *r,
                            struct translation *t, UINT *length)
{
    if (in->length - off < sizeof(WK_USER_RECORD))
        return STATUS_INVALID_USER_BUFFER;
    RtlCopyMemory(&r->header, in->cmd + off, sizeof(r->header));
    UINT op = r->header.Op, len = r->header.Length;
    if (len < sizeof(WK_USER_RECORD) || len > in->length - off)
        return STATUS_INVALID_USER_BUFFER;
    if (op >= WK_USER_OP_COUNT)
        return STATUS_ILLEGAL_INSTRUCTION;
    if (len < record_size[op])
        return STATUS_INVALID_USER_BUFFER;
    RtlCopyMemory(r, in->cmd + off, record_size[op]);
    r->header.Op = op; /* the copy, not the user memory, is what counts */
    r->header.Length = len;
    *length = len;
    return check_fields(in, r, t);
}

static NTSTATUS check_header(const struct render_input *in, UINT *records)
{
    WK_USER_COMMAND_HEADER h;
    if (!in->cmd || in->length < sizeof(h))
        return STATUS_INVALID_USER_BUFFER;
    RtlCopyMemory(&h, in->cmd, sizeof(h));
    if (h.Magic != WK_USER_COMMAND_MAGIC || h.Reserved != 0)
        return STATUS_INVALID_PARAMETER;
    if (h.Version != WK_USER_COMMAND_VERSION)
        return STATUS_GRAPHICS_DRIVER_MISMATCH; /* UMD and KMD disagree (facts 2.2) */
    *records = h.RecordCount;
    return STATUS_SUCCESS;
}

/* Pass 1: every record valid; RecordCount records end exactly at
 * CommandLength; `resume` (0 = first record) is a record boundary. */
static NTSTATUS validate(const struct render_input *in, UINT resume)
{
    UINT records, off = sizeof(WK_USER_COMMAND_HEADER);
    NTSTATUS st = check_header(in, &records);
    if (!NT_SUCCESS(st))
        return st;
    BOOLEAN resume_found = resume == 0 || resume == off;
    for (UINT i = 0; i < records; i++) {
        union user_record r;
        struct translation t;
        UINT len;
        if (!NT_SUCCESS(st = read_record(in, off, &r, &t, &len)))
            return st;
        off += len;
        resume_found = resume_found || resume == off;
    }
    if (off != in->length)
        return STATUS_INVALID_USER_BUFFER; /* bytes after the last record */
    return resume_found ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
}

/* ------------------------------------------------------------------ */
/* Pass 2: translation                                                  */
/* ------------------------------------------------------------------ */

struct render_output {
    struct wk_gpu_writer w;
    D3DDDI_PATCHLOCATIONLIST *patches;
    UINT patch_room;
    UINT patch_count;
    UINT commands;
};

/* The address an operand gets now: the allocation's last known place when
 * the list has it (R6), else 0 until Patch. */
static UINT64 prepatch_address(const struct render_input *in, WK_USER_REF ref)
{
    const DXGK_ALLOCATIONLIST *e = &in->list[ref.AllocationIndex];
    return e->SegmentId ? (UINT64)e->PhysicalAddress.QuadPart + ref.Offset : 0;
}

static wk_status emit_command(struct wk_gpu_writer *w, const struct render_input *in,
                              const union user_record *r, const struct translation *t)
{
    UINT64 a0 = t->refs > 0 ? prepatch_address(in, t->ref[0]) : 0;
    UINT64 a1 = t->refs > 1 ? prepatch_address(in, t->ref[1]) : 0;
    switch (t->opcode) {
    case WK_GPU_OP_COPY: return wk_gpu_emit_copy(w, a0, a1, r->copy.Size);
    case WK_GPU_OP_FILL: return wk_gpu_emit_fill(w, a0, r->fill.Size, r->fill.Pattern);
    case WK_GPU_OP_WRITE32: return wk_gpu_emit_write32(w, a0, r->write32.Value);
    case WK_GPU_OP_BLIT:
        return wk_gpu_emit_blit(w, a0, a1, r->blit.Width, r->blit.Height, r->blit.SourcePitch,
                                r->blit.DestinationPitch);
    default: return WK_OK; /* NOP records produce nothing */
    }
}

/* Byte offset, inside a command, of its rank-th address operand: what a
 * patch location points at (docs/gpu-model.md, operand kind `addr`). */
static UINT addr_operand_offset(enum wk_gpu_opcode opcode, UINT rank)
{
    const struct wk_gpu_opcode_info *op = wk_gpu_opcode_info(opcode);
    for (UINT i = 0; i < op->operand_count; i++)
        if (op->operands[i].kind == WK_GPU_OPND_ADDR && rank-- == 0)
            return wk_gpu_operand_offset(opcode, i);
    return 0; /* not reached: translations list only address operands */
}

/* One patch location per address operand (R7). SlotId = operand rank: the
 * model keeps no bindings between commands, so each command binds its own
 * operands to slots 0 and 1, and the next command's bindings replace them
 * (facts 5.4 S2). SplitOffset = command start; the two operands of a COPY
 * or BLIT share it, and are re-programmed together (S4). */
static void emit_patches(struct render_output *out, const struct translation *t, UINT at)
{
    NT_ASSERT(out->patch_room - out->patch_count >= t->refs); /* translate_one checked */
    for (UINT i = 0; i < t->refs; i++) {
        D3DDDI_PATCHLOCATIONLIST *p = &out->patches[out->patch_count++];
        RtlZeroMemory(p, sizeof(*p));
        p->AllocationIndex = t->ref[i].AllocationIndex;
        p->SlotId = i;
        p->DriverId = 0;
        p->AllocationOffset = t->ref[i].Offset;
        p->PatchOffset = at + addr_operand_offset(t->opcode, i);
        p->SplitOffset = at;
    }
}

/* Translates one record if the DMA buffer and the patch list can take all
 * of it; FALSE (nothing written) when they cannot. */
static BOOLEAN translate_one(struct render_output *out, const struct render_input *in,
                             const union user_record *r, const struct translation *t)
{
    if (t->opcode == WK_GPU_OP_NOP)
        return TRUE;
    if (out->patch_room - out->patch_count < t->refs)
        return FALSE;
    UINT at = (UINT)out->w.used;
    if (emit_command(&out->w, in, r, t) != WK_OK) /* only NO_SPACE after pass 1 */
        return FALSE;
    emit_patches(out, t, at);
    out->commands++;
    return TRUE;
}

/* Pass 2 from byte `off`; returns SUCCESS or INSUFFICIENT_DMA_BUFFER with
 * *next the byte offset of the first record not translated. */
static NTSTATUS translate(const struct render_input *in, UINT off, struct render_output *out,
                          UINT *next)
{
    while (off < in->length) {
        union user_record r;
        struct translation t;
        UINT len;
        NTSTATUS st = read_record(in, off, &r, &t, &len);
        if (!NT_SUCCESS(st))
            return st; /* the buffer changed since pass 1 */
        if (!translate_one(out, in, &r, &t)) {
            *next = off;
            return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
        }
        off += len;
    }
    *next = off;
    return STATUS_SUCCESS;
}

static void note_private(DXGKARG_RENDER *args, const struct rd_context *ctx,
                         const struct render_output *out, UINT first, UINT next)
{
    struct rd_dma_private *p = rd_dma_private_of(args->pDmaBufferPrivateData,
                                                 args->DmaBufferPrivateDataSize);
    if (!p)
        return;
    RtlZeroMemory(p, sizeof(*p));
    p->magic = RD_MAGIC_DMA;
    p->kind = RD_DMA_RENDER;
    p->context_id = ctx->id;
    p->commands = out->commands;
    p->patches = out->patch_count;
    p->first_record = first;
    p->next_record = next;
}

NTSTATUS wk_rd_render(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    struct rd_context *ctx = rd_context_from(hContext);
    if (!ctx || !pRender)
        return STATUS_INVALID_HANDLE;
    DXGKARG_RENDER *args = pRender;
    struct render_input in = { args->pCommand, args->CommandLength, args->pAllocationList,
                               args->pAllocationList ? args->AllocationListSize : 0 };
    NTSTATUS st = validate(&in, args->MultipassOffset);
    if (!NT_SUCCESS(st))
        return st;
    UINT first = args->MultipassOffset ? args->MultipassOffset : sizeof(WK_USER_COMMAND_HEADER);
    struct render_output out;
    RtlZeroMemory(&out, sizeof(out));
    wk_gpu_writer_init(&out.w, args->pDmaBuffer, args->pDmaBuffer ? args->DmaSize : 0);
    out.patches = args->pPatchLocationListOut;
    out.patch_room = out.patches ? args->PatchLocationListOutSize : 0;
    UINT next = first;
    st = translate(&in, first, &out, &next);
    if (!NT_SUCCESS(st) && st != STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER)
        return st;
    /* R2: both cursors past what was written, whatever the status (R3). */
    if (out.w.used)
        args->pDmaBuffer = (BYTE *)args->pDmaBuffer + out.w.used;
    if (out.patch_count)
        args->pPatchLocationListOut += out.patch_count;
    if (st == STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER)
        args->MultipassOffset = next;
    note_private(args, ctx, &out, first, next);
    return st;
}
