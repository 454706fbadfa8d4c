/* SPDX-License-Identifier: MIT */
/*
 * prune.c - `wddmkit fuzz --prune`: a campaign's corpus merged down to the
 * inputs that keep its coverage.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "campaign/internal.h"
#include "util.h"

/* A campaign's corpus only grows (libFuzzer adds every input with a new
 * feature, AFL++ every queue entry, and each run adds the seeds again):
 * after a few long runs the engine spends its first minutes running
 * inputs that add nothing. libFuzzer's -merge=1 NEW OLD keeps, in NEW, the
 * inputs that cover what OLD covers, and survives inputs that crash or
 * hang (they are left out); so does afl-cmin. */
static void build_merge(const struct campaign *c, const char *into, struct cmdline *cl)
{
    const struct wk_campaign_options *o = &c->o;
    wk_campaign_arg(cl, "%s", c->bin);
    wk_campaign_arg(cl, "-merge=1");
    wk_campaign_arg(cl, "-artifact_prefix=%s/", c->crashes);
    wk_campaign_arg(cl, "-max_len=%u", c->max_len);
    wk_campaign_arg(cl, "-timeout=%llu", (unsigned long long)o->timeout);
    wk_campaign_arg(cl, "-rss_limit_mb=%llu", (unsigned long long)o->rss_limit);
    if (strcmp(o->harness, "fuzz_hostile") == 0 && !wk_campaign_extra_has(o, "-detect_leaks="))
        wk_campaign_arg(cl, "-detect_leaks=0");
    for (int i = 0; i < o->extra_count; i++)
        wk_campaign_arg(cl, "%s", o->extra[i]);
    wk_campaign_arg(cl, "%s", into);
    wk_campaign_arg(cl, "%s", c->corpus);
}

/* afl-cmin -i FROM -o INTO -t MS -m none -- BIN (the harness reads its
 * input from AFL++'s shared memory, as afl-showmap hands it). */
static void build_cmin(const struct campaign *c, const char *cmin, const char *from, const char *into,
                       struct cmdline *cl)
{
    wk_campaign_arg(cl, "%s", cmin);
    wk_campaign_arg(cl, "-i");
    wk_campaign_arg(cl, "%s", from);
    wk_campaign_arg(cl, "-o");
    wk_campaign_arg(cl, "%s", into);
    wk_campaign_arg(cl, "-t");
    wk_campaign_arg(cl, "%llu", (unsigned long long)c->o.timeout * 1000);
    wk_campaign_arg(cl, "-m");
    wk_campaign_arg(cl, "none");
    for (int i = 0; i < c->o.extra_count; i++)
        wk_campaign_arg(cl, "%s", c->o.extra[i]);
    wk_campaign_arg(cl, "--");
    wk_campaign_arg(cl, "%s", c->bin);
}

/* Removes the regular files of dir (a corpus: flat) and dir itself; 0 when
 * dir is gone or never was. */
static int remove_flat_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return errno == ENOENT ? 0 : -1;
    for (struct dirent *e; (e = readdir(d));) {
        char p[FPATH];
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 && wk_path_join(p, sizeof(p), dir, e->d_name))
            unlink(p);
    }
    closedir(d);
    return rmdir(dir);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* Removes a tree wddmkit fuzz made (an earlier afl.before-prune/). */
