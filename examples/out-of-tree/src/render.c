/* SPDX-License-Identifier: MIT */
/*
 * render.c - DxgkDdiRender: the kit UMD's command buffer (wddmkit/umd.h)
 * into GPU-model commands, with a patch location per address.
 *
 * pCommand is hostile input (facts §5.2 R1). Every record is copied out of
 * [pCommand, pCommand + CommandLength) before a field is read, and Render
 * runs in two passes so that bad input never leaves half a DMA buffer:
 *   1. validate: the header, then exactly RecordCount records ending at
 *      CommandLength, each decoded by its kind and each memory reference
 *      checked against the allocation list; MultipassOffset must be 0 or a
 *      record boundary;
 *   2. translate from MultipassOffset: one command per record, taken whole
 *      or not at all (R3).
 * The kinds are a table (`kinds`): record size, model opcode, decoder and
 * encoder. Reference k of a record is address operand k of its command.
 */
#include "independent.h"

#define MAX_REFS 2u

/* One user record, decoded and checked. */
struct record {
    const struct record_kind *kind;
    UINT length;                /* bytes of the whole record in pCommand */
    UINT nrefs;
    WK_USER_REF refs[MAX_REFS]; /* in operand order */
    UINT64 extent[MAX_REFS];    /* bytes each reference touches */
    union {
        WK_USER_COPY copy;
        WK_USER_FILL fill;
        WK_USER_WRITE32 write32;
        WK_USER_BLIT blit;
    } u;
};

typedef NTSTATUS decode_fn(const BYTE *at, struct record *rec);
typedef wk_status encode_fn(struct wk_gpu_writer *w, const struct record *rec, const UINT64 *addr);

struct record_kind {
    UINT size;                 /* bytes of its WK_USER_* struct: the shortest valid Length */
    enum wk_gpu_opcode opcode; /* of the command it becomes */
    decode_fn *decode;
    encode_fn *encode;         /* NULL: the record becomes no command */
};

static void add_ref(struct record *rec, WK_USER_REF ref, UINT64 bytes)
{
    rec->refs[rec->nrefs] = ref;
    rec->extent[rec->nrefs] = bytes;
    rec->nrefs++;
}

/* ------------------------------------------------------------------ */
/* Record kinds                                                          */
/* ------------------------------------------------------------------ */

static NTSTATUS decode_nop(const BYTE *at, struct record *rec)
{
    UNREFERENCED_PARAMETER(at);
    UNREFERENCED_PARAMETER(rec);
    return STATUS_SUCCESS;
}

static NTSTATUS decode_copy(const BYTE *at, struct record *rec)
{
    WK_USER_COPY *c = &rec->u.copy;
    RtlCopyMemory(c, at, sizeof(*c));
    if (c->Reserved != 0)
        return STATUS_INVALID_PARAMETER;
    add_ref(rec, c->Source, c->Size);
    add_ref(rec, c->Destination, c->Size);
    return STATUS_SUCCESS;
}

static wk_status encode_copy(struct wk_gpu_writer *w, const struct record *rec, const UINT64 *addr)
{
    return wk_gpu_emit_copy(w, addr[0], addr[1], rec->u.copy.Size);
}

static NTSTATUS decode_fill(const BYTE *at, struct record *rec)
{
    WK_USER_FILL *f = &rec->u.fill;
    RtlCopyMemory(f, at, sizeof(*f));
    add_ref(rec, f->Destination, f->Size);
    return STATUS_SUCCESS;
}

static wk_status encode_fill(struct wk_gpu_writer *w, const struct record *rec, const UINT64 *addr)
{
    return wk_gpu_emit_fill(w, addr[0], rec->u.fill.Size, rec->u.fill.Pattern);
}

static NTSTATUS decode_write32(const BYTE *at, struct record *rec)
{
    WK_USER_WRITE32 *v = &rec->u.write32;
    RtlCopyMemory(v, at, sizeof(*v));
    if (v->Reserved != 0)
        return STATUS_INVALID_PARAMETER;
    add_ref(rec, v->Destination, sizeof(UINT));
    return STATUS_SUCCESS;
}

static wk_status encode_write32(struct wk_gpu_writer *w, const struct record *rec, const UINT64 *addr)
{
    return wk_gpu_emit_write32(w, addr[0], rec->u.write32.Value);
}

/* Bytes a BLIT side spans: from its first row's start to its last row's
 * end (64-bit: cannot wrap). */
static UINT64 blit_extent(UINT width, UINT height, UINT pitch)
{
    return height && width ? (UINT64)(height - 1) * pitch + width : 0; /* no row or no column: nothing (umd.h) */
}

/* The model's BLIT limits (docs/gpu-model.md): checked here, so that a
 * valid record always encodes. */
#define BLIT_MAX_WIDTH (1u << 20)
#define BLIT_MAX_HEIGHT 16384u

