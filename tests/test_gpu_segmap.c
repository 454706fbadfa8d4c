/* SPDX-License-Identifier: MIT */
/*
 * tests/test_gpu_segmap.c - the CPU view of a memory segment
 * (wk_gpu_create_ex's mappable segments, wk_gpu_segment_map;
 * docs/gpu-model.md, "The CPU view of a segment").
 *
 * A driver that writes video memory from the CPU (a software GPU, a clear,
 * an upload through its BAR) must write where the kit checks. So: what the
 * host writes through a mapping is what wk_gpu_read, views and commands
 * see, and the other way round; a reset zeroes both; the mapping ends at
 * guard pages; residency counts what was touched, and a reset with a live
 * mapping of a large segment costs what was touched, not the segment; a
 * segment not made mappable is what it always was.
 */
#define _DEFAULT_SOURCE /* mincore */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpu_test_util.h"

/* The standard adapter with segment 1 (and `more`) mappable, registered
 * for the teardown like tu_create's. */
static struct wk_gpu *create_mappable(void **state, const struct wk_gpu_desc *d, uint32_t mask)
{
    struct tu_ctx *ctx = *state;
    unsigned slot = 0;
    while (slot < TU_MAX_GPUS && ctx->gpus[slot])
        slot++;
    assert_true(slot < TU_MAX_GPUS);
    struct wk_gpu_options opt = {.mappable_segments = mask};
    char why[256] = "";
    struct wk_gpu *gpu = NULL;
    wk_status st = wk_gpu_create_ex(d, &opt, &gpu, why, sizeof(why));
    if (st != WK_OK)
        fail_msg("wk_gpu_create_ex: %s: %s", wk_status_name(st), why);
    ctx->gpus[slot] = gpu;
    return gpu;
}

static struct wk_gpu *std_mappable(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    return create_mappable(state, &a.desc, 1u << (TU_SEG1_ID - 1));
}

static void run_fill(struct wk_gpu *gpu, uint64_t addr, uint64_t len, uint32_t pattern)
{
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_fill(&b.w, addr, len, pattern));
    assert_true(tu_run_ok(gpu, &b));
}

static void run_copy(struct wk_gpu *gpu, uint64_t src, uint64_t dst, uint64_t len)
{
    struct tu_buf b;
    tu_buf_init(&b);
    TU_EMIT(wk_gpu_emit_copy(&b.w, src, dst, len));
    assert_true(tu_run_ok(gpu, &b));
}

/* Every byte of [p, p+len) is `byte`; prints the first that is not. */
static bool host_bytes_are(const uint8_t *p, uint64_t len, uint8_t byte, const char *what)
{
    for (uint64_t i = 0; i < len; i++)
        if (p[i] != byte) {
            print_error("%s: byte +0x%llx is 0x%02x, expected 0x%02x\n", what, (unsigned long long)i, p[i], byte);
            return false;
        }
    return true;
}

static bool expect_resident(struct wk_gpu *gpu, uint64_t want, const char *when)
{
    uint64_t got = wk_gpu_resident_pages(gpu);
    if (got != want)
        print_error("%s: %llu resident pages, expected %llu\n", when, (unsigned long long)got,
                    (unsigned long long)want);
    return got == want;
}

/* Options that name no memory segment are refused with the reason. */
static void test_options_checked(void **state)
{
    (void)state;
    struct tu_adapter a;
    tu_std_adapter(&a);
    struct wk_gpu *gpu = NULL;
    char why[256] = "";
    struct wk_gpu_options aperture = {.mappable_segments = 1u << (TU_APER_ID - 1)};
    assert_true(expect_status(wk_gpu_create_ex(&a.desc, &aperture, &gpu, why, sizeof(why)), WK_E_INVALID_ARGUMENT));
    assert_non_null(strstr(why, "mappable segment 3 is an aperture"));
    struct wk_gpu_options none = {.mappable_segments = 1u << 4};
    assert_true(expect_status(wk_gpu_create_ex(&a.desc, &none, &gpu, why, sizeof(why)), WK_E_INVALID_ARGUMENT));
    assert_non_null(strstr(why, "mappable segment 5 names no segment"));
    assert_null(gpu);
}

/* Host writes through the mapping are what reads, views, digests and the
 * GPU's commands see; GPU writes show through the mapping. */
