/* SPDX-License-Identifier: MIT */
/*
 * cli_corpus.c - `wddmkit corpus seed [--specs DIR] [--out DIR] [--check]`:
 * the seed corpora of the driver harnesses, generated from YAML specs; and
 * `wddmkit corpus upgrade [--corpus DIR] [--check]`: the step-program files
 * of a corpus rewritten in the current binary format.
 *
 * Why a command: a driver author's own specs are the best seeds for
 * fuzzing that driver (each is a sequence the driver is known to handle),
 * and the committed seeds of this repository must follow its specs
 * (fuzz.seeds_current runs the --check form). The formats and the
 * generation are fuzz/inputs/seeds_lib.c's, shared with wk_gen_seeds.
 */
#define _GNU_SOURCE /* PATH_MAX */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_options.h"
#include "fuzz.h"

/* The corpus folder written by default: the checkout's corpus/ (its
 * committed seeds), else corpus/ in the working directory (an installed
 * kit's data is not the user's to rewrite). */
static const char *default_corpus(void)
{
    static char path[PATH_MAX + 8];
    const char *checkout = wk_cli_checkout();
    if (!checkout || !wk_path_join(path, sizeof(path), checkout, "corpus"))
        return "corpus";
    return path;
}

enum { OPT_SPECS = WK_CLI_LONG_ONLY, OPT_OUT, OPT_CHECK };
static const struct wk_cli_option seed_options[] = {
    { "specs", OPT_SPECS, WK_CLI_VALUE, "DIR", "the specs (default: the kit's specs/)" },
    { "out", OPT_OUT, WK_CLI_VALUE, "DIR",
      "the corpus folder (default: the checkout's corpus/; for an installed kit,\n"
      "corpus/ in the working directory)" },
    { "check", OPT_CHECK, WK_CLI_FLAG, NULL,
      "write nothing; list each seed file of OUT that is missing, stale or\n"
      "made by no spec, and exit 1 if there is one" },
    { 0 },
};

static const struct wk_cli_command seed_command = {
    "corpus seed", "[--specs DIR] [--out DIR] [--check]", seed_options,
    "Writes the seed corpora of fuzz_prog, fuzz_render, fuzz_patch, fuzz_paging and\n"
    "fuzz_hostile from every case of the YAML specs, into OUT/<harness>/seeds/ (its *.bin\n"
    "files replaced): fuzz_prog each case as its step program, fuzz_render each render\n"
    "step, fuzz_patch each DxgkDdiPatch call the reference driver receives, fuzz_paging\n"
    "each case's paging steps, fuzz_hostile each negative case with its answer corruption.\n"
    "`wddmkit fuzz` starts from them.",
    "exit: 0 done (or current), 1 out of date (--check), 2 usage error or unreadable specs",
};

static int check(const char *specs, const char *out)
{
    long bad = wk_seeds_check_fresh(specs, out, stderr);
    if (bad < 0)
        return 2;
    if (bad == 0) {
        printf("wddmkit corpus seed: the seeds under %s are what %s gives\n", out, specs);
        return 0;
    }
    fprintf(stderr, "wddmkit corpus seed: %ld seed files out of date; regenerate them: wddmkit corpus seed --specs %s --out %s\n",
            bad, specs, out);
    return 1;
}

struct seed_args {
    const char *specs, *out;
    int check_only;
};

static int seed_arg(void *ctx, const struct wk_cli_arg *a)
{
    struct seed_args *S = ctx;
    switch (a->key) {
    case OPT_SPECS: S->specs = a->value; return 0;
    case OPT_OUT: S->out = a->value; return 0;
    case OPT_CHECK: S->check_only = 1; return 0;
    default: return wk_cli_error(a->cmd, "unknown argument '%s'", a->value);
    }
}

