/* SPDX-License-Identifier: MIT */
/*
 * replay_main.c - runs a libFuzzer-style harness over files and folders,
 * with no fuzzing engine: how CI replays corpus/ and how a user reproduces
 * a crash file under a debugger.
 *
 * Usage: <harness>_replay [-v] PATH...   (a folder is replayed file by
 * file, in name order, so runs are deterministic; dotfiles, README* and
 * *.md files in a folder are notes, not inputs). Options libFuzzer takes
 * (-runs=N, -max_len=N, ...) are accepted and ignored, so the same command
 * line works for both builds. Exit 0 when every input ran; 2 when a path
 * could not be read (the harness itself aborts on a finding). A driver
 * harness's adapters are torn down after the last input, and what that
 * teardown breaks is a finding like any other.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_INPUT (16u << 20)

#include "harness.h"

/* Harnesses that need no initialisation leave it undefined. */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));
/* The driver harnesses' end of process (fuzz_driver.h): their adapters torn
 * down and judged, so that every replay runs the driver's destroy DDIs
 * (`wddmkit coverage` counted them only when an input forced a rebuild).
 * Declared here, not by including fuzz_driver.h, which the other harnesses'
 * replay binaries cannot include; they leave it undefined. */
void wk_fuzz_teardown(void) __attribute__((weak));
void wk_fuzz_reach_report(const char *harness) __attribute__((weak));
/* The video memory manager's crash slot (vidmm.h), in the binaries that
 * have one: weak for the same reason. */
struct wk_vidmm_crash_slot;
void wk_vidmm_publish_crash_slot(volatile struct wk_vidmm_crash_slot *slot) __attribute__((weak));
void wk_vidmm_note_descriptors_taken(int how) __attribute__((weak));

struct replay {
    int verbose;
    unsigned long files;
    unsigned long errors;
};

/* The input being run, for the line a finding's abort prints: a harness
 * ends the process on a finding, and the path is what `repro` wants. */
static const char *volatile current_input;

static void name_input_on_abort(int signo)
{
    const char *path = current_input;
    current_input = NULL;
    if (path) {
        static const char head[] = "replay: the input that ended the run: ";
        if (write(STDERR_FILENO, head, sizeof(head) - 1) >= 0 && write(STDERR_FILENO, path, strlen(path)) >= 0)
            (void)!write(STDERR_FILENO, "\n", 1);
    }
    /* the default action now, even where the kit's handler (which
     * passed this signal on to here) is the one installed */
    signal(signo, SIG_DFL);
    raise(signo);
}

static void replay_file(struct replay *r, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s: %s\n", path, strerror(errno));
        r->errors++;
        return;
    }
    uint8_t *buf = malloc(MAX_INPUT + 1);
    size_t n = buf ? fread(buf, 1, MAX_INPUT + 1, f) : 0;
    int bad = !buf || ferror(f) || n > MAX_INPUT;
    fclose(f);
    if (bad) {
        fprintf(stderr, "replay: %s: %s\n", path,
                !buf ? "out of memory" : n > MAX_INPUT ? "larger than the 16 MiB input limit" : "read error");
        free(buf);
        r->errors++;
        return;
    }
    if (r->verbose)
        fprintf(stderr, "replay: %s (%zu bytes)\n", path, n);
    /* An exact-size copy lets ASan catch a harness reading past the input. */
    uint8_t *exact = malloc(n ? n : 1);
    if (exact) {
        memcpy(exact, buf, n);
        current_input = path;
        LLVMFuzzerTestOneInput(exact, n);
        current_input = NULL;
    }
    free(exact);
    free(buf);
    r->files++;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Corpus folders may hold a README or notes beside the inputs. */
static int is_input_name(const char *name)
{
    size_t n = strlen(name);
    if (name[0] == '.' || strncmp(name, "README", 6) == 0)
        return 0;
    return !(n >= 3 && strcmp(name + n - 3, ".md") == 0);
}

