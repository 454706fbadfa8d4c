/* SPDX-License-Identifier: MIT */
/*
 * cli_fuzz.c - `wddmkit fuzz`: the command line of a fuzzing campaign.
 * Parses the options into a struct wk_campaign_options and hands them to
 * wk_campaign_run (fuzz/campaign/), which does the work: finding the
 * build, seeding, running and following the engines, the summary. The
 * checkout the campaign uses (corpus/, harnesses/, build/) is the one this
 * wddmkit was built from (WK_FUZZ_REPO_DIR), else the working directory.
 *
 * Exit codes: 0 no crash, 1 crashes found, 2 usage or setup errors.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "fuzz.h" /* wk_campaign_run */

#ifndef WK_FUZZ_REPO_DIR
#define WK_FUZZ_REPO_DIR "."
#endif

/* The harnesses and what each fuzzes, from the list (fuzz/harnesses.txt). */
static void usage_harnesses(FILE *out)
{
    size_t n;
    const struct wk_fuzz_harness *h = wk_fuzz_harness_table(&n);
    fputs("  --harness NAME      the harness to fuzz, one of:\n", out);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "                        %-16s %s\n", h[i].name, h[i].description);
}

static void usage(FILE *out)
{
    fputs("usage: wddmkit fuzz --harness NAME [options] [-- ENGINE-ARGS...]\n"
          "\n",
          out);
    usage_harnesses(out);
    fputs("  --engine E          libfuzzer (default) or afl (AFL++)\n"
          "  --driver PATH       the driver under test, a shared object (passed as WK_DRIVER;\n"
          "                      default: the reference driver built into the harness)\n"
          "  -j, --jobs N        engine processes: libFuzzer -jobs/-workers, AFL++ 1 main + N-1 secondaries\n"
          "                      (default 1, at most 64)\n"
          "  --time S            stop after S seconds (default 0: until a crash (libFuzzer) or Ctrl-C)\n"
          "  --out DIR           output folder (default fuzz-out/NAME-ENGINE): corpus/ crashes/ logs/\n"
          "  --seeds DIR         more starting inputs: DIR/NAME/seeds when it exists (a corpus folder,\n"
          "                      as `wddmkit corpus seed --out DIR` writes from your specs), else DIR\n"
          "                      itself; up to 8 times, added to the repository's seeds and regressions\n"
          "  --build-dir DIR     where the harness binary is (DIR/fuzz/NAME or DIR/NAME;\n"
          "                      default build/libfuzzer or build/afl of the repository; with a driver\n"
          "                      module, the first build that loads it of build/libfuzzer-driver (ASan\n"
          "                      + UBSan on the driver, not on the kit's checks: inputs cost up to half\n"
          "                      as much) and build/libfuzzer, or of build/afl and build/afl-driver)\n"
          "  --max-len N         largest input in bytes (default: the harness's, 4096 for most)\n"
          "  --timeout S         seconds one input may run before it is a finding (default 10)\n"
          "  --rss-limit MB      libFuzzer memory limit (default 2048; 0: none)\n"
          "  --no-triage         list crashes with the signatures from the engine's logs instead of\n"
          "                      running `wddmkit triage` on them (which replays every file)\n"
          "  --prune             instead of fuzzing, shrink the output folder's corpus/ to the inputs\n"
          "                      that keep its coverage (libFuzzer's -merge=1; AFL++'s afl-cmin over\n"
          "                      corpus/ and every instance's queue, after which the next campaign\n"
          "                      starts from it: afl/ becomes afl.before-prune/); the old corpus is\n"
          "                      kept when the merge fails or is stopped\n"
          "  --keep-crashing-seeds\n"
          "                      start from every starting input. By default, with a driver module, the\n"
          "                      seeds, regressions and --seeds inputs are replayed against it first, and\n"
          "                      those that already crash or hang it are left out of corpus/, each named\n"
          "                      with its signature (libFuzzer stops at its first crash)\n"
          "  --ignore-signature SIG\n"
          "                      a known finding not to stop at: an input with this signature (as\n"
          "                      `wddmkit repro` prints it) is counted, not a crash, so the engines go\n"
          "                      on looking for other bugs; up to 64 times. The signatures of the starting\n"
          "                      inputs left out as already crashing are passed over the same way\n"
          "  --stop-on-known     do not pass over those left-out signatures (--ignore-signature still is)\n"
          "  --dry-run           print what would run, create nothing\n"
          "  -- ARGS...          passed to the engine unchanged (libFuzzer flags, afl-fuzz options)\n"
          "\n"
          "exit: 0 no crash, 1 crashes found, 2 usage or setup error\n",
          out);
}

