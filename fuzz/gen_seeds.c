/*
 * gen_seeds.c - `wk_gen_seeds SPECS_DIR CORPUS_DIR`: writes the seed
 * corpora of fuzz_prog, fuzz_render, fuzz_patch and fuzz_paging from the
 * YAML specs (the logic is in seeds_lib.c, so `wddmkit corpus seed` can
 * share it). The generated seeds are committed:
 *
 *   build/default/fuzz/wk_gen_seeds specs corpus
 */
#include <stdio.h>

#include "seeds_lib.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s SPECS_DIR CORPUS_DIR\n", argv[0]);
        return 2;
    }
    long n = wk_seeds_generate(argv[1], argv[2], stderr);
    if (n < 0)
        return 1;
    fprintf(stderr, "wk_gen_seeds: %ld seed files written under %s\n", n, argv[2]);
    return 0;
}
