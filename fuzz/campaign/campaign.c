/* SPDX-License-Identifier: MIT */
/*
 * campaign.c - `wddmkit fuzz` as a library: a fuzzing campaign on one
 * harness in one call, with libFuzzer or AFL++ (docs/fuzz-your-driver.md,
 * "Run a campaign"). cli/cli_fuzz.c parses the command line into a struct
 * wk_campaign_options; wk_campaign_run does the rest.
 *
 * What it does, in order, and where:
 *   1. finds the harness binary of the chosen engine (build/<engine>/fuzz/NAME
 *      by default; against a driver module, the first build that loads it
 *      of two) and, when it is missing, prints the cmake commands that
 *      build it (builds.c);
 *   2. prepares the output folder (default fuzz-out/NAME-ENGINE/): corpus/
 *      seeded from corpus/NAME/{seeds,regressions} and --seeds, crashes/ and
 *      logs/, and campaign.txt naming the harness and the driver (seeding.c);
 *      with a driver module, the starting inputs that already crash it are
 *      left out (seed_check.c) and their signatures, with
 *      --ignore-signature's, passed to the harness to pass over (known.c),
 *      and a module without the engine's instrumentation is warned about;
 *   3. runs the engine with the dictionary (harnesses/NAME.dict), the seeds
 *      and the options (engines.c), each engine process in its own process
 *      group with its output in logs/, and the driver under test in
 *      WK_DRIVER, which every harness honours (and for AFL++ in AFL_PRELOAD
 *      too), and its hardware binding in WK_BINDING (supervise.c);
 *   4. prints progress every few seconds from libFuzzer's status lines
 *      (libfuzzer_log.c) or AFL++'s fuzzer_stats/plot_data files
 *      (afl_stats.c), and a summary at the end with the runs that hit a
 *      known signature and every new crash and its signature (signatures.c),
 *      through `wddmkit triage` when the build has it (summary.c).
 * SIGINT/SIGTERM stop the engines (forwarded as SIGINT, then SIGKILL after a
 * grace period or a second Ctrl-C) and the summary is still printed.
 * --prune replaces 3 and 4 with a corpus merge (prune.c).
 *
 * Exit codes: 0 no crash, 1 crashes found (new files in crashes/, or starting
 * inputs that already fail: crashes/seed-*), 2 usage
 * or setup errors (including an engine that failed without finding
 * anything).
 *
 * Command lines and everything the engines write are untrusted: every path
 * is length-checked, logs are read through a fixed-size tail buffer,
 * numbers are parsed digit by digit, and no allocation depends on what an
 * engine printed.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "campaign/internal.h"
#include "tools/harness_names.h"
#include "util.h"

int wk_campaign_name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 64)
        return 0;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' ||
              *p == '-'))
            return 0;
    return 1;
}

/* The kit's data (seeds, dictionaries; in a checkout the harness
 * sources too) and its builds by name. */
static void find_repo(struct campaign *c)
{
    const char *dir = c->o.repo_dir;
    if (dir && wk_campaign_is_repo(dir) && realpath(dir, c->repo))
        c->have_repo = 1;
    else if (wk_campaign_is_repo(".") && realpath(".", c->repo))
        c->have_repo = 1;
    c->checkout = c->have_repo && wk_kit_is_checkout(c->repo);
    if (c->o.builds_dir)
        wk_str_copy(c->builds, sizeof(c->builds), c->o.builds_dir);
    else if (!(c->have_repo && wk_path_join(c->builds, sizeof(c->builds), c->repo, "build")))
        c->builds[0] = '\0';
}

/* The harness's max_len (fuzz/harnesses.txt); 0 (with a message) when the checkout has no
 * source for it and no --build-dir says where a binary is (an installed
 * kit has no sources: its list of harnesses is the one compiled in). */
static int check_harness(struct campaign *c)
{
    /* Other names are accepted when their source or binary exists, with a
     * max_len of 4096. */
    const struct wk_fuzz_harness *known = wk_fuzz_harness_find(c->o.harness);
    c->max_len = c->o.max_len_set ? (unsigned)c->o.max_len : known ? known->max_len : 4096;
    char src[FPATH], rel[300];
    snprintf(rel, sizeof(rel), "harnesses/%s.c", c->o.harness);
    int have_src = c->checkout && wk_path_join(src, sizeof(src), c->repo, rel) && wk_path_is_regular(src);
    if (!c->checkout || have_src || c->o.build_dir)
        return 1;
    fprintf(stderr, "wddmkit fuzz: %s: %s is not in this tree (skipped)\n", c->o.harness, rel);
    if (!known) {
        size_t n;
        const struct wk_fuzz_harness *list = wk_fuzz_harness_table(&n);
        fprintf(stderr, "harnesses:");
        for (size_t i = 0; i < n; i++)
            fprintf(stderr, " %s", list[i].name);
        fprintf(stderr, "\n");
    }
    return 0;
}

/* The driver module: --driver, checked before the builds are asked
 * whether they load it (a missing file is not a module that needs another
 * build), else WK_DRIVER from the environment. */
static int resolve_driver(struct campaign *c)
{
    if (c->o.driver) {
        if (!wk_path_is_regular(c->o.driver) || !realpath(c->o.driver, c->driver)) {
            fprintf(stderr, "wddmkit fuzz: --driver %s: not a readable file\n", c->o.driver);
            return 0;
        }
    } else if (getenv("WK_DRIVER") && *getenv("WK_DRIVER")) {
        wk_str_copy(c->driver, sizeof(c->driver), getenv("WK_DRIVER"));
        printf("note: WK_DRIVER is set in the environment: fuzzing %s\n", c->driver);
    }
    return 1;
}

