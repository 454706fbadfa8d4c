/* SPDX-License-Identifier: MIT */
/*
 * ddmin_bytes.c - reducing a byte string while a property holds: the
 * minimizer of `wddmkit minimize` for inputs that are no step program
 * (fuzz_gpu_decode's DMA buffers, fuzz_spec's YAML text).
 *
 * Why our own: an engine's minimizer keeps "some crash", so a crash can
 * turn into another on the way; here the property is the caller's (the
 * same signature through the harness's replay binary), checked for every
 * candidate, and the search is deterministic.
 *
 * The search removes chunks of units, halving the chunk size from half the
 * input down to one unit; a removal that keeps the property stays and the
 * same position is tried again with the next chunk. Units are lines (YAML
 * text: a case shrinks by whole keys first) or bytes. A last pass sets
 * aligned 4-byte words to zero (DMA-buffer operands), for inputs whose
 * length is their meaning.
 */
#include <stdlib.h>
#include <string.h>

#include "conformance.h"

/* Where each unit starts (starts[count] == n); the number of units. */
static size_t unit_starts(const uint8_t *d, size_t n, int by_lines, size_t *starts)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        if (!by_lines || i == 0 || d[i - 1] == '\n')
            starts[count++] = i;
    starts[count] = n;
    return count;
}

size_t wk_ddmin_bytes(uint8_t *data, size_t n, int by_lines, wk_bytes_keep_fn *keep, void *user)
{
    size_t *starts = malloc((n + 1) * sizeof(*starts));
    uint8_t *cand = malloc(n ? n : 1);
    if (!starts || !cand) {
        free(starts);
        free(cand);
        return n;
    }
    size_t count = unit_starts(data, n, by_lines, starts);
    for (size_t k = count > 1 ? count / 2 : 1; count > 0; k /= 2) {
        for (size_t i = 0; i < count;) {
            size_t take = k < count - i ? k : count - i;
            size_t a = starts[i], b = starts[i + take];
            memcpy(cand, data, a);
            memcpy(cand + a, data + b, n - b);
            if (keep(user, cand, n - (b - a))) {
                n -= b - a;
                memcpy(data, cand, n);
                count = unit_starts(data, n, by_lines, starts);
            } else {
                i += take;
            }
        }
        if (k <= 1)
            break;
    }
    free(starts);
    free(cand);
    return n;
}

void wk_ddmin_zero_words(uint8_t *data, size_t n, wk_bytes_keep_fn *keep, void *user)
{
    for (size_t at = 0; at + 4 <= n; at += 4) {
        uint8_t word[4];
        memcpy(word, data + at, 4);
        if (!(word[0] | word[1] | word[2] | word[3]))
            continue;
        memset(data + at, 0, 4);
        if (!keep(user, data, n))
            memcpy(data + at, word, 4);
    }
}
