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
#include "internal.h"

#define LIST_SHOWN 8u

/* Lines are written through a cursor without per-character checks: every
 * token is either a name from the command table or a 64-bit number (at most
 * 20 digits), so the longest line the table can produce (GART_MAP with
 * eight list elements and its "... N more" tail, about 300 bytes) fits
 * LINE_MAX with room to spare. tests/test_gpu_codec.c checks the table's
 * names stay short enough for that bound. */
#define LINE_MAX_BYTES 512

static char *put_str(char *p, const char *s)
{
    while (*s)
        *p++ = *s++;
    return p;
}

/* Hex without leading zeros, at least `min_digits` (<= 16) digits. */
static char *put_hex(char *p, uint64_t v, int min_digits)
{
    int n = v ? (64 - __builtin_clzll(v) + 3) / 4 : 1;
    n = n < min_digits ? min_digits : n;
    for (int i = n - 1; i >= 0; i--, v >>= 4)
        p[i] = "0123456789abcdef"[v & 0xF];
    return p + n;
}

static char *put_dec(char *p, uint64_t v)
{
    char d[20];
    int n = 0;
    do {
        d[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        *p++ = d[--n];
    return p;
}

static char *put_operand(char *p, const struct wk_gpu_operand_info *o, uint64_t v)
{
    *p++ = ' ';
    p = put_str(p, o->name);
    *p++ = '=';
    return o->print_hex ? put_hex(put_str(p, "0x"), v, 1) : put_dec(p, v);
}

static char *put_list(char *p, const struct wk_gpu_cmd *c)
{
    p = put_str(p, " pfns=[");
    for (uint32_t i = 0; i < c->list_count && i < LIST_SHOWN; i++)
        p = put_hex(put_str(p, i ? ", 0x" : "0x"), le64(c->list + 8 * (uint64_t)i), 1);
    if (c->list_count > LIST_SHOWN)
        p = put_str(put_dec(put_str(p, ", ... "), c->list_count - LIST_SHOWN), " more");
    *p++ = ']';
    return p;
}

/* "0x%04llx: " */
static char *put_offset(char *p, uint64_t off)
{
    return put_str(put_hex(put_str(p, "0x"), off, 4), ": ");
}

static void format_cmd(const struct wk_gpu_cmd *c, uint64_t off, char *line)
{
    const struct wk_gpu_opcode_info *op = &opcode_table[c->opcode];
    char *p = put_str(put_offset(line, off), op->mnemonic);
    for (uint32_t i = 0; i < op->operand_count; i++)
        p = put_operand(p, &op->operands[i], c->operands[i]);
    if (op->has_list)
        p = put_list(p, c);
    *p = '\0';
}

/* "<REASON: opcode byte 0x%02x, %llu bytes left>" */
static void format_fault(enum wk_gpu_fault_reason why, uint8_t opcode, uint64_t off, uint64_t left,
                         char *line)
{
    char *p = put_str(put_str(put_offset(line, off), "<"), wk_gpu_fault_name(why));
    p = put_hex(put_str(p, ": opcode byte 0x"), opcode, 2);
    p = put_str(put_dec(put_str(p, ", "), left), " bytes left>");
    *p = '\0';
}

uint64_t wk_gpu_disasm(const uint8_t *buf, uint64_t len, wk_gpu_line_fn *sink, void *user)
{
    char line[LINE_MAX_BYTES];
    uint64_t count = 0;
    for (uint64_t off = 0; off < len;) {
        struct wk_gpu_cmd cmd;
        wk_status st = wk_gpu_decode(buf, len, off, &cmd);
        if (st != WK_OK) {
            format_fault(decode_fault_reason(st), buf[off], off, len - off, line);
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
