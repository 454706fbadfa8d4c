/* SPDX-License-Identifier: MIT */
/*
 * cli_fuzz.c - `wddmkit fuzz`: the command line of a fuzzing campaign.
 * Parses the options (cli_options.h) into a struct wk_campaign_options and
 * hands them to wk_campaign_run (fuzz/campaign/), which does the work:
 * finding the build, seeding, running and following the engines, the
 * summary. The checkout the campaign uses (corpus/, harnesses/, build/) is
 * the kit's data root (a checkout, an installed share/wddmkit: cli_data.c)
 * and the folder of its builds by name (a checkout's build/, an installed
 * libexec/wddmkit), else the working directory.
 *
 * The command takes no operand: every argument after `--` goes to the
 * engine unchanged (the helper hands those over with after_end set).
 *
 * Exit codes: 0 no crash, 1 crashes found, 2 usage or setup errors.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_crash_args.h" /* wk_cli_unknown_harness */
#include "cli_options.h"
#include "fuzz.h" /* wk_campaign_run */

enum {
    OPT_HARNESS = WK_CLI_LONG_ONLY, OPT_ENGINE, OPT_DRIVER, OPT_TIME, OPT_OUT, OPT_SEEDS, OPT_BUILD_DIR,
    OPT_MAX_LEN, OPT_TIMEOUT, OPT_RSS_LIMIT, OPT_NO_TRIAGE, OPT_PRUNE, OPT_KEEP_SEEDS, OPT_IGNORE,
    OPT_STOP_ON_KNOWN, OPT_DRY_RUN, OPT_BINDING,
};

/* --harness's help: the harnesses and what each fuzzes, from the list
 * (fuzz/harnesses.txt); filled before the first parse (harness_help). */
static char harness_text[4096];

static const struct wk_cli_option fuzz_options[] = {
    { "harness", OPT_HARNESS, WK_CLI_VALUE, "NAME", harness_text },
    { "engine", OPT_ENGINE, WK_CLI_VALUE, "libfuzzer|afl", "libfuzzer (default) or afl (AFL++)" },
    { "driver", OPT_DRIVER, WK_CLI_VALUE, "PATH",
      "the driver under test, a shared object (passed as WK_DRIVER;\n"
      "default: the reference driver built into the harness)" },
    { "binding", OPT_BINDING, WK_CLI_VALUE, "PATH",
      "the hardware binding of a driver for other hardware (include/wddmkit/binding.h),\n"
      "built like the harness (passed as WK_BINDING): its processor executes the driver's\n"
      "buffers, its encoder writes its user-mode formats. none: no binding. Default: the\n"
      "driver module's own wk_binding, if it exports one" },
    { "jobs", 'j', WK_CLI_VALUE, "N",
      "engine processes: libFuzzer -jobs/-workers, AFL++ 1 main + N-1 secondaries\n"
      "(default 1, at most 64)" },
    { "time", OPT_TIME, WK_CLI_VALUE, "S", "stop after S seconds (default 0: until a crash (libFuzzer) or Ctrl-C)" },
    { "out", OPT_OUT, WK_CLI_VALUE, "DIR", "output folder (default fuzz-out/NAME-ENGINE): corpus/ crashes/ logs/" },
    { "seeds", OPT_SEEDS, WK_CLI_VALUE, "DIR",
      "more starting inputs: DIR/NAME/seeds when it exists (a corpus folder,\n"
      "as `wddmkit corpus seed --out DIR` writes from your specs), else DIR\n"
      "itself; up to 8 times, added to the kit's seeds and regressions" },
    { "build-dir", OPT_BUILD_DIR, WK_CLI_VALUE, "DIR",
      "where the harness binary is (DIR/fuzz/NAME or DIR/NAME;\n"
      "default the kit's libfuzzer or afl build: build/<name> of a checkout,\n"
      "libexec/wddmkit/<name> of an installed kit; with a driver module, the\n"
      "first build that loads it of libfuzzer-driver (ASan + UBSan on the\n"
      "driver, not on the kit's checks: inputs cost up to half as much) and\n"
      "libfuzzer, or of afl and afl-driver)" },
    { "max-len", OPT_MAX_LEN, WK_CLI_VALUE, "N", "largest input in bytes (default: the harness's, 4096 for most)" },
    { "timeout", OPT_TIMEOUT, WK_CLI_VALUE, "S", "seconds one input may run before it is a finding (default 10)" },
    { "rss-limit", OPT_RSS_LIMIT, WK_CLI_VALUE, "MB", "libFuzzer memory limit (default 2048; 0: none)" },
    { "no-triage", OPT_NO_TRIAGE, WK_CLI_FLAG, NULL,
      "list crashes with the signatures from the engine's logs instead of\n"
      "running `wddmkit triage` on them (which replays every file)" },
    { "prune", OPT_PRUNE, WK_CLI_FLAG, NULL,
      "instead of fuzzing, shrink the output folder's corpus/ to the inputs\n"
      "that keep its coverage (libFuzzer's -merge=1; AFL++'s afl-cmin over\n"
      "corpus/ and every instance's queue, after which the next campaign\n"
      "starts from it: afl/ becomes afl.before-prune/); the old corpus is\n"
      "kept when the merge fails or is stopped" },
    { "keep-crashing-seeds", OPT_KEEP_SEEDS, WK_CLI_FLAG, NULL,
      "start from every starting input. By default, with a driver module, the\n"
      "seeds, regressions and --seeds inputs are replayed against it first, and\n"
      "those that already crash or hang it are left out of corpus/, each named\n"
      "with its signature (libFuzzer stops at its first crash)" },
    { "ignore-signature", OPT_IGNORE, WK_CLI_VALUE, "SIG",
      "a known finding not to stop at: an input with this signature (as\n"
      "`wddmkit repro` prints it) is counted, not a crash, so the engines go\n"
      "on looking for other bugs; up to 64 times. The signatures of the starting\n"
      "inputs left out as already crashing are passed over the same way" },
    { "stop-on-known", OPT_STOP_ON_KNOWN, WK_CLI_FLAG, NULL,
      "do not pass over those left-out signatures (--ignore-signature still is)" },
    { "dry-run", OPT_DRY_RUN, WK_CLI_FLAG, NULL, "print what would run, create nothing" },
    { 0 },
};

