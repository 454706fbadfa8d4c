/* SPDX-License-Identifier: MIT */
/*
 * coverage_run.c - the work of `wddmkit coverage` (cli/cli_coverage.c
 * parses its arguments): which lines and functions of a driver a
 * harness's corpus reaches (docs/fuzz-your-driver.md, "Coverage of your driver").
 *
 * A campaign's exec/s and its `cov`/`ft` say how busy the engine is, not
 * which DDI code of the driver it ever ran. This command answers that with
 * clang's source-based coverage:
 *   1. the driver module must carry a coverage mapping (built with
 *      -fprofile-instr-generate -fcoverage-mapping; the profile runtime is
 *      then linked into the module, so any build of the replay binaries
 *      runs it). Without --driver, the reference driver is measured inside
 *      a replay binary of the `coverage` preset, with the whole kit;
 *   2. the inputs (default: corpus/NAME/seeds and regressions, and the
 *      corpus of `wddmkit fuzz` campaigns under fuzz-out/) run through
 *      NAME_replay in batches, each a process that writes its own profile
 *      (LLVM_PROFILE_FILE=OUT/profiles/%m-%p.profraw). A batch that dies
 *      (a driver that kills the process) or overruns --timeout loses its
 *      own profile only: the others are merged and the report says which
 *      inputs are missing;
 *   3. llvm-profdata merges the profiles; llvm-cov writes OUT/report.txt,
 *      OUT/coverage.lcov and OUT/html/, leaving out the kit's code compiled
 *      into the driver (include/wddmkit/, gpu-model/) unless --all-files;
 *   4. a summary: lines and functions per file, the functions no input ran,
 *      and with --fail-under PCT exit 1 when the line coverage is below it
 *      (a CI gate).
 *
 * Exit codes: 0 report written, 1 below --fail-under, 2 usage or setup
 * errors (no replay binary, a module that does not load or has no
 * coverage mapping, no LLVM tools, no input, no profile written).
 *
 * What the tools print is read through fixed buffers and parsed line by
 * line; no allocation depends on it except the list of input files.
 */
#define _GNU_SOURCE /* memmem */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "crash/crash.h" /* wk_fuzz_replay_binary */
#include "tools/coverage_run.h"
#include "tools/lcov_summary.h"
#include "util.h"

#define CPATH 4096
#define MODULE_LIMIT (512u << 20) /* largest module searched for its mapping */
#define NEVER_RUN_SHOWN 25
/* The kit's code a driver compiles in (km.h, driver.h, the GPU model's
 * encoder): not the driver author's to cover. */
#define KIT_FILES_REGEX "(^|/)(include/wddmkit|gpu-model)/"

struct file_list {
    char **paths;
    size_t count, cap;
};

/* ------------------------------------------------------------------ */
/* Files                                                                */
/* ------------------------------------------------------------------ */


static int list_add(struct file_list *l, const char *path)
{
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 256;
        char **p = realloc(l->paths, cap * sizeof(*p));
        if (!p)
            return -1;
        l->paths = p;
        l->cap = cap;
    }
    if (!(l->paths[l->count] = strdup(path)))
        return -1;
    l->count++;
    return 0;
}

static void list_free(struct file_list *l)
{
    for (size_t i = 0; i < l->count; i++)
        free(l->paths[i]);
    free(l->paths);
    memset(l, 0, sizeof(*l));
}

static int by_string(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The inputs of a folder (its regular files, not dot files or READMEs,
 * in name order) or a file; -1 when out of memory. */
static int add_inputs(struct file_list *l, const char *path)
{
    char dotted[CPATH];
    if (!wk_path_is_dir(path)) /* the replay binary skips arguments that start with '-' (libFuzzer flags) */
        return list_add(l, path[0] == '-' && snprintf(dotted, sizeof(dotted), "./%s", path) < (int)sizeof(dotted)
                               ? dotted : path);
    DIR *d = opendir(path);
    if (!d)
        return 0;
    size_t first = l->count;
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d));) {
        char p[CPATH];
        if (e->d_name[0] == '.' || strncmp(e->d_name, "README", 6) == 0 || !wk_path_join(p, sizeof(p), path, e->d_name))
            continue;
        if (wk_path_is_regular(p))
            rc = list_add(l, p);
    }
    closedir(d);
    qsort(l->paths + first, l->count - first, sizeof(char *), by_string);
    return rc;
}

