/* SPDX-License-Identifier: MIT */
/*
 * cli_prog.c - `wddmkit prog dump FILE [--harness NAME]`: an input of any
 * harness decoded as that harness reads it (fuzz/crash/dump.c).
 */
#include <string.h>

#include "cli.h"
#include "cli_crash_args.h"

int wk_cli_prog(int argc, char **argv)
{
    if (argc < 1 || strcmp(argv[0], "dump") != 0)
        return wk_cli_crash_usage_error("expected 'prog dump FILE [--harness NAME]'");
    struct wk_crash_options o;
    int rc = wk_cli_crash_parse(argc - 1, argv + 1, OPT_HARNESS, &o);
    if (rc)
        return rc == 1 ? 0 : 2;
    o.harness = wk_crash_harness_of(&o, o.path);
    if (!wk_crash_decodable(o.harness))
        return wk_cli_crash_usage_error("--harness: prog dump decodes inputs of fuzz_prog, fuzz_paging, fuzz_render, "
                                        "fuzz_patch, fuzz_gpu_decode, fuzz_spec, fuzz_cli and fuzz_hostile, not '%s'",
                                        o.harness);
    return wk_crash_prog_dump(&o);
}
