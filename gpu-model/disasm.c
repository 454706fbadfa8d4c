/*
 * disasm.c - one text line per command, from the opcode table.
 *
 * The output is for people and for golden files: stable spelling, operands
 * in table order as name=value, addresses and values in hex, counts in
 * decimal. Trailing lists print their first 8 elements.
 */
#include <stdio.h>

#include "internal.h"

#define LIST_SHOWN 8u

/* Appends to line[*used..]; a full line stays truncated, never overflows. */
static void add(char *line, size_t size, int *used, const char *text)
{
    if (*used < 0 || (size_t)*used >= size)
        return;
    int n = snprintf(line + *used, size - (size_t)*used, "%s", text);
    *used = n < 0 ? *used : *used + n;
}

static void add_operand(char *line, size_t size, int *used, const struct wk_gpu_operand_info *o,
                        uint64_t v)
{
    char text[96];
    if (o->print_hex)
        snprintf(text, sizeof(text), " %s=0x%llx", o->name, (unsigned long long)v);
    else
        snprintf(text, sizeof(text), " %s=%llu", o->name, (unsigned long long)v);
    add(line, size, used, text);
}

static void add_list(char *line, size_t size, int *used, const struct wk_gpu_cmd *c)
{
    char text[64];
    add(line, size, used, " pfns=[");
    for (uint32_t i = 0; i < c->list_count && i < LIST_SHOWN; i++) {
        snprintf(text, sizeof(text), "%s0x%llx", i ? ", " : "",
                 (unsigned long long)le64(c->list + 8 * (uint64_t)i));
        add(line, size, used, text);
    }
    if (c->list_count > LIST_SHOWN) {
        snprintf(text, sizeof(text), ", ... %u more", c->list_count - LIST_SHOWN);
        add(line, size, used, text);
    }
    add(line, size, used, "]");
}

static void format_cmd(const struct wk_gpu_cmd *c, uint64_t off, char *line, size_t size)
{
    const struct wk_gpu_opcode_info *op = wk_gpu_opcode_info(c->opcode);
    int used = snprintf(line, size, "0x%04llx: %s", (unsigned long long)off, op->mnemonic);
    for (uint32_t i = 0; i < op->operand_count; i++)
        add_operand(line, size, &used, &op->operands[i], c->operands[i]);
    if (op->has_list)
        add_list(line, size, &used, c);
}

uint64_t wk_gpu_disasm(const uint8_t *buf, uint64_t len, wk_gpu_line_fn *sink, void *user)
{
    char line[512];
    uint64_t count = 0;
    for (uint64_t off = 0; off < len;) {
        struct wk_gpu_cmd cmd;
        wk_status st = wk_gpu_decode(buf, len, off, &cmd);
        if (st != WK_OK) {
            enum wk_gpu_fault_reason why = decode_fault_reason(st);
            snprintf(line, sizeof(line), "0x%04llx: <%s: opcode byte 0x%02x, %llu bytes left>",
                     (unsigned long long)off, wk_gpu_fault_name(why), buf[off],
                     (unsigned long long)(len - off));
            sink(user, line);
            break;
        }
        format_cmd(&cmd, off, line, sizeof(line));
        sink(user, line);
        count++;
        off += cmd.length;
    }
    return count;
}
