/* SPDX-License-Identifier: MIT */
/*
 * summary.c - what a campaign prints while it runs and at its end: a
 * progress line every few seconds, then the summary (runs, coverage,
 * stability, corpus, known signatures hit, new crashes), the crashes
 * through the build's own `wddmkit triage` when it has one (else listed
 * with the engine logs' signatures), and how to reproduce them. Also the
 * exit code: 0 no crash, 1 new crashes or starting inputs that already fail
 * (crashes/seed-*), 2 an engine that failed without
 * finding anything.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "campaign/internal.h"
#include "util.h"

#define MAX_LISTED 50 /* crash files listed in the summary */
static char g_tail[TAIL_BYTES];

static void collect_stats(const struct campaign *c, struct stats *s, int final)
{
    if (c->o.engine == ENGINE_LIBFUZZER)
        wk_campaign_libfuzzer_stats(c, s, final);
    else
        wk_campaign_afl_stats(c, s, final);
}

void wk_campaign_print_progress(const struct campaign *c)
{
    struct stats s;
    char a[40], b[40], d[40];
    collect_stats(c, &s, 0);
    printf("[%5.0fs] ", difftime(time(NULL), c->start));
    if (s.have_eps)
        printf("exec/s %s  ", wk_str_grouped(s.eps, a, sizeof(a)));
    else
        printf("exec/s -  ");
    if (s.have_runs)
        printf("runs %s  ", wk_str_grouped(s.runs, b, sizeof(b)));
    if (c->o.engine == ENGINE_LIBFUZZER) {
        if (s.have_cov)
            printf("cov %s  ft %s  ", wk_str_grouped(s.cov, d, sizeof(d)), wk_str_grouped(s.ft, a, sizeof(a)));
    } else if (s.have_cov) {
        printf("edges %s", wk_str_grouped(s.cov, d, sizeof(d)));
        if (s.have_total)
            printf("/%s", wk_str_grouped(s.total_edges, a, sizeof(a)));
        printf("  ");
    }
    printf("corpus %s  crashes %llu", wk_str_grouped(s.corpus, b, sizeof(b)), (unsigned long long)s.crashes);
    if (c->o.engine == ENGINE_AFL) {
        printf("  hangs %llu", (unsigned long long)s.hangs);
        static int noted;
        if (!s.have_eps && !noted) {
            printf("  (AFL++ writes exec/s and coverage after its first minute)");
            noted = 1;
        }
    }
    printf("\n");
    fflush(stdout);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Lists the crash files modified since the start, with their signatures. */
static void list_crashes(const struct campaign *c, const struct sig_table *t)
{
    DIR *d = opendir(c->crashes);
    if (!d)
        return;
    char **names = calloc(MAX_LISTED, sizeof(*names));
    unsigned n = 0, more = 0;
    for (struct dirent *e; names && (e = readdir(d));) {
        char p[FPATH];
        struct stat st;
        if (!wk_campaign_is_engine_finding_name(e->d_name) || !wk_path_join(p, sizeof(p), c->crashes, e->d_name) || stat(p, &st) != 0 ||
            !S_ISREG(st.st_mode) || st.st_mtime < c->start)
            continue;
        if (n == MAX_LISTED) {
            more++;
            continue;
        }
        names[n] = strdup(e->d_name);
        if (names[n])
            n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof(*names), by_name);
    for (unsigned i = 0; i < n; i++) {
        char p[FPATH], sig[SIG_TEXT] = "";
        struct stat st;
        long long size = wk_path_join(p, sizeof(p), c->crashes, names[i]) && stat(p, &st) == 0 ? (long long)st.st_size : -1;
        for (unsigned k = 0; k < t->n && !sig[0]; k++)
            if (strcmp(t->e[k].file, names[i]) == 0)
                snprintf(sig, sizeof(sig), "%s", t->e[k].sig);
        if (!sig[0])
            wk_campaign_afl_signature(names[i], sig, sizeof(sig));
        printf("  %s  (%lld bytes)  %s\n", names[i], size, sig);
        free(names[i]);
    }
    if (more)
        printf("  ... and %u more\n", more);
    free(names);
}

/* Runs this wddmkit with one or two arguments and captures what it prints
 * (stdout and stderr, the first 64 KiB) into text. */
static void capture_self(const char *self, const char *arg1, const char *arg2, char *text, size_t cap)
{
    const char *argv[] = { self, arg1, arg2, NULL };
    text[0] = '\0';
    if (self[0])
        wk_campaign_capture(argv, text, cap);
}

/* The first line of text whose first word (after indentation and an
 * optional "wddmkit ") is `command`, copied into line. */
static int find_command_line(const char *text, const char *command, char *line, size_t cap)
{
    size_t clen = strlen(command);
    line[0] = '\0';
    for (const char *l = text; *l;) {
        const char *end = strchr(l, '\n');
        if (!end)
            end = l + strlen(l);
        const char *p = l;
        while (p < end && *p == ' ')
            p++;
        if ((size_t)(end - p) > 8 && memcmp(p, "wddmkit ", 8) == 0)
            p += 8;
        else if (p == l) /* `wddmkit help` indents its commands */
            p = end;
        if ((size_t)(end - p) >= clen && memcmp(p, command, clen) == 0 && (p + clen == end || p[clen] == ' ')) {
            wk_campaign_trim_copy(line, cap, p, (size_t)(end - p));
            return 1;
        }
        l = *end ? end + 1 : end;
    }
    return 0;
}

/* What this build offers for crashes: whether `triage` and `repro` exist
 * (`wddmkit help`) and which options they take (their usage lines). */
struct crash_tools {
    int triage, repro;
    char triage_usage[512], repro_usage[512];
};

static void probe_crash_tools(const char *self, struct crash_tools *t)
{
    static char text[64u << 10];
    char line[512];
    memset(t, 0, sizeof(*t));
    capture_self(self, "help", NULL, text, sizeof(text));
    t->triage = find_command_line(text, "triage", t->triage_usage, sizeof(t->triage_usage));
    t->repro = find_command_line(text, "repro", t->repro_usage, sizeof(t->repro_usage));
    if (!t->triage && !t->repro)
        return;
    capture_self(self, t->triage ? "triage" : "repro", "--help", text, sizeof(text)); /* usage, with every option */
    if (t->triage && find_command_line(text, "triage", line, sizeof(line)))
        snprintf(t->triage_usage, sizeof(t->triage_usage), "%s", line);
    if (t->repro && find_command_line(text, "repro", line, sizeof(line)))
        snprintf(t->repro_usage, sizeof(t->repro_usage), "%s", line);
}

/* A replay binary older than the engine binary may decode or judge inputs
 * as the harness no longer does: its triage would call a real crash a pass.
 * One build links the two a few seconds apart, in either order: only a
 * replay binary older by more than STALE_REPLAY_S is taken as stale. */
#define STALE_REPLAY_S 300
static void warn_if_older(const char *replay, const char *engine)
{
    struct stat r, e;
    if (stat(replay, &r) == 0 && stat(engine, &e) == 0 && r.st_mtime + STALE_REPLAY_S < e.st_mtime)
        printf("warning: %s is older than %s: rebuild the preset (cmake --build) so that triage replays "
               "what the engine ran\n", replay, engine);
}

/* `wddmkit triage` on crashes/, with the replay binaries of the engine's
 * build (sanitized in the libfuzzer preset); 0 when it could not be run. */
static int run_triage(const struct campaign *c, const char *self, const struct crash_tools *t)
{
    char *argv[10];
    int n = 0;
    argv[n++] = (char *)self;
    argv[n++] = (char *)"triage";
    argv[n++] = (char *)c->crashes;
    if (strstr(t->triage_usage, "--harness")) {
        argv[n++] = (char *)"--harness";
        argv[n++] = (char *)c->o.harness;
    }
    if (c->driver[0] && strstr(t->triage_usage, "--driver")) {
        argv[n++] = (char *)"--driver";
        argv[n++] = (char *)c->driver;
    }
    argv[n] = NULL;
    char dir[FPATH], replay[FPATH];
    wk_str_copy(dir, sizeof(dir), c->bin);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    if (slash && snprintf(replay, sizeof(replay), "%s/%s_replay", dir, c->o.harness) < (int)sizeof(replay))
        warn_if_older(replay, c->bin);
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return 0;
    if (pid == 0) {
        if (slash && !getenv("WK_REPLAY_DIR") &&
            snprintf(replay, sizeof(replay), "%s/%s_replay", dir, c->o.harness) < (int)sizeof(replay) &&
            wk_path_is_executable(replay))
            setenv("WK_REPLAY_DIR", dir, 1);
        unsetenv("WK_FUZZ_IGNORE"); /* triage reproduces: it sees the known signatures too */
        unsetenv("WK_FUZZ_IGNORE_COUNTS");
        unsetenv("WK_FUZZ_REACH_COUNTS"); /* triage's runs are not the campaign's */
        execv(self, argv);
        _exit(127);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR)
            return 0;
    }
    return WIFEXITED(st) && WEXITSTATUS(st) != 2 && WEXITSTATUS(st) != 127;
}

