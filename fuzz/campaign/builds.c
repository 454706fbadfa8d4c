/* SPDX-License-Identifier: MIT */
/*
 * builds.c - which harness binary a campaign runs, and the builds around it.
 *
 * A harness is built per CMake preset (build/<preset>/fuzz/<harness>, or
 * --build-dir); against a driver module there are two candidate builds per
 * engine, and the first whose own wddmkit loads the module is taken
 * (build_presets says which and why). When none is usable this file says
 * what to build, or why each build refused the module, in the words of its
 * loader. It also finds the replay binary and the wddmkit beside a harness
 * binary (the same build's), and warns about a driver module the engine
 * cannot see into.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "campaign/internal.h"
#include "util.h"

/* A checkout, or an installed kit's share/wddmkit: corpus/ and harnesses/. */
int wk_campaign_is_repo(const char *dir)
{
    char corpus[FPATH], harnesses[FPATH];
    return wk_path_join(corpus, sizeof(corpus), dir, "corpus") && wk_path_is_dir(corpus) &&
           wk_path_join(harnesses, sizeof(harnesses), dir, "harnesses") && wk_path_is_dir(harnesses);
}

/* The driver module fuzzed (--driver, else WK_DRIVER), or NULL. */
static const char *driver_module(const struct campaign *c)
{
    const char *env = getenv("WK_DRIVER");
    return c->o.driver ? c->o.driver : env && *env ? env : NULL;
}

static int driver_given(const struct campaign *c)
{
    return driver_module(c) != NULL;
}

/* The builds that can serve a campaign, in the order they are tried
 * (build/<preset>/fuzz/<harness>). Against a driver module there are two
 * per engine, the engine's own and its `-driver` preset, which sanitizes
 * the driver and the kit code the driver calls, not the kit's checks
 * (cmake/WkSanitizers.cmake, docs/fuzzing.md):
 *   - libFuzzer: libfuzzer-driver first. Both have ASan and load the same
 *     modules, and an input of fuzz_render, fuzz_paging or fuzz_prog costs
 *     1.85 to 2.35 times less there;
 *   - AFL++: afl first, which has no sanitizer and is the faster; a module
 *     built with sanitizers loads only into afl-driver.
 * A build is taken when its wddmkit loads the module (or has no wddmkit to
 * ask); the first one tried serves the error message otherwise. */
static int build_presets(const struct campaign *c, const char *presets[2])
{
    const char *e = engine_name(c);
    presets[0] = e;
    if (!driver_given(c))
        return 1;
    if (c->o.engine == ENGINE_LIBFUZZER) {
        presets[0] = "libfuzzer-driver";
        presets[1] = e;
    } else {
        presets[1] = "afl-driver";
    }
    return 2;
}

/* The preset whose build-hint a missing binary gets: the engine's, or the
 * libfuzzer-driver one when fuzzing a module with libFuzzer. */
static const char *hinted_preset(const struct campaign *c)
{
    const char *presets[2];
    build_presets(c, presets);
    return presets[0];
}

/* The wddmkit of the build a harness binary belongs to (bin's
 * ../cli/wddmkit), resolved, into out[FPATH]; 0 when that build
 * has none. */
static int build_wddmkit(const char *bin, char out[FPATH])
{
    char path[FPATH];
    wk_str_copy(path, sizeof(path), bin);
    char *slash = strrchr(path, '/');
    if (!slash)
        return 0;
    *slash = '\0';
    size_t n = strlen(path);
    return snprintf(path + n, sizeof(path) - n, "/../cli/wddmkit") < (int)(sizeof(path) - n) &&
           wk_path_is_executable(path) && realpath(path, out);
}

int wk_campaign_same_kit(const char *exe, const char *commit, char *theirs, size_t cap)
{
    static char text[4096];
    const char *argv[] = { exe, "version", NULL };
    snprintf(theirs, cap, "unknown");
    int st = wk_campaign_capture(argv, text, sizeof(text));
    const char *at = st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? strstr(text, "\ncommit ") : NULL;
    if (at)
        snprintf(theirs, cap, "%.*s", (int)strcspn(at + 8, " \n"), at + 8);
    const char *any = getenv("WK_ANY_BUILD");
    return (any && strcmp(any, "1") == 0) || strcmp(theirs, commit) == 0;
}

