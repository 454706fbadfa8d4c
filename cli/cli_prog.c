/* SPDX-License-Identifier: MIT */
/*
 * cli_prog.c - `wddmkit prog dump FILE [--harness NAME]`: an input of any
 * harness decoded as that harness reads it (fuzz/crash/dump.c). `prog` is
 * a command of subcommands (dump, for now).
 */
#include "cli.h"
#include "cli_crash_args.h"

static const struct wk_cli_option dump_options[] = { WK_CRASH_OPT_HARNESS, { 0 } };

static const struct wk_cli_command dump_command = {
    "prog dump", "FILE [--harness NAME]", dump_options,
    "\nPrints an input of any harness decoded: a program's steps, a DMA buffer's disassembly,\n"
    "a spec's lines, a command line's arguments.",
    "exit: 0 decoded, 2 usage or I/O error, or an input that does not decode",
};

static int dump(int argc, char **argv)
{
    struct wk_crash_options o;
    int rc = wk_cli_crash_parse(&dump_command, "FILE", argc, argv, &o);
    if (rc != WK_CLI_CONTINUE)
        return rc;
    if (wk_cli_parse_only)
        return 0;
    o.harness = wk_crash_harness_of(&o, o.path);
    if (!wk_crash_decodable(o.harness))
        return wk_cli_usage_error(&dump_command,
                                  "--harness: prog dump decodes inputs of fuzz_prog, fuzz_paging, fuzz_render, "
                                  "fuzz_patch, fuzz_gpu_decode, fuzz_spec, fuzz_cli and fuzz_hostile, not '%s'",
                                  o.harness);
    return wk_crash_prog_dump(&o);
}

int wk_cli_prog(int argc, char **argv)
{
    static const struct wk_cli_subcommand subs[] = { { "dump", &dump_command, dump } };
    return wk_cli_dispatch("prog", "What it prints: 'wddmkit prog dump --help'.", subs, 1, argc, argv);
}