static int parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    if (!s || !*s)
        goto bad;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9' || v > (UINT64_MAX - 9) / 10)
            goto bad;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    if (v < min || v > max)
        goto bad;
    *out = v;
    return 1;
bad:
    fprintf(stderr, "wddmkit fuzz: %s: expected a whole number from %llu to %llu, saw '%s'\n", opt,
            (unsigned long long)min, (unsigned long long)max, s ? s : "");
    return 0;
}




/* A flag without a value: sets it and returns 1; 0 for any other word. */
static int parse_flag(const char *a, struct wk_campaign_options *o)
{
    int *flag = strcmp(a, "--dry-run") == 0               ? &o->dry_run
                : strcmp(a, "--no-triage") == 0           ? &o->no_triage
                : strcmp(a, "--prune") == 0               ? &o->prune
                : strcmp(a, "--keep-crashing-seeds") == 0 ? &o->keep_seeds
                : strcmp(a, "--stop-on-known") == 0       ? &o->stop_on_known
                                                          : NULL;
    if (flag)
        *flag = 1;
    return flag != NULL;
}

/* An option with a value, "--name value" or "--name=value" (long names
 * only): its name and value, argv[*i] moved past them. 1 found, 0 not an
 * option of ours, -1 a missing value (printed). */
static int option_value(int argc, char **argv, int *i, const char **name, const char **value)
{
    static const char *const with_value[] = { "--harness",   "--engine", "--driver",    "--jobs",
                                              "-j",          "--time",   "--out",       "--build-dir",
                                              "--max-len",   "--timeout", "--rss-limit", "--seeds",
                                              "--ignore-signature" };
    const char *a = argv[*i];
    for (size_t k = 0; k < sizeof(with_value) / sizeof(with_value[0]); k++) {
        size_t n = strlen(with_value[k]);
        if (strcmp(a, with_value[k]) == 0) {
            if (*i + 1 >= argc) {
                fprintf(stderr, "wddmkit fuzz: %s needs a value\n", a);
                return -1;
            }
            *name = with_value[k];
            *value = argv[++*i];
            return 1;
        }
        if (strncmp(a, with_value[k], n) == 0 && a[n] == '=' && with_value[k][1] == '-') {
            *name = with_value[k];
            *value = a + n + 1;
            return 1;
        }
    }
    return 0;
}

/* --seeds and --ignore-signature, which may be given several times. */
static int add_repeated(struct wk_campaign_options *o, const char *name, const char *value)
{
    if (strcmp(name, "--seeds") == 0) {
        if (o->seed_dir_count == WK_CAMPAIGN_MAX_SEED_DIRS) {
            fprintf(stderr, "wddmkit fuzz: --seeds: at most %d folders\n", WK_CAMPAIGN_MAX_SEED_DIRS);
            return 0;
        }
        o->seed_dirs[o->seed_dir_count++] = value;
        return 1;
    }
    if (o->ignore_count == WK_CAMPAIGN_MAX_KNOWN) {
        fprintf(stderr, "wddmkit fuzz: --ignore-signature: at most %d signatures\n", WK_CAMPAIGN_MAX_KNOWN);
        return 0;
    }
    if (strpbrk(value, ";\n") || strlen(value) >= WK_CAMPAIGN_SIG_TEXT) {
        fprintf(stderr, "wddmkit fuzz: --ignore-signature: '%.60s' cannot be a signature (one line, no ';', "
                        "under %d characters)\n", value, WK_CAMPAIGN_SIG_TEXT);
        return 0;
    }
    o->ignore[o->ignore_count++] = value;
    return 1;
}

