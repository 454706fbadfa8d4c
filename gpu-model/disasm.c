/* SPDX-License-Identifier: MIT */
/*
 * disasm.c - one text line per command, from the opcode table.
 *
 * The output is for people and for golden files: stable spelling, operands
 * in table order as name=value, addresses and values in hex, counts in
 * decimal. Trailing lists print their first 8 elements.
 *
 * Lines are built with a few digit loops rather than snprintf: the fuzz
 * harness disassembles every input, and printf's format parsing was the
 * largest single cost of a fuzz_gpu_decode execution (docs/performance.md).
 */
#include <string.h>

#include "internal.h"

#define LIST_SHOWN 8u

/* Lines are written through a cursor without per-character checks: every
 * token is either a name from the command table or a 64-bit number (at most
 * 20 digits), so the longest line the table can produce (GART_MAP with
 * eight list elements and its "... N more" tail, about 300 bytes; a fault
 * line with the longest detail, about 260) fits LINE_MAX with room to
 * spare, including the 16 bytes a fixed-size copy of a name or a number may
 * write past the token's end (a fault line's 32-byte command head, at least
 * 22 bytes long, 10). tests/test_gpu_codec.c checks the table's names stay
 * short enough for that bound. */
#define LINE_MAX_BYTES 512

/* A string literal: a copy of constant length, which the compiler inlines
 * as a few stores (the byte loop over ": opcode byte 0x" and its like was the
 * hottest part of a fault line). */
#define put_lit(p, lit) put_bytes((p), (lit), sizeof(lit) - 1)

static char *put_bytes(char *p, const char *s, size_t n)
{
    memcpy(p, s, n);
    return p + n;
}

/* The zero bytes of w, as their top bits (exact up to the first zero byte,
 * which is all name_len needs). */
static uint64_t zero_bytes(uint64_t w)
{
    return (w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull;
}

/* Length of a padded table name (internal.h): where its first zero byte is,
 * from two words instead of a byte loop whose exit mispredicted once per
 * name. */
static size_t name_len(const char *s)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t w[2];
    memcpy(w, s, sizeof(w));
    uint64_t z0 = zero_bytes(w[0]), z1 = zero_bytes(w[1]);
    return z0 ? (size_t)__builtin_ctzll(z0) / 8 : 8 + (size_t)__builtin_ctzll(z1) / 8;
#else
    return strlen(s);
#endif
}

/* A table name: one fixed-size copy of its padded array (the bytes past the
 * name land where the next token goes). */
static char *put_name(char *p, const char *name)
{
    memcpy(p, name, OPCODE_NAME_BYTES);
    return p + name_len(name);
}

static unsigned hex_digits(uint64_t v, int min_digits)
{
    int n = v ? (64 - __builtin_clzll(v) + 3) / 4 : 1;
    return (unsigned)(n < min_digits ? min_digits : n);
}

#if defined(__SSE2__)
#include <emmintrin.h>

/* Hex without leading zeros, at least `min_digits` (<= 16) digits, all
 * converted at once in a vector register and stored with one 16-byte move:
 * v is first shifted so that its first digit to print is its top nibble, so
 * the digits come out first and the zeros after them (overwritten by what
 * follows). No loop whose length depends on the value (its exit mispredicted
 * on most numbers), no table, and no 16-byte load of digits just stored two
 * at a time (a store-forwarding stall). */
