/* SPDX-License-Identifier: MIT */
/*
 * engines.c - how the engines are started: the command line of libFuzzer
 * (-max_len, -timeout, -rss_limit_mb, -jobs/-workers, the dictionary, the
 * user's arguments after `--`) and of each AFL++ instance (one -M main and
 * N-1 -S secondaries), AFL++'s environment (the driver in AFL_PRELOAD, the
 * structure-aware mutator), and the processes themselves (supervise.c).
 *
 * A command line is built in a fixed buffer (struct cmdline) and printed
 * the way a shell would take it back, for --dry-run and the log.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <errno.h>
#include <unistd.h>

#include "campaign/internal.h"
#include "util.h"

void wk_campaign_arg(struct cmdline *c, const char *fmt, ...)
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
void wk_campaign_print_command(FILE *f, const char *prefix, char *const argv[])
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
int wk_campaign_extra_has(const struct wk_campaign_options *o, const char *name)
{
    for (int i = 0; i < o->extra_count; i++)
        if (strncmp(o->extra[i], name, strlen(name)) == 0)
            return 1;
    return 0;
}

static void build_libfuzzer(const struct campaign *c, struct cmdline *cl)
{
    const struct wk_campaign_options *o = &c->o;
    wk_campaign_arg(cl, "%s", c->bin);
    wk_campaign_arg(cl, "-artifact_prefix=%s/", c->crashes);
    wk_campaign_arg(cl, "-max_len=%u", c->max_len);
    wk_campaign_arg(cl, "-timeout=%llu", (unsigned long long)o->timeout);
    wk_campaign_arg(cl, "-rss_limit_mb=%llu", (unsigned long long)o->rss_limit);
    wk_campaign_arg(cl, "-print_final_stats=1");
    if (c->dict[0])
        wk_campaign_arg(cl, "-dict=%s", c->dict);
    if (o->time)
        wk_campaign_arg(cl, "-max_total_time=%llu", (unsigned long long)o->time);
    if (o->jobs > 1) {
        wk_campaign_arg(cl, "-jobs=%llu", (unsigned long long)o->jobs);
        wk_campaign_arg(cl, "-workers=%llu", (unsigned long long)o->jobs);
    }
    if (strcmp(o->harness, "fuzz_hostile") == 0 && !wk_campaign_extra_has(o, "-detect_leaks="))
        wk_campaign_arg(cl, "-detect_leaks=0"); /* the harness's leak gate decides (fuzz/gate/leak_gate.h) */
    for (int i = 0; i < o->extra_count; i++)
        wk_campaign_arg(cl, "%s", o->extra[i]);
    wk_campaign_arg(cl, "%s", c->corpus);
}

static void build_afl(const struct campaign *c, unsigned instance, struct cmdline *cl)
{
    const struct wk_campaign_options *o = &c->o;
    wk_campaign_arg(cl, "%s", c->afl_fuzz);
    wk_campaign_arg(cl, "-i");
    wk_campaign_arg(cl, "%s", c->corpus);
    wk_campaign_arg(cl, "-o");
    wk_campaign_arg(cl, "%s", c->afl_out);
    if (instance == 0) {
        wk_campaign_arg(cl, "-M");
        wk_campaign_arg(cl, "main");
    } else {
        wk_campaign_arg(cl, "-S");
        wk_campaign_arg(cl, "s%u", instance);
    }
    wk_campaign_arg(cl, "-t");
    wk_campaign_arg(cl, "%llu", (unsigned long long)(o->timeout * 1000));
    wk_campaign_arg(cl, "-G");
    wk_campaign_arg(cl, "%u", c->max_len);
    if (c->dict[0]) {
        wk_campaign_arg(cl, "-x");
        wk_campaign_arg(cl, "%s", c->dict);
    }
    if (o->time) {
        wk_campaign_arg(cl, "-V");
        wk_campaign_arg(cl, "%llu", (unsigned long long)o->time);
    }
    for (int i = 0; i < o->extra_count; i++)
        wk_campaign_arg(cl, "%s", o->extra[i]);
    wk_campaign_arg(cl, "--");
    wk_campaign_arg(cl, "%s", c->bin);
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
int wk_campaign_afl_preload_driver(const struct campaign *c)
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
 * fuzz_render (fuzz/mutator/prog_mutator.c): afl-fuzz loads it from a shared library that is
 * built uninstrumented (default or clang preset). Used when built and the
 * user did not choose a mutator library already. */
static void use_afl_mutator(const struct campaign *c)
{
    const char *format = strcmp(c->o.harness, "fuzz_prog") == 0      ? "prog"
                         : strcmp(c->o.harness, "fuzz_hostile") == 0 ? "hostile"
                         : strcmp(c->o.harness, "fuzz_render") == 0  ? "render"
                                                                     : NULL;
    if (!format || !c->builds[0])
        return;
    if (getenv("AFL_CUSTOM_MUTATOR_LIBRARY")) {
        printf("mutator: %s (AFL_CUSTOM_MUTATOR_LIBRARY from the environment)\n", getenv("AFL_CUSTOM_MUTATOR_LIBRARY"));
        return;
    }
    static const char *const presets[] = { "default/fuzz/libwk_afl_prog_mutator.so",
                                           "clang/fuzz/libwk_afl_prog_mutator.so" };
    for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
        char p[FPATH];
        if (wk_path_join(p, sizeof(p), c->builds, presets[i]) && wk_path_is_regular(p)) {
            setenv("AFL_CUSTOM_MUTATOR_LIBRARY", p, 1);
            setenv("WK_MUTATOR", format, 1);
            printf("mutator: %s (WK_MUTATOR=%s, structure-aware)\n", p, format);
            return;
        }
    }
    printf("mutator: AFL++'s own (the structure-aware one is built by\n"
           "         cmake --build --preset default --target wk_afl_prog_mutator)\n");
}

int wk_campaign_start_engines(struct campaign *c)
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
        wk_campaign_print_command(stdout, c->o.dry_run ? "would run: " : "running: ", cl->argv);
        if (!c->o.dry_run)
            ok = wk_campaign_spawn(c, cl, c->o.engine == ENGINE_LIBFUZZER ? c->logs : c->out, label, logname);
    }
    free(cl);
    return ok;
}

/* What afl-fuzz needs in its environment for a campaign: no UI (its output
 * goes to logs/), a second run continuing the first, core dumps and CPU
 * binding left alone where they cannot work, the driver preloaded and the
 * structure-aware mutator. 0 after an error. */
int wk_campaign_afl_environment(const struct campaign *c)
{
    setenv("AFL_NO_UI", "1", 1);
    setenv("AFL_AUTORESUME", "1", 1); /* a second run continues the first */
    setenv("AFL_SKIP_CPUFREQ", "1", 0);
    char pattern[64] = "";
    if (wk_file_head("/proc/sys/kernel/core_pattern", pattern, sizeof(pattern)) > 0 && pattern[0] == '|')
        setenv("AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES", "1", 0); /* crashes are still seen: the target aborts */
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus > 0 && c->o.jobs > (uint64_t)cpus)
        setenv("AFL_NO_AFFINITY", "1", 0);
    if (!wk_campaign_afl_preload_driver(c))
        return 0;
    use_afl_mutator(c);
    return 1;
}