static void test_both_views_agree(void **state)
{
    struct wk_gpu *gpu = std_mappable(state);
    void *va = NULL;
    TU_OK(wk_gpu_segment_map(gpu, TU_SEG1_ID, 0, TU_SEG1_SIZE, &va));
    uint8_t *p = va;
    uint8_t bytes[300];
    tu_pattern(bytes, sizeof(bytes), 7);
    memcpy(p + 0x1F80, bytes, sizeof(bytes)); /* across a page boundary */
    assert_true(expect_bytes(gpu, TU_SEG1_BASE + 0x1F80, bytes, sizeof(bytes)));
    uint64_t d = 0;
    TU_OK(wk_gpu_digest(gpu, TU_SEG1_BASE + 0x1000, 0x2000, &d));
    assert_true(expect_u64(d, wk_gpu_digest_bytes(p + 0x1000, 0x2000)));
    struct wk_gpu_view v;
    struct wk_gpu_span sp;
    TU_OK(wk_gpu_view_begin(gpu, TU_SEG1_BASE + 0x1F80, sizeof(bytes), &v));
    assert_true(wk_gpu_view_next(&v, &sp));
    assert_non_null(sp.data);
    assert_memory_equal(sp.data, bytes, sp.length);
    /* The GPU copies what the CPU uploaded, and fills where the CPU reads. */
    run_copy(gpu, TU_SEG1_BASE + 0x1F80, TU_SEG2_BASE + 0x10, sizeof(bytes));
    assert_true(expect_bytes(gpu, TU_SEG2_BASE + 0x10, bytes, sizeof(bytes)));
    run_fill(gpu, TU_SEG1_BASE + 0x8000, 0x3000, 0xA5A5A5A5u);
    assert_true(host_bytes_are(p + 0x8000, 0x3000, 0xA5, "the FILL through the mapping"));
    tu_write32(gpu, TU_SEG1_END - 4, 0x12345678u);
    assert_true(expect_u64(tu_get32(p + TU_SEG1_SIZE - 4), 0x12345678u));
    TU_OK(wk_gpu_segment_unmap(gpu, va));
}

/* An unaligned range: the address is the byte at the offset, and two
 * mappings of the same bytes alias each other. */
static void test_unaligned_and_aliased(void **state)
{
    struct wk_gpu *gpu = std_mappable(state);
    void *a = NULL, *b = NULL;
    TU_OK(wk_gpu_segment_map(gpu, TU_SEG1_ID, 0x3010, 0x20, &a));
    TU_OK(wk_gpu_segment_map(gpu, TU_SEG1_ID, 0x2000, 0x3000, &b));
    assert_true(expect_u64((uintptr_t)a & 0xFFF, 0x10));
    tu_put32(a, 0xFEEDFACEu);
    assert_true(expect_u64(tu_get32((uint8_t *)b + 0x1010), 0xFEEDFACEu));
    assert_true(expect_mem32(gpu, TU_SEG1_BASE + 0x3010, 0xFEEDFACEu));
    TU_OK(wk_gpu_segment_unmap(gpu, a));
    TU_OK(wk_gpu_segment_unmap(gpu, b));
    assert_true(expect_status(wk_gpu_segment_unmap(gpu, b), WK_E_NOT_FOUND));
}

/* Only what is inside a mappable segment maps. */
static void test_map_refusals(void **state)
{
    struct wk_gpu *gpu = std_mappable(state);
    void *va = NULL;
    assert_true(expect_status(wk_gpu_segment_map(gpu, TU_SEG1_ID, TU_SEG1_SIZE - 0x1000, 0x1001, &va),
                              WK_E_CROSSES_SEGMENT));
    assert_true(expect_status(wk_gpu_segment_map(gpu, TU_SEG1_ID, UINT64_MAX - 2, 8, &va), WK_E_CROSSES_SEGMENT));
    assert_true(expect_status(wk_gpu_segment_map(gpu, TU_SEG1_ID, 0, 0, &va), WK_E_INVALID_ARGUMENT));
    assert_true(expect_status(wk_gpu_segment_map(gpu, 9, 0, 1, &va), WK_E_INVALID_ARGUMENT));
    assert_true(expect_status(wk_gpu_segment_map(gpu, TU_SEG2_ID, 0, 1, &va), WK_E_NOT_SUPPORTED));
    assert_true(expect_status(wk_gpu_segment_map(gpu, TU_APER_ID, 0, 1, &va), WK_E_NOT_SUPPORTED));
    assert_null(va);
    void *maps[WK_GPU_MAX_SEGMENT_MAPS];
    for (unsigned i = 0; i < WK_GPU_MAX_SEGMENT_MAPS; i++)
        TU_OK(wk_gpu_segment_map(gpu, TU_SEG1_ID, 0, 1, &maps[i]));
    assert_true(expect_status(wk_gpu_segment_map(gpu, TU_SEG1_ID, 0, 1, &va), WK_E_LIMIT));
    for (unsigned i = 0; i < WK_GPU_MAX_SEGMENT_MAPS; i++)
        TU_OK(wk_gpu_segment_unmap(gpu, maps[i]));
}

