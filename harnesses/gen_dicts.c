/* SPDX-License-Identifier: MIT */
/*
 * gen_dicts.c - `wk_gen_dicts OUT_DIR`: writes the fuzzing dictionary of
 * every harness, OUT_DIR/<harness>.dict (libFuzzer -dict= and AFL++ -x
 * format), from the kit's own tables, so a dictionary can never name an
 * opcode, a magic or a keyword the kit does not have:
 *   - GPU commands (gpu.h's opcode table): each opcode as its 4-byte
 *     little-endian header, the byte offset of every address operand (what
 *     a PatchOffset points at), the reference adapter's segment and system
 *     memory addresses;
 *   - DDI constants: the NTSTATUS values (facts 2.1), the paging
 *     operation numbers, the WK_USER_* magic, version, opcodes and record
 *     headers, the WK_ALLOCATION_REQUEST magic, the segment ids;
 *   - fuzz_prog: the header and one two-byte step prefix per step kind;
 *   - fuzz_hostile: fuzz_prog's header and step prefixes, the DDI constants, and
 *     the header's answer corruption
 *     (one entry per mutation of the catalogue);
 *   - fuzz_spec: every keyword the spec loader accepts, harvested from its
 *     own "expected one of: ..." diagnostics on probe specs (top level,
 *     case, adapter, every step and check, flags, statuses, stats...), the
 *     mutation names and the rule IDs, and the expectations loader's keys
 *     and verdicts from its "(expected a, b or c)" messages (fuzz_spec
 *     feeds its input to both loaders);
 *   - fuzz_results: the keys of a conform --json report as the reader
 *     knows them (wk_results_key_names), the verdicts, the kinds of check,
 *     the format and JSON's own words;
 *   - fuzz_cli: the commands, subcommands, options and harness names of
 *     `wddmkit`, harvested from its own help texts, and argument shapes
 *     (the NUL that separates arguments, numbers at the parsers' edges).
 * The dictionaries are committed (harnesses/<harness>.dict); the ctest fuzz.dicts_current
 * regenerates them into a scratch folder and compares, so they cannot drift.
 *
 *   build/default/harnesses/wk_gen_dicts harnesses        (regenerate)
 *   wk_gen_dicts --check COMMITTED_DIR SCRATCH_DIR         (the test: exit 1
 *                                                          when they differ)
 */
#define _GNU_SOURCE /* memfd_create */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"
#include "conformance.h"

/* ------------------------------------------------------------------ */
/* Entries                                                              */
/* ------------------------------------------------------------------ */

#define MAX_ENTRIES 1024u
#define MAX_VALUE 64u

struct entry {
    char name[64];
    uint8_t value[MAX_VALUE];
    size_t len;
};

struct dict {
    struct entry e[MAX_ENTRIES];
    uint32_t count;
};

/* Adds an entry unless an equal value is already there. */
static void add(struct dict *d, const char *name, const void *value, size_t len)
{
    if (len == 0 || len > MAX_VALUE || d->count == MAX_ENTRIES)
        return;
    for (uint32_t i = 0; i < d->count; i++)
        if (d->e[i].len == len && memcmp(d->e[i].value, value, len) == 0)
            return;
    struct entry *e = &d->e[d->count++];
    snprintf(e->name, sizeof(e->name), "%s", name);
    memcpy(e->value, value, len);
    e->len = len;
}