/* One default folder, when it exists: said on a line, its inputs added. */
static int add_default_folder(struct file_list *l, const char *dir, int *folders)
{
    if (!wk_path_is_dir(dir))
        return 0;
    printf("inputs: %s\n", dir);
    ++*folders;
    return add_inputs(l, dir);
}

/* Every instance's queue of an AFL++ campaign: DIR/<instance>/queue. */
static int add_afl_queues(struct file_list *l, const char *dir, int *folders)
{
    char p[CPATH];
    DIR *d = opendir(dir);
    int rc = 0;
    for (struct dirent *e; rc == 0 && d && (e = readdir(d));)
        if (e->d_name[0] != '.' && snprintf(p, sizeof(p), "%s/%s/queue", dir, e->d_name) < (int)sizeof(p))
            rc = add_default_folder(l, p, folders);
    if (d)
        closedir(d);
    return rc;
}

/* The default inputs: the repository's seeds and regressions of the
 * harness, and what `wddmkit fuzz` campaigns kept in the working directory,
 * laid out as that command writes them: fuzz-out/NAME-libfuzzer/corpus,
 * fuzz-out/NAME-afl/corpus (the starting inputs, and what --prune kept)
 * and every AFL++ instance's queue, fuzz-out/NAME-afl/afl/<instance>/queue
 * (this looked one level up, where no campaign writes, and found none). */
static int default_inputs(const char *repo, const char *h, struct file_list *l, int *folders)
{
    char p[CPATH];
    const char *repo_dirs[] = { "seeds", "regressions" };
    for (size_t i = 0; i < 2; i++)
        if (repo && snprintf(p, sizeof(p), "%s/corpus/%s/%s", repo, h, repo_dirs[i]) < (int)sizeof(p) &&
            add_default_folder(l, p, folders))
            return -1;
    static const char *const engines[] = { "libfuzzer", "afl" };
    for (size_t i = 0; i < 2; i++)
        if (snprintf(p, sizeof(p), "fuzz-out/%s-%s/corpus", h, engines[i]) < (int)sizeof(p) &&
            add_default_folder(l, p, folders))
            return -1;
    return snprintf(p, sizeof(p), "fuzz-out/%s-afl/afl", h) < (int)sizeof(p) ? add_afl_queues(l, p, folders) : 0;
}

/* Whether the module's bytes hold clang's coverage mapping section. */
static int has_coverage_mapping(const char *path)
{
    uint8_t *data = NULL;
    size_t size = 0;
    char why[160];
    if (wk_file_read(path, MODULE_LIMIT, &data, &size, why, sizeof(why)) != WK_OK) {
        fprintf(stderr, "wddmkit: %s: %s\n", path, why);
        return -1;
    }
    static const char name[] = "__llvm_covmap";
    int found = memmem(data, size, name, sizeof(name) - 1) != NULL;
    free(data);
    return found;
}

/* Removes the profiles of an earlier run of the same output folder: they
 * would be merged into this one. */
static void clear_profiles(const char *dir)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        char p[CPATH];
        if (n > 8 && strcmp(e->d_name + n - 8, ".profraw") == 0 && wk_path_join(p, sizeof(p), dir, e->d_name))
            unlink(p);
    }
    if (d)
        closedir(d);
}

/* ------------------------------------------------------------------ */
/* Tools                                                                */
/* ------------------------------------------------------------------ */

/* An LLVM tool: $env, else NAME on PATH, else the newest NAME-N. */
static int find_llvm_tool(const char *env, const char *name, char *out, size_t cap)
{
    const char *given = getenv(env);
    if (given && *given)
        return wk_path_find_program(given, out, cap);
    if (wk_path_find_program(name, out, cap))
        return 1;
    for (int v = 30; v >= 10; v--) {
        char versioned[64];
        snprintf(versioned, sizeof(versioned), "%s-%d", name, v);
        if (wk_path_find_program(versioned, out, cap))
            return 1;
    }
    return 0;
}

/* Runs argv with stdout to out_path (or appended to log_path when NULL)
 * and stderr appended to log_path, at most timeout_s seconds (0: no limit),
 * with `env` (NAME=VALUE strings) added. Returns the wait status, or -1
 * when it could not start; *timed_out when it was killed for the time. */
