/* SPDX-License-Identifier: MIT */
/*
 * cli_promote.c - `wddmkit promote FILE --driver PATH [--harness NAME]
 * [--name NAME] [--seed N] [--timeout S]`: a minimized finding written as
 * a regression (fuzz/crash/promote.c) under the source tree, or under
 * $WK_PROMOTE_ROOT when set (tests). Exit 0 written (or already there),
 * 1 refused, 2 usage or I/O error.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_crash_args.h"

#ifndef WK_SOURCE_DIR /* the checkout, compiled in (cli/CMakeLists.txt) */
#define WK_SOURCE_DIR "."
#endif

static int name_ok(const char *n)
{
    size_t len = strlen(n);
    if (len == 0 || len > 63 || n[0] == '-' || n[len - 1] == '-')
        return 0;
    for (size_t i = 0; i < len; i++)
        if (!((n[i] >= 'a' && n[i] <= 'z') || (n[i] >= '0' && n[i] <= '9') || n[i] == '-'))
            return 0;
    return 1;
}

/* <rule in lower case>-<FNV-1a of the input>, e.g. render-patch-002-1a2b3c4d. */

int wk_cli_promote(int argc, char **argv)
{
    struct wk_crash_options o;
    int rc = wk_cli_crash_parse(argc, argv, OPT_DRIVER | OPT_HARNESS | OPT_NAME | OPT_SEED | OPT_TIMEOUT, &o);
    if (rc)
        return rc == 1 ? 0 : 2;
    if (!o.driver)
        return wk_cli_crash_usage_error("promote needs --driver PATH: the driver the input fails on");
    if (o.name && !name_ok(o.name))
        return wk_cli_crash_usage_error("--name: expected 1..63 characters of [a-z0-9-], saw '%s'", o.name);
    const char *root = getenv("WK_PROMOTE_ROOT");
    o.promote_root = root && *root ? root : WK_SOURCE_DIR;
    return wk_crash_promote(&o);
}
