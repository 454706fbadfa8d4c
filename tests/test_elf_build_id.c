/* SPDX-License-Identifier: MIT */
/*
 * test_elf_build_id.c - fuzz/gate/elf_build_id.c: the build-id read from a
 * real file (this test's executable) is the one the loader mapped (its
 * PT_NOTE as dl_iterate_phdr shows it in memory); a small image made here
 * gives its build-id, with 4- and 8-byte note alignment; a note of another
 * owner or type is passed over; every truncation and each corrupted field
 * is refused or absent with a message, without reading past the bytes (the
 * asan preset runs this too).
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

#include "gate/elf_build_id.h"
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

/* The executable's build-id as mapped: its PT_NOTE segments in memory. */
struct mapped {
    uint8_t id[WK_ELF_BUILD_ID_MAX];
    size_t len;
};

static int executable_notes(struct dl_phdr_info *info, size_t size, void *ctx)
{
    (void)size;
    struct mapped *m = ctx;
    for (int i = 0; i < info->dlpi_phnum && !m->len; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        if (p->p_type != PT_NOTE)
            continue;
        const uint8_t *at = (const uint8_t *)(info->dlpi_addr + p->p_vaddr);
        size_t align = p->p_align == 8 ? 8 : 4, left = p->p_memsz;
        while (left >= sizeof(ElfW(Nhdr))) {
            ElfW(Nhdr) n;
            memcpy(&n, at, sizeof(n));
            size_t desc_at = (sizeof(n) + n.n_namesz + align - 1) & ~(align - 1); /* glibc's ELF_NOTE_DESC_OFFSET */
            size_t next = (desc_at + n.n_descsz + align - 1) & ~(align - 1);
            if (desc_at + n.n_descsz > left)
                break;
            if (n.n_type == NT_GNU_BUILD_ID && n.n_namesz == 4 && memcmp(at + sizeof(n), "GNU", 4) == 0 &&
                n.n_descsz <= WK_ELF_BUILD_ID_MAX) {
                memcpy(m->id, at + desc_at, n.n_descsz);
                m->len = n.n_descsz;
            }
            if (next >= left)
                break;
            at += next;
            left -= next;
        }
    }
    return 1; /* the executable comes first */
}

static void test_real_file(void **state)
{
    (void)state;
    struct mapped m = { { 0 }, 0 };
    dl_iterate_phdr(executable_notes, &m);
    size_t size, len = 0;
    uint8_t *d = read_all("/proc/self/exe", &size);
    uint8_t id[WK_ELF_BUILD_ID_MAX];
    char why[256] = "";
    int found = wk_elf_build_id(d, size, id, &len, why, sizeof(why));
    if (!m.len) { /* a toolchain without --build-id: the file has none either */
        assert_int_equal(found, 0);
        print_message("this executable has no build-id (linked without --build-id)\n");
    } else {
        assert_int_equal(found, 1);
        assert_string_equal(why, "");
        assert_int_equal(len, m.len);
        assert_memory_equal(id, m.id, len);
    }
    free(d);
}

/* A small ELF64 image: the header, two program headers (a PT_LOAD and a
 * PT_NOTE), then the notes: one of another owner ("XYZ"), then GNU's
 * build-id of 20 bytes 0x10..0x23. align: the PT_NOTE's p_align. */
#define IMAGE_NOTES (sizeof(Elf64_Ehdr) + 2 * sizeof(Elf64_Phdr))
static size_t make_image(uint8_t *img, size_t cap, uint64_t align)
{
    memset(img, 0, cap);
    Elf64_Ehdr h;
    memset(&h, 0, sizeof(h));
    memcpy(h.e_ident, ELFMAG, SELFMAG);
    h.e_ident[EI_CLASS] = ELFCLASS64;
    h.e_ident[EI_DATA] = ELFDATA2LSB;
    h.e_ident[EI_VERSION] = EV_CURRENT;
    h.e_type = ET_DYN;
    h.e_machine = EM_X86_64;
    h.e_version = EV_CURRENT;
    h.e_phoff = sizeof(h);
    h.e_ehsize = sizeof(h);
    h.e_phentsize = sizeof(Elf64_Phdr);
    h.e_phnum = 2;
    memcpy(img, &h, sizeof(h));
    size_t at = IMAGE_NOTES;
    /* a note's descriptor at the header and name rounded up, the next
     * note at the descriptor's end rounded up (both 16 + 8 here) */
    Elf64_Nhdr other = { 4, 8, 1 }; /* "XYZ\0", 8 bytes */
    memcpy(img + at, &other, sizeof(other));
    memcpy(img + at + sizeof(other), "XYZ", 4);
    at += 16 + 8;
    Elf64_Nhdr gnu = { 4, 20, NT_GNU_BUILD_ID };
    memcpy(img + at, &gnu, sizeof(gnu));
    memcpy(img + at + sizeof(gnu), "GNU", 4);
    for (int i = 0; i < 20; i++)
        img[at + 16 + (size_t)i] = (uint8_t)(0x10 + i);
    at += 16 + ((20 + align - 1) & ~(align - 1));
    Elf64_Phdr load, note;
    memset(&load, 0, sizeof(load));
    memset(&note, 0, sizeof(note));
    load.p_type = PT_LOAD;
    load.p_filesz = load.p_memsz = at;
    load.p_align = 0x1000;
    note.p_type = PT_NOTE;
    note.p_offset = note.p_vaddr = IMAGE_NOTES;
    note.p_filesz = note.p_memsz = at - IMAGE_NOTES;
    note.p_align = align;
    memcpy(img + sizeof(h), &load, sizeof(load));
    memcpy(img + sizeof(h) + sizeof(load), &note, sizeof(note));
    assert_true(at <= cap);
    return at;
}

