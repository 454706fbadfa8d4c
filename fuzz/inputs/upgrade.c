/* SPDX-License-Identifier: MIT */
/*
 * upgrade.c - `wddmkit corpus upgrade`: the step-program files of a corpus
 * rewritten in the current binary format.
 *
 * The decoder reads every older format as it always did (prog_codec.c), so
 * an old file never changes meaning and upgrading is never required; it
 * makes the committed files what the kit writes today, so that a mutator's
 * output, a promoted regression and a committed seed look alike. A file is
 * rewritten as the encoding of its decoding: the same program by
 * construction (decode(encode(p)) == p), which the replay tests then hold
 * to its signature. Only the harnesses whose inputs ARE step programs are
 * touched (fuzz_prog, fuzz_hostile); the others have formats of their own.
 */
#define _DEFAULT_SOURCE /* scandir, alphasort */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "util.h"

#define MAX_PROGRAM_FILE (16u << 20)

static const char *const program_harnesses[] = { "fuzz_prog", "fuzz_hostile", NULL };

static int has_bin_suffix(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && strcmp(name + n - 4, ".bin") == 0;
}

/* Writes bytes to path through a temporary file in the same folder, so a
 * failure leaves the old file whole. 0, or -1 with the reason logged. */
static int replace_file(const char *path, const uint8_t *data, size_t size, FILE *log)
{
    char tmp[4096];
    if (!wk_str_copy(tmp, sizeof(tmp) - 16, path) || !strcat(tmp, ".upgrade-tmp")) {
        fprintf(log, "wddmkit corpus upgrade: %s: path too long\n", path);
        return -1;
    }
    FILE *f = fopen(tmp, "wb");
    int ok = f && fwrite(data, 1, size, f) == size;
    ok = f && fclose(f) == 0 && ok;
    if (ok && rename(tmp, path) == 0)
        return 0;
    fprintf(log, "wddmkit corpus upgrade: %s: cannot write: %s\n", path, strerror(errno));
    remove(tmp);
    return -1;
}

/* 1 when the file is rewritten (or would be), 0 when current, -1 on error. */
static int upgrade_file(const char *path, int check_only, struct wk_prog *p, FILE *log)
{
    uint8_t *data = NULL, *out = NULL;
    size_t size = 0;
    char why[256];
    if (wk_file_read(path, MAX_PROGRAM_FILE, &data, &size, why, sizeof(why)) != WK_OK) {
        fprintf(log, "wddmkit corpus upgrade: %s: %s\n", path, why);
        return -1;
    }
    wk_prog_decode(data, size, p);
    size_t n = wk_prog_encode(p, NULL, 0);
    int rc = -1;
    out = malloc(n ? n : 1);
    if (!out) {
        fprintf(log, "wddmkit corpus upgrade: %s: out of memory\n", path);
    } else {
        wk_prog_encode(p, out, n);
        rc = n != size || memcmp(out, data, n) != 0;
        if (rc == 1 && check_only)
            fprintf(log, "wddmkit corpus upgrade: %s: in an older format\n", path);
        else if (rc == 1 && replace_file(path, out, n, log) != 0)
            rc = -1;
    }
    wk_prog_free(p);
    free(out);
    free(data);
    return rc;
}

/* Every *.bin of one folder, in name order (so the log is stable). */
static long upgrade_folder(const char *dir, int check_only, struct wk_prog *p, FILE *log)
{
    struct dirent **names = NULL;
    int count = scandir(dir, &names, NULL, alphasort);
    if (count < 0)
        return errno == ENOENT ? 0 : (fprintf(log, "wddmkit corpus upgrade: %s: %s\n", dir, strerror(errno)), -1);
    long changed = 0;
    int failed = 0;
    for (int i = 0; i < count; i++) {
        char path[4096];
        if (has_bin_suffix(names[i]->d_name) && wk_path_join(path, sizeof(path), dir, names[i]->d_name) &&
            wk_path_is_regular(path)) {
            int rc = upgrade_file(path, check_only, p, log);
            failed |= rc < 0;
            changed += rc > 0;
        }
        free(names[i]);
    }
    free(names);
    return failed ? -1 : changed;
}

long wk_corpus_upgrade(const char *corpus_dir, int check_only, FILE *log)
{
    static const char *const kinds[] = { "seeds", "regressions", NULL };
    struct wk_prog *p = malloc(sizeof(*p));
    if (!p) {
        fprintf(log, "wddmkit corpus upgrade: out of memory\n");
        return -1;
    }
    long changed = 0;
    int failed = 0;
    for (size_t h = 0; program_harnesses[h]; h++)
        for (size_t k = 0; kinds[k]; k++) {
            char harness[4096], dir[4096];
            if (!wk_path_join(harness, sizeof(harness), corpus_dir, program_harnesses[h]) ||
                !wk_path_join(dir, sizeof(dir), harness, kinds[k])) {
                fprintf(log, "wddmkit corpus upgrade: %s: path too long\n", corpus_dir);
                failed = 1;
                continue;
            }
            long n = upgrade_folder(dir, check_only, p, log);
            failed |= n < 0;
            changed += n > 0 ? n : 0;
        }
    free(p);
    return failed ? -1 : changed;
}
