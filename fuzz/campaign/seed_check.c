/* SPDX-License-Identifier: MIT */
/*
 * seed_check.c - the starting inputs that already crash the driver under
 * test, replayed once before the engines start and left out of corpus/.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sys/mman.h>

#include "campaign/internal.h"
#include "driver/fuzz_driver.h" /* wk_fuzz_signature */
#include "util.h"
#include "reference.h" /* the crash slot (vidmm.h) */

/*
 * After `wddmkit promote`, the regression (and the seeds regenerated from
 * its YAML case) crash the buggy driver on their first run: libFuzzer
 * stops at the first crash, so every later campaign against that driver
 * ended at 0 s, and nobody could look for a second bug before fixing the
 * first. libFuzzer has no way to run past a crashing corpus input in its
 * normal mode (-ignore_crashes needs -fork, another engine loop), so the
 * starting inputs copied from the seed folders are replayed once first,
 * by the engine build's replay binary with the driver, and the ones that
 * crash or hang are left out of corpus/ (they stay in their folders; the
 * next campaign copies and checks them again, so a fixed driver gets them
 * back). One replay process runs them all (-v names each input before it
 * runs, WK_FUZZ_NO_ABORT=1 keeps a finding from ending the process); one
 * that dies anyway (a sanitizer, a signal) is restarted after the input
 * it died in, and one past --timeout is killed, its input a hang.
 */
struct check_run {
    char **paths;                 /* the inputs, corpus/ files */
    size_t count;
    char *crashed;                /* per input: left out (2: by the harness's verdict, a known signature) */
    char (*sig)[SIG_TEXT];        /* per input: why */
    struct sig_state st;          /* the current input's lines so far */
    long current;                 /* the input running, -1: none */
    int started;                  /* inputs the replay process started */
    char last[256];               /* the last line it printed */
    /* The crash slot the replay binary publishes in (replay_main.c): the
     * DDI an input's process ended in, when the driver exited inside one
     * (outsider 25's exit(0) was signed "exit 0", naming no DDI). */
    volatile struct wk_vidmm_crash_slot *slot;
    int slot_fd;
};

/* The corpus/ copies of the source inputs (those there now), into r. */
static int list_copies(const struct campaign *c, const struct seed_source *src, int n, struct check_run *r)
{
    size_t cap = 0;
    for (int i = 0; i < n; i++) {
        DIR *d = src[i].dir[0] ? opendir(src[i].dir) : NULL;
        for (struct dirent *e; d && (e = readdir(d));) {
            char name[512], path[FPATH];
            if (!wk_campaign_is_input_name(e->d_name) ||
                snprintf(name, sizeof(name), "%s%s", src[i].prefix, e->d_name) >= (int)sizeof(name) ||
                !wk_path_join(path, sizeof(path), c->corpus, name) || !wk_path_is_regular(path))
                continue;
            if (r->count == cap) {
                cap = cap ? cap * 2 : 256;
                char **grown = realloc(r->paths, cap * sizeof(*grown));
                if (!grown)
                    break;
                r->paths = grown;
            }
            if ((r->paths[r->count] = strdup(path)))
                r->count++;
        }
        if (d)
            closedir(d);
    }
    r->crashed = calloc(r->count ? r->count : 1, 1);
    r->sig = calloc(r->count ? r->count : 1, sizeof(*r->sig));
    return r->crashed && r->sig;
}

static void check_run_free(struct check_run *r)
{
    for (size_t i = 0; i < r->count; i++)
        free(r->paths[i]);
    free(r->paths);
    free(r->crashed);
    free(r->sig);
}

/* The current input ends: left out when its lines named a finding. */
static void input_done(struct check_run *r)
{
    if (r->current >= 0 && wk_campaign_sig_found(&r->st))
        r->crashed[r->current] = (char)(1 + wk_campaign_sig_make(&r->st, "crash", r->sig[r->current], sizeof(r->sig[0])));
    memset(&r->st, 0, sizeof(r->st));
    r->current = -1;
}

