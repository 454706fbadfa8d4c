/* SPDX-License-Identifier: MIT */
/*
 * test_retry.c - util/retry.h: the backoff of a call that found no process,
 * descriptor or memory to spare. The pauses double from 1 ms to the 500 ms
 * cap and never pass the deadline; only EAGAIN, EMFILE, ENFILE and ENOMEM
 * are retried; the message names the call, the errno and the time waited;
 * and a real open() under a full RLIMIT_NOFILE succeeds once a descriptor
 * is freed during the wait, or gives up with EMFILE at the deadline.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "util.h"

static void pauses_double_up_to_the_cap(void **state)
{
    (void)state;
    static const long want[] = { 1, 2, 4, 8, 16, 32, 64, 128, 256, 500, 500 };
    struct wk_retry r;
    wk_retry_begin(&r, 3600.0);
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
        assert_int_equal(wk_retry_pause_ms(&r, EAGAIN), want[i]);
    assert_int_equal(r.tries, 11);
    assert_int_equal(r.err, EAGAIN);
}

static void only_exhaustion_is_retried(void **state)
{
    (void)state;
    static const int retried[] = { EAGAIN, EMFILE, ENFILE, ENOMEM };
    static const int refused[] = { EBADF, EACCES, ENOENT, EINVAL, EPERM, 0 };
    struct wk_retry r;
    for (size_t i = 0; i < sizeof(retried) / sizeof(retried[0]); i++) {
        wk_retry_begin(&r, 1.0);
        assert_true(wk_retry_is_exhaustion(retried[i]));
        assert_int_equal(wk_retry_pause_ms(&r, retried[i]), 1);
    }
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        wk_retry_begin(&r, 1.0);
        assert_false(wk_retry_is_exhaustion(refused[i]));
        assert_int_equal(wk_retry_pause_ms(&r, refused[i]), -1);
    }
    wk_retry_begin(&r, 0); /* no wait allowed: give up at the first failure */
    assert_int_equal(wk_retry_pause_ms(&r, EMFILE), -1);
}

/* Blocking use gives up at the deadline, not before and not much after,
 * and leaves errno as the call set it. */
static void gives_up_at_the_deadline(void **state)
{
    (void)state;
    struct wk_retry r;
    wk_retry_begin(&r, 0.05);
    double t0 = wk_now_seconds();
    unsigned tries = 0;
    while (++tries < 1000 && wk_retry_again(&r, EMFILE))
        ;
    double took = wk_now_seconds() - t0;
    assert_int_equal(errno, EMFILE);
    assert_true(took >= 0.045 && took < 0.5);
    assert_true(tries > 3 && tries < 20); /* 1 + 2 + 4 + 8 + 16 + the rest: about 7 */
    assert_true(wk_retry_waited(&r) >= 0.045);
}

static void messages_name_call_errno_and_wait(void **state)
{
    (void)state;
    char m[200];
    assert_int_equal(wk_retry_describe(m, sizeof(m), "fork", EAGAIN, NULL), 1);
    assert_string_equal(m, "fork: Resource temporarily unavailable (EAGAIN)");
    struct wk_retry r;
    wk_retry_begin(&r, 10.0);
    wk_retry_pause_ms(&r, EMFILE);
    r.first -= 10.0; /* as if the first failure were 10 s ago */
    assert_int_equal(wk_retry_pause_ms(&r, EMFILE), -1);
    assert_int_equal(wk_retry_describe(m, sizeof(m), "pipe", EMFILE, &r), 1);
    assert_string_equal(m, "pipe: Too many open files (EMFILE), retried for 10.0 s");
    assert_int_equal(wk_retry_describe(m, sizeof(m), "open", 4095, NULL), 1);
    assert_non_null(strstr(m, "(errno 4095)"));
    assert_int_equal(wk_retry_describe(m, 8, "open", ENFILE, NULL), 0);
    assert_string_equal(m, "open: T");
    assert_string_equal(wk_errno_name(ENFILE), "ENFILE");
    assert_null(wk_errno_name(4095));
}

/* --- a real exhaustion, in a child whose RLIMIT_NOFILE we lower ------- */

static int spare_fd = -1;

static void free_a_descriptor(int signo)
{
    (void)signo;
    close(spare_fd); /* the resource comes back during the wait */
}

/* Every descriptor up to a lowered limit taken: open() now fails with
 * EMFILE. Returns the last one taken (the one the timer gives back). */
static int fill_descriptors(void)
{
    int last = open("/dev/null", O_RDONLY);
    struct rlimit lim;
    if (last < 0)
        return -1;
    lim.rlim_cur = lim.rlim_max = (rlim_t)last + 3;
    if (setrlimit(RLIMIT_NOFILE, &lim) != 0)
        return -1;
    for (int fd; (fd = open("/dev/null", O_RDONLY)) >= 0;)
        last = fd;
    return errno == EMFILE ? last : -1;
}

static int child_open_after_retry(int give_back)
{
    spare_fd = fill_descriptors();
    if (spare_fd < 0)
        return 10; /* the limit did not bite */
    if (give_back) {
        signal(SIGALRM, free_a_descriptor);
        struct itimerval t = { { 0, 0 }, { 0, 20000 } }; /* 20 ms in */
        setitimer(ITIMER_REAL, &t, NULL);
    }
    struct wk_retry r;
    wk_retry_begin(&r, give_back ? 5.0 : 0.05);
    int fd;
    while ((fd = open("/dev/null", O_RDONLY)) < 0 && wk_retry_again(&r, errno))
        ;
    if (give_back)
        return fd >= 0 && r.tries > 1 ? 0 : 12;
    return fd < 0 && errno == EMFILE && r.tries > 1 ? 0 : 13;
}

static int run_in_child(int give_back)
{
    pid_t pid = fork();
    if (pid == 0)
        _exit(child_open_after_retry(give_back));
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

/* An open() that fails with EMFILE succeeds once a descriptor is closed
 * (here by a timer during the backoff, elsewhere by a case that ends). */
static void real_emfile_recovers(void **state)
{
    (void)state;
    assert_int_equal(run_in_child(1), 0);
}

static void real_emfile_gives_up(void **state)
{
    (void)state;
    assert_int_equal(run_in_child(0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pauses_double_up_to_the_cap), cmocka_unit_test(only_exhaustion_is_retried),
        cmocka_unit_test(gives_up_at_the_deadline),    cmocka_unit_test(messages_name_call_errno_and_wait),
        cmocka_unit_test(real_emfile_recovers),        cmocka_unit_test(real_emfile_gives_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
