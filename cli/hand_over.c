/* SPDX-License-Identifier: MIT */
/*
 * hand_over.c - running a command in the wddmkit build that can load its
 * driver: `wddmkit repro|minimize|promote|triage|conform|coverage --driver
 * PATH` whose module needs an instrumentation runtime this build lacks
 * (driver_probe.c says so) runs, with the same command line, in the first
 * wddmkit that answers `driver check PATH` with success: first the build
 * trees the driver lies in (a driver of build/libfuzzer/examples/drivers/
 * goes to build/libfuzzer/cli/wddmkit), then every build beside this one,
 * then every build of the kit's builds folder (a checkout's build/, an
 * installed kit's <prefix>/libexec/wddmkit/<name>/: cli_data.c).
 * When none can, the command stops with the symbol and the cmake line that
 * makes such a build, or for an installed kit the builds it has (exit 2),
 * before it runs anything. For a module built
 * with GCC's shared ASan runtime the hand-over is this wddmkit, else
 * another build, run again with LD_PRELOAD=libasan.so.N.
 */
#define _GNU_SOURCE /* realpath */

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz.h" /* wk_campaign_same_kit */
#include "cli.h"
#include "driver_probe.h"
#include "reference.h" /* wk_vidmm_missing_runtime_symbol */

/* Set in the environment of the wddmkit that takes a command over, so that
 * it never hands it on again. */
#define HANDED_OVER "WK_DRIVER_BUILD_CHOSEN"

/* Build trees above a driver that are looked at (build/<preset>/examples/
 * drivers/x.so is three levels down). */
#define ANCESTORS 6
#define MAX_CANDIDATES 32


/* The value of --driver (or --driver=V) before any "--"; NULL: none. */
static const char *driver_argument(int argc, char **argv)
{
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            return NULL;
        if (strcmp(argv[i], "--driver") == 0)
            return i + 1 < argc ? argv[i + 1] : NULL;
        if (strncmp(argv[i], "--driver=", 9) == 0)
            return argv[i] + 9;
    }
    return NULL;
}

static int loads_driver(const char *command)
{
    static const char *const commands[] = { "repro", "minimize", "promote", "triage", "conform", "coverage" };
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        if (strcmp(command, commands[i]) == 0)
            return 1;
    return 0;
}

struct candidates {
    char path[MAX_CANDIDATES][PATH_MAX];
    int count;
    char self[PATH_MAX];
};

/* Adds dir/cli/wddmkit when it is an executable other than this
 * one and not yet listed. */
static void consider(struct candidates *c, const char *dir)
{
    char path[PATH_MAX], real[PATH_MAX];
    if (c->count == MAX_CANDIDATES || snprintf(path, sizeof(path), "%s/cli/wddmkit", dir) >= (int)sizeof(path))
        return;
    if (access(path, X_OK) != 0 || !realpath(path, real) || strcmp(real, c->self) == 0)
        return;
    for (int i = 0; i < c->count; i++)
        if (strcmp(c->path[i], real) == 0)
            return;
    snprintf(c->path[c->count++], PATH_MAX, "%s", real);
}

/* Cuts path at its last '/'; 0 when there is none left to cut. */
static int up(char *path)
{
    char *slash = strrchr(path, '/');
    if (!slash || slash == path)
        return 0;
    *slash = '\0';
    return 1;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every root/<dir>/ in name order. */
static void consider_builds_in(struct candidates *c, const char *root)
{
    DIR *d = opendir(root);
    if (!d)
        return;
    char *names[256];
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 256;)
        if (e->d_name[0] != '.' && (names[n] = strdup(e->d_name)))
            n++;
    closedir(d);
    qsort(names, n, sizeof(names[0]), by_name);
    for (size_t i = 0; i < n; i++) {
        char dir[PATH_MAX];
        if (snprintf(dir, sizeof(dir), "%s/%s", root, names[i]) < (int)sizeof(dir))
            consider(c, dir);
        free(names[i]);
    }
}