/* Whether the build of harness binary bin is of this wddmkit's commit (or
 * has no wddmkit to ask, or nothing to compare with); a refusal says why. */
static int build_is_current(const struct campaign *c, const char *bin, char *why, size_t cap)
{
    char exe[FPATH], theirs[64];
    if (!c->o.kit_commit || !build_wddmkit(bin, exe) || wk_campaign_same_kit(exe, c->o.kit_commit, theirs, sizeof(theirs)))
        return 1;
    snprintf(why, cap, "built from commit %.12s, and this wddmkit is %.12s: its harness judges with other code "
                       "(rebuild it; WK_ANY_BUILD=1 takes it as it is)", theirs, c->o.kit_commit);
    return 0;
}

/* What `<build>/cli/wddmkit driver check DRIVER` says, one line:
 * the loader's reason after "does not load into this build: ", else the
 * first line it printed, else its exit status. */
static void check_reason(const char *text, int status, char *why, size_t cap)
{
    static const char marker[] = "does not load into this build: ";
    const char *at = strstr(text, marker);
    at = at ? at + sizeof(marker) - 1 : text + strspn(text, "\n");
    if (*at)
        snprintf(why, cap, "%.*s", (int)strcspn(at, "\n"), at);
    else
        snprintf(why, cap, "`driver check` ended with %s %d", WIFEXITED(status) ? "exit code" : "status",
                 WIFEXITED(status) ? WEXITSTATUS(status) : status);
}

/* Whether the build of the harness binary bin loads the campaign's driver
 * module, asked of that build's wddmkit; 1 when there is no module or no
 * wddmkit to ask. A refusal leaves the loader's reason in why. */
static int build_loads_driver(const struct campaign *c, const char *bin, char *why, size_t cap)
{
    static char text[8192];
    char exe[FPATH];
    const char *driver = driver_module(c);
    if (!driver || !build_wddmkit(bin, exe))
        return 1;
    const char *argv[] = { exe, "driver", "check", driver, NULL };
    int st = wk_campaign_capture(argv, text, sizeof(text));
    if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return 1;
    check_reason(text, st, why, cap);
    return 0;
}

static void print_build_hint(const struct campaign *c)
{
    const char *e = hinted_preset(c);
    const char *h = c->o.harness;
    if (!c->o.build_dir && !c->checkout && c->builds[0]) {
        /* An installed kit: its builds are what its packager installed. */
        fprintf(stderr,
                "this installed kit has no %s build (%s/%s/): the package was made without it. A packager\n"
                "adds it by building the kit's %s preset and installing that build into the same prefix\n"
                "(docs/install.md, \"Instrumented builds\"); or build the kit from source and run that\n"
                "wddmkit, or give --build-dir.\n",
                e, c->builds, e, e);
        return;
    }
    fprintf(stderr, "build it with:\n");
    if (!c->o.build_dir) {
        if (c->checkout)
            fprintf(stderr, "  cd %s\n", c->repo);
        fprintf(stderr, "  cmake --preset %s && cmake --build --preset %s --target %s\n", e, e, h);
    } else if (c->o.engine == ENGINE_LIBFUZZER) {
        fprintf(stderr,
                "  cmake -S %s -B %s -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \\\n"
                "        -DCMAKE_CXX_COMPILER=clang++ -DWK_SANITIZE=address,undefined -DWK_FUZZ_ENGINE=libfuzzer \\\n"
                "        -DWK_BUILD_BENCH=OFF\n"
                "  cmake --build %s --target %s\n",
                c->checkout ? c->repo : "<repo>", c->o.build_dir, c->o.build_dir, h);
    } else {
        fprintf(stderr,
                "  cmake -S %s -B %s -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=afl-clang-fast \\\n"
                "        -DCMAKE_CXX_COMPILER=afl-clang-fast++ -DWK_FUZZ_ENGINE=afl -DWK_BUILD_BENCH=OFF\n"
                "  cmake --build %s --target %s\n",
                c->checkout ? c->repo : "<repo>", c->o.build_dir, c->o.build_dir, h);
    }
    if (c->o.engine == ENGINE_AFL)
        fprintf(stderr, "(AFL++ is Debian's afl++ package: afl-clang-fast and afl-fuzz)\n");
}

