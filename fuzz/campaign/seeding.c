/* SPDX-License-Identifier: MIT */
/*
 * seeding.c - the output folder of a campaign and its starting inputs.
 *
 * corpus/ gets the repository's corpus/<harness>/{seeds,regressions} and
 * each --seeds folder (copied with a prefix per source, never overwriting:
 * an input the engine found keeps its name), crashes/ and logs/ are made,
 * the previous run's logs removed, and campaign.txt records what ran (what
 * `wddmkit triage` of crashes/ reads). With a driver module the starting
 * inputs that already crash it are then left out (seed_check.c).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "campaign/internal.h"
#include "util.h"

#define PRUNE_HINT_INPUTS 5000u /* a corpus this large gets the --prune hint */

/* Folders of inputs may hold notes beside them (replay_main.c's rule). */
int wk_campaign_is_input_name(const char *name)
{
    size_t n = strlen(name);
    if (name[0] == '.' || strncmp(name, "README", 6) == 0)
        return 0;
    return !(n >= 3 && strcmp(name + n - 3, ".md") == 0);
}

int wk_campaign_is_finding_name(const char *name)
{
    return wk_campaign_is_input_name(name) && strncmp(name, "slow-unit-", 10) != 0;
}

/* A finding an engine wrote, not a starting input the seed check kept
 * (seed_check.c, seed-NAME): what "new crashes" count. */
int wk_campaign_is_engine_finding_name(const char *name)
{
    return wk_campaign_is_finding_name(name) && strncmp(name, "seed-", 5) != 0;
}


/* Copies the inputs of src into dst (names prefixed), never overwriting.
 * Returns how many were copied; -1 on a write error. */
long wk_campaign_copy_inputs(const char *src, const char *dst, const char *prefix)
{
    DIR *d = opendir(src);
    if (!d)
        return 0;
    long copied = 0;
    for (struct dirent *e; (e = readdir(d));) {
        char from[FPATH], to[FPATH], name[512];
        if (!wk_campaign_is_input_name(e->d_name) || snprintf(name, sizeof(name), "%s%s", prefix, e->d_name) >= (int)sizeof(name))
            continue;
        if (!wk_path_join(from, sizeof(from), src, e->d_name) || !wk_path_join(to, sizeof(to), dst, name))
            continue;
        int r = wk_file_copy_new(from, to, SEED_LIMIT);
        if (r < 0) {
            closedir(d);
            return -1;
        }
        copied += r;
    }
    closedir(d);
    return copied;
}

/* Where a --seeds folder's inputs for this harness are: DIR/NAME/seeds of a
 * corpus folder (`wddmkit corpus seed --out DIR`), else DIR itself. */
static void user_seed_dir(const struct campaign *c, const char *dir, char *out, size_t size)
{
    char sub[300];
    snprintf(sub, sizeof(sub), "%s/seeds", c->o.harness);
    if (!wk_path_join(out, size, dir, sub) || !wk_path_is_dir(out))
        snprintf(out, size, "%s", dir);
}

/* Counts the input files of a folder (names is_finding_name accepts);
 * with `since`, only those modified at or after it. */
uint64_t wk_campaign_count_files(const char *dir, time_t since)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    uint64_t n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        char p[FPATH];
        struct stat st;
        if (!(since ? wk_campaign_is_engine_finding_name(e->d_name) : wk_campaign_is_finding_name(e->d_name)) ||
            !wk_path_join(p, sizeof(p), dir, e->d_name))
            continue;
        if (e->d_type == DT_REG && !since) {
            n++;
            continue;
        }
        if (stat(p, &st) == 0 && S_ISREG(st.st_mode) && (!since || st.st_mtime >= since))
            n++;
    }
    closedir(d);
    return n;
}