static char *put_hex(char *p, uint64_t v, int min_digits)
{
    unsigned n = hex_digits(v, min_digits);
    uint64_t first_at_top = __builtin_bswap64(v << (4 * (16 - n))); /* byte 0: the top two digits */
    __m128i bytes = _mm_cvtsi64_si128((long long)first_at_top);
    const __m128i low4 = _mm_set1_epi8(0x0F);
    __m128i high = _mm_and_si128(_mm_srli_epi16(bytes, 4), low4);
    __m128i nibbles = _mm_unpacklo_epi8(high, _mm_and_si128(bytes, low4)); /* in printing order */
    __m128i letters = _mm_and_si128(_mm_cmpgt_epi8(nibbles, _mm_set1_epi8(9)), _mm_set1_epi8('a' - '0' - 10));
    _mm_storeu_si128((__m128i *)(void *)p, _mm_add_epi8(_mm_add_epi8(nibbles, _mm_set1_epi8('0')), letters));
    return p + n;
}
#else
/* Two hex digits per byte value, in printing order. */
static const char hex_pairs[513] =
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
    "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
    "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
    "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
    "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
    "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
    "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
    "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

static char *put_hex(char *p, uint64_t v, int min_digits)
{
    unsigned n = hex_digits(v, min_digits), i = n;
    for (; i >= 2; i -= 2, v >>= 8)
        memcpy(p + i - 2, hex_pairs + 2 * (v & 0xFF), 2);
    if (i)
        p[0] = hex_pairs[2 * (v & 0xF) + 1];
    return p + n;
}
#endif

/* Decimal digits of v (1 for 0): log2 scaled by log10(2) ~ 1233/4096, one
 * compare to correct it (the "bit twiddling hacks" method), no loop. */
static unsigned dec_digits(uint64_t v)
{
    static const uint64_t pow10[20] = {
        1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
        100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
        10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
        100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull,
    };
    unsigned t = (unsigned)(64 - __builtin_clzll(v | 1)) * 1233u >> 12;
    return t - ((v | 1) < pow10[t]) + 1;
}

/* Decimal, written in place from the last digit back, two digits per
 * division: fuzzed operands are mostly 10 to 20 digits long, and a digit at
 * a time (then reversed) was the bulk of the disassembler's own work. */
static char *put_dec(char *p, uint64_t v)
{
    static const char pairs[201] =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
        "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    unsigned n = dec_digits(v);
    char *e = p + n;
    for (; v >= 100; v /= 100)
        memcpy(e -= 2, pairs + 2 * (v % 100), 2);
    if (v >= 10)
        memcpy(e - 2, pairs + 2 * v, 2);
    else
        e[-1] = (char)('0' + v);
    return p + n;
}

static char *put_operand(char *p, const struct wk_gpu_operand_info *o, uint64_t v)
{
    *p++ = ' ';
    p = put_name(p, o->name);
    *p++ = '=';
    return o->print_hex ? put_hex(put_lit(p, "0x"), v, 1) : put_dec(p, v);
}

static char *put_list(char *p, const struct wk_gpu_cmd *c)
{
    p = put_lit(p, " pfns=[");
    for (uint32_t i = 0; i < c->list_count && i < LIST_SHOWN; i++)
        p = put_hex(i ? put_lit(p, ", 0x") : put_lit(p, "0x"), le64(c->list + 8 * (uint64_t)i), 1);
    if (c->list_count > LIST_SHOWN)
        p = put_lit(put_dec(put_lit(p, ", ... "), c->list_count - LIST_SHOWN), " more");
    *p++ = ']';
    return p;
}

/* "0x%04llx: " */
static char *put_offset(char *p, uint64_t off)
{
    return put_lit(put_hex(put_lit(p, "0x"), off, 4), ": ");
}

static void format_cmd(const struct wk_gpu_cmd *c, uint64_t off, char *line)
{
    const struct wk_gpu_opcode_info *op = &opcode_table[c->opcode];
    char *p = put_name(put_offset(line, off), op->mnemonic);
    for (uint32_t i = 0; i < op->operand_count; i++)
        p = put_operand(p, &op->operands[i], c->operands[i]);
    if (op->has_list)
        p = put_list(p, c);
    *p = '\0';
}

/* The table entry of a defined opcode, else NULL (the submitted buffer's
 * own length has no opcode). */
