/* SPDX-License-Identifier: MIT */
/*
 * promote.c - `wddmkit promote`: a minimized finding as a regression, the
 * input under corpus/<harness>/regressions/ and a YAML case under
 * specs/regressions/ of the promote root (the caller's: the source tree,
 * or $WK_PROMOTE_ROOT). The case is verified before it is written: read
 * back, it fails on the driver with the same signature and passes on the
 * reference. Inputs with no program form are kept as they are.
 */
#define _GNU_SOURCE /* open_memstream */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crash/crash_internal.h"
#include "inputs/seeds_lib.h" /* the seeds regenerated after a promotion */

static int refuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int refuse(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("wddmkit promote: refused: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\n", stderr);
    return 1;
}

/* mkdir -p root/<parts...> (root must exist); the folder's path in `path`. */
static int make_dirs(const char *root, const char *const *parts, char *path, size_t size)
{
    size_t n = (size_t)snprintf(path, size, "%s", root);
    for (; *parts && n < size; parts++) {
        n += (size_t)snprintf(path + n, size - n, "/%s", *parts);
        if (n >= size || (mkdir(path, 0777) != 0 && errno != EEXIST)) {
            fprintf(stderr, "wddmkit promote: cannot create %.4000s: %s\n", path, strerror(errno));
            return -1;
        }
    }
    return n < size ? 0 : -1;
}

static void derive_name(const struct outcome *o, const uint8_t *data, size_t size, char *name, size_t cap)
{
    uint32_t h = wk_fnv1a32(data, size);
    char base[32];
    size_t n = 0;
    const char *from = o->r.rule[0] ? o->r.rule : wk_crash_cls_word[o->cls];
    for (; from[n] && n + 1 < sizeof(base); n++)
        base[n] = (char)(from[n] >= 'A' && from[n] <= 'Z' ? from[n] - 'A' + 'a' : from[n]);
    base[n] = '\0';
    snprintf(name, cap, "%s-%08x", base, h);
}

/* Writes bytes to root/<dir>/<file> through a temporary; an existing file
 * with other content is not replaced. */
