/* SPDX-License-Identifier: MIT */
/*
 * cli_main.c - the `wddmkit` command line: dispatch to subcommands
 * (wddmkit_main.c is its main; harnesses/fuzz_cli.c calls it with
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

/* ------------------------------------------------------------------ */
/* The commands                                                         */
/* ------------------------------------------------------------------ */

static int run_help(int argc, char **argv);
static int run_version(int argc, char **argv);

/* Every command the dispatcher runs, with its lines of `wddmkit help`:
 * `help` prints this table, so no command can be missing from it. A
 * command of subcommands has a line for each (the group's own --help
 * lists them from its table: tests/cli_options.sh checks they agree). */
static const struct wk_cli_top_command commands[] = {
    { "conform", wk_cli_conform,
      { { "[--driver PATH] [-j N] [--filter GLOB] ... [SPEC|DIR...]",
          "run the YAML specs (default: the kit's specs/) as isolated cases;\n"
          "JUnit/TAP/JSON/SARIF reports, expectations, --coverage ('conform --help')" } } },
    { "results", wk_cli_results,
      { { "baseline RUN.json --link URL [--reason TEXT]",
          "print an expectations file of the run's known failures" },
        { "diff OLD.json NEW.json [--json]",
          "regressions, fixes, new flakes, added and removed cases between two\n"
          "runs; exit 1 on a regression" },
        { "merge SHARD.json...", "one report of the reports of a run's shards" } } },
    { "fuzz", wk_cli_fuzz,
      { { "--harness NAME [--engine libfuzzer|afl] [--driver PATH] [--jobs N] [--time S] [-- ENGINE-ARGS...]",
          "fuzz a driver through one harness; progress, then crashes and\n"
          "their signatures ('fuzz --help')" } } },
    { "gpu", wk_cli_gpu,
      { { "disasm FILE", "print a DMA buffer of the GPU model's command set" },
        { "validate FILE", "check a DMA buffer statically against the reference adapter" },
        { "exec FILE", "run a DMA buffer on the reference adapter; print faults and counters" } } },
    { "prog", wk_cli_prog,
      { { "dump FILE [--harness NAME]", "print an input of any harness decoded (else the path says the harness)" } } },
    { "repro", wk_cli_repro,
      { { "FILE [--driver PATH] [--runs N] [--seed N] [--harness NAME]",
          "replay a crash file in forked children: signature, program, exit\n"
          "0 pass, 1 fail, 3 crash, 4 timeout" } } },
    { "minimize", wk_cli_minimize,
      { { "FILE [-o OUT] [--driver PATH] [--harness NAME]",
          "reduce an input keeping its signature (default OUT: FILE.min)" } } },
    { "promote", wk_cli_promote,
      { { "FILE --driver PATH [--harness NAME] [--name NAME]",
          "minimize, then write corpus/<harness>/regressions/NAME.bin and\n"
          "specs/regressions/NAME.yaml (fails on PATH, passes on the reference)" } } },
    { "triage", wk_cli_triage,
      { { "DIR [--driver PATH] [--harness NAME]", "run every file of DIR once, group them by signature" } } },
    { "coverage", wk_cli_coverage,
      { { "--harness NAME [--driver PATH] [INPUT...]",
          "which lines and functions of a driver (built with clang coverage)\n"
          "a harness's corpus reaches; HTML, lcov, --fail-under ('coverage --help')" } } },
    { "driver", wk_cli_driver,
      { { "check PATH",
          "whether a driver module loads into this build; repro, minimize, promote,\n"
          "triage, conform and coverage hand their work to a build that loads it" } } },
    { "binding", wk_cli_binding,
      { { "check PATH [--inputs N] [--seed S]",
          "a hardware binding on its own: its processor on random buffers, twice\n"
          "each: ends, answers within processor.h, deterministic" } } },
    { "corpus", wk_cli_corpus,
      { { "seed [--specs DIR] [--out DIR] [--check]",
          "write the seed corpora of the driver harnesses from YAML specs\n"
          "(default: the kit's specs/ into the checkout's corpus/)" },
        { "upgrade [--corpus DIR] [--check]",
          "rewrite the step-program files of a corpus in the current format" } } },
    { "rules", wk_cli_rules,
      { { "[--markdown] [ID|GLOB...]", "list the contract rules every driver answer is checked against" } } },
    { "spec", wk_cli_spec,
      { { "lint FILE|DIR...", "check YAML specs without running them" },
        { "dump ID|GLOB [FILE|DIR...]", "print cases as their step programs (default: the kit's specs/)" },
        { "mutations", "list the answer corruptions negative cases use" } } },
    { "version", run_version, { { "", "print the version, and where the kit's data and builds are" } } },
    { "help", run_help, { { "[COMMAND] [--man] [--completion bash]",
                            "print this text, or COMMAND's help; the manual page or the bash\n"
                            "completion, both written from this help" } } },
};
enum { COMMANDS = sizeof(commands) / sizeof(commands[0]) };

const struct wk_cli_top_command *wk_cli_commands(size_t *count)
{
    *count = COMMANDS;
    return commands;
}

const char wk_cli_tagline[] = "fuzzing and conformance tests for WDDM display miniport drivers on Linux";
const char wk_cli_closing[] =
    "Every command takes -h/--help; a value as --name VALUE or --name=VALUE; -- ends the\n"
    "options. The DMA-buffer format and the reference adapter: docs/gpu-model.md.";

#define SUMMARY_COLUMN 22 /* where a command's summary starts */

/* "  name usage", then the summary from SUMMARY_COLUMN (on the next line
 * when the usage reaches it), its further lines indented alike. */
