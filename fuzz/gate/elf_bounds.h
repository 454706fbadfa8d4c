/* SPDX-License-Identifier: MIT */
/*
 * elf_bounds.h - the two checks every ELF reader of this folder makes on
 * outside bytes (elf_section.c, elf_build_id.c): whether a range lies in
 * the image, and the refusal that fills `why`. Internal to fuzz/gate.
 */
#ifndef WK_FUZZ_GATE_ELF_BOUNDS_H
#define WK_FUZZ_GATE_ELF_BOUNDS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Whether [off, off + len) lies inside an image of `size` bytes. */
static inline int elf_inside(uint64_t off, uint64_t len, size_t size)
{
    return off <= size && len <= size - off;
}

/* Fills why (when cap); returns -1 (malformed). */
__attribute__((format(printf, 3, 4))) static inline int elf_refuse(char *why, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (cap)
        vsnprintf(why, cap, fmt, ap);
    va_end(ap);
    return -1;
}

#endif
