/* SPDX-License-Identifier: MIT */
/*
 * fuzz_elf.c - raw bytes as an ELF64 file through wk_elf_section, the
 * lookup the coverage gate uses on a driver module's file
 * (module_counters.c), and through wk_elf_build_id, which names a driver
 * module in the conformance reports (cli/driver_identity.c).
 *
 * Invariants (a violation aborts, which every engine reports as a crash):
 *   - the answer is found (1), absent (0) or malformed (-1); a found
 *     section comes with no message, the others always say why; the
 *     same for the build-id, whose length is 1..WK_ELF_BUILD_ID_MAX when
 *     found and 0 otherwise;
 *   - the lookup is a pure function of the bytes: twice, the same answer.
 * The sanitizers catch any read outside the bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = { "__sancov_cntrs", ".shstrtab", "" };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        uint64_t addr = 0, bytes = 0, addr2 = 0, bytes2 = 0;
        char why[256] = "", why2[256] = "";
        int found = wk_elf_section(data, size, names[i], &addr, &bytes, why, sizeof(why));
        if (found < -1 || found > 1 || (found == 1 ? why[0] != '\0' : why[0] == '\0'))
            abort();
        int again = wk_elf_section(data, size, names[i], &addr2, &bytes2, why2, sizeof(why2));
        if (again != found || addr2 != addr || bytes2 != bytes || strcmp(why, why2) != 0)
            abort();
    }
    uint8_t id[WK_ELF_BUILD_ID_MAX], id2[WK_ELF_BUILD_ID_MAX];
    size_t len = 0, len2 = 0;
    char why[256] = "", why2[256] = "";
    int found = wk_elf_build_id(data, size, id, &len, why, sizeof(why));
    if (found < -1 || found > 1 || (found == 1 ? why[0] != '\0' || len == 0 || len > WK_ELF_BUILD_ID_MAX
                                               : why[0] == '\0' || len != 0))
        abort();
    if (wk_elf_build_id(data, size, id2, &len2, why2, sizeof(why2)) != found || len2 != len ||
        memcmp(id, id2, len) != 0 || strcmp(why, why2) != 0)
        abort();
    return 0;
}