static void add_le(struct dict *d, const char *name, uint64_t v, unsigned bytes)
{
    uint8_t b[8];
    for (unsigned i = 0; i < bytes && i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    add(d, name, b, bytes);
}

static void add_text(struct dict *d, const char *name, const char *text)
{
    add(d, name, text, strlen(text));
}

static void namef(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void namef(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    for (char *p = buf; *p; p++) /* dictionary names: letters, digits, '_' */
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
            *p = '_';
}

/* ------------------------------------------------------------------ */
/* GPU commands                                                         */
/* ------------------------------------------------------------------ */

static void add_gpu_commands(struct dict *d)
{
    char name[64];
    for (uint32_t op = 0; op < 256; op++) {
        const struct wk_gpu_opcode_info *info = wk_gpu_opcode_info(op);
        if (!info)
            continue;
        namef(name, sizeof(name), "op_%s", info->mnemonic);
        add_le(d, name, op, 4);
    }
}

static void add_operand_offsets(struct dict *d, unsigned bytes)
{
    char name[64];
    for (uint32_t op = 0; op < 256; op++) {
        const struct wk_gpu_opcode_info *info = wk_gpu_opcode_info(op);
        for (uint32_t i = 0; info && i < info->operand_count; i++) {
            if (info->operands[i].kind != WK_GPU_OPND_ADDR)
                continue;
            namef(name, sizeof(name), "offset_%s_%s_u%u", info->mnemonic, info->operands[i].name, bytes * 8);
            add_le(d, name, info->operands[i].byte_offset, bytes);
        }
    }
}

static void add_addresses(struct dict *d)
{
    const struct wk_gpu_desc *g = wk_gpu_reference_desc();
    char name[64];
    for (uint32_t i = 0; i < g->segment_count; i++) {
        const struct wk_gpu_segment_desc *s = &g->segments[i];
        namef(name, sizeof(name), "segment%u_base", i + 1);
        add_le(d, name, s->base, 8);
        namef(name, sizeof(name), "segment%u_last_qword", i + 1);
        add_le(d, name, s->base + s->size - 8, 8);
    }
    add_le(d, "sysmem_first_pfn", g->sysmem_first_pfn, 8);
    add_le(d, "sysmem_base", g->sysmem_first_pfn << WK_GPU_PAGE_SHIFT, 8);
    add_le(d, "sysmem_last_pfn", g->sysmem_first_pfn + g->sysmem_pages - 1, 8);
}

/* ------------------------------------------------------------------ */
/* DDI constants                                                        */
/* ------------------------------------------------------------------ */

static void add_ntstatus(struct dict *d)
{
#define NT_(s) add_le(d, #s, (uint32_t)(s), 4);
    NT_(STATUS_SUCCESS) NT_(STATUS_UNSUCCESSFUL) NT_(STATUS_NOT_IMPLEMENTED) NT_(STATUS_INVALID_HANDLE)
    NT_(STATUS_INVALID_PARAMETER) NT_(STATUS_NO_MEMORY) NT_(STATUS_ILLEGAL_INSTRUCTION)
    NT_(STATUS_BUFFER_TOO_SMALL) NT_(STATUS_INTEGER_OVERFLOW) NT_(STATUS_PRIVILEGED_INSTRUCTION)
    NT_(STATUS_INSUFFICIENT_RESOURCES) NT_(STATUS_NOT_SUPPORTED) NT_(STATUS_INVALID_USER_BUFFER)
    NT_(STATUS_DEVICE_NOT_CONNECTED) NT_(STATUS_DEVICE_CONFIGURATION_ERROR)
    NT_(STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER) NT_(STATUS_GRAPHICS_DRIVER_MISMATCH)
    NT_(STATUS_GRAPHICS_NO_VIDEO_MEMORY) NT_(STATUS_GRAPHICS_ALLOCATION_BUSY)
    NT_(STATUS_GRAPHICS_TRY_AGAIN_LATER) NT_(STATUS_GRAPHICS_ALLOCATION_INVALID)
    NT_(STATUS_GRAPHICS_INVALID_ALLOCATION_HANDLE) NT_(STATUS_GRAPHICS_WRONG_ALLOCATION_DEVICE)
    NT_(STATUS_GRAPHICS_ALLOCATION_CONTENT_LOST) NT_(STATUS_GRAPHICS_GPU_EXCEPTION_ON_DEVICE)
    NT_(STATUS_GRAPHICS_SKIP_ALLOCATION_PREPARATION)
#undef NT_
}

static void add_user_format(struct dict *d)
{
    static const char *const ops[WK_USER_OP_COUNT] = { "NOP", "COPY", "FILL", "WRITE32", "BLIT" };
    static const uint32_t sizes[WK_USER_OP_COUNT] = { sizeof(WK_USER_RECORD), sizeof(WK_USER_COPY),
                                                      sizeof(WK_USER_FILL), sizeof(WK_USER_WRITE32),
                                                      sizeof(WK_USER_BLIT) };
    const WK_USER_COMMAND_HEADER h = { WK_USER_COMMAND_MAGIC, WK_USER_COMMAND_VERSION, 1, 0 };
    char name[64];
    add_le(d, "WK_USER_COMMAND_MAGIC", WK_USER_COMMAND_MAGIC, 4);
    add(d, "WK_USER_COMMAND_HEADER_1", &h, sizeof(h));
    for (uint32_t op = 0; op < WK_USER_OP_COUNT; op++) {
        const WK_USER_RECORD r = { op, sizes[op] };
        namef(name, sizeof(name), "WK_USER_OP_%s_record", ops[op]);
        add(d, name, &r, sizeof(r));
    }
    add_le(d, "WK_ALLOCATION_REQUEST_MAGIC", WK_ALLOCATION_REQUEST_MAGIC, 4);
}

static void add_ddi_constants(struct dict *d)
{
    char name[64];
    add_ntstatus(d);
    add_user_format(d);
    for (uint32_t op = 0; op <= DXGK_OPERATION_MAP_APERTURE_SEGMENT2; op++) {
        namef(name, sizeof(name), "paging_operation_%u", op);
        add_le(d, name, op, 4);
    }
    for (uint32_t s = 1; s <= wk_gpu_reference_desc()->segment_count; s++) {
        namef(name, sizeof(name), "segment_id_%u", s);
        add_le(d, name, s, 4);
    }
}

/* ------------------------------------------------------------------ */
/* fuzz_prog                                                            */
/* ------------------------------------------------------------------ */

static void add_prog_format(struct dict *d)
{
    static const uint8_t header[] = { 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
    char name[64];
    add(d, "prog_header", header, sizeof(header));
    for (uint32_t k = 0; k < WK_STEP_KIND_COUNT; k++) {
        const uint8_t prefix[2] = { (uint8_t)k, 0 }; /* kind, status code 0 (ok) */
        namef(name, sizeof(name), "step_%s", wk_step_keyword((enum wk_step_kind)k));
        add(d, name, prefix, sizeof(prefix));
    }
}

/* fuzz_hostile: the header's answer corruption, one entry per mutation of
 * the catalogue (u8 index + 1, u8 call 0: every matching call, u32 param
 * 0), as prog_codec.c lays it out after the paging knobs. */
static void add_rewrites(struct dict *d)
{
    char name[64];
    for (uint32_t i = 0; wk_mutation_at(i); i++) {
        const uint8_t rewrite[6] = { (uint8_t)(i + 1), 0, 0, 0, 0, 0 };
        namef(name, sizeof(name), "rewrite_%s", wk_mutation_at(i)->name);
        add(d, name, rewrite, sizeof(rewrite));
    }
}

/* ------------------------------------------------------------------ */
/* fuzz_spec: keywords from the loader's own diagnostics                */
/* ------------------------------------------------------------------ */

/* Adds every word of each "one of: a, b, c)" list in the messages. */
static void harvest(struct dict *d, const struct wk_diag *g)
{
    char name[64];
    for (uint32_t i = 0; i < g->count; i++) {
        const char *p = strstr(g->messages[i], "one of: ");
        const char *end = p ? strchr(p, ')') : NULL;
        for (p = p ? p + 8 : NULL; p && p < end;) {
            size_t n = strcspn(p, ",)");
            char word[64];
            snprintf(word, sizeof(word), "%.*s", (int)(n < 63 ? n : 63), p);
            namef(name, sizeof(name), "kw_%s", word);
            add_text(d, name, word);
            p += n + (p[n] == ',' ? 2 : 0);
            if (*p == ')')
                break;
        }
    }
}

static void probe(struct dict *d, const char *yaml)
{
    struct wk_spec_set set;
    struct wk_diag g;
    wk_spec_set_init(&set);
    wk_diag_init(&g, 1000);
    wk_spec_load_buffer(&set, "probe.yaml", (const uint8_t *)yaml, strlen(yaml), &g);
    harvest(d, &g);
    wk_spec_set_free(&set);
    wk_diag_free(&g);
}

/* Cases that name an unknown key, flag or value wherever the loader lists
 * what it accepts (one problem per case where one would hide another). */
static const char probe_case[] =
    "area: x\n"
    "zzz: 1\n"
    "cases:\n"
    "  - id: x.a\n"
    "    zzz: 1\n"
    "    requires: [zzz]\n"
    "    rewrite: {zzz: 1}\n"
    "    steps:\n"
    "      - create_device: {flags: [zzz]}\n"
    "      - create_context: {flags: [zzz]}\n"
    "      - create_allocation: {size: 4KiB, flags: [zzz], preferred: [{zzz: 1}], banks: [{zzz: 1}]}\n"
    "      - page_in: {status: zzz}\n"
    "      - render: {commands: [{zzz: 1}], list: [{zzz: 1}]}\n"
    "      - zzz: {}\n"
    "    expect:\n"
    "      - zzz: {}\n"
    "      - stats: {stat: zzz}\n"
    "      - stats: {stat: ddi_calls, ddi: zzz}\n"
    "      - stats: {stat: paging_op, op: zzz}\n"
    "      - context_info: {field: zzz}\n"
    "  - id: x.b\n"
    "    adapter: {zzz: 1}\n"
    "  - id: x.c\n"
    "    adapter: {segments: [{zzz: 1}]}\n"
    "  - id: x.d\n"
    "    adapter: {segments: [{kind: zzz, base: 0x100000, size: 4KiB}]}\n"
    "  - id: x.e\n"
    "    adapter: {system: {zzz: 1}}\n";

/* Every step, check and render command with an unknown key: their keys. */
static void probe_each(struct dict *d)
{
    static const char *const commands[] = { "nop", "copy", "fill", "write32", "blit" };
    static const char *const checks[] = { "bytes", "pattern", "digest", "placement", "stats", "gart", "context_info" };
    static char yaml[16384];
    size_t n = (size_t)snprintf(yaml, sizeof(yaml), "area: x\ncases:\n  - id: x.a\n    describe: d\n    steps:\n");
    for (uint32_t k = 0; k < WK_STEP_KIND_COUNT && n < sizeof(yaml); k++)
        n += (size_t)snprintf(yaml + n, sizeof(yaml) - n, "      - %s: {zzz: 1}\n", wk_step_keyword((enum wk_step_kind)k));
    for (size_t c = 0; c < sizeof(commands) / sizeof(commands[0]) && n < sizeof(yaml); c++)
        n += (size_t)snprintf(yaml + n, sizeof(yaml) - n, "      - render: {commands: [{%s: {zzz: 1}}]}\n", commands[c]);
    n += (size_t)snprintf(yaml + n, n < sizeof(yaml) ? sizeof(yaml) - n : 0, "    expect:\n");
    for (size_t c = 0; c < sizeof(checks) / sizeof(checks[0]) && n < sizeof(yaml); c++)
        n += (size_t)snprintf(yaml + n, sizeof(yaml) - n, "      - %s: {zzz: 1}\n", checks[c]);
    probe(d, yaml);
}

/* Adds every word of the list after `mark` in text, up to `stop`: "a, b,
 * c or d" and "a, b, c, saw" alike. */
static void harvest_list(struct dict *d, const char *text, const char *mark, const char *stop)
{
    char name[64], word[64];
    for (const char *p = strstr(text, mark); p; p = strstr(p, mark)) {
        p += strlen(mark);
        const char *end = strstr(p, stop);
        while (end && p < end) {
            size_t n = strcspn(p, ", )");
            snprintf(word, sizeof(word), "%.*s", (int)(n < 63 ? n : 63), p);
            if (n && strcmp(word, "or") != 0) {
                namef(name, sizeof(name), "kw_%s", word);
                add_text(d, name, word);
            }
            p += n;
            p += strspn(p, ", ");
        }
    }
}

/* The expectations loader on an entry with an unknown key and an unknown
 * verdict: its keys and verdicts, from its messages. */
static void probe_expectations(struct dict *d)
{
    static const char yaml[] = "- zzz: 1\n  expect: zzz\n";
    char *text = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&text, &len);
    if (!err)
        return;
    struct wk_expectations *e = NULL;
    wk_expectations_parse("probe.yaml", yaml, sizeof(yaml) - 1, &e, err);
    fclose(err);
    wk_expectations_free(e);
    harvest_list(d, text, "(expected ", ")");
    harvest_list(d, text, "expected one of ", ", saw");
    free(text);
}

static void add_spec_keywords(struct dict *d)
{
    char name[64];
    probe(d, probe_case);
    probe_expectations(d);
    probe_each(d);
    for (uint32_t i = 0; wk_mutation_at(i); i++) {
        namef(name, sizeof(name), "mutation_%s", wk_mutation_at(i)->name);
        add_text(d, name, wk_mutation_at(i)->name);
    }
    uint32_t n = 0;
    const struct wk_rule *rules = wk_rules(&n);
    for (uint32_t i = 0; i < n; i++) {
        namef(name, sizeof(name), "rule_%s", rules[i].id);
        add_text(d, name, rules[i].id);
    }
    static const char *const yaml[] = { "- ", ": ", "{", "}", "[", "]", "0x", "KiB", "MiB", "GiB", "true", "false" };
    for (size_t i = 0; i < sizeof(yaml) / sizeof(yaml[0]); i++) {
        namef(name, sizeof(name), "yaml_%zu", i);
        add_text(d, name, yaml[i]);
    }
}

/* ------------------------------------------------------------------ */
/* fuzz_cli: words of the command line's own help texts                */
/* ------------------------------------------------------------------ */

/* What `wddmkit ARGS...` prints (stdout and stderr), into buf. */
static void cli_text(const char *const *args, int n, char *buf, size_t cap)
{
    char *argv[8] = { (char *)"wddmkit" };
    for (int i = 0; i < n && i < 6; i++)
        argv[i + 1] = (char *)args[i];
    buf[0] = '\0';
    int fd = memfd_create("wk_gen_dicts", 0);
    if (fd < 0)
        return;
    fflush(stdout);
    fflush(stderr);
    int out = dup(STDOUT_FILENO), err = dup(STDERR_FILENO);
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    wk_cli_main(n + 1, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(out, STDOUT_FILENO);
    dup2(err, STDERR_FILENO);
    close(out);
    close(err);
    ssize_t got = pread(fd, buf, cap - 1, 0);
    buf[got > 0 ? got : 0] = '\0';
    close(fd);
}

static int word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
           c == '+';
}

/* Options ("--name", "-x"), words with '_' (harness names), the first
 * word of each indented line that starts lower case (commands in the
 * lists) and every word of a "usage:" line (subcommands). */
static void add_cli_words(struct dict *d, const char *text)
{
    char word[64], name[64];
    int line_start = 1, indented = 0, usage = 0;
    for (const char *p = text; *p;) {
        if (*p == '\n' || p == text) {
            const char *q = p + (*p == '\n');
            q += strspn(q, " ");
            /* "usage: wddmkit a ..." and its "       wddmkit b ..." lines */
            usage = strncmp(q, "usage:", 6) == 0 || (usage && q > p + 1 && strncmp(q, "wddmkit ", 8) == 0);
        }
        if (*p == '\n') {
            line_start = 1;
            indented = 0;
            p++;
            continue;
        }
        if (!word_char(*p) || (p > text && word_char(p[-1]))) {
            indented = line_start && *p == ' ' ? 1 : indented && *p == ' ';
            line_start = line_start && *p == ' ';
            p++;
            continue;
        }
        size_t n = 0;
        while (word_char(p[n]))
            n++;
        if (n < sizeof(word)) {
            snprintf(word, sizeof(word), "%.*s", (int)n, p);
            int option = word[0] == '-' && n >= 2 && word[1] != '-' ? n == 2 : word[0] == '-' && n > 2;
            int command = line_start && indented && word[0] >= 'a' && word[0] <= 'z';
            /* A path's component is the checkout's, not the CLI's (a default
             * folder in a usage line): the dictionary must not depend on
             * where the tree is. */
            int in_path = p > text && p[-1] == '/';
            int lower = strspn(word, "abcdefghijklmnopqrstuvwxyz") == n;
            if (!in_path && (option || command || (usage && lower) || (strchr(word, '_') && word[0] != '-'))) {
                namef(name, sizeof(name), "cli_%s", word);
                add_text(d, name, word);
            }
        }
        line_start = 0;
        p += n;
    }
}

static void add_cli(struct dict *d)
{
    static const char *const help[][3] = {
        { "help" }, { "conform", "--help" }, { "fuzz", "--help" }, { "repro", "--help" },
        { "corpus", "seed", "--help" }, { "spec", "help" }, { "gpu" }, { "rules", "--help" },
    };
    static char text[1 << 16];
    for (size_t i = 0; i < sizeof(help) / sizeof(help[0]); i++) {
        int n = 0;
        while (n < 3 && help[i][n])
            n++;
        cli_text(help[i], n, text, sizeof(text));
        add_cli_words(d, text);
    }
    static const char *const shapes[] = { "0", "1", "-1", "4294967296", "18446744073709551616", "1e9", "0x10",
                                          "60s", "/dev/null", "." };
    char name[64];
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        namef(name, sizeof(name), "cli_value_%zu", i);
        add_text(d, name, shapes[i]);
    }
    add(d, "cli_separator", "", 1); /* the NUL between arguments */
}

/* ------------------------------------------------------------------ */
/* fuzz_results: a JSON report's words                                  */
/* ------------------------------------------------------------------ */

static void add_results(struct dict *d)
{
    const char *keys[128];
    char name[64], text[96];
    size_t n = wk_results_key_names(keys, sizeof(keys) / sizeof(keys[0]));
    for (size_t i = 0; i < n; i++) {
        namef(name, sizeof(name), "key_%s", keys[i]);
        snprintf(text, sizeof(text), "\"%s\":", keys[i]);
        add_text(d, name, text);
    }
    for (int v = 0; v < WK_VERDICT_COUNT; v++) {
        namef(name, sizeof(name), "verdict_%s", wk_verdict_name((enum wk_verdict)v));
        snprintf(text, sizeof(text), "\"%s\"", wk_verdict_name((enum wk_verdict)v));
        add_text(d, name, text);
    }
    for (int k = 0; k < WK_CHECK_KIND_COUNT; k++) {
        namef(name, sizeof(name), "kind_%s", wk_check_kind_name((enum wk_check_kind)k));
        snprintf(text, sizeof(text), "\"%s\":", wk_check_kind_name((enum wk_check_kind)k));
        add_text(d, name, text);
    }
    static const char *const words[] = { "\"wddmkit-conform-1\"", "\"" WK_JSON_SCHEMA_VERSION "\"", "\"complete\"", "\"interrupted\"",
                                         "\"total-timeout\"", "\"contract\"", "\"reference\"", "\"1/2\"",
                                         "null", "true", "false", "{}", "[]", "\\u0000", "\\ud800" };
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
        namef(name, sizeof(name), "json_%zu", i);
        add_text(d, name, words[i]);
    }
}