/* One line the replay printed: "replay: PATH (N bytes)" starts input PATH
 * (looked up from `from` on: a file it could not open prints none),
 * another "replay: " line ends the inputs (the teardown belongs to none),
 * anything else is the current input's. */
static void check_line(struct check_run *r, size_t from, const char *line, const char *end)
{
    if (end > line)
        wk_campaign_trim_copy(r->last, sizeof(r->last), line, (size_t)(end - line));
    if (end - line < 8 || memcmp(line, "replay: ", 8) != 0) {
        if (r->current >= 0)
            wk_campaign_sig_line(&r->st, line, end);
        return;
    }
    input_done(r);
    const char *open = NULL;
    for (const char *q = line; q + 1 < end; q++)
        if (q[0] == ' ' && q[1] == '(')
            open = q;
    size_t n = open ? (size_t)(open - line - 8) : 0;
    for (size_t i = from; open && i < r->count; i++)
        if (strlen(r->paths[i]) == n && memcmp(r->paths[i], line + 8, n) == 0) {
            r->current = (long)i;
            r->started++;
            return;
        }
}

static pid_t start_check(const char *replay, const char *driver, const struct check_run *r, size_t from, int *fd)
{
    int fds[2];
    char **argv = calloc(r->count - from + 3, sizeof(char *));
    if (!argv || pipe(fds) != 0) {
        free(argv);
        return -1;
    }
    argv[0] = (char *)replay;
    argv[1] = (char *)"-v";
    for (size_t i = from; i < r->count; i++)
        argv[2 + i - from] = r->paths[i];
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, 0);
            dup2(null, 1);
        }
        dup2(fds[1], 2);
        close(fds[0]);
        setenv("WK_DRIVER", driver, 1);
        setenv("WK_FUZZ_NO_ABORT", "1", 1);
        if (r->slot_fd >= 0) {
            char fd_text[16];
            snprintf(fd_text, sizeof(fd_text), "%d", r->slot_fd);
            setenv("WK_CRASH_SLOT_FD", fd_text, 1);
        }
        unsetenv("WK_FUZZ_IGNORE"); /* the check sees every finding: those it leaves out become the known ones */
        unsetenv("WK_FUZZ_IGNORE_COUNTS");
        unsetenv("WK_FUZZ_REACH_COUNTS"); /* the starting inputs' check is not the campaign's runs */
        execv(replay, argv);
        _exit(127);
    }
    free(argv);
    close(fds[1]);
    *fd = fds[0];
    if (pid < 0)
        close(fds[0]);
    return pid;
}

/* Feeds complete lines of buf[0, *len) to the run; keeps the partial end
 * (a line that fills the whole buffer is cut: its start is enough). */
static void check_lines(struct check_run *r, size_t from, char *buf, size_t cap, size_t *len)
{
    char *line = buf, *nl;
    while ((nl = memchr(line, '\n', (size_t)(buf + *len - line)))) {
        check_line(r, from, line, nl);
        line = nl + 1;
    }
    *len = (size_t)(buf + *len - line);
    memmove(buf, line, *len);
    if (*len == cap - 1) {
        check_line(r, from, buf, buf + *len);
        *len = 0;
    }
}

