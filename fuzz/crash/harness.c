/* SPDX-License-Identifier: MIT */
/*
 * harness.c - which harness an input belongs to: the commands read an
 * input as that harness does, so a fuzz_paging file is not taken for a
 * fuzz_prog program. --harness says, else the path (corpus/<harness>/,
 * wddmkit fuzz's <harness>-<engine>/), else the note of the campaign whose
 * folder it is in (campaign.txt), else fuzz_prog, saying so.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "crash/crash_internal.h"
#include "util.h"
#include "tools/harness_names.h"

/* The harnesses whose inputs these commands read (fuzz_elf's are ELF
 * files, checked by its replay binary alone). */
static const char *const readable_harnesses[] = { "fuzz_prog",       "fuzz_render", "fuzz_patch", "fuzz_paging",
                                                  "fuzz_gpu_decode", "fuzz_spec",   "fuzz_cli",   "fuzz_hostile" };

/* The harness a path component names: the harness's name (corpus/<harness>/)
 * or the name and a '-' (wddmkit fuzz's fuzz-out/<harness>-<engine>/);
 * NULL when none does. */
static const char *path_harness(const char *path)
{
    for (size_t i = 0; i < sizeof(readable_harnesses) / sizeof(readable_harnesses[0]); i++) {
        size_t n = strlen(readable_harnesses[i]);
        for (const char *q = strstr(path, readable_harnesses[i]); q; q = strstr(q + 1, readable_harnesses[i]))
            if ((q == path || q[-1] == '/') && (q[n] == '/' || q[n] == '-'))
                return readable_harnesses[i];
    }
    return NULL;
}

/* The note of the campaign folder `dir` (a crash folder: the note is in its
 * parent; or the campaign folder itself); 0 when there is none. */
int wk_crash_campaign_of(const char *dir, struct wk_crash_campaign *c)
{
    static const char *const where[] = { "/../campaign.txt", "/campaign.txt" };
    memset(c, 0, sizeof(*c));
    for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
        if (snprintf(c->file, sizeof(c->file), "%s%s", dir, where[i]) >= (int)sizeof(c->file))
            continue;
        FILE *f = fopen(c->file, "r");
        if (!f)
            continue;
        char line[4200];
        while (fgets(line, sizeof(line), f)) {
            line[strcspn(line, "\r\n")] = '\0';
            if (strncmp(line, "harness: ", 9) == 0 && wk_fuzz_harness_name_ok(line + 9) && wk_fuzz_harness_known(line + 9))
                snprintf(c->harness, sizeof(c->harness), "%.63s", line + 9);
            else if (strncmp(line, "driver: ", 8) == 0)
                wk_str_copy(c->driver, sizeof(c->driver), line + 8); /* too long: no driver */
        }
        fclose(f);
        return 1;
    }
    return 0;
}

/* The folder of a file (".", for a bare name) into dir. */
void wk_crash_folder_of(const char *path, char *dir, size_t size)
{
    const char *slash = strrchr(path, '/');
    snprintf(dir, size, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
}

/* The harness an input belongs to: --harness, else the harness its path
 * names (path_harness), else the one of the `wddmkit fuzz` campaign whose
 * folder it is in (campaign.txt: `--out` may name no harness), else
 * fuzz_prog, saying so. `path` is a file, or (triage) a folder of them. */
const char *wk_crash_harness_of(const struct wk_crash_options *o, const char *path)
{
    static struct wk_crash_campaign c;
    char dir[4096];
    if (o->harness)
        return o->harness;
    if (path_harness(path))
        return path_harness(path);
    wk_crash_folder_of(path, dir, sizeof(dir));
    if ((wk_crash_campaign_of(dir, &c) || wk_crash_campaign_of(path, &c)) && c.harness[0])
        return c.harness;
    static int told; /* once: triage asks for every file of a folder */
    if (!told++)
        fprintf(stderr, "wddmkit: %s: the path names no harness (corpus/<harness>/ or <harness>-<engine>/): read as a "
                        "fuzz_prog input; --harness NAME says which\n", path);
    return "fuzz_prog";
}

/* Inputs that are step programs, or become one (fuzz_paging's operations
 * are the program the harness runs on both adapters). */
int wk_crash_is_prog(const char *harness)
{
    return strcmp(harness, "fuzz_prog") == 0 || strcmp(harness, "fuzz_paging") == 0;
}

/*
 * Whether the verdict on a step program is the harness's own rather than a
 * run of the calibrated program: with a driver other than the reference,
 * unless --no-calibrate asks for the file's own expectations. The
 * calibrated program expects every status the reference driver answered,
 * but the harness compares the two drivers step by step and stops
 * comparing where what follows depends on where each driver placed the
 * input's allocations, which the DDI leaves to the driver (facts §4.9,
 * §5.6: PreferredSegment, the supported sets and the banks steer VidMm).
 * So a correct driver that found room where the reference had none failed
 * the program and passed the harness (examples/drivers/independent on
 * corpus/fuzz_prog/regressions/independent-choice-no-space.bin: "fill:
 * expected status WK_E_NO_SPACE, returned WK_OK"). The harness's replay
 * binary runs that comparison, as the engine did.
 */
int wk_crash_judged_by_harness(const struct wk_crash_options *o, const char *harness)
{
    return o->driver && !o->no_calibrate && wk_crash_is_prog(harness);
}

/* The harnesses whose inputs print_decoded or the program dump decode. */
int wk_crash_decodable(const char *harness)
{
    for (size_t i = 0; i < sizeof(readable_harnesses) / sizeof(readable_harnesses[0]); i++)
        if (strcmp(harness, readable_harnesses[i]) == 0)
            return 1;
    return 0;
}