static int seed(int argc, char **argv)
{
    struct seed_args S = { wk_cli_specs_dir(), default_corpus(), 0 };
    int rc = wk_cli_parse(&seed_command, argc, argv, seed_arg, &S);
    if (rc != WK_CLI_CONTINUE)
        return rc;
    if (!wk_path_is_dir(S.specs))
        return wk_cli_usage_error(&seed_command, "--specs: not a folder: '%s'", S.specs);
    if (wk_cli_parse_only)
        return 0;
    if (S.check_only)
        return check(S.specs, S.out);
    long n = wk_seeds_generate(S.specs, S.out, stderr);
    if (n < 0)
        return 2;
    printf("wddmkit corpus seed: %ld seed files written under %s from %s\n", n, S.out, S.specs);
    return 0;
}

enum { OPT_CORPUS = WK_CLI_LONG_ONLY + 16, OPT_UPGRADE_CHECK };
static const struct wk_cli_option upgrade_options[] = {
    { "corpus", OPT_CORPUS, WK_CLI_VALUE, "DIR",
      "the corpus folder (default: the checkout's corpus/; for an installed kit,\n"
      "corpus/ in the working directory)" },
    { "check", OPT_UPGRADE_CHECK, WK_CLI_FLAG, NULL,
      "write nothing; list each file in an older format, and exit 1 if there is one" },
    { 0 },
};

static const struct wk_cli_command upgrade_command = {
    "corpus upgrade", "[--corpus DIR] [--check]", upgrade_options,
    "Rewrites every *.bin under DIR/fuzz_prog/ and DIR/fuzz_hostile/ (seeds/ and\n"
    "regressions/), whose inputs are step programs, in the current binary format\n"
    "(docs/fuzzing.md, \"Program format\"). Each file becomes the encoding of its\n"
    "decoding: the same program, so a regression keeps its signature. The kit reads\n"
    "older files as it always did; upgrading only makes them what it writes today.",
    "exit: 0 done (or current), 1 older files (--check), 2 usage error or a file that\n"
    "could not be read or written",
};

struct upgrade_args {
    const char *corpus;
    int check_only;
};

static int upgrade_arg(void *ctx, const struct wk_cli_arg *a)
{
    struct upgrade_args *U = ctx;
    switch (a->key) {
    case OPT_CORPUS: U->corpus = a->value; return 0;
    case OPT_UPGRADE_CHECK: U->check_only = 1; return 0;
    default: return wk_cli_error(a->cmd, "unknown argument '%s'", a->value);
    }
}

static int upgrade(int argc, char **argv)
{
    struct upgrade_args U = { default_corpus(), 0 };
    int rc = wk_cli_parse(&upgrade_command, argc, argv, upgrade_arg, &U);
    if (rc != WK_CLI_CONTINUE)
        return rc;
    if (!wk_path_is_dir(U.corpus))
        return wk_cli_usage_error(&upgrade_command, "--corpus: not a folder: '%s'", U.corpus);
    if (wk_cli_parse_only)
        return 0;
    long n = wk_corpus_upgrade(U.corpus, U.check_only, stderr);
    if (n < 0)
        return 2;
    if (U.check_only && n > 0) {
        fprintf(stderr, "wddmkit corpus upgrade: %ld files in an older format; rewrite them: wddmkit corpus upgrade --corpus %s\n",
                n, U.corpus);
        return 1;
    }
    if (U.check_only)
        printf("wddmkit corpus upgrade: every program file under %s is in the current format\n", U.corpus);
    else
        printf("wddmkit corpus upgrade: %ld files rewritten under %s\n", n, U.corpus);
    return 0;
}

int wk_cli_corpus(int argc, char **argv)
{
    static const struct wk_cli_subcommand subs[] = { { "seed", &seed_command, seed },
                                                     { "upgrade", &upgrade_command, upgrade } };
    return wk_cli_dispatch("corpus", "What each writes and the options: 'wddmkit corpus seed --help', 'wddmkit corpus upgrade --help'.",
                           subs, 2, argc, argv);
}
