/* SPDX-License-Identifier: MIT */
/*
 * reach.h - the file of counters a harness and a campaign share to say how
 * many inputs never reached the driver (WK_FUZZ_REACH_COUNTS): the
 * harness adds to it (driver/reach.c), `wddmkit fuzz` makes it and prints
 * it (campaign/reach.c). One layout and one wording for both.
 *
 * The file: WK_FUZZ_REACH_COUNTERS 8-byte counters, [0] the inputs
 * counted, then [1 + reason] each reason's, WK_FUZZ_REACHED first.
 */
#ifndef WK_FUZZ_REACH_H
#define WK_FUZZ_REACH_H

enum wk_fuzz_reach {
    WK_FUZZ_REACHED,
    WK_FUZZ_SKIP_RAW_BYTES,   /* raw bytes of the kit's format, with a binding's encoder */
    WK_FUZZ_SKIP_UNSAYABLE,   /* an operation the binding's encoder cannot say */
};
#define WK_FUZZ_REACH_COUNTERS 4u /* inputs, then one per reason */

static inline const char *wk_fuzz_reach_name(enum wk_fuzz_reach why)
{
    switch (why) {
    case WK_FUZZ_REACHED: return "reached the driver";
    case WK_FUZZ_SKIP_RAW_BYTES: return "raw bytes of the kit's format, which the binding's encoder cannot carry";
    case WK_FUZZ_SKIP_UNSAYABLE: return "an operation the binding's encoder cannot say";
    }
    return "?";
}

#endif
