/* SPDX-License-Identifier: MIT */
/*
 * driver_probe.c - whether a driver module loads into this build of
 * wddmkit (wk_cli_driver_probe, cli.h), and what a module built with GCC's
 * shared ASan runtime needs.
 *
 * Why: a module built with sanitizers or fuzzer coverage needs that
 * instrumentation's runtime in the process that loads it, and
 * docs/fuzz-your-driver.md asks for a driver built like the harness that
 * fuzzes it (the libfuzzer preset: ASan, UBSan and libFuzzer's coverage).
 * The wddmkit of the default preset has no such runtime. The module is
 * loaded once in a forked child (a driver's constructors may crash) and
 * the loader's message says what is missing: the loader decides, not a
 * guess from file names. `driver check` (cli_driver.c) prints the answer;
 * the hand-over (hand_over.c) acts on it.
 *
 * GCC instruments differently: clang links a sanitizer's runtime into the
 * executable (a module lacks its symbols, and a build of the kit has them),
 * GCC links the module to the shared runtime (libasan.so.N in its
 * DT_NEEDED), which loads and then ends the process from its constructor
 * unless it is the first library of the process ("ASan runtime does not
 * come first in initial library list"). No build of the kit has that
 * runtime (its sanitizer presets are clang's, and the two ASan runtimes
 * cannot share a process); an uninstrumented wddmkit started with the
 * runtime preloaded (LD_PRELOAD=libasan.so.N) runs such a driver.
 * GCC's libubsan.so.N alone needs nothing: it loads as any library does.
 *
 * Loading runs driver code (its constructors, then DriverEntry), so it is
 * held to the timeout of a DDI call (WK_VIDMM_DDI_TIMEOUT_MS): past it the
 * verdict is DRV-HANG-001, "while loading" or "in DriverEntry" (the child
 * says which by a byte it writes before calling DriverEntry). The child
 * runs under a shepherd (conformance/runner/isolation.h), the child
 * subreaper of all it starts, and this process is a subreaper too: nothing
 * a constructor or DriverEntry started outlives the probe (setsid() or
 * not, a hang or not), and the child's parent, which a driver may signal
 * (getppid()), is the shepherd, not wddmkit: a driver that stops it is
 * told so at once. A hung module is remembered, so the hand-over's probe
 * and the command's own cost the wait once.
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
#include <poll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "conformance.h" /* the shepherd: runner/isolation.h */
#include "cli_options.h"
#include "driver_probe.h"
#include "reference.h"
#include "wddmkit/binding.h"

/* Between the probe's reason (empty: it loads) and what it says of the
 * driver's table, in the child's answer. */
#define PROBE_INFO_SEPARATOR '\x1e'
/* Written by the child once the module is loaded, before DriverEntry: a
 * child killed at the timeout hung in DriverEntry when it arrived. */
#define PROBE_IN_ENTRY '\x1d'
/* Written by the child when DriverEntry returned: a child that exits 0
 * without it ended the process inside DriverEntry (_exit, exit). */
#define PROBE_RETURNED '\x1c'
/* How far a probe child came (split_answer). */
enum { PROBE_LOADING, PROBE_ENTERED, PROBE_DONE };
/* Loading and DriverEntry are driver code: a DDI call's time, unless
 * --load-timeout says otherwise (a driver that loads firmware in
 * DriverEntry may need more; a test of a hanging driver, less). */
static double probe_timeout_ms = WK_VIDMM_DDI_TIMEOUT_MS;

/* The driver ABI the module's DxgkInitialize said (driver.h,
 * WK_DRIVER_ABI_VERSION), 0 when it never called, and the table it handed
 * (of this ABI only). The probe then fails the call: nothing is started. */
static ULONG probed_abi;
static DRIVER_INITIALIZATION_DATA probed_table;
static int probed_have_table;

static NTSTATUS probe_initialize(DRIVER_OBJECT *self, PUNICODE_STRING path, const DRIVER_INITIALIZATION_DATA *init,
                                 ULONG driver_abi)
{
    (void)self, (void)path;
    probed_abi = driver_abi;
    if (init && WK_DRIVER_ABI_TAKEN(driver_abi)) {
        probed_table = *init;
        probed_have_table = 1;
    }
    return STATUS_REVISION_MISMATCH;
}

