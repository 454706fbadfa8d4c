/* SPDX-License-Identifier: MIT */
/*
 * util.h - the small helpers every module above may share: paths, bounded
 * strings, bounded file reads, FNV-1a hashing, a monotonic clock and the
 * killing of every process below this one, and the backoff of a call that
 * found no process or descriptor to spare (retry.h).
 *
 * Why a module of its own: before it, the command line, the fuzz tools and
 * the seed generator each had their own copy of "join two paths into a
 * fixed buffer", "read the last lines of a log" and FNV-1a, and each copy
 * had its own idea of what a truncated path returns. Here each exists once,
 * with one convention: a function that fills a caller's buffer returns 1
 * when the whole result fit and 0 when it did not (the buffer then holds a
 * NUL-terminated prefix or nothing, never garbage).
 *
 * What it must not know: WDDM, the GPU model, specs, drivers, or the
 * command line's wording. It prints nothing; a failure is a return value
 * (and a reason in a caller's buffer where one helps). It holds no state
 * (wk_reap_on_signals sets signal dispositions, the process's own).
 * It sits below every other module of ours (docs/architecture.md); the
 * GPU model may use it but has not needed to.
 */
#ifndef WK_UTIL_H
#define WK_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "wddmkit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- strings (strings.c) ------------------------------------------------ */

/* dst = src; 0 (and dst = "") when src does not fit in cap bytes. */
int wk_str_copy(char *dst, size_t cap, const char *src);

/* v with thousands separated by commas ("1,234,567") into buf; returns buf. */
const char *wk_str_grouped(uint64_t v, char *buf, size_t cap);

/* The end of text: its last lines that fit in cap - 1 bytes, starting at a
 * line boundary (the partial first line dropped), into dst; when its last
 * line alone is longer, that line's last cap - 1 bytes. What a crash
 * report shows of a process's output: the last line (a FATAL message) is
 * the one that matters. 1 when the whole text fit, else 0. */
int wk_str_tail_lines(char *dst, size_t cap, const char *text);

/* text on one line of f, as a reader's error message shows what it read:
 * a newline as \n, other control bytes and DEL as \xHH, the rest as it is.
 * No newline at the end. */
void wk_str_put_one_line(FILE *f, const char *text);

/* --- paths (paths.c) ---------------------------------------------------- */

/* dst = a "/" b; 0 when it does not fit. */
int wk_path_join(char *dst, size_t cap, const char *a, const char *b);

/* What a path is (stat follows links): 1 or 0. */
int wk_path_is_regular(const char *path);
int wk_path_is_dir(const char *path);
int wk_path_is_executable(const char *path); /* a regular file we may execute */

/* Makes a folder and its parents: 0, or -1 with errno. */
int wk_path_mkdir_p(const char *path);

/* Finds the executable NAME on PATH (or checks NAME itself when it holds a
 * '/'): 1 and its path in out, else 0. */
int wk_path_find_program(const char *name, char *out, size_t cap);

/* --- the kit's own folders (kit_dirs.c) ---------------------------------- */

/* Where the running kit's data is (specs/, corpus/, harnesses/ with the
 * dictionaries), and how it was found: */
enum wk_kit_origin {
    WK_KIT_FROM_ENV,    /* $WDDMKIT_DATA_DIR, as given */
    WK_KIT_BUILD_TREE,  /* the source folder of the build this program is in */
    WK_KIT_INSTALLED,   /* <prefix>/share/wddmkit, found from the executable's own path */
    WK_KIT_NOWHERE,     /* none of those: "." */
};
/* The file a build tree holds (in the kit's build folder, never installed)
 * naming its source folder: relative to itself on the first line, absolute
 * on the second. */
#define WK_BUILD_TREE_FILE "wddmkit-source-dir.txt"
/* The data root into out (resolved, except $WDDMKIT_DATA_DIR); its origin. */
enum wk_kit_origin wk_kit_data_dir(char *out, size_t cap);
/* Whether dir is a source checkout of the kit (harnesses/CMakeLists.txt). */
int wk_kit_is_checkout(const char *dir);
/* The folder of the kit's builds by name (<dir>/<name>/cli/wddmkit,
 * <dir>/<name>/fuzz/): a checkout's build/, an installed kit's
 * <prefix>/libexec/wddmkit. 1 found, else 0 and out = "". */
int wk_kit_builds_dir(char *out, size_t cap);
/* The folder of this build's <harness>_replay programs: $WK_REPLAY_DIR,
 * else ../fuzz beside the executable (a build tree, an installed
 * instrumented build), else the installed kit's
 * <prefix>/libexec/wddmkit/<name>/fuzz. 0 when nothing fits. */
int wk_kit_replay_dir(char *out, size_t cap);

/* --- files (files.c, file_find.c) --------------------------------------- */

