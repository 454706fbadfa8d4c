/* SPDX-License-Identifier: MIT */
/*
 * isolation.h - what keeps a case's process from speaking for the kit or
 * outliving its case: the sealed result record (result_record.c) and the
 * shepherd that reaps every process a case starts (shepherd.c). Used by
 * the runner (job.c) and by the crash tools (fuzz/crash/outcome.c).
 *
 * Threat model (docs/threat-model.md): the driver runs in the
 * case's process and may write to any descriptor it inherited, exit at any
 * moment, start threads, atexit handlers and processes, call setsid().
 * It is not assumed to read or patch the kit's memory: code that does can
 * do anything the kit can, including writing the kit's own record.
 */
#ifndef WK_RUNNER_ISOLATION_H
#define WK_RUNNER_ISOLATION_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "prog/conform.h"

/* A per-launch secret the parent draws before the fork: a record is the
 * kit's only when it carries the nonce of the launch it answers. */
struct wk_result_nonce {
    uint8_t b[16];
};

/* What goes down a case's result pipe, once, in one write(). */
struct wk_result_record {
    char magic[8];                    /* WK_RESULT_MAGIC: not a stray write of something else */
    struct wk_result_nonce nonce;
    struct wk_case_result result;
};
#define WK_RESULT_MAGIC "WKRES\x01\r\n"

/* Draws a fresh nonce (getrandom, /dev/urandom when it is missing);
 * 0, or -1 with errno when neither gives 16 bytes. */
int wk_result_nonce_new(struct wk_result_nonce *n);

/* In the case's process, the kit's last word: the record of r sealed
 * with n, in one write (wk_write_all). */
void wk_result_send(int fd, const struct wk_result_nonce *n, const struct wk_case_result *r);

/* In the parent: whether bytes[0..len) (plus `extra` bytes that did not
 * fit) are exactly one record sealed with n. NULL and *out filled when
 * they are; otherwise why not, in why (for the crash verdict's "seen"). */
const char *wk_result_open(const void *bytes, size_t len, size_t extra, const struct wk_result_nonce *n,
                           struct wk_case_result *out, char *why, size_t size);

/* Forks a shepherd, a small process of the kit that forks the case's
 * process under it and is the child subreaper of everything that process
 * starts (PR_SET_CHILD_SUBREAPER: orphans come to it, setsid() or not).
 * When the case's process ends, the shepherd kills every descendant left,
 * reaps them, sets *done to 1 (when done is not NULL: a word in memory
 * shared with the caller, 0 before the fork) and exits with the case
 * process's own status (the same code, or killed by the same signal), so
 * waitpid() on the shepherd reads as it read on the case process, and a
 * shepherd dead with *done still 0 was killed before its case ended (the
 * driver can signal it). Returns the shepherd's pid in the caller, 0 in
 * the case's process, -1 with errno when a fork failed, and then
 * *failed_call (when not NULL) names the call, "fork" or "pipe" (the start
 * pipe below). The fork that fails may be the shepherd's own, for the case's
 * process: the shepherd then writes the errno to a start pipe and exits, so
 * an EAGAIN there is an EAGAIN here, not a case process that died. With
 * start_fd NULL the caller waits to hear which (a fork's time); otherwise
 * it gets the start pipe's read end and, once waitpid() said the shepherd
 * ended, asks wk_shepherd_start_error. The shepherd keeps no descriptor of
 * the caller's: pipes reach end of file once the case's processes are
 * gone. A stop signal (SIGTERM, SIGINT, SIGHUP, SIGPIPE) that the case's
 * own processes send the shepherd is the driver's, not a stop: ignored,
 * and the first is noted in *driver_signal (memory the caller shares with
 * the shepherd; NULL: not noted). *done (shared too; NULL: none) is set
 * once the case ended and nothing of it is left: a dead shepherd without
 * it was killed.
 *
 * The caller is to be a child subreaper itself (wk_reap_become_subreaper):
 * a shepherd killed by SIGKILL (by the driver, or by wk_shepherd_stop)
 * leaves the case's other processes to it, and it kills them with
 * wk_reap_strays, keeping the shepherds it still runs. */
pid_t wk_shepherd_fork(int *start_fd, const char **failed_call, volatile int32_t *done,
                       volatile int32_t *driver_signal);

/* The shepherd's half of wk_shepherd_fork, in a process just started as
 * runner's child (by wk_shepherd_fork, or by the zygote: zygote.c), with
 * start_fd the start pipe's write end: returns 0 in the case's process;
 * the shepherd itself never returns. */
pid_t wk_shepherd_become(int start_fd, pid_t runner, volatile int32_t *done, volatile int32_t *driver_signal);

/* A shepherd that lives across cases (zygote.c: the process of a -j
 * slot, the runner's child): it forks each case's process itself, and
 * says when that case ended instead of exiting with its status.
 * wk_shepherd_serve_setup, once: every signal blocked but the stop
 * signals, handled as above (the driver's noted, another kills the case
 * running, if any), death with the runner (SIGTERM: the case is killed,
 * then swept), the child subreaper of every case. wk_shepherd_fork_case:
 * the case's process (0 in it, its pid here, -1 with errno), a stop
 * signal of its processes noted in *driver_signal. wk_shepherd_end_case:
 * waits for it, kills and reaps every process it left, then writes its
 * wait status to *case_status and 1 to *done (shared with the runner, as
 * above) and returns the status; the shepherd is then ready for the next
 * case, with no process of the last one left below it. */
void wk_shepherd_serve_setup(void);
/* Before each case: 1 when nothing a fork hands down and another process
 * of the user can change from outside (resource limits, priority, CPU
 * affinity, I/O priority) differs from what the shepherd had at setup; 0
 * when the last case changed it: the shepherd must go (the runner starts
 * another), or the next case would run under it. */
int wk_shepherd_unchanged(void);
pid_t wk_shepherd_fork_case(volatile int32_t *driver_signal);
int wk_shepherd_end_case(pid_t child, volatile int32_t *done, volatile int32_t *case_status);

/* After the shepherd ended: the errno of its fork of the case's process,
 * or 0 when the case's process started (or start_fd is -1); closes
 * start_fd. */
int wk_shepherd_start_error(int start_fd);

/* Ends a shepherd's case now (a timeout, a stop, a shepherd the driver
 * stopped): SIGKILL, which a stopped process cannot hold off. The case's
 * process dies with it (PR_SET_PDEATHSIG); its other processes come to the
 * caller, a subreaper, to kill (wk_reap_strays). Then wk_shepherd_wait. */
void wk_shepherd_stop(pid_t shepherd);

/* How a shepherd is, without reaping it: running, stopped (SIGSTOP: the
 * driver stopped its parent), or ended (or not a child of the caller). */
enum wk_shepherd_state { WK_SHEPHERD_RUNNING, WK_SHEPHERD_STOPPED, WK_SHEPHERD_ENDED };
enum wk_shepherd_state wk_shepherd_state(pid_t shepherd);

/* Reaps the shepherd into *status within ms milliseconds: 0, or -1 when it
 * did not end in time (the caller never blocks on a process the driver
 * can stop). */
int wk_shepherd_wait(pid_t shepherd, int *status, long ms);

#endif
