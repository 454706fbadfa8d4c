/* SPDX-License-Identifier: MIT */
/*
 * cli_fuzz.c - `wddmkit fuzz`: a fuzzing campaign on one harness in one
 * command, with libFuzzer or AFL++ (docs/fuzz-your-driver.md).
 *
 * What it does, in order:
 *   1. finds the harness binary of the chosen engine (build/<engine>/fuzz/NAME
 *      by default; against a driver module, the first build that loads it
 *      of two, build_presets below) and, when it is missing, prints the
 *      cmake commands that build it;
 *   2. prepares the output folder (default fuzz-out/NAME-ENGINE/): corpus/
 *      seeded from corpus/NAME/{seeds,regressions}, crashes/ and logs/, and
 *      campaign.txt naming the harness and the driver (what `wddmkit triage`
 *      of crashes/ reads); with a driver module, the starting inputs that
 *      already crash it are left out (leave_out_crashing) and their
 *      signatures, with --ignore-signature's, passed to the harness to pass
 *      over (WK_FUZZ_IGNORE, pass_over_known), and a module without the
 *      engine's instrumentation is warned about;
 *   3. runs the engine with the dictionary (fuzz/NAME.dict), the seeds and
 *      the options (libFuzzer: -max_len, -timeout, -rss_limit_mb, -jobs and
 *      -workers; AFL++: one -M main and N-1 -S secondaries), each engine
 *      process in its own process group with its output in logs/, and the
 *      driver under test in WK_DRIVER, which every harness honours (and for
 *      AFL++ in AFL_PRELOAD too);
 *   4. prints progress every few seconds from libFuzzer's status lines or
 *      AFL++'s fuzzer_stats/plot_data files, and a summary at the end with
 *      the runs that hit a known signature and every new crash and its
 *      signature (through `wddmkit triage` when this build has it).
 * SIGINT/SIGTERM stop the engines (forwarded as SIGINT, then SIGKILL after a
 * grace period or a second Ctrl-C) and the summary is still printed.
 *
 * Exit codes: 0 no crash, 1 crashes found (new files in crashes/), 2 usage
 * or setup errors (including an engine that failed without finding
 * anything).
 *
 * Command lines and everything the engines write are untrusted: every path
 * is length-checked, logs are read through a fixed-size tail buffer,
 * numbers are parsed digit by digit, and no allocation depends on what an
 * engine printed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "cli.h"
#include "fuzz.h" /* wk_fuzz_signature, and what WK_FUZZ_IGNORE means */

#ifndef WK_FUZZ_REPO_DIR
#define WK_FUZZ_REPO_DIR "."
#endif

#define FPATH 4096                 /* every path we build */
#define MAX_JOBS 64u               /* engine processes / AFL++ instances */
#define MAX_EXTRA 64               /* engine arguments after `--` */
#define MAX_SEED_DIRS 8            /* --seeds options */
#define ARGV_SLOTS (32 + MAX_EXTRA)
#define ARGV_BYTES (48u << 10)     /* text of one engine command line */
#define TAIL_BYTES (64u << 10)     /* how much of a log we parse */
#define SEED_LIMIT (16ull << 20)   /* largest seed copied (replay_main's limit) */
#define PROGRESS_SECONDS 5
#define STOP_GRACE_SECONDS 15      /* SIGINT -> SIGKILL */
#define OVERRUN_SECONDS 120        /* beyond --time before we stop the engine */
#define MAX_SIGS 256               /* crash signatures remembered from logs */
#define MAX_LISTED 50              /* crash files listed in the summary */
#define PRUNE_HINT_INPUTS 5000u    /* a corpus this large gets the --prune hint */
#define MAX_KNOWN 64               /* known signatures passed to the harness (fuzz_driver.c's bound) */
#define SIG_TEXT 400               /* a signature (wk_fuzz_signature's, or a sanitizer's line) */

enum engine { ENGINE_LIBFUZZER, ENGINE_AFL };
static const char *const engine_names[] = { "libfuzzer", "afl" };

/* The harnesses of fuzz/ and the largest input each is fuzzed with (keep in
 * step with oss-fuzz/build.sh, which writes the same -max_len into
 * <harness>.options). Other names are accepted when their source or binary
 * exists, with a max_len of 4096. */
struct harness {
    const char *name;
    unsigned max_len;
};
static const struct harness known_harnesses[] = {
    { "fuzz_gpu_decode", 4096 }, { "fuzz_spec", 16384 }, { "fuzz_render", 4096 },
    { "fuzz_patch", 4096 },      { "fuzz_paging", 4096 }, { "fuzz_prog", 8192 },
    { "fuzz_cli", 4096 },        { "fuzz_hostile", 8192 }, { "fuzz_elf", 4096 },
};
#define KNOWN_COUNT (sizeof(known_harnesses) / sizeof(known_harnesses[0]))

struct fuzz_opts {
    const char *harness, *driver, *out, *build_dir;
    enum engine engine;
    uint64_t jobs, time, max_len, timeout, rss_limit;
    int max_len_set, dry_run, no_triage, prune, keep_seeds, stop_on_known;
    const char *seed_dirs[MAX_SEED_DIRS];
    int seed_dir_count;
    const char *ignore[MAX_KNOWN];   /* --ignore-signature */
    int ignore_count;
    char **extra;
    int extra_count;
};

/* One engine command line: argv pointers into a private text buffer. */
struct cmdline {
    char *argv[ARGV_SLOTS + 1];
    int argc, overflow;
    size_t used;
    char text[ARGV_BYTES];
};

struct proc {
    pid_t pid;
    int alive, status, reaped;
    char label[16];
    char log[FPATH];
};

/* What the engines reported, summed or maxed over their processes. */
struct stats {
    uint64_t runs, eps, cov, ft, corpus, crashes, hangs, total_edges;
    int have_runs, have_eps, have_cov, have_ft, have_total;
    uint64_t stability_pct100; /* AFL++ main instance, hundredths of a percent */
    int have_stability;
    uint64_t queue[MAX_JOBS];  /* AFL++: each instance's queue entries */
    unsigned queues;
};

/* A campaign in progress. */
struct campaign {
    struct fuzz_opts o;
    char repo[FPATH];
    int have_repo;
    unsigned max_len;
    char bin[FPATH], afl_fuzz[FPATH], driver[FPATH], dict[FPATH];
    char out[FPATH], corpus[FPATH], crashes[FPATH], logs[FPATH], afl_out[FPATH];
    struct proc procs[MAX_JOBS];
    unsigned nprocs;
    /* Signatures the harness passes over (WK_FUZZ_IGNORE): those of the
     * starting inputs left out as already crashing, then --ignore-signature
     * and the environment's; their hit counters (WK_FUZZ_IGNORE_COUNTS). */
    char known[MAX_KNOWN][SIG_TEXT];
    unsigned nknown;
    char known_counts[FPATH];
    time_t start;
    double start_mono;
    int interrupted, overran, killed;
};

static volatile sig_atomic_t g_interrupts;

static void on_signal(int sig)
{
    (void)sig;
    if (g_interrupts < 100)
        g_interrupts++;
}

/* ------------------------------------------------------------------ */
/* Small helpers                                                        */
/* ------------------------------------------------------------------ */

static void usage(FILE *out)
{
    fputs("usage: wddmkit fuzz --harness NAME [options] [-- ENGINE-ARGS...]\n"
          "\n"
          "  --harness NAME      fuzz_gpu_decode, fuzz_spec, fuzz_render, fuzz_patch, fuzz_paging, fuzz_prog,\n"
          "                      fuzz_cli, fuzz_hostile (the kit against answers the input corrupts), fuzz_elf\n"
          "  --engine E          libfuzzer (default) or afl (AFL++)\n"
          "  --driver PATH       the driver under test, a shared object (passed as WK_DRIVER;\n"
          "                      default: the reference driver built into the harness)\n"
          "  -j, --jobs N        engine processes: libFuzzer -jobs/-workers, AFL++ 1 main + N-1 secondaries\n"
          "                      (default 1, at most 64)\n"
          "  --time S            stop after S seconds (default 0: until a crash (libFuzzer) or Ctrl-C)\n"
          "  --out DIR           output folder (default fuzz-out/NAME-ENGINE): corpus/ crashes/ logs/\n"
          "  --seeds DIR         more starting inputs: DIR/NAME/seeds when it exists (a corpus folder,\n"
          "                      as `wddmkit corpus seed --out DIR` writes from your specs), else DIR\n"
          "                      itself; up to 8 times, added to the repository's seeds and regressions\n"
          "  --build-dir DIR     where the harness binary is (DIR/fuzz/NAME or DIR/NAME;\n"
          "                      default build/libfuzzer or build/afl of the repository; with a driver\n"
          "                      module, the first build that loads it of build/libfuzzer-driver (ASan\n"
          "                      + UBSan on the driver, not on the kit's checks: inputs cost up to half\n"
          "                      as much) and build/libfuzzer, or of build/afl and build/afl-driver)\n"
          "  --max-len N         largest input in bytes (default: the harness's, 4096 for most)\n"
          "  --timeout S         seconds one input may run before it is a finding (default 10)\n"
          "  --rss-limit MB      libFuzzer memory limit (default 2048; 0: none)\n"
          "  --no-triage         list crashes with the signatures from the engine's logs instead of\n"
          "                      running `wddmkit triage` on them (which replays every file)\n"
          "  --prune             instead of fuzzing, shrink the output folder's corpus/ to the inputs\n"
          "                      that keep its coverage (libFuzzer's -merge=1; AFL++'s afl-cmin over\n"
          "                      corpus/ and every instance's queue, after which the next campaign\n"
          "                      starts from it: afl/ becomes afl.before-prune/); the old corpus is\n"
          "                      kept when the merge fails or is stopped\n"
          "  --keep-crashing-seeds\n"
          "                      start from every starting input. By default, with a driver module, the\n"
          "                      seeds, regressions and --seeds inputs are replayed against it first, and\n"
          "                      those that already crash or hang it are left out of corpus/, each named\n"
          "                      with its signature (libFuzzer stops at its first crash)\n"
          "  --ignore-signature SIG\n"
          "                      a known finding not to stop at: an input with this signature (as\n"
          "                      `wddmkit repro` prints it) is counted, not a crash, so the engines go\n"
          "                      on looking for other bugs; up to 64 times. The signatures of the starting\n"
          "                      inputs left out as already crashing are passed over the same way\n"
          "  --stop-on-known     do not pass over those left-out signatures (--ignore-signature still is)\n"
          "  --dry-run           print what would run, create nothing\n"
          "  -- ARGS...          passed to the engine unchanged (libFuzzer flags, afl-fuzz options)\n"
          "\n"
          "exit: 0 no crash, 1 crashes found, 2 usage or setup error\n",
          out);
}

static int parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    if (!s || !*s)
        goto bad;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9' || v > (UINT64_MAX - 9) / 10)
            goto bad;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    if (v < min || v > max)
        goto bad;
    *out = v;
    return 1;
