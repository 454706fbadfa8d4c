/* SPDX-License-Identifier: MIT */
/*
 * figures.c - a benchmark's figures as JSON Lines (figures.h), written with
 * jansson: one json_dumpf per figure, appended under O_APPEND, so the
 * benchmarks run_all.py starts one after another add to one file.
 */
#include "figures.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

static int name_ok(const char *name)
{
    if (!name || !*name)
        return 0;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '.'))
            return 0;
    return 1;
}

static const char *goal_kind(enum wk_bench_goal kind)
{
    return kind == WK_BENCH_AT_LEAST ? ">=" : kind == WK_BENCH_AT_MOST ? "<=" : NULL;
}

void wk_bench_figure(const char *name, double value, const char *unit, enum wk_bench_goal kind, double goal,
                     const char *what)
{
    const char *path = getenv("WK_BENCH_FIGURES");
    if (!path || !*path)
        return;
    if (!name_ok(name)) { /* a benchmark's own mistake: say so rather than write a key run_all.py refuses */
        fprintf(stderr, "bench: figure name '%s': [a-z0-9_.] only\n", name ? name : "(null)");
        exit(2);
    }
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(name));
    json_object_set_new(o, "value", isfinite(value) ? json_real(value) : json_null()); /* JSON has no inf */
    json_object_set_new(o, "unit", json_string(unit ? unit : ""));
    const char *op = goal_kind(kind);
    json_object_set_new(o, "goal", op ? json_pack("{s:s,s:f}", "op", op, "value", goal) : json_null());
    json_object_set_new(o, "what", json_string(what ? what : ""));
    json_object_set_new(o, "quick", json_boolean(wk_bench_quick()));
    FILE *f = fopen(path, "a");
    if (!f || json_dumpf(o, f, JSON_COMPACT) != 0 || fputc('\n', f) == EOF || fclose(f) != 0) {
        fprintf(stderr, "bench: cannot append to %s\n", path);
        exit(2);
    }
    json_decref(o);
}

int wk_bench_quick(void)
{
    const char *q = getenv("WK_BENCH_QUICK");
    return q && strcmp(q, "1") == 0;
}

double wk_bench_seconds(const char *arg, double max)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(arg, &end);
    if (errno || end == arg || *end || !(v > 0 && v <= max))
        return -1;
    return v;
}