static NTSTATUS decode_blit(const BYTE *at, struct record *rec)
{
    WK_USER_BLIT *b = &rec->u.blit;
    RtlCopyMemory(b, at, sizeof(*b));
    if (b->Width > BLIT_MAX_WIDTH || b->Height > BLIT_MAX_HEIGHT)
        return STATUS_INVALID_PARAMETER;
    add_ref(rec, b->Source, blit_extent(b->Width, b->Height, b->SourcePitch));
    add_ref(rec, b->Destination, blit_extent(b->Width, b->Height, b->DestinationPitch));
    return STATUS_SUCCESS;
}

static wk_status encode_blit(struct wk_gpu_writer *w, const struct record *rec, const UINT64 *addr)
{
    const WK_USER_BLIT *b = &rec->u.blit;
    return wk_gpu_emit_blit(w, addr[0], addr[1], b->Width, b->Height, b->SourcePitch, b->DestinationPitch);
}

static const struct record_kind kinds[WK_USER_OP_COUNT] = {
    [WK_USER_OP_NOP] = {sizeof(WK_USER_RECORD), WK_GPU_OP_NOP, decode_nop, NULL},
    [WK_USER_OP_COPY] = {sizeof(WK_USER_COPY), WK_GPU_OP_COPY, decode_copy, encode_copy},
    [WK_USER_OP_FILL] = {sizeof(WK_USER_FILL), WK_GPU_OP_FILL, decode_fill, encode_fill},
    [WK_USER_OP_WRITE32] = {sizeof(WK_USER_WRITE32), WK_GPU_OP_WRITE32, decode_write32, encode_write32},
    [WK_USER_OP_BLIT] = {sizeof(WK_USER_BLIT), WK_GPU_OP_BLIT, decode_blit, encode_blit},
};

/* ------------------------------------------------------------------ */
/* Pass 1: validate                                                      */
/* ------------------------------------------------------------------ */

static NTSTATUS read_header(const DXGKARG_RENDER *r, WK_USER_COMMAND_HEADER *h)
{
    if (!r->pCommand || r->CommandLength < sizeof(*h))
        return STATUS_INVALID_USER_BUFFER;
    RtlCopyMemory(h, r->pCommand, sizeof(*h));
    if (h->Magic != WK_USER_COMMAND_MAGIC || h->Reserved != 0)
        return STATUS_INVALID_PARAMETER;
    if (h->Version != WK_USER_COMMAND_VERSION)
        return STATUS_GRAPHICS_DRIVER_MISMATCH;
    return STATUS_SUCCESS;
}

/* The record at byte `offset`, which must lie wholly before CommandLength
 * and be at least as long as its kind (a longer one's tail is skipped). */
static NTSTATUS read_record(const DXGKARG_RENDER *r, UINT offset, struct record *rec)
{
    const BYTE *at = (const BYTE *)r->pCommand + offset;
    const UINT left = r->CommandLength - offset;
    WK_USER_RECORD head;
    if (left < sizeof(head))
        return STATUS_INVALID_USER_BUFFER;
    RtlCopyMemory(&head, at, sizeof(head));
    if (head.Length < sizeof(head) || head.Length > left)
        return STATUS_INVALID_USER_BUFFER;
    if (head.Op >= WK_USER_OP_COUNT)
        return STATUS_ILLEGAL_INSTRUCTION;
    const struct record_kind *kind = &kinds[head.Op];
    if (head.Length < kind->size)
        return STATUS_INVALID_USER_BUFFER;
    RtlZeroMemory(rec, sizeof(*rec));
    rec->kind = kind;
    rec->length = head.Length;
    return kind->decode(at, rec);
}

/* A reference names an entry of this call's allocation list holding an
 * allocation of this driver (not a NULL entry), and stays inside it. */
static NTSTATUS check_ref(const DXGKARG_RENDER *r, WK_USER_REF ref, UINT64 bytes)
{
    if (ref.AllocationIndex >= r->AllocationListSize || !r->pAllocationList)
        return STATUS_INVALID_PARAMETER;
    const struct ind_allocation *alloc =
        ind_allocation_get(r->pAllocationList[ref.AllocationIndex].hDeviceSpecificAllocation);
    if (!alloc)
        return STATUS_INVALID_HANDLE;
    if ((UINT64)ref.Offset + bytes > alloc->size)
        return STATUS_INVALID_PARAMETER;
    return STATUS_SUCCESS;
}

static NTSTATUS check_refs(const DXGKARG_RENDER *r, const struct record *rec)
{
    for (UINT k = 0; k < rec->nrefs; k++) {
        NTSTATUS status = check_ref(r, rec->refs[k], rec->extent[k]);
        if (status != STATUS_SUCCESS)
            return status;
    }
    return STATUS_SUCCESS;
}

/* Every record is at least 8 bytes, so the walk ends within CommandLength
 * / 8 steps whatever RecordCount claims. */