static int write_new_file(const char *dir, const char *file, const void *data, size_t size)
{
    char path[4200], tmp[4300];
    snprintf(path, sizeof(path), "%s/%s", dir, file);
    snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
    uint8_t *old = NULL;
    size_t old_size = 0;
    if (access(path, F_OK) == 0) {
        int same = wk_crash_read_file(path, PROG_FILE_LIMIT, &old, &old_size) == WK_OK && old_size == size &&
                   memcmp(old, data, size) == 0;
        free(old);
        if (same) {
            printf("  unchanged %s\n", path);
            return 0;
        }
        fprintf(stderr, "wddmkit promote: %s exists with other content: choose another --name\n", path);
        return -1;
    }
    FILE *f = fopen(tmp, "wb");
    int ok = f && fwrite(data, 1, size, f) == size;
    ok = (f && fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        fprintf(stderr, "wddmkit promote: %s: %s\n", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    printf("  wrote %s\n", path);
    return 0;
}

/* A one-line, printable copy for YAML strings and comments. */
static void printable(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7F)
            *s = '?';
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The YAML text of the case (malloc'd), or NULL. */
static char *compose_yaml(const struct wk_prog *p, const struct wk_crash_options *o, const char *harness,
                          const struct outcome *sig, const char *name, size_t *len)
{
    char id[128], describe[256], file[96], drv[96];
    snprintf(id, sizeof(id), "regressions.%s", name);
    snprintf(file, sizeof(file), "%s", base_name(o->path));
    snprintf(drv, sizeof(drv), "%s", base_name(o->driver));
    printable(file);
    printable(drv);
    snprintf(describe, sizeof(describe), "Regression: %.150s; promoted from %.60s", sig->sig, file);
    printable(describe);
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f)
        return NULL;
    const char *found_by = wk_crash_harness_of(o, o->path); /* fuzz_paging: its program is a fuzz_prog input */
    fprintf(f, "# Promoted by `wddmkit promote` from %s (%s). It fails on the driver it was\n"
               "# found with (%s: %.120s) and passes on the reference driver.\n"
               "# The input: corpus/%s/regressions/%s.bin\n", file, found_by, drv, sig->sig, harness, name);
    if (strcmp(found_by, harness) != 0)
        fprintf(f, "# As found: corpus/%s/regressions/%s.bin\n", found_by, name);
    for (uint32_t i = 0; i < p->step_count; i++)
        if (p->steps[i].kind == WK_STEP_PATCH) {
            fprintf(f, "# A bare DxgkDdiPatch (a buffer and lists no Render made) is outside the DDI contract:\n"
                       "# the stress profile runs it (wddmkit conform --profile stress --driver ...).\n");
            break;
        }
    int st = wk_prog_write_yaml(p, "regressions", id, describe, f);
    if (fclose(f) != 0 || st != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* The case read back from its YAML must fail on the driver with the same
 * signature and pass on the reference. */
static int verify_yaml(const char *text, size_t len, const struct wk_crash_options *o, const struct outcome *want)
{
    struct wk_spec_set set;
    struct wk_diag d;
    wk_spec_set_init(&set);
    wk_diag_init(&d, 4);
    int ok = wk_spec_load_buffer(&set, "promoted.yaml", (const uint8_t *)text, len, &d) == WK_OK && set.count == 1;
    if (!ok) {
        wk_diag_print(&d, stderr);
        refuse("the YAML written does not load back (a writer bug)");
    }
    static struct outcome bad, good;
    int code = ok ? 0 : 1;
    if (ok) {
        wk_crash_run_program(set.progs[0], o->driver, o, &bad);
        wk_crash_run_program(set.progs[0], NULL, o, &good);
        if (!wk_crash_same_result(&bad, want))
            code = refuse("the YAML case gives '%s: %s' on %s, not the finding", wk_crash_cls_word[bad.cls], bad.sig,
                          o->driver);
        else if (good.cls != CLS_PASS)
            code = refuse("the YAML case does not pass on the reference driver: %s: %s", wk_crash_cls_word[good.cls],
                          good.sig);
    }
    wk_spec_set_free(&set);
    wk_diag_free(&d);
    return code;
}

/* Step i anchored to allocation `alloc` at `offset`: the same bytes on the
 * reference, wherever another driver places that allocation. */
static void anchor_step(struct wk_step *s, uint32_t alloc, uint64_t offset)
{
    s->relative = 1;
    s->allocation = alloc;
    s->offset = offset;
    s->address = 0;
    s->segment = 0;
}

/* Whether a check of bytes (what a misplaced write would change) follows
 * step i. */
static int content_checked_after(const struct wk_prog *p, uint32_t i)
{
    for (uint32_t k = i + 1; k < p->step_count; k++) {
        enum wk_step_kind kind = p->steps[k].kind;
        if (kind == WK_STEP_EXPECT_BYTES || kind == WK_STEP_EXPECT_PATTERN || kind == WK_STEP_EXPECT_DIGEST ||
            kind == WK_STEP_EXPECT_GART)
            return 1;
    }
    return 0;
}

/*
 * Steps whose target is where the memory manager placed things (a fence or
 * a physical touch at an absolute GPU address, a fence past the end of its
 * allocation: wk_crash_placement_bound). Placement is left to the driver
 * and VidMm (facts §4.9, §5.6: PreferredSegment, supported sets and banks
 * steer VidMm; the room a driver's own context allocations and DMA buffers
 * take is its choice, §5.8), so such a step writes other bytes on another
 * correct driver, and every check of them fails there. The differential
 * stops comparing after one (fuzz/driver/differential.c, placement_bound);
 * a regression case has no second adapter, and would blame that driver.
 * So each is, while the finding stays: anchored to the allocation whose
 * bytes it hit on the reference (the same offset in it, wherever it is
 * placed), else cut. One that hit none of the case's allocations on the
 * reference stays as it is when no check of bytes follows it (nothing of
 * what it wrote is judged: a fence whose command the driver built wrong is
 * the finding, wherever it lands). A finding that needs it otherwise is
 * refused.
 */
static int drop_placement_bound(struct mini *m, struct wk_prog **p, const struct wk_crash_options *o)
{
    static int32_t anchor[WK_PROG_MAX_STEPS];
    static uint64_t offset[WK_PROG_MAX_STEPS];
    int anchored = 0;
    for (uint32_t i = (*p)->step_count; i-- > 0;) {
        if (!wk_crash_placement_bound(*p, &(*p)->steps[i]))
            continue;
        if (!anchored++ && wk_crash_anchor_steps(*p, o, anchor, offset) != 0)
            return refuse("the reference driver does not run the program to its end");
        struct wk_prog *cand = anchor[i] >= 0 ? wk_crash_prog_dup(*p) : NULL;
        if (cand)
            anchor_step(&cand->steps[i], (uint32_t)anchor[i], offset[i]);
        if (cand && wk_crash_keeps(m, cand)) {
            wk_crash_prog_del(*p);
            *p = cand;
            continue;
        }
        wk_crash_prog_del(cand);
        if (wk_crash_try_edit(m, p, wk_crash_cut_steps, 0, i, 1))
            continue;
        if (anchor[i] < 0 && !content_checked_after(*p, i))
            continue;
        const struct wk_step *s = &(*p)->steps[i];
        return refuse("the finding needs step %u (%s at %s) as it is, and it writes wherever the allocations were "
                      "placed: another correct driver places them elsewhere (its choice and VidMm's), so a "
                      "regression case with it would blame that driver. The fuzz regression judges it with the "
                      "harness's differential instead: keep the input under corpus/fuzz_prog/regressions/",
                      i + 1, wk_step_keyword(s->kind),
                      s->relative ? "an offset past its allocation's end" : "an absolute GPU address");
    }
    return 0;
}

/* A positive case can carry neither the answer rewrite nor what YAML
 * cannot say, nor a step whose outcome is the reference's placement: drop
 * them while the finding stays. */
static int make_promotable(struct mini *m, struct wk_prog **p, const struct wk_crash_options *o)
{
    if ((*p)->has_rewrite) {
        (*p)->has_rewrite = 0;
        if (!wk_crash_keeps(m, *p))
            return refuse("the finding needs the answer rewrite '%s'; a regression case must fail on the driver "
                          "as it is", (*p)->rewrite.mutation);
    }
    char why[256];
    int32_t first = 0;
    while (wk_prog_yaml_check(*p, &first, why, sizeof(why)) > 0) {
        if (first < 0 || !wk_crash_try_edit(m, p, wk_crash_cut_steps, 0, (uint32_t)first, 1))
            return refuse("no YAML form: %s", why);
    }
    (*p)->trips[0] = '\0';
    return drop_placement_bound(m, p, o);
}

static int write_promoted(const char *root, const char *harness, const uint8_t *bin, size_t n, const char *yaml,
                          size_t yaml_len, const char *name)
{
    const char *const bin_dir[] = { "corpus", harness, "regressions", NULL };
    static const char *const yaml_dir[] = { "specs", "regressions", NULL };
    char dir[4200], file[128];
    snprintf(file, sizeof(file), "%s.bin", name);
    int st = make_dirs(root, bin_dir, dir, sizeof(dir));
    if (st == 0)
        st = write_new_file(dir, file, bin, n);
    snprintf(file, sizeof(file), "%s.yaml", name);
    if (st == 0)
        st = make_dirs(root, yaml_dir, dir, sizeof(dir));
    if (st == 0)
        st = write_new_file(dir, file, yaml, yaml_len);
    return st == 0 ? 0 : 2;
}

/* The reduction's start: a failure on the driver that the reference
 * passes; 0, or the exit code after printing why not. */
static int promotable_finding(struct mini *m, const struct wk_crash_options *o, const struct wk_prog *p)
{
    if (wk_crash_mini_init(m, o, p) != 0)
        return 1;
    if (m->want.cls != CLS_FAIL)
        return refuse("the input gives '%s: %s' on %s; only a failure (a rule violated, a check failed) becomes "
                      "a case that fails there", wk_crash_cls_word[m->want.cls], m->want.sig, o->driver);
    if (!m->need_ref_pass)
        return refuse("the reference driver does not pass the input, so no case can pass there");
    printf("signature: %s: %s\n", wk_crash_cls_word[m->want.cls], m->want.sig);
    return 0;
}

/* Names, composes, verifies and writes the YAML case of `p` (minimized and
 * promotable) with the regression input `bin` of `harness`; the name it
 * chose in name[80]. */
static int write_case(const struct wk_crash_options *o, const char *harness, const struct mini *m, struct wk_prog *p,
                      const uint8_t *bin, size_t n, char name[80])
{
    p->cover_count = 0;
    if (m->want.r.rule[0] && wk_rule_find(m->want.r.rule)) {
        snprintf(p->covers[0], sizeof(p->covers[0]), "%s", m->want.r.rule);
        p->cover_count = 1;
    }
    size_t yaml_len = 0;
    derive_name(&m->want, bin, n, name, 80);
    if (o->name)
        snprintf(name, 80, "%s", o->name);
    char *yaml = compose_yaml(p, o, harness, &m->want, name, &yaml_len);
    if (!yaml)
        return refuse("the program could not be written as YAML");
    int code = verify_yaml(yaml, yaml_len, o, &m->want) == 0 ? 0 : 1;
    if (code == 0) {
        printf("verified: the YAML case fails on %s (%s) and passes on the reference driver\n", o->driver, m->want.sig);
        code = write_promoted(o->promote_root, harness, bin, n, yaml, yaml_len, name);
    }
    free(yaml);
    return code;
}

/* Minimize, make promotable, name (in name[80]), compose, verify, write. */
static int promote_prog(const struct wk_crash_options *o, struct wk_prog **p, char name[80])
{
    static struct mini m;
    int code = promotable_finding(&m, o, *p);
    if (code)
        return code;
    /* The counts of the calibrated program, as minimize prints them (the
     * input line gives the input's own); what making it promotable cuts
     * besides is said apart, so neither number hides the other. */
    uint32_t steps = (*p)->step_count;
    size_t size = wk_crash_encoded_size(*p);
    wk_crash_minimize_prog(&m, p);
    uint32_t minimized = (*p)->step_count;
    printf("minimized: %u -> %u steps, %zu -> %zu bytes encoded, of the calibrated program (%u test runs)\n", steps,
           minimized, size, wk_crash_encoded_size(*p), m.tests);
    if (make_promotable(&m, p, o) != 0)
        return 1;
    if ((*p)->step_count != minimized)
        printf("made promotable: %u -> %u steps (what a YAML case cannot hold, or would blame another driver's "
               "placement for, cut)\n", minimized, (*p)->step_count);
    size_t n = wk_crash_encoded_size(*p);
    uint8_t *bin = malloc(n ? n : 1);
    if (!bin)
        return 2;
    wk_prog_encode(*p, bin, n);
    code = write_case(o, "fuzz_prog", &m, *p, bin, n, name);
    free(bin);
    return code;
}

/* The minimized input, replayed by the harness itself: the finding on the
 * driver (the same rule), a pass on the reference. Skipped, with a note,
 * when this build has no replay binary. */
static int verify_input_bytes(const struct wk_crash_options *o, const char *harness, const uint8_t *bin, size_t n,
                              const struct mini *m)
{
    char tmp[] = "/tmp/wddmkit-promote-XXXXXX", bin_path[4200];
    static struct outcome bad, good;
    if (wk_fuzz_replay_binary(harness, bin_path, sizeof(bin_path)) != 0) {
        printf("  note: no %s_replay in this build: the input was checked as a program only\n", harness);
        return 0;
    }
    int fd = mkstemp(tmp);
    if (fd < 0 || (close(fd), wk_crash_save_bytes(bin, n, tmp)) != 0)
        return refuse("cannot write a temporary file: %s", strerror(errno));
    wk_crash_run_replay(harness, tmp, o->driver, o->timeout_ms, &bad);
    wk_crash_run_replay(harness, tmp, NULL, o->timeout_ms, &good);
    unlink(tmp);
    if (bad.cls != CLS_FAIL || strcmp(bad.r.rule, m->want.r.rule) != 0 || good.cls != CLS_PASS)
        return refuse("the minimized input gives '%s' on %s and '%s' on the reference through %s_replay "
                      "(wanted %s, then a pass)", bad.sig, o->driver, good.sig, harness, m->want.sig);
    printf("verified: the minimized input fails through %s_replay on %s (%s) and passes on the reference\n",
           harness, o->driver, bad.sig);
    return 0;
}

/* fuzz_patch, fuzz_render: the last step minimized (entries, bytes,
 * fields) as the regression input; a copy reduced step by step as the
 * YAML case. */
static int promote_fixture(const struct wk_crash_options *o, const struct fixture_harness *h)
{
    static struct mini m;
    size_t bytes = 0, n = 0;
    struct wk_prog *p = wk_crash_load_fixture_input(o, h, &bytes), *q = NULL;
    if (!p)
        return 2;
    int code = promotable_finding(&m, o, p);
    uint8_t *bin = NULL;
    if (code == 0) {
        h->reduce(&m, &p);
        bin = wk_crash_input_bytes(h, p, &n);
        code = !bin ? 2 : verify_input_bytes(o, h->name, bin, n, &m);
    }
    if (code == 0) {
        printf("minimized input: %zu -> %zu bytes (%u test runs)\n", bytes, n, m.tests);
        q = wk_crash_prog_dup(p);
        code = q ? 0 : 2;
    }
    if (code == 0) {
        uint32_t steps = q->step_count;
        wk_crash_ddmin(&m, &q, wk_crash_count_steps, wk_crash_cut_steps, 0);
        code = make_promotable(&m, &q, o);
        printf("YAML case: %u -> %u steps, of the program that makes the minimized input's call\n", steps,
               q->step_count);
    }
    char name[80];
    if (code == 0)
        code = write_case(o, h->name, &m, q, bin, n, name);
    free(bin);
    wk_crash_prog_del(q);
    wk_crash_prog_del(p);
    return code;
}

/* Other harnesses: no program, no YAML; the input itself is the regression. */
static int promote_replay(const struct wk_crash_options *o, const char *harness)
{
    static struct outcome bad, good;
    wk_crash_run_replay(harness, o->path, o->driver, o->timeout_ms, &bad);
    wk_crash_run_replay(harness, o->path, NULL, o->timeout_ms, &good);
    if (bad.cls == CLS_PASS || bad.cls == CLS_ERROR || good.cls != CLS_PASS)
        return refuse("%s: %s on %s, %s on the reference driver (needs a finding there and a pass here)", o->path,
                      bad.sig, o->driver, good.sig);
    uint8_t *data = NULL;
    size_t size = 0;
    if (wk_crash_read_file(o->path, PROG_FILE_LIMIT, &data, &size) != WK_OK)
        return 2;
    const char *const parts[] = { "corpus", harness, "regressions", NULL };
    char dir[4200], file[128], name[80];
    derive_name(&bad, data, size, name, sizeof(name));
    snprintf(file, sizeof(file), "%s.bin", o->name ? o->name : name);
    int code = make_dirs(o->promote_root, parts, dir, sizeof(dir)) == 0 && write_new_file(dir, file, data, size) == 0
                   ? 0 : 2;
    if (code == 0)
        printf("  %s inputs have no step-program form: no YAML case (reduce it first: wddmkit minimize FILE)\n",
               harness);
    free(data);
    return code;
}

/* A fuzz_paging finding promotes as the program the harness ran (its YAML
 * case and corpus/fuzz_prog/regressions/); the input itself also goes to
 * corpus/fuzz_paging/regressions/ under the same name, so ctest replays it
 * through the harness (both adapters, differential) as well. */
static int keep_paging_input(const struct wk_crash_options *o, const char *name)
{
    uint8_t *data = NULL;
    size_t size = 0;
    if (wk_crash_read_file(o->path, PROG_FILE_LIMIT, &data, &size) != WK_OK)
        return 2;
    char file[128];
    snprintf(file, sizeof(file), "%s.bin", name);
    const char *const parts[] = { "corpus", "fuzz_paging", "regressions", NULL };
    char dir[4200];
    int code = make_dirs(o->promote_root, parts, dir, sizeof(dir)) == 0 && write_new_file(dir, file, data, size) == 0
                   ? 0 : 2;
    free(data);
    return code;
}

/* The seed corpora of the promote root, regenerated from its specs/ after
 * a YAML case was added there: the new case's seeds join them, and the
 * committed seeds stay what `wddmkit corpus seed --check` (the ctest
 * fuzz.seeds_current) expects. A failure here leaves the promotion done. */
static void refresh_seeds(const char *root)
{
    char specs[4200], corpus[4200];
    snprintf(specs, sizeof(specs), "%s/specs", root);
    snprintf(corpus, sizeof(corpus), "%s/corpus", root);
    long n = wk_seeds_generate(specs, corpus, stderr);
    if (n < 0)
        fprintf(stderr, "wddmkit promote: the seed corpora were not regenerated (above); when fixed: "
                        "wddmkit corpus seed --specs %s --out %s\n", specs, corpus);
    else
        printf("  seeds: %ld files regenerated under %s from %s\n", n, corpus, specs);
}

static int promote_input(const struct wk_crash_options *op)
{
    struct wk_crash_options o = *op;
    if (!o.driver || !o.promote_root) {
        fprintf(stderr, "wddmkit promote: needs the driver the input fails on and the root to write under\n");
        return 2;
    }
    const char *harness = wk_crash_harness_of(&o, o.path);
    printf("promote: %s (%s) found with %s\n", o.path, harness, o.driver);
    if (strcmp(harness, "fuzz_hostile") == 0)
        return refuse("%s: a fuzz_hostile finding is a bug in the kit, not in a driver: fix the kit, then add the "
                      "input to corpus/fuzz_hostile/regressions/ (ctest replays it through fuzz_hostile_replay)",
                      o.path);
    if (!wk_crash_is_prog(harness) && !wk_crash_fixture_harness_of(harness))
        return promote_replay(&o, harness); /* no YAML case: the seeds do not change */
    int code = 2;
    if (wk_crash_fixture_harness_of(harness)) {
        code = promote_fixture(&o, wk_crash_fixture_harness_of(harness));
    } else {
        size_t bytes = 0;
        struct wk_prog *p = wk_crash_prepare(&o, o.path, 0, &bytes);
        if (!p)
            return 2;
        char name[80];
        code = promote_prog(&o, &p, name);
        wk_crash_prog_del(p);
        if (code == 0 && strcmp(harness, "fuzz_paging") == 0)
            code = keep_paging_input(&o, name);
    }
    if (code == 0)
        refresh_seeds(o.promote_root);
    return code;
}

/* As minimize: the runs' driver lines, each distinct one once at the end,
 * with its counts (driver_log.c). */
int wk_crash_promote(const struct wk_crash_options *o)
{
    wk_crash_fold_begin("promote", o->driver);
    int code = promote_input(o);
    wk_crash_fold_end();
    return code;
}