static int run_tool_alone(char *const argv[], const char *out_path, const char *log_path, const char *const env[],
                          unsigned timeout_s, int *timed_out)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        setpgid(0, 0);
        int in = open("/dev/null", O_RDONLY);
        int log = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
        int out = out_path ? open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644) : log;
        if (in < 0 || log < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(log, 2) < 0)
            _exit(127);
        for (size_t i = 0; env && env[i]; i++) /* NAME=VALUE sets, a bare NAME unsets */
            if (strchr(env[i], '=') ? putenv((char *)env[i]) != 0 : unsetenv(env[i]) != 0)
                _exit(127);
        execv(argv[0], argv);
        dprintf(2, "wddmkit coverage: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int status = 0;
    if (timed_out)
        *timed_out = 0;
    for (;;) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            return status;
        if (r < 0 && errno != EINTR)
            return -1;
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (timeout_s && now.tv_sec - start.tv_sec >= (time_t)timeout_s) {
            kill(-pid, SIGKILL);
            waitpid(pid, &status, 0);
            if (timed_out)
                *timed_out = 1;
            return status;
        }
        struct timespec nap = { 0, 20 * 1000 * 1000 };
        nanosleep(&nap, NULL);
    }
}

/* run_tool_alone; then whatever the tool left running (a driver that
 * forked and called setsid(): `wddmkit coverage` is its child subreaper,
 * cli_coverage.c) is killed, since nothing else of ours runs meanwhile. */
static int run_tool(char *const argv[], const char *out_path, const char *log_path, const char *const env[],
                    unsigned timeout_s, int *timed_out)
{
    int status = run_tool_alone(argv, out_path, log_path, env, timeout_s, timed_out);
    wk_reap_descendants();
    return status;
}

static void print_log_tail(const char *path)
{
    char buf[2048];
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, size > (long)sizeof(buf) - 1 ? size - (long)sizeof(buf) + 1 : 0, SEEK_SET);
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    fprintf(stderr, "%s%s", buf, n && buf[n - 1] != '\n' ? "\n" : "");
}

/* ------------------------------------------------------------------ */
/* Running the inputs                                                   */
/* ------------------------------------------------------------------ */

struct run_totals {
    size_t ran, lost;
};

/* One replay process over files[first, first + n): its profile, or a note
 * saying which inputs lost theirs. */
static void run_batch(const char *replay, const struct file_list *l, size_t first, size_t n, const char *const env[],
                      const char *log, unsigned timeout_s, struct run_totals *t)
{
    char **argv = calloc(n + 2, sizeof(char *));
    if (!argv) {
        t->lost += n;
        return;
    }
    argv[0] = (char *)replay;
    for (size_t i = 0; i < n; i++)
        argv[i + 1] = l->paths[first + i];
    int timed_out = 0;
    int status = run_tool(argv, NULL, log, env, timeout_s, &timed_out);
    free(argv);
    /* The replay binary exits 0 when it read every file, whatever the
     * inputs found (WK_FUZZ_NO_ABORT), and 2 when a path could not be
     * read; anything else ended it before its profile was written. */
    if (status != -1 && WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 2)) {
        t->ran += n;
        return;
    }
    t->lost += n;
    if (timed_out)
        printf("note: inputs %zu to %zu (%s ...) ran past --timeout %u s and were stopped: their coverage is lost\n",
               first + 1, first + n, l->paths[first], timeout_s);
    else if (status != -1 && WIFSIGNALED(status))
        printf("note: inputs %zu to %zu (%s ...) ended the replay by signal %d: their coverage is lost "
               "(wddmkit triage finds which)\n",
               first + 1, first + n, l->paths[first], WTERMSIG(status));
    else if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) != 127)
        printf("note: inputs %zu to %zu (%s ...) ended the replay with exit status %d: their coverage may be lost "
               "(wddmkit triage finds which)\n",
               first + 1, first + n, l->paths[first], WEXITSTATUS(status));
    else
        printf("note: inputs %zu to %zu: the replay did not run (replay.log says why)\n", first + 1, first + n);
}

static size_t count_profiles(const char *dir)
{
    size_t count = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        count += n > 8 && strcmp(e->d_name + n - 8, ".profraw") == 0;
    }
    if (d)
        closedir(d);
    return count;
}

