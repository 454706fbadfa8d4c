/* SPDX-License-Identifier: MIT */
/*
 * cli_driver.c - `wddmkit driver check PATH`: whether a driver module loads
 * into this build (driver_probe.c), and what to do when it does not.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_options.h"
#include "driver_probe.h"


static const char driver_about[] =
    "Loads the driver module PATH into this build of wddmkit (in a child process) and looks up\n"
    "DriverEntry. Exit 0: it loads; 2: it does not (the loader's reason, and for a module built\n"
    "with sanitizers or fuzzer coverage the runtime symbol it lacks, or for one built with GCC's\n"
    "-fsanitize=address the runtime to preload); 3: it crashed while loading, or hung (DRV-HANG-001:\n"
    "loading and DriverEntry get the time a DDI call gets, or --load-timeout S).\n"
    "repro, minimize, promote, triage, conform and coverage run this check on their --driver and,\n"
    "when the module needs a runtime this build lacks, hand the command to a build that has it\n"
    "(for GCC's ASan: this one or another, run again with LD_PRELOAD=libasan.so.N).\n"
    "It also says which hardware binding (include/wddmkit/binding.h) the kit would use: the one\n"
    "--binding PATH names, else the module's own export of wk_binding, its version and what it\n"
    "provides; a binding the kit refuses (another binding ABI, a part missing a member) exits 2.";

enum { OPT_LOAD_TIMEOUT = WK_CLI_LONG_ONLY, OPT_BINDING };
static const struct wk_cli_option check_options[] = {
    WK_CLI_OPT_LOAD_TIMEOUT(OPT_LOAD_TIMEOUT),
    { "binding", OPT_BINDING, WK_CLI_VALUE, "PATH", "the hardware binding's module (none: no binding)" },
    { 0 },
};
static const struct wk_cli_command check_command = { "driver check", "PATH [--binding PATH] [--load-timeout S]",
                                                     check_options, driver_about, NULL };

struct check_args {
    const char *path;
    const char *binding;
};

static int take_path(void *ctx, const struct wk_cli_arg *a)
{
    struct check_args *c = ctx;
    if (a->key == OPT_LOAD_TIMEOUT)
        return wk_cli_load_timeout_arg(a);
    if (a->key == OPT_BINDING) {
        c->binding = a->value;
        return 0;
    }
    if (c->path)
        return wk_cli_error(a->cmd, "one PATH only, saw '%s' after '%s'", a->value, c->path);
    c->path = a->value;
    return 0;
}

/* The binding line: found (0), none (0), refused (2). */
static int check_binding(const char *path, const char *binding)
{
    char desc[1024];
    if (binding && strcmp(binding, "none") == 0) {
        printf("%s: no binding (--binding none): a check of what its buffers did is skipped\n", path);
        return 0;
    }
    int found = wk_cli_binding_probe(binding ? binding : path, binding == NULL, desc, sizeof(desc));
    if (found < 0) {
        printf("%s: binding refused: %s\n", path, desc);
        return 2;
    }
    if (found == 0)
        printf("%s: no binding (it exports no %s; --binding PATH names one)\n", path, "wk_binding");
    else
        printf("%s: %s, from %s\n", path, desc, binding ? binding : "the module itself");
    return 0;
}

static int driver_check(int argc, char **argv)
{
    struct check_args c = { NULL, NULL };
    int rc = wk_cli_parse(&check_command, argc, argv, take_path, &c);
    const char *path = c.path;
    if (rc != WK_CLI_CONTINUE)
        return rc;
    if (!path)
        return wk_cli_usage_error(&check_command, "expected the driver module's PATH");
    if (wk_cli_parse_only)
        return 0;
    char why[4096], soname[64], info[4096];
    enum wk_cli_driver_load load = wk_cli_driver_probe_info(path, why, sizeof(why), info, sizeof(info));
    switch (load) {
    case WK_CLI_DRIVER_LOADS:
        printf("%s: loads into this build and exports DriverEntry\n", path);
        if (info[0])
            printf("%s: %s\n", path, info);
        return check_binding(path, c.binding);
    case WK_CLI_DRIVER_CRASHED:
    case WK_CLI_DRIVER_HUNG:
        printf("%s\n", why);
        return 3;
    default:
        printf("%s: does not load into this build: %s\n", path, why);
        if (load == WK_CLI_DRIVER_NEEDS_RUNTIME && wk_cli_gcc_asan_module(path, why, soname, sizeof(soname)))
            wk_cli_gcc_asan_advice(stdout, soname);
        else if (load == WK_CLI_DRIVER_NEEDS_RUNTIME && wk_cli_build_for_driver(path, info, sizeof(info)))
            printf("%s: loads into %s (`%s driver check %s`); conform, repro, triage, minimize, promote and "
                   "coverage hand a --driver to that build on their own\n",
                   path, info, info, path);
        return 2;
    }
}

int wk_cli_driver(int argc, char **argv)
{
    static const struct wk_cli_subcommand subs[] = { { "check", &check_command, driver_check } };
    return wk_cli_dispatch("driver", driver_about, subs, 1, argc, argv);
}