/* A reset zeroes what both views wrote, seen through both; the mapping stays. */
static void test_reset_zeroes_both_views(void **state)
{
    struct wk_gpu *gpu = std_mappable(state);
    void *va = NULL;
    TU_OK(wk_gpu_segment_map(gpu, TU_SEG1_ID, 0, TU_SEG1_SIZE, &va));
    uint8_t *p = va;
    for (unsigned round = 0; round < 3; round++) {
        memset(p + 0x5000, 0xCC, 0x2000);                     /* the CPU's */
        run_fill(gpu, TU_SEG1_BASE + 0x20000, 0x1000, 0x11u); /* the GPU's */
        tu_write32(gpu, TU_SEG1_BASE + 0x40000, 0xDEADBEEFu);  /* the host's, through the model */
        wk_gpu_reset(gpu);
        assert_true(host_bytes_are(p, TU_SEG1_SIZE, 0, "the mapping after reset"));
        assert_true(expect_byte_run(gpu, TU_SEG1_BASE, 0, TU_SEG1_SIZE));
    }
    TU_OK(wk_gpu_segment_unmap(gpu, va));
}

/* What the CPU wrote stays after the unmap, for the GPU to read, until the
 * next reset, which zeroes it. */
static void test_unmapped_bytes_stay_until_reset(void **state)
{
    struct wk_gpu *gpu = std_mappable(state);
    void *va = NULL;
    TU_OK(wk_gpu_segment_map(gpu, TU_SEG1_ID, 0x10000, 0x1000, &va));
    memset(va, 0x5A, 0x1000);
    TU_OK(wk_gpu_segment_unmap(gpu, va));
    assert_true(expect_byte_run(gpu, TU_SEG1_BASE + 0x10000, 0x5A, 0x1000));
    run_copy(gpu, TU_SEG1_BASE + 0x10000, TU_SEG2_BASE, 0x1000);
    assert_true(expect_byte_run(gpu, TU_SEG2_BASE, 0x5A, 0x1000));
    wk_gpu_reset(gpu);
    assert_true(expect_byte_run(gpu, TU_SEG1_BASE + 0x10000, 0, 0x1000));
    assert_true(expect_resident(gpu, 0, "after the reset"));
}

/* A child process runs poke; true when it died of it. */
static bool dies(void (*poke)(volatile uint8_t *), volatile uint8_t *at)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGSEGV, SIG_DFL);
        signal(SIGBUS, SIG_DFL);
        poke(at);
        _exit(0);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return false;
    return !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void poke_byte(volatile uint8_t *p)
{
    *p = 1;
}

/* The page after the window and the page before it are guards: reserved
 * (mincore answers) and inaccessible, even where the segment goes on. */
static void test_guard_pages(void **state)
{
    struct wk_gpu *gpu = std_mappable(state);
    void *va = NULL;
    TU_OK(wk_gpu_segment_map(gpu, TU_SEG1_ID, 0x4000, 0x2000, &va));
    uint8_t *p = va;
    unsigned char resident;
    assert_int_equal(mincore(p + 0x2000, 0x1000, &resident), 0);
    assert_int_equal(mincore(p - 0x1000, 0x1000, &resident), 0);
    assert_false(dies(poke_byte, p + 0x1FFF));
    assert_true(dies(poke_byte, p + 0x2000));
    assert_true(dies(poke_byte, p - 1));
    TU_OK(wk_gpu_segment_unmap(gpu, va));
}

/* Residency counts the pages holding data: what the model wrote, and what
 * the host touched through a mapping (not the whole window). A reset with
 * the mapping live gives back what only the host wrote and keeps the pages
 * the model wrote, zeroed, for the next input (they count until a reset
 * finds them unwritten); once unmapped, a reset brings it back to 0. */
static void test_resident_accounting(void **state)
{
    struct wk_gpu *gpu = std_mappable(state);
    assert_true(expect_resident(gpu, 0, "after create"));
    void *va = NULL;
    TU_OK(wk_gpu_segment_map(gpu, TU_SEG1_ID, 0, TU_SEG1_SIZE, &va));
    uint8_t *p = va;
    assert_true(expect_resident(gpu, 0, "a mapping untouched"));
    p[0x3000] = 1;
    p[0x7FFF] = 1;
    assert_true(expect_resident(gpu, 2, "2 pages written through the mapping"));
    tu_write32(gpu, TU_SEG1_BASE + 0x3004, 1); /* the same page, through the model */
    tu_write32(gpu, TU_SEG1_BASE + 0x50000, 1);
    assert_true(expect_resident(gpu, 3, "and 1 more through the model"));
    wk_gpu_reset(gpu);
    assert_true(expect_resident(gpu, 2, "after reset, mapping live: the model's 2 pages kept"));
    /* Kept zeroed whole: the host's byte on the model's page is gone too. */
    assert_true(host_bytes_are(p + 0x3000, 0x1000, 0, "the page both wrote, after the reset"));
    p[0x9000] = 1;
    assert_true(expect_resident(gpu, 3, "1 page written after the reset"));
    wk_gpu_reset(gpu);
    assert_true(expect_resident(gpu, 0, "a round in which the model wrote nothing"));
    /* A read through the mapping backs the page it reads (shmem), so the
     * bytes are looked at after the counts. */
    assert_true(host_bytes_are(p, TU_SEG1_SIZE, 0, "the mapping after the reset"));
    p[0x3000] = 1; /* a page the model kept, then gave back */
    tu_write32(gpu, TU_SEG1_BASE + 0x50000, 1);
    wk_gpu_reset(gpu);
    assert_true(host_bytes_are(p, TU_SEG1_SIZE, 0, "the mapping after a third reset"));
    TU_OK(wk_gpu_segment_unmap(gpu, va));
    wk_gpu_reset(gpu);
    assert_true(expect_resident(gpu, 0, "unmapped, reset"));
}