/* names[0..n) after `at` in info, comma-separated; the new end. */
static int append_names(char *info, size_t cap, int at, const char **names, uint32_t n)
{
    for (uint32_t i = 0; i < n && at > 0 && (size_t)at < cap; i++)
        at += snprintf(info + at, cap - (size_t)at, "%s%s", i ? ", " : "", names[i]);
    return at;
}

/* What the table says beyond loading: its interface version, the DDIs it
 * fills that the kit never calls, what its NULL DxgkDdiPatch means when
 * that is for its contexts to say (after WK_CLI_PATCH_LEFT: the table
 * alone does not make it missing), and the DDIs the kernel calls on every
 * adapter that renders that it leaves NULL (DDI-TABLE-001; written last,
 * after WK_CLI_DDIS_MISSING, which conform looks for). */
static void describe_table(char *info, size_t cap)
{
    const char *names[160];
    uint32_t n = wk_dxgk_undriven(&probed_table, names, 160);
    int at = snprintf(info, cap, "interface version 0x%x; DDIs it fills that the kit never calls: %s",
                      (unsigned)probed_table.Version, n ? "" : "none");
    at = append_names(info, cap, at, names, n < 160 ? n : 160);
    if (wk_dxgk_patch_left_to_contexts(&probed_table) && at > 0 && (size_t)at < cap)
        at += snprintf(info + at, cap - (size_t)at,
                       "%sneeded only for a context that does not report DXGK_CONTEXTINFO.Caps.NoPatchingRequired "
                       "(adapter-start.ddi-table asks one)",
                       WK_CLI_PATCH_LEFT);
    n = wk_dxgk_missing_required(&probed_table, names, 160);
    if (n == 0 || at <= 0 || (size_t)at >= cap)
        return;
    at += snprintf(info + at, cap - (size_t)at, "%s%u DDI%s the kernel calls on an adapter that renders: ",
                   WK_CLI_DDIS_MISSING, n, n == 1 ? "" : "s");
    at = append_names(info, cap, at, names, n < 160 ? n : 160);
    if (at > 0 && (size_t)at < cap)
        snprintf(info + at, cap - (size_t)at, " (DDI-TABLE-001)");
}

static NTSTATUS probe_initialize_abi1(DRIVER_OBJECT *self, PUNICODE_STRING path, const DRIVER_INITIALIZATION_DATA *init)
{
    (void)self, (void)path, (void)init;
    probed_abi = 1;
    return STATUS_REVISION_MISMATCH;
}

/* What the probe hands DriverEntry: its DRIVER_OBJECT and RegistryPath,
 * with the path's characters, at the start of a page of their own. The
 * probe does not judge the driver (the cases do, on guarded buffers:
 * MEM-GUARD-001); a DriverEntry that writes past one of them must not
 * land on the probe's stack, where it would crash the probe in one build
 * and not another (a sanitizer's redzone), so the rest of the pages are
 * slack nobody reads. */
struct probe_args {
    DRIVER_OBJECT object;
    UNICODE_STRING path;
    WCHAR text[128];
};
#define PROBE_ARGS_BYTES (2u * 4096u)

static struct probe_args *probe_args_new(void)
{
    void *p = mmap(NULL, PROBE_ARGS_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    struct probe_args *a = p;
    a->object.wk_magic = WK_DRIVER_OBJECT_MAGIC;
    a->object.wk_initialize_abi1 = probe_initialize_abi1;
    a->object.wk_initialize = probe_initialize;
    wk_vidmm_service_key(&a->path); /* what the kit passes: a driver may read it (Windows never passes NULL) */
    size_t n = a->path.MaximumLength < sizeof(a->text) ? a->path.MaximumLength : sizeof(a->text);
    memcpy(a->text, a->path.Buffer, n);
    a->path.Buffer = a->text;
    a->path.MaximumLength = (USHORT)n;
    if (a->path.Length > n)
        a->path.Length = (USHORT)n;
    return a;
}

/* Runs DriverEntry against the probe's object: the ABI it was built for. */
static ULONG driver_abi_of(void *entry)
{
    struct probe_args *a = probe_args_new();
    if (!a)
        return 0; /* no page: the ABI is learnt when the first case loads it */
    DRIVER_INITIALIZE *driver_entry;
    memcpy(&driver_entry, &entry, sizeof(driver_entry)); /* dlsym's object pointer as a function */
    driver_entry(&a->object, &a->path);
    return probed_abi; /* the probe child exits next: the pages go with it */
}

/* The child's side of the probe: load, look up DriverEntry, ask the driver
 * ABI it was compiled against, write what went wrong (nothing: it loads)
 * to fd. */
static void write_all(int fd, const char *s, size_t n)
{
    size_t off = 0;
    while (off < n) {
        ssize_t w = write(fd, s + off, n - off);
        if (w <= 0)
            break;
        off += (size_t)w;
    }
}

/* The start of every probe child: a process group of its own and death
 * with its shepherd (a killed kit leaves no loader spinning). */
static void probe_child_start(void)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    setpgid(0, 0);
    wk_report_stdout_close_in_child(); /* a report on stdout is conform's alone */
}

