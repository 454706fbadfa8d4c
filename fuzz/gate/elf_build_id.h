/* SPDX-License-Identifier: MIT */
/*
 * elf_build_id.h - the GNU build-id of an ELF64 file (elf_build_id.c).
 *
 * Why: a conformance report names the driver it judged by its bytes
 * (SHA-256) and, when the linker gave it one, by its build-id (the
 * NT_GNU_BUILD_ID note `ld --build-id` writes, what debuginfod, `file`
 * and a core dump name a binary by). The reader lives beside the section
 * lookup (elf_section.c) and is fuzzed with it (harnesses/fuzz_elf.c).
 */
#ifndef WK_FUZZ_ELF_BUILD_ID_H
#define WK_FUZZ_ELF_BUILD_ID_H

#include <stddef.h>
#include <stdint.h>

/* The most bytes a build-id may have here (ld writes 20 for sha1, 16 for
 * md5/uuid; a longer descriptor is refused as malformed). */
#define WK_ELF_BUILD_ID_MAX 64

/* Finds the NT_GNU_BUILD_ID note (owner "GNU") in the PT_NOTE segments of
 * the ELF64 little-endian image data[0, size). 1: found, its descriptor
 * copied to id (*len bytes, 1..WK_ELF_BUILD_ID_MAX); 0: a well-formed
 * image without one; -1: a malformed image. why is set whenever the
 * result is not 1. Reads nothing outside data. */
int wk_elf_build_id(const uint8_t *data, size_t size, uint8_t *id, size_t *len, char *why, size_t cap);

#endif