/* ------------------------------------------------------------------ */
/* Files                                                                */
/* ------------------------------------------------------------------ */

static void write_value(FILE *f, const struct entry *e)
{
    fputc('"', f);
    for (size_t i = 0; i < e->len; i++) {
        uint8_t c = e->value[i];
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c >= 0x20 && c < 0x7F)
            fputc(c, f);
        else
            fprintf(f, "\\x%02X", c);
    }
    fputs("\"\n", f);
}

static int write_dict(const char *dir, const char *harness, const struct dict *d)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s.dict", dir, harness);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "wk_gen_dicts: cannot write %s\n", path);
        return -1;
    }
    fprintf(f, "# %s.dict - generated by wk_gen_dicts (harnesses/gen_dicts.c); do not edit.\n", harness);
    for (uint32_t i = 0; i < d->count; i++) {
        fprintf(f, "%s=", d->e[i].name);
        write_value(f, &d->e[i]);
    }
    return fclose(f) == 0 ? 0 : -1;
}

enum {
    GPU = 1, OFFSETS16 = 2, OFFSETS32 = 4, ADDRESSES = 8, DDI = 16, PROG = 32, SPEC = 64, CLI = 128, REWRITES = 256,
    RESULTS = 512
};

static const struct {
    const char *harness;
    unsigned parts;
} harnesses[] = {
    { "fuzz_gpu_decode", GPU | ADDRESSES },
    { "fuzz_render", DDI | GPU | OFFSETS32 | ADDRESSES },
    { "fuzz_patch", GPU | OFFSETS16 | ADDRESSES | DDI },
    { "fuzz_paging", DDI },
    { "fuzz_prog", PROG | DDI | GPU | ADDRESSES },
    { "fuzz_spec", SPEC },
    { "fuzz_cli", CLI },
    { "fuzz_hostile", PROG | REWRITES | DDI },
    { "fuzz_results", RESULTS },
};