static void probe_child(const char *path, int fd)
{
    char why[4096] = "";
    probe_child_start();
    void *so = wk_vidmm_module_open(path, RTLD_NOW | RTLD_LOCAL), *entry = NULL;
    ULONG abi = 0;
    if (!so) {
        const char *e = dlerror();
        if (!wk_vidmm_module_foreign(path, why, sizeof(why))) /* dlopen says "No such file" */
            snprintf(why, sizeof(why), "%s", e ? e : "dlopen failed");
    } else if (!(entry = dlsym(so, "DriverEntry"))) {
        snprintf(why, sizeof(why), "%s exports no DriverEntry", path);
    } else if (write_all(fd, (const char[]){ PROBE_IN_ENTRY }, 1), abi = driver_abi_of(entry),
               write_all(fd, (const char[]){ PROBE_RETURNED }, 1), abi != 0 && !WK_DRIVER_ABI_TAKEN(abi)) {
        snprintf(why, sizeof(why),
                 "%s was compiled against wddmkit driver ABI %u; this kit's is %u, and it takes %u to %u "
                 "(WK_DRIVER_ABI_VERSION in include/wddmkit/driver.h): rebuild it against this kit's include/wddmkit/",
                 path, (unsigned)abi, WK_DRIVER_ABI_VERSION, WK_DRIVER_ABI_OLDEST, WK_DRIVER_ABI_VERSION);
    } else if (probed_have_table && !wk_dxgk_version_supported(probed_table.Version, why, sizeof(why))) {
        /* why says it */
    } else if (probed_have_table) {
        size_t n = strlen(why);
        why[n] = PROBE_INFO_SEPARATOR;
        describe_table(why + n + 1, sizeof(why) - n - 1);
    }
    write_all(fd, why, strlen(why));
    _exit(0);
}

/* ------------------------------------------------------------------ */
/* Waiting for a probe child                                            */
/* ------------------------------------------------------------------ */

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* What a probe child wrote so far: the first cap - 1 bytes into out (read
 * on past them, so the child never blocks on a full pipe). *fd becomes -1
 * at the end of the pipe. */
struct probe_text {
    char *out;
    size_t cap, n;
};

static void read_available(int *fd, struct probe_text *t)
{
    while (*fd >= 0) {
        char chunk[256];
        ssize_t r = read(*fd, chunk, sizeof(chunk));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 && errno == EAGAIN)
            return;
        if (r <= 0) {
            close(*fd);
            *fd = -1;
            return;
        }
        size_t room = t->cap - 1 - t->n, take = (size_t)r < room ? (size_t)r : room;
        memcpy(t->out + t->n, chunk, take);
        t->n += take;
    }
}

/*
 * Waits at most probe_timeout_ms for the probe's shepherd (isolation.h:
 * the loading child runs under it, so the child's parent is not this
 * process), collecting what the child writes to fd (-1: nothing to read;
 * closed here) into t, then reaps the shepherd into *status and kills
 * every process the child started: the shepherd does when the child ends;
 * this process, a subreaper, does when the shepherd was killed at the
 * deadline or died. 1 when it was killed at the deadline; *stopped says
 * whether the driver stopped its parent, the shepherd (SIGSTOP: then it is
 * killed at once). The shepherd is watched, not the pipe: a constructor
 * may close the pipe, or hand it to a process that lingers.
 */
