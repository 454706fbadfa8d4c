/* SPDX-License-Identifier: MIT */
/*
 * cli_crash_args.c - the arguments the crash commands share (`wddmkit prog
 * dump | repro | minimize | promote | triage`): one FILE (or DIR), and one
 * handler for every option any of them takes. A command's table (in its
 * own file) decides which options it accepts: an option outside it never
 * reaches the handler, getopt_long refuses it first. The work is
 * fuzz/crash/'s.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_crash_args.h"

int wk_cli_unknown_harness(const struct wk_cli_command *cmd, const char *name)
{
    size_t n = 0;
    const struct wk_fuzz_harness *h = wk_fuzz_harness_table(&n);
    const char *names[64];
    size_t count = n < 64 ? n : 64;
    for (size_t i = 0; i < count; i++)
        names[i] = h[i].name;
    const char *near = wk_cli_suggest(name, names, count);
    if (near)
        return wk_cli_error(cmd, "unknown harness '%s' (did you mean '%s'? one of: %s)", name, near,
                            wk_fuzz_harness_names());
    return wk_cli_error(cmd, "unknown harness '%s' (one of: %s)", name, wk_fuzz_harness_names());
}

int wk_cli_harness_arg(const struct wk_cli_arg *a, const char **out)
{
    if (!wk_fuzz_harness_name_ok(a->value))
        return wk_cli_error(a->cmd, "%s: not a harness name (letters, digits and '_'): '%s'", a->opt, a->value);
    if (!wk_fuzz_harness_known(a->value))
        return wk_cli_unknown_harness(a->cmd, a->value);
    *out = a->value;
    return 0;
}

static int crash_number(const struct wk_cli_arg *a, uint64_t min, uint64_t max, uint32_t scale, uint32_t *out)
{
    uint64_t n = 0;
    if (wk_cli_number(a, min, max, &n))
        return 2;
    *out = (uint32_t)n * scale;
    return 0;
}

struct crash_args {
    struct wk_crash_options *o;
    const char *what; /* the operand's name: "FILE", "DIR" */
};

static int crash_arg(void *ctx, const struct wk_cli_arg *a)
{
    const struct crash_args *C = ctx;
    struct wk_crash_options *o = C->o;
    switch (a->key) {
    case WK_CRASH_DRIVER: o->driver = a->value; return 0;
    case WK_CRASH_BINDING: /* the environment carries it to every run, replays included */
        o->binding = a->value;
        setenv("WK_BINDING", a->value, 1);
        return 0;
    case 'o': o->out = a->value; return 0;
    case WK_CRASH_NAME: o->name = a->value; return 0;
    case WK_CRASH_HARNESS: return wk_cli_harness_arg(a, &o->harness);
    case WK_CRASH_RUNS: return crash_number(a, 1, 100000, 1, &o->runs);
    case WK_CRASH_SEED: return wk_cli_number(a, 0, UINT64_MAX, &o->seed);
    case WK_CRASH_TIMEOUT: return crash_number(a, 1, 3600, 1000, &o->timeout_ms);
    case WK_CRASH_NO_CALIBRATE: o->no_calibrate = 1; return 0;
    case WK_CRASH_SARIF: o->sarif = a->value; return 0;
    case WK_CRASH_LOAD_TIMEOUT: return wk_cli_load_timeout_arg(a);
    default: /* WK_CLI_OPERAND */
        if (o->path)
            return wk_cli_error(a->cmd, "one %s at a time ('%s' and '%s')", C->what, o->path, a->value);
        o->path = a->value;
        return 0;
    }
}

int wk_cli_crash_parse(const struct wk_cli_command *cmd, const char *what, int argc, char **argv,
                       struct wk_crash_options *o)
{
    memset(o, 0, sizeof(*o));
    o->runs = 1;
    o->timeout_ms = 60000;
    struct crash_args C = { o, what };
    int rc = wk_cli_parse(cmd, argc, argv, crash_arg, &C);
    if (rc != WK_CLI_CONTINUE)
        return rc;
    if (!o->path)
        return wk_cli_usage_error(cmd, "missing %s", what);
    return WK_CLI_CONTINUE;
}