static NTSTATUS validate(const DXGKARG_RENDER *r, UINT count)
{
    UINT offset = sizeof(WK_USER_COMMAND_HEADER);
    BOOLEAN resume_is_boundary = r->MultipassOffset == 0;
    for (UINT i = 0; i < count; i++) {
        struct record rec;
        if (offset == r->MultipassOffset)
            resume_is_boundary = TRUE;
        NTSTATUS status = read_record(r, offset, &rec);
        if (status == STATUS_SUCCESS)
            status = check_refs(r, &rec);
        if (status != STATUS_SUCCESS)
            return status;
        offset += rec.length;
    }
    if (offset != r->CommandLength)
        return STATUS_INVALID_USER_BUFFER; /* bytes after the last record */
    return resume_is_boundary ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
}

/* ------------------------------------------------------------------ */
/* Pass 2: translate                                                     */
/* ------------------------------------------------------------------ */

struct output {
    struct wk_gpu_writer dma;
    D3DDDI_PATCHLOCATIONLIST *patch; /* next free entry */
    UINT patch_left;
};

/* R6: where the allocation list already places the allocation, the
 * operand gets its final address now; otherwise 0 until Patch. */
static UINT64 prepatched(const DXGKARG_RENDER *r, WK_USER_REF ref)
{
    const DXGK_ALLOCATIONLIST *e = &r->pAllocationList[ref.AllocationIndex];
    return e->SegmentId ? (UINT64)e->PhysicalAddress.QuadPart + ref.Offset : 0;
}

/* R7: one entry per address operand, prepatched or not. SlotId is the
 * operand's rank in its command, below MaxAllocationListSlotId
 * (RENDER-PATCH-005); both operands of a command share its start as
 * SplitOffset, so they are re-programmed together (S4, RENDER-PATCH-004). */
static void list_patch(struct output *out, const struct record *rec, UINT k, UINT64 command_start)
{
    D3DDDI_PATCHLOCATIONLIST *p = out->patch++;
    out->patch_left--;
    RtlZeroMemory(p, sizeof(*p));
    p->AllocationIndex = rec->refs[k].AllocationIndex;
    p->AllocationOffset = rec->refs[k].Offset;
    p->PatchOffset = (UINT)(command_start + wk_gpu_operand_offset(rec->kind->opcode, k));
    p->SlotId = k;
    p->SplitOffset = (UINT)command_start;
}

/* FALSE when the command or its patch entries do not fit. A valid record
 * always encodes (its operands were checked), so a refusal means no room. */
static BOOLEAN translate_record(const DXGKARG_RENDER *r, struct output *out, const struct record *rec)
{
    if (!rec->kind->encode)
        return TRUE;
    if (rec->nrefs > out->patch_left)
        return FALSE;
    UINT64 addr[MAX_REFS] = {0, 0};
    for (UINT k = 0; k < rec->nrefs; k++)
        addr[k] = prepatched(r, rec->refs[k]);
    const UINT64 start = out->dma.used;
    if (rec->kind->encode(&out->dma, rec, addr) != WK_OK)
        return FALSE;
    for (UINT k = 0; k < rec->nrefs; k++)
        list_patch(out, rec, k, start);
    return TRUE;
}

/* R2: pDmaBuffer and pPatchLocationListOut move past what was written. */
static void hand_back(DXGKARG_RENDER *r, const struct output *out)
{
    r->pDmaBuffer = (BYTE *)r->pDmaBuffer + out->dma.used;
    r->pPatchLocationListOut = out->patch;
}

/* From the record at MultipassOffset (0: the first). When the next record
 * does not fit, MultipassOffset names it and the kernel calls again with a
 * fresh buffer (R3). */
static NTSTATUS translate(DXGKARG_RENDER *r, UINT count)
{
    struct output out;
    wk_gpu_writer_init(&out.dma, r->pDmaBuffer, r->DmaSize);
    out.patch = r->pPatchLocationListOut;
    out.patch_left = r->pPatchLocationListOut ? r->PatchLocationListOutSize : 0;
    UINT offset = sizeof(WK_USER_COMMAND_HEADER);
    for (UINT i = 0; i < count; i++) {
        struct record rec;
        read_record(r, offset, &rec); /* validated: cannot fail */
        if (offset >= r->MultipassOffset && !translate_record(r, &out, &rec)) {
            hand_back(r, &out);
            r->MultipassOffset = offset;
            return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
        }
        offset += rec.length;
    }
    hand_back(r, &out);
    return STATUS_SUCCESS;
}

NTSTATUS IndRender(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    if (!ind_context_get(hContext))
        return STATUS_INVALID_HANDLE;
    WK_USER_COMMAND_HEADER header;
    NTSTATUS status = read_header(pRender, &header);
    if (status == STATUS_SUCCESS)
        status = validate(pRender, header.RecordCount);
    if (status == STATUS_SUCCESS)
        status = translate(pRender, header.RecordCount);
    return status;
}
