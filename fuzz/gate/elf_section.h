/* SPDX-License-Identifier: MIT */
/*
 * elf_section.h - where a named section of an ELF64 file is (elf_section.c).
 *
 * Why: libFuzzer keeps the edge counters of a module loaded at run time (a
 * driver under test from WK_DRIVER) in that module's section
 * __sancov_cntrs, and the coverage gate must save and restore them
 * (coverage_gate.h); only the file's section headers say where it is.
 */
#ifndef WK_FUZZ_ELF_SECTION_H
#define WK_FUZZ_ELF_SECTION_H

#include <stddef.h>
#include <stdint.h>

/* Looks up section `name` in the ELF64 little-endian image data[0, size).
 * 1: found, *addr and *bytes are its sh_addr and sh_size; 0: a well-formed
 * image without it; -1: a malformed image, why says where, with the field
 * (expected against seen). why is set whenever the result is not 1. Reads
 * nothing outside data. */
int wk_elf_section(const uint8_t *data, size_t size, const char *name, uint64_t *addr, uint64_t *bytes, char *why,
                   size_t cap);

#endif
