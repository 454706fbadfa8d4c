/* SPDX-License-Identifier: MIT */
/*
 * elf_section.c - a section of an ELF64 image by name (elf_section.h).
 *
 * The image is the file of a module the kit has already loaded, but it is
 * still outside bytes: every offset and count is checked against the
 * image before it is used, arithmetic cannot wrap, and headers are read
 * with memcpy (no alignment assumed). Only what the lookup needs is read:
 * the ELF header, the section header table and the section-name table.
 * Layouts: the System V ABI's ELF64 (glibc's <elf.h>), including the
 * extended numbering for files with 0xff00 sections or more (e_shnum 0:
 * the count is section 0's sh_size; e_shstrndx SHN_XINDEX: the index is
 * section 0's sh_link).
 */
#include "elf_section.h"

#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "elf_bounds.h"

static int header(const uint8_t *d, size_t size, Elf64_Ehdr *h, char *why, size_t cap)
{
    if (size < sizeof(*h))
        return elf_refuse(why, cap, "ELF header: expected %zu bytes, the file has %zu", sizeof(*h), size);
    memcpy(h, d, sizeof(*h));
    if (memcmp(h->e_ident, ELFMAG, SELFMAG) != 0)
        return elf_refuse(why, cap, "offset 0: expected the ELF magic 7f 45 4c 46, saw %02x %02x %02x %02x",
                      h->e_ident[0], h->e_ident[1], h->e_ident[2], h->e_ident[3]);
    if (h->e_ident[EI_CLASS] != ELFCLASS64 || h->e_ident[EI_DATA] != ELFDATA2LSB)
        return elf_refuse(why, cap, "offset 4: expected a 64-bit little-endian file (class 2, data 1), saw class %u, data %u",
                      h->e_ident[EI_CLASS], h->e_ident[EI_DATA]);
    if (h->e_shoff && h->e_shentsize != sizeof(Elf64_Shdr))
        return elf_refuse(why, cap, "e_shentsize: expected %zu, saw %u", sizeof(Elf64_Shdr), h->e_shentsize);
    return 1;
}

/* Section header i (i < count, the table checked to lie in the image). */
static Elf64_Shdr section(const uint8_t *d, const Elf64_Ehdr *h, uint64_t i)
{
    Elf64_Shdr s;
    memcpy(&s, d + h->e_shoff + i * sizeof(s), sizeof(s));
    return s;
}

int wk_elf_section(const uint8_t *data, size_t size, const char *name, uint64_t *addr, uint64_t *bytes, char *why,
                   size_t cap)
{
    Elf64_Ehdr h;
    if (header(data, size, &h, why, cap) < 0)
        return -1;
    if (!h.e_shoff)
        return elf_refuse(why, cap, "e_shoff is 0: the file has no section headers");
    if (!elf_inside(h.e_shoff, sizeof(Elf64_Shdr), size))
        return elf_refuse(why, cap, "e_shoff 0x%llx: expected a section header inside the file's %zu bytes",
                      (unsigned long long)h.e_shoff, size);
    Elf64_Shdr zero = section(data, &h, 0);
    uint64_t count = h.e_shnum ? h.e_shnum : zero.sh_size; /* extended numbering */
    uint64_t names = h.e_shstrndx == SHN_XINDEX ? zero.sh_link : h.e_shstrndx;
    if (count > (size - h.e_shoff) / sizeof(Elf64_Shdr))
        return elf_refuse(why, cap, "section headers at 0x%llx: %llu of them do not fit in the file's %zu bytes",
                      (unsigned long long)h.e_shoff, (unsigned long long)count, size);
    if (names == SHN_UNDEF || names >= count)
        return elf_refuse(why, cap, "e_shstrndx: expected a section below %llu, saw %llu", (unsigned long long)count,
                      (unsigned long long)names);
    Elf64_Shdr strtab = section(data, &h, names);
    if (!elf_inside(strtab.sh_offset, strtab.sh_size, size))
        return elf_refuse(why, cap, "section-name table (section %llu): [0x%llx, +0x%llx) is not inside the file's %zu bytes",
                      (unsigned long long)names, (unsigned long long)strtab.sh_offset,
                      (unsigned long long)strtab.sh_size, size);
    const char *table = (const char *)data + strtab.sh_offset;
    size_t want = strlen(name);
    for (uint64_t i = 1; i < count; i++) {
        Elf64_Shdr s = section(data, &h, i);
        if (s.sh_name >= strtab.sh_size || strtab.sh_size - s.sh_name <= want)
            continue; /* no room for the name and its NUL */
        if (memcmp(table + s.sh_name, name, want) == 0 && table[s.sh_name + want] == '\0') {
            *addr = s.sh_addr;
            *bytes = s.sh_size;
            return 1;
        }
    }
    elf_refuse(why, cap, "no section named %s among %llu", name, (unsigned long long)count);
    return 0;
}