/* llvm-profdata merge -sparse OUT/profiles/... -o OUT/coverage.profdata */
static int merge_profiles(const char *profdata_tool, const char *out, const char *profiles, const char *log)
{
    struct file_list raw = { 0 };
    DIR *d = opendir(profiles);
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        char p[CPATH];
        if (n > 8 && strcmp(e->d_name + n - 8, ".profraw") == 0 && wk_path_join(p, sizeof(p), profiles, e->d_name) &&
            list_add(&raw, p) != 0)
            break;
    }
    if (d)
        closedir(d);
    char **argv = calloc(raw.count + 6, sizeof(char *));
    char merged[CPATH];
    int ok = argv && wk_path_join(merged, sizeof(merged), out, "coverage.profdata");
    if (ok) {
        size_t k = 0;
        argv[k++] = (char *)profdata_tool;
        argv[k++] = (char *)"merge";
        argv[k++] = (char *)"-sparse";
        argv[k++] = (char *)"-o";
        argv[k++] = merged;
        for (size_t i = 0; i < raw.count; i++)
            argv[k++] = raw.paths[i];
        int status = run_tool(argv, NULL, log, NULL, 0, NULL);
        ok = status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
    free(argv);
    list_free(&raw);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Reports                                                              */
/* ------------------------------------------------------------------ */

/* llvm-cov SUBCOMMAND OBJECT -instr-profile P [extra] [-ignore-filename-regex]
 * with stdout to out_path; 1 when it succeeded. */
static int run_llvm_cov(const char *tool, const char *sub, const char *object, const char *profdata,
                        const char *extra1, const char *extra2, int kit_files_out, const char *out_path,
                        const char *log)
{
    char *argv[12];
    size_t k = 0;
    argv[k++] = (char *)tool;
    argv[k++] = (char *)sub;
    argv[k++] = (char *)object;
    argv[k++] = (char *)"-instr-profile";
    argv[k++] = (char *)profdata;
    if (extra1)
        argv[k++] = (char *)extra1;
    if (extra2)
        argv[k++] = (char *)extra2;
    if (kit_files_out)
        argv[k++] = (char *)"-ignore-filename-regex=" KIT_FILES_REGEX;
    argv[k] = NULL;
    int status = run_tool(argv, out_path, log, NULL, 0, NULL);
    return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void print_never_run(const char *never_path, unsigned long total)
{
    FILE *never = fopen(never_path, "r");
    if (!never)
        return;
    printf("functions no input ran (%lu; all in %s):\n", total, never_path);
    char line[1024];
    unsigned long shown = 0;
    while (shown < NEVER_RUN_SHOWN && fgets(line, sizeof(line), never)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *tab = strchr(line, '\t');
        if (tab)
            *tab = '\0';
        printf("  %-40s %s\n", line, tab ? tab + 1 : "");
        shown++;
    }
    fclose(never);
    if (total > shown)
        printf("  ... and %lu more\n", total - shown);
}

/* Reads OUT/coverage.lcov (lcov_summary.c): a row per source file on
 * stdout, the functions no input ran into never_path, the first few on
 * stdout as well. */
static int summarize_lcov(const char *lcov_path, const char *never_path, struct wk_lcov_totals *s)
{
    FILE *f = fopen(lcov_path, "r"), *never = fopen(never_path, "w");
    int ok = f && never;
    if (ok) {
        printf("per file (lines run / lines, functions run / functions):\n");
        ok = wk_lcov_summarize(f, stdout, never, s) == 0;
    }
    if (f)
        fclose(f);
    if (never)
        fclose(never);
    if (ok && s->never_run)
        print_never_run(never_path, s->never_run);
    return ok;
}

/* ------------------------------------------------------------------ */
/* The command                                                          */
/* ------------------------------------------------------------------ */

/* Whether dir holds the kit's data (a checkout, an installed kit's
 * share/wddmkit): the default inputs are its corpus/NAME/. */
static int is_repo_dir(const char *dir)
{
    char p[CPATH];
    return wk_path_join(p, sizeof(p), dir, "corpus") && wk_path_is_dir(p);
}

/* The NAME_replay binary: --replay-dir, else (with a driver) this build's
 * (WK_REPLAY_DIR, ../fuzz beside wddmkit), else the coverage build's
 * (<builds>/coverage/fuzz: a checkout's build/coverage, an installed kit's
 * libexec/wddmkit/coverage). */
static int locate_replay(const struct wk_coverage_options *o, char *out, size_t cap)
{
    char dir[CPATH];
    if (o->replay_dir) {
        if (!wk_str_copy(dir, sizeof(dir), o->replay_dir))
            return 0;
    } else if (!o->driver) {
        if (!o->builds_dir) { /* no builds here at all: what a checkout would have */
            snprintf(out, cap, "build/coverage/fuzz/%s_replay", o->harness);
            return 0;
        }
        if (!wk_path_join(dir, sizeof(dir), o->builds_dir, "coverage/fuzz"))
            return 0;
    } else {
        return wk_fuzz_replay_binary(o->harness, out, cap) == 0;
    }
    return snprintf(out, cap, "%s/%s_replay", dir, o->harness) < (int)cap && access(out, X_OK) == 0;
}

/* locate_replay, with the path resolved for the messages. */
static int locate_replay_resolved(const struct wk_coverage_options *o, char *out, size_t cap)
{
    char found[CPATH] = "";
    if (!locate_replay(o, found, sizeof(found))) {
        snprintf(out, cap, "%s", found);
        return 0;
    }
    char real[PATH_MAX];
    snprintf(out, cap, "%s", realpath(found, real) ? real : found);
    return 1;
}

/* How a driver is built for coverage (docs/fuzz-your-driver.md, "Coverage of your
 * driver"): the GPU model's library too, whose encoder a driver for the
 * model calls (without it the module does not load: "undefined symbol:
 * wk_gpu_emit_write32"). Any build's libwk_gpu.a serves: the kit's code
 * is left out of the report. */
static void print_build_line(void)
{
    fprintf(stderr,
            "  clang -std=c11 -O1 -fPIC -shared -fvisibility=hidden -fprofile-instr-generate -fcoverage-mapping \\\n"
            "        -I<wddmkit>/include mydriver.c <wddmkit>/build/default/gpu-model/libwk_gpu.a \\\n"
            "        -Wl,--exclude-libs,ALL -o mydriver-cov.so\n");
}

/* Whether the driver module loads and exports DriverEntry, asked before
 * any input runs: every replay batch used to fail on it, one after the
 * other, and then the report said only that no profile was written. */
static int driver_loads(const struct wk_coverage_options *o, const char *driver)
{
    char why[1024];
    if (!o->driver_loads || o->driver_loads(driver, why, sizeof(why)))
        return 1;
    fprintf(stderr, "wddmkit coverage: --driver %s does not load: %s\n", driver, why);
    if (strstr(why, "undefined symbol: wk_")) {
        fprintf(stderr, "  the kit's code it calls must be linked into the module (wk_gpu_*, the GPU model's encoder:\n"
                        "  <wddmkit>/build/default/gpu-model/libwk_gpu.a), for example:\n");
        print_build_line();
    }
    return 0;
}

static int check_setup(const struct wk_coverage_options *o, const char *replay, const char *object)
{
    if (o->driver && !driver_loads(o, o->driver))
        return 0;
    int mapped = has_coverage_mapping(object);
    if (mapped < 0)
        return 0;
    if (mapped)
        return 1;
    if (o->driver) {
        fprintf(stderr,
                "wddmkit coverage: %s has no coverage mapping: build the driver with clang and\n"
                "  -fprofile-instr-generate -fcoverage-mapping (compile and link), for example:\n",
                o->driver);
        print_build_line();
    } else {
        fprintf(stderr,
                "wddmkit coverage: %s has no coverage mapping: the reference driver is measured in a\n"
                "  replay binary of the coverage preset (cmake --preset coverage && cmake --build --preset\n"
                "  coverage --target %s_replay), or give --driver a module built with coverage\n",
                replay, o->harness);
    }
    return 0;
}

static void replay_env(const struct wk_coverage_options *o, const char *profiles, char env_buf[3][CPATH + 32],
                       const char *env[4])
{
    snprintf(env_buf[0], CPATH + 32, "LLVM_PROFILE_FILE=%s/%%m-%%p.profraw", profiles);
    snprintf(env_buf[1], CPATH + 32, o->driver ? "WK_DRIVER=%s" : "WK_DRIVER", o->driver ? o->driver : "");
    snprintf(env_buf[2], CPATH + 32, "WK_FUZZ_NO_ABORT=1");
    env[0] = env_buf[0];
    env[1] = env_buf[1];
    env[2] = env_buf[2];
    env[3] = NULL;
}


struct keyed {
    uint64_t digest, size;
    size_t index;
};

static int by_key(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    if (x->digest != y->digest)
        return x->digest < y->digest ? -1 : 1;
    if (x->size != y->size)
        return x->size < y->size ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Drops inputs whose bytes an earlier one has (a campaign's corpus holds
 * the seeds it started from: they would run twice); keeps the order.
 * Returns how many were dropped. */
static size_t drop_duplicates(struct file_list *l)
{
    struct keyed *k = calloc(l->count ? l->count : 1, sizeof(*k));
    unsigned char *dup = calloc(l->count ? l->count : 1, 1);
    size_t dropped = 0;
    if (!k || !dup) {
        free(k);
        free(dup);
        return 0;
    }
    for (size_t i = 0; i < l->count; i++) {
        int ok = wk_fnv1a64_file(l->paths[i], &k[i].digest, &k[i].size);
        k[i].index = ok ? i : SIZE_MAX - i; /* unreadable: never equal to another */
    }
    qsort(k, l->count, sizeof(*k), by_key);
    for (size_t i = 1; i < l->count; i++)
        if (k[i].index < l->count && k[i - 1].index < l->count && k[i].digest == k[i - 1].digest &&
            k[i].size == k[i - 1].size)
            dup[k[i].index] = 1; /* sorted by index within a key: the first stays */
    size_t kept = 0;
    for (size_t i = 0; i < l->count; i++) {
        if (dup[i]) {
            free(l->paths[i]);
            dropped++;
        } else {
            l->paths[kept++] = l->paths[i];
        }
    }
    l->count = kept;
    free(k);
    free(dup);
    return dropped;
}

static int collect_inputs(const struct wk_coverage_options *o, const char *repo, struct file_list *l)
{
    int folders = 0;
    for (int i = 0; i < o->ninputs; i++) {
        if (!wk_path_is_dir(o->inputs[i]) && !wk_path_is_regular(o->inputs[i])) {
            fprintf(stderr, "wddmkit coverage: %s: %s\n", o->inputs[i], strerror(errno ? errno : ENOENT));
            return -1;
        }
        if (add_inputs(l, o->inputs[i]))
            return -1;
    }
    if (!o->ninputs && default_inputs(repo, o->harness, l, &folders))
        return -1;
    if (!l->count) {
        fprintf(stderr, "wddmkit coverage: no inputs%s\n",
                o->ninputs ? "" : " (no corpus/NAME/seeds or fuzz-out/NAME-* corpus here: name files or folders)");
        return -1;
    }
    size_t dropped = drop_duplicates(l);
    if (dropped)
        printf("inputs: %zu with the same bytes as another left out\n", dropped);
    return 0;
}

static int report(const struct wk_coverage_options *o, const char *cov_tool, const char *object, const char *out,
                  const char *log, struct wk_lcov_totals *s)
{
    char profdata[CPATH], lcov[CPATH], text[CPATH], html[CPATH], never[CPATH], html_dir[CPATH + 32];
    int kit_out = o->driver && !o->all_files;
    if (!wk_path_join(profdata, sizeof(profdata), out, "coverage.profdata") ||
        !wk_path_join(lcov, sizeof(lcov), out, "coverage.lcov") || !wk_path_join(text, sizeof(text), out, "report.txt") ||
        !wk_path_join(html, sizeof(html), out, "html") || !wk_path_join(never, sizeof(never), out, "never-run.txt"))
        return 0;
    if (!run_llvm_cov(cov_tool, "export", object, profdata, "-format=lcov", NULL, kit_out, lcov, log)) {
        fprintf(stderr, "wddmkit coverage: llvm-cov export failed on %s:\n", object);
        print_log_tail(log);
        return 0;
    }
    run_llvm_cov(cov_tool, "report", object, profdata, NULL, NULL, kit_out, text, log);
    snprintf(html_dir, sizeof(html_dir), "-output-dir=%s", html);
    int have_html = run_llvm_cov(cov_tool, "show", object, profdata, "-format=html", html_dir, kit_out, NULL, log);
    if (!summarize_lcov(lcov, never, s))
        return 0;
    printf("reports: %s, %s%s%s/index.html\n", text, lcov, have_html ? ", " : "", have_html ? html : "");
    return 1;
}

int wk_fuzz_coverage_run(const struct wk_coverage_options *o)
{
    char repo[CPATH] = "", replay[CPATH], out[CPATH], profiles[CPATH], log[CPATH];
    char profdata_tool[CPATH], cov_tool[CPATH];
    /* The kit's data: the caller's, else the working directory. */
    if (!(o->source_dir && is_repo_dir(o->source_dir) && realpath(o->source_dir, repo)) &&
        !(is_repo_dir(".") && realpath(".", repo)))
        repo[0] = '\0';
    if (!locate_replay_resolved(o, replay, sizeof(replay))) {
        fprintf(stderr, "wddmkit coverage: no replay binary %s_replay (looked for %s)\n", o->harness, replay);
        if (!o->driver)
            fprintf(stderr, "build it: cmake --preset coverage && cmake --build --preset coverage --target %s_replay\n",
                    o->harness);
        return 2;
    }
    if (!find_llvm_tool("WK_LLVM_PROFDATA", "llvm-profdata", profdata_tool, sizeof(profdata_tool)) ||
        !find_llvm_tool("WK_LLVM_COV", "llvm-cov", cov_tool, sizeof(cov_tool))) {
        fprintf(stderr, "wddmkit coverage: llvm-profdata and llvm-cov are not on PATH (Debian: apt-get install llvm)\n");
        return 2;
    }
    char driver[PATH_MAX];
    if (o->driver && !realpath(o->driver, driver)) { /* WK_DRIVER without a '/' would be a library search */
        fprintf(stderr, "wddmkit coverage: --driver %s: %s\n", o->driver, strerror(errno));
        return 2;
    }
    struct wk_coverage_options resolved = *o;
    resolved.driver = o->driver ? driver : NULL;
    o = &resolved;
    const char *object = o->driver ? o->driver : replay;
    if (!check_setup(o, replay, object))
        return 2;
    int out_fits = o->out ? snprintf(out, sizeof(out), "%s", o->out) < (int)sizeof(out)
                          : snprintf(out, sizeof(out), "fuzz-out/%s-coverage", o->harness) < (int)sizeof(out);
    if (!out_fits || !wk_path_join(profiles, sizeof(profiles), out, "profiles") || !wk_path_join(log, sizeof(log), out, "replay.log") ||
        wk_path_mkdir_p(profiles) != 0) {
        fprintf(stderr, "wddmkit coverage: cannot create %s/profiles: %s\n", out, strerror(errno));
        return 2;
    }
    clear_profiles(profiles);
    unlink(log);

    struct file_list inputs = { 0 };
    if (collect_inputs(o, repo[0] ? repo : NULL, &inputs)) {
        list_free(&inputs);
        return 2;
    }
    printf("coverage of %s by %zu %s input%s, replayed by %s\n", o->driver ? o->driver : "the reference driver and the kit",
           inputs.count, o->harness, inputs.count == 1 ? "" : "s", replay);
    char env_buf[3][CPATH + 32];
    const char *env[4];
    replay_env(o, profiles, env_buf, env);
    struct run_totals t = { 0, 0 };
    for (size_t first = 0; first < inputs.count; first += o->batch) {
        size_t n = inputs.count - first < o->batch ? inputs.count - first : o->batch;
        run_batch(replay, &inputs, first, n, env, log, o->timeout_s, &t);
    }
    list_free(&inputs);
    if (!count_profiles(profiles)) {
        fprintf(stderr, "wddmkit coverage: no profile was written (%s):\n", log);
        print_log_tail(log);
        return 2;
    }
    if (!merge_profiles(profdata_tool, out, profiles, log)) {
        fprintf(stderr, "wddmkit coverage: %s merge failed (a profile of another LLVM version? WK_LLVM_PROFDATA "
                        "names the tool matching the compiler):\n", profdata_tool);
        print_log_tail(log);
        return 2;
    }
    struct wk_lcov_totals s;
    if (!report(o, cov_tool, object, out, log, &s))
        return 2;
    double pct = s.lines ? 100.0 * (double)s.lines_hit / (double)s.lines : 0.0;
    printf("total: %.2f%% of lines (%lu/%lu), %lu/%lu functions, %lu file%s; %zu inputs ran", pct, s.lines_hit,
           s.lines, s.fns_hit, s.fns, s.files, s.files == 1 ? "" : "s", t.ran);
    if (t.lost)
        printf(", %zu lost (notes above)", t.lost);
    printf("\n");
    if (o->fail_under >= 0 && pct < o->fail_under) {
        printf("line coverage %.2f%% is below --fail-under %.2f%%\n", pct, o->fail_under);
        return 1;
    }
    return 0;
}