bad:
    fprintf(stderr, "wddmkit fuzz: %s: expected a whole number from %llu to %llu, saw '%s'\n", opt,
            (unsigned long long)min, (unsigned long long)max, s ? s : "");
    return 0;
}




static int safe_name(const char *s)
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

/* Folders of inputs may hold notes beside them (replay_main.c's rule). */
static int is_input_name(const char *name)
{
    size_t n = strlen(name);
    if (name[0] == '.' || strncmp(name, "README", 6) == 0)
        return 0;
    return !(n >= 3 && strcmp(name + n - 3, ".md") == 0);
}

static int is_finding_name(const char *name)
{
    return is_input_name(name) && strncmp(name, "slow-unit-", 10) != 0;
}




/* Reads digits at p (up to end); 0 when there are none. Saturates. */
static int read_num(const char *p, const char *end, uint64_t *out)
{
    uint64_t v = 0;
    const char *start = p;
    while (p < end && *p >= '0' && *p <= '9') {
        v = v > (UINT64_MAX - 9) / 10 ? UINT64_MAX : v * 10 + (uint64_t)(*p - '0');
        p++;
    }
    if (p == start)
        return 0;
    *out = v;
    return 1;
}

/* The number after `key` in [line, end), if the key is there. */
static int num_after(const char *line, const char *end, const char *key, uint64_t *out)
{
    size_t klen = strlen(key);
    const char *k = memmem(line, (size_t)(end - line), key, klen);
    if (!k)
        return 0;
    const char *p = k + klen;
    while (p < end && *p == ' ')
        p++;
    return read_num(p, end, out);
}




/* Runs argv (argv[0] a path) and captures what it prints, stdout and
 * stderr, the first cap - 1 bytes, into text. Returns the wait status, -1
 * when it did not run. */
static int capture(const char *const argv[], char *text, size_t cap)
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

/* ------------------------------------------------------------------ */
/* Command lines                                                        */
/* ------------------------------------------------------------------ */

