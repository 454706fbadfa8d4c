/* SPDX-License-Identifier: MIT */
/*
 * module_counters.c - the libFuzzer edge counters of a module loaded at run
 * time (coverage_gate.h, wk_fuzz_module_counters).
 *
 * SanitizerCoverage puts a module's inline 8-bit counters in its section
 * __sancov_cntrs; the module registers them with libFuzzer as it loads,
 * and nothing in memory says where they are to anyone else (the linker's
 * __start/__stop symbols are local to the module). The section headers of
 * its file do: the module's load bias (dlinfo, RTLD_DI_LINKMAP) plus the
 * section's sh_addr is where the counters are mapped.
 */
#define _GNU_SOURCE /* dlinfo, RTLD_DI_LINKMAP, RTLD_NOLOAD */

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "coverage_gate.h"
#include "elf_section.h"

/* The mapped file's section: wk_elf_section's answer (-1 also when the file
 * cannot be read). */
static int section_of_file(const char *file, uint64_t *addr, uint64_t *bytes, char *why, size_t cap)
{
    int fd = open(file, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size <= 0) {
        snprintf(why, cap, "cannot read %s: %s", file, fd < 0 ? strerror(errno) : "empty or unreadable");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) {
        snprintf(why, cap, "cannot map %s: %s", file, strerror(errno));
        return -1;
    }
    char detail[256];
    int found = wk_elf_section(map, (size_t)st.st_size, "__sancov_cntrs", addr, bytes, detail, sizeof(detail));
    munmap(map, (size_t)st.st_size);
    if (found != 1)
        snprintf(why, cap, "%s: %s", file, detail);
    return found;
}

int wk_fuzz_module_counters(const char *path, uint8_t **begin, size_t *len, char *why, size_t cap)
{
    void *so = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
    struct link_map *lm = NULL;
    if (!so || dlinfo(so, RTLD_DI_LINKMAP, &lm) != 0 || !lm) {
        snprintf(why, cap, "%s is not loaded", path);
        if (so)
            dlclose(so);
        return -1;
    }
    uintptr_t bias = (uintptr_t)lm->l_addr;
    const char *file = lm->l_name && lm->l_name[0] ? lm->l_name : path;
    uint64_t addr = 0, bytes = 0;
    int found = section_of_file(file, &addr, &bytes, why, cap);
    dlclose(so); /* the reference NOLOAD took; the module stays (RTLD_NODELETE) */
    if (found != 1)
        return found;
    *begin = (uint8_t *)(bias + (uintptr_t)addr);
    *len = (size_t)bytes;
    return 1;
}
