/* SPDX-License-Identifier: MIT */
/*
 * triage.c - `wddmkit triage`: every file of a folder run once, as repro
 * would run it, grouped by class and signature, largest group first, with
 * the smallest file of each.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "crash/crash_internal.h"

#define TRIAGE_MAX_FILES 100000u


static int input_name(const char *name)
{
    size_t n = strlen(name);
    return name[0] != '.' && strncmp(name, "README", 6) != 0 && !(n >= 3 && strcmp(name + n - 3, ".md") == 0);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The input files of a folder, sorted; NULL after printing why. */
static char **list_inputs(const char *dir, size_t *count)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "wddmkit: %s: %s\n", dir, strerror(errno));
        return NULL;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d)) && n < TRIAGE_MAX_FILES;) {
        char path[4096];
        struct stat st;
        if (!input_name(e->d_name) || snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= (int)sizeof(path) ||
            stat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **grown = realloc(names, cap * sizeof(*names));
            if (!grown)
                break;
            names = grown;
        }
        if (!(names[n] = strdup(path)))
            break;
        n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof(*names), by_name);
    *count = n;
    return names ? names : calloc(1, sizeof(char *));
}

static void add_to_group(struct triage_group **groups, size_t *ngroups, const struct outcome *o, const char *path,
                         size_t size)
{
    size_t i = 0;
    while (i < *ngroups && !((*groups)[i].cls == o->cls && strcmp((*groups)[i].sig, o->sig) == 0))
        i++;
    if (i == *ngroups) {
        struct triage_group *grown = realloc(*groups, (*ngroups + 1) * sizeof(**groups));
        if (!grown)
            return;
        *groups = grown;
        memset(&grown[i], 0, sizeof(grown[i]));
        grown[i].cls = o->cls;
        snprintf(grown[i].sig, sizeof(grown[i].sig), "%s", o->sig);
        grown[i].first = *o;
        (*ngroups)++;
    }
    struct triage_group *g = &(*groups)[i];
    g->count++;
    if (!g->smallest || size < g->smallest_size) {
        free(g->smallest);
        g->smallest = strdup(path);
        g->smallest_size = size;
    }
}

static int by_count(const void *a, const void *b)
{
    const struct triage_group *x = a, *y = b;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    return strcmp(x->sig, y->sig);
}

/* One file, as repro would run it once. */
static void triage_one(const struct wk_crash_options *o, const char *path, struct outcome *out, size_t *size)
{
    const char *harness = wk_crash_harness_of(o, path);
    struct stat st;
    *size = stat(path, &st) == 0 ? (size_t)st.st_size : 0;
    if (!wk_crash_is_prog(harness) || wk_crash_judged_by_harness(o, harness)) {
        wk_crash_run_replay(harness, path, o->driver, o->timeout_ms, out);
        return;
    }
    size_t bytes = 0;
    struct wk_prog *p = wk_crash_prepare(o, path, 1, &bytes);
    if (!p) {
        memset(out, 0, sizeof(*out));
        out->cls = CLS_ERROR;
        snprintf(out->sig, sizeof(out->sig), "unreadable");
        return;
    }
    wk_crash_run_program(p, o->driver, o, out);
    wk_crash_prog_del(p);
}

int wk_crash_triage(const struct wk_crash_options *op)
{
    struct wk_crash_options o = *op;
    size_t n = 0, ngroups = 0;
    char **files = list_inputs(o.path, &n);
    if (!files)
        return 2;
    struct triage_group *groups = NULL;
    static struct outcome out;
    uint32_t unrun = 0; /* files the setup could not run (no replay binary, a driver that does not load) */
    for (size_t i = 0; i < n; i++) {
        size_t size = 0;
        triage_one(&o, files[i], &out, &size);
        add_to_group(&groups, &ngroups, &out, files[i], size);
        unrun += out.cls == CLS_ERROR && !out.input_refused;
        free(files[i]);
    }
    free(files);
    if (ngroups)
        qsort(groups, ngroups, sizeof(*groups), by_count);
    printf("triage: %s: %zu files, %zu signatures (driver: %s)\n", o.path, n, ngroups,
           o.driver ? o.driver : "the reference driver");
    uint32_t passed = 0;
    for (size_t i = 0; i < ngroups; i++) {
        printf("%6u  %-7s %s  [smallest: %s, %zu bytes]\n", groups[i].count, wk_crash_cls_word[groups[i].cls], groups[i].sig,
               groups[i].smallest ? groups[i].smallest : "?", groups[i].smallest_size);
        passed += groups[i].cls == CLS_PASS ? groups[i].count : 0;
    }
    if (passed)
        printf("note: %u file(s) ran without a finding here, as a corpus's or regressions' files should. Saved "
               "crashes that pass on replay are flaky (state the replay does not rebuild), or the replay binaries "
               "differ from the engine's "
               "build: other sanitizers (a UBSan or ASan report needs the sanitized build: WK_REPLAY_DIR=build/"
               "libfuzzer/fuzz or build/asan/fuzz) or an older build of the harness.\n", passed);
    int sarif_failed = o.sarif && wk_crash_triage_sarif(&o, wk_crash_harness_of(&o, o.path), groups, ngroups) != 0;
    for (size_t i = 0; i < ngroups; i++)
        free(groups[i].smallest);
    free(groups);
    /* A folder whose files could not be run is not triaged: exit 0 said
     * it was (a missing replay binary, a driver that does not load). An
     * input the kit refuses for itself (an adapter the GPU model does not
     * take) did run: that is its result. */
    if (unrun)
        fprintf(stderr, "wddmkit triage: %u file(s) could not be run (the \"error\" rows above say why)\n", unrun);
    return unrun || sarif_failed ? 2 : 0;
}