static int await_probe(pid_t pid, int fd, struct probe_text *t, int *status, int *stopped)
{
    double deadline = now_ms() + probe_timeout_ms;
    int late = 0;
    enum wk_shepherd_state state;
    if (fd >= 0)
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    for (;;) {
        state = wk_shepherd_state(pid);
        read_available(&fd, t); /* after the end was seen: all the child wrote is in the pipe */
        double left = deadline - now_ms();
        if (state != WK_SHEPHERD_RUNNING || (late = left <= 0))
            break;
        struct pollfd p = { fd, POLLIN, 0 };
        poll(&p, 1, left < 20 ? (int)left + 1 : 20); /* fd -1: a plain sleep */
    }
    *stopped = state == WK_SHEPHERD_STOPPED;
    if (late || *stopped)
        wk_shepherd_stop(pid); /* SIGKILL: the child dies with it (PR_SET_PDEATHSIG) */
    if (wk_shepherd_wait(pid, status, 2000) != 0)
        *status = SIGKILL; /* as waitpid says of a process killed by SIGKILL */
    wk_reap_strays(NULL, 0, 2000); /* what the child started, when the shepherd could not kill it */
    read_available(&fd, t);
    if (fd >= 0)
        close(fd);
    if (t && t->cap)
        t->out[t->n] = '\0';
    return late;
}

/* The verdict on a probe killed at the deadline. */
static enum wk_cli_driver_load hung(const char *path, int in_entry, char *why, size_t cap)
{
    snprintf(why, cap, "DRV-HANG-001: %s hung %s: %s within %.0f ms (%s); the process that "
             "loaded it was killed, with every process it started", path,
             in_entry ? "in DriverEntry" : "while loading",
             in_entry ? "DriverEntry did not return" : "its load-time code (constructors) did not finish",
             probe_timeout_ms,
             probe_timeout_ms == WK_VIDMM_DDI_TIMEOUT_MS ? "the timeout of a DDI call; --load-timeout sets it"
                                                         : "--load-timeout");
    return WK_CLI_DRIVER_HUNG;
}

/* The verdict on a probe whose driver stopped its parent, the kit's
 * shepherd: it would have held the probe for ever. */