/* Stores one option's value; 0 (printed) when it is not a good one. */
static int set_value(struct wk_campaign_options *o, const char *name, const char *value)
{
    if (strcmp(name, "--harness") == 0) {
        o->harness = value;
    } else if (strcmp(name, "--engine") == 0) {
        if (strcmp(value, "libfuzzer") == 0) {
            o->engine = WK_CAMPAIGN_LIBFUZZER;
        } else if (strcmp(value, "afl") == 0 || strcmp(value, "afl++") == 0) {
            o->engine = WK_CAMPAIGN_AFL;
        } else {
            fprintf(stderr, "wddmkit fuzz: --engine: expected libfuzzer or afl, saw '%s'\n", value);
            return 0;
        }
    } else if (strcmp(name, "--driver") == 0) {
        o->driver = value;
    } else if (strcmp(name, "--jobs") == 0 || strcmp(name, "-j") == 0) {
        return parse_u64(name, value, 1, WK_CAMPAIGN_MAX_JOBS, &o->jobs);
    } else if (strcmp(name, "--time") == 0) {
        return parse_u64(name, value, 0, 366ull * 24 * 3600, &o->time);
    } else if (strcmp(name, "--out") == 0) {
        o->out = value;
    } else if (strcmp(name, "--build-dir") == 0) {
        o->build_dir = value;
    } else if (strcmp(name, "--max-len") == 0) {
        o->max_len_set = 1;
        return parse_u64(name, value, 1, 16u << 20, &o->max_len);
    } else if (strcmp(name, "--timeout") == 0) {
        return parse_u64(name, value, 1, 3600, &o->timeout);
    } else if (strcmp(name, "--rss-limit") == 0) {
        return parse_u64(name, value, 0, 1u << 20, &o->rss_limit);
    } else {
        return add_repeated(o, name, value);
    }
    return 1;
}

/* What the options say together: a harness, --seeds folders that are. */
static int check_options(const struct wk_campaign_options *o)
{
    if (!o->harness) {
        fprintf(stderr, "wddmkit fuzz: --harness NAME is required\n");
        return 0;
    }
    for (int i = 0; i < o->seed_dir_count; i++)
        if (!wk_path_is_dir(o->seed_dirs[i])) {
            fprintf(stderr, "wddmkit fuzz: --seeds: '%s' is not a folder\n", o->seed_dirs[i]);
            return 0;
        }
    if (!wk_campaign_name_ok(o->harness)) {
        fprintf(stderr, "wddmkit fuzz: --harness: '%s' is not a harness name (letters, digits, '_' and '-')\n",
                o->harness);
        return 0;
    }
    return 1;
}

static int parse_args(int argc, char **argv, struct wk_campaign_options *o, int *help)
{
    memset(o, 0, sizeof(*o));
    o->jobs = 1;
    o->timeout = 10;
    o->rss_limit = 2048;
    o->engine = WK_CAMPAIGN_LIBFUZZER;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *name = NULL, *value = NULL;
        if (strcmp(a, "--") == 0) {
            o->extra = argv + i + 1;
            o->extra_count = argc - i - 1;
            if (o->extra_count > WK_CAMPAIGN_MAX_EXTRA) {
                fprintf(stderr, "wddmkit fuzz: at most %d engine arguments after '--'\n", WK_CAMPAIGN_MAX_EXTRA);
                return 0;
            }
            break;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            *help = 1;
            return 1;
        }
        if (parse_flag(a, o))
            continue;
        int found = option_value(argc, argv, &i, &name, &value);
        if (found < 0)
            return 0;
        if (!found) {
            fprintf(stderr, "wddmkit fuzz: unknown option '%s' (try 'wddmkit fuzz --help')\n", a);
            return 0;
        }
        if (!set_value(o, name, value))
            return 0;
        if (!*value) {
            fprintf(stderr, "wddmkit fuzz: %s: empty value\n", name);
            return 0;
        }
    }
    return check_options(o);
}

int wk_cli_fuzz(int argc, char **argv)
{
    struct wk_campaign_options o;
    int help = 0;
    if (!parse_args(argc, argv, &o, &help)) {
        usage(stderr);
        return 2;
    }
    if (help) {
        usage(stdout);
        return 0;
    }
    if (wk_cli_parse_only)
        return 0;
    o.repo_dir = WK_FUZZ_REPO_DIR;
    return wk_campaign_run(&o);
}
