/* SPDX-License-Identifier: MIT */
/*
 * sarif_log.c - the pieces of a SARIF 2.1.0 log that `conform --sarif`
 * and `triage --sarif` share (sarif.h; docs/sarif.md): the structural
 * writer, the tool with its rules, the base ids and artifact locations.
 *
 * Strings go through wk_json_string, the JSON report's escaper (invalid
 * UTF-8 becomes U+FFFD): a driver's message cannot break the log.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conformance.h"
#include "runner/sarif.h"

/* ------------------------------------------------------------------ */
/* The structural writer                                                */
/* ------------------------------------------------------------------ */

void wk_jw_init(struct wk_jw *w, FILE *f)
{
    memset(w, 0, sizeof(*w));
    w->f = f;
}

/* A new member or element: the comma before it, its line, its key. */
static void member(struct wk_jw *w, const char *key)
{
    if (w->depth > 0 && w->count[w->depth - 1]++)
        fputc(',', w->f);
    if (w->depth > 0)
        fprintf(w->f, "\n%*s", 2 * w->depth, "");
    if (key) {
        wk_json_string(w->f, key);
        fputs(": ", w->f);
    }
}

static void open_with(struct wk_jw *w, const char *key, char c)
{
    member(w, key);
    fputc(c, w->f);
    if (w->depth < WK_JW_DEPTH)
        w->count[w->depth] = 0;
    w->depth++;
}

void wk_jw_object(struct wk_jw *w, const char *key)
{
    open_with(w, key, '{');
}

void wk_jw_array(struct wk_jw *w, const char *key)
{
    open_with(w, key, '[');
}

void wk_jw_end(struct wk_jw *w, char close)
{
    w->depth--;
    if (w->depth < WK_JW_DEPTH && w->count[w->depth])
        fprintf(w->f, "\n%*s", 2 * w->depth, "");
    fputc(close, w->f);
}

void wk_jw_string(struct wk_jw *w, const char *key, const char *value)
{
    member(w, key);
    wk_json_string(w->f, value);
}

void wk_jw_uint(struct wk_jw *w, const char *key, uint64_t value)
{
    member(w, key);
    fprintf(w->f, "%llu", (unsigned long long)value);
}

void wk_jw_bool(struct wk_jw *w, const char *key, int value)
{
    member(w, key);
    fputs(value ? "true" : "false", w->f);
}

void wk_jw_message(struct wk_jw *w, const char *key, const char *text)
{
    wk_jw_object(w, key);
    wk_jw_string(w, "text", text);
    wk_jw_end(w, '}');
}

/* ------------------------------------------------------------------ */
/* Rules                                                                */
/* ------------------------------------------------------------------ */

static const struct {
    const char *id, *text;
} kit_rules[WK_SARIF_KIT_RULE_COUNT] = {
    [WK_SARIF_KIT_CHECK] = { "wddmkit/check",
                             "a check of the case failed (a status, the data, what a buffer did) without a contract "
                             "rule broken: docs/verdicts.md, \"Two levels of checks\"" },
    [WK_SARIF_KIT_NOT_TRIPPED] = { "wddmkit/not-tripped",
                                   "a negative case's corruption did not trip the rule it names: the kit missed the "
                                   "bug it planted, or the corruption never applied (docs/verdicts.md, \"Positive and "
                                   "negative cases\"); not the driver's failure of that rule" },
    [WK_SARIF_KIT_CRASH] = { "wddmkit/crash",
                             "the case's process died (a signal, abort, a sanitizer report, exit) with no rule "
                             "naming it: docs/verdicts.md, \"Verdicts\"" },
    [WK_SARIF_KIT_TIMEOUT] = { "wddmkit/timeout", "the case ran past its time (--timeout) and was killed" },
    [WK_SARIF_KIT_ERROR] = { "wddmkit/error",
                             "the kit could not run the case (its adapter could not be built, the driver did not "
                             "start, no process or descriptor to be had): never the driver's failure" },
    [WK_SARIF_KIT_UNEXPECTED_PASS] = { "wddmkit/unexpected-pass",
                                       "the expectations file lists the case as failing and it passed: the entry "
                                       "is out of date" },
    [WK_SARIF_KIT_FAIL] = { "wddmkit/fail", "the input failed a check that names no contract rule" },
};