/*
 * The hardware binding (--binding, fuzz/driver/binding.c): every process
 * of the campaign (the seed check's replays, the engines and their
 * workers, triage) inherits it as WK_BINDING, which the harnesses read
 * once at start. The module is not opened here: it is built like the
 * harness that loads it (ASan, coverage), which this process is not; a
 * binding the kit refuses stops the harness at start with the reason.
 * Without --binding, a WK_BINDING already in the environment is kept.
 */
static int resolve_binding(struct campaign *c)
{
    const char *b = c->o.binding;
    if (b && strcmp(b, "none") == 0)
        wk_str_copy(c->binding, sizeof(c->binding), "none");
    else if (b && (!wk_path_is_regular(b) || !realpath(b, c->binding))) {
        fprintf(stderr, "wddmkit fuzz: --binding %s: not a readable file\n", b);
        return 0;
    } else if (!b && getenv("WK_BINDING") && *getenv("WK_BINDING"))
        wk_str_copy(c->binding, sizeof(c->binding), getenv("WK_BINDING"));
    if (c->binding[0])
        setenv("WK_BINDING", c->binding, 1);
    return 1;
}

static const char *binding_text(const struct campaign *c)
{
    if (strcmp(c->binding, "none") == 0)
        return "none (nothing executes a driver for other hardware's buffers)";
    if (c->binding[0])
        return c->binding;
    return c->driver[0] ? "the driver module's own wk_binding, if it exports one" : "none";
}

/* The harness binary, afl-fuzz and the dictionary; prints them. */
static int find_tools(struct campaign *c)
{
    if (!wk_campaign_locate_binary(c) || !wk_campaign_check_binary_engine(c))
        return 0;
    if (c->o.engine == ENGINE_AFL && !wk_path_find_program("afl-fuzz", c->afl_fuzz, sizeof(c->afl_fuzz))) {
        if (!c->o.dry_run) {
            fprintf(stderr, "wddmkit fuzz: afl-fuzz is not on PATH (Debian: apt-get install afl++)\n");
            return 0;
        }
        wk_str_copy(c->afl_fuzz, sizeof(c->afl_fuzz), "afl-fuzz");
    }
    char dict_rel[300];
    snprintf(dict_rel, sizeof(dict_rel), "harnesses/%s.dict", c->o.harness);
    if (!(c->have_repo && wk_path_join(c->dict, sizeof(c->dict), c->repo, dict_rel) && wk_path_is_regular(c->dict)))
        c->dict[0] = '\0';
    printf("harness: %s (%s)\nbinary:  %s\n", c->o.harness, engine_name(c), c->bin);
    printf("driver:  %s\n", c->driver[0] ? c->driver : "the reference driver (built in)");
    printf("binding: %s\n", binding_text(c));
    printf("dict:    %s\n", c->dict[0] ? c->dict : "(none)");
    return 1;
}

static int run_prune(struct campaign *c)
{
    struct saved_signals saved;
    wk_campaign_catch_signals(&saved, 0);
    int rc = wk_campaign_prune(c);
    wk_campaign_restore_signals(&saved);
    return rc;
}

/* Starts the engines, follows them and summarizes. */
static int run_engines(struct campaign *c)
{
    struct saved_signals saved;
    if (c->o.engine == ENGINE_AFL && !wk_campaign_afl_environment(c))
        return 2;
    if (!c->o.dry_run)
        wk_campaign_catch_signals(&saved, 1);
    c->start = time(NULL);
    c->start_mono = wk_now_seconds();
    int started = wk_campaign_start_engines(c), rc;
    if (c->o.dry_run)
        return started ? 0 : 2;
    if (c->o.time)
        printf("fuzzing for %llu s (Ctrl-C stops early); progress every %d s\n", (unsigned long long)c->o.time,
               PROGRESS_SECONDS);
    else
        printf("fuzzing until %sCtrl-C; progress every %d s\n",
               c->o.engine == ENGINE_LIBFUZZER && c->o.jobs == 1 ? "the first crash or " : "", PROGRESS_SECONDS);
    fflush(stdout);
    if (c->nprocs)
        wk_campaign_monitor(c);
    if (!started) {
        wk_campaign_signal_all(c, SIGKILL);
        while (wk_campaign_reap(c))
            wk_sleep_ms(50);
        rc = 2;
    } else {
        char self[PATH_MAX];
        rc = wk_campaign_summarize(c, realpath("/proc/self/exe", self) ? self : "");
    }
    wk_campaign_restore_signals(&saved);
    return rc;
}

static int run(struct campaign *c)
{
    find_repo(c);
    if (!check_harness(c) || !resolve_driver(c) || !resolve_binding(c) || !find_tools(c))
        return 2;
    if (!c->o.prune)
        wk_campaign_warn_uninstrumented(c);
    if (!wk_campaign_prepare_output(c))
        return 2;
    if (!c->o.prune && (!wk_campaign_pass_over_known(c) || !wk_campaign_count_reach(c)))
        return 2;
    if (c->driver[0])
        setenv("WK_DRIVER", c->driver, 1);
    return c->o.prune ? run_prune(c) : run_engines(c);
}

int wk_campaign_run(const struct wk_campaign_options *o)
{
    struct campaign *c = calloc(1, sizeof(*c));
    if (!c) {
        fprintf(stderr, "wddmkit fuzz: out of memory\n");
        return 2;
    }
    c->o = *o;
    int rc = run(c);
    free(c);
    return rc;
}
