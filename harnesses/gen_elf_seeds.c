/* SPDX-License-Identifier: MIT */
/*
 * gen_elf_seeds.c - writes the seed corpus of fuzz_elf: small ELF64 images
 * whose section headers hold what wk_elf_section looks for, so fuzzing
 * starts past the magic number.
 *   - sections.bin: a null section, .text, __sancov_cntrs, .shstrtab;
 *   - extended.bin: the same with extended numbering (e_shnum 0,
 *     e_shstrndx SHN_XINDEX, the real values in section 0);
 *   - no-sections.bin: an ELF header without section headers.
 * Usage: wk_gen_elf_seeds DIR (the committed seeds came from this).
 */
#include <elf.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const char names[] = "\0.text\0__sancov_cntrs\0.shstrtab";
#define TEXT 1
#define CNTRS 7
#define SHSTRTAB 22
#define SECTIONS 4

struct image {
    Elf64_Ehdr h;
    Elf64_Shdr s[SECTIONS];
    char names[sizeof(names)];
};

static void build(struct image *im, int extended, int with_sections)
{
    memset(im, 0, sizeof(*im));
    memcpy(im->h.e_ident, ELFMAG, SELFMAG);
    im->h.e_ident[EI_CLASS] = ELFCLASS64;
    im->h.e_ident[EI_DATA] = ELFDATA2LSB;
    im->h.e_ident[EI_VERSION] = EV_CURRENT;
    im->h.e_type = ET_DYN;
    im->h.e_machine = EM_X86_64;
    im->h.e_version = EV_CURRENT;
    im->h.e_ehsize = sizeof(Elf64_Ehdr);
    if (!with_sections)
        return;
    im->h.e_shoff = offsetof(struct image, s);
    im->h.e_shentsize = sizeof(Elf64_Shdr);
    im->h.e_shnum = extended ? 0 : SECTIONS;
    im->h.e_shstrndx = extended ? SHN_XINDEX : SECTIONS - 1;
    if (extended) {
        im->s[0].sh_size = SECTIONS;
        im->s[0].sh_link = SECTIONS - 1;
    }
    im->s[1] = (Elf64_Shdr){ .sh_name = TEXT, .sh_type = SHT_PROGBITS, .sh_addr = 0x1000, .sh_size = 0x200 };
    im->s[2] = (Elf64_Shdr){ .sh_name = CNTRS, .sh_type = SHT_PROGBITS, .sh_addr = 0x4ceb8, .sh_size = 0x61b };
    im->s[3] = (Elf64_Shdr){ .sh_name = SHSTRTAB, .sh_type = SHT_STRTAB, .sh_offset = offsetof(struct image, names),
                             .sh_size = sizeof(names) };
    memcpy(im->names, names, sizeof(names));
}

static int write_seed(const char *dir, const char *name, const struct image *im, size_t size)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(im, 1, size, f) == size;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok)
        fprintf(stderr, "wk_gen_elf_seeds: cannot write %s\n", path);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: wk_gen_elf_seeds DIR\n");
        return 2;
    }
    static struct image im;
    int ok = 1;
    build(&im, 0, 1);
    ok &= write_seed(argv[1], "sections.bin", &im, sizeof(im));
    build(&im, 1, 1);
    ok &= write_seed(argv[1], "extended.bin", &im, sizeof(im));
    build(&im, 0, 0);
    ok &= write_seed(argv[1], "no-sections.bin", &im, sizeof(Elf64_Ehdr));
    return ok ? 0 : 1;
}
