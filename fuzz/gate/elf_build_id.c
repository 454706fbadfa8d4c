/* SPDX-License-Identifier: MIT */
/*
 * elf_build_id.c - the GNU build-id note of an ELF64 image (elf_build_id.h).
 *
 * The image is a driver module's file: outside bytes. As in elf_section.c
 * every offset and count is checked against the image before it is used,
 * arithmetic cannot wrap, and headers are read with memcpy. What is read:
 * the ELF header, the program header table, and the notes of each PT_NOTE
 * segment (the System V gABI's note layout: namesz, descsz, type, then the
 * name and the descriptor, each padded to the segment's alignment: 4, or 8
 * for a segment aligned to 8, as binutils writes .note.gnu.property). The
 * program headers are what the loader reads, and a stripped module keeps
 * them; the section headers may be gone.
 */
#include "elf_build_id.h"

#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "elf_bounds.h"

/* n rounded up to a multiple of align (4 or 8); UINT64_MAX when it wraps. */
static uint64_t padded(uint64_t n, uint64_t align)
{
    return n > UINT64_MAX - (align - 1) ? UINT64_MAX : (n + align - 1) & ~(align - 1);
}

/* The notes of one segment [off, off + bytes) (inside the image): 1 the
 * build-id found, 0 none here, -1 malformed. A note's descriptor starts at
 * the header plus the name rounded up to the alignment, the next note at
 * the descriptor's end rounded up (glibc's ELF_NOTE_DESC_OFFSET and
 * ELF_NOTE_NEXT_OFFSET); the last note's padding may be missing. */
static int segment_notes(const uint8_t *d, uint64_t off, uint64_t bytes, uint64_t align, uint8_t *id, size_t *len,
                         char *why, size_t cap)
{
    uint64_t at = 0;
    while (bytes - at >= sizeof(Elf64_Nhdr)) {
        Elf64_Nhdr n; /* Elf64_Nhdr and Elf32_Nhdr are the same three 32-bit words */
        memcpy(&n, d + off + at, sizeof(n));
        uint64_t left = bytes - at;
        uint64_t desc_at = padded(sizeof(n) + (uint64_t)n.n_namesz, align); /* no wrap: 32-bit sizes */
        if (desc_at > left || n.n_descsz > left - desc_at)
            return elf_refuse(why, cap, "note at 0x%llx: name (%u bytes) and descriptor (%u bytes) do not fit in the "
                                 "segment's %llu bytes left",
                       (unsigned long long)(off + at), n.n_namesz, n.n_descsz, (unsigned long long)left);
        const uint8_t *name = d + off + at + sizeof(n);
        if (n.n_type == NT_GNU_BUILD_ID && n.n_namesz == sizeof(ELF_NOTE_GNU) &&
            memcmp(name, ELF_NOTE_GNU, sizeof(ELF_NOTE_GNU)) == 0) {
            if (n.n_descsz == 0 || n.n_descsz > WK_ELF_BUILD_ID_MAX)
                return elf_refuse(why, cap, "build-id note at 0x%llx: expected 1 to %d bytes, saw %u",
                           (unsigned long long)(off + at), WK_ELF_BUILD_ID_MAX, n.n_descsz);
            memcpy(id, d + off + at + desc_at, n.n_descsz);
            *len = n.n_descsz;
            return 1;
        }
        uint64_t next = padded(desc_at + n.n_descsz, align);
        at += next < left ? next : left;
    }
    return 0;
}

int wk_elf_build_id(const uint8_t *data, size_t size, uint8_t *id, size_t *len, char *why, size_t cap)
{
    Elf64_Ehdr h;
    *len = 0;
    if (size < sizeof(h))
        return elf_refuse(why, cap, "ELF header: expected %zu bytes, the file has %zu", sizeof(h), size);
    memcpy(&h, data, sizeof(h));
    if (memcmp(h.e_ident, ELFMAG, SELFMAG) != 0)
        return elf_refuse(why, cap, "offset 0: expected the ELF magic 7f 45 4c 46, saw %02x %02x %02x %02x", h.e_ident[0],
                   h.e_ident[1], h.e_ident[2], h.e_ident[3]);
    if (h.e_ident[EI_CLASS] != ELFCLASS64 || h.e_ident[EI_DATA] != ELFDATA2LSB)
        return elf_refuse(why, cap, "offset 4: expected a 64-bit little-endian file (class 2, data 1), saw class %u, data %u",
                   h.e_ident[EI_CLASS], h.e_ident[EI_DATA]);
    if (h.e_phnum == 0 || h.e_phoff == 0) {
        elf_refuse(why, cap, "no program headers");
        return 0;
    }
    if (h.e_phentsize != sizeof(Elf64_Phdr))
        return elf_refuse(why, cap, "e_phentsize: expected %zu, saw %u", sizeof(Elf64_Phdr), h.e_phentsize);
    if (!elf_inside(h.e_phoff, (uint64_t)h.e_phnum * sizeof(Elf64_Phdr), size))
        return elf_refuse(why, cap, "program headers at 0x%llx: %u of them do not fit in the file's %zu bytes",
                   (unsigned long long)h.e_phoff, h.e_phnum, size);
    for (uint16_t i = 0; i < h.e_phnum; i++) {
        Elf64_Phdr p;
        memcpy(&p, data + h.e_phoff + (uint64_t)i * sizeof(p), sizeof(p));
        if (p.p_type != PT_NOTE)
            continue;
        if (!elf_inside(p.p_offset, p.p_filesz, size))
            return elf_refuse(why, cap, "PT_NOTE (program header %u): [0x%llx, +0x%llx) is not inside the file's %zu bytes", i,
                       (unsigned long long)p.p_offset, (unsigned long long)p.p_filesz, size);
        int found = segment_notes(data, p.p_offset, p.p_filesz, p.p_align == 8 ? 8 : 4, id, len, why, cap);
        if (found)
            return found;
    }
    elf_refuse(why, cap, "no NT_GNU_BUILD_ID note in the PT_NOTE segments");
    return 0;
}