/* The binaries a campaign may use, in the order tried (build_presets),
 * and what each build's loader said of the driver module. */
#define MAX_CANDIDATES 6
struct candidate {
    char path[FPATH];
    const char *preset;          /* NULL: --build-dir */
    int tried, refused;          /* executable; its build does not load the module */
    char why[512];               /* the loader's reason, when refused */
};

struct candidates {
    struct candidate k[MAX_CANDIDATES];
    int n;
};

static void add_candidate(struct candidates *cs, const char *dir, const char *rel, const char *preset)
{
    struct candidate *k = &cs->k[cs->n];
    if (cs->n < MAX_CANDIDATES && wk_path_join(k->path, sizeof(k->path), dir, rel)) {
        k->preset = preset;
        cs->n++;
    }
}

static void list_candidates(const struct campaign *c, struct candidates *cs)
{
    const char *h = c->o.harness;
    char rel[256];
    memset(cs, 0, sizeof(*cs));
    snprintf(rel, sizeof(rel), "fuzz/%s", h);
    if (c->o.build_dir) {
        add_candidate(cs, c->o.build_dir, rel, NULL);
        add_candidate(cs, c->o.build_dir, h, NULL);
        return;
    }
    const char *presets[2];
    int count = build_presets(c, presets);
    for (int p = 0; p < count; p++) {
        char sub[300];
        snprintf(sub, sizeof(sub), "%s/fuzz/%s", presets[p], h);
        if (c->builds[0])
            add_candidate(cs, c->builds, sub, presets[p]);
        snprintf(sub, sizeof(sub), "build/%s/fuzz/%s", presets[p], h);
        add_candidate(cs, ".", sub, presets[p]);
    }
}

/* Whether candidate i is a binary an earlier one already is (the working
 * directory is the repository). */
static int seen_before(const struct candidates *cs, int i)
{
    char a[PATH_MAX], b[PATH_MAX];
    if (!realpath(cs->k[i].path, a))
        return 0;
    for (int j = 0; j < i; j++)
        if (cs->k[j].tried && realpath(cs->k[j].path, b) && strcmp(a, b) == 0)
            return 1;
    return 0;
}

/* Whether some build of `preset` was found (built here). */
static int preset_built(const struct candidates *cs, const char *preset)
{
    for (int i = 0; i < cs->n; i++)
        if (cs->k[i].tried && cs->k[i].preset && strcmp(cs->k[i].preset, preset) == 0)
            return 1;
    return 0;
}

/* What a refusal means, for the kinds of module the docs build: the
 * runtime symbol it lacks says which build it was made for. */
static const char *refusal_meaning(const struct campaign *c, const char *why)
{
    int afl = c->o.engine == ENGINE_AFL;
    if (!afl && strstr(why, "undefined symbol: __afl"))
        return "a module built by afl-clang-fast, for AFL++: fuzz it with --engine afl, or build it for libFuzzer "
               "(docs/fuzz-your-driver.md, \"Build your driver for the engine\")";
    if (afl && (strstr(why, "undefined symbol: __sanitizer_cov") || strstr(why, "undefined symbol: __sancov")))
        return "a module built with -fsanitize=fuzzer-no-link, for libFuzzer: fuzz it with --engine libfuzzer, or "
               "build it with afl-clang-fast";
    if (afl && (strstr(why, "undefined symbol: __asan") || strstr(why, "undefined symbol: __ubsan")))
        return "a module built with -fsanitize=address,undefined needs the afl-driver preset";
    return NULL;
}

/* No build loads the module: each build tried and its loader's reason,
 * and a preset to build only when it is not built here. Before, one line
 * blamed sanitizers and asked for the -driver preset whatever the loader
 * said, even when that preset was built and refused the module too. */