static void replay_dir(struct replay *r, const char *path)
{
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "replay: cannot open folder %s: %s\n", path, strerror(errno));
        r->errors++;
        return;
    }
    char **names = NULL;
    size_t count = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!is_input_name(e->d_name))
            continue;
        if (count == cap) {
            cap = cap ? cap * 2 : 64;
            char **grown = realloc(names, cap * sizeof(*names));
            if (!grown)
                break;
            names = grown;
        }
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        names[count] = malloc(len);
        if (!names[count])
            break;
        snprintf(names[count], len, "%s/%s", path, e->d_name);
        count++;
    }
    closedir(d);
    if (count)
        qsort(names, count, sizeof(*names), by_name);
    for (size_t i = 0; i < count; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode))
            replay_file(r, names[i]);
        free(names[i]);
    }
    free(names);
}

/*
 * WK_CRASH_SLOT_FD=N: the crash slot `wddmkit repro` and `triage` share
 * with this process (a memfd of a page, fuzz/crash/outcome.c): the DDI
 * running is published there, so that a process the driver ends inside a
 * DDI (a sanitizer report without abort_on_error exits at once, no handler
 * runs) is named with it, as the program route names it. Published from
 * the thread that runs the inputs, the one that calls the DDIs.
 */
static void publish_crash_slot(void)
{
    const char *env = getenv("WK_CRASH_SLOT_FD");
    char *end = NULL;
    long fd = env ? strtol(env, &end, 10) : -1;
    unsetenv("WK_CRASH_SLOT_FD"); /* not for what the driver starts */
    if (!env || !wk_vidmm_publish_crash_slot || !end || *end || fd < 3 || fd > 65535)
        return;
    void *m = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE, MAP_SHARED, (int)fd, 0);
    close((int)fd);
    if (m != MAP_FAILED)
        wk_vidmm_publish_crash_slot(m);
}

/* Whether standard error, where this program reports, is still the file
 * it started with: 0 yes, 1 closed, 2 another file. A driver that closes or
 * replaces the process's descriptors loses every finding line; the crash
 * slot then says so (outsider 25's driver was a pass in repro, a crash in
 * conform). */
static int stderr_taken(const struct stat *at_start)
{
    struct stat now;
    if (fstat(2, &now) != 0)
        return 1;
    return now.st_dev != at_start->st_dev || now.st_ino != at_start->st_ino ? 2 : 0;
}

int main(int argc, char **argv)
{
    struct replay r = { 0, 0, 0 };
    struct stat err_at_start;
    int err_known = fstat(2, &err_at_start) == 0;
    publish_crash_slot();
    /* Built by the afl preset, this program carries AFL++'s runtime, which
     * ends the process when a driver module instrumented alike is loaded
     * late (WK_DRIVER) unless told to ignore it: a replay collects no
     * coverage, so there is nothing to lose. */
    setenv("AFL_IGNORE_PROBLEMS", "1", 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = name_input_on_abort;
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGABRT, &sa, NULL);
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (strcmp(argv[i], "-v") == 0) {
            r.verbose = 1;
        } else if (argv[i][0] == '-') {
            continue; /* a libFuzzer flag */
        } else if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: cannot open %s: %s\n", argv[i], strerror(errno));
            r.errors++;
        } else if (S_ISDIR(st.st_mode)) {
            replay_dir(&r, argv[i]);
        } else {
            replay_file(&r, argv[i]);
        }
    }
    if (wk_fuzz_teardown) {
        if (r.verbose) /* what follows belongs to no input (wddmkit fuzz's seed check reads this) */
            fprintf(stderr, "replay: tearing down the adapters\n");
        wk_fuzz_teardown();
    }
    if (wk_fuzz_reach_report) /* the inputs a harness skipped before the driver, when there were any */
        wk_fuzz_reach_report("replay");
    fprintf(stderr, "replay: %lu inputs ran, %lu paths could not be read\n", r.files, r.errors);
    int taken = err_known ? stderr_taken(&err_at_start) : 0;
    if (taken && wk_vidmm_note_descriptors_taken)
        wk_vidmm_note_descriptors_taken(taken);
    return r.errors ? 2 : 0;
}
