/* SPDX-License-Identifier: MIT */
/*
 * cli_driver_build.c - a driver module and the wddmkit build that can load
 * it: `wddmkit driver check PATH`, and the hand-over that makes `wddmkit
 * repro|minimize|promote|triage|conform --driver PATH` run in such a build.
 *
 * Why: a module built with sanitizers or fuzzer coverage needs that
 * instrumentation's runtime in the process that loads it, and
 * docs/fuzzing.md asks for a driver built like the harness that fuzzes it
 * (the libfuzzer preset: ASan, UBSan and libFuzzer's coverage). The
 * wddmkit of the default preset has no such runtime. Given a crash of such
 * a driver, `repro` used to end in an error for a program it runs itself,
 * or in the replay binary's abort, which it reported as a crash of the
 * driver, and `wddmkit fuzz` printed that as the finding's signature.
 *
 * Before a command that loads a driver starts, the module is loaded once
 * in a forked child (a driver's constructors may crash). When the loader
 * names an undefined symbol of an instrumentation runtime, the first
 * wddmkit that answers `driver check PATH` with success runs the same
 * command line instead: first the build trees the driver lies in (a
 * driver of build/libfuzzer/examples/drivers/ goes to
 * build/libfuzzer/cli/wddmkit), then every build beside this one.
 * The loader decides, not a guess from file names. When none can, the
 * command stops with the symbol and the cmake line that makes such a
 * build (exit 2), before it runs anything.
 *
 * GCC instruments differently: clang links a sanitizer's runtime into the
 * executable (a module lacks its symbols, and a build of the kit has them),
 * GCC links the module to the shared runtime (libasan.so.N in its
 * DT_NEEDED), which loads and then ends the process from its constructor
 * unless it is the first library of the process ("ASan runtime does not
 * come first in initial library list"). No build of the kit has that
 * runtime (its sanitizer presets are clang's, and the two ASan runtimes
 * cannot share a process); an uninstrumented wddmkit started with the
 * runtime preloaded (LD_PRELOAD=libasan.so.N) runs such a driver, so that
 * is the hand-over: this wddmkit, else another build, run again with it.
 * GCC's libubsan.so.N alone needs nothing: it loads as any library does.
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

#include "cli.h"
#include "cli_options.h"
#include "conformance.h"

/* Set in the environment of the wddmkit that takes a command over, so that
 * it never hands it on again. */
#define HANDED_OVER "WK_DRIVER_BUILD_CHOSEN"

/* Build trees above a driver that are looked at (build/<preset>/examples/
 * drivers/x.so is three levels down). */
#define ANCESTORS 6
#define MAX_CANDIDATES 32

/* The child's side of the probe: load, look up DriverEntry, write what went
 * wrong (nothing: it loads) to fd. */