const char *wk_sarif_kit_rule_id(enum wk_sarif_kit_rule r)
{
    return (unsigned)r < WK_SARIF_KIT_RULE_COUNT ? kit_rules[r].id : "wddmkit/unknown";
}

int wk_sarif_rule_index(const char *id, const char *const *extra, uint32_t extra_count)
{
    uint32_t n = 0;
    const struct wk_rule *rules = wk_rules(&n);
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(rules[i].id, id) == 0)
            return (int)i;
    for (int k = 0; k < WK_SARIF_KIT_RULE_COUNT; k++)
        if (strcmp(kit_rules[k].id, id) == 0)
            return (int)n + k;
    for (uint32_t k = 0; k < extra_count; k++)
        if (strcmp(extra[k], id) == 0)
            return (int)(n + WK_SARIF_KIT_RULE_COUNT + k);
    return -1;
}

/* A catalogue rule: its sentence, its source (the documentation sentence
 * or facts section that backs it) and where the kit checks it. */
static void write_contract_rule(struct wk_jw *w, const struct wk_rule *r)
{
    char help[1024];
    snprintf(help, sizeof(help), "%s. Source: %s. Checked in %s (docs/contract-rules.md).", r->text, r->source,
             r->where);
    wk_jw_object(w, NULL);
    wk_jw_string(w, "id", r->id);
    wk_jw_message(w, "shortDescription", r->text);
    wk_jw_message(w, "fullDescription", help);
    wk_jw_message(w, "help", help);
    wk_jw_object(w, "defaultConfiguration");
    wk_jw_string(w, "level", "error");
    wk_jw_end(w, '}');
    wk_jw_object(w, "properties");
    wk_jw_string(w, "ddi", wk_ddi_name(r->ddi));
    wk_jw_string(w, "source", r->source);
    wk_jw_string(w, "checkedIn", r->where);
    wk_jw_array(w, "tags");
    wk_jw_string(w, NULL, "wddm");
    wk_jw_string(w, NULL, "contract");
    wk_jw_end(w, ']');
    wk_jw_end(w, '}');
    wk_jw_end(w, '}');
}

static void write_kit_rule(struct wk_jw *w, const char *id, const char *text)
{
    wk_jw_object(w, NULL);
    wk_jw_string(w, "id", id);
    wk_jw_message(w, "shortDescription", text);
    wk_jw_message(w, "help", text);
    wk_jw_object(w, "properties");
    wk_jw_array(w, "tags");
    wk_jw_string(w, NULL, "wddmkit");
    wk_jw_end(w, ']');
    wk_jw_end(w, '}');
    wk_jw_end(w, '}');
}

/* MAJOR.MINOR.PATCH with an optional -suffix: what semanticVersion takes. */
static int is_semver(const char *v)
{
    int dots = 0;
    const char *p = v;
    for (; *p && *p != '-' && *p != '+'; p++) {
        if (*p == '.')
            dots++;
        else if (!isdigit((unsigned char)*p))
            return 0;
    }
    return dots == 2 && isdigit((unsigned char)v[0]) && p > v && isdigit((unsigned char)p[-1]);
}

void wk_sarif_begin(struct wk_jw *w, FILE *f, const struct wk_sarif_tool *tool)
{
    wk_jw_init(w, f);
    wk_jw_object(w, NULL);
    wk_jw_string(w, "$schema", WK_SARIF_SCHEMA_URI);
    wk_jw_string(w, "version", "2.1.0");
    wk_jw_array(w, "runs");
    wk_jw_object(w, NULL);
    wk_jw_object(w, "tool");
    wk_jw_object(w, "driver");
    wk_jw_string(w, "name", "wddmkit");
    wk_jw_string(w, "version", tool->version);
    if (is_semver(tool->version))
        wk_jw_string(w, "semanticVersion", tool->version);
    wk_jw_array(w, "rules");
    uint32_t n = 0;
    const struct wk_rule *rules = wk_rules(&n);
    for (uint32_t i = 0; i < n; i++)
        write_contract_rule(w, &rules[i]);
    for (int k = 0; k < WK_SARIF_KIT_RULE_COUNT; k++)
        write_kit_rule(w, kit_rules[k].id, kit_rules[k].text);
    for (uint32_t k = 0; k < tool->extra_count; k++)
        write_kit_rule(w, tool->extra_rules[k], tool->extra_texts[k]);
    wk_jw_end(w, ']');
    wk_jw_object(w, "properties");
    wk_jw_string(w, "commit", tool->commit);
    wk_jw_end(w, '}');
    wk_jw_end(w, '}'); /* driver */
    wk_jw_end(w, '}'); /* tool */
}