/* Reads up to cap - 1 bytes from fd into buf, NUL-terminates, closes fd;
 * retries on EINTR, stops at the end or an error. Returns the length. */
size_t wk_fd_read_upto(int fd, char *buf, size_t cap);

/* The first cap - 1 bytes of a regular file (NUL-terminated), or the last
 * cap - 1 starting at a line boundary (the partial first line dropped).
 * Return the length, or -1 when the file cannot be read. */
long wk_file_head(const char *path, char *buf, size_t cap);
long wk_file_tail(const char *path, char *buf, size_t cap);

/* A whole file of at most `limit` bytes into a new buffer (free it), so a
 * huge or endless input (a FIFO, /dev/zero) is refused, not swallowed.
 * WK_E_IO, WK_E_LIMIT or WK_E_NO_MEMORY with a reason in why (for example
 * "larger than the 1048576-byte limit", "a folder, where a file was
 * expected", or strerror's text). */
wk_status wk_file_read(const char *path, uint64_t limit, uint8_t **data, size_t *size, char *why, size_t why_cap);

/* Copies a regular file of at most `limit` bytes to a path that must not
 * exist yet: 1 copied, 0 skipped (missing, not a regular file, too big, or
 * `to` exists), -1 a read or write error (errno set; no half copy is
 * left behind). */
int wk_file_copy_new(const char *from, const char *to, uint64_t limit);

/* 1 when both files can be read and hold the same bytes, else 0. */
int wk_file_same(const char *a, const char *b);

/* Whether the file at path holds the bytes of needle (1 to 63 bytes),
 * streamed; with out, the NUL-terminated string that starts there (at most
 * 63 bytes, cap - 1). A module's dynamic string table, its symbol names:
 * what the loader would read, without parsing the ELF file. */
int wk_file_find(const char *path, const char *needle, char *out, size_t cap);

/* --- hashing (hash.c) --------------------------------------------------- */

/* FNV-1a (Fowler, Noll, Vo): a fast non-cryptographic hash of bytes, used
 * for names and for telling inputs apart, never for security. The 64-bit
 * form continues from h (start with WK_FNV1A64_START); the 32-bit form is
 * the one promoted file names carry (<rule>-<8 hex digits>). */
#define WK_FNV1A64_START 0xcbf29ce484222325ull
uint64_t wk_fnv1a64(uint64_t h, const void *data, size_t n);
uint32_t wk_fnv1a32(const void *data, size_t n);

/* FNV-1a 64 of a file's bytes, read in blocks, and its size: 1, or 0 when
 * it cannot be read. */
int wk_fnv1a64_file(const char *path, uint64_t *digest, uint64_t *size);

/* --- time (clock.c) ----------------------------------------------------- */

/* Seconds on the monotonic clock (for durations, never for dates). */
double wk_now_seconds(void);

/* Sleeps ms milliseconds; a signal cuts it short, which callers that poll
 * for a child or a signal want. */
void wk_sleep_ms(long ms);

/* --- processes (reap.c) ------------------------------------------------- */

/* A program that runs code it does not trust (a driver forks, calls
 * setsid() and lets the parent exit) finds and kills every process below
 * it. First it becomes their child subreaper (PR_SET_CHILD_SUBREAPER: an
 * orphan below comes to it, not to init); 0, or -1 with errno. */
int wk_reap_become_subreaper(void);
/* Kills (SIGKILL) and reaps every child and, as they die, every orphan that
 * comes to this process, until none is left. Only when the caller has no
 * child it still waits for. */
void wk_reap_descendants(void);
/* Reaps the children that have ended, but none of keep[0, nkeep): orphans
 * that came to this subreaper and exited do not pile up as zombies in a
 * long run. Never blocks. */
void wk_reap_exited_strays(const pid_t *keep, size_t nkeep);
/* Kills (SIGKILL) and reaps every child but keep[0, nkeep) and, as they
 * die, every orphan that comes to this subreaper, for at most ms
 * milliseconds; the number reaped. For a caller with children of its own
 * it still waits for (a case's shepherd): unlike wk_reap_descendants it
 * never reaps one of those, and it never blocks past ms. */
int wk_reap_strays(const pid_t *keep, size_t nkeep, long ms);
/* SIGINT, SIGTERM and SIGHUP (until a part of the work catches them for
 * itself) kill and reap every process below, then end this one of the
 * same signal. */
void wk_reap_on_signals(void);
/* The child of `ancestor` that `pid` is, or descends from, by the parent
 * chain in /proc; 0 when pid is not below ancestor (or is it, or /proc has
 * no such process). Safe in a signal handler (open, read, close only): a
 * handler asks it who sent a signal (si_pid) while the sender still lives
 * (ancestry.c). */
pid_t wk_proc_child_above(pid_t pid, pid_t ancestor);

#ifdef __cplusplus
}
#endif

#include "retry.h" /* --- retrying an exhausted resource (retry.c) --- */

#endif