static const struct wk_gpu_opcode_info *table_entry(uint32_t opcode)
{
    return opcode < WK_GPU_OP_COUNT ? &opcode_table[opcode] : NULL;
}

/* The words of a fault detail (internal.h) start with the operand and its
 * value: names from the table, values as the listing prints that operand,
 * so a detail reads like the command line above it ("segment 1", "pfns[2]
 * 0x5"). */
static char *put_subject(char *p, uint32_t opcode, const struct wk_gpu_fault_detail *d)
{
    const struct wk_gpu_opcode_info *op = table_entry(opcode);
    int named = op && d->operand < op->operand_count;
    if (d->operand == WK_GPU_DETAIL_LIST)
        p = put_lit(put_dec(put_lit(p, "pfns["), d->element), "]");
    else if (named)
        p = put_name(p, op->operands[d->operand].name);
    else
        p = put_lit(p, "buffer length");
    *p++ = ' ';
    if (d->operand == WK_GPU_DETAIL_LIST || (named && op->operands[d->operand].print_hex))
        return put_hex(put_lit(p, "0x"), d->value, 1);
    return put_dec(p, d->value);
}

char *fault_put_detail(char *p, uint32_t opcode, const struct wk_gpu_fault_detail *d)
{
    switch (d->rule) {
    case WK_GPU_RULE_HEADER_RESERVED:
        return put_lit(put_hex(put_lit(p, "reserved header bits 0x"), d->value, 1), " set");
    case WK_GPU_RULE_OVER_MAXIMUM:
        return put_dec(put_lit(put_subject(p, opcode, d), " over its maximum "), d->arg[0]);
    case WK_GPU_RULE_NO_SEGMENT:
        p = put_dec(put_lit(put_subject(p, opcode, d), " names no segment (the adapter has "), d->arg[0]);
        return put_lit(p, ")");
    case WK_GPU_RULE_NOT_APERTURE:
        return put_lit(put_subject(p, opcode, d), " is not an aperture");
    case WK_GPU_RULE_PAGES_PAST_APERTURE:
        p = put_dec(put_lit(put_subject(p, opcode, d), " + count "), d->arg[0]);
        return put_lit(put_dec(put_lit(p, " runs past the aperture's "), d->arg[1]), " pages");
    case WK_GPU_RULE_PFN_OUTSIDE_SYSMEM:
        p = put_dec(put_lit(put_subject(p, opcode, d), " outside system memory ("), d->arg[1]);
        return put_lit(put_hex(put_lit(p, " pages from PFN 0x"), d->arg[0], 1), ")");
    case WK_GPU_RULE_DMA_TOO_LONG:
        return put_dec(put_lit(put_subject(p, opcode, d), " over max_dma_length "), d->arg[0]);
    default:
        return p;
    }
}

/* "NAME: " for every fault reason, with its length, from the fault table
 * itself: copied with one fixed-size move where the name was a byte loop (a
 * fault line ends most fuzz inputs' listings). The stringized enum name
 * carries the "WK_GPU_FAULT_" prefix, skipped when copying. */
#define FAULT_PREFIX_BYTES (sizeof("WK_GPU_FAULT_") - 1)
#define FAULT_HEAD_BYTES 48u

struct fault_head {
    char text[FAULT_HEAD_BYTES];
    uint32_t len;                /* without the prefix */
};

static const struct fault_head fault_heads[WK_GPU_FAULT_REASON_COUNT] = {
#define HEAD_(name, num, msg) [num] = { #name ": ", sizeof(#name ": ") - 1 - FAULT_PREFIX_BYTES },
    WK_GPU_FAULT_MAP(HEAD_)
#undef HEAD_
};

/* Bytes a truncated command needs: with its list when the count can be
 * read (the decoder refuses a count over its maximum before it looks at
 * the length, so this cannot overflow). *at_least: the count could not be
 * read. From the compact views, as the decoder. */
