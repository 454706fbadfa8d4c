/* SPDX-License-Identifier: MIT */
/*
 * supervise.c - the engine processes of a campaign: each started in its
 * own process group (Ctrl-C reaches wddmkit, which stops the group
 * cleanly; libFuzzer's job workers and AFL++'s target go with it), with
 * its output in logs/ and a parent-death signal so none outlives a killed
 * wddmkit; reaped with the stragglers of its group (and the orphans that
 * came to wddmkit, their child subreaper, as they end); stopped by SIGINT, then
 * SIGKILL after a grace period or a second Ctrl-C, or when it runs well past
 * --time. SIGINT/SIGTERM/SIGHUP are counted, never acted on in the handler.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "campaign/internal.h"
#include "util.h"

#define STOP_GRACE_SECONDS 15 /* SIGINT -> SIGKILL */
#define OVERRUN_SECONDS 120    /* beyond --time before we stop the engine */

static volatile sig_atomic_t g_interrupts;

static void on_signal(int sig)
{
    (void)sig;
    if (g_interrupts < 100)
        g_interrupts++;
}

/* How many SIGINT/SIGTERM/SIGHUP arrived since wk_campaign_catch_signals. */
int wk_campaign_interrupts(void)
{
    return (int)g_interrupts;
}

/* No SA_RESTART: a signal cuts the sleeps of the loops short. */
void wk_campaign_catch_signals(struct saved_signals *saved, int with_hup)
{
    struct sigaction on;
    memset(&on, 0, sizeof(on));
    on.sa_handler = on_signal;
    sigemptyset(&on.sa_mask);
    g_interrupts = 0;
    saved->with_hup = with_hup;
    sigaction(SIGINT, &on, &saved->int_);
    sigaction(SIGTERM, &on, &saved->term);
    if (with_hup)
        sigaction(SIGHUP, &on, &saved->hup);
}

void wk_campaign_restore_signals(const struct saved_signals *saved)
{
    sigaction(SIGINT, &saved->int_, NULL);
    sigaction(SIGTERM, &saved->term, NULL);
    if (saved->with_hup)
        sigaction(SIGHUP, &saved->hup, NULL);
}

/* Runs argv (argv[0] a path) and captures what it prints, stdout and
 * stderr, the first cap - 1 bytes, into text. Returns the wait status, -1
 * when it did not run. */
int wk_campaign_capture(const char *const argv[], char *text, size_t cap)
{
    int fds[2], st = -1;
    text[0] = '\0';
    if (pipe(fds) != 0)
        return -1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[0]);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    close(fds[1]);
    size_t got = 0;
    for (;;) {
        char sink[4096];
        int keep = got < cap - 1;
        ssize_t n = read(fds[0], keep ? text + got : sink, keep ? cap - 1 - got : sizeof(sink));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        if (keep)
            got += (size_t)n;
    }
    close(fds[0]);
    text[got] = '\0';
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    return st;
}

int wk_campaign_spawn(struct campaign *c, struct cmdline *cl, const char *cwd, const char *label, const char *logname)
{
    struct proc *p = &c->procs[c->nprocs];
    memset(p, 0, sizeof(*p));
    snprintf(p->label, sizeof(p->label), "%s", label);
    if (!wk_path_join(p->log, sizeof(p->log), c->logs, logname))
        return 0;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "wddmkit fuzz: fork: %s\n", strerror(errno));
        return 0;
    }
    if (pid == 0) {
        setpgid(0, 0); /* its own group: Ctrl-C reaches us, and we stop it cleanly */
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGTERM); /* never outlive a killed wddmkit */
#endif
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        int in = open("/dev/null", O_RDONLY);
        int out = open(p->log, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
        if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
            _exit(127);
        if (cwd && chdir(cwd) != 0)
            _exit(127);
        execv(cl->argv[0], cl->argv);
        dprintf(2, "wddmkit fuzz: cannot run %s: %s\n", cl->argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid); /* both sides, so there is no window */
    p->pid = pid;
    p->alive = 1;
    c->nprocs++;
    return 1;
}

void wk_campaign_signal_all(struct campaign *c, int sig)
{
    for (unsigned i = 0; i < c->nprocs; i++)
        if (c->procs[i].alive && !c->procs[i].reaped)
            kill(-c->procs[i].pid, sig); /* the group: libFuzzer's job workers, AFL++'s target */
}

/* Reaps engines that exited. Before reaping (the exited leader still holds
 * its group id), stragglers in its group are killed. Orphans the driver
 * left (`wddmkit fuzz` is their child subreaper: cli_fuzz.c) that have
 * ended are reaped too, so none piles up as a zombie in a long campaign;
 * those still running are killed when the command ends. */
unsigned wk_campaign_reap(struct campaign *c)
{
    pid_t engines[MAX_JOBS];
    size_t nengines = 0;
    for (unsigned i = 0; i < c->nprocs && nengines < MAX_JOBS; i++)
        if (c->procs[i].alive)
            engines[nengines++] = c->procs[i].pid;
    wk_reap_exited_strays(engines, nengines);
    unsigned alive = 0;
    for (unsigned i = 0; i < c->nprocs; i++) {
        struct proc *p = &c->procs[i];
        if (!p->alive)
            continue;
        siginfo_t info;
        memset(&info, 0, sizeof(info));
        if (waitid(P_PID, (id_t)p->pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == p->pid) {
            kill(-p->pid, SIGKILL);
            if (waitpid(p->pid, &p->status, 0) == p->pid) {
                p->alive = 0;
                p->reaped = 1;
                continue;
            }
        }
        alive++;
    }
    return alive;
}

void wk_campaign_monitor(struct campaign *c)
{
    double t0 = wk_now_seconds(), next_progress = t0 + PROGRESS_SECONDS, stop_at = 0;
    int stopping = 0;
    for (;;) {
        if (!wk_campaign_reap(c))
            break;
        double t = wk_now_seconds();
        if (g_interrupts && !stopping) {
            stopping = 1;
            c->interrupted = 1;
            stop_at = t + STOP_GRACE_SECONDS;
            printf("\nwddmkit fuzz: stopping the engines (Ctrl-C again to kill them)\n");
            fflush(stdout);
            wk_campaign_signal_all(c, SIGINT);
        } else if (!stopping && c->o.time && t - t0 > (double)(c->o.time + OVERRUN_SECONDS)) {
            stopping = 1;
            c->overran = 1;
            stop_at = t + STOP_GRACE_SECONDS;
            printf("wddmkit fuzz: the engine ran %d s past --time; stopping it\n", OVERRUN_SECONDS);
            wk_campaign_signal_all(c, SIGINT);
        }
        if (stopping && !c->killed && (g_interrupts >= 2 || t > stop_at)) {
            c->killed = 1;
            wk_campaign_signal_all(c, SIGKILL);
        }
        if (!stopping && t >= next_progress) {
            wk_campaign_print_progress(c);
            next_progress = t + PROGRESS_SECONDS;
        }
        wk_sleep_ms(250);
    }
}