static void expect_answer(const uint8_t *d, size_t size, int answer, const char *needle)
{
    uint8_t id[WK_ELF_BUILD_ID_MAX];
    size_t len = 99;
    char why[256] = "";
    assert_int_equal(wk_elf_build_id(d, size, id, &len, why, sizeof(why)), answer);
    if (answer != 1)
        assert_int_equal(len, 0);
    if (!strstr(why, needle))
        fail_msg("expected '%s' in '%s'", needle, why);
}

static void test_made_image(void **state)
{
    (void)state;
    static const uint64_t aligns[] = { 4, 8 };
    for (size_t a = 0; a < 2; a++) {
        uint8_t img[512], id[WK_ELF_BUILD_ID_MAX];
        size_t size = make_image(img, sizeof(img), aligns[a]), len = 0;
        char why[256] = "";
        int found = wk_elf_build_id(img, size, id, &len, why, sizeof(why));
        if (found != 1)
            fail_msg("align %d: %d, %s", (int)aligns[a], found, why);
        assert_int_equal(len, 20);
        for (int i = 0; i < 20; i++)
            assert_int_equal(id[i], 0x10 + i);
        assert_string_equal(why, "");
    }
}

static void test_truncations_refused(void **state)
{
    (void)state;
    uint8_t img[512];
    size_t size = make_image(img, sizeof(img), 4);
    for (size_t n = 0; n < size; n++) {
        uint8_t *cut = malloc(n ? n : 1); /* exactly n bytes: ASan sees a read past them */
        assert_non_null(cut);
        memcpy(cut, img, n);
        uint8_t id[WK_ELF_BUILD_ID_MAX];
        size_t len = 0;
        char why[256] = "";
        assert_int_not_equal(wk_elf_build_id(cut, n, id, &len, why, sizeof(why)), 1);
        assert_true(why[0] != '\0');
        free(cut);
    }
    expect_answer(img, 10, -1, "ELF header: expected 64 bytes, the file has 10");
    expect_answer(img, size - 1, -1, "PT_NOTE (program header 1)");
}

static void test_corrupt_fields(void **state)
{
    (void)state;
    const size_t note_ph = sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr);
    const size_t gnu = IMAGE_NOTES + 16 + 8; /* the build-id note's header */
    static const struct {
        size_t off, len;
        uint64_t value;
        int answer;
        const char *needle;
    } cases[] = {
        { 0, 1, 0x7e, -1, "expected the ELF magic" },
        { EI_CLASS, 1, ELFCLASS32, -1, "64-bit little-endian" },
        { EI_DATA, 1, ELFDATA2MSB, -1, "64-bit little-endian" },
        { offsetof(Elf64_Ehdr, e_phentsize), 2, 40, -1, "e_phentsize: expected 56, saw 40" },
        { offsetof(Elf64_Ehdr, e_phoff), 8, 0xFFFFFFFFFFFFFFF0ull, -1, "do not fit" },
        { offsetof(Elf64_Ehdr, e_phnum), 2, 0xFFFF, -1, "do not fit" },
        { offsetof(Elf64_Ehdr, e_phnum), 2, 0, 0, "no program headers" },
        { note_ph + offsetof(Elf64_Phdr, p_offset), 8, 0xFFFFFFFFFFFFFF00ull, -1, "is not inside" },
        { note_ph + offsetof(Elf64_Phdr, p_filesz), 8, 0xFFFFFFFFFFFFFF00ull, -1, "is not inside" },
        { note_ph + offsetof(Elf64_Phdr, p_type), 4, PT_LOAD, 0, "no NT_GNU_BUILD_ID note" },
        { IMAGE_NOTES, 4, 0xFFFFFFFFu, -1, "do not fit" },                  /* the first note's namesz */
        { IMAGE_NOTES + 4, 4, 0xFFFFFFFDu, -1, "do not fit" },              /* ... its descsz */
        { gnu + 4, 4, 0, -1, "expected 1 to 64 bytes, saw 0" },             /* an empty build-id */
        { gnu + 8, 4, NT_GNU_ABI_TAG, 0, "no NT_GNU_BUILD_ID note" },       /* another GNU note */
        { gnu + sizeof(Elf64_Nhdr), 1, 'g', 0, "no NT_GNU_BUILD_ID note" }, /* owner "gNU" */
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint8_t img[512];
        size_t size = make_image(img, sizeof(img), 4);
        memcpy(img + cases[i].off, &cases[i].value, cases[i].len);
        expect_answer(img, size, cases[i].answer, cases[i].needle);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_file),
        cmocka_unit_test(test_made_image),
        cmocka_unit_test(test_truncations_refused),
        cmocka_unit_test(test_corrupt_fields),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