static enum wk_cli_driver_load stopped_loader(const char *path, int in_entry, char *why, size_t cap)
{
    snprintf(why, cap, "%s stopped the kit's process above the one that loaded it (SIGSTOP to its parent) %s; "
             "the kit killed both, with every process it started", path, in_entry ? "in DriverEntry" : "while loading");
    return WK_CLI_DRIVER_CRASHED;
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
int wk_cli_gcc_asan_module(const char *path, const char *err, char *soname, size_t cap)
{
    soname[0] = '\0';
    return needs_gcc_asan(path, soname, cap) || strstr(err, ASAN_NOT_FIRST) != NULL;
}

/* What to run instead, printed after the reason. */
void wk_cli_gcc_asan_advice(FILE *out, const char *soname)
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
static enum wk_cli_driver_load ended(const char *path, int st, int stage, const char *err, char *why, size_t cap)
{
    const char *where = stage == PROBE_ENTERED ? "in DriverEntry" : "while loading";
    char soname[64];
    const char *sep = err[0] ? ": " : "";
    if (wk_cli_gcc_asan_module(path, err, soname, sizeof(soname)) && !loaded(soname)) {
        snprintf(why, cap, "built with GCC's AddressSanitizer, whose runtime (%s) must be the first library of "
                           "the process%s%s", soname[0] ? soname : "libasan.so", sep, err);
        return WK_CLI_DRIVER_NEEDS_RUNTIME;
    }
    if (WIFSIGNALED(st))
        snprintf(why, cap, "%s crashed %s (signal %d, %s)%s%s", path, where, WTERMSIG(st),
                 strsignal(WTERMSIG(st)), sep, err);
    else
        snprintf(why, cap, "%s ended the process %s (exit code %d)%s%s", path, where, WEXITSTATUS(st), sep,
                 err);
    return WK_CLI_DRIVER_CRASHED;
}

int wk_cli_load_timeout_arg(const struct wk_cli_arg *a)
{
    double seconds = 0;
    if (wk_cli_decimal(a, 0.01, 3600, &seconds))
        return 2;
    probe_timeout_ms = seconds * 1000;
    return 0;
}

/* The hand-over probes a command's --driver before the command parses its
 * options: it takes --load-timeout from argv the same way, quietly (a bad
 * value is the command's own parser's to report). */
void wk_cli_load_timeout_from_argv(int argc, char **argv)
{
    for (int i = 2; i < argc && strcmp(argv[i], "--") != 0; i++) {
        const char *v = strncmp(argv[i], "--load-timeout=", 15) == 0 ? argv[i] + 15
                        : strcmp(argv[i], "--load-timeout") == 0 && i + 1 < argc ? argv[i + 1]
                                                                                   : NULL;
        char *end = NULL;
        double seconds = v ? strtod(v, &end) : 0;
        if (v && end != v && !*end && seconds >= 0.01 && seconds <= 3600)
            probe_timeout_ms = seconds * 1000;
    }
}

enum wk_cli_driver_load wk_cli_driver_probe(const char *path, char *why, size_t cap)
{
    return wk_cli_driver_probe_info(path, why, cap, NULL, 0);
}

/* A module that hung is remembered: the hand-over probes a command's
 * --driver before the command does, and the wait is paid once. */
static struct {
    char path[PATH_MAX];
    char why[1024];
} hung_module;

static int remembered_hang(const char *path, char *why, size_t cap)
{
    if (!hung_module.path[0] || strcmp(hung_module.path, path) != 0)
        return 0;
    snprintf(why, cap, "%s", hung_module.why);
    return 1;
}

static void remember_hang(const char *path, const char *why)
{
    if (snprintf(hung_module.path, sizeof(hung_module.path), "%s", path) >= (int)sizeof(hung_module.path))
        hung_module.path[0] = '\0';
    snprintf(hung_module.why, sizeof(hung_module.why), "%s", why);
}

/* The child's answer into why (the reason) and info (what the table says);
 * *stage how far it came: PROBE_LOADING, PROBE_ENTERED (DriverEntry was
 * called) or PROBE_DONE (it returned). */
static void split_answer(char *why, char *info, size_t info_cap, int *stage)
{
    *stage = PROBE_LOADING;
    if (why[0] == PROBE_IN_ENTRY) {
        memmove(why, why + 1, strlen(why));
        *stage = PROBE_ENTERED;
        if (why[0] == PROBE_RETURNED) {
            memmove(why, why + 1, strlen(why));
            *stage = PROBE_DONE;
        }
    }
    char *sep = strchr(why, PROBE_INFO_SEPARATOR);
    if (sep) { /* the reason, then what the table says */
        if (info && info_cap)
            snprintf(info, info_cap, "%s", sep + 1);
        *sep = '\0';
    }
}

/* The verdict on a child that answered (or died) in time. */
static enum wk_cli_driver_load answered(const char *path, int st, FILE *err, int stage, char *why, size_t cap)
{
    char said[512];
    first_line(err, said, sizeof(said));
    if (WIFSIGNALED(st) || (WIFEXITED(st) && WEXITSTATUS(st) != 0) || stage == PROBE_ENTERED)
        return ended(path, st, stage, said, why, cap); /* its constructor or DriverEntry, or a sanitizer */
    char sym[256];
    if (why[0] && wk_vidmm_missing_runtime_symbol(why, sym, sizeof(sym)))
        return WK_CLI_DRIVER_NEEDS_RUNTIME;
    return why[0] ? WK_CLI_DRIVER_REFUSED : WK_CLI_DRIVER_LOADS;
}

enum wk_cli_driver_load wk_cli_driver_probe_info(const char *path, char *why, size_t cap, char *info, size_t info_cap)
{
    if (info && info_cap)
        info[0] = '\0';
    int fds[2];
    why[0] = '\0';
    if (remembered_hang(path, why, cap))
        return WK_CLI_DRIVER_HUNG;
    if (pipe(fds) != 0) {
        snprintf(why, cap, "cannot probe %s: pipe: %s", path, strerror(errno));
        return WK_CLI_DRIVER_REFUSED;
    }
    FILE *err = tmpfile(); /* NULL: the child's stderr stays the terminal */
    fflush(NULL);
    wk_reap_become_subreaper(); /* what the driver started comes here if its shepherd dies */
    const char *call = "fork";
    pid_t pid = wk_shepherd_fork(NULL, &call, NULL, NULL);
    if (pid < 0) {
        int e = errno;
        close(fds[0]);
        close(fds[1]);
        if (err)
            fclose(err);
        snprintf(why, cap, "cannot probe %s: %s: %s", path, call, strerror(e));
        return WK_CLI_DRIVER_REFUSED;
    }
    if (pid == 0) {
        close(fds[0]);
        if (err)
            dup2(fileno(err), STDERR_FILENO);
        probe_child(path, fds[1]);
    }
    close(fds[1]);
    int st = 0, stage, stopped;
    struct probe_text t = { why, cap, 0 };
    int late = await_probe(pid, fds[0], &t, &st, &stopped);
    split_answer(why, info, info_cap, &stage);
    enum wk_cli_driver_load verdict = stopped ? stopped_loader(path, stage != PROBE_LOADING, why, cap)
                                      : late  ? hung(path, stage != PROBE_LOADING, why, cap)
                                              : answered(path, st, err, stage, why, cap);
    if (err)
        fclose(err);
    if (verdict == WK_CLI_DRIVER_HUNG)
        remember_hang(path, why);
    return verdict;
}

/* Whether the module exports `symbol`: 1 yes, 0 no, -1 it cannot be
 * asked. In a child: the module's constructors run there, not in the kit. */
static int driver_exports(const char *path, const char *symbol)
{
    fflush(stdout);
    fflush(stderr);
    wk_reap_become_subreaper();
    pid_t pid = wk_shepherd_fork(NULL, NULL, NULL, NULL);
    if (pid < 0)
        return -1;
    if (pid == 0) {
        probe_child_start();
        void *so = wk_vidmm_module_open(path, RTLD_NOW | RTLD_LOCAL);
        _exit(so && dlsym(so, symbol) ? 0 : 1);
    }
    int st = 0, stopped;
    if (await_probe(pid, -1, NULL, &st, &stopped) || stopped) /* a load that hangs this time: it cannot be asked */
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) == 0 : -1;
}

