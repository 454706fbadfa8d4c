/* SPDX-License-Identifier: MIT */
/*
 * known.c - the known signatures a campaign passes over.
 *
 * An input whose finding has one of these signatures is counted by the
 * harness (fuzz/driver/fuzz_driver.h: WK_FUZZ_IGNORE and the shared hit
 * counters of WK_FUZZ_IGNORE_COUNTS), not reported as a crash, so the
 * engines keep looking for other bugs. They come from the starting inputs
 * left out as already crashing, --ignore-signature and the environment;
 * the summary says how often each was hit.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/internal.h"
#include "util.h"

/* Adds a signature for the harness to pass over (once; one that cannot
 * travel in WK_FUZZ_IGNORE is named and left out). 0 when it was not added. */
int wk_campaign_add_known(struct campaign *c, const char *sig, const char *from)
{
    for (unsigned i = 0; i < c->nknown; i++)
        if (strcmp(c->known[i], sig) == 0)
            return 0;
    if (c->nknown == MAX_KNOWN || strpbrk(sig, ";\n") || strlen(sig) >= SIG_TEXT) {
        printf("note: %s %.200s cannot be ignored (%s): an input with it stops the campaign\n", from, sig,
               c->nknown == MAX_KNOWN ? "more than 64 signatures" : "a ';', a line break or over 400 characters");
        return 0;
    }
    wk_str_copy(c->known[c->nknown++], SIG_TEXT, sig);
    return 1;
}

/* The signatures the harness passes over (fuzz_driver.h, WK_FUZZ_IGNORE):
 * those of the starting inputs left out as already crashing (already in
 * c->known), then --ignore-signature and the environment's WK_FUZZ_IGNORE;
 * one line names them. Their hit counters go to logs/known-signatures
 * (8 bytes each, zero now), which the harness maps shared and the summary
 * reads. 0 after an error. */
/* The next signature of a WK_FUZZ_IGNORE list from *at (';' or line
 * separated, blanks trimmed) into one: 1, 0 at the end. An empty entry, or
 * one too long for a signature, is passed over. */
static int next_listed(const char **at, char *one, size_t size)
{
    while (*at && **at) {
        const char *e = *at;
        size_t n = strcspn(e, ";\n"), lead = strspn(e, " \t");
        size_t len = n > lead ? n - lead : 0;
        while (len && (e[lead + len - 1] == ' ' || e[lead + len - 1] == '\t' || e[lead + len - 1] == '\r'))
            len--;
        *at = e + n + (e[n] != '\0');
        if (len && len < size) {
            snprintf(one, size, "%.*s", (int)len, e + lead);
            return 1;
        }
    }
    return 0;
}

int wk_campaign_user_known(const struct campaign *c, const char *sig)
{
    for (int i = 0; i < c->o.ignore_count; i++)
        if (strcmp(c->o.ignore[i], sig) == 0)
            return 1;
    char one[SIG_TEXT];
    for (const char *at = getenv("WK_FUZZ_IGNORE"); next_listed(&at, one, sizeof(one));)
        if (strcmp(one, sig) == 0)
            return 1;
    return 0;
}

int wk_campaign_pass_over_known(struct campaign *c)
{
    for (int i = 0; i < c->o.ignore_count; i++)
        wk_campaign_add_known(c, c->o.ignore[i], "--ignore-signature");
    char one[SIG_TEXT];
    for (const char *at = getenv("WK_FUZZ_IGNORE"); next_listed(&at, one, sizeof(one));)
        wk_campaign_add_known(c, one, "WK_FUZZ_IGNORE's");
    unsetenv("WK_FUZZ_IGNORE");
    unsetenv("WK_FUZZ_IGNORE_COUNTS");
    if (!c->nknown)
        return 1;
    printf("%s %u known signature%s: ", c->o.dry_run ? "would ignore" : "ignoring", c->nknown,
           c->nknown == 1 ? "" : "s");
    for (unsigned i = 0; i < c->nknown; i++)
        printf("%s%s", i ? "; " : "", c->known[i]);
    printf("\n  (an input with one of them is counted, not a crash%s)\n",
           c->o.stop_on_known ? "" : "; --stop-on-known stops at those of the left-out inputs");
    if (c->o.dry_run)
        return 1;
    static char list[MAX_KNOWN * (SIG_TEXT + 1)];
    size_t at = 0;
    for (unsigned i = 0; i < c->nknown; i++)
        at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s", i ? ";" : "", c->known[i]);
    if (!wk_campaign_zero_counters(c, "known-signatures", c->nknown, c->known_counts, sizeof(c->known_counts)))
        return 0;
    setenv("WK_FUZZ_IGNORE", list, 1);
    setenv("WK_FUZZ_IGNORE_COUNTS", c->known_counts, 1);
    return 1;
}

/* How many runs hit each known signature (the harness's counters); the
 * summary line. */
void wk_campaign_print_known_hits(const struct campaign *c)
{
    uint64_t hits[MAX_KNOWN] = { 0 }, total = 0;
    char a[40];
    int fd = c->known_counts[0] ? open(c->known_counts, O_RDONLY | O_CLOEXEC) : -1;
    if (fd >= 0) {
        ssize_t got = read(fd, hits, (size_t)c->nknown * 8);
        close(fd);
        if (got < 0)
            memset(hits, 0, sizeof(hits));
    }
    for (unsigned i = 0; i < c->nknown; i++)
        total += hits[i];
    printf("  known     %s run%s hit an ignored signature%s", wk_str_grouped(total, a, sizeof(a)), total == 1 ? "" : "s",
           total ? ":" : "");
    for (unsigned i = 0; i < c->nknown && total; i++)
        if (hits[i])
            printf("\n              %s  %s", wk_str_grouped(hits[i], a, sizeof(a)), c->known[i]);
    printf("\n");
}
