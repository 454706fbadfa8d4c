/* SPDX-License-Identifier: MIT */
/*
 * cli_options.c - the shared option parser of the `wddmkit` subcommands
 * (cli_options.h): option tables into getopt_long's tables, one scan that
 * hands each option and operand to the command's handler, the help text
 * from the same table, one error style, checked numbers, "did you mean".
 *
 * getopt_long does the splitting (`--opt=value`, `-j4`, clusters, `--`);
 * this file adds what it lacks. Long names are checked for an exact match
 * before getopt_long sees them, because getopt_long takes any unique prefix
 * (`--dr` for `--driver`), which the old parsers never did and which would
 * turn a new option into a broken script. The optstring starts with '-'
 * (operands come back in order, as key 1, and argv is never permuted, even
 * with POSIXLY_CORRECT set) and ':' (a missing value is told apart from an
 * unknown option); opterr is 0, so every message is ours.
 */
#define _GNU_SOURCE /* getopt_long */

#include "cli_options.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define HELP_COLUMN 24 /* where an option's help starts */
#define SUGGEST_MAX 64 /* longest word "did you mean" looks at */

const struct wk_cli_help_sink *wk_cli_help_sink;

static const struct wk_cli_option help_option = { "help", 'h', WK_CLI_FLAG, NULL, "print this help and exit" };

static size_t option_count(const struct wk_cli_option *options)
{
    size_t n = 0;
    while (options && (options[n].name || options[n].key))
        n++;
    return n;
}

int wk_cli_getopt_tables(const struct wk_cli_option *options, struct option *longopts, char *optstring,
                         size_t optstring_size)
{
    size_t n = option_count(options), at = 0, used = 0;
    if (n > WK_CLI_MAX_OPTIONS || optstring_size < 3 * n + 6)
        return -1;
    optstring[used++] = '-'; /* operands in order, as key 1 */
    optstring[used++] = ':'; /* ':' for a missing value */
    for (size_t i = 0; i <= n; i++) {
        const struct wk_cli_option *o = i < n ? &options[i] : &help_option;
        if (o->name)
            longopts[at++] = (struct option){ o->name, o->value == WK_CLI_VALUE ? required_argument : no_argument,
                                              NULL, o->key };
        if (o->key > 0 && o->key < 128) {
            optstring[used++] = (char)o->key;
            if (o->value == WK_CLI_VALUE)
                optstring[used++] = ':';
        }
    }
    longopts[at] = (struct option){ NULL, 0, NULL, 0 };
    optstring[used] = '\0';
    return 0;
}

/* ------------------------------------------------------------------ */
/* Messages                                                             */
/* ------------------------------------------------------------------ */

