/* SPDX-License-Identifier: MIT */
/*
 * cli_crash_args.h - what the crash commands share (prog dump, repro,
 * minimize, promote, triage; coverage takes --harness alike): the options'
 * keys and table entries, one handler that parses them into fuzz/crash/'s
 * wk_crash_options, the --harness check. Each command keeps its own table
 * (the subset it takes), usage line and help in its own file. Private to
 * cli/.
 */
#ifndef WK_CLI_CRASH_ARGS_H
#define WK_CLI_CRASH_ARGS_H

#include "cli_options.h"
#include "fuzz.h"

/* The keys of the shared options (-o is a short option: its key is 'o'). */
enum {
    WK_CRASH_DRIVER = WK_CLI_LONG_ONLY, WK_CRASH_RUNS, WK_CRASH_SEED, WK_CRASH_HARNESS, WK_CRASH_NAME,
    WK_CRASH_TIMEOUT, WK_CRASH_NO_CALIBRATE, WK_CRASH_LOAD_TIMEOUT, WK_CRASH_BINDING, WK_CRASH_SARIF,
};

/* The table entries, spelled once; a command's table lists those it takes. */
#define WK_CRASH_OPT_DRIVER \
    { "driver", WK_CRASH_DRIVER, WK_CLI_VALUE, "PATH", "the driver module under test (default: the reference driver)" }
#define WK_CRASH_OPT_LOAD_TIMEOUT WK_CLI_OPT_LOAD_TIMEOUT(WK_CRASH_LOAD_TIMEOUT)
#define WK_CRASH_OPT_BINDING                                                                            \
    { "binding", WK_CRASH_BINDING, WK_CLI_VALUE, "PATH",                                                \
      "the --driver's hardware binding (include/wddmkit/binding.h; none: no binding;\n"                  \
      "default: WK_BINDING, else the driver module's own wk_binding)" }
#define WK_CRASH_OPT_HARNESS                                                                                 \
    { "harness", WK_CRASH_HARNESS, WK_CLI_VALUE, "NAME",                                                     \
      "the harness the input belongs to (default: the path says: corpus/<harness>/\n"                        \
      "or <harness>-<engine>/, or the campaign folder's note; else fuzz_prog)" }
#define WK_CRASH_OPT_RUNS { "runs", WK_CRASH_RUNS, WK_CLI_VALUE, "N", "replays, for determinism (default 1, at most 100000)" }
#define WK_CRASH_OPT_SEED { "seed", WK_CRASH_SEED, WK_CLI_VALUE, "N", "added to each program's vidmm seed (default 0)" }
#define WK_CRASH_OPT_TIMEOUT \
    { "timeout", WK_CRASH_TIMEOUT, WK_CLI_VALUE, "S", "seconds a run may take before it is a timeout (default 60, at most 3600)" }
#define WK_CRASH_OPT_NO_CALIBRATE                                                        \
    { "no-calibrate", WK_CRASH_NO_CALIBRATE, WK_CLI_FLAG, NULL,                          \
      "run a program's own expectations, not the reference driver's answers" }

#define WK_CRASH_OPT_SARIF                                                                         \
    { "sarif", WK_CRASH_SARIF, WK_CLI_VALUE, "FILE",                                               \
      "write the signatures as SARIF 2.1.0, for code scanning (-: to stdout, and the\n"              \
      "table goes to stderr; docs/sarif.md)" }

/* How the commands read an input (the help's epilog, before the exit codes). */
#define WK_CRASH_INPUTS_HELP                                                                            \
    "A fuzz_prog input is calibrated on the reference driver first (see --no-calibrate); so is a\n"    \
    "fuzz_paging input, run as the program that harness makes of it. Inputs of other harnesses\n"     \
    "(--harness, or a corpus/<harness>/ or <harness>-<engine>/ path) run through <harness>_replay.\n"
#define WK_CRASH_ENV_HELP                                                                       \
    "Environment: WK_REPLAY_DIR  the folder of the <harness>_replay binaries (default:\n"        \
    "                            ../fuzz beside the wddmkit binary)"

/* --harness NAME: a harness of the list into *out; 0, or 2 after saying
 * why (a name that cannot be one, or an unknown one with the list). */
int wk_cli_harness_arg(const struct wk_cli_arg *a, const char **out);
/* "unknown harness NAME (did you mean ...? one of: ...)"; returns 2. */
int wk_cli_unknown_harness(const struct wk_cli_command *cmd, const char *name);

/*
 * Parses a crash command's arguments (one operand, named `what` in the
 * messages: "FILE", or "DIR" for triage; and the options of cmd's table)
 * into o, defaults first (1 run, 60 s a run). WK_CLI_CONTINUE when the
 * command goes on; else the exit code after the help (0) or a usage error
 * (2, printed).
 */
int wk_cli_crash_parse(const struct wk_cli_command *cmd, const char *what, int argc, char **argv,
                       struct wk_crash_options *o);

#endif