static void find_candidates(struct candidates *c, const char *driver)
{
    char dir[PATH_MAX];
    memset(c, 0, sizeof(*c));
    if (!realpath("/proc/self/exe", c->self))
        c->self[0] = '\0';
    if (realpath(driver, dir)) { /* the build trees the driver lies in */
        for (int i = 0; i < ANCESTORS && up(dir); i++)
            consider(c, dir);
    }
    /* The builds beside this one, when it is <root>/<build>/cli/wddmkit
     * (a build tree, an installed instrumented build); an installed
     * <prefix>/bin/wddmkit has none, and <prefix>/.. is no builds folder. */
    snprintf(dir, sizeof(dir), "%s", c->self);
    if (up(dir) && strlen(dir) >= 4 && strcmp(dir + strlen(dir) - 4, "/cli") == 0 && up(dir) && up(dir))
        consider_builds_in(c, dir);
    /* The kit's builds by name (an installed kit's libexec/wddmkit). */
    const char *builds = wk_cli_builds_dir();
    if (builds)
        consider_builds_in(c, builds);
}

/* What an installed kit says when none of its builds loads the driver:
 * which builds it has, and how a packager adds one. */
static void installed_advice(const struct candidates *c)
{
    enum wk_kit_origin from;
    wk_cli_data_dir(&from);
    const char *builds = wk_cli_builds_dir();
    if (from != WK_KIT_INSTALLED || !builds)
        return;
    fprintf(stderr, "This is an installed kit: its builds are under %s/, and none of the %d tried loads\n"
                    "the driver. A packager adds one by building the kit's preset of that name (libfuzzer,\n"
                    "libfuzzer-driver, afl, afl-driver, asan, coverage) and installing that build into the same\n"
                    "prefix (docs/install.md, \"Instrumented builds\").\n",
            builds, c->count);
}

int wk_cli_build_loads_driver(const char *exe, const char *driver)
{
    pid_t pid = fork();
    if (pid < 0)
        return 0;
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
        }
        execl(exe, exe, "driver", "check", driver, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR)
            return 0;
    }
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* Whether exe is of this wddmkit's commit (campaign.h says why that
 * matters); when not, a line says so, once per build. */
static int current_build(const char *exe)
{
    char theirs[64];
    if (wk_campaign_same_kit(exe, wk_cli_kit_commit, theirs, sizeof(theirs))) {
        if (strcmp(theirs, wk_cli_kit_commit) != 0)
            fprintf(stderr, "wddmkit: warning: %s is of commit %.12s, this wddmkit of %.12s (WK_ANY_BUILD=1): its "
                            "verdicts come from other code\n", exe, theirs, wk_cli_kit_commit);
        return 1;
    }
    fprintf(stderr, "wddmkit: %s would load the driver but is of commit %.12s, and this wddmkit is %.12s: its "
                    "verdicts would come from other code, so it is not used. Rebuild it (cmake --build on its "
                    "build folder), or set WK_ANY_BUILD=1 to use it as it is.\n", exe, theirs, wk_cli_kit_commit);
    return 0;
}

/* Runs the command line again in exe (does not return), or returns 2. */
static int run_in(const char *exe, char **argv)
{
    fflush(NULL);
    setenv(HANDED_OVER, "1", 1);
    argv[0] = (char *)exe;
    execv(exe, argv);
    fprintf(stderr, "wddmkit: cannot run %s: %s\n", exe, strerror(errno));
    return 2;
}

/* Sets LD_PRELOAD to soname ahead of what it held (saved: a copy of that,
 * or NULL); 0 when out of memory. */
static int prepend_preload(const char *soname, const char *saved)
{
    size_t n = strlen(soname) + (saved ? strlen(saved) + 1 : 0) + 1;
    char *preload = malloc(n);
    if (!preload)
        return 0;
    snprintf(preload, n, "%s%s%s", soname, saved ? ":" : "", saved ? saved : "");
    int ok = setenv("LD_PRELOAD", preload, 1) == 0;
    free(preload);
    return ok;
}

/* A module built with GCC's ASan: this wddmkit, else the first other build
 * that loads it with the runtime preloaded, runs the command line with
 * LD_PRELOAD=soname (ahead of what LD_PRELOAD held). */
