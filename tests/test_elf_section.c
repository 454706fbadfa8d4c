/* SPDX-License-Identifier: MIT */
/*
 * test_elf_section.c - fuzz/gate/elf_section.c: the committed fuzz_elf seeds
 * (plain and extended section numbering) give the section where it is; a
 * real file (this test's executable) gives .text around a function of its
 * own; every truncation and each corrupted field is refused with a message
 * naming the field, without reading past the bytes (the asan preset runs
 * this too).
 */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include <elf.h>
#include <link.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gate/elf_section.h"
#include "util.h"

/* The whole file, as util reads any file it is handed (wk_file_read). */
static uint8_t *read_all(const char *path, size_t *size)
{
    uint8_t *d = NULL;
    char why[160];
    assert_int_equal(wk_file_read(path, 1ull << 30, &d, size, why, sizeof(why)), WK_OK);
    assert_true(*size > 0);
    return d;
}

static uint8_t *seed(const char *name, size_t *size)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/corpus/fuzz_elf/seeds/%s", WK_SOURCE_DIR, name);
    return read_all(path, size);
}

/* Not found (0: no such section; -1: malformed), with `needle` in the
 * message. */
static void expect_answer(const uint8_t *d, size_t size, const char *name, int answer, const char *needle)
{
    uint64_t addr = 0, bytes = 0;
    char why[256] = "";
    assert_int_equal(wk_elf_section(d, size, name, &addr, &bytes, why, sizeof(why)), answer);
    if (!strstr(why, needle))
        fail_msg("expected '%s' in '%s'", needle, why);
}

static void test_seeds_give_the_section(void **state)
{
    (void)state;
    static const char *const names[] = { "sections.bin", "extended.bin" };
    for (size_t i = 0; i < 2; i++) {
        size_t size;
        uint8_t *d = seed(names[i], &size);
        uint64_t addr = 0, bytes = 0;
        char why[256] = "";
        assert_int_equal(wk_elf_section(d, size, "__sancov_cntrs", &addr, &bytes, why, sizeof(why)), 1);
        assert_int_equal(addr, 0x4ceb8);
        assert_int_equal(bytes, 0x61b);
        assert_string_equal(why, "");
        expect_answer(d, size, "__sancov_pcs", 0, "no section named __sancov_pcs among 4");
        expect_answer(d, size, "__sancov_cntr", 0, "no section named"); /* a prefix is not the name */
        free(d);
    }
    size_t size;
    uint8_t *d = seed("no-sections.bin", &size);
    expect_answer(d, size, "__sancov_cntrs", -1, "no section headers");
    free(d);
}

static int first_module(struct dl_phdr_info *info, size_t size, void *bias)
{
    (void)size;
    *(uintptr_t *)bias = (uintptr_t)info->dlpi_addr;
    return 1; /* the executable comes first */
}

static void test_real_file(void **state)
{
    (void)state;
    size_t size;
    uint8_t *d = read_all("/proc/self/exe", &size);
    uint64_t addr = 0, bytes = 0;
    char why[256];
    assert_int_equal(wk_elf_section(d, size, ".text", &addr, &bytes, why, sizeof(why)), 1);
    uintptr_t bias = 0;
    dl_iterate_phdr(first_module, &bias);
    uintptr_t at = (uintptr_t)&test_real_file - bias; /* this function, in the file's addresses */
    assert_true(at >= addr && at < addr + bytes);
    free(d);
}

static void test_truncations_refused(void **state)
{
    (void)state;
    size_t size;
    uint8_t *d = seed("sections.bin", &size);
    for (size_t n = 0; n < size; n++) {
        uint8_t *cut = malloc(n ? n : 1); /* exactly n bytes: ASan sees a read past them */
        assert_non_null(cut);
        memcpy(cut, d, n);
        uint64_t addr = 0, bytes = 0;
        char why[256] = "";
        if (wk_elf_section(cut, n, "__sancov_cntrs", &addr, &bytes, why, sizeof(why)) != 1)
            assert_true(why[0] != '\0');
        free(cut);
    }
    expect_answer(d, 10, "x", -1, "ELF header: expected 64 bytes, the file has 10");
    expect_answer(d, size - 1, "__sancov_cntrs", -1, "section-name table");
    free(d);
}

/* A copy of the seed with `len` bytes at `off` replaced by `value`. */
static uint8_t *patched(const uint8_t *d, size_t size, size_t off, uint64_t value, size_t len)
{
    uint8_t *p = malloc(size);
    assert_non_null(p);
    memcpy(p, d, size);
    memcpy(p + off, &value, len);
    return p;
}

static void test_corrupt_fields_refused(void **state)
{
    (void)state;
    size_t size;
    uint8_t *d = seed("sections.bin", &size);
    const size_t sh = sizeof(Elf64_Ehdr); /* the seed's section headers follow its ELF header */
    static const struct {
        size_t off, len;
        uint64_t value;
        const char *needle; /* malformed (-1) but for the last case, which is only absent */
    } cases[] = {
        { 0, 1, 0x7e, "expected the ELF magic" },
        { EI_CLASS, 1, ELFCLASS32, "64-bit little-endian" },
        { EI_DATA, 1, ELFDATA2MSB, "64-bit little-endian" },
        { offsetof(Elf64_Ehdr, e_shentsize), 2, 40, "e_shentsize: expected 64, saw 40" },
        { offsetof(Elf64_Ehdr, e_shoff), 8, 0xFFFFFFFFFFFFFFF0ull, "e_shoff 0xfffffffffffffff0" },
        { offsetof(Elf64_Ehdr, e_shnum), 2, 0xFFFF, "do not fit" },
        { offsetof(Elf64_Ehdr, e_shstrndx), 2, 4, "e_shstrndx: expected a section below 4, saw 4" },
        { offsetof(Elf64_Ehdr, e_shstrndx), 2, 0, "e_shstrndx" },
        /* the name table's offset and size (section 3) past the file */
        { sh + 3 * sizeof(Elf64_Shdr) + offsetof(Elf64_Shdr, sh_offset), 8, 0xFFFFFFFFFFFFFF00ull, "section-name table" },
        { sh + 3 * sizeof(Elf64_Shdr) + offsetof(Elf64_Shdr, sh_size), 8, 0xFFFFFFFFFFFFFF00ull, "section-name table" },
        /* the counters' name (section 2) out of the table: no such section */
        { sh + 2 * sizeof(Elf64_Shdr) + offsetof(Elf64_Shdr, sh_name), 4, 0xFFFFFFF0u, "no section named" },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint8_t *p = patched(d, size, cases[i].off, cases[i].value, cases[i].len);
        expect_answer(p, size, "__sancov_cntrs", i + 1 < sizeof(cases) / sizeof(cases[0]) ? -1 : 0, cases[i].needle);
        free(p);
    }
    free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seeds_give_the_section),
        cmocka_unit_test(test_real_file),
        cmocka_unit_test(test_truncations_refused),
        cmocka_unit_test(test_corrupt_fields_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