/* Removes the previous run's engine logs (names we write, nothing else). */
static void clear_old_logs(const char *logs)
{
    DIR *d = opendir(logs);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        const char *n = e->d_name;
        size_t len = strlen(n);
        int ours = len > 4 && strcmp(n + len - 4, ".log") == 0 &&
                   (strncmp(n, "fuzz-", 5) == 0 || strncmp(n, "afl-", 4) == 0 || strcmp(n, "libfuzzer-main.log") == 0);
        char p[FPATH];
        if (ours && wk_path_join(p, sizeof(p), logs, n))
            unlink(p);
    }
    closedir(d);
}

static int seed_sources(const struct campaign *c, struct seed_source *src)
{
    int n = 0;
    char sub[300];
    static const char *const repo_dirs[][2] = { { "seeds", "" }, { "regressions", "regression-" } };
    for (int i = 0; c->have_repo && i < 2; i++) {
        snprintf(sub, sizeof(sub), "corpus/%s/%s", c->o.harness, repo_dirs[i][0]);
        if (!wk_path_join(src[n].dir, sizeof(src[n].dir), c->repo, sub))
            src[n].dir[0] = '\0'; /* too long: no inputs from it */
        snprintf(src[n].prefix, sizeof(src[n].prefix), "%s", repo_dirs[i][1]);
        n++; /* an index per source, the repository's two first (prepare_output counts them so) */
    }
    for (int i = 0; i < c->o.seed_dir_count; i++) {
        user_seed_dir(c, c->o.seed_dirs[i], src[n].dir, sizeof(src[n].dir));
        snprintf(src[n].prefix, sizeof(src[n].prefix), "s%d-", i + 1);
        n++;
    }
    return n;
}

/* Copies every source into corpus/ (never overwriting); copied[i] how many
 * of source i. 0 after a write error. */
static int fill_corpus(const struct campaign *c, const struct seed_source *src, int n, long *copied)
{
    for (int i = 0; i < n; i++) {
        copied[i] = wk_campaign_copy_inputs(src[i].dir, c->corpus, src[i].prefix);
        if (copied[i] < 0) {
            fprintf(stderr, "wddmkit fuzz: cannot fill %s: %s\n", c->corpus, strerror(errno));
            return 0;
        }
    }
    return 1;
}

/* afl-fuzz needs one input to start from. */
static int ensure_afl_input(const struct campaign *c, uint64_t *have)
{
    char p[FPATH];
    if (*have || c->o.engine != ENGINE_AFL)
        return 1;
    int fd = wk_path_join(p, sizeof(p), c->corpus, "empty-seed") ? open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644) : -1;
    if (fd < 0 || write(fd, "", 1) != 1) {
        fprintf(stderr, "wddmkit fuzz: cannot write a starting input into %s\n", c->corpus);
        if (fd >= 0)
            close(fd);
        return 0;
    }
    close(fd);
    *have = 1;
    return 1;
}

/* campaign.txt in the output folder: what this campaign ran, so that a
 * later `wddmkit triage DIR/crashes` without --driver knows which driver
 * the crash files crash (it replayed them on the reference driver, called
 * them all a pass, and blamed flakiness). The last campaign's; one
 * "key: value" per line. */
static void write_campaign_file(const struct campaign *c)
{
    char path[FPATH];
    FILE *f = wk_path_join(path, sizeof(path), c->out, "campaign.txt") ? fopen(path, "w") : NULL;
    if (!f) {
        fprintf(stderr, "wddmkit fuzz: note: cannot write %s/campaign.txt: %s\n", c->out, strerror(errno));
        return;
    }
    fprintf(f, "# wddmkit fuzz: the last campaign of this folder (wddmkit triage reads it)\n");
    fprintf(f, "harness: %s\nengine: %s\nbinary: %s\n", c->o.harness, engine_name(c), c->bin);
    char real[PATH_MAX];
    if (c->driver[0]) /* absolute: triage may run from anywhere */
        fprintf(f, "driver: %s\n", realpath(c->driver, real) ? real : c->driver);
    if (c->binding[0]) /* WK_BINDING: a path or "none" */
        fprintf(f, "binding: %s\n", c->binding);
    if (fclose(f) != 0)
        fprintf(stderr, "wddmkit fuzz: note: cannot write %s: %s\n", path, strerror(errno));
}