/* A reset with a live mapping of a 128 MiB segment costs what was touched:
 * 1000 rounds that touch 3 pages each (one through the mapping, two
 * through the model) hold at most 3 pages, and after each reset at most
 * the model's 2, zeroed (a whole-segment memset per reset would still pass
 * this, but a set of 32,768 pages would not: counted, not timed;
 * bench/gpu_reset times it). */
static void test_reset_cost_with_large_mapping(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    a.segs[0].size = 128ull << 20; /* segment 1 grows to 128 MiB: move the others past it */
    a.segs[1].base = 0x10000000ull + (1ull << 30);
    a.segs[2].base = a.segs[1].base + (16ull << 20);
    struct wk_gpu *gpu = create_mappable(state, &a.desc, 1u);
    void *va = NULL;
    TU_OK(wk_gpu_segment_map(gpu, 1, 0, 128ull << 20, &va));
    uint8_t *p = va;
    for (unsigned round = 0; round < 1000; round++) {
        p[(uint64_t)(round * 7919u % 32768u) << 12] = 1;
        tu_write32(gpu, TU_SEG1_BASE + ((uint64_t)(round * 104729u % 32768u) << 12), 1);
        run_fill(gpu, TU_SEG1_BASE + (64ull << 20), 16, 0x3u);
        if (wk_gpu_resident_pages(gpu) > 5) /* and the 2 the last round's model writes left */
            fail_msg("round %u: %llu resident pages, expected at most 5", round,
                     (unsigned long long)wk_gpu_resident_pages(gpu));
        wk_gpu_reset(gpu);
        if (wk_gpu_resident_pages(gpu) > 2)
            fail_msg("round %u: %llu resident pages after reset, expected at most 2", round,
                     (unsigned long long)wk_gpu_resident_pages(gpu));
    }
    TU_OK(wk_gpu_segment_unmap(gpu, va));
}

/* A segment left out of the options is sparse as before: backed from the
 * pool, bounded by max_resident_pages, untouched pages read without data. */
static void test_segment_without_view_unchanged(void **state)
{
    struct tu_adapter a;
    tu_std_adapter(&a);
    a.desc.max_resident_pages = 4;
    struct wk_gpu *gpu = create_mappable(state, &a.desc, 1u << (TU_SEG1_ID - 1));
    struct wk_gpu_view v;
    struct wk_gpu_span sp;
    TU_OK(wk_gpu_view_begin(gpu, TU_SEG2_BASE, 0x4000, &v));
    assert_true(wk_gpu_view_next(&v, &sp));
    assert_null(sp.data);
    assert_true(expect_u64(sp.length, 0x4000));
    uint8_t page[0x1000];
    memset(page, 1, sizeof(page));
    for (unsigned i = 0; i < 4; i++)
        tu_write(gpu, TU_SEG2_BASE + i * 0x1000, page, sizeof(page));
    assert_true(expect_status(wk_gpu_write(gpu, TU_SEG2_BASE + 0x4000, page, 1), WK_E_LIMIT));
    /* The mappable segment is bounded by its own size, not that limit. */
    for (unsigned i = 0; i < 8; i++)
        tu_write(gpu, TU_SEG1_BASE + i * 0x1000, page, sizeof(page));
    assert_true(expect_resident(gpu, 12, "4 sparse and 8 mappable pages"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        TU_TEST(test_options_checked),
        TU_TEST(test_both_views_agree),
        TU_TEST(test_unaligned_and_aliased),
        TU_TEST(test_map_refusals),
        TU_TEST(test_reset_zeroes_both_views),
        TU_TEST(test_unmapped_bytes_stay_until_reset),
        TU_TEST(test_guard_pages),
        TU_TEST(test_resident_accounting),
        TU_TEST(test_reset_cost_with_large_mapping),
        TU_TEST(test_segment_without_view_unchanged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
