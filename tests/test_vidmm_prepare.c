/* SPDX-License-Identifier: MIT */
/*
 * tests/test_vidmm_prepare.c - wk_vidmm_prepare_process: what a slot
 * process of the conformance runner sets up once for every case it forks
 * (conformance/runner/zygote.c). Each test runs in a child of its own, as
 * a case's process is, so that one test's parked buffers and handlers are
 * not the next one's.
 *
 *   - the kit's handlers are installed, with their alternate stack, and a
 *     forked child has them without installing anything;
 *   - an adapter made after it takes its argument buffers of one and two
 *     pages from the parked ones, in a process that can map nothing more
 *     (RLIMIT_AS), where a buffer of a size nothing was parked for fails;
 *     and each still ends at a guard page: a write one byte past the end
 *     kills the child with SIGSEGV (no DDI frame is active to report it).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child_test.h" /* WK_TEST_ASAN */
#include "internal.h"   /* gbuf_alloc, gbuf_free; before cmocka.h (its fail() macro) */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define PAGE ((uint64_t)WK_GPU_PAGE_SIZE)

/* Runs fn in a child, with the default action for SIGSEGV and SIGBUS
 * (not cmocka's handler, which the kit's would chain to); its wait status. */
static int in_child(void (*fn)(void))
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGSEGV, SIG_DFL);
        signal(SIGBUS, SIG_DFL);
        fn();
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

static int kit_handler_installed(void)
{
    struct sigaction sa;
    stack_t ss;
    return sigaction(SIGSEGV, NULL, &sa) == 0 && (sa.sa_flags & SA_SIGINFO) && (sa.sa_flags & SA_ONSTACK) &&
           sa.sa_sigaction != NULL && sigaltstack(NULL, &ss) == 0 && !(ss.ss_flags & SS_DISABLE) && ss.ss_sp;
}

static void handlers_child(void)
{
    if (kit_handler_installed())
        _exit(3); /* nothing installed them yet */
    wk_vidmm_prepare_process();
    if (!kit_handler_installed())
        _exit(4);
    int status = in_child((void (*)(void))kit_handler_installed); /* exits 0 either way: ask again */
    (void)status;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        _exit(kit_handler_installed() ? 0 : 5);
    waitpid(pid, &status, 0);
    _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 6);
}

static void test_handlers_installed_and_inherited(void **state)
{
    (void)state;
    int status = in_child(handlers_child);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

static struct wk_vidmm *adapter(void)
{
    struct wk_vidmm *vm = NULL;
    if (wk_vidmm_create(NULL, &vm) != WK_OK)
        _exit(7);
    return vm;
}

/* The address space this process has now, in bytes (/proc/self/statm). */
static uint64_t address_space(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long long pages = 0;
    if (!f || fscanf(f, "%llu", &pages) != 1)
        _exit(13);
    fclose(f);
    return pages * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* No new mapping from here on: the address space is capped at what it is
 * (and one page, less than any guarded buffer needs). Not under
 * AddressSanitizer, whose allocator maps as it goes: there the test checks
 * the guard page only. */
static int no_more_mappings(void)
{
#ifdef WK_TEST_ASAN
    return 0;
#endif
    struct rlimit r;
    if (getrlimit(RLIMIT_AS, &r) != 0)
        _exit(14);
    r.rlim_cur = address_space() + PAGE;
    if (setrlimit(RLIMIT_AS, &r) != 0)
        _exit(15);
    return 1;
}

static void guard_child(void)
{
    wk_vidmm_prepare_process();
    struct wk_vidmm *vm = adapter();
    int capped = no_more_mappings();
    struct gbuf b, c, big;
    if (gbuf_alloc(vm, &b, 100, "test buffer") != WK_OK)
        _exit(8); /* no parked one of one page: it needed a mapping */
    if (gbuf_alloc(vm, &c, 2 * PAGE, "two pages") != WK_OK)
        _exit(9);
    if (capped && gbuf_alloc(vm, &big, 5 * PAGE, "five pages") == WK_OK)
        _exit(10); /* nothing of five pages was parked: it cannot have been mapped */
    ((volatile uint8_t *)c.ptr)[2 * PAGE - 1] = 1; /* the last byte: fine */
    ((volatile uint8_t *)b.ptr)[99] = 1;
    ((volatile uint8_t *)b.ptr)[100] = 1; /* the guard page right after the data */
    _exit(12);                            /* not reached: the write faulted */
}

static void test_parked_buffers_are_taken_and_guarded(void **state)
{
    (void)state;
    int status = in_child(guard_child);
    if (WIFEXITED(status))
        print_message("the child exited with %d\n", WEXITSTATUS(status)); /* which check, above */
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGSEGV);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_handlers_installed_and_inherited),
        cmocka_unit_test(test_parked_buffers_are_taken_and_guarded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
