/* SPDX-License-Identifier: MIT */
/*
 * cli_corpus.c - `wddmkit corpus seed [--specs DIR] [--out DIR] [--check]`:
 * the seed corpora of the driver harnesses, generated from YAML specs.
 *
 * Why a command: a driver author's own specs are the best seeds for
 * fuzzing that driver (each is a sequence the driver is known to handle),
 * and the committed seeds of this repository must follow its specs
 * (fuzz.seeds_current runs the --check form). The formats and the
 * generation are fuzz/seeds_lib.c's, shared with wk_gen_seeds.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "fuzz.h"

#ifndef WK_SOURCE_DIR
#define WK_SOURCE_DIR "."
#endif

static const char usage_text[] =
    "usage: wddmkit corpus seed [--specs DIR] [--out DIR] [--check]\n"
    "\n"
    "  Writes the seed corpora of fuzz_prog, fuzz_render, fuzz_patch, fuzz_paging and\n"
    "  fuzz_hostile from every case of the YAML specs, into OUT/<harness>/seeds/ (its *.bin\n"
    "  files replaced): fuzz_prog each case as its step program, fuzz_render each render\n"
    "  step, fuzz_patch each DxgkDdiPatch call the reference driver receives, fuzz_paging\n"
    "  each case's paging steps, fuzz_hostile each negative case with its answer corruption.\n"
    "  `wddmkit fuzz` starts from them.\n"
    "\n"
    "  --specs DIR   the specs (default: the repository's specs/)\n"
    "  --out DIR     the corpus folder (default: the repository's corpus/)\n"
    "  --check       write nothing; list each seed file of OUT that is missing, stale or\n"
    "                made by no spec, and exit 1 if there is one\n"
    "\n"
    "exit: 0 done (or current), 1 out of date (--check), 2 usage error or unreadable specs\n";

static int usage_error(const char *what, const char *arg)
{
    fprintf(stderr, "wddmkit corpus seed: %s '%s'\n(try 'wddmkit corpus seed --help')\n", what, arg);
    return 2;
}

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

static int seed(int argc, char **argv)
{
    const char *specs = WK_SOURCE_DIR "/specs", *out = WK_SOURCE_DIR "/corpus";
    int check_only = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_text, stdout);
            return 0;
        }
        if (strcmp(a, "--check") == 0)
            check_only = 1;
        else if ((strcmp(a, "--specs") == 0 || strcmp(a, "--out") == 0) && i + 1 < argc)
            *(strcmp(a, "--specs") == 0 ? &specs : &out) = argv[++i];
        else if (strcmp(a, "--specs") == 0 || strcmp(a, "--out") == 0)
            return usage_error("a folder must follow", a);
        else
            return usage_error("unknown argument", a);
    }
    if (!wk_path_is_dir(specs))
        return usage_error("--specs: not a folder:", specs);
    if (wk_cli_parse_only)
        return 0;
    if (check_only)
        return check(specs, out);
    long n = wk_seeds_generate(specs, out, stderr);
    if (n < 0)
        return 2;
    printf("wddmkit corpus seed: %ld seed files written under %s from %s\n", n, out, specs);
    return 0;
}

int wk_cli_corpus(int argc, char **argv)
{
    if (argc >= 1 && strcmp(argv[0], "seed") == 0)
        return seed(argc - 1, argv + 1);
    if (argc >= 1 && (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0)) {
        fputs(usage_text, stdout);
        return 0;
    }
    return usage_error("expected 'seed', saw", argc ? argv[0] : "nothing");
}