static void explain_refusals(const struct campaign *c, const struct candidates *cs)
{
    const char *e = engine_name(c);
    char exe[FPATH];
    int runtime = 0;
    if (driver_given(c))
        fprintf(stderr, "wddmkit fuzz: no %s build here loads the driver module %s:\n", e, driver_module(c));
    else
        fprintf(stderr, "wddmkit fuzz: no %s build here can run the campaign:\n", e);
    for (int i = 0; i < cs->n; i++) {
        const struct candidate *k = &cs->k[i];
        if (!k->refused)
            continue;
        const char *meaning = refusal_meaning(c, k->why);
        runtime |= meaning && strstr(meaning, "-driver preset") != NULL;
        if (!build_wddmkit(k->path, exe))
            wk_str_copy(exe, sizeof(exe), k->path);
        char *tail = strstr(exe, "/cli/wddmkit"); /* the build folder */
        if (tail)
            *tail = '\0';
        fprintf(stderr, "  %s: %s%s%s%s\n", exe, k->why, meaning ? " (" : "", meaning ? meaning : "",
                meaning ? ")" : "");
    }
    char driver_preset[32];
    snprintf(driver_preset, sizeof(driver_preset), "%s-driver", e);
    if (runtime && !preset_built(cs, driver_preset))
        fprintf(stderr, "the %s preset is not built here:\n  cmake --preset %s && cmake --build --preset %s --target %s\n",
                driver_preset, driver_preset, driver_preset, c->o.harness);
}

/* A note when the build taken is not the preferred one, and why. */
static void note_build_taken(const struct campaign *c, const struct candidate *k, int refused_before)
{
    if (!refused_before && k->preset && strcmp(k->preset, "libfuzzer") == 0 && driver_given(c))
        printf("note: a libfuzzer-driver build runs inputs up to twice as fast against a driver module\n"
               "      (ASan + UBSan on the driver and the kit code it calls, not on the kit's checks):\n"
               "      cmake --preset libfuzzer-driver && cmake --build --preset libfuzzer-driver --target %s\n",
               c->o.harness);
    if (refused_before && k->preset && strcmp(k->preset, "afl-driver") == 0)
        printf("note: the afl build cannot load the driver module (built with sanitizers?): the afl-driver\n"
               "      build runs it, with ASan + UBSan on the driver and the kit code it calls\n");
}

static void print_not_built(const struct campaign *c, const struct candidates *cs)
{
    const char *e = engine_name(c), *h = c->o.harness;
    fprintf(stderr, "wddmkit fuzz: no %s build of %s (looked for %s", e, h, cs->n ? cs->k[0].path : h);
    for (int i = 1; i < cs->n; i++)
        fprintf(stderr, ", %s", cs->k[i].path);
    fprintf(stderr, ")\n");
    char replay[FPATH];
    if (cs->n && snprintf(replay, sizeof(replay), "%s_replay", cs->k[0].path) < (int)sizeof(replay) &&
        wk_path_is_executable(replay))
        fprintf(stderr, "(%s exists: that build was configured without WK_FUZZ_ENGINE=%s)\n", replay, e);
    print_build_hint(c);
}

/* Fills c->bin; 0 (with a message) when there is no usable binary. */
int wk_campaign_locate_binary(struct campaign *c)
{
    static struct candidates cs;
    list_candidates(c, &cs);
    int refused = 0;
    for (int i = 0; i < cs.n; i++) {
        struct candidate *k = &cs.k[i];
        if (!wk_path_is_executable(k->path) || seen_before(&cs, i))
            continue;
        k->tried = 1;
        if (!c->o.build_dir && (!build_is_current(c, k->path, k->why, sizeof(k->why)) ||
                                !build_loads_driver(c, k->path, k->why, sizeof(k->why)))) {
            k->refused = 1;
            refused = 1;
            continue;
        }
        if (!realpath(k->path, c->bin)) {
            fprintf(stderr, "wddmkit fuzz: %s: %s\n", k->path, strerror(errno));
            return 0;
        }
        note_build_taken(c, k, refused);
        return 1;
    }
    if (refused) {
        explain_refusals(c, &cs);
        return 0;
    }
    if (c->o.dry_run) {
        wk_str_copy(c->bin, sizeof(c->bin), cs.n ? cs.k[0].path : c->o.harness);
        printf("note: %s is not built yet\n", c->bin);
        return 1;
    }
    print_not_built(c, &cs);
    return 0;
}

