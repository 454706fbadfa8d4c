/*
 * gen_seeds.c - `wk_gen_seeds SPECS_DIR CORPUS_DIR`: writes the seed
 * corpora of fuzz_prog, fuzz_render, fuzz_patch and fuzz_paging from the
 * YAML specs (the logic is in seeds_lib.c, so `wddmkit corpus seed` can
 * share it). The generated seeds are committed:
 *
 *   build/default/fuzz/wk_gen_seeds specs corpus
 *
 * `wk_gen_seeds --check SPECS_DIR CORPUS_DIR SCRATCH_DIR` is the test
 * (fuzz.seeds_current): it writes the seeds into SCRATCH_DIR (emptied
 * first) and exits 1, naming each file, when the committed seed folders
 * differ from them (a spec added or changed without regenerating, a seed
 * of a spec that is gone, or a change of the program encoding).
 */
#define _POSIX_C_SOURCE 200809L /* opendir, unlink */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seeds_lib.h"

static const char *const harnesses[] = { "fuzz_prog", "fuzz_render", "fuzz_patch", "fuzz_paging" };
#define HARNESSES (sizeof(harnesses) / sizeof(harnesses[0]))

static void seeds_dir(char *out, size_t size, const char *corpus, const char *harness)
{
    snprintf(out, size, "%s/%s/seeds", corpus, harness);
}

/* Removes the files of a folder (not README*), so that a scratch folder
 * holds exactly what one run writes. */
static void empty_dir(const char *dir)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char path[2048];
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        unlink(path);
    }
    if (d)
        closedir(d);
}

/* 1 when both files exist with the same bytes. */
static int same_file(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb;
    while (same) {
        int ca = getc(fa), cb = getc(fb);
        same = ca == cb;
        if (ca == EOF || cb == EOF)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

/* The files of `from` that `other` lacks or holds with other bytes, each
 * reported with `what` and its committed path (in `from` when
 * from_committed, else in `other`); the count. */
static int compare_dir(const char *from, const char *other, const char *what, int contents, int from_committed)
{
    int bad = 0;
    DIR *d = opendir(from);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.' || strncmp(e->d_name, "README", 6) == 0)
            continue;
        char a[2048], b[2048];
        snprintf(a, sizeof(a), "%s/%s", from, e->d_name);
        snprintf(b, sizeof(b), "%s/%s", other, e->d_name);
        FILE *f = fopen(b, "rb");
        int present = f != NULL;
        if (f)
            fclose(f);
        if (!present || (contents && !same_file(a, b))) {
            fprintf(stderr, "wk_gen_seeds: %s: %s\n", present ? "differs from what the specs give" : what,
                    from_committed ? a : b);
            bad++;
        }
    }
    if (d)
        closedir(d);
    return bad;
}

static int check(const char *specs, const char *corpus, const char *scratch)
{
    char have[1024], want[1024];
    for (size_t h = 0; h < HARNESSES; h++) {
        seeds_dir(want, sizeof(want), scratch, harnesses[h]);
        empty_dir(want);
    }
    if (wk_seeds_generate(specs, scratch, stderr) < 0)
        return 1;
    int bad = 0;
    for (size_t h = 0; h < HARNESSES; h++) {
        seeds_dir(have, sizeof(have), corpus, harnesses[h]);
        seeds_dir(want, sizeof(want), scratch, harnesses[h]);
        bad += compare_dir(want, have, "missing (a spec gives it)", 0, 0);
        bad += compare_dir(have, want, "committed, but no spec gives it", 1, 1);
    }
    if (bad)
        fprintf(stderr, "wk_gen_seeds: %d seed files out of date; regenerate them: wk_gen_seeds %s %s\n", bad, specs,
                corpus);
    return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "--check") == 0)
        return check(argv[2], argv[3], argv[4]);
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