__attribute__((format(printf, 2, 3))) static void arg(struct cmdline *c, const char *fmt, ...)
{
    if (c->argc >= ARGV_SLOTS) {
        c->overflow = 1;
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(c->text + c->used, sizeof(c->text) - c->used, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof(c->text) - c->used) {
        c->overflow = 1;
        return;
    }
    c->argv[c->argc++] = c->text + c->used;
    c->argv[c->argc] = NULL;
    c->used += (size_t)n + 1;
}

/* Prints a command line the way a shell would take it back. */
static void print_command(FILE *f, const char *prefix, char *const argv[])
{
    fputs(prefix, f);
    for (int i = 0; argv[i]; i++) {
        const char *a = argv[i];
        int plain = *a != '\0';
        for (const char *p = a; *p && plain; p++)
            plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%", *p) != NULL;
        if (i)
            fputc(' ', f);
        if (plain) {
            fputs(a, f);
        } else {
            fputc('\'', f);
            for (const char *p = a; *p; p++)
                *p == '\'' ? fputs("'\\''", f) : fputc(*p, f);
            fputc('\'', f);
        }
    }
    fputc('\n', f);
}

/* An engine option the user gave after `--` (its name with the '='). */
static int extra_has(const struct fuzz_opts *o, const char *name)
{
    for (int i = 0; i < o->extra_count; i++)
        if (strncmp(o->extra[i], name, strlen(name)) == 0)
            return 1;
    return 0;
}

static void build_libfuzzer(const struct campaign *c, struct cmdline *cl)
{
    const struct fuzz_opts *o = &c->o;
    arg(cl, "%s", c->bin);
    arg(cl, "-artifact_prefix=%s/", c->crashes);
    arg(cl, "-max_len=%u", c->max_len);
    arg(cl, "-timeout=%llu", (unsigned long long)o->timeout);
    arg(cl, "-rss_limit_mb=%llu", (unsigned long long)o->rss_limit);
    arg(cl, "-print_final_stats=1");
    if (c->dict[0])
        arg(cl, "-dict=%s", c->dict);
    if (o->time)
        arg(cl, "-max_total_time=%llu", (unsigned long long)o->time);
    if (o->jobs > 1) {
        arg(cl, "-jobs=%llu", (unsigned long long)o->jobs);
        arg(cl, "-workers=%llu", (unsigned long long)o->jobs);
    }
    if (strcmp(o->harness, "fuzz_hostile") == 0 && !extra_has(o, "-detect_leaks="))
        arg(cl, "-detect_leaks=0"); /* the harness's leak gate decides (fuzz/leak_gate.h) */
    for (int i = 0; i < o->extra_count; i++)
        arg(cl, "%s", o->extra[i]);
    arg(cl, "%s", c->corpus);
}

static void build_afl(const struct campaign *c, unsigned instance, struct cmdline *cl)
{
    const struct fuzz_opts *o = &c->o;
    arg(cl, "%s", c->afl_fuzz);
    arg(cl, "-i");
    arg(cl, "%s", c->corpus);
    arg(cl, "-o");
    arg(cl, "%s", c->afl_out);
    if (instance == 0) {
        arg(cl, "-M");
        arg(cl, "main");
    } else {
        arg(cl, "-S");
        arg(cl, "s%u", instance);
    }
    arg(cl, "-t");
    arg(cl, "%llu", (unsigned long long)(o->timeout * 1000));
    arg(cl, "-G");
    arg(cl, "%u", c->max_len);
    if (c->dict[0]) {
        arg(cl, "-x");
        arg(cl, "%s", c->dict);
    }
    if (o->time) {
        arg(cl, "-V");
        arg(cl, "%llu", (unsigned long long)o->time);
    }
    for (int i = 0; i < o->extra_count; i++)
        arg(cl, "%s", o->extra[i]);
    arg(cl, "--");
    arg(cl, "%s", c->bin);
}

/* ------------------------------------------------------------------ */
/* Options                                                              */
/* ------------------------------------------------------------------ */

static int parse_args(int argc, char **argv, struct fuzz_opts *o, int *help)
{
    static const char *const with_value[] = { "--harness",   "--engine", "--driver",    "--jobs",
                                              "-j",          "--time",   "--out",       "--build-dir",
                                              "--max-len",   "--timeout", "--rss-limit", "--seeds",
                                              "--ignore-signature" };
    memset(o, 0, sizeof(*o));
    o->jobs = 1;
    o->timeout = 10;
    o->rss_limit = 2048;
    o->engine = ENGINE_LIBFUZZER;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            o->extra = argv + i + 1;
            o->extra_count = argc - i - 1;
            if (o->extra_count > MAX_EXTRA) {
                fprintf(stderr, "wddmkit fuzz: at most %d engine arguments after '--'\n", MAX_EXTRA);
                return 0;
            }
            break;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            *help = 1;
            return 1;
        }
        if (strcmp(a, "--dry-run") == 0) {
            o->dry_run = 1;
            continue;
        }
        if (strcmp(a, "--no-triage") == 0) {
            o->no_triage = 1;
            continue;
        }
        if (strcmp(a, "--prune") == 0) {
            o->prune = 1;
            continue;
        }
        if (strcmp(a, "--keep-crashing-seeds") == 0) {
            o->keep_seeds = 1;
            continue;
        }
        if (strcmp(a, "--stop-on-known") == 0) {
            o->stop_on_known = 1;
            continue;
        }
        const char *name = NULL, *value = NULL;
        for (size_t k = 0; k < sizeof(with_value) / sizeof(with_value[0]); k++) {
            size_t n = strlen(with_value[k]);
            if (strcmp(a, with_value[k]) == 0) {
                if (i + 1 >= argc) {
                    fprintf(stderr, "wddmkit fuzz: %s needs a value\n", a);
                    return 0;
                }
                name = with_value[k];
                value = argv[++i];
                break;
            }
            if (strncmp(a, with_value[k], n) == 0 && a[n] == '=' && with_value[k][1] == '-') {
                name = with_value[k];
                value = a + n + 1;
                break;
            }
        }
        if (!name) {
            fprintf(stderr, "wddmkit fuzz: unknown option '%s' (try 'wddmkit fuzz --help')\n", a);
            return 0;
        }
        if (strcmp(name, "--harness") == 0) {
            o->harness = value;
        } else if (strcmp(name, "--engine") == 0) {
            if (strcmp(value, "libfuzzer") == 0) {
                o->engine = ENGINE_LIBFUZZER;
            } else if (strcmp(value, "afl") == 0 || strcmp(value, "afl++") == 0) {
                o->engine = ENGINE_AFL;
            } else {
                fprintf(stderr, "wddmkit fuzz: --engine: expected libfuzzer or afl, saw '%s'\n", value);
                return 0;
            }
        } else if (strcmp(name, "--driver") == 0) {
            o->driver = value;
        } else if (strcmp(name, "--jobs") == 0 || strcmp(name, "-j") == 0) {
            if (!parse_u64(name, value, 1, MAX_JOBS, &o->jobs))
                return 0;
        } else if (strcmp(name, "--time") == 0) {
            if (!parse_u64(name, value, 0, 366ull * 24 * 3600, &o->time))
                return 0;
        } else if (strcmp(name, "--out") == 0) {
            o->out = value;
        } else if (strcmp(name, "--build-dir") == 0) {
            o->build_dir = value;
        } else if (strcmp(name, "--max-len") == 0) {
            if (!parse_u64(name, value, 1, 16u << 20, &o->max_len))
                return 0;
            o->max_len_set = 1;
        } else if (strcmp(name, "--timeout") == 0) {
            if (!parse_u64(name, value, 1, 3600, &o->timeout))
                return 0;
        } else if (strcmp(name, "--rss-limit") == 0) {
            if (!parse_u64(name, value, 0, 1u << 20, &o->rss_limit))
                return 0;
        } else if (strcmp(name, "--seeds") == 0) {
            if (o->seed_dir_count == MAX_SEED_DIRS) {
                fprintf(stderr, "wddmkit fuzz: --seeds: at most %d folders\n", MAX_SEED_DIRS);
                return 0;
            }
            o->seed_dirs[o->seed_dir_count++] = value;
        } else if (strcmp(name, "--ignore-signature") == 0) {
            if (o->ignore_count == MAX_KNOWN) {
                fprintf(stderr, "wddmkit fuzz: --ignore-signature: at most %d signatures\n", MAX_KNOWN);
                return 0;
            }
            if (strpbrk(value, ";\n") || strlen(value) >= SIG_TEXT) {
                fprintf(stderr, "wddmkit fuzz: --ignore-signature: '%.60s' cannot be a signature (one line, no ';', "
                                "under %d characters)\n", value, SIG_TEXT);
                return 0;
            }
            o->ignore[o->ignore_count++] = value;
        }
        if (!*value) {
            fprintf(stderr, "wddmkit fuzz: %s: empty value\n", name);
            return 0;
        }
    }
    if (!o->harness) {
        fprintf(stderr, "wddmkit fuzz: --harness NAME is required\n");
        return 0;
    }
    for (int i = 0; i < o->seed_dir_count; i++)
        if (!wk_path_is_dir(o->seed_dirs[i])) {
            fprintf(stderr, "wddmkit fuzz: --seeds: '%s' is not a folder\n", o->seed_dirs[i]);
            return 0;
        }
    if (!safe_name(o->harness)) {
        fprintf(stderr, "wddmkit fuzz: --harness: '%s' is not a harness name (letters, digits, '_' and '-')\n",
                o->harness);
        return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------ */
/* Setup                                                                */
/* ------------------------------------------------------------------ */

static int is_repo(const char *dir)
{
    char p[FPATH];
    return wk_path_join(p, sizeof(p), dir, "harnesses/CMakeLists.txt") && wk_path_is_regular(p);
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
    const char *e = engine_names[c->o.engine];
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
    int st = capture(argv, text, sizeof(text));
    if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return 1;
    check_reason(text, st, why, cap);
    return 0;
}

static void print_build_hint(const struct campaign *c)
{
    const char *e = hinted_preset(c);
    const char *h = c->o.harness;
    fprintf(stderr, "build it with:\n");
    if (!c->o.build_dir) {
        if (c->have_repo)
            fprintf(stderr, "  cd %s\n", c->repo);
        fprintf(stderr, "  cmake --preset %s && cmake --build --preset %s --target %s\n", e, e, h);
    } else if (c->o.engine == ENGINE_LIBFUZZER) {
        fprintf(stderr,
                "  cmake -S %s -B %s -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \\\n"
                "        -DCMAKE_CXX_COMPILER=clang++ -DWK_SANITIZE=address,undefined -DWK_FUZZ_ENGINE=libfuzzer \\\n"
                "        -DWK_BUILD_BENCH=OFF\n"
                "  cmake --build %s --target %s\n",
                c->have_repo ? c->repo : "<repo>", c->o.build_dir, c->o.build_dir, h);
    } else {
        fprintf(stderr,
                "  cmake -S %s -B %s -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=afl-clang-fast \\\n"
                "        -DCMAKE_CXX_COMPILER=afl-clang-fast++ -DWK_FUZZ_ENGINE=afl -DWK_BUILD_BENCH=OFF\n"
                "  cmake --build %s --target %s\n",
                c->have_repo ? c->repo : "<repo>", c->o.build_dir, c->o.build_dir, h);
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
        snprintf(sub, sizeof(sub), "build/%s/fuzz/%s", presets[p], h);
        if (c->have_repo)
            add_candidate(cs, c->repo, sub, presets[p]);
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
    const char *e = engine_names[c->o.engine];
    char exe[FPATH];
    int runtime = 0;
    fprintf(stderr, "wddmkit fuzz: no %s build here loads the driver module %s:\n", e, driver_module(c));
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
    const char *e = engine_names[c->o.engine], *h = c->o.harness;
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
static int locate_binary(struct campaign *c)
{
    static struct candidates cs;
    list_candidates(c, &cs);
    int refused = 0;
    for (int i = 0; i < cs.n; i++) {
        struct candidate *k = &cs.k[i];
        if (!wk_path_is_executable(k->path) || seen_before(&cs, i))
            continue;
        k->tried = 1;
        if (!c->o.build_dir && !build_loads_driver(c, k->path, k->why, sizeof(k->why))) {
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
static int check_binary_engine(const struct campaign *c)
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


/* Copies the inputs of src into dst (names prefixed), never overwriting.
 * Returns how many were copied; -1 on a write error. */
static long seed_from(const char *src, const char *dst, const char *prefix)
{
    DIR *d = opendir(src);
    if (!d)
        return 0;
    long copied = 0;
    for (struct dirent *e; (e = readdir(d));) {
        char from[FPATH], to[FPATH], name[512];
        if (!is_input_name(e->d_name) || snprintf(name, sizeof(name), "%s%s", prefix, e->d_name) >= (int)sizeof(name))
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
static uint64_t count_files(const char *dir, time_t since)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    uint64_t n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        char p[FPATH];
        struct stat st;
        if (!is_finding_name(e->d_name) || !wk_path_join(p, sizeof(p), dir, e->d_name))
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

/* Where the starting inputs come from, and the prefix their copies in
 * corpus/ get: the repository's seeds and regressions, each --seeds
 * folder (folders may hold files of the same name). */
#define MAX_SOURCES (2 + MAX_SEED_DIRS)
struct seed_source {
    char dir[FPATH];
    char prefix[16];
};

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
        copied[i] = seed_from(src[i].dir, c->corpus, src[i].prefix);
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

static void leave_out_crashing(struct campaign *c, const struct seed_source *src, int n);
static int add_known(struct campaign *c, const char *sig, const char *from);
static void write_campaign_file(const struct campaign *c);

static int make_output_dirs(struct campaign *c)
{
    char want[FPATH];
    int fits = c->o.out ? wk_str_copy(want, sizeof(want), c->o.out)
                        : snprintf(want, sizeof(want), "fuzz-out/%s-%s", c->o.harness, engine_names[c->o.engine]) <
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

static int prepare_output(struct campaign *c)
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
    leave_out_crashing(c, src, nsrc);
    uint64_t have = count_files(c->corpus, 0);
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

/* The signatures the harness passes over (fuzz_driver.h, WK_FUZZ_IGNORE):
 * those of the starting inputs left out as already crashing (already in
 * c->known), then --ignore-signature and the environment's WK_FUZZ_IGNORE;
 * one line names them. Their hit counters go to logs/known-signatures
 * (8 bytes each, zero now), which the harness maps shared and the summary
 * reads. 0 after an error. */
static int pass_over_known(struct campaign *c)
{
    for (int i = 0; i < c->o.ignore_count; i++)
        add_known(c, c->o.ignore[i], "--ignore-signature");
    const char *env = getenv("WK_FUZZ_IGNORE");
    for (const char *at = env; at && *at;) {
        char one[SIG_TEXT];
        size_t n = strcspn(at, ";\n"), lead = strspn(at, " \t");
        size_t len = n > lead ? n - lead : 0;
        while (len && (at[lead + len - 1] == ' ' || at[lead + len - 1] == '\t' || at[lead + len - 1] == '\r'))
            len--;
        if (len && len < sizeof(one)) {
            snprintf(one, sizeof(one), "%.*s", (int)len, at + lead);
            add_known(c, one, "WK_FUZZ_IGNORE's");
        }
        at += n + (at[n] != '\0');
    }
    unsetenv("WK_FUZZ_IGNORE");
    unsetenv("WK_FUZZ_IGNORE_COUNTS");
    if (!c->nknown)
        return 1;
    printf("%s %u known signature%s: ", c->o.dry_run ? "would ignore" : "ignoring", c->nknown,
           c->nknown == 1 ? "" : "s");
    for (unsigned i = 0; i < c->nknown; i++)
        printf("%s%s", i ? "; " : "", c->known[i]);
    printf("\n  (an input with one of them is counted, not a crash%s)\n",
           c->o.stop_on_known ? "" : "; --stop-on-known stops at those of the left-out inputs");
    if (c->o.dry_run)
        return 1;
    static char list[MAX_KNOWN * (SIG_TEXT + 1)];
    size_t at = 0;
    for (unsigned i = 0; i < c->nknown; i++)
        at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s", i ? ";" : "", c->known[i]);
    static const uint8_t zeros[MAX_KNOWN * 8];
    int fd = wk_path_join(c->known_counts, sizeof(c->known_counts), c->logs, "known-signatures")
                 ? open(c->known_counts, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)
                 : -1;
    size_t bytes = (size_t)c->nknown * 8;
    int ok = fd >= 0 && write(fd, zeros, bytes) == (ssize_t)bytes;
    if (fd >= 0 && close(fd) != 0)
        ok = 0;
    if (!ok) {
        fprintf(stderr, "wddmkit fuzz: cannot write %s: %s\n", c->known_counts, strerror(errno));
        c->known_counts[0] = '\0';
        return 0;
    }
    setenv("WK_FUZZ_IGNORE", list, 1);
    setenv("WK_FUZZ_IGNORE_COUNTS", c->known_counts, 1);
    return 1;
}

/* How many runs hit each known signature (the harness's counters); the
 * summary line. */
static void print_known_hits(const struct campaign *c)
{
    uint64_t hits[MAX_KNOWN] = { 0 }, total = 0;
    char a[40];
    int fd = c->known_counts[0] ? open(c->known_counts, O_RDONLY | O_CLOEXEC) : -1;
    if (fd >= 0) {
        ssize_t got = read(fd, hits, (size_t)c->nknown * 8);
        close(fd);
        if (got < 0)
            memset(hits, 0, sizeof(hits));
    }
    for (unsigned i = 0; i < c->nknown; i++)
        total += hits[i];
    printf("  known     %s run%s hit an ignored signature%s", wk_str_grouped(total, a, sizeof(a)), total == 1 ? "" : "s",
           total ? ":" : "");
    for (unsigned i = 0; i < c->nknown && total; i++)
        if (hits[i])
            printf("\n              %s  %s", wk_str_grouped(hits[i], a, sizeof(a)), c->known[i]);
    printf("\n");
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
    fprintf(f, "harness: %s\nengine: %s\nbinary: %s\n", c->o.harness, engine_names[c->o.engine], c->bin);
    char real[PATH_MAX];
    if (c->driver[0]) /* absolute: triage may run from anywhere */
        fprintf(f, "driver: %s\n", realpath(c->driver, real) ? real : c->driver);
    if (fclose(f) != 0)
        fprintf(stderr, "wddmkit fuzz: note: cannot write %s: %s\n", path, strerror(errno));
}

/* A driver module without the engine's instrumentation: its edges are not
 * in the engine's map, so the campaign cannot see into the driver, only
 * into the kit around it. The libFuzzer harness said so only in
 * logs/fuzz-0.log, and AFL++ not at all (one such campaign ran at 363 of
 * 5,218 edges, none of them the driver's). The module's file names the
 * hooks its instrumentation calls: __sanitizer_cov_8bit_counters_init
 * (clang -fsanitize=fuzzer-no-link), __afl_area_ptr or
 * __sanitizer_cov_trace_pc_guard (afl-clang-fast). */
static void warn_uninstrumented(const struct campaign *c)
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

/* The driver module preloaded into AFL++'s targets (AFL_PRELOAD, ahead of
 * any the user set). afl-showmap, which afl-cmin runs, does not look for
 * the harness's deferred fork server: it starts the server before
 * LLVMFuzzerInitialize loads WK_DRIVER, and an afl-clang-fast module
 * loaded after that ends the process ("forkserver is already up, but an
 * instrumented dlopen() library loaded afterwards"), so every --prune with
 * a driver failed with "no instrumentation output". Preloaded, the module
 * is in the map before any server starts, for afl-fuzz and afl-cmin
 * alike; the harness then finds it loaded. */
static int afl_preload_driver(const struct campaign *c)
{
    char real[PATH_MAX], value[FPATH + 4096];
    if (!c->driver[0])
        return 1;
    if (!realpath(c->driver, real)) { /* a bare name would be a library search */
        fprintf(stderr, "wddmkit fuzz: %s: %s\n", c->driver, strerror(errno));
        return 0;
    }
    const char *was = getenv("AFL_PRELOAD");
    if (snprintf(value, sizeof(value), "%s%s%s", real, was && *was ? ":" : "", was && *was ? was : "") >=
        (int)sizeof(value)) {
        fprintf(stderr, "wddmkit fuzz: AFL_PRELOAD is too long\n");
        return 0;
    }
    setenv("AFL_PRELOAD", value, 1);
    return 1;
}

/* AFL++ and the structure-aware mutator of fuzz_prog, fuzz_hostile and
 * fuzz_render (fuzz/prog_mutator.c): afl-fuzz loads it from a shared library that is
 * built uninstrumented (default or clang preset). Used when built and the
 * user did not choose a mutator library already. */
static void use_afl_mutator(const struct campaign *c)
{
    const char *format = strcmp(c->o.harness, "fuzz_prog") == 0      ? "prog"
                         : strcmp(c->o.harness, "fuzz_hostile") == 0 ? "hostile"
                         : strcmp(c->o.harness, "fuzz_render") == 0  ? "render"
                                                                     : NULL;
    if (!format || !c->have_repo)
        return;
    if (getenv("AFL_CUSTOM_MUTATOR_LIBRARY")) {
        printf("mutator: %s (AFL_CUSTOM_MUTATOR_LIBRARY from the environment)\n", getenv("AFL_CUSTOM_MUTATOR_LIBRARY"));
        return;
    }
    static const char *const presets[] = { "build/default/fuzz/libwk_afl_prog_mutator.so",
                                           "build/clang/fuzz/libwk_afl_prog_mutator.so" };
    for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
        char p[FPATH];
        if (wk_path_join(p, sizeof(p), c->repo, presets[i]) && wk_path_is_regular(p)) {
            setenv("AFL_CUSTOM_MUTATOR_LIBRARY", p, 1);
            setenv("WK_MUTATOR", format, 1);
            printf("mutator: %s (WK_MUTATOR=%s, structure-aware)\n", p, format);
            return;
        }
    }
    printf("mutator: AFL++'s own (the structure-aware one is built by\n"
           "         cmake --build --preset default --target wk_afl_prog_mutator)\n");
}

/* ------------------------------------------------------------------ */
/* Engine processes                                                     */
/* ------------------------------------------------------------------ */

static int spawn(struct campaign *c, struct cmdline *cl, const char *cwd, const char *label, const char *logname)
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

static void signal_all(struct campaign *c, int sig)
{
    for (unsigned i = 0; i < c->nprocs; i++)
        if (c->procs[i].alive && !c->procs[i].reaped)
            kill(-c->procs[i].pid, sig); /* the group: libFuzzer's job workers, AFL++'s target */
}

/* Reaps engines that exited. Before reaping (the exited leader still holds
 * its group id), stragglers in its group are killed. */
static unsigned reap(struct campaign *c)
{
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

/* ------------------------------------------------------------------ */
/* Reading the engines' statistics                                      */
/* ------------------------------------------------------------------ */

static char g_tail[TAIL_BYTES];

/* libFuzzer: "#N\tNEW cov: C ft: F corp: K/..b ... exec/s: E ..." status
 * lines, and the final "stat::" lines of -print_final_stats. */
static void parse_libfuzzer_log(const char *path, struct stats *s, int *final_eps_missing)
{
    long len = wk_file_tail(path, g_tail, sizeof(g_tail));
    if (len < 0) {
        *final_eps_missing = 1;
        return;
    }
    uint64_t runs = 0, eps = 0, cov = 0, ft = 0, units = 0, avg = 0;
    int have_status = 0, have_units = 0, have_avg = 0;
    for (char *line = g_tail, *end; line < g_tail + len; line = end + 1) {
        end = memchr(line, '\n', (size_t)(g_tail + len - line));
        if (!end)
            end = g_tail + len;
        uint64_t v;
        if (line[0] == '#' && read_num(line + 1, end, &v)) {
            runs = v > runs ? v : runs;
            uint64_t x;
            if (num_after(line, end, "cov:", &x)) {
                cov = x;
                have_status = 1;
            }
            if (num_after(line, end, "ft:", &x))
                ft = x;
            if (num_after(line, end, "exec/s:", &x))
                eps = x;
        } else if (num_after(line, end, "stat::number_of_executed_units:", &v)) {
            units = v;
            have_units = 1;
        } else if (num_after(line, end, "stat::average_exec_per_sec:", &v)) {
            avg = v;
            have_avg = 1;
        } else if (end - line > 5 && memcmp(line, "Done ", 5) == 0 && read_num(line + 5, end, &v)) {
            runs = v > runs ? v : runs;
        }
    }
    if (have_units && units > runs)
        runs = units;
    s->runs += runs;
    s->have_runs = 1;
    if (have_status || have_avg) {
        s->eps += have_avg ? avg : eps;
        s->have_eps = 1;
    }
    if (!have_avg)
        *final_eps_missing = 1;
    if (have_status) {
        s->cov = cov > s->cov ? cov : s->cov;
        s->ft = ft > s->ft ? ft : s->ft;
        s->have_cov = s->have_ft = 1;
    }
}

static void libfuzzer_stats(const struct campaign *c, struct stats *s, int final)
{
    memset(s, 0, sizeof(*s));
    int missing = 0;
    for (uint64_t j = 0; j < c->o.jobs; j++) {
        char p[FPATH], name[64];
        snprintf(name, sizeof(name), "fuzz-%llu.log", (unsigned long long)j);
        if (wk_path_join(p, sizeof(p), c->logs, name))
            parse_libfuzzer_log(p, s, &missing);
    }
    double elapsed = wk_now_seconds() - c->start_mono;
    if (final && missing && elapsed >= 0.5) { /* a crashed job prints no final stats: average over the run */
        s->eps = (uint64_t)((double)s->runs / elapsed);
        s->have_eps = 1;
    }
    s->corpus = count_files(c->corpus, 0);
    s->crashes = count_files(c->crashes, c->start);
}

/* A "key : value" line of fuzzer_stats. */
static int stats_value(const char *text, const char *key, uint64_t *out)
{
    size_t klen = strlen(key);
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        if (!end)
            end = line + strlen(line);
        if ((size_t)(end - line) > klen && memcmp(line, key, klen) == 0 && (line[klen] == ' ' || line[klen] == ':')) {
            const char *p = line + klen;
            while (p < end && (*p == ' ' || *p == ':'))
                p++;
            return read_num(p, end, out);
        }
        line = *end ? end + 1 : end;
    }
    return 0;
}

/* AFL++'s fuzzer_stats of one instance, if written by the process we ran.
 * The file is rewritten about once a minute: while the engine runs, its
 * counters are used only when fresh (`live_max_age` seconds). */
static int afl_fuzzer_stats(const char *dir, pid_t pid, struct stats *s, int main_instance, long live_max_age)
{
    char path[FPATH], text[16384];
    uint64_t v, owner = 0, updated = 0;
    if (!wk_path_join(path, sizeof(path), dir, "fuzzer_stats") || wk_file_head(path, text, sizeof(text)) <= 0)
        return 0;
    if (!stats_value(text, "fuzzer_pid", &owner) || owner != (uint64_t)pid)
        return 0; /* an earlier run's file */
    /* Live, the file counts only when recent and not the one written at
     * start-up (calibration: a handful of executions in no time). */
    uint64_t run_time = 0;
    int fresh = live_max_age < 0 ||
                (stats_value(text, "last_update", &updated) &&
                 (uint64_t)time(NULL) <= updated + (uint64_t)live_max_age && stats_value(text, "run_time", &run_time) &&
                 run_time >= 30);
    if (fresh && stats_value(text, "execs_done", &v)) {
        s->runs += v;
        s->have_runs = 1;
    }
    if (fresh && stats_value(text, "execs_per_sec", &v)) {
        s->eps += v;
        s->have_eps = 1;
    }
    if (fresh && stats_value(text, "edges_found", &v) && v >= s->cov) {
        s->cov = v;
        s->have_cov = 1;
    }
    if (stats_value(text, "total_edges", &v)) {
        s->total_edges = v;
        s->have_total = 1;
    }
    if (main_instance) {
        const char *st = strstr(text, "\nstability");
        const char *colon = st ? strchr(st, ':') : NULL;
        uint64_t whole = 0, frac = 0;
        if (colon) {
            const char *p = colon + 1;
            while (*p == ' ')
                p++;
            const char *stop = p + strcspn(p, "\n");
            if (read_num(p, stop, &whole)) {
                const char *dot = memchr(p, '.', (size_t)(stop - p));
                if (dot && dot + 2 < stop && read_num(dot + 1, dot + 3, &frac) && whole <= 100) {
                    s->stability_pct100 = whole * 100 + frac;
                    s->have_stability = 1;
                }
            }
        }
    }
    return 1;
}

/* AFL++'s plot_data: the last row, by the header's column names (AFL++
 * writes it every few seconds once it has run a minute). */
static int afl_plot_data(const char *dir, time_t since, struct stats *s)
{
    char path[FPATH], head[1024];
    struct stat st;
    if (!wk_path_join(path, sizeof(path), dir, "plot_data") || stat(path, &st) != 0 || st.st_mtime < since)
        return 0;
    if (wk_file_head(path, head, sizeof(head)) <= 0 || head[0] != '#')
        return 0;
    enum { COL_EXECS, COL_EPS, COL_EDGES, COL_N };
    static const char *const want[COL_N] = { "total_execs", "execs_per_sec", "edges_found" };
    int col[COL_N] = { -1, -1, -1 };
    int idx = 0;
    char *nl = strchr(head, '\n');
    if (!nl)
        return 0;
    *nl = '\0';
    for (char *tok = head + 1; *tok; idx++) {
        while (*tok == ' ')
            tok++;
        size_t n = strcspn(tok, ",");
        for (int k = 0; k < COL_N; k++)
            if (strlen(want[k]) == n && memcmp(tok, want[k], n) == 0)
                col[k] = idx;
        tok += n;
        if (*tok == ',')
            tok++;
    }
    long len = wk_file_tail(path, g_tail, sizeof(g_tail));
    if (len <= 0)
        return 0;
    char *last = NULL, *last_end = NULL;
    for (char *line = g_tail, *end; line < g_tail + len; line = end + 1) {
        end = memchr(line, '\n', (size_t)(g_tail + len - line));
        if (!end)
            end = g_tail + len;
        if (end > line && line[0] != '#') {
            last = line;
            last_end = end;
        }
    }
    if (!last)
        return 0;
    uint64_t vals[COL_N] = { 0 };
    int have[COL_N] = { 0 };
    idx = 0;
    for (const char *p = last; p < last_end; idx++) {
        while (p < last_end && *p == ' ')
            p++;
        for (int k = 0; k < COL_N; k++)
            if (col[k] == idx)
                have[k] = read_num(p, last_end, &vals[k]);
        const char *comma = memchr(p, ',', (size_t)(last_end - p));
        if (!comma)
            break;
        p = comma + 1;
    }
    if (have[COL_EXECS]) {
        s->runs += vals[COL_EXECS];
        s->have_runs = 1;
    }
    if (have[COL_EPS]) {
        s->eps += vals[COL_EPS];
        s->have_eps = 1;
    }
    if (have[COL_EDGES] && vals[COL_EDGES] >= s->cov) {
        s->cov = vals[COL_EDGES];
        s->have_cov = 1;
    }
    return 1;
}

static void afl_instance_dir(const struct campaign *c, unsigned i, char *out, size_t cap)
{
    char name[32];
    if (i == 0)
        snprintf(name, sizeof(name), "main");
    else
        snprintf(name, sizeof(name), "s%u", i);
    if (!wk_path_join(out, cap, c->afl_out, name))
        out[0] = '\0';
}

/*
 * The inputs of one AFL++ instance's queue that no other instance's queue
 * holds too: every instance starts from the same -i corpus (entries named
 * "orig:"), and with --jobs each imports what the others found ("sync:").
 * Counted for the main instance's queue only (with_seeds), the seeds and
 * the imports are then each counted once over all the queues; *all is the
 * queue's whole size (what a campaign of one instance counts). The summary
 * used to count the main instance's queue alone: 338 of the 450 inputs of
 * a two-instance campaign.
 */
static uint64_t count_queue(const char *dir, int with_seeds, uint64_t *all)
{
    DIR *d = opendir(dir);
    uint64_t own = 0;
    *all = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (!is_finding_name(e->d_name) || (e->d_type != DT_REG && e->d_type != DT_UNKNOWN))
            continue;
        ++*all;
        own += !strstr(e->d_name, "sync:") && (with_seeds || !strstr(e->d_name, "orig:"));
    }
    if (d)
        closedir(d);
    return own;
}

static void afl_stats(const struct campaign *c, struct stats *s, int final)
{
    memset(s, 0, sizeof(*s));
    for (unsigned i = 0; i < c->nprocs; i++) {
        char dir[FPATH], sub[FPATH];
        afl_instance_dir(c, i, dir, sizeof(dir));
        if (!dir[0])
            continue;
        /* Final: fuzzer_stats (written at exit). Live: plot_data is fresher. */
        struct stats one, plot;
        memset(&one, 0, sizeof(one));
        memset(&plot, 0, sizeof(plot));
        afl_fuzzer_stats(dir, c->procs[i].pid, &one, i == 0, final ? -1 : 15);
        if (!final && afl_plot_data(dir, c->start, &plot)) {
            one.runs = plot.runs;
            one.have_runs = plot.have_runs;
            one.eps = plot.eps;
            one.have_eps = plot.have_eps;
            if (plot.have_cov && plot.cov >= one.cov) {
                one.cov = plot.cov;
                one.have_cov = 1;
            }
        }
        if (i == 0) {
            s->have_stability = one.have_stability;
            s->stability_pct100 = one.stability_pct100;
        }
        s->runs += one.runs;
        s->have_runs |= one.have_runs;
        s->eps += one.eps;
        s->have_eps |= one.have_eps;
        if (one.have_cov && one.cov >= s->cov) {
            s->cov = one.cov;
            s->have_cov = 1;
        }
        if (one.have_total) {
            s->total_edges = one.total_edges;
            s->have_total = 1;
        }
        uint64_t all = 0;
        uint64_t own = wk_path_join(sub, sizeof(sub), dir, "queue") ? count_queue(sub, i == 0, &all) : 0;
        s->corpus += c->nprocs > 1 ? own : all; /* alone, an instance's queue is all of it */
        s->queue[s->queues++] = all;
        s->crashes += wk_path_join(sub, sizeof(sub), dir, "crashes") ? count_files(sub, c->start) : 0;
        s->hangs += wk_path_join(sub, sizeof(sub), dir, "hangs") ? count_files(sub, c->start) : 0;
    }
}

static void collect_stats(const struct campaign *c, struct stats *s, int final)
{
    if (c->o.engine == ENGINE_LIBFUZZER)
        libfuzzer_stats(c, s, final);
    else
        afl_stats(c, s, final);
}

static void print_progress(const struct campaign *c)
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

/* ------------------------------------------------------------------ */
/* Crashes and their signatures                                         */
/* ------------------------------------------------------------------ */

struct sig_entry {
    char file[128];
    char sig[SIG_TEXT];
};

struct sig_table {
    struct sig_entry e[MAX_SIGS];
    unsigned n;
};

static int skip_frame(const char *fn, size_t n)
{
    static const char *const skip[] = { "abort", "raise", "gsignal", "pthread_kill", "backtrace", "_Exit" };
    if (n >= 2 && fn[0] == '_' && fn[1] == '_')
        return 1;
    if (memmem(fn, n, "fuzzer::", 8) || memmem(fn, n, "_ZN6fuzzer", 10))
        return 1;
    for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
        if (strlen(skip[i]) == n && memcmp(fn, skip[i], n) == 0)
            return 1;
    return 0;
}

static void trim_copy(char *dst, size_t cap, const char *src, size_t n)
{
    while (n && (src[n - 1] == '\r' || src[n - 1] == ' '))
        n--;
    if (n >= cap)
        n = cap - 1;
    for (size_t i = 0; i < n; i++)
        dst[i] = (src[i] >= 0x20 && src[i] < 0x7f) ? src[i] : '?';
    dst[n] = '\0';
}

/* What a harness and a sanitizer printed about one input, line by line:
 * the harness's own verdict when it printed one (fuzz/fuzz_driver.h:
 * "NAME:   violation in DDI: RULE: DDI: detail" or "NAME: FINDING: what" /
 * "NAME: KIT INVARIANT: what"), else the sanitizer's ERROR line with the
 * first frame that is not the runtime's. */
struct sig_state {
    char err[160], frame[160], finding[240], rule[32], sig[SIG_TEXT];
    int kit;
};

/* "violation in DDI: MESSAGE" (MESSAGE "RULE: DDI: detail", as the kit
 * records it): the signature wk_fuzz_signature makes of it, the one the
 * harness and `wddmkit triage` give the same finding. */
static void sig_rule(struct sig_state *st, const char *m, const char *end)
{
    const char *ddi = m + 13;
    const char *c1 = memchr(ddi, ':', (size_t)(end - ddi));
    const char *msg = c1 ? c1 + 1 : end;
    while (msg < end && *msg == ' ')
        msg++;
    size_t idl = 0;
    while (msg + idl < end && msg[idl] && strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-", msg[idl]))
        idl++;
    if (c1 && idl > 0 && idl < sizeof(st->rule)) {
        char text[400];
        trim_copy(st->rule, sizeof(st->rule), msg, idl);
        trim_copy(text, sizeof(text), msg, (size_t)(end - msg));
        wk_fuzz_signature(st->sig, sizeof(st->sig), st->rule, text, NULL);
    }
}

/* A stack frame "#3 0x55d0 in func file.c:12:3": its function and place,
 * unless the runtime's. */
static void sig_frame(struct sig_state *st, const char *m, const char *end)
{
    const char *fn = m + 4;
    size_t fl = strcspn(fn, " \n");
    if (fn + fl > end)
        fl = (size_t)(end - fn);
    if (skip_frame(fn, fl))
        return;
    const char *loc = fn + fl;
    while (loc < end && *loc == ' ')
        loc++;
    const char *slash = loc;
    for (const char *q = loc; q < end; q++)
        if (*q == '/')
            slash = q + 1;
    char f[96], l[64];
    trim_copy(f, sizeof(f), fn, fl);
    trim_copy(l, sizeof(l), slash, (size_t)(end - slash));
    snprintf(st->frame, sizeof(st->frame), "%s%s%s", f, l[0] ? " " : "", l);
}

static int is_frame_line(const char *line, const char *end)
{
    while (line < end && *line == ' ')
        line++;
    return line < end && *line == '#';
}

/* One line of a log, [line, end). */
static void sig_line(struct sig_state *st, const char *line, const char *end)
{
    size_t n = (size_t)(end - line);
    const char *m;
    if (!st->sig[0] && (m = memmem(line, n, "violation in ", 13))) {
        sig_rule(st, m, end);
    } else if (!st->finding[0] && (m = memmem(line, n, ": FINDING: ", 11))) {
        trim_copy(st->finding, sizeof(st->finding), m + 11, (size_t)(end - m - 11));
    } else if (!st->finding[0] && (m = memmem(line, n, ": KIT INVARIANT: ", 17))) {
        trim_copy(st->finding, sizeof(st->finding), m + 17, (size_t)(end - m - 17));
        st->kit = 1;
    } else if ((m = memmem(line, n, "ERROR: ", 7)) &&
               (memmem(line, n, "Sanitizer", 9) || memmem(line, n, "libFuzzer", 9))) {
        const char *stop = memmem(m + 7, (size_t)(end - m - 7), " on ", 4);
        trim_copy(st->err, sizeof(st->err), m + 7, (size_t)((stop ? stop : end) - m - 7));
        st->frame[0] = '\0';
    } else if ((m = memmem(line, n, "runtime error: ", 15))) {
        trim_copy(st->err, sizeof(st->err), m, (size_t)(end - m));
        st->frame[0] = '\0';
    } else if ((m = memmem(line, n, "SUMMARY: ", 9)) && !st->err[0]) {
        trim_copy(st->err, sizeof(st->err), m + 9, (size_t)(end - m - 9));
    } else if (!st->frame[0] && (m = memmem(line, n, " in ", 4)) && is_frame_line(line, end)) {
        sig_frame(st, m, end);
    }
}

/* Whether the lines seen so far name a finding (the harness's verdict or a
 * sanitizer's error). */
static int sig_found(const struct sig_state *st)
{
    return st->sig[0] || st->finding[0] || st->err[0];
}

/* The signature of what was seen (fallback when nothing was), as `wddmkit
 * triage` words it, and a fresh state for the next input. Returns 1 when
 * it is the harness's verdict on the driver (a finding WK_FUZZ_IGNORE can
 * name), 0 for a kit invariant, a sanitizer's report or the fallback. */
static int sig_make(struct sig_state *st, const char *fallback, char *out, size_t cap)
{
    int harness = 0;
    if (st->kit) {
        snprintf(out, cap, "kit invariant: %s", st->rule[0] ? st->rule : "the reference misbehaved");
    } else if (st->sig[0]) {
        snprintf(out, cap, "%s", st->sig);
        harness = 1;
    } else if (st->finding[0]) {
        wk_fuzz_signature(out, cap, NULL, st->finding, NULL);
        harness = 1;
    } else {
        snprintf(out, cap, "%.100s%s%.90s", st->err[0] ? st->err : fallback, st->frame[0] ? " in " : "",
                 st->frame); /* at most 100 + 4 + 90 characters: fits */
    }
    memset(st, 0, sizeof(*st));
    return harness;
}

/* Reads a libFuzzer log's crash reports and the artifact each wrote. */
static void scan_crash_reports(const char *log, struct sig_table *t)
{
    long len = wk_file_tail(log, g_tail, sizeof(g_tail));
    if (len <= 0)
        return;
    static struct sig_state st;
    memset(&st, 0, sizeof(st));
    for (char *line = g_tail, *end; line < g_tail + len; line = end + 1) {
        end = memchr(line, '\n', (size_t)(g_tail + len - line));
        if (!end)
            end = g_tail + len;
        const char *m = memmem(line, (size_t)(end - line), "Test unit written to ", 21);
        if (!m || t->n >= MAX_SIGS) {
            sig_line(&st, line, end);
            continue;
        }
        const char *base = m + 21;
        for (const char *q = m + 21; q < end; q++)
            if (*q == '/')
                base = q + 1;
        struct sig_entry *e = &t->e[t->n++];
        trim_copy(e->file, sizeof(e->file), base, (size_t)(end - base));
        sig_make(&st, "crash", e->sig, sizeof(e->sig));
    }
}

/* ------------------------------------------------------------------ */
/* Starting inputs that already crash the driver                        */
/* ------------------------------------------------------------------ */

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
};

/* The corpus/ copies of the source inputs (those there now), into r. */
static int list_copies(const struct campaign *c, const struct seed_source *src, int n, struct check_run *r)
{
    size_t cap = 0;
    for (int i = 0; i < n; i++) {
        DIR *d = src[i].dir[0] ? opendir(src[i].dir) : NULL;
        for (struct dirent *e; d && (e = readdir(d));) {
            char name[512], path[FPATH];
            if (!is_input_name(e->d_name) ||
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
    if (r->current >= 0 && sig_found(&r->st))
        r->crashed[r->current] = (char)(1 + sig_make(&r->st, "crash", r->sig[r->current], sizeof(r->sig[0])));
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
        trim_copy(r->last, sizeof(r->last), line, (size_t)(end - line));
    if (end - line < 8 || memcmp(line, "replay: ", 8) != 0) {
        if (r->current >= 0)
            sig_line(&r->st, line, end);
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
        unsetenv("WK_FUZZ_IGNORE"); /* the check sees every finding: those it leaves out become the known ones */
        unsetenv("WK_FUZZ_IGNORE_COUNTS");
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

/* Reads the replay until it exits, or until it spends more than the
 * timeout in one input (or before the first, or after the last) and is
 * killed. Returns the wait status; *hung when killed in an input. */
static int follow_check(struct check_run *r, size_t from, pid_t pid, int fd, double timeout, int *hung)
{
    char buf[4096];
    size_t len = 0;
    long seen = -2;
    double since = wk_now_seconds();
    *hung = 0;
    for (;;) {
        struct pollfd pf = { fd, POLLIN, 0 };
        if (poll(&pf, 1, 100) > 0) { /* else nothing within 100 ms: only the clock below */
            ssize_t n = read(fd, buf + len, sizeof(buf) - 1 - len);
            if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
                break; /* the end: it exited */
            len += n > 0 ? (size_t)n : 0;
            check_lines(r, from, buf, sizeof(buf), &len);
        }
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
static void died_in(struct check_run *r, int st, int hung, double timeout)
{
    char how[64];
    if (hung)
        snprintf(how, sizeof(how), "hang (no result within %.0f s)", timeout);
    else if (WIFSIGNALED(st))
        snprintf(how, sizeof(how), "signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
    else
        snprintf(how, sizeof(how), "exit %d", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    r->crashed[r->current] = (char)(1 + sig_make(&r->st, how, r->sig[r->current], sizeof(r->sig[0])));
    r->current = -1;
}

/* Runs every input through the replay binary; 0 when it could not run
 * them (r->last says why: a driver it cannot load ends it at start). */
static int run_check(struct check_run *r, const char *replay, const char *driver, double timeout)
{
    size_t from = 0;
    while (from < r->count) {
        int fd = -1, hung = 0;
        pid_t pid = start_check(replay, driver, r, from, &fd);
        if (pid < 0)
            return 0;
        r->current = -1;
        r->started = 0;
        int st = follow_check(r, from, pid, fd, timeout, &hung);
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

/* The engine build's replay binary (beside the engine binary). */
static int check_replay_binary(const struct campaign *c, char *out, size_t cap)
{
    char dir[FPATH];
    wk_str_copy(dir, sizeof(dir), c->bin);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return 0;
    *slash = '\0';
    return snprintf(out, cap, "%s/%s_replay", dir, c->o.harness) < (int)cap && wk_path_is_executable(out);
}

/* Adds a signature for the harness to pass over (once; one that cannot
 * travel in WK_FUZZ_IGNORE is named and left out). 0 when it was not added. */
static int add_known(struct campaign *c, const char *sig, const char *from)
{
    for (unsigned i = 0; i < c->nknown; i++)
        if (strcmp(c->known[i], sig) == 0)
            return 0;
    if (c->nknown == MAX_KNOWN || strpbrk(sig, ";\n") || strlen(sig) >= SIG_TEXT) {
        printf("note: %s %.200s cannot be ignored (%s): an input with it stops the campaign\n", from, sig,
               c->nknown == MAX_KNOWN ? "more than 64 signatures" : "a ';', a line break or over 400 characters");
        return 0;
    }
    wk_str_copy(c->known[c->nknown++], SIG_TEXT, sig);
    return 1;
}

/* Removes the left-out copies; prints one line for each and a total. The
 * signatures of the harness's verdicts among them become known signatures
 * (unless --stop-on-known): the engines go on past them. */
static void report_left_out(struct campaign *c, const struct check_run *r)
{
    size_t left = 0;
    for (size_t i = 0; i < r->count; i++) {
        if (!r->crashed[i])
            continue;
        const char *base = strrchr(r->paths[i], '/');
        printf("  left out %s: %s\n", base ? base + 1 : r->paths[i], r->sig[i]);
        unlink(r->paths[i]);
        left++;
        if (r->crashed[i] == 2 && !c->o.stop_on_known)
            add_known(c, r->sig[i], "the signature");
    }
    if (!left)
        return;
    const char *them = left == 1 ? "it" : "them";
    printf("left out %zu input%s that already crash%s this driver: fix %s, or keep fuzzing past %s\n", left,
           left == 1 ? "" : "s", left == 1 ? "es" : "", them, them);
    printf("  (--keep-crashing-seeds starts from %s anyway; %s)\n", them,
           c->o.stop_on_known ? "with --stop-on-known, a mutation that finds the same bug again is a crash"
                              : "the harness passes over their signatures, so a mutation that finds the same bug "
                                "again\n   is counted, not a crash: --stop-on-known stops at it");
}

static void leave_out_crashing(struct campaign *c, const struct seed_source *src, int n)
{
    char replay[FPATH];
    if (c->o.keep_seeds || c->o.prune || !c->driver[0])
        return;
    if (!check_replay_binary(c, replay, sizeof(replay))) {
        printf("note: no %s_replay beside %s: the starting inputs were not checked against the driver\n",
               c->o.harness, c->bin);
        return;
    }
    static struct check_run r;
    memset(&r, 0, sizeof(r));
    double t0 = wk_now_seconds();
    if (!list_copies(c, src, n, &r) || !r.count) {
        check_run_free(&r);
        return;
    }
    if (run_check(&r, replay, c->driver, (double)c->o.timeout)) {
        printf("checked: %zu starting inputs against the driver in %.2f s (%s)\n", r.count, wk_now_seconds() - t0,
               replay);
        report_left_out(c, &r);
    } else {
        printf("note: %s could not run the starting inputs (%s): none was left out\n", replay,
               r.last[0] ? r.last : "it did not start");
    }
    check_run_free(&r);
}

/* AFL++ names a crash "id:000000,sig:06,src:...": the signal is its signature. */
static void afl_signature(const char *name, char *out, size_t cap)
{
    const char *s = strstr(name, "sig:");
    uint64_t sig = 0;
    if (strncmp(name, "seed-", 5) == 0) {
        snprintf(out, cap, "a starting input that crashes (afl-fuzz skipped it)");
    } else if (strstr(name, "-hang-")) {
        snprintf(out, cap, "hang (no result within the timeout)");
    } else if (s && read_num(s + 4, s + 4 + strnlen(s + 4, 8), &sig) && sig < 65) {
        const char *desc = strsignal((int)sig);
        snprintf(out, cap, "signal %llu (%s)", (unsigned long long)sig, desc ? desc : "?");
    } else {
        snprintf(out, cap, "(no signature recorded; see logs/)");
    }
}

/* Copies AFL++'s findings of every instance into crashes/ as
 * <instance>-<name> (hangs as <instance>-hang-<name>), never overwriting. */
static void gather_afl_findings(const struct campaign *c)
{
    for (unsigned i = 0; i < c->nprocs; i++) {
        char dir[FPATH], sub[FPATH];
        afl_instance_dir(c, i, dir, sizeof(dir));
        const char *label = i == 0 ? "main" : c->procs[i].label;
        for (int h = 0; h < 2; h++) {
            char prefix[48];
            snprintf(prefix, sizeof(prefix), "%s-%s", label, h ? "hang-" : "");
            if (dir[0] && wk_path_join(sub, sizeof(sub), dir, h ? "hangs" : "crashes"))
                seed_from(sub, c->crashes, prefix);
        }
    }
}

/* afl-fuzz runs the starting inputs first and skips (or, when none is
 * left, refuses) those that crash: "Test case '<queue name>' results in a
 * crash". Each is a finding; it is copied into crashes/ as seed-<name>. */
static void gather_afl_crashing_seeds(const struct campaign *c)
{
    if (!c->nprocs)
        return;
    long len = wk_file_head(c->procs[0].log, g_tail, sizeof(g_tail)); /* they come first */
    for (char *line = g_tail, *end; len > 0 && line < g_tail + len; line = end + 1) {
        end = memchr(line, '\n', (size_t)(g_tail + len - line));
        if (!end)
            end = g_tail + len;
        size_t n = (size_t)(end - line);
        const char *m = memmem(line, n, "Test case '", 11);
        if (!m || !memmem(line, n, "results in a crash", 18))
            continue;
        const char *name = m + 11;
        const char *q = memchr(name, '\'', (size_t)(end - name));
        if (!q || q == name || (size_t)(q - name) >= 256)
            continue;
        char qname[256], from[FPATH], to[FPATH], dest[300];
        trim_copy(qname, sizeof(qname), name, (size_t)(q - name));
        if (strchr(qname, '/'))
            continue;
        const char *orig = strstr(qname, "orig:");
        const char *base = orig ? orig + 5 : qname;
        snprintf(dest, sizeof(dest), "seed-%s", base);
        int ok = orig ? wk_path_join(from, sizeof(from), c->corpus, base) : 0;
        if (!ok || !wk_path_is_regular(from)) {
            char qdir[FPATH];
            ok = wk_path_join(qdir, sizeof(qdir), c->afl_out, "main/queue") && wk_path_join(from, sizeof(from), qdir, qname);
        }
        if (ok && wk_path_join(to, sizeof(to), c->crashes, dest))
            wk_file_copy_new(from, to, SEED_LIMIT);
    }
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
        if (!is_finding_name(e->d_name) || !wk_path_join(p, sizeof(p), c->crashes, e->d_name) || stat(p, &st) != 0 ||
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
            afl_signature(names[i], sig, sizeof(sig));
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
        capture(argv, text, cap);
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
            trim_copy(line, cap, p, (size_t)(end - p));
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

/* ------------------------------------------------------------------ */
/* The campaign                                                         */
/* ------------------------------------------------------------------ */

static int start_engines(struct campaign *c)
{
    struct cmdline *cl = malloc(sizeof(*cl));
    if (!cl) {
        fprintf(stderr, "wddmkit fuzz: out of memory\n");
        return 0;
    }
    unsigned count = c->o.engine == ENGINE_AFL ? (unsigned)c->o.jobs : 1;
    int ok = 1;
    for (unsigned i = 0; i < count && ok; i++) {
        memset(cl, 0, offsetof(struct cmdline, text));
        char label[16], logname[32];
        if (c->o.engine == ENGINE_LIBFUZZER) {
            build_libfuzzer(c, cl);
            snprintf(label, sizeof(label), "libfuzzer");
            snprintf(logname, sizeof(logname), "%s", c->o.jobs > 1 ? "libfuzzer-main.log" : "fuzz-0.log");
        } else {
            build_afl(c, i, cl);
            if (i == 0)
                snprintf(label, sizeof(label), "main");
            else
                snprintf(label, sizeof(label), "s%u", i);
            snprintf(logname, sizeof(logname), "afl-%s.log", label);
        }
        if (cl->overflow) {
            fprintf(stderr, "wddmkit fuzz: the engine command line is too long\n");
            ok = 0;
            break;
        }
        print_command(stdout, c->o.dry_run ? "would run: " : "running: ", cl->argv);
        if (!c->o.dry_run)
            ok = spawn(c, cl, c->o.engine == ENGINE_LIBFUZZER ? c->logs : c->out, label, logname);
    }
    free(cl);
    return ok;
}

static void monitor(struct campaign *c)
{
    double t0 = wk_now_seconds(), next_progress = t0 + PROGRESS_SECONDS, stop_at = 0;
    int stopping = 0;
    for (;;) {
        if (!reap(c))
            break;
        double t = wk_now_seconds();
        if (g_interrupts && !stopping) {
            stopping = 1;
            c->interrupted = 1;
            stop_at = t + STOP_GRACE_SECONDS;
            printf("\nwddmkit fuzz: stopping the engines (Ctrl-C again to kill them)\n");
            fflush(stdout);
            signal_all(c, SIGINT);
        } else if (!stopping && c->o.time && t - t0 > (double)(c->o.time + OVERRUN_SECONDS)) {
            stopping = 1;
            c->overran = 1;
            stop_at = t + STOP_GRACE_SECONDS;
            printf("wddmkit fuzz: the engine ran %d s past --time; stopping it\n", OVERRUN_SECONDS);
            signal_all(c, SIGINT);
        }
        if (stopping && !c->killed && (g_interrupts >= 2 || t > stop_at)) {
            c->killed = 1;
            signal_all(c, SIGKILL);
        }
        if (!stopping && t >= next_progress) {
            print_progress(c);
            next_progress = t + PROGRESS_SECONDS;
        }
        wk_sleep_ms(250);
    }
}

/* The last lines of a log, for an engine that failed. */
static void print_log_tail(const char *path, int lines)
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

/* The wddmkit that triages and reproduces the campaign's crashes: the
 * engine's build's own (<build>/cli/wddmkit beside <build>/fuzz/),
 * which loads a driver built like the harness (sanitizers, coverage) and
 * runs a program under the same sanitizers as the engine did; else this
 * one. */
static void crash_tools_binary(const struct campaign *c, const char *self, char *out, size_t cap)
{
    char exe[FPATH];
    wk_str_copy(out, cap, build_wddmkit(c->bin, exe) ? exe : self);
}

static int summarize(struct campaign *c, const char *self)
{
    struct stats s;
    char a[40], b[40], d[40];
    if (c->o.engine == ENGINE_AFL) {
        gather_afl_crashing_seeds(c);
        gather_afl_findings(c);
    }
    collect_stats(c, &s, 1);
    uint64_t new_crashes = count_files(c->crashes, c->start);
    uint64_t all_crashes = count_files(c->crashes, 0);
    double elapsed = wk_now_seconds() - c->start_mono;

    printf("\nwddmkit fuzz: summary\n");
    printf("  harness   %s (%s, %llu %s%s, %.0f s)\n", c->o.harness, engine_names[c->o.engine],
           (unsigned long long)c->o.jobs,
           c->o.engine == ENGINE_AFL ? (c->o.jobs > 1 ? "instances" : "instance") : (c->o.jobs > 1 ? "jobs" : "job"),
           c->interrupted ? ", interrupted" : "", elapsed);
    printf("  driver    %s\n", c->driver[0] ? c->driver : "the reference driver (built in)");
    if (s.have_runs)
        printf("  runs      %s", wk_str_grouped(s.runs, a, sizeof(a)));
    else
        printf("  runs      -");
    if (s.have_eps)
        printf(" (%s exec/s)\n", wk_str_grouped(s.eps, b, sizeof(b)));
    else
        printf("\n");
    if (c->o.engine == ENGINE_LIBFUZZER && s.have_cov)
        printf("  coverage  %s edges (cov), %s features (ft)\n", wk_str_grouped(s.cov, a, sizeof(a)),
               wk_str_grouped(s.ft, b, sizeof(b)));
    else if (s.have_cov)
        printf("  coverage  %s of %s edges%s\n", wk_str_grouped(s.cov, a, sizeof(a)),
               s.have_total ? wk_str_grouped(s.total_edges, d, sizeof(d)) : "?", "");
    if (s.have_stability) {
        printf("  stability %llu.%02llu%%\n", (unsigned long long)(s.stability_pct100 / 100),
               (unsigned long long)(s.stability_pct100 % 100));
        /* AFL++'s own advice starts below 90%; the kit's harnesses reach
         * 98.7 to 100% on the reference driver (docs/fuzzing.md). */
        if (s.stability_pct100 < 9000)
            printf("            below 90%%: one input takes other paths from run to run (state the driver or\n"
                   "            the harness keeps between inputs); bench/fuzz_stability names the lines\n"
                   "            (docs/fuzzing.md, \"Stability\")\n");
    }
    char qdir[FPATH];
    if (c->o.engine == ENGINE_AFL) {
        if (!wk_path_join(qdir, sizeof(qdir), c->afl_out, s.queues > 1 ? "*/queue" : "main/queue"))
            qdir[0] = '\0';
    } else {
        wk_str_copy(qdir, sizeof(qdir), c->corpus);
    }
    printf("  corpus    %s input%s in %s", wk_str_grouped(s.corpus, a, sizeof(a)), s.corpus == 1 ? "" : "s", qdir);
    for (unsigned i = 0; s.queues > 1 && i < s.queues; i++)
        printf("%s%s %s", i ? ", " : " (", c->procs[i].label, wk_str_grouped(s.queue[i], a, sizeof(a)));
    printf("%s\n", s.queues > 1 ? "; a seed or an input synced from another instance counted once)" : "");
    printf("  output    %s (engine logs in logs/)\n", c->out);
    /* What the corpus reached of the driver's code (cli_coverage.c). */
    /* Every AFL++ instance's queue (the shell expands the pattern). */
    printf("  reach     wddmkit coverage --harness %s%s%s %s%s  (the source lines and functions it runs)\n",
           c->o.harness, c->driver[0] ? " --driver " : "",
           c->driver[0] ? "<the driver built with clang -fprofile-instr-generate -fcoverage-mapping>" : "",
           c->o.engine == ENGINE_AFL ? c->afl_out : qdir, c->o.engine == ENGINE_AFL ? "/*/queue" : "");
    if (c->o.engine == ENGINE_AFL && s.hangs)
        printf("  hangs     %llu (copied into crashes/ as *-hang-*)\n", (unsigned long long)s.hangs);
    if (c->nknown)
        print_known_hits(c);
    printf("  crashes   %llu new", (unsigned long long)new_crashes);
    if (all_crashes > new_crashes)
        printf(" (%llu from earlier runs also in crashes/)", (unsigned long long)(all_crashes - new_crashes));
    printf("\n");

    /* An engine that failed without finding anything is a setup error. */
    int failed = 0;
    for (unsigned i = 0; i < c->nprocs; i++) {
        const struct proc *p = &c->procs[i];
        int bad = WIFEXITED(p->status) ? WEXITSTATUS(p->status) != 0 : !c->interrupted && !c->overran;
        if (bad && !new_crashes && !c->interrupted && !c->overran) {
            fprintf(stderr, "wddmkit fuzz: %s engine process failed (%s %d)\n", p->label,
                    WIFEXITED(p->status) ? "exit code" : "signal",
                    WIFEXITED(p->status) ? WEXITSTATUS(p->status) : WTERMSIG(p->status));
            print_log_tail(p->log, 15);
            failed = 1;
        }
    }
    if (!new_crashes) {
        printf("result: no crash\n");
        return failed ? 2 : 0;
    }

    struct crash_tools tools;
    int triaged = 0;
    char tools_exe[FPATH];
    crash_tools_binary(c, self, tools_exe, sizeof(tools_exe));
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
                    scan_crash_reports(p, t);
            }
        }
        static const struct sig_table empty;
        printf("new crash files in %s:\n", c->crashes);
        list_crashes(c, t ? t : &empty);
        free(t);
    }
    char replay[FPATH];
    printf("\nreproduce: ");
    int repro_harness = strstr(tools.repro_usage, "--harness") != NULL;
    if (tools.repro)
        printf("%s repro %s/FILE%s%s%s%s\n", strcmp(tools_exe, self) == 0 ? "wddmkit" : tools_exe, c->crashes, repro_harness ? " --harness " : "",
               repro_harness ? c->o.harness : "", c->driver[0] ? " --driver " : "", c->driver);
    else if (snprintf(replay, sizeof(replay), "%s_replay", c->bin) < (int)sizeof(replay) && wk_path_is_executable(replay))
        printf("%s%s%s %s/FILE\n", c->driver[0] ? "WK_DRIVER=" : "", c->driver, c->driver[0] ? " " : "", replay);
    else
        printf("%s %s/FILE\n", c->bin, c->crashes);
    printf("result: %llu new crash%s\n", (unsigned long long)new_crashes, new_crashes == 1 ? "" : "es");
    return 1;
}

/* ------------------------------------------------------------------ */
/* --prune: the corpus merged down to the inputs that keep its coverage  */
/* ------------------------------------------------------------------ */

/* A campaign's corpus only grows (libFuzzer adds every input with a new
 * feature, AFL++ every queue entry, and each run adds the seeds again):
 * after a few long runs the engine spends its first minutes running
 * inputs that add nothing. libFuzzer's -merge=1 NEW OLD keeps, in NEW, the
 * inputs that cover what OLD covers, and survives inputs that crash or
 * hang (they are left out); so does afl-cmin. */
static void build_merge(const struct campaign *c, const char *into, struct cmdline *cl)
{
    const struct fuzz_opts *o = &c->o;
    arg(cl, "%s", c->bin);
    arg(cl, "-merge=1");
    arg(cl, "-artifact_prefix=%s/", c->crashes);
    arg(cl, "-max_len=%u", c->max_len);
    arg(cl, "-timeout=%llu", (unsigned long long)o->timeout);
    arg(cl, "-rss_limit_mb=%llu", (unsigned long long)o->rss_limit);
    if (strcmp(o->harness, "fuzz_hostile") == 0 && !extra_has(o, "-detect_leaks="))
        arg(cl, "-detect_leaks=0");
    for (int i = 0; i < o->extra_count; i++)
        arg(cl, "%s", o->extra[i]);
    arg(cl, "%s", into);
    arg(cl, "%s", c->corpus);
}

/* afl-cmin -i FROM -o INTO -t MS -m none -- BIN (the harness reads its
 * input from AFL++'s shared memory, as afl-showmap hands it). */
static void build_cmin(const struct campaign *c, const char *cmin, const char *from, const char *into,
                       struct cmdline *cl)
{
    arg(cl, "%s", cmin);
    arg(cl, "-i");
    arg(cl, "%s", from);
    arg(cl, "-o");
    arg(cl, "%s", into);
    arg(cl, "-t");
    arg(cl, "%llu", (unsigned long long)c->o.timeout * 1000);
    arg(cl, "-m");
    arg(cl, "none");
    for (int i = 0; i < c->o.extra_count; i++)
        arg(cl, "%s", c->o.extra[i]);
    arg(cl, "--");
    arg(cl, "%s", c->bin);
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
    long n = seed_from(c->corpus, into, "corpus-");
    DIR *d = opendir(c->afl_out);
    for (struct dirent *e; n >= 0 && d && (e = readdir(d));) {
        char q[FPATH], prefix[64];
        if (e->d_name[0] == '.' || !safe_name(e->d_name) ||
            snprintf(q, sizeof(q), "%s/%s/queue", c->afl_out, e->d_name) >= (int)sizeof(q))
            continue;
        snprintf(prefix, sizeof(prefix), "%.40s-", e->d_name);
        if (wk_path_is_dir(q)) {
            long k = seed_from(q, into, prefix);
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
    print_command(stdout, "running: ", cl->argv);
    fflush(stdout);
    if (!spawn(c, cl, NULL, "merge", "merge.log"))
        return 0;
    while (reap(c)) {
        if (g_interrupts) {
            c->interrupted = 1;
            signal_all(c, g_interrupts > 1 ? SIGKILL : SIGINT);
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

static int prune_corpus(struct campaign *c)
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
        print_command(stdout, "would run: ", cl.argv);
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
    uint64_t before = afl ? (uint64_t)gathered : count_files(c->corpus, 0);
    time_t started = time(NULL);
    double t0 = wk_now_seconds();
    printf("pruning %s (%llu inputs%s) with %s; log in %s/merge.log\n", c->corpus, (unsigned long long)before,
           afl ? ", with every instance's queue" : "", afl ? "afl-cmin" : "libFuzzer's -merge=1", c->logs);
    if (afl) {
        setenv("AFL_ALLOW_TMP", "1", 1); /* afl-cmin refuses /tmp otherwise */
        setenv("AFL_NO_UI", "1", 1);
        if (!afl_preload_driver(c))
            return 2;
    }
    if (!run_merge(c, &cl))
        return 2;
    const struct proc *p = &c->procs[0];
    uint64_t after = count_files(into, 0);
    int ok = !c->interrupted && WIFEXITED(p->status) && WEXITSTATUS(p->status) == 0 && (after || !before);
    remove_flat_dir(gather);
    if (!ok) {
        fprintf(stderr, "wddmkit fuzz: the merge %s (%s %d, %llu inputs kept): %s is unchanged\n",
                c->interrupted ? "was stopped" : "failed", WIFEXITED(p->status) ? "exit code" : "signal",
                WIFEXITED(p->status) ? WEXITSTATUS(p->status) : WTERMSIG(p->status), (unsigned long long)after,
                c->corpus);
        if (!c->interrupted)
            print_log_tail(p->log, 15);
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
    uint64_t crashed = count_files(c->crashes, started);
    printf("pruned:  %llu -> %llu inputs in %.1f s (%s)\n", (unsigned long long)before, (unsigned long long)after,
           wk_now_seconds() - t0, c->corpus);
    if (crashed)
        printf("note: %llu input%s crashed or hung during the merge and %s left out; %s in %s\n",
               (unsigned long long)crashed, crashed == 1 ? "" : "s", crashed == 1 ? "was" : "were",
               crashed == 1 ? "its file is" : "their files are", c->crashes);
    return 0;
}

int wk_cli_fuzz(int argc, char **argv)
{
    struct campaign *c = calloc(1, sizeof(*c));
    if (!c) {
        fprintf(stderr, "wddmkit fuzz: out of memory\n");
        return 2;
    }
    int help = 0, rc = 2;
    if (!parse_args(argc, argv, &c->o, &help)) {
        usage(stderr);
        goto out;
    }
    if (help) {
        usage(stdout);
        rc = 0;
        goto out;
    }
    if (wk_cli_parse_only) {
        rc = 0;
        goto out;
    }

    /* The repository: seeds, dictionaries, sources and the default builds. */
    if (is_repo(WK_FUZZ_REPO_DIR) && realpath(WK_FUZZ_REPO_DIR, c->repo))
        c->have_repo = 1;
    else if (is_repo(".") && realpath(".", c->repo))
        c->have_repo = 1;

    const struct harness *known = NULL;
    for (size_t i = 0; i < KNOWN_COUNT; i++)
        if (strcmp(known_harnesses[i].name, c->o.harness) == 0)
            known = &known_harnesses[i];
    c->max_len = c->o.max_len_set ? (unsigned)c->o.max_len : known ? known->max_len : 4096;
    char src[FPATH], rel[300];
    snprintf(rel, sizeof(rel), "harnesses/%s.c", c->o.harness);
    int have_src = c->have_repo && wk_path_join(src, sizeof(src), c->repo, rel) && wk_path_is_regular(src);
    if (c->have_repo && !have_src && !c->o.build_dir) {
        fprintf(stderr, "wddmkit fuzz: %s: %s is not in this tree (skipped)\n", c->o.harness, rel);
        if (!known) {
            fprintf(stderr, "harnesses:");
            for (size_t i = 0; i < KNOWN_COUNT; i++)
                fprintf(stderr, " %s", known_harnesses[i].name);
            fprintf(stderr, "\n");
        }
        goto out;
    }

    /* Before the builds are asked whether they load it: a missing file is
     * not a module that needs another build. */
    if (c->o.driver) {
        if (!wk_path_is_regular(c->o.driver) || !realpath(c->o.driver, c->driver)) {
            fprintf(stderr, "wddmkit fuzz: --driver %s: not a readable file\n", c->o.driver);
            goto out;
        }
    } else if (getenv("WK_DRIVER") && *getenv("WK_DRIVER")) {
        wk_str_copy(c->driver, sizeof(c->driver), getenv("WK_DRIVER"));
        printf("note: WK_DRIVER is set in the environment: fuzzing %s\n", c->driver);
    }
    if (!locate_binary(c) || !check_binary_engine(c))
        goto out;
    if (c->o.engine == ENGINE_AFL && !wk_path_find_program("afl-fuzz", c->afl_fuzz, sizeof(c->afl_fuzz))) {
        if (!c->o.dry_run) {
            fprintf(stderr, "wddmkit fuzz: afl-fuzz is not on PATH (Debian: apt-get install afl++)\n");
            goto out;
        }
        wk_str_copy(c->afl_fuzz, sizeof(c->afl_fuzz), "afl-fuzz");
    }
    char dict_rel[300];
    snprintf(dict_rel, sizeof(dict_rel), "harnesses/%s.dict", c->o.harness);
    if (!(c->have_repo && wk_path_join(c->dict, sizeof(c->dict), c->repo, dict_rel) && wk_path_is_regular(c->dict)))
        c->dict[0] = '\0';

    printf("harness: %s (%s)\nbinary:  %s\n", c->o.harness, engine_names[c->o.engine], c->bin);
    printf("driver:  %s\n", c->driver[0] ? c->driver : "the reference driver (built in)");
    printf("dict:    %s\n", c->dict[0] ? c->dict : "(none)");
    if (!c->o.prune)
        warn_uninstrumented(c);
    if (!prepare_output(c))
        goto out;
    if (!c->o.prune && !pass_over_known(c))
        goto out;

    if (c->driver[0])
        setenv("WK_DRIVER", c->driver, 1);
    if (c->o.prune) {
        struct sigaction on, was_int, was_term;
        memset(&on, 0, sizeof(on));
        on.sa_handler = on_signal;
        sigemptyset(&on.sa_mask);
        g_interrupts = 0;
        sigaction(SIGINT, &on, &was_int);
        sigaction(SIGTERM, &on, &was_term);
        rc = prune_corpus(c);
        sigaction(SIGINT, &was_int, NULL);
        sigaction(SIGTERM, &was_term, NULL);
        goto out;
    }
    if (c->o.engine == ENGINE_AFL) {
        setenv("AFL_NO_UI", "1", 1);
        setenv("AFL_AUTORESUME", "1", 1); /* a second run continues the first */
        setenv("AFL_SKIP_CPUFREQ", "1", 0);
        char pattern[64] = "";
        if (wk_file_head("/proc/sys/kernel/core_pattern", pattern, sizeof(pattern)) > 0 && pattern[0] == '|')
            setenv("AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES", "1", 0); /* crashes are still seen: the target aborts */
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        if (cpus > 0 && c->o.jobs > (uint64_t)cpus)
            setenv("AFL_NO_AFFINITY", "1", 0);
        if (!afl_preload_driver(c))
            goto out;
        use_afl_mutator(c);
    }

    struct sigaction sa, old_int, old_term, old_hup;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask); /* no SA_RESTART: a signal cuts the sleep short */
    g_interrupts = 0;
    if (!c->o.dry_run) {
        sigaction(SIGINT, &sa, &old_int);
        sigaction(SIGTERM, &sa, &old_term);
        sigaction(SIGHUP, &sa, &old_hup);
    }
    c->start = time(NULL);
    c->start_mono = wk_now_seconds();
    int started = start_engines(c);
    if (c->o.dry_run) {
        rc = started ? 0 : 2;
        goto out;
    }
    if (c->o.time)
        printf("fuzzing for %llu s (Ctrl-C stops early); progress every %d s\n", (unsigned long long)c->o.time,
               PROGRESS_SECONDS);
    else
        printf("fuzzing until %sCtrl-C; progress every %d s\n",
               c->o.engine == ENGINE_LIBFUZZER && c->o.jobs == 1 ? "the first crash or " : "", PROGRESS_SECONDS);
    fflush(stdout);
    if (c->nprocs)
        monitor(c);
    if (!started) {
        signal_all(c, SIGKILL);
        while (reap(c))
            wk_sleep_ms(50);
        rc = 2;
    } else {
        rc = summarize(c, realpath("/proc/self/exe", src) ? src : "");
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGHUP, &old_hup, NULL);
out:
    free(c);
    return rc;
}