static const struct wk_cli_command fuzz_command = {
    "fuzz", "--harness NAME [options] [-- ENGINE-ARGS...]", fuzz_options, NULL,
    "  -- ENGINE-ARGS...     passed to the engine unchanged (libFuzzer flags, afl-fuzz options)\n"
    "\n"
    "exit: 0 no crash, 1 crashes found, 2 usage or setup error",
};

/* Appends to harness_text; the text stays whole when it would not fit. */
static void harness_line(size_t *used, const char *name, const char *description)
{
    size_t cap = sizeof(harness_text) - *used;
    int n = snprintf(harness_text + *used, cap, "\n%-16s %s", name, description);
    if (n > 0 && (size_t)n < cap)
        *used += (size_t)n;
    else
        harness_text[*used] = '\0';
}

static void harness_help(void)
{
    if (harness_text[0])
        return;
    size_t n, used = 0;
    const struct wk_fuzz_harness *h = wk_fuzz_harness_table(&n);
    used = (size_t)snprintf(harness_text, sizeof(harness_text), "the harness to fuzz, one of:");
    for (size_t i = 0; i < n; i++)
        harness_line(&used, h[i].name, h[i].description);
}

/* What the handler fills: the options, and the engine's arguments. */
struct fuzz_args {
    struct wk_campaign_options o;
    char *extra[WK_CAMPAIGN_MAX_EXTRA];
};

static int set_engine(struct wk_campaign_options *o, const struct wk_cli_arg *a)
{
    if (strcmp(a->value, "libfuzzer") == 0)
        o->engine = WK_CAMPAIGN_LIBFUZZER;
    else if (strcmp(a->value, "afl") == 0 || strcmp(a->value, "afl++") == 0)
        o->engine = WK_CAMPAIGN_AFL;
    else
        return wk_cli_error(a->cmd, "%s: expected libfuzzer or afl, saw '%s'", a->opt, a->value);
    return 0;
}

static int add_seeds(struct wk_campaign_options *o, const struct wk_cli_arg *a)
{
    if (o->seed_dir_count == WK_CAMPAIGN_MAX_SEED_DIRS)
        return wk_cli_error(a->cmd, "%s: at most %d folders", a->opt, WK_CAMPAIGN_MAX_SEED_DIRS);
    o->seed_dirs[o->seed_dir_count++] = a->value;
    return 0;
}

static int add_ignore(struct wk_campaign_options *o, const struct wk_cli_arg *a)
{
    if (o->ignore_count == WK_CAMPAIGN_MAX_KNOWN)
        return wk_cli_error(a->cmd, "%s: at most %d signatures", a->opt, WK_CAMPAIGN_MAX_KNOWN);
    if (strpbrk(a->value, ";\n") || strlen(a->value) >= WK_CAMPAIGN_SIG_TEXT)
        return wk_cli_error(a->cmd, "%s: '%.60s' cannot be a signature (one line, no ';', under %d characters)",
                            a->opt, a->value, WK_CAMPAIGN_SIG_TEXT);
    o->ignore[o->ignore_count++] = a->value;
    return 0;
}