static uint64_t bytes_needed(const struct opcode_view *op, const uint8_t *p, uint64_t left, int *at_least)
{
    *at_least = op->has_list && left < op->fixed_bytes;
    if (!op->has_list || *at_least)
        return op->fixed_bytes;
    return op->fixed_bytes + (uint64_t)le32(p + op->offset[op->list_count_operand]) * op->list_element_bytes;
}

/* "COPY (opcode byte 0x01)" for every defined opcode, made from the opcode
 * map by the preprocessor and copied with one fixed-size move (an input's
 * listing ends on a fault line more often than not: building it from the
 * name and the number cost every such input some 25 instructions more). */
#define CULPRIT_HEAD_BYTES 32u

struct culprit_head {
    char text[CULPRIT_HEAD_BYTES];
    uint32_t len;
};

static const struct culprit_head culprit_heads[WK_GPU_OP_COUNT] = {
#define CULPRIT_(name, code, mnem) \
    [code] = { mnem " (opcode byte " #code ")", sizeof(mnem " (opcode byte " #code ")") - 1 },
    WK_GPU_OPCODE_MAP(CULPRIT_)
#undef CULPRIT_
};

/* "COPY (opcode byte 0x01)" for a defined opcode, else "opcode byte 0xee";
 * TRUNCATED adds what the command needs, BAD_OPERAND the rule it broke. */
static char *put_culprit(char *p, const struct opcode_view *views, enum wk_gpu_fault_reason why,
                         const uint8_t *cmd, uint64_t left)
{
    if (cmd[0] >= WK_GPU_OP_COUNT)
        return put_hex(put_lit(p, "opcode byte 0x"), cmd[0], 2);
    memcpy(p, culprit_heads[cmd[0]].text, CULPRIT_HEAD_BYTES);
    p += culprit_heads[cmd[0]].len;
    if (why == WK_GPU_FAULT_TRUNCATED) {
        int at_least;
        uint64_t need = bytes_needed(&views[cmd[0]], cmd, left, &at_least);
        p = at_least ? put_lit(p, " needs at least ") : put_lit(p, " needs ");
        return put_lit(put_dec(p, need), " bytes");
    }
    if (why == WK_GPU_FAULT_BAD_OPERAND) {
        struct wk_gpu_fault_detail d;
        decode_explain(views, cmd, left, 0, &d);
        if (d.rule != WK_GPU_RULE_NONE)
            p = fault_put_detail(put_lit(p, ": "), cmd[0], &d);
    }
    return p;
}

/* "<REASON: CULPRIT, N bytes left>" */
static void format_fault(const struct opcode_view *views, enum wk_gpu_fault_reason why, const uint8_t *cmd,
                         uint64_t off, uint64_t left, char *line)
{
    const struct fault_head *h = &fault_heads[why];
    char *p = put_lit(put_offset(line, off), "<");
    memcpy(p, h->text + FAULT_PREFIX_BYTES, FAULT_HEAD_BYTES - FAULT_PREFIX_BYTES);
    p = put_culprit(p + h->len, views, why, cmd, left);
    p = put_dec(put_lit(p, ", "), left);
    p = left == 1 ? put_lit(p, " byte left>") : put_lit(p, " bytes left>");
    *p = '\0';
}

uint64_t wk_gpu_disasm(const uint8_t *buf, uint64_t len, wk_gpu_line_fn *sink, void *user)
{
    char line[LINE_MAX_BYTES];
    uint64_t count = 0;
    const struct opcode_view *views = opcode_views();
    for (uint64_t off = 0; off < len;) {
        struct wk_gpu_cmd cmd;
        wk_status st = decode_cmd(views, buf, len, off, &cmd);
        if (st != WK_OK) {
            format_fault(views, decode_fault_reason(st), buf + off, off, len - off, line);
            sink(user, line);
            break;
        }
        format_cmd(&cmd, off, line);
        sink(user, line);
        count++;
        off += cmd.length;
    }
    return count;
}
