/* SPDX-License-Identifier: MIT */
/*
 * triage_sarif.c - `wddmkit triage DIR --sarif FILE`: the signatures as a
 * SARIF 2.1.0 log (docs/sarif.md, "triage"), written where report_target.c
 * says, as conform's reports are.
 *
 * One result per signature but "pass": filed under the contract rule the
 * outcome names (DRV-CRASH-001, MEM-GUARD-001, ...), else a kit id for the
 * kind of crash (wddmkit/crash/signal, /exit, /sanitizer, /shepherd), and
 * located at the driver's top frame as far as the run knows it: the
 * sanitizer's FILE:LINE when symbolized, else its module and offset, else
 * the frame the signal handler saw, else the DDI or the thread's
 * StartRoutine the kit names (a logical location in the driver module).
 * The smallest input of the group is a related location: the file to
 * `wddmkit repro`. The fingerprint is the rule and the signature, which
 * carry no addresses (signature.c): the same bug matches from run to run.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "crash/crash_internal.h"
#include "driver/fuzz_driver.h" /* wk_fuzz_signal_name */

enum { KIND_SIGNAL, KIND_EXIT, KIND_SANITIZER, KIND_SHEPHERD, KIND_KIT, KIND_COUNT };
static const char *const kind_ids[KIND_COUNT] = {
    "wddmkit/crash/signal", "wddmkit/crash/exit", "wddmkit/crash/sanitizer", "wddmkit/crash/shepherd",
    "wddmkit/kit-invariant",
};
static const char *const kind_texts[KIND_COUNT] = {
    "the process died of a signal outside any DDI the kit guards (no contract rule names it)",
    "the process exited without an answer, outside any DDI",
    "a sanitizer report ended the process (ASan, UBSan, LeakSanitizer)",
    "the driver stopped, killed or signalled the kit's shepherd, the process that watches the run",
    "a kit invariant failed: the kit's own fault, not the driver's (report it)",
};