int wk_cli_driver_declares_model(const char *path)
{
    return driver_exports(path, WK_DRIVER_GPU_MODEL_SYMBOL);
}

int wk_cli_driver_declares_kit_umd(const char *path)
{
    return driver_exports(path, WK_DRIVER_KIT_UMD_SYMBOL);
}

/* The binding probe's child: finds and checks the binding, writes the
 * parts byte and the description (or the reason) to fd. */
static void binding_child(const char *path, int from_driver, int fd)
{
    char text[1024] = "";
    const struct wk_binding *b = NULL;
    probe_child_start();
    wk_status st = from_driver ? wk_vidmm_binding_exported(path, &b, text, sizeof(text))
                               : wk_vidmm_binding_open(path, &b, text, sizeof(text));
    char parts = 0;
    if (st == WK_OK) {
        parts = (char)(WK_CLI_BINDING_FOUND | (b->processor ? WK_CLI_BINDING_PROCESSOR : 0) |
                       (b->encoder ? WK_CLI_BINDING_ENCODER : 0) | (b->registers ? WK_CLI_BINDING_REGISTERS : 0) |
                       (b->disasm ? WK_CLI_BINDING_DISASM : 0));
        wk_vidmm_binding_describe(b, text, sizeof(text));
    } else if (st == WK_E_NOT_FOUND && from_driver) {
        text[0] = 0;
    } else if (!text[0]) {
        snprintf(text, sizeof(text), "%s: %s", path, wk_status_str(st));
    }
    write_all(fd, st == WK_OK ? &parts : "-", st == WK_OK || text[0] ? 1 : 0);
    write_all(fd, text, strlen(text));
    _exit(0);
}

int wk_cli_binding_probe(const char *path, int from_driver, char *desc, size_t cap)
{
    char answer[1100] = "";
    int fds[2];
    desc[0] = 0;
    if (pipe(fds) != 0) {
        snprintf(desc, cap, "cannot probe %s: pipe: %s", path, strerror(errno));
        return -1;
    }
    fflush(NULL);
    wk_reap_become_subreaper();
    pid_t pid = wk_shepherd_fork(NULL, NULL, NULL, NULL);
    if (pid < 0) {
        snprintf(desc, cap, "cannot probe %s: %s", path, strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        binding_child(path, from_driver, fds[1]);
    }
    close(fds[1]);
    int st = 0, stopped;
    struct probe_text t = { answer, sizeof(answer), 0 };
    int late = await_probe(pid, fds[0], &t, &st, &stopped);
    if (late || stopped || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        snprintf(desc, cap, "the binding in %s %s while loading", path,
                 late || stopped ? "hung" : WIFSIGNALED(st) ? "crashed" : "exited");
        return -1;
    }
    if (!answer[0])
        return 0;
    snprintf(desc, cap, "%s", answer + 1);
    return answer[0] == '-' ? -1 : (unsigned char)answer[0];
}