static int make_output_dirs(struct campaign *c)
{
    char want[FPATH];
    int fits = c->o.out ? wk_str_copy(want, sizeof(want), c->o.out)
                        : snprintf(want, sizeof(want), "fuzz-out/%s-%s", c->o.harness, engine_name(c)) <
                              (int)sizeof(want);
    if (!fits)
        goto too_long;
    if (c->o.dry_run) {
        wk_str_copy(c->out, sizeof(c->out), want);
    } else if (wk_path_mkdir_p(want) != 0 || !realpath(want, c->out)) {
        fprintf(stderr, "wddmkit fuzz: cannot create %s: %s\n", want, strerror(errno));
        return 0;
    }
    if (!wk_path_join(c->corpus, FPATH, c->out, "corpus") || !wk_path_join(c->crashes, FPATH, c->out, "crashes") ||
        !wk_path_join(c->logs, FPATH, c->out, "logs") || !wk_path_join(c->afl_out, FPATH, c->out, "afl"))
        goto too_long;
    const char *dirs[] = { c->corpus, c->crashes, c->logs };
    for (size_t i = 0; i < 3 && !c->o.dry_run; i++) {
        if (wk_path_mkdir_p(dirs[i]) != 0) {
            fprintf(stderr, "wddmkit fuzz: cannot create %s: %s\n", dirs[i], strerror(errno));
            return 0;
        }
    }
    return 1;
too_long:
    fprintf(stderr, "wddmkit fuzz: output path too long\n");
    return 0;
}

int wk_campaign_prepare_output(struct campaign *c)
{
    if (!make_output_dirs(c))
        return 0;
    if (c->o.dry_run && c->driver[0] && !c->o.keep_seeds && !c->o.prune)
        printf("would first replay the starting inputs against the driver and leave out those that crash it%s\n",
               c->o.stop_on_known ? "" : ", passing over their signatures");
    if (c->o.dry_run)
        return 1;
    clear_old_logs(c->logs);
    if (!c->o.prune)
        write_campaign_file(c);
    static struct seed_source src[MAX_SOURCES];
    long copied[MAX_SOURCES] = { 0 };
    int nsrc = seed_sources(c, src);
    if (!fill_corpus(c, src, nsrc, copied))
        return 0;
    wk_campaign_leave_out_crashing(c, src, nsrc);
    uint64_t have = wk_campaign_count_files(c->corpus, 0);
    if (!ensure_afl_input(c, &have))
        return 0;
    long repo_seeds = c->have_repo ? copied[0] : 0, repo_regressions = c->have_repo ? copied[1] : 0, own = 0;
    for (int i = c->have_repo ? 2 : 0; i < nsrc; i++)
        own += copied[i];
    printf("corpus:  %s (%llu input%s; %ld seeds and %ld regressions added now", c->corpus,
           (unsigned long long)have, have == 1 ? "" : "s", repo_seeds, repo_regressions);
    if (c->o.seed_dir_count)
        printf(", %ld from --seeds", own);
    printf(")\n");
    /* libFuzzer runs every corpus input once before it mutates: 23,000
     * fuzz_prog inputs took 41 s, pruned to 1,743 (same coverage) 6.8 s. */
    if (have > PRUNE_HINT_INPUTS && c->o.engine == ENGINE_LIBFUZZER && !c->o.prune)
        printf("note: the engine first runs every one of these inputs; `wddmkit fuzz --harness %s --prune%s%s` keeps "
               "only those that add coverage\n",
               c->o.harness, c->o.out ? " --out " : "", c->o.out ? c->o.out : "");
    return 1;
}
