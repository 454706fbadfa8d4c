/* SPDX-License-Identifier: MIT */
/*
 * report_target.c - where a report file goes, checked before the run and
 * written after it (runner.h, "Where a report goes").
 *
 * Three kinds of destination:
 *   stdout    "-", or a path that is the very file stdout already writes
 *             (/dev/stdout, /proc/self/fd/1, the file stdout is redirected
 *             to): written to stdout, never opened by name. Once a report
 *             takes stdout, wk_report_take_stdout moves descriptor 1 onto
 *             stderr, so nothing else the process (or a driver it loads,
 *             or a probe child) prints can land in the report.
 *   replace   a regular file or a path that does not exist yet, and a
 *             symlink to a regular file (its target, resolved: the link
 *             stays a link): written whole to PATH.tmp.<pid> beside the
 *             file, fsync()ed and renamed over it, so a reader sees the
 *             old report or the new one, never half of one.
 *   through   anything else that exists: a FIFO, a character device, a
 *             symlink to either, a dangling symlink (its target is created,
 *             as the shell's `>` would): opened by name and written, never
 *             replaced. Renaming over /dev/stdout as root replaced the
 *             device node with a plain file; over a FIFO, it cut off the
 *             reader waiting on it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner.h"

static int stdout_fd = STDOUT_FILENO; /* the reports' stdout (a copy, once taken) */
static FILE *stdout_file;             /* the stream on it, made once */

int wk_report_take_stdout(void)
{
    if (stdout_fd != STDOUT_FILENO)
        return 0;
    int fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (fd < 0)
        return -1;
    if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        close(fd);
        return -1;
    }
    stdout_fd = fd;
    setvbuf(stdout, NULL, _IOLBF, 0); /* stdout is stderr now: lines in order with it */
    return 0;
}

FILE *wk_report_stdout(void)
{
    if (!stdout_file)
        stdout_file = stdout_fd == STDOUT_FILENO ? stdout : fdopen(stdout_fd, "w");
    return stdout_file;
}

void wk_report_stdout_close_in_child(void)
{
    if (stdout_fd != STDOUT_FILENO)
        close(stdout_fd);
}

static wk_status refuse(char *why, size_t cap, const char *what)
{
    snprintf(why, cap, "%s", what);
    return WK_E_INVALID_ARGUMENT;
}

static wk_status set_file(struct wk_report_target *t, enum wk_report_kind kind, const char *file, char *why,
                          size_t cap)
{
    t->kind = kind;
    if (snprintf(t->file, sizeof(t->file), "%s", file) >= (int)sizeof(t->file))
        return refuse(why, cap, "path too long");
    return WK_OK;
}

/* Whether path names the file the reports' stdout writes. */
static int is_stdout(const char *path)
{
    struct stat a, b;
    return stat(path, &a) == 0 && fstat(stdout_fd, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

wk_status wk_report_target(const char *path, struct wk_report_target *t, char *why, size_t cap)
{
    struct stat l, st;
    memset(t, 0, sizeof(*t));
    if (strcmp(path, "-") == 0 || is_stdout(path))
        return set_file(t, WK_REPORT_STDOUT, "-", why, cap);
    if (lstat(path, &l) != 0) {
        if (errno == ENOENT)
            return set_file(t, WK_REPORT_REPLACE, path, why, cap); /* a new file; its folder is checked */
        return refuse(why, cap, strerror(errno));
    }
    if (S_ISLNK(l.st_mode)) {
        if (stat(path, &st) != 0)
            return errno == ENOENT ? set_file(t, WK_REPORT_THROUGH, path, why, cap) : refuse(why, cap, strerror(errno));
        if (S_ISDIR(st.st_mode))
            return refuse(why, cap, "a symlink to a directory, where a file was expected");
        if (!S_ISREG(st.st_mode))
            return set_file(t, WK_REPORT_THROUGH, path, why, cap);
        char *target = realpath(path, NULL);
        if (!target)
            return refuse(why, cap, strerror(errno));
        wk_status s = set_file(t, WK_REPORT_REPLACE, target, why, cap);
        free(target);
        return s;
    }
    if (S_ISDIR(l.st_mode))
        return refuse(why, cap, "a directory, where a file was expected");
    return set_file(t, S_ISREG(l.st_mode) ? WK_REPORT_REPLACE : WK_REPORT_THROUGH, path, why, cap);
}

/* The folder a replaced file is written in: its path up to the last '/'. */
static void folder_of(const char *file, char *dir, size_t size)
{
    snprintf(dir, size, "%s", file);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, size, ".");
    else if (slash == dir)
        dir[1] = 0;
    else
        *slash = 0;
}

static int temp_name(const char *file, char *tmp, size_t size)
{
    int n = snprintf(tmp, size, "%s.tmp.%ld", file, (long)getpid());
    return n >= 0 && (size_t)n < size;
}

/* A replaced file: its folder takes a new file (made and removed now). */
static wk_status check_replace(const struct wk_report_target *t, char *why, size_t cap)
{
    char dir[4096], tmp[4200];
    struct stat st;
    folder_of(t->file, dir, sizeof(dir));
    if (stat(dir, &st) != 0) {
        snprintf(why, cap, "folder %s: %s", dir, strerror(errno));
        return WK_E_INVALID_ARGUMENT;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(why, cap, "%s is not a folder", dir);
        return WK_E_INVALID_ARGUMENT;
    }
    if (!temp_name(t->file, tmp, sizeof(tmp)))
        return refuse(why, cap, "path too long");
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0 && errno != EEXIST) {
        snprintf(why, cap, "cannot create a file in %s: %s", dir, strerror(errno));
        return WK_E_INVALID_ARGUMENT;
    }
    if (fd >= 0) {
        close(fd);
        unlink(tmp);
    }
    return WK_OK;
}

