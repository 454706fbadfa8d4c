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

/* A line being built; a full line stays truncated, never overflows. */
struct text {
    char *buf;
    size_t size;                 /* >= 1 */
    size_t used;
};

static void put_char(struct text *t, char c)
{
    if (t->used + 1 < t->size)
        t->buf[t->used++] = c;
}

static void put_str(struct text *t, const char *s)
{
    while (*s)
        put_char(t, *s++);
}

/* Hex without leading zeros, at least `min_digits` digits, lowercase. */
static void put_hex(struct text *t, uint64_t v, int min_digits)
{
    char d[16];
    int n = 0;
    do {
        d[n++] = "0123456789abcdef"[v & 0xF];
        v >>= 4;
    } while (v);
    while (n < min_digits)
        d[n++] = '0';
    while (n)
        put_char(t, d[--n]);
}

static void put_dec(struct text *t, uint64_t v)
{
    char d[20];
    int n = 0;
    do {
        d[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        put_char(t, d[--n]);
}

static void put_operand(struct text *t, const struct wk_gpu_operand_info *o, uint64_t v)
{
    put_char(t, ' ');
    put_str(t, o->name);
    put_char(t, '=');
    if (o->print_hex) {
        put_str(t, "0x");
        put_hex(t, v, 1);
    } else {
        put_dec(t, v);
    }
}

static void put_list(struct text *t, const struct wk_gpu_cmd *c)
{
    put_str(t, " pfns=[");
    for (uint32_t i = 0; i < c->list_count && i < LIST_SHOWN; i++) {
        put_str(t, i ? ", 0x" : "0x");
        put_hex(t, le64(c->list + 8 * (uint64_t)i), 1);
    }
    if (c->list_count > LIST_SHOWN) {
        put_str(t, ", ... ");
        put_dec(t, c->list_count - LIST_SHOWN);
        put_str(t, " more");
    }
    put_char(t, ']');
}

/* "0x%04llx: " */
static void put_offset(struct text *t, uint64_t off)
{
    put_str(t, "0x");
    put_hex(t, off, 4);
    put_str(t, ": ");
}

static void format_cmd(const struct wk_gpu_cmd *c, uint64_t off, struct text *t)
{
    const struct wk_gpu_opcode_info *op = wk_gpu_opcode_info(c->opcode);
    put_offset(t, off);
    put_str(t, op->mnemonic);
    for (uint32_t i = 0; i < op->operand_count; i++)
        put_operand(t, &op->operands[i], c->operands[i]);
    if (op->has_list)
        put_list(t, c);
}

/* "<REASON: opcode byte 0x%02x, %llu bytes left>" */
static void format_fault(enum wk_gpu_fault_reason why, uint8_t opcode, uint64_t off, uint64_t left,
                         struct text *t)
{
    put_offset(t, off);
    put_char(t, '<');
    put_str(t, wk_gpu_fault_name(why));
    put_str(t, ": opcode byte 0x");
    put_hex(t, opcode, 2);
    put_str(t, ", ");
    put_dec(t, left);
    put_str(t, " bytes left>");
}

uint64_t wk_gpu_disasm(const uint8_t *buf, uint64_t len, wk_gpu_line_fn *sink, void *user)
{
    char line[512];
    uint64_t count = 0;
    for (uint64_t off = 0; off < len;) {
        struct wk_gpu_cmd cmd;
        struct text t = { line, sizeof(line), 0 };
        wk_status st = wk_gpu_decode(buf, len, off, &cmd);
        if (st != WK_OK) {
            format_fault(decode_fault_reason(st), buf[off], off, len - off, &t);
            line[t.used] = '\0';
            sink(user, line);
            break;
        }
        format_cmd(&cmd, off, &t);
        line[t.used] = '\0';
        sink(user, line);
        count++;
        off += cmd.length;
    }
    return count;
}