/* ------------------------------------------------------------------ */
/* Locations                                                            */
/* ------------------------------------------------------------------ */

/* path as a URI reference: every byte outside RFC 3986's unreserved and
 * path characters percent-encoded. */
static void uri_encode(const char *path, char *out, size_t size)
{
    static const char keep[] = "-._~/!$&'()*+,;=:@";
    size_t k = 0;
    for (const unsigned char *p = (const unsigned char *)path; *p && k + 4 < size; p++) {
        if (isalnum(*p) || strchr(keep, *p))
            out[k++] = (char)*p;
        else
            k += (size_t)snprintf(out + k, size - k, "%%%02X", *p);
    }
    out[k] = '\0';
}

/* "file:///abs/dir/" of a directory, or 0. */
static int dir_uri(const char *dir, char *out, size_t size)
{
    char *real = realpath(dir, NULL);
    struct stat st;
    if (!real || stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
        free(real);
        return 0;
    }
    char enc[8192];
    uri_encode(real, enc, sizeof(enc));
    size_t n = strlen(enc);
    snprintf(out, size, "file://%s%s", enc, n && enc[n - 1] == '/' ? "" : "/");
    free(real);
    return 1;
}

static void base_id(struct wk_jw *w, const char *name, const char *dir, const char *what)
{
    char uri[8300];
    if (!dir || !dir_uri(dir, uri, sizeof(uri)))
        return;
    wk_jw_object(w, name);
    wk_jw_string(w, "uri", uri);
    wk_jw_message(w, "description", what);
    wk_jw_end(w, '}');
}

void wk_sarif_base_ids(struct wk_jw *w, const char *spec_root)
{
    wk_jw_object(w, "originalUriBaseIds");
    base_id(w, WK_SARIF_SRCROOT, ".", "the working directory the command ran in");
    base_id(w, WK_SARIF_SPECROOT, spec_root, "the kit's specs");
    wk_jw_end(w, '}');
}

/* The part of real under root/ (both resolved), or NULL. */
static const char *under(const char *real, const char *root)
{
    char *r = root ? realpath(root, NULL) : NULL;
    const char *rest = NULL;
    if (r) {
        size_t n = strlen(r);
        if (n == 1 && real[0] == '/')
            rest = real + 1;
        else if (strncmp(real, r, n) == 0 && real[n] == '/')
            rest = real + n + 1;
        free(r);
    }
    return rest;
}

void wk_sarif_artifact_location(struct wk_jw *w, const char *key, const char *file, const char *spec_root)
{
    char enc[8192];
    char *real = realpath(file, NULL);
    const char *rest = NULL, *base = NULL;
    if (real && (rest = under(real, ".")))
        base = WK_SARIF_SRCROOT;
    else if (real && (rest = under(real, spec_root)))
        base = WK_SARIF_SPECROOT;
    else if (!real && file[0] != '/')
        rest = file, base = WK_SARIF_SRCROOT; /* gone since: as given, from where the command ran */
    wk_jw_object(w, key);
    if (base) {
        uri_encode(rest, enc, sizeof(enc));
        wk_jw_string(w, "uri", enc);
        wk_jw_string(w, "uriBaseId", base);
    } else {
        char abs[8200];
        uri_encode(real ? real : file, enc, sizeof(enc));
        snprintf(abs, sizeof(abs), "file://%s", enc);
        wk_jw_string(w, "uri", abs);
    }
    wk_jw_end(w, '}');
    free(real);
}

void wk_sarif_end(struct wk_jw *w)
{
    wk_jw_end(w, '}'); /* the run */
    wk_jw_end(w, ']'); /* runs */
    wk_jw_end(w, '}');
    fputc('\n', w->f);
}