/* Whether the replay process has exited (it stays waitable). */
static int has_exited(pid_t pid)
{
    siginfo_t info;
    memset(&info, 0, sizeof(info));
    return waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

/* Reads the replay until it exits, or until it spends more than the
 * timeout in one input (or before the first, or after the last) and is
 * killed. Returns the wait status; *hung when killed in an input. The end
 * is the replay's exit, not the pipe's end of file: a driver that forked
 * leaves processes holding the pipe (they are killed afterwards, see
 * run_check); what is in the pipe when the replay exits is still read, a
 * pipe's worth at most. */
static int follow_check(struct check_run *r, size_t from, pid_t pid, int fd, double timeout, int *hung)
{
    char buf[4096];
    size_t len = 0;
    long seen = -2;
    double since = wk_now_seconds();
    int drain = -1; /* reads left once the replay has exited; -1: it runs */
    *hung = 0;
    for (;;) {
        if (drain < 0 && has_exited(pid))
            drain = 64; /* 64 reads of 4 KiB: more than a pipe holds */
        struct pollfd pf = { fd, POLLIN, 0 };
        if (poll(&pf, 1, drain >= 0 ? 0 : 100) > 0 && drain != 0) { /* else nothing within 100 ms: the clock below */
            ssize_t n = read(fd, buf + len, sizeof(buf) - 1 - len);
            if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
                break; /* the end: it exited */
            len += n > 0 ? (size_t)n : 0;
            check_lines(r, from, buf, sizeof(buf), &len);
            drain -= drain > 0;
            continue;
        }
        if (drain >= 0)
            break; /* exited, and its output read */
        if (r->current != seen) {
            seen = r->current;
            since = wk_now_seconds();
        }
        if (wk_now_seconds() - since > timeout) { /* an input, or the start or the teardown around them */
            *hung = r->current >= 0;
            kill(-pid, SIGKILL);
            break;
        }
    }
    close(fd);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    return st;
}

/* The input the replay died in (or hung in) is left out with what it
 * printed, else the way it ended. */
/* The crash slot of the check's replay processes (a memfd of a page they
 * inherit, as `wddmkit repro` gives one: fuzz/crash/outcome.c); none when
 * it cannot be made (their deaths then name no DDI). */
static void open_slot(struct check_run *r)
{
    int fd = memfd_create("wddmkit-crash-slot", 0);
    void *m = fd >= 0 && ftruncate(fd, sysconf(_SC_PAGESIZE)) == 0
                  ? mmap(NULL, sizeof(struct wk_vidmm_crash_slot), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
                  : MAP_FAILED;
    if (m == MAP_FAILED) {
        if (fd >= 0)
            close(fd);
        return;
    }
    r->slot = m;
    r->slot_fd = fd;
}

static void close_slot(struct check_run *r)
{
    if (r->slot)
        munmap((void *)(uintptr_t)r->slot, sizeof(struct wk_vidmm_crash_slot));
    if (r->slot_fd >= 0)
        close(r->slot_fd);
    r->slot = NULL;
    r->slot_fd = -1;
}

static void died_in(struct check_run *r, int st, int hung, double timeout)
{
    char how[SIG_TEXT], line[400];
    if (!hung && r->slot && wk_vidmm_crash_slot_describe(r->slot, st, 0, line, sizeof(line)))
        wk_fuzz_signature(how, sizeof(how), "DRV-CRASH-001", line, NULL); /* "... (exit 0) in DxgkDdiRender" */
    else if (hung)
        snprintf(how, sizeof(how), "hang (no result within %.0f s)", timeout);
    else if (WIFSIGNALED(st))
        snprintf(how, sizeof(how), "signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
    else
        snprintf(how, sizeof(how), "exit %d", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    r->crashed[r->current] = (char)(1 + wk_campaign_sig_make(&r->st, how, r->sig[r->current], sizeof(r->sig[0])));
    r->current = -1;
}

/* Runs every input through the replay binary; 0 when it could not run
 * them (r->last says why: a driver it cannot load ends it at start). */
static int run_check(struct check_run *r, const char *replay, const char *driver, double timeout)
{
    size_t from = 0;
    while (from < r->count) {
        int fd = -1, hung = 0;
        if (r->slot)
            wk_vidmm_crash_slot_init(r->slot);
        pid_t pid = start_check(replay, driver, r, from, &fd);
        if (pid < 0)
            return 0;
        r->current = -1;
        r->started = 0;
        int st = follow_check(r, from, pid, fd, timeout, &hung);
        /* What the driver started in the replay (a fork that called
         * setsid() came here: the command is a child subreaper) dies with
         * it; no engine runs yet, so every child of ours is the check's. */
        wk_reap_descendants();
        if (r->current < 0 && !r->started && !(WIFEXITED(st) && WEXITSTATUS(st) == 0))
            return 0;
        if (r->current < 0)
            return 1; /* every input ran (what followed belongs to none) */
        size_t at = (size_t)r->current;
        died_in(r, st, hung, timeout);
        from = at + 1;
    }
    return 1;
}


/* A left-out copy: into crashes/ as seed-NAME when its finding is news (a
 * finding the run's result counts, and a file to reproduce it from: CI
 * keeps crashes/), else removed. 1 when it was kept. */
static int keep_finding(struct campaign *c, const char *path, const char *base, const char *sig)
{
    char to[FPATH], name[512];
    if (!wk_campaign_user_known(c, sig) && snprintf(name, sizeof(name), "seed-%s", base) < (int)sizeof(name) &&
        wk_path_join(to, sizeof(to), c->crashes, name) && rename(path, to) == 0) {
        c->seed_findings++;
        return 1;
    }
    unlink(path);
    return 0;
}

/* Moves the left-out copies out of corpus/ (keep_finding); prints one
 * line for each and a total. The signatures of the harness's verdicts
 * among them become known signatures (unless --stop-on-known): the
 * engines go on past them. */
static void report_left_out(struct campaign *c, const struct check_run *r)
{
    size_t left = 0, kept = 0;
    for (size_t i = 0; i < r->count; i++) {
        if (!r->crashed[i])
            continue;
        const char *base = strrchr(r->paths[i], '/');
        base = base ? base + 1 : r->paths[i];
        printf("  left out %s: %s\n", base, r->sig[i]);
        kept += (size_t)keep_finding(c, r->paths[i], base, r->sig[i]);
        left++;
        if (r->crashed[i] == 2 && !c->o.stop_on_known)
            wk_campaign_add_known(c, r->sig[i], "the signature");
    }
    if (!left)
        return;
    const char *them = left == 1 ? "it" : "them";
    /* "fail", not "crash": most are a broken rule, which an engine calls a
     * crash only because the harness aborts on it (outsider 5 read it as
     * the driver crashing). */
    printf("left out %zu input%s that already fail%s on this driver (a finding each: a broken rule, a crash or a "
           "hang): fix %s, or keep fuzzing past %s\n",
           left, left == 1 ? "" : "s", left == 1 ? "s" : "", them, them);
    if (kept)
        printf("  %zu of %s kept in %s as seed-NAME (findings: the run ends with exit status 1; "
               "--ignore-signature SIG names one as known)\n", kept, them, c->crashes);
    printf("  (--keep-crashing-seeds starts from %s anyway; %s)\n", them,
           c->o.stop_on_known ? "with --stop-on-known, a mutation that finds the same bug again is a crash"
                              : "the harness passes over their signatures, so a mutation that finds the same bug "
                                "again\n   is counted, not a crash: --stop-on-known stops at it");
}

void wk_campaign_leave_out_crashing(struct campaign *c, const struct seed_source *src, int n)
{
    char replay[FPATH];
    if (c->o.keep_seeds || c->o.prune || !c->driver[0])
        return;
    if (!wk_campaign_replay_binary(c, replay, sizeof(replay))) {
        printf("note: no %s_replay beside %s: the starting inputs were not checked against the driver\n",
               c->o.harness, c->bin);
        return;
    }
    static struct check_run r;
    memset(&r, 0, sizeof(r));
    r.slot_fd = -1;
    double t0 = wk_now_seconds();
    if (!list_copies(c, src, n, &r) || !r.count) {
        check_run_free(&r);
        return;
    }
    open_slot(&r);
    if (run_check(&r, replay, c->driver, (double)c->o.timeout)) {
        printf("checked: %zu starting inputs against the driver in %.2f s (%s)\n", r.count, wk_now_seconds() - t0,
               replay);
        report_left_out(c, &r);
    } else {
        printf("note: %s could not run the starting inputs (%s): none was left out\n", replay,
               r.last[0] ? r.last : "it did not start");
    }
    close_slot(&r);
    check_run_free(&r);
}
