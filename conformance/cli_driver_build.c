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
 * build/libfuzzer/conformance/wddmkit), then every build beside this one.
 * The loader decides, not a guess from file names. When none can, the
 * command stops with the symbol and the cmake line that makes such a
 * build (exit 2), before it runs anything.
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
#include "conform.h"

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

/* Reads fd to its end into why (truncated to cap - 1). */
static void read_all(int fd, char *why, size_t cap)
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

enum wk_cli_driver_load wk_cli_driver_probe(const char *path, char *why, size_t cap)
{
    int fds[2];
    why[0] = '\0';
    if (pipe(fds) != 0) {
        snprintf(why, cap, "cannot probe %s: pipe: %s", path, strerror(errno));
        return WK_CLI_DRIVER_REFUSED;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        snprintf(why, cap, "cannot probe %s: fork: %s", path, strerror(errno));
        return WK_CLI_DRIVER_REFUSED;
    }
    if (pid == 0) {
        close(fds[0]);
        probe_child(path, fds[1]);
    }
    close(fds[1]);
    read_all(fds[0], why, cap);
    close(fds[0]);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (WIFSIGNALED(st)) {
        snprintf(why, cap, "%s crashed while loading (signal %d, %s)", path, WTERMSIG(st), strsignal(WTERMSIG(st)));
        return WK_CLI_DRIVER_CRASHED;
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) != 0) { /* its constructor exited, or a sanitizer ended it */
        snprintf(why, cap, "%s ended the process while loading (exit code %d)", path, WEXITSTATUS(st));
        return WK_CLI_DRIVER_CRASHED;
    }
    char sym[256];
    if (why[0] && wk_vidmm_missing_runtime_symbol(why, sym, sizeof(sym)))
        return WK_CLI_DRIVER_NEEDS_RUNTIME;
    return why[0] ? WK_CLI_DRIVER_REFUSED : WK_CLI_DRIVER_LOADS;
}

/* ------------------------------------------------------------------ */
/* `wddmkit driver check PATH`                                          */
/* ------------------------------------------------------------------ */

static void driver_usage(FILE *out)
{
    fputs("usage: wddmkit driver check PATH\n"
          "Loads the driver module PATH into this build of wddmkit (in a child process) and looks up\n"
          "DriverEntry. Exit 0: it loads; 2: it does not (the loader's reason, and for a module built\n"
          "with sanitizers or fuzzer coverage the runtime symbol it lacks); 3: it crashed while loading.\n"
          "repro, minimize, promote, triage, conform and coverage run this check on their --driver and,\n"
          "when the module needs a runtime this build lacks, hand the command to a build that has it.\n",
          out);
}

int wk_cli_driver(int argc, char **argv)
{
    if (argc >= 1 && (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0)) {
        driver_usage(stdout);
        return 0;
    }
    if (argc != 2 || strcmp(argv[0], "check") != 0) {
        fprintf(stderr, "wddmkit driver: expected 'check PATH', saw %d argument%s%s%s\n", argc,
                argc == 1 ? "" : "s", argc ? " starting with " : "", argc ? argv[0] : "");
        driver_usage(stderr);
        return 2;
    }
    if (wk_cli_parse_only)
        return 0;
    char why[1024];
    switch (wk_cli_driver_probe(argv[1], why, sizeof(why))) {
    case WK_CLI_DRIVER_LOADS:
        printf("%s: loads into this build and exports DriverEntry\n", argv[1]);
        return 0;
    case WK_CLI_DRIVER_CRASHED:
        printf("%s\n", why);
        return 3;
    default:
        printf("%s: does not load into this build: %s\n", argv[1], why);
        return 2;
    }
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

/* Adds dir/conformance/wddmkit when it is an executable other than this
 * one and not yet listed. */
static void consider(struct candidates *c, const char *dir)
{
    char path[PATH_MAX], real[PATH_MAX];
    if (c->count == MAX_CANDIDATES || snprintf(path, sizeof(path), "%s/conformance/wddmkit", dir) >= (int)sizeof(path))
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
    /* The builds beside this one: <root>/<build>/conformance/wddmkit. */
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

int wk_cli_hand_over(int argc, char **argv)
{
    const char *driver = argc >= 2 && loads_driver(argv[1]) ? driver_argument(argc, argv) : NULL;
    if (!driver || getenv(HANDED_OVER))
        return -1;
    char why[1024], sym[256] = "";
    if (wk_cli_driver_probe(driver, why, sizeof(why)) != WK_CLI_DRIVER_NEEDS_RUNTIME)
        return -1; /* it loads, or fails in a way the command itself reports */
    wk_vidmm_missing_runtime_symbol(why, sym, sizeof(sym));
    static struct candidates c;
    find_candidates(&c, driver);
    for (int i = 0; i < c.count; i++) {
        if (!wk_cli_build_loads_driver(c.path[i], driver))
            continue;
        fprintf(stderr, "wddmkit: %s needs %s, which this build lacks (a module built with sanitizers or fuzzer "
                        "coverage): running %s\n", driver, sym, c.path[i]);
        fflush(NULL);
        setenv(HANDED_OVER, "1", 1);
        argv[0] = c.path[i];
        execv(c.path[i], argv);
        fprintf(stderr, "wddmkit: cannot run %s: %s\n", c.path[i], strerror(errno));
        return 2;
    }
    fprintf(stderr,
            "wddmkit: cannot load %s into this build: undefined symbol %s. The module was built with sanitizers "
            "or fuzzer coverage, whose runtime this wddmkit lacks, and no other build found (%d tried) loads it. "
            "Build wddmkit like the driver (for the libfuzzer preset: cmake --preset libfuzzer && cmake --build "
            "--preset libfuzzer, then build/libfuzzer/conformance/wddmkit), or give an uninstrumented build of "
            "the driver.\n",
            driver, sym, c.count);
    return 2;
}