static int remove_tree(const char *dir)
{
    struct stat st;
    if (lstat(dir, &st) != 0)
        return errno == ENOENT ? 0 : -1;
    return nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* AFL++: corpus/ and every instance's queue, in one folder for afl-cmin. */
static long gather_afl_inputs(const struct campaign *c, const char *into)
{
    long n = wk_campaign_copy_inputs(c->corpus, into, "corpus-");
    DIR *d = opendir(c->afl_out);
    for (struct dirent *e; n >= 0 && d && (e = readdir(d));) {
        char q[FPATH], prefix[64];
        if (e->d_name[0] == '.' || !wk_campaign_name_ok(e->d_name) ||
            snprintf(q, sizeof(q), "%s/%s/queue", c->afl_out, e->d_name) >= (int)sizeof(q))
            continue;
        snprintf(prefix, sizeof(prefix), "%.40s-", e->d_name);
        if (wk_path_is_dir(q)) {
            long k = wk_campaign_copy_inputs(q, into, prefix);
            n = k < 0 ? -1 : n + k;
        }
    }
    if (d)
        closedir(d);
    return n;
}

/* Runs the merge command and waits; Ctrl-C stops it (twice: SIGKILL). */
static int run_merge(struct campaign *c, struct cmdline *cl)
{
    wk_campaign_print_command(stdout, "running: ", cl->argv);
    fflush(stdout);
    if (!wk_campaign_spawn(c, cl, NULL, "merge", "merge.log"))
        return 0;
    while (wk_campaign_reap(c)) {
        if (wk_campaign_interrupts()) {
            c->interrupted = 1;
            wk_campaign_signal_all(c, wk_campaign_interrupts() > 1 ? SIGKILL : SIGINT);
        }
        wk_sleep_ms(100);
    }
    return 1;
}

/* After an AFL++ prune the next campaign must start from the new corpus,
 * not resume the old queues (AFL_AUTORESUME): afl/ is set aside. */
static void retire_afl_state(const struct campaign *c)
{
    char aside[FPATH];
    if (!wk_path_is_dir(c->afl_out) || !wk_path_join(aside, sizeof(aside), c->out, "afl.before-prune"))
        return;
    if (remove_tree(aside) != 0 || rename(c->afl_out, aside) != 0) {
        fprintf(stderr, "wddmkit fuzz: cannot set %s aside (%s): the next AFL++ run resumes its queues instead of "
                        "starting from the pruned corpus\n", c->afl_out, strerror(errno));
        return;
    }
    printf("note: AFL++'s state is in %s now (the next campaign starts from the pruned corpus); delete it when "
           "you no longer need it\n", aside);
}

int wk_campaign_prune(struct campaign *c)
{
    int afl = c->o.engine == ENGINE_AFL;
    char into[FPATH], old[FPATH], gather[FPATH], cmin[FPATH] = "afl-cmin";
    static struct cmdline cl;
    memset(&cl, 0, sizeof(cl));
    if (!wk_path_join(into, sizeof(into), c->out, "corpus.pruning") || !wk_path_join(old, sizeof(old), c->out, "corpus.old") ||
        !wk_path_join(gather, sizeof(gather), c->out, "corpus.gathered"))
        return 2;
    if (afl && !wk_path_find_program("afl-cmin", cmin, sizeof(cmin)) && !c->o.dry_run) {
        fprintf(stderr, "wddmkit fuzz: afl-cmin is not on PATH (Debian: apt-get install afl++)\n");
        return 2;
    }
    if (afl)
        build_cmin(c, cmin, gather, into, &cl);
    else
        build_merge(c, into, &cl);
    if (cl.overflow) {
        fprintf(stderr, "wddmkit fuzz: the merge command line is too long\n");
        return 2;
    }
    if (c->o.dry_run) {
        wk_campaign_print_command(stdout, "would run: ", cl.argv);
        return 0;
    }
    /* What an interrupted prune left: its output, the gathered inputs, or
     * the old corpus after the first rename (corpus/ is the new one). */
    if (remove_flat_dir(into) != 0 || remove_flat_dir(old) != 0 || remove_flat_dir(gather) != 0 ||
        (!afl && mkdir(into, 0755) != 0) || (afl && mkdir(gather, 0755) != 0)) {
        fprintf(stderr, "wddmkit fuzz: cannot prepare %s: %s\n", afl ? gather : into, strerror(errno));
        return 2;
    }
    long gathered = afl ? gather_afl_inputs(c, gather) : 0;
    if (gathered < 0) {
        fprintf(stderr, "wddmkit fuzz: cannot gather the inputs into %s: %s\n", gather, strerror(errno));
        remove_flat_dir(gather);
        return 2;
    }
    uint64_t before = afl ? (uint64_t)gathered : wk_campaign_count_files(c->corpus, 0);
    time_t started = time(NULL);
    double t0 = wk_now_seconds();
    printf("pruning %s (%llu inputs%s) with %s; log in %s/merge.log\n", c->corpus, (unsigned long long)before,
           afl ? ", with every instance's queue" : "", afl ? "afl-cmin" : "libFuzzer's -merge=1", c->logs);
    if (afl) {
        setenv("AFL_ALLOW_TMP", "1", 1); /* afl-cmin refuses /tmp otherwise */
        setenv("AFL_NO_UI", "1", 1);
        if (!wk_campaign_afl_preload_driver(c))
            return 2;
    }
    if (!run_merge(c, &cl))
        return 2;
    const struct proc *p = &c->procs[0];
    uint64_t after = wk_campaign_count_files(into, 0);
    int ok = !c->interrupted && WIFEXITED(p->status) && WEXITSTATUS(p->status) == 0 && (after || !before);
    remove_flat_dir(gather);
    if (!ok) {
        fprintf(stderr, "wddmkit fuzz: the merge %s (%s %d, %llu inputs kept): %s is unchanged\n",
                c->interrupted ? "was stopped" : "failed", WIFEXITED(p->status) ? "exit code" : "signal",
                WIFEXITED(p->status) ? WEXITSTATUS(p->status) : WTERMSIG(p->status), (unsigned long long)after,
                c->corpus);
        if (!c->interrupted)
            wk_campaign_print_log_tail(p->log, 15);
        remove_flat_dir(into);
        return 2;
    }
    if (rename(c->corpus, old) != 0 || rename(into, c->corpus) != 0) {
        fprintf(stderr, "wddmkit fuzz: cannot put the merged corpus in place: %s (it is in %s)\n", strerror(errno),
                into);
        return 2;
    }
    remove_flat_dir(old);
    if (afl)
        retire_afl_state(c);
    uint64_t crashed = wk_campaign_count_files(c->crashes, started);
    printf("pruned:  %llu -> %llu inputs in %.1f s (%s)\n", (unsigned long long)before, (unsigned long long)after,
           wk_now_seconds() - t0, c->corpus);
    if (crashed)
        printf("note: %llu input%s crashed or hung during the merge and %s left out; %s in %s\n",
               (unsigned long long)crashed, crashed == 1 ? "" : "s", crashed == 1 ? "was" : "were",
               crashed == 1 ? "its file is" : "their files are", c->crashes);
    return 0;
}