static void probe_child(const char *path, int fd)
{
    char why[1024] = "";
    void *so = wk_vidmm_module_open(path, RTLD_NOW | RTLD_LOCAL);
    if (!so) {
        const char *e = dlerror();
        snprintf(why, sizeof(why), "%s", e ? e : "dlopen failed");
    } else if (!dlsym(so, "DriverEntry")) {
        snprintf(why, sizeof(why), "%s exports no DriverEntry", path);
    }
    size_t n = strlen(why), off = 0;
    while (off < n) {
        ssize_t w = write(fd, why + off, n - off);
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    _exit(0);
}

/* Reads the child's pipe to its end (so it never blocks on a full pipe),
 * keeping the first cap - 1 bytes in why. */
static void drain_pipe(int fd, char *why, size_t cap)
{
    size_t n = 0;
    for (;;) {
        char chunk[256];
        ssize_t r = read(fd, chunk, sizeof(chunk));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        size_t take = (size_t)r < cap - 1 - n ? (size_t)r : cap - 1 - n;
        memcpy(why + n, chunk, take);
        n += take;
    }
    why[n] = '\0';
}

/* ------------------------------------------------------------------ */
/* GCC's shared ASan runtime                                            */
/* ------------------------------------------------------------------ */

/* What GCC's libasan says, on stderr, as it ends a process it was loaded
 * into too late. */
#define ASAN_NOT_FIRST "ASan runtime does not come first in initial library list"

/* Whether the module at path names GCC's shared ASan runtime
 * (libasan.so.N, in its dynamic string table), that soname into out. Read
 * as bytes, not parsed: the loader's message still tells when the runtime
 * comes in through another library (gcc_asan_module). */
static int needs_gcc_asan(const char *path, char *out, size_t cap)
{
    static const char prefix[] = "libasan.so.";
    if (!wk_file_find(path, prefix, out, cap))
        return 0;
    size_t len = strlen(out);
    if (len == sizeof(prefix) - 1 || strspn(out + sizeof(prefix) - 1, "0123456789.") != len - (sizeof(prefix) - 1)) {
        out[0] = '\0'; /* a string that only starts like the soname */
        return 0;
    }
    return 1;
}

/* A module that needs GCC's ASan runtime first: by its DT_NEEDED, or by
 * what the runtime printed (a libasan that comes in through another
 * library: then the soname stays empty). */
static int gcc_asan_module(const char *path, const char *err, char *soname, size_t cap)
{
    soname[0] = '\0';
    return needs_gcc_asan(path, soname, cap) || strstr(err, ASAN_NOT_FIRST) != NULL;
}

/* What to run instead, printed after the reason. */
static void gcc_asan_advice(FILE *out, const char *soname)
{
    const char *lib = soname[0] ? soname : "libasan.so.N (the one its libraries need)";
    char self[PATH_MAX];
    if (!realpath("/proc/self/exe", self))
        snprintf(self, sizeof(self), "wddmkit");
    if (dlsym(RTLD_DEFAULT, "__asan_init")) /* clang's, linked into this build */
        fprintf(out, "This wddmkit has clang's AddressSanitizer runtime, which cannot share a process with "
                     "GCC's: run an uninstrumented build of wddmkit (the default preset's "
                     "build/default/cli/wddmkit) as LD_PRELOAD=%s wddmkit ..., or build the driver "
                     "with clang -fsanitize=address,undefined like the libfuzzer preset (docs/fuzzing.md).\n",
                lib);
    else
        fprintf(out, "Run wddmkit with that runtime preloaded: LD_PRELOAD=%s %s ... (repro, minimize, promote, "
                     "triage, conform and coverage do it themselves).\n",
                lib, self);
}

/* ------------------------------------------------------------------ */
/* Probing a module                                                     */
/* ------------------------------------------------------------------ */

/* The first non-empty line of what the child wrote to err (at most cap - 1
 * bytes of it): a runtime that ends the process while loading says why
 * there, and that goes into the verdict rather than onto the terminal. */
static void first_line(FILE *err, char *line, size_t cap)
{
    char buf[2048];
    line[0] = '\0';
    if (!err || fseek(err, 0, SEEK_SET) != 0)
        return;
    size_t n = fread(buf, 1, sizeof(buf) - 1, err);
    buf[n] = '\0';
    const char *at = buf + strspn(buf, "\n");
    size_t pid = at[0] == '=' && at[1] == '=' ? strspn(at + 2, "0123456789") : 0;
    if (pid && strncmp(at + 2 + pid, "==", 2) == 0) /* a sanitizer's "==PID==": nothing to the reader */
        at += 2 + pid + 2;
    snprintf(line, cap, "%.*s", (int)strcspn(at, "\n"), at);
}

/* Whether this process already has the shared library soname (GCC's
 * runtime, preloaded): then a module needing it that dies is a crash. */
static int loaded(const char *soname)
{
    void *h = soname[0] ? dlopen(soname, RTLD_LAZY | RTLD_NOLOAD) : NULL;
    if (h)
        dlclose(h);
    return h != NULL;
}

/* The verdict on a child that did not return from loading. GCC's runtime
 * ends it by exit, or by abort under ASAN_OPTIONS=abort_on_error=1 (the
 * asan preset's tests), before any constructor of the module has run. */
static enum wk_cli_driver_load ended(const char *path, int st, const char *err, char *why, size_t cap)
{
    char soname[64];
    const char *sep = err[0] ? ": " : "";
    if (gcc_asan_module(path, err, soname, sizeof(soname)) && !loaded(soname)) {
        snprintf(why, cap, "built with GCC's AddressSanitizer, whose runtime (%s) must be the first library of "
                           "the process%s%s", soname[0] ? soname : "libasan.so", sep, err);
        return WK_CLI_DRIVER_NEEDS_RUNTIME;
    }
    if (WIFSIGNALED(st))
        snprintf(why, cap, "%s crashed while loading (signal %d, %s)%s%s", path, WTERMSIG(st),
                 strsignal(WTERMSIG(st)), sep, err);
    else
        snprintf(why, cap, "%s ended the process while loading (exit code %d)%s%s", path, WEXITSTATUS(st), sep,
                 err);
    return WK_CLI_DRIVER_CRASHED;
}

enum wk_cli_driver_load wk_cli_driver_probe(const char *path, char *why, size_t cap)
{
    int fds[2];
    why[0] = '\0';
    if (pipe(fds) != 0) {
        snprintf(why, cap, "cannot probe %s: pipe: %s", path, strerror(errno));
        return WK_CLI_DRIVER_REFUSED;
    }
    FILE *err = tmpfile(); /* NULL: the child's stderr stays the terminal */
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        if (err)
            fclose(err);
        snprintf(why, cap, "cannot probe %s: fork: %s", path, strerror(errno));
        return WK_CLI_DRIVER_REFUSED;
    }
    if (pid == 0) {
        close(fds[0]);
        if (err)
            dup2(fileno(err), STDERR_FILENO);
        probe_child(path, fds[1]);
    }
    close(fds[1]);
    drain_pipe(fds[0], why, cap);
    close(fds[0]);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    char said[512];
    first_line(err, said, sizeof(said));
    if (err)
        fclose(err);
    if (WIFSIGNALED(st) || (WIFEXITED(st) && WEXITSTATUS(st) != 0)) /* its constructor, or a sanitizer */
        return ended(path, st, said, why, cap);
    char sym[256];
    if (why[0] && wk_vidmm_missing_runtime_symbol(why, sym, sizeof(sym)))
        return WK_CLI_DRIVER_NEEDS_RUNTIME;
    return why[0] ? WK_CLI_DRIVER_REFUSED : WK_CLI_DRIVER_LOADS;
}