static int preload_hand_over(char **argv, const char *driver, const char *soname, const struct candidates *c)
{
    const char *old = getenv("LD_PRELOAD");
    char *saved = old && old[0] ? strdup(old) : NULL;
    int ready = soname[0] && (!old || !old[0] || saved) && prepend_preload(soname, saved);
    for (int i = -1; ready && i < c->count; i++) { /* each `driver check` inherits LD_PRELOAD */
        const char *exe = i < 0 ? c->self : c->path[i];
        if (!exe[0] || !wk_cli_build_loads_driver(exe, driver) || (i >= 0 && !current_build(exe)))
            continue;
        fprintf(stderr, "wddmkit: %s was built with GCC's AddressSanitizer, whose runtime must be the first "
                        "library of the process: running %s with LD_PRELOAD=%s\n", driver, exe, getenv("LD_PRELOAD"));
        free(saved);
        return run_in(exe, argv);
    }
    if (ready && old) /* as it was: none, empty, or what saved holds */
        setenv("LD_PRELOAD", saved ? saved : "", 1);
    else if (ready)
        unsetenv("LD_PRELOAD");
    free(saved);
    fprintf(stderr, "wddmkit: cannot load %s into this build: it was built with GCC's AddressSanitizer, whose "
                    "runtime (%s) must be the first library of the process, and no build found (%d tried) loads "
                    "it with that runtime preloaded. ", driver, soname[0] ? soname : "libasan.so.N", c->count + 1);
    wk_cli_gcc_asan_advice(stderr, soname);
    return 2;
}

/* The first of c's builds that loads driver and is of this commit, or -1.
 * The builds asked do not ask others in turn (HANDED_OVER while they run):
 * no probe of a probe. */
static int first_loading(const struct candidates *c, const char *driver)
{
    setenv(HANDED_OVER, "1", 1);
    int found = -1;
    for (int i = 0; i < c->count && found < 0; i++)
        if (wk_cli_build_loads_driver(c->path[i], driver) && current_build(c->path[i]))
            found = i;
    unsetenv(HANDED_OVER);
    return found;
}

int wk_cli_build_for_driver(const char *driver, char *exe, size_t exe_size)
{
    if (getenv(HANDED_OVER))
        return 0;
    static struct candidates c; /* PATH_MAX paths: too large for the stack */
    find_candidates(&c, driver);
    int i = first_loading(&c, driver);
    return i >= 0 && snprintf(exe, exe_size, "%s", c.path[i]) < (int)exe_size;
}

int wk_cli_hand_over(int argc, char **argv)
{
    const char *driver = argc >= 2 && loads_driver(argv[1]) ? driver_argument(argc, argv) : NULL;
    if (!driver || getenv(HANDED_OVER))
        return -1;
    wk_cli_load_timeout_from_argv(argc, argv);
    char why[1024], sym[256] = "", soname[64];
    if (wk_cli_driver_probe(driver, why, sizeof(why)) != WK_CLI_DRIVER_NEEDS_RUNTIME)
        return -1; /* it loads, or fails in a way the command itself reports */
    static struct candidates c; /* PATH_MAX paths: too large for the stack */
    find_candidates(&c, driver);
    if (wk_cli_gcc_asan_module(driver, why, soname, sizeof(soname)))
        return preload_hand_over(argv, driver, soname, &c);
    wk_vidmm_missing_runtime_symbol(why, sym, sizeof(sym));
    int i = first_loading(&c, driver);
    if (i >= 0) {
        fprintf(stderr, "wddmkit: %s needs %s, which this build lacks (a module built with sanitizers or fuzzer "
                        "coverage): running %s\n", driver, sym, c.path[i]);
        return run_in(c.path[i], argv);
    }
    fprintf(stderr,
            "wddmkit: cannot load %s into this build: undefined symbol %s. The module was built with sanitizers "
            "or fuzzer coverage, whose runtime this wddmkit lacks, and no other build found (%d tried) loads it. "
            "Build wddmkit like the driver (for the libfuzzer preset: cmake --preset libfuzzer && cmake --build "
            "--preset libfuzzer, then build/libfuzzer/cli/wddmkit), or give an uninstrumented build of "
            "the driver.\n",
            driver, sym, c.count);
    installed_advice(&c);
    return 2;
}
