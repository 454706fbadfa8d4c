/* SPDX-License-Identifier: MIT */
/*
 * cli_promote.c - `wddmkit promote FILE --driver PATH [--harness NAME]
 * [--name NAME] [--seed N] [--timeout S]`: a minimized finding written as
 * a regression (fuzz/crash/promote.c) under the kit's checkout (for an
 * installed kit, the working directory), or under $WK_PROMOTE_ROOT when
 * set (tests). Exit 0 written (or already there),
 * 1 refused, 2 usage or I/O error.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_crash_args.h"

static const struct wk_cli_option promote_options[] = {
    WK_CRASH_OPT_DRIVER, WK_CRASH_OPT_BINDING, WK_CRASH_OPT_LOAD_TIMEOUT, WK_CRASH_OPT_HARNESS,
    { "name", WK_CRASH_NAME, WK_CLI_VALUE, "NAME",
      "the regression's name, 1..63 characters of [a-z0-9-] (default: the rule\n"
      "in lower case and the input's FNV-1a, e.g. render-patch-002-1a2b3c4d)" },
    WK_CRASH_OPT_SEED, WK_CRASH_OPT_TIMEOUT, { 0 },
};

static const struct wk_cli_command promote_command = {
    "promote", "FILE --driver PATH [--harness NAME] [--name NAME] [--seed N] [--timeout S]", promote_options,
    "\nMinimizes a finding, then writes it as a regression: corpus/<harness>/regressions/NAME.bin\n"
    "and specs/regressions/NAME.yaml, checked to fail on PATH and pass on the reference.",
    WK_CRASH_INPUTS_HELP
    "fuzz_patch and fuzz_render inputs promote as the step program of their Patch or Render\n"
    "call (a YAML case with a `patch` or `render` step).\n"
    "Environment: WK_PROMOTE_ROOT  the root promote writes under (default: the kit's checkout;\n"
    "                              for an installed kit, the working directory)\n"
    "             WK_REPLAY_DIR    the folder of the <harness>_replay binaries (default:\n"
    "                              ../fuzz beside the wddmkit binary; installed:\n"
    "                              <prefix>/libexec/wddmkit/<build>/fuzz)\n"
    "exit: 0 written (or already there), 1 refused, 2 usage or I/O error",
};

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

int wk_cli_promote(int argc, char **argv)
{
    struct wk_crash_options o;
    int rc = wk_cli_crash_parse(&promote_command, "FILE", argc, argv, &o);
    if (rc != WK_CLI_CONTINUE)
        return rc;
    if (!o.driver)
        return wk_cli_usage_error(&promote_command, "promote needs --driver PATH: the driver the input fails on");
    if (o.name && !name_ok(o.name))
        return wk_cli_usage_error(&promote_command, "--name: expected 1..63 characters of [a-z0-9-], saw '%s'", o.name);
    if (wk_cli_parse_only)
        return 0;
    const char *root = getenv("WK_PROMOTE_ROOT");
    const char *checkout = wk_cli_checkout();
    o.promote_root = root && *root ? root : checkout ? checkout : ".";
    return wk_crash_promote(&o);
}