/* An operand: after `--`, the engine's; before, a mistake. */
static int add_extra(struct fuzz_args *F, const struct wk_cli_arg *a)
{
    struct wk_campaign_options *o = &F->o;
    if (!a->after_end)
        return wk_cli_error(a->cmd, "unexpected argument '%s' (the engine's arguments go after '--')", a->value);
    if (o->extra_count == WK_CAMPAIGN_MAX_EXTRA)
        return wk_cli_error(a->cmd, "at most %d engine arguments after '--'", WK_CAMPAIGN_MAX_EXTRA);
    F->extra[o->extra_count++] = (char *)a->value;
    return 0;
}

static int fuzz_arg(void *ctx, const struct wk_cli_arg *a)
{
    struct fuzz_args *F = ctx;
    struct wk_campaign_options *o = &F->o;
    switch (a->key) {
    case OPT_HARNESS: o->harness = a->value; return 0;
    case OPT_ENGINE: return set_engine(o, a);
    case OPT_DRIVER: o->driver = a->value; return 0;
    case OPT_BINDING: o->binding = a->value; return 0;
    case 'j': return wk_cli_number(a, 1, WK_CAMPAIGN_MAX_JOBS, &o->jobs);
    case OPT_TIME: return wk_cli_number(a, 0, 366ull * 24 * 3600, &o->time);
    case OPT_OUT: o->out = a->value; return 0;
    case OPT_SEEDS: return add_seeds(o, a);
    case OPT_BUILD_DIR: o->build_dir = a->value; return 0;
    case OPT_MAX_LEN: o->max_len_set = 1; return wk_cli_number(a, 1, 16u << 20, &o->max_len);
    case OPT_TIMEOUT: return wk_cli_number(a, 1, 3600, &o->timeout);
    case OPT_RSS_LIMIT: return wk_cli_number(a, 0, 1u << 20, &o->rss_limit);
    case OPT_NO_TRIAGE: o->no_triage = 1; return 0;
    case OPT_PRUNE: o->prune = 1; return 0;
    case OPT_KEEP_SEEDS: o->keep_seeds = 1; return 0;
    case OPT_IGNORE: return add_ignore(o, a);
    case OPT_STOP_ON_KNOWN: o->stop_on_known = 1; return 0;
    case OPT_DRY_RUN: o->dry_run = 1; return 0;
    default: return add_extra(F, a); /* WK_CLI_OPERAND */
    }
}

/* What the options say together: a harness, --seeds folders that are.
 * WK_CLI_CONTINUE, or 2 after saying why. */
static int check_options(const struct wk_campaign_options *o)
{
    if (!o->harness)
        return wk_cli_usage_error(&fuzz_command, "--harness NAME is required");
    for (int i = 0; i < o->seed_dir_count; i++)
        if (!wk_path_is_dir(o->seed_dirs[i]))
            return wk_cli_usage_error(&fuzz_command, "--seeds: '%s' is not a folder", o->seed_dirs[i]);
    if (!wk_campaign_name_ok(o->harness))
        return wk_cli_usage_error(&fuzz_command,
                                  "--harness: '%s' is not a harness name (letters, digits, '_' and '-')", o->harness);
    /* A harness of the kit, unless --build-dir names a build of one of
     * your own. */
    if (!o->build_dir && !wk_fuzz_harness_known(o->harness))
        return wk_cli_unknown_harness(&fuzz_command, o->harness);
    return WK_CLI_CONTINUE;
}

/* The campaign runs the driver in processes of its own (the seed check's
 * replays, the engines and their workers), and a driver that forks and
 * calls setsid() leaves their process groups. This command is their child
 * subreaper, so such orphans come to it, and it kills every one left when
 * the campaign ends: normally, on an error, or stopped by SIGINT or SIGTERM
 * (the campaign catches them while the engines run, and returns; before
 * and after, util's handler kills them and ends the command). Issue 22:
 * "Every process a driver starts is found and killed". */
static int run_reaped(const struct wk_campaign_options *o)
{
    wk_reap_become_subreaper();
    wk_reap_on_signals();
    int rc = wk_campaign_run(o);
    wk_reap_descendants();
    return rc;
}

int wk_cli_fuzz(int argc, char **argv)
{
    struct fuzz_args F;
    memset(&F, 0, sizeof(F));
    F.o.jobs = 1;
    F.o.timeout = 10;
    F.o.rss_limit = 2048;
    F.o.engine = WK_CAMPAIGN_LIBFUZZER;
    F.o.extra = F.extra;
    harness_help();
    int rc = wk_cli_parse(&fuzz_command, argc, argv, fuzz_arg, &F);
    if (rc == WK_CLI_CONTINUE)
        rc = check_options(&F.o);
    if (rc != WK_CLI_CONTINUE)
        return rc;
    if (wk_cli_parse_only)
        return 0;
    F.o.repo_dir = wk_cli_data_dir(NULL);
    F.o.builds_dir = wk_cli_builds_dir();
    F.o.kit_commit = wk_cli_kit_commit;
    return run_reaped(&F.o);
}