/* ------------------------------------------------------------------ */
/* `wddmkit driver check PATH`                                          */
/* ------------------------------------------------------------------ */

static const char driver_about[] =
    "Loads the driver module PATH into this build of wddmkit (in a child process) and looks up\n"
    "DriverEntry. Exit 0: it loads; 2: it does not (the loader's reason, and for a module built\n"
    "with sanitizers or fuzzer coverage the runtime symbol it lacks, or for one built with GCC's\n"
    "-fsanitize=address the runtime to preload); 3: it crashed while loading.\n"
    "repro, minimize, promote, triage, conform and coverage run this check on their --driver and,\n"
    "when the module needs a runtime this build lacks, hand the command to a build that has it\n"
    "(for GCC's ASan: this one or another, run again with LD_PRELOAD=libasan.so.N).";

static const struct wk_cli_command check_command = { "driver check", "PATH", NULL, driver_about, NULL };

static int take_path(void *ctx, const struct wk_cli_arg *a)
{
    const char **path = ctx;
    if (*path)
        return wk_cli_error(a->cmd, "one PATH only, saw '%s' after '%s'", a->value, *path);
    *path = a->value;
    return 0;
}

static int driver_check(int argc, char **argv)
{
    const char *path = NULL;
    int rc = wk_cli_parse(&check_command, argc, argv, take_path, &path);
    if (rc != WK_CLI_CONTINUE)
        return rc;
    if (!path)
        return wk_cli_usage_error(&check_command, "expected the driver module's PATH");
    if (wk_cli_parse_only)
        return 0;
    char why[1024], soname[64];
    enum wk_cli_driver_load load = wk_cli_driver_probe(path, why, sizeof(why));
    switch (load) {
    case WK_CLI_DRIVER_LOADS:
        printf("%s: loads into this build and exports DriverEntry\n", path);
        return 0;
    case WK_CLI_DRIVER_CRASHED:
        printf("%s\n", why);
        return 3;
    default:
        printf("%s: does not load into this build: %s\n", path, why);
        if (load == WK_CLI_DRIVER_NEEDS_RUNTIME && gcc_asan_module(path, why, soname, sizeof(soname)))
            gcc_asan_advice(stdout, soname);
        return 2;
    }
}

int wk_cli_driver(int argc, char **argv)
{
    static const struct wk_cli_subcommand subs[] = { { "check", &check_command, driver_check } };
    return wk_cli_dispatch("driver", driver_about, subs, 1, argc, argv);
}

/* ------------------------------------------------------------------ */
/* Handing a command to a build that can load its driver               */
/* ------------------------------------------------------------------ */

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
    /* The builds beside this one: <root>/<build>/cli/wddmkit. */
    snprintf(dir, sizeof(dir), "%s", c->self);
    if (up(dir) && up(dir) && up(dir))
        consider_builds_in(c, dir);
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
        if (!exe[0] || !wk_cli_build_loads_driver(exe, driver))
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
    gcc_asan_advice(stderr, soname);
    return 2;
}

int wk_cli_hand_over(int argc, char **argv)
{
    const char *driver = argc >= 2 && loads_driver(argv[1]) ? driver_argument(argc, argv) : NULL;
    if (!driver || getenv(HANDED_OVER))
        return -1;
    char why[1024], sym[256] = "", soname[64];
    if (wk_cli_driver_probe(driver, why, sizeof(why)) != WK_CLI_DRIVER_NEEDS_RUNTIME)
        return -1; /* it loads, or fails in a way the command itself reports */
    static struct candidates c; /* PATH_MAX paths: too large for the stack */
    find_candidates(&c, driver);
    if (gcc_asan_module(driver, why, soname, sizeof(soname)))
        return preload_hand_over(argv, driver, soname, &c);
    wk_vidmm_missing_runtime_symbol(why, sym, sizeof(sym));
    for (int i = 0; i < c.count; i++) {
        if (!wk_cli_build_loads_driver(c.path[i], driver))
            continue;
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
    return 2;
}