static void help_line(FILE *out, const char *name, const struct wk_cli_help_line *l)
{
    int n = fprintf(out, "  %s%s%s", name, *l->usage ? " " : "", l->usage);
    if (n + 1 >= SUMMARY_COLUMN)
        fprintf(out, "\n%*s", SUMMARY_COLUMN, "");
    else
        fprintf(out, "%*s", SUMMARY_COLUMN - n, "");
    for (const char *p = l->summary;;) {
        size_t len = strcspn(p, "\n");
        fprintf(out, "%.*s\n", (int)len, p);
        p += len;
        if (!*p || !*++p)
            return;
        fprintf(out, "%*s", SUMMARY_COLUMN, "");
    }
}

static void usage(FILE *out)
{
    fputs("usage: wddmkit <command> [args]\n"
          "\n"
          "commands:\n",
          out);
    for (size_t i = 0; i < COMMANDS; i++)
        for (size_t k = 0; k < sizeof(commands[i].help) / sizeof(commands[i].help[0]) && commands[i].help[k].summary; k++)
            help_line(out, commands[i].name, &commands[i].help[k]);
    fprintf(out, "\n%s\n", wk_cli_closing);
}

enum { OPT_MAN = WK_CLI_LONG_ONLY, OPT_COMPLETION };
static const struct wk_cli_option help_options[] = {
    { "man", OPT_MAN, WK_CLI_FLAG, NULL, "print the manual page, wddmkit(1), in roff: 'wddmkit help --man | man -l -'" },
    { "completion", OPT_COMPLETION, WK_CLI_VALUE, "bash",
      "print the bash completion script (installed as\n"
      "<prefix>/share/bash-completion/completions/wddmkit)" },
    { 0 }
};

static const struct wk_cli_command help_command = {
    "help", "[COMMAND] [--man] [--completion bash]", help_options,
    "Without COMMAND: every command and what it does. With one: that command's own help (the\n"
    "same as 'wddmkit COMMAND --help'). --man and --completion write the manual page and the\n"
    "shell completion from the same help text (the build installs both).",
    NULL,
};

static const struct wk_cli_command version_command = {
    "version", "", NULL,
    "Prints the version of this build of wddmkit, then where it finds its data (specs/,\n"
    "corpus/, the dictionaries: $WDDMKIT_DATA_DIR, else the source tree of this build, else\n"
    "<prefix>/share/wddmkit beside an installed wddmkit) and its builds by name (a checkout's\n"
    "build/, an installed kit's <prefix>/libexec/wddmkit).",
    NULL,
};

struct help_args {
    const char *command;
    int man, completion;
};

static int help_arg(void *ctx, const struct wk_cli_arg *a)
{
    struct help_args *h = ctx;
    switch (a->key) {
    case OPT_MAN:
        h->man = 1;
        return 0;
    case OPT_COMPLETION:
        if (strcmp(a->value, "bash") != 0)
            return wk_cli_error(a->cmd, "--completion: bash is the one shell, saw '%s'", a->value);
        h->completion = 1;
        return 0;
    case WK_CLI_OPERAND:
        if (h->command)
            return wk_cli_error(a->cmd, "unexpected argument '%s'", a->value);
        h->command = a->value;
        return 0;
    }
    return 0;
}

static int one_operand(void *ctx, const struct wk_cli_arg *a)
{
    const char **word = ctx;
    if (!word || *word)
        return wk_cli_error(a->cmd, "unexpected argument '%s'", a->value);
    *word = a->value;
    return 0;
}

static int run_command(const char *name, int argc, char **argv);

static int run_help(int argc, char **argv)
{
    struct help_args h = { 0 };
    int rc = wk_cli_parse(&help_command, argc, argv, help_arg, &h);
    if (rc != WK_CLI_CONTINUE)
        return rc;
    if (h.man + h.completion + !!h.command > 1)
        return wk_cli_usage_error(&help_command, "COMMAND, --man and --completion go alone");
    if (wk_cli_parse_only)
        return 0;
    if (h.man)
        return wk_cli_write_manual(stdout);
    if (h.completion)
        return wk_cli_write_bash_completion(stdout);
    const char *command = h.command;
    if (!command) {
        usage(stdout);
        return 0;
    }
    char help[] = "--help";
    char *help_argv[] = { help, NULL };
    return run_command(command, 1, help_argv);
}

static int run_version(int argc, char **argv)
{
    int rc = wk_cli_parse(&version_command, argc, argv, one_operand, NULL);
    if (rc != WK_CLI_CONTINUE)
        return rc;
    enum wk_kit_origin from;
    const char *data = wk_cli_data_dir(&from), *builds = wk_cli_builds_dir();
    printf("wddmkit %s\ncommit %s\n", WK_VERSION, wk_cli_kit_commit);
    printf("data:   %s (%s)\n", data, wk_cli_origin_text(from));
    printf("builds: %s\n", builds ? builds : "(none)");
    return 0;
}

/* The command NAME with its arguments, or "unknown command" (did you
 * mean) and 2. */
static int run_command(const char *name, int argc, char **argv)
{
    const char *names[COMMANDS];
    for (size_t i = 0; i < COMMANDS; i++) {
        if (strcmp(name, commands[i].name) == 0)
            return commands[i].run(argc, argv);
        names[i] = commands[i].name;
    }
    const char *near = name[0] == '-' ? NULL : wk_cli_suggest(name, names, COMMANDS);
    if (near)
        fprintf(stderr, "wddmkit: unknown command '%s' (did you mean '%s'?)\n", name, near);
    else
        fprintf(stderr, "wddmkit: unknown command '%s'\n", name);
    fputs("try 'wddmkit help'\n", stderr);
    return 2;
}

int wk_cli_main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0)
        cmd = "help";
    else if (strcmp(cmd, "--version") == 0)
        cmd = "version";
    return run_command(cmd, argc - 2, argv + 2);
}