__attribute__((format(printf, 2, 0))) static void verror(const char *name, const char *fmt, va_list ap)
{
    fprintf(stderr, "wddmkit %s: ", name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

int wk_cli_error(const struct wk_cli_command *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(cmd->name, fmt, ap);
    va_end(ap);
    return 2;
}

static int try_help(const char *name)
{
    fprintf(stderr, "try 'wddmkit %s --help'\n", name);
    return 2;
}

int wk_cli_usage_error(const struct wk_cli_command *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(cmd->name, fmt, ap);
    va_end(ap);
    return try_help(cmd->name);
}

/* ------------------------------------------------------------------ */
/* Help                                                                 */
/* ------------------------------------------------------------------ */

/* text, each line after the first indented to column `indent`, and a
 * newline at the end. */
static void print_indented(FILE *out, const char *text, int indent)
{
    for (const char *p = text;;) {
        size_t len = strcspn(p, "\n");
        fprintf(out, "%.*s\n", (int)len, p);
        p += len;
        if (!*p || !*++p)
            return;
        fprintf(out, "%*s", indent, "");
    }
}

/* "  -j, --jobs N", "  --driver PATH", "  -o OUT", then the help from
 * HELP_COLUMN (on the next line when the left part reaches it). */
static void print_option(FILE *out, const struct wk_cli_option *o)
{
    char left[96];
    const char *meta = o->value == WK_CLI_VALUE ? (o->meta ? o->meta : "VALUE") : "";
    const char *gap = *meta ? " " : "";
    if (!o->name)
        snprintf(left, sizeof(left), "  -%c%s%s", o->key, gap, meta);
    else if (o->key > 0 && o->key < 128)
        snprintf(left, sizeof(left), "  -%c, --%s%s%s", o->key, o->name, gap, meta);
    else
        snprintf(left, sizeof(left), "  --%s%s%s", o->name, gap, meta);
    if ((int)strlen(left) + 2 > HELP_COLUMN)
        fprintf(out, "%s\n%*s", left, HELP_COLUMN, "");
    else
        fprintf(out, "%-*s", HELP_COLUMN, left);
    print_indented(out, o->help ? o->help : "", HELP_COLUMN);
}

void wk_cli_help(const struct wk_cli_command *cmd, FILE *out)
{
    fprintf(out, "usage: wddmkit %s%s%s\n", cmd->name, cmd->usage && *cmd->usage ? " " : "",
            cmd->usage ? cmd->usage : "");
    if (cmd->about) { /* one blank line between the usage line and the text, whatever the text starts with */
        fputc('\n', out);
        print_indented(out, cmd->about + strspn(cmd->about, "\n"), 0);
    }
    fputc('\n', out);
    size_t n = option_count(cmd->options);
    for (size_t i = 0; i < n; i++)
        print_option(out, &cmd->options[i]);
    print_option(out, &help_option);
    if (cmd->epilog) {
        fputc('\n', out);
        print_indented(out, cmd->epilog, 0);
    }
}

/* ------------------------------------------------------------------ */
/* "did you mean"                                                       */
/* ------------------------------------------------------------------ */

/* Levenshtein distance of a[0, la) and b; SIZE_MAX past SUGGEST_MAX. */
static size_t distance(const char *a, size_t la, const char *b)
{
    size_t lb = strlen(b), row[SUGGEST_MAX + 1];
    if (la > SUGGEST_MAX || lb > SUGGEST_MAX)
        return SIZE_MAX;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[lb];
}

/* The candidate word[0, len) is a unique prefix of, else the closest one
 * within 2 edits (and fewer edits than len: no guess from one letter). */
static const char *suggest(const char *word, size_t len, const char *const *candidates, size_t count)
{
    const char *prefixed = NULL, *closest = NULL;
    size_t prefixes = 0, best = 3;
    for (size_t i = 0; i < count && len; i++) {
        if (strlen(candidates[i]) > len && strncmp(candidates[i], word, len) == 0) {
            prefixed = candidates[i];
            prefixes++;
        }
        size_t d = distance(word, len, candidates[i]);
        if (d < best && d < len) {
            best = d;
            closest = candidates[i];
        }
    }
    return prefixes == 1 ? prefixed : closest;
}

const char *wk_cli_suggest(const char *word, const char *const *candidates, size_t count)
{
    return suggest(word, strnlen(word, SUGGEST_MAX + 1), candidates, count);
}

/* The long names of a table, --help's too; their number. */
static size_t long_names(const struct wk_cli_command *cmd, const char **names)
{
    size_t n = 0, count = option_count(cmd->options);
    for (size_t i = 0; i < count && n < WK_CLI_MAX_OPTIONS; i++)
        if (cmd->options[i].name)
            names[n++] = cmd->options[i].name;
    names[n++] = help_option.name;
    return n;
}

/* ------------------------------------------------------------------ */
/* The scan                                                             */
/* ------------------------------------------------------------------ */

static const struct wk_cli_option *find_key(const struct wk_cli_command *cmd, int key)
{
    size_t n = option_count(cmd->options);
    for (size_t i = 0; i < n; i++)
        if (cmd->options[i].key == key)
            return &cmd->options[i];
    return key == help_option.key ? &help_option : NULL;
}

/* The option whose long name is name[0, len), --help's too. */
static const struct wk_cli_option *find_long(const struct wk_cli_command *cmd, const char *name, size_t len)
{
    size_t n = option_count(cmd->options);
    for (size_t i = 0; i <= n; i++) {
        const struct wk_cli_option *o = i < n ? &cmd->options[i] : &help_option;
        if (o->name && strlen(o->name) == len && strncmp(o->name, name, len) == 0)
            return o;
    }
    return NULL;
}

/* elem is "--NAME" or "--NAME=VALUE": 0 when NAME is an option's whole
 * name (and VALUE only where one is taken), else 2 after saying why. */
static int check_long(const struct wk_cli_command *cmd, const char *elem)
{
    const char *name = elem + 2, *names[WK_CLI_MAX_OPTIONS + 1];
    size_t len = strcspn(name, "=");
    const struct wk_cli_option *o = find_long(cmd, name, len);
    if (o && name[len] == '=' && o->value == WK_CLI_FLAG)
        return wk_cli_error(cmd, "option '--%s' takes no value, saw '%s'", o->name, elem);
    if (o)
        return 0;
    const char *near = suggest(name, len, names, long_names(cmd, names));
    if (near)
        return wk_cli_error(cmd, "unknown option '--%.*s' (did you mean '--%s'?)", (int)len, name, near);
    return wk_cli_error(cmd, "unknown option '--%.*s'", (int)len, name);
}

/* An unknown short option c of elem; "-driver" gets "did you mean". */
static int unknown_short(const struct wk_cli_command *cmd, const char *elem, int c)
{
    const char *names[WK_CLI_MAX_OPTIONS + 1];
    size_t n = long_names(cmd, names);
    const char *near = NULL;
    if (elem && elem[0] == '-' && elem[1] == c && elem[1] != '-' && elem[2])
        near = suggest(elem + 1, strcspn(elem + 1, "="), names, n);
    if (c <= ' ' || c >= 127)
        return wk_cli_error(cmd, "unknown option byte 0x%02x in '%s'", (unsigned)c & 0xffu, elem ? elem : "");
    if (near)
        return wk_cli_error(cmd, "unknown option '-%c' (did you mean '--%s'?)", c, near);
    if (elem && elem[0] == '-' && elem[1] == c && elem[2])
        return wk_cli_error(cmd, "unknown option '-%c' in '%s' (a file whose name starts with '-' goes after '--')",
                            c, elem);
    return wk_cli_error(cmd, "unknown option '-%c'", c);
}

/* "--jobs" when the option came as a long one, else "-j". */
static void spell(char *buf, size_t cap, const struct wk_cli_option *o, int is_long, int key)
{
    if (o && o->name && (is_long || !(key > 0 && key < 128)))
        snprintf(buf, cap, "--%s", o->name);
    else
        snprintf(buf, cap, "-%c", key > ' ' && key < 127 ? key : '?');
}

static int operand(const struct wk_cli_command *cmd, const char *value, int after_end, wk_cli_handler on, void *ctx)
{
    struct wk_cli_arg a = { cmd, WK_CLI_OPERAND, value, "", after_end };
    return on(ctx, &a) ? 2 : 0;
}

/* getopt_long over argv[1, argc) (argv[0] is the command's name, which
 * getopt skips); WK_CLI_CONTINUE, 0 (help) or 2 (the message printed). */
static int scan(const struct wk_cli_command *cmd, int argc, char **argv, const char *optstring,
                const struct option *longopts, wk_cli_handler on, void *ctx)
{
    optind = 0; /* glibc: a full reset, the scan position too */
    opterr = 0;
    for (;;) {
        int at = optind > 0 ? optind : 1;
        const char *elem = at < argc ? argv[at] : NULL;
        int is_long = elem && elem[0] == '-' && elem[1] == '-' && elem[2];
        if (is_long && check_long(cmd, elem))
            return 2;
        int c = getopt_long(argc, argv, optstring, longopts, NULL);
        if (c == -1)
            break;
        if (c == WK_CLI_OPERAND) {
            if (operand(cmd, optarg, 0, on, ctx))
                return 2;
            continue;
        }
        int key = c == '?' || c == ':' ? optopt : c;
        char spelled[80];
        spell(spelled, sizeof(spelled), find_key(cmd, key), is_long, key);
        if (c == '?')
            return unknown_short(cmd, elem, optopt);
        if (c == ':')
            return wk_cli_error(cmd, "option '%s' needs a value", spelled);
        if (c == help_option.key) {
            if (wk_cli_help_sink)
                wk_cli_help_sink->command(wk_cli_help_sink->ctx, cmd);
            else
                wk_cli_help(cmd, stdout);
            return 0;
        }
        if (optarg && !*optarg)
            return wk_cli_error(cmd, "option '%s' needs a value, saw an empty one", spelled);
        struct wk_cli_arg a = { cmd, c, optarg, spelled, 0 };
        if (on(ctx, &a))
            return 2;
    }
    for (int i = optind; i < argc; i++) /* after "--" */
        if (operand(cmd, argv[i], 1, on, ctx))
            return 2;
    return WK_CLI_CONTINUE;
}

int wk_cli_parse(const struct wk_cli_command *cmd, int argc, char **argv, wk_cli_handler on, void *ctx)
{
    struct option longopts[WK_CLI_MAX_OPTIONS + 2];
    char optstring[3 * WK_CLI_MAX_OPTIONS + 8];
    if (wk_cli_getopt_tables(cmd->options, longopts, optstring, sizeof(optstring)) != 0)
        return wk_cli_error(cmd, "more than %d options in its table", WK_CLI_MAX_OPTIONS);
    if (argc < 0)
        argc = 0;
    /* getopt_long starts at argv[1] and may reorder what it scans: a copy
     * with the command's name first, the caller's argv left as it is */
    char **args = malloc(((size_t)argc + 2) * sizeof(*args));
    if (!args)
        return wk_cli_error(cmd, "out of memory");
    args[0] = (char *)cmd->name;
    for (int i = 0; i < argc; i++)
        args[i + 1] = argv[i];
    args[argc + 1] = NULL;
    int rc = scan(cmd, argc + 1, args, optstring, longopts, on, ctx);
    free(args);
    return rc == 2 ? try_help(cmd->name) : rc;
}

/* ------------------------------------------------------------------ */
/* Numbers                                                              */
/* ------------------------------------------------------------------ */

static int bad_number(const struct wk_cli_arg *a, const char *expected)
{
    return wk_cli_error(a->cmd, "%s%sexpected %s, saw '%s'", a->opt, *a->opt ? ": " : "", expected,
                        a->value ? a->value : "");
}

int wk_cli_number(const struct wk_cli_arg *a, uint64_t min, uint64_t max, uint64_t *out)
{
    const char *s = a->value ? a->value : "";
    int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char *digits = hex ? s + 2 : s;
    int first_ok = hex ? strchr("0123456789abcdefABCDEF", *digits) != NULL : *digits >= '0' && *digits <= '9';
    char *end = NULL;
    errno = 0;
    unsigned long long v = first_ok && *digits ? strtoull(digits, &end, hex ? 16 : 10) : 0;
    if (!first_ok || !*digits || !end || *end || errno == ERANGE || v < min || v > max) {
        char expected[96];
        snprintf(expected, sizeof(expected), "a whole number from %llu to %llu", (unsigned long long)min,
                 (unsigned long long)max);
        return bad_number(a, expected);
    }
    *out = v;
    return 0;
}

int wk_cli_decimal(const struct wk_cli_arg *a, double min, double max, double *out)
{
    const char *s = a->value ? a->value : "";
    char *end = NULL;
    errno = 0;
    int first_ok = (*s >= '0' && *s <= '9') || (*s == '.' && s[1] >= '0' && s[1] <= '9');
    int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    double v = first_ok && !hex ? strtod(s, &end) : 0;
    if (!first_ok || hex || !end || *end || errno == ERANGE || !isfinite(v) || v < min || v > max) {
        char expected[96];
        snprintf(expected, sizeof(expected), "a number from %g to %g", min, max);
        return bad_number(a, expected);
    }
    *out = v;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Commands of subcommands                                              */
/* ------------------------------------------------------------------ */

static void usage_lines(const struct wk_cli_subcommand *subs, size_t count, FILE *out)
{
    for (size_t i = 0; i < count; i++) {
        const struct wk_cli_command *c = subs[i].cmd;
        fprintf(out, "%s wddmkit %s%s%s\n", i ? "      " : "usage:", c->name, c->usage && *c->usage ? " " : "",
                c->usage ? c->usage : "");
    }
}

void wk_cli_group_help(const char *group, const char *about, const struct wk_cli_subcommand *subs, size_t count,
                       FILE *out)
{
    (void)group; /* each subcommand's name holds it ("gpu disasm") */
    usage_lines(subs, count, out);
    if (about)
        print_indented(out, about, 0);
}

int wk_cli_dispatch(const char *group, const char *about, const struct wk_cli_subcommand *subs, size_t count,
                    int argc, char **argv)
{
    if (argc < 1) {
        fprintf(stderr, "wddmkit %s: expected a subcommand\n", group);
        usage_lines(subs, count, stderr);
        return try_help(group);
    }
    const char *word = argv[0];
    if (strcmp(word, "help") == 0 || strcmp(word, "--help") == 0 || strcmp(word, "-h") == 0) {
        if (wk_cli_help_sink)
            wk_cli_help_sink->group(wk_cli_help_sink->ctx, group, about, subs, count);
        else
            wk_cli_group_help(group, about, subs, count, stdout);
        return 0;
    }
    const char *words[16];
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        if (strcmp(word, subs[i].word) == 0)
            return subs[i].run(argc - 1, argv + 1);
        if (n < sizeof(words) / sizeof(words[0]))
            words[n++] = subs[i].word;
    }
    const char *near = word[0] == '-' ? NULL : wk_cli_suggest(word, words, n);
    if (near)
        fprintf(stderr, "wddmkit %s: unknown subcommand '%s' (did you mean '%s'?)\n", group, word, near);
    else
        fprintf(stderr, "wddmkit %s: unknown subcommand '%s'\n", group, word);
    usage_lines(subs, count, stderr);
    return try_help(group);
}
