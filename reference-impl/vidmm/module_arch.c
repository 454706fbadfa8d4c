/* SPDX-License-Identifier: MIT */
/*
 * module_arch.c - naming a driver module built for another machine.
 *
 * glibc's dlopen refuses an ELF object whose e_machine is not the host's
 * as if the file were missing ("cannot open shared object file: No such
 * file or directory"), which sends a user looking for a path typo when the
 * module was cross-built for an ARM or RISC-V board. When dlopen fails,
 * the callers read the 20 bytes of the ELF header that say it (EI_CLASS,
 * EI_DATA, e_machine) and name the machine instead.
 */

#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "vidmm.h"

#ifndef EM_RISCV
#define EM_RISCV 243
#endif
#ifndef EM_LOONGARCH
#define EM_LOONGARCH 258
#endif

struct machine {
    unsigned em;
    const char *macro;
    const char *name32, *name64; /* by EI_CLASS */
};

static const struct machine machines[] = {
    { EM_386, "EM_386", "i386", "i386 (64-bit?)" },
    { EM_X86_64, "EM_X86_64", "x32", "x86-64" },
    { EM_ARM, "EM_ARM", "arm", "arm (64-bit?)" },
    { EM_AARCH64, "EM_AARCH64", "aarch64 ilp32", "aarch64" },
    { EM_RISCV, "EM_RISCV", "riscv32", "riscv64" },
    { EM_PPC, "EM_PPC", "powerpc", "powerpc (64-bit?)" },
    { EM_PPC64, "EM_PPC64", "powerpc64 (32-bit?)", "powerpc64" },
    { EM_S390, "EM_S390", "s390", "s390x" },
    { EM_MIPS, "EM_MIPS", "mips", "mips64" },
    { EM_SPARCV9, "EM_SPARCV9", "sparcv9 (32-bit?)", "sparc64" },
    { EM_LOONGARCH, "EM_LOONGARCH", "loongarch32", "loongarch64" },
};

/* This build's machine, as the compiler targets it. */
#if defined(__x86_64__) && defined(__LP64__)
#define HOST_EM EM_X86_64
#elif defined(__x86_64__)
#define HOST_EM EM_X86_64 /* x32 */
#elif defined(__i386__)
#define HOST_EM EM_386
#elif defined(__aarch64__)
#define HOST_EM EM_AARCH64
#elif defined(__arm__)
#define HOST_EM EM_ARM
#elif defined(__riscv)
#define HOST_EM EM_RISCV
#elif defined(__powerpc64__)
#define HOST_EM EM_PPC64
#elif defined(__powerpc__)
#define HOST_EM EM_PPC
#elif defined(__s390__)
#define HOST_EM EM_S390
#elif defined(__mips__)
#define HOST_EM EM_MIPS
#elif defined(__loongarch__)
#define HOST_EM EM_LOONGARCH
#else
#define HOST_EM EM_NONE /* unknown: every machine is "other" only by class */
#endif
#define HOST_CLASS (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32)

static const struct machine *machine_of(unsigned em)
{
    for (size_t i = 0; i < sizeof(machines) / sizeof(machines[0]); i++)
        if (machines[i].em == em)
            return &machines[i];
    return NULL;
}

/* "aarch64 (EM_AARCH64)", or the number for a machine not in the table. */
static void describe(unsigned em, int cls, char *buf, size_t cap)
{
    const struct machine *m = machine_of(em);
    if (m)
        snprintf(buf, cap, "%s (%s)", cls == ELFCLASS64 ? m->name64 : m->name32, m->macro);
    else
        snprintf(buf, cap, "ELF machine %u (%d-bit)", em, cls == ELFCLASS64 ? 64 : 32);
}

/* The first bytes of path: 1 when it holds an ELF identification and
 * e_machine (*em, *cls), else 0. */
static int read_header(const char *path, unsigned *em, int *cls)
{
    unsigned char h[20];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, h, sizeof(h));
    close(fd);
    if (n != (ssize_t)sizeof(h) || memcmp(h, ELFMAG, SELFMAG) != 0)
        return 0;
    if ((h[EI_CLASS] != ELFCLASS32 && h[EI_CLASS] != ELFCLASS64) ||
        (h[EI_DATA] != ELFDATA2LSB && h[EI_DATA] != ELFDATA2MSB))
        return 0;
    /* e_machine sits at byte 18 in both classes, in the file's byte order. */
    *em = h[EI_DATA] == ELFDATA2LSB ? (unsigned)(h[18] | h[19] << 8) : (unsigned)(h[18] << 8 | h[19]);
    *cls = h[EI_CLASS];
    return 1;
}

int wk_vidmm_module_foreign(const char *path, char *why, size_t cap)
{
    unsigned em = 0;
    int cls = 0;
    char local[4096];
    if (!path || !read_header(wk_vidmm_module_path(path, local, sizeof(local)), &em, &cls))
        return 0;
    if (em == HOST_EM && cls == HOST_CLASS)
        return 0;
    char theirs[64], ours[64];
    describe(em, cls, theirs, sizeof(theirs));
    describe(HOST_EM, HOST_CLASS, ours, sizeof(ours));
    *strchr(ours, ' ') = '\0'; /* the host by its name alone */
    snprintf(why, cap, "%s is built for %s, this kit runs %s: build the driver for %s", path, theirs, ours, ours);
    return 1;
}