/* The rule a group is filed under (NULL: no result). */
static const char *group_rule(const struct triage_group *g)
{
    const struct outcome *o = &g->first;
    if (g->cls == CLS_PASS)
        return NULL;
    if (o->r.rule[0] && wk_rule_find(o->r.rule))
        return o->r.rule;
    /* a signature that starts with a rule (the crash slot's DRV-CRASH-001, a harness's finding) */
    static char first[32];
    size_t n = strspn(g->sig, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-");
    snprintf(first, sizeof(first), "%.*s", (int)(n < sizeof(first) ? n : 0), g->sig);
    if (first[0] && wk_rule_find(first))
        return first;
    switch (g->cls) {
    case CLS_TIMEOUT: return wk_sarif_kit_rule_id(WK_SARIF_KIT_TIMEOUT);
    case CLS_ERROR: return wk_sarif_kit_rule_id(WK_SARIF_KIT_ERROR);
    case CLS_FAIL: return wk_sarif_kit_rule_id(WK_SARIF_KIT_FAIL);
    default: break;
    }
    if (o->shepherd)
        return kind_ids[KIND_SHEPHERD];
    if (strncmp(g->sig, "kit invariant", 13) == 0)
        return kind_ids[KIND_KIT];
    if (o->sanitizer[0])
        return kind_ids[KIND_SANITIZER];
    return o->signo ? kind_ids[KIND_SIGNAL] : kind_ids[KIND_EXIT];
}

static const char *group_level(const struct triage_group *g, const char *rule)
{
    return g->cls == CLS_ERROR || strcmp(rule, kind_ids[KIND_KIT]) == 0 ? "warning" : "error";
}

/* The driver function the kit names: the thread's StartRoutine, else the
 * DDI the crash happened in ("... in DxgkDdiRender", "RULE: DxgkDdiX: ..."). */
static int named_function(const struct outcome *o, const char *sig, char *out, size_t size)
{
    const char *r = strstr(sig, "StartRoutine ");
    if (r) {
        r += 13;
        snprintf(out, size, "%.*s", (int)strcspn(r, ",)"), r);
        return out[0] != '\0';
    }
    const char *d = strstr(sig, "Dxgk");
    if (!d)
        d = strstr(o->r.seen, ": Dxgk") ? strstr(o->r.seen, ": Dxgk") + 2 : NULL;
    if (!d)
        return 0;
    snprintf(out, size, "%.*s", (int)strspn(d, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"), d);
    return out[0] != '\0';
}

/* A frame the signal handler printed, "module.so(symbol+0x1a)" or
 * "module.so(+0x1a2b)": its module and its function (or module+offset). */
static void split_frame(const char *frame, char *module, size_t msize, char *fn, size_t fsize)
{
    size_t n = strcspn(frame, "(");
    snprintf(module, msize, "%.*s", (int)n, frame);
    const char *in = frame[n] ? frame + n + 1 : "";
    if (*in == '+' || *in == ')' || !*in)
        snprintf(fn, fsize, "%s%.*s", module, (int)strcspn(in, ")"), in);
    else
        snprintf(fn, fsize, "%.*s", (int)strcspn(in, "+)"), in);
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static void logical(struct wk_jw *w, const char *name, const char *module)
{
    char full[600];
    snprintf(full, sizeof(full), "%s!%s", module ? base_name(module) : "driver", name);
    wk_jw_array(w, "logicalLocations");
    wk_jw_object(w, NULL);
    wk_jw_string(w, "name", name);
    wk_jw_string(w, "fullyQualifiedName", full);
    wk_jw_string(w, "kind", "function");
    wk_jw_end(w, '}');
    wk_jw_end(w, ']');
}

static void reproducer_location(struct wk_jw *w, const char *key, const struct triage_group *g)
{
    wk_jw_object(w, key);
    wk_sarif_artifact_location(w, "artifactLocation", g->smallest, NULL);
    wk_jw_end(w, '}');
}

/* The driver's top frame, as far as the run knows it. */
static void write_location(struct wk_jw *w, const struct wk_crash_options *op, const struct triage_group *g)
{
    const struct outcome *o = &g->first;
    const struct wk_crash_frame *f = &o->frame;
    char module[256] = "", fn[300] = "";
    wk_jw_array(w, "locations");
    wk_jw_object(w, NULL);
    if (f->file[0]) { /* a symbolized sanitizer frame: the source line */
        wk_jw_object(w, "physicalLocation");
        wk_sarif_artifact_location(w, "artifactLocation", f->file, NULL);
        wk_jw_object(w, "region");
        wk_jw_uint(w, "startLine", f->line);
        if (f->column)
            wk_jw_uint(w, "startColumn", f->column);
        wk_jw_end(w, '}');
        wk_jw_end(w, '}');
        snprintf(fn, sizeof(fn), "%s", f->function);
    } else if (f->module[0] || o->nframes) { /* a module and an offset in it */
        if (f->module[0]) {
            snprintf(module, sizeof(module), "%s", f->module);
            snprintf(fn, sizeof(fn), "%s", f->function);
        } else {
            split_frame(o->frames[0], module, sizeof(module), fn, sizeof(fn));
        }
        wk_jw_object(w, "physicalLocation");
        if (op->driver && strcmp(base_name(op->driver), base_name(module)) == 0)
            wk_sarif_artifact_location(w, "artifactLocation", op->driver, NULL);
        wk_jw_object(w, "address");
        wk_jw_string(w, "kind", "instruction");
        wk_jw_string(w, "name", base_name(module));
        wk_jw_string(w, "fullyQualifiedName", f->module[0] ? f->module : o->frames[0]);
        if (f->module[0])
            wk_jw_uint(w, "relativeAddress", f->offset);
        wk_jw_end(w, '}');
        wk_jw_end(w, '}');
    } else if (named_function(o, g->sig, fn, sizeof(fn)) && op->driver) { /* the DDI or thread, in the module */
        wk_jw_object(w, "physicalLocation");
        wk_sarif_artifact_location(w, "artifactLocation", op->driver, NULL);
        wk_jw_end(w, '}');
        snprintf(module, sizeof(module), "%s", op->driver);
    } else if (g->smallest) { /* nothing of the driver's to point at: the input that shows it */
        reproducer_location(w, "physicalLocation", g);
    }
    if (fn[0])
        logical(w, fn, module[0] ? module : op->driver);
    wk_jw_end(w, '}');
    wk_jw_end(w, ']');
}

static void write_result(struct wk_jw *w, const struct wk_crash_options *op, const char *harness,
                         const struct triage_group *g, const char *rule)
{
    const struct outcome *o = &g->first;
    char text[1200], fingerprint[460], related[600];
    snprintf(text, sizeof(text), "%s: %s (%u input%s; `wddmkit repro %s` shows it)%s%s", wk_crash_cls_word[g->cls],
             g->sig, g->count, g->count == 1 ? "" : "s", g->smallest ? g->smallest : "?", o->detail[0] ? ": " : "",
             o->detail);
    snprintf(fingerprint, sizeof(fingerprint), "%s|%s", rule, g->sig);
    snprintf(related, sizeof(related), "the smallest input with this signature (%zu bytes)", g->smallest_size);
    wk_jw_object(w, NULL);
    wk_jw_string(w, "ruleId", rule);
    int index = wk_sarif_rule_index(rule, kind_ids, KIND_COUNT);
    if (index >= 0)
        wk_jw_uint(w, "ruleIndex", (uint64_t)index);
    wk_jw_string(w, "level", group_level(g, rule));
    wk_jw_message(w, "message", text);
    write_location(w, op, g);
    if (g->smallest) {
        wk_jw_array(w, "relatedLocations");
        wk_jw_object(w, NULL);
        wk_jw_uint(w, "id", 1);
        reproducer_location(w, "physicalLocation", g);
        wk_jw_message(w, "message", related);
        wk_jw_end(w, '}');
        wk_jw_end(w, ']');
    }
    wk_jw_object(w, "partialFingerprints");
    wk_jw_string(w, "wddmkitSignature/v1", fingerprint);
    wk_jw_end(w, '}');
    wk_jw_object(w, "properties");
    wk_jw_string(w, "class", wk_crash_cls_word[g->cls]);
    wk_jw_string(w, "signature", g->sig);
    wk_jw_uint(w, "count", g->count);
    wk_jw_string(w, "reproducer", g->smallest);
    wk_jw_uint(w, "reproducerBytes", g->smallest_size);
    wk_jw_string(w, "harness", harness);
    if (o->detail[0])
        wk_jw_string(w, "detail", o->detail);
    if (o->sanitizer[0])
        wk_jw_string(w, "sanitizer", o->sanitizer);
    wk_jw_array(w, "frames");
    for (uint32_t i = 0; i < o->nframes && i < NFRAMES; i++)
        wk_jw_string(w, NULL, o->frames[i]);
    wk_jw_end(w, ']');
    wk_jw_end(w, '}');
    wk_jw_end(w, '}');
}

int wk_crash_triage_sarif(const struct wk_crash_options *op, const char *harness, const struct triage_group *groups,
                          size_t count)
{
    struct wk_report_file rf;
    if (wk_report_open(&rf, op->sarif, stderr) != WK_OK)
        return 2;
    struct wk_jw w;
    struct wk_sarif_tool tool = { op->kit_version ? op->kit_version : "unknown",
                                  op->kit_commit ? op->kit_commit : "unknown", kind_ids, kind_texts, KIND_COUNT };
    int ran = 1;
    for (size_t i = 0; i < count; i++)
        ran &= !(groups[i].cls == CLS_ERROR && !groups[i].first.input_refused);
    wk_sarif_begin(&w, rf.f, &tool);
    wk_jw_array(&w, "invocations");
    wk_jw_object(&w, NULL);
    wk_jw_bool(&w, "executionSuccessful", ran); /* every file ran: findings are results */
    wk_jw_end(&w, '}');
    wk_jw_end(&w, ']');
    wk_sarif_base_ids(&w, NULL);
    wk_jw_array(&w, "results");
    for (size_t i = 0; i < count; i++) {
        const char *rule = group_rule(&groups[i]);
        if (rule)
            write_result(&w, op, harness, &groups[i], rule);
    }
    wk_jw_end(&w, ']');
    wk_jw_object(&w, "properties");
    wk_jw_string(&w, "folder", op->path);
    wk_jw_string(&w, "driver", op->driver);
    wk_jw_string(&w, "harness", harness);
    wk_jw_uint(&w, "seed", op->seed);
    wk_jw_end(&w, '}');
    wk_sarif_end(&w);
    return wk_report_commit(&rf, stderr) == WK_OK ? 0 : 2;
}