/* A file written through: a FIFO must let us write (opening it now would
 * hand its reader an end of file when closed, so it is opened only to
 * write the report); anything else opens for writing now. */
static wk_status check_through(const struct wk_report_target *t, char *why, size_t cap)
{
    struct stat st;
    if (stat(t->file, &st) == 0 && S_ISFIFO(st.st_mode)) {
        if (access(t->file, W_OK) != 0) {
            snprintf(why, cap, "FIFO: %s", strerror(errno));
            return WK_E_INVALID_ARGUMENT;
        }
        return WK_OK;
    }
    int fd = open(t->file, O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(why, cap, "cannot open it for writing: %s", strerror(errno));
        return WK_E_INVALID_ARGUMENT;
    }
    close(fd);
    return WK_OK;
}

wk_status wk_report_check(const char *path, struct wk_report_target *t, char *why, size_t cap)
{
    wk_status s = wk_report_target(path, t, why, cap);
    if (s != WK_OK)
        return s;
    switch (t->kind) {
    case WK_REPORT_STDOUT: {
        int fl = fcntl(stdout_fd, F_GETFL);
        if (fl < 0)
            return refuse(why, cap, "stdout is closed");
        if ((fl & O_ACCMODE) == O_RDONLY)
            return refuse(why, cap, "stdout is not open for writing");
        return WK_OK;
    }
    case WK_REPORT_REPLACE: return check_replace(t, why, cap);
    default: return check_through(t, why, cap);
    }
}

wk_status wk_report_open(struct wk_report_file *rf, const char *path, FILE *err)
{
    char why[512];
    memset(rf, 0, sizeof(*rf));
    rf->path = path;
    if (wk_report_target(path, &rf->t, why, sizeof(why)) != WK_OK) {
        fprintf(err, "wddmkit: %s: %s\n", path, why);
        return WK_E_IO;
    }
    if (rf->t.kind == WK_REPORT_STDOUT) {
        rf->f = wk_report_stdout();
        if (!rf->f)
            fprintf(err, "wddmkit: %s: stdout: %s\n", path, strerror(errno));
        return rf->f ? WK_OK : WK_E_IO;
    }
    const char *name = rf->t.file;
    int fd = -1;
    if (rf->t.kind == WK_REPORT_THROUGH) {
        fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY | O_CLOEXEC, 0644); /* a FIFO: waits for a reader */
    } else if (!temp_name(name, rf->tmp, sizeof(rf->tmp))) {
        fprintf(err, "wddmkit: %s: path too long\n", path);
        return WK_E_IO;
    } else {
        fd = open(rf->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        name = rf->tmp;
    }
    rf->f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!rf->f) {
        fprintf(err, "wddmkit: %s: cannot write %s: %s\n", path, name, strerror(errno));
        if (fd >= 0)
            close(fd);
        if (rf->tmp[0])
            unlink(rf->tmp);
        return WK_E_IO;
    }
    return WK_OK;
}

static void sync_directory(const char *file)
{
    char dir[4096];
    folder_of(file, dir, sizeof(dir));
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

wk_status wk_report_commit(struct wk_report_file *rf, FILE *err)
{
    FILE *f = rf->f;
    int failed = fflush(f) != 0 || ferror(f);
    int saved = errno;
    if (rf->t.kind == WK_REPORT_STDOUT) {
        clearerr(f); /* the stream stays, for another report (TAP streamed, then written) */
    } else {
        if (!failed && rf->t.kind == WK_REPORT_REPLACE && fsync(fileno(f)) != 0 && errno != EINVAL) {
            failed = 1;
            saved = errno;
        }
        if (fclose(f) != 0 && !failed) {
            failed = 1;
            saved = errno;
        }
    }
    rf->f = NULL;
    if (!failed && rf->t.kind == WK_REPORT_REPLACE && rename(rf->tmp, rf->t.file) != 0) {
        failed = 1;
        saved = errno;
    }
    if (failed) {
        fprintf(err, "wddmkit: %s: %s\n", rf->path, strerror(saved ? saved : EIO));
        if (rf->t.kind == WK_REPORT_REPLACE)
            unlink(rf->tmp);
        return WK_E_IO;
    }
    if (rf->t.kind == WK_REPORT_REPLACE)
        sync_directory(rf->t.file);
    return WK_OK;
}
