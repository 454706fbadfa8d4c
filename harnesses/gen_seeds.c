/* SPDX-License-Identifier: MIT */
/*
 * gen_seeds.c - `wk_gen_seeds SPECS_DIR CORPUS_DIR`: writes the seed
 * corpora of fuzz_prog, fuzz_render, fuzz_patch and fuzz_paging from the
 * YAML specs, as `wddmkit corpus seed --specs SPECS_DIR --out CORPUS_DIR`
 * does (both call seeds_lib.c), for builds without the command line.
 *
 * `wk_gen_seeds --check SPECS_DIR CORPUS_DIR SCRATCH_DIR` exits 1, naming
 * each file, when the committed seeds differ from what the specs give
 * (wk_seeds_check).
 */
#include <stdio.h>
#include <string.h>

#include "fuzz.h"

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "--check") == 0) {
        long bad = wk_seeds_check(argv[2], argv[3], argv[4], stderr);
        if (bad > 0)
            fprintf(stderr, "wk_gen_seeds: %ld seed files out of date; regenerate them: wk_gen_seeds %s %s\n", bad,
                    argv[2], argv[3]);
        return bad == 0 ? 0 : 1;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: %s SPECS_DIR CORPUS_DIR | --check SPECS_DIR CORPUS_DIR SCRATCH_DIR\n", argv[0]);
        return 2;
    }
    long n = wk_seeds_generate(argv[1], argv[2], stderr);
    if (n < 0)
        return 1;
    fprintf(stderr, "wk_gen_seeds: %ld seed files written under %s\n", n, argv[2]);
    return 0;
}