/* Refuses an AFL++ binary for libFuzzer and the other way round. */
int wk_campaign_check_binary_engine(const struct campaign *c)
{
    if (c->o.dry_run)
        return 1;
    /* AFL++'s runtime names its shared-memory variable; the needle is put
     * together at run time, or every binary that links this file (fuzz_cli)
     * would contain it too. */
    char needle[32];
    snprintf(needle, sizeof(needle), "%s%s", "__AFL_", "SHM_ID");
    int afl = wk_file_find(c->bin, needle, NULL, 0);
    if (c->o.engine == ENGINE_LIBFUZZER && afl) {
        fprintf(stderr, "wddmkit fuzz: %s is an AFL++ build; use --engine afl or a libfuzzer build\n", c->bin);
        return 0;
    }
    if (c->o.engine == ENGINE_AFL && !afl) {
        fprintf(stderr, "wddmkit fuzz: %s was not built with afl-clang-fast; use --engine libfuzzer or an afl build\n",
                c->bin);
        print_build_hint(c);
        return 0;
    }
    return 1;
}


/* The engine build's replay binary (beside the engine binary). */
int wk_campaign_replay_binary(const struct campaign *c, char *out, size_t cap)
{
    char dir[FPATH];
    wk_str_copy(dir, sizeof(dir), c->bin);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return 0;
    *slash = '\0';
    return snprintf(out, cap, "%s/%s_replay", dir, c->o.harness) < (int)cap && wk_path_is_executable(out);
}

/* The wddmkit that triages and reproduces the campaign's crashes: the
 * engine's build's own (<build>/cli/wddmkit beside <build>/fuzz/),
 * which loads a driver built like the harness (sanitizers, coverage) and
 * runs a program under the same sanitizers as the engine did; else this
 * one. */
void wk_campaign_tools_binary(const struct campaign *c, const char *self, char *out, size_t cap)
{
    char exe[FPATH];
    wk_str_copy(out, cap, build_wddmkit(c->bin, exe) ? exe : self);
}

/* A driver module without the engine's instrumentation: its edges are not
 * in the engine's map, so the campaign cannot see into the driver, only
 * into the kit around it. The libFuzzer harness said so only in
 * logs/fuzz-0.log, and AFL++ not at all (one such campaign ran at 363 of
 * 5,218 edges, none of them the driver's). The module's file names the
 * hooks its instrumentation calls: __sanitizer_cov_8bit_counters_init
 * (clang -fsanitize=fuzzer-no-link), __afl_area_ptr or
 * __sanitizer_cov_trace_pc_guard (afl-clang-fast). */
void wk_campaign_warn_uninstrumented(const struct campaign *c)
{
    if (!c->driver[0])
        return;
    int afl = c->o.engine == ENGINE_AFL;
    int seen = afl ? wk_file_find(c->driver, "__afl_area_ptr", NULL, 0) || wk_file_find(c->driver, "__sanitizer_cov_trace_pc_guard", NULL, 0)
                   : wk_file_find(c->driver, "__sanitizer_cov_8bit_counters_init", NULL, 0) ||
                         wk_file_find(c->driver, "__sanitizer_cov_trace_pc_guard", NULL, 0);
    if (seen)
        return;
    printf("warning: %s has no %s instrumentation of its own: the engine sees the kit's code, not the driver's\n"
           "         branches; build it %s (docs/fuzz-your-driver.md, \"Build your driver for the engine\")\n",
           c->driver, afl ? "AFL++" : "libFuzzer coverage",
           afl ? "with afl-clang-fast" : "with clang -fsanitize=address,undefined,fuzzer-no-link");
}
