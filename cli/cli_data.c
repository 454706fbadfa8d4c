/* SPDX-License-Identifier: MIT */
/*
 * cli_data.c - the folders the commands default to, found at run time
 * (util's kit_dirs.c says how): the kit's specs for `conform` and
 * `spec dump`, the checkout `promote`, `corpus` and `coverage` work in,
 * the builds `fuzz` and the hand-over look in. Nothing here is compiled
 * in from the source tree, so an installed kit never looks there.
 */
#define _GNU_SOURCE /* PATH_MAX */
#include <limits.h>
#include <stdio.h>

#include "cli.h"

static char data[PATH_MAX], specs[PATH_MAX + 8], builds[PATH_MAX];
static enum wk_kit_origin origin;
static int have_data, have_builds, have_builds_answer;

static void find_data(void)
{
    if (have_data)
        return;
    origin = wk_kit_data_dir(data, sizeof(data));
    if (!wk_path_join(specs, sizeof(specs), data, "specs"))
        specs[0] = '\0';
    have_data = 1;
}

const char *wk_cli_data_dir(enum wk_kit_origin *from)
{
    find_data();
    if (from)
        *from = origin;
    return data;
}

const char *wk_cli_specs_dir(void)
{
    find_data();
    return specs;
}

const char *wk_cli_checkout(void)
{
    find_data();
    return wk_kit_is_checkout(data) ? data : NULL;
}

const char *wk_cli_builds_dir(void)
{
    if (!have_builds_answer) {
        have_builds = wk_kit_builds_dir(builds, sizeof(builds));
        have_builds_answer = 1;
    }
    return have_builds ? builds : NULL;
}

const char *wk_cli_origin_text(enum wk_kit_origin from)
{
    switch (from) {
    case WK_KIT_FROM_ENV: return "from WDDMKIT_DATA_DIR";
    case WK_KIT_BUILD_TREE: return "the source tree of this build";
    case WK_KIT_INSTALLED: return "installed, beside this executable";
    default: return "not found: the working directory";
    }
}
