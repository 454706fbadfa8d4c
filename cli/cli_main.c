/* SPDX-License-Identifier: MIT */
/*
 * cli_main.c - the `wddmkit` command line: dispatch to subcommands
 * (wddmkit_main.c is its main; fuzz/fuzz_cli.c calls it with
 * wk_cli_parse_only set).
 *
 * Exit codes (kept by every subcommand): 0 success / as expected, 1 the
 * input was examined and found at fault (a GPU fault, an invalid buffer),
 * 2 usage or input errors (unknown command, unreadable file).
 */
#define _POSIX_C_SOURCE 200809L /* strnlen */

#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_options.h"

static void usage(FILE *out)
{
    fputs("usage: wddmkit <command> [args]\n"
          "\n"
          "commands:\n"
          "  conform [--driver PATH] [-j N] [--filter GLOB] ... [SPEC|DIR...]\n"
          "                      run the YAML specs (default: the repo's specs/) as isolated cases;\n"
          "                      JUnit/TAP/JSON reports, expectations, --coverage ('conform --help')\n"

          "  fuzz --harness NAME [--engine libfuzzer|afl] [--driver PATH] [--jobs N] [--time S]\n"
          "                      fuzz a driver through one harness; progress, then crashes and\n"
          "                      their signatures ('fuzz --help')\n"
          "  gpu disasm FILE     print a DMA buffer of the GPU model's command set\n"
          "  gpu validate FILE   check a DMA buffer statically against the reference adapter\n"
          "  gpu exec FILE       run a DMA buffer on the reference adapter; print faults and counters\n"
          "  prog dump FILE      print an input of any harness decoded (--harness NAME, else the path says)\n"
          "  repro FILE [--driver PATH] [--runs N] [--seed N]\n"
          "                      replay a crash file in forked children: signature, program, exit\n"
          "                      0 pass, 1 fail, 3 crash, 4 timeout\n"
          "  minimize FILE [-o OUT] [--driver PATH]\n"
          "                      reduce a program keeping its signature (default OUT: FILE.min)\n"
          "  promote FILE --driver PATH [--name NAME]\n"
          "                      minimize, then write corpus/fuzz_prog/regressions/NAME.bin and\n"
          "                      specs/regressions/NAME.yaml (fails on PATH, passes on the reference)\n"
          "  triage DIR [--driver PATH]\n"
          "                      run every file of DIR once, group them by signature\n"
          "  coverage --harness NAME [--driver PATH] [INPUT...]\n"
          "                      which lines and functions of a driver (built with clang coverage)\n"
          "                      a harness's corpus reaches; HTML, lcov, --fail-under ('coverage --help')\n"
          "  driver check PATH   whether a driver module loads into this build; repro, minimize, promote,\n"
          "                      triage, conform and coverage hand their work to a build that loads it\n"
          "  corpus seed [--specs DIR] [--out DIR] [--check]\n"
          "                      write the seed corpora of the driver harnesses from YAML specs\n"
          "                      (default: the repo's specs/ into its corpus/)\n"
          "  rules [--markdown] [ID|GLOB...]\n"
          "                      list the contract rules every driver answer is checked against\n"
          "  spec lint FILE|DIR...       check YAML specs without running them\n"
          "  spec dump ID|GLOB [FILE|DIR...]  print cases as their step programs (default: the repo's specs/)\n"
          "  spec mutations      list the answer corruptions negative cases use\n"
          "  version             print the version\n"
          "  help                print this text\n"
          "\n"
          "The DMA-buffer format and the reference adapter: docs/gpu-model.md.\n",
          out);
}

int wk_cli_parse_only;

int wk_cli_split_args(char *text, size_t size, char **argv, int max_args)
{
    int argc = 0;
    argv[argc++] = (char *)"wddmkit";
    for (size_t at = 0; size && at <= size && argc <= max_args; at += strnlen(text + at, size - at) + 1)
        argv[argc++] = text + at;
    argv[argc] = NULL;
    return argc;
}

int wk_cli_main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        printf("wddmkit %s\n", WK_VERSION);
        return 0;
    }
    static const struct {
        const char *name;
        int (*run)(int argc, char **argv); /* the arguments after the command word */
    } commands[] = {
        { "gpu", wk_cli_gpu },           { "rules", wk_cli_rules },       { "spec", wk_cli_spec },
        { "conform", wk_cli_conform },   { "fuzz", wk_cli_fuzz },         { "prog", wk_cli_prog },
        { "repro", wk_cli_repro },       { "minimize", wk_cli_minimize }, { "promote", wk_cli_promote },
        { "triage", wk_cli_triage },     { "corpus", wk_cli_corpus },     { "driver", wk_cli_driver },
        { "coverage", wk_cli_coverage },
    };
    enum { COUNT = sizeof(commands) / sizeof(commands[0]) };
    const char *names[COUNT + 2] = { "help", "version" };
    for (size_t i = 0; i < COUNT; i++) {
        if (strcmp(cmd, commands[i].name) == 0)
            return commands[i].run(argc - 2, argv + 2);
        names[i + 2] = commands[i].name;
    }
    const char *near = cmd[0] == '-' ? NULL : wk_cli_suggest(cmd, names, COUNT + 2);
    if (near)
        fprintf(stderr, "wddmkit: unknown command '%s' (did you mean '%s'?)\n", cmd, near);
    else
        fprintf(stderr, "wddmkit: unknown command '%s'\n", cmd);
    fputs("try 'wddmkit help'\n", stderr);
    return 2;
}