/* The last lines of a log, for an engine that failed. */
void wk_campaign_print_log_tail(const char *path, int lines)
{
    long len = wk_file_tail(path, g_tail, sizeof(g_tail));
    if (len <= 0)
        return;
    const char *start = g_tail + len;
    for (int seen = 0; start > g_tail; start--)
        if (start[-1] == '\n' && start != g_tail + len && ++seen > lines)
            break;
    fprintf(stderr, "---- %s (last lines)\n", path);
    for (const char *p = start; p < g_tail + len; p++) {
        if (*p == 0x1b) { /* terminal colours: ESC [ ... letter, or ESC ( letter */
            if (p + 1 < g_tail + len && p[1] == '[')
                for (p += 2; p < g_tail + len && !((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')); p++) {
                }
            else if (p + 2 < g_tail + len)
                p += 2;
            continue;
        }
        if ((*p >= 0x20 && *p < 0x7f) || *p == '\n' || *p == '\t')
            fputc(*p, stderr);
    }
    fprintf(stderr, "----\n");
}

/* The summary's numbers: runs, coverage, stability, corpus, the known
 * signatures hit, the crashes. */
static void print_numbers(const struct campaign *c, const struct stats *s, uint64_t new_crashes,
                          uint64_t all_crashes)
{
    char a[40], b[40], d[40];
    double elapsed = wk_now_seconds() - c->start_mono;
    printf("\nwddmkit fuzz: summary\n");
    printf("  harness   %s (%s, %llu %s%s, %.0f s)\n", c->o.harness, engine_name(c),
           (unsigned long long)c->o.jobs,
           c->o.engine == ENGINE_AFL ? (c->o.jobs > 1 ? "instances" : "instance") : (c->o.jobs > 1 ? "jobs" : "job"),
           c->interrupted ? ", interrupted" : "", elapsed);
    printf("  driver    %s\n", c->driver[0] ? c->driver : "the reference driver (built in)");
    if (s->have_runs)
        printf("  runs      %s", wk_str_grouped(s->runs, a, sizeof(a)));
    else
        printf("  runs      -");
    if (s->have_eps)
        printf(" (%s exec/s)\n", wk_str_grouped(s->eps, b, sizeof(b)));
    else
        printf("\n");
    if (c->o.engine == ENGINE_LIBFUZZER && s->have_cov)
        printf("  coverage  %s edges (cov), %s features (ft)\n", wk_str_grouped(s->cov, a, sizeof(a)),
               wk_str_grouped(s->ft, b, sizeof(b)));
    else if (s->have_cov)
        printf("  coverage  %s of %s edges%s\n", wk_str_grouped(s->cov, a, sizeof(a)),
               s->have_total ? wk_str_grouped(s->total_edges, d, sizeof(d)) : "?", "");
    if (s->have_stability) {
        printf("  stability %llu.%02llu%%\n", (unsigned long long)(s->stability_pct100 / 100),
               (unsigned long long)(s->stability_pct100 % 100));
        /* AFL++'s own advice starts below 90%; the kit's harnesses reach
         * 98.7 to 100% on the reference driver (docs/fuzzing.md). */
        if (s->stability_pct100 < 9000)
            printf("            below 90%%: one input takes other paths from run to run (state the driver or\n"
                   "            the harness keeps between inputs); bench/fuzz_stability names the lines\n"
                   "            (docs/fuzzing.md, \"Stability\")\n");
    }
    char qdir[FPATH];
    if (c->o.engine == ENGINE_AFL) {
        if (!wk_path_join(qdir, sizeof(qdir), c->afl_out, s->queues > 1 ? "*/queue" : "main/queue"))
            qdir[0] = '\0';
    } else {
        wk_str_copy(qdir, sizeof(qdir), c->corpus);
    }
    printf("  corpus    %s input%s in %s", wk_str_grouped(s->corpus, a, sizeof(a)), s->corpus == 1 ? "" : "s", qdir);
    for (unsigned i = 0; s->queues > 1 && i < s->queues; i++)
        printf("%s%s %s", i ? ", " : " (", c->procs[i].label, wk_str_grouped(s->queue[i], a, sizeof(a)));
    printf("%s\n", s->queues > 1 ? "; a seed or an input synced from another instance counted once)" : "");
    printf("  output    %s (engine logs in logs/)\n", c->out);
    /* What the corpus reached of the driver's code (cli_coverage.c). */
    /* Every AFL++ instance's queue (the shell expands the pattern). */
    printf("  reach     wddmkit coverage --harness %s%s%s %s%s  (the source lines and functions it runs)\n",
           c->o.harness, c->driver[0] ? " --driver " : "",
           c->driver[0] ? "<the driver built with clang -fprofile-instr-generate -fcoverage-mapping>" : "",
           c->o.engine == ENGINE_AFL ? c->afl_out : qdir, c->o.engine == ENGINE_AFL ? "/*/queue" : "");
    if (c->o.engine == ENGINE_AFL && s->hangs)
        printf("  hangs     %llu (copied into crashes/ as *-hang-*)\n", (unsigned long long)s->hangs);
    if (c->nknown)
        wk_campaign_print_known_hits(c);
    wk_campaign_print_reach(c);
    printf("  crashes   %llu new", (unsigned long long)new_crashes);
    if (c->seed_findings)
        printf(", %u starting input%s that already fail%s (seed-*)", c->seed_findings, c->seed_findings == 1 ? "" : "s",
               c->seed_findings == 1 ? "s" : "");
    if (all_crashes > new_crashes + c->seed_findings)
        printf(" (%llu from earlier runs also in crashes/)",
               (unsigned long long)(all_crashes - new_crashes - c->seed_findings));
    printf("\n");
}

/* An engine that failed without finding anything is a setup error: 1
 * (its log's last lines printed) when one did. */
static int engines_failed(const struct campaign *c, uint64_t new_crashes)
{
    int failed = 0;
    for (unsigned i = 0; i < c->nprocs; i++) {
        const struct proc *p = &c->procs[i];
        int bad = WIFEXITED(p->status) ? WEXITSTATUS(p->status) != 0 : !c->interrupted && !c->overran;
        if (bad && !new_crashes && !c->interrupted && !c->overran) {
            fprintf(stderr, "wddmkit fuzz: %s engine process failed (%s %d)\n", p->label,
                    WIFEXITED(p->status) ? "exit code" : "signal",
                    WIFEXITED(p->status) ? WEXITSTATUS(p->status) : WTERMSIG(p->status));
            wk_campaign_print_log_tail(p->log, 15);
            failed = 1;
        }
    }
    return failed;
}

/* The one finding file this campaign wrote to the crashes folder, into
 * name; 0 when it wrote none or several (the reproduce line then says
 * FILE). Counted as list_crashes counts. */
static int only_new_crash(const struct campaign *c, char *name, size_t size)
{
    DIR *d = opendir(c->crashes);
    if (!d)
        return 0;
    unsigned n = 0;
    for (struct dirent *e; n < 2 && (e = readdir(d));) {
        char p[FPATH];
        struct stat st;
        if (!wk_campaign_is_engine_finding_name(e->d_name) || !wk_path_join(p, sizeof(p), c->crashes, e->d_name) ||
            stat(p, &st) != 0 || !S_ISREG(st.st_mode) || st.st_mtime < c->start)
            continue;
        if (n++ == 0 && snprintf(name, size, "%s", e->d_name) >= (int)size)
            n = 2; /* a name too long to quote: FILE */
    }
    closedir(d);
    return n == 1;
}

/* The new crashes: triaged by the build's wddmkit, else listed with the
 * engine logs' signatures; how to reproduce them. Returns 1. */
static int report_crashes(const struct campaign *c, const char *self, uint64_t new_crashes)
{
    struct crash_tools tools;
    int triaged = 0;
    char tools_exe[FPATH];
    wk_campaign_tools_binary(c, self, tools_exe, sizeof(tools_exe));
    probe_crash_tools(tools_exe, &tools);
    printf("\n");
    if (tools.triage && !c->o.no_triage) {
        printf("wddmkit triage %s:\n", c->crashes);
        triaged = run_triage(c, tools_exe, &tools);
        if (!triaged)
            printf("(wddmkit triage could not run every file; the crash files follow, with the engine logs' "
                   "signatures)\n");
    }
    if (!triaged) {
        struct sig_table *t = calloc(1, sizeof(*t));
        if (t && c->o.engine == ENGINE_LIBFUZZER) {
            for (uint64_t j = 0; j < c->o.jobs; j++) {
                char p[FPATH], name[64];
                snprintf(name, sizeof(name), "fuzz-%llu.log", (unsigned long long)j);
                if (wk_path_join(p, sizeof(p), c->logs, name))
                    wk_campaign_scan_crash_reports(p, t);
            }
        }
        static const struct sig_table empty;
        printf("new crash files in %s:\n", c->crashes);
        list_crashes(c, t ? t : &empty);
        free(t);
    }
    char replay[FPATH], only[256];
    int one = only_new_crash(c, only, sizeof(only));
    const char *file = one ? only : "FILE";
    printf("\nreproduce: %s%s%s", c->binding[0] ? "WK_BINDING=" : "", c->binding, c->binding[0] ? " " : "");
    int repro_harness = strstr(tools.repro_usage, "--harness") != NULL;
    if (tools.repro)
        printf("%s repro %s/%s%s%s%s%s\n", strcmp(tools_exe, self) == 0 ? "wddmkit" : tools_exe, c->crashes, file,
               repro_harness ? " --harness " : "", repro_harness ? c->o.harness : "", c->driver[0] ? " --driver " : "",
               c->driver);
    else if (snprintf(replay, sizeof(replay), "%s_replay", c->bin) < (int)sizeof(replay) && wk_path_is_executable(replay))
        printf("%s%s%s %s %s/%s\n", c->driver[0] ? "WK_DRIVER=" : "", c->driver, c->driver[0] ? " " : "", replay,
               c->crashes, file);
    else
        printf("%s %s/%s\n", c->bin, c->crashes, file);
    if (!one)
        printf("  (FILE: a crash file listed above)\n");
    printf("result: %llu new crash%s\n", (unsigned long long)new_crashes, new_crashes == 1 ? "" : "es");
    return 1;
}

int wk_campaign_summarize(struct campaign *c, const char *self)
{
    struct stats s;
    if (c->o.engine == ENGINE_AFL)
        wk_campaign_gather_afl_findings(c);
    collect_stats(c, &s, 1);
    uint64_t new_crashes = wk_campaign_count_files(c->crashes, c->start);
    uint64_t all_crashes = wk_campaign_count_files(c->crashes, 0);
    print_numbers(c, &s, new_crashes, all_crashes);
    int failed = engines_failed(c, new_crashes);
    if (!new_crashes && c->seed_findings) {
        /* The driver fails inputs the campaign started from: findings as
         * much as a mutation's (outsider 25's CI job was green on a driver
         * whose seeds showed its bug). */
        printf("result: no new crash; %u starting input%s already fail%s on this driver (%s/seed-*)\n",
               c->seed_findings, c->seed_findings == 1 ? "" : "s", c->seed_findings == 1 ? "s" : "", c->crashes);
        return 1;
    }
    if (!new_crashes) {
        printf("result: no crash\n");
        return failed ? 2 : 0;
    }
    int rc = report_crashes(c, self, new_crashes);
    if (c->seed_findings)
        printf("  and %u starting input%s already fail%s on this driver (%s/seed-*)\n", c->seed_findings,
               c->seed_findings == 1 ? "" : "s", c->seed_findings == 1 ? "s" : "", c->crashes);
    return rc;
}