/* Whole-file comparison; prints the first differing line. */
static int same_lines_or_say_where(const char *a, const char *b)
{
    FILE *fa = fopen(a, "r"), *fb = fopen(b, "r");
    char la[4096], lb[4096];
    int same = fa && fb;
    for (unsigned line = 1; same; line++) {
        char *ra = fgets(la, sizeof(la), fa), *rb = fgets(lb, sizeof(lb), fb);
        if (!ra && !rb)
            break;
        if (!ra || !rb || strcmp(la, lb) != 0) {
            fprintf(stderr, "wk_gen_dicts: %s differs from the generator's output at line %u\n", a, line);
            same = 0;
        }
    }
    if (!fa || !fb)
        fprintf(stderr, "wk_gen_dicts: cannot read %s\n", fa ? b : a);
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

static int check(const char *self, const char *committed, const char *scratch)
{
    int ok = 1;
    for (size_t h = 0; h < sizeof(harnesses) / sizeof(harnesses[0]); h++) {
        char a[1024], b[1024];
        snprintf(a, sizeof(a), "%s/%s.dict", committed, harnesses[h].harness);
        snprintf(b, sizeof(b), "%s/%s.dict", scratch, harnesses[h].harness);
        ok &= same_lines_or_say_where(a, b);
    }
    if (!ok)
        fprintf(stderr,
                "wk_gen_dicts: a help text or a table the dictionaries are made from changed (a new command or\n"
                "option does that); regenerate them and commit the .dict files: %s %s\n",
                self, committed);
    return ok ? 0 : 1;
}

static int generate(const char *dir)
{
    static struct dict d;
    for (size_t h = 0; h < sizeof(harnesses) / sizeof(harnesses[0]); h++) {
        unsigned parts = harnesses[h].parts;
        memset(&d, 0, sizeof(d));
        if (parts & PROG) add_prog_format(&d);
        if (parts & REWRITES) add_rewrites(&d);
        if (parts & DDI) add_ddi_constants(&d);
        if (parts & GPU) add_gpu_commands(&d);
        if (parts & OFFSETS16) add_operand_offsets(&d, 2);
        if (parts & OFFSETS32) add_operand_offsets(&d, 4);
        if (parts & ADDRESSES) add_addresses(&d);
        if (parts & SPEC) add_spec_keywords(&d);
        if (parts & CLI) add_cli(&d);
        if (parts & RESULTS) add_results(&d);
        if (write_dict(dir, harnesses[h].harness, &d) != 0)
            return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--check") == 0)
        return generate(argv[3]) != 0 ? 1 : check(argv[0], argv[2], argv[3]);
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUT_DIR | --check COMMITTED_DIR SCRATCH_DIR\n", argv[0]);
        return 2;
    }
    return generate(argv[1]);
}
