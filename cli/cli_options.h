/* SPDX-License-Identifier: MIT */
/*
 * cli_options.h - one command-line style for every `wddmkit` subcommand:
 * a declarative option table per command, parsed by getopt_long, with the
 * usage and help text printed from the same table.
 *
 * The style (docs: `wddmkit <cmd> --help`):
 *   - `--opt value` and `--opt=value`; short options `-j 4`, `-j4`, `-qj4`;
 *   - long names match exactly (no abbreviations: adding an option must not
 *     break a script's `--dr`); a near miss gets "did you mean '--driver'?";
 *   - operands anywhere among the options, in order; `--` ends the options
 *     (an operand after it may start with '-'; the handler sees after_end
 *     set, so a command may give those a meaning of their own);
 *   - `-h`/`--help` in every command: help to stdout, exit 0, before the
 *     command opens or runs anything;
 *   - usage errors: "wddmkit <cmd>: message" and a "try" line to stderr,
 *     exit 2.
 *
 * getopt_long keeps global state (optind, optarg, its scan position):
 * wk_cli_parse resets it (optind = 0) on every call and finishes its scan
 * before it returns, so parses may follow each other in one process
 * (fuzz_cli runs thousands) but not nest. It copies argv's pointers (never
 * the strings) into one allocation freed before it returns; getopt never
 * sees the caller's argv, which stays in its order.
 *
 * How to convert a subcommand (a table, a handler with a switch, 3 lines
 * in the command):
 *
 *     enum { OPT_DRIVER = WK_CLI_LONG_ONLY, OPT_SEED, OPT_NO_CALIBRATE };  // long-only keys
 *     static const struct wk_cli_option repro_options[] = {
 *         { "driver", OPT_DRIVER, WK_CLI_VALUE, "PATH", "the driver module (default: the reference)" },
 *         { "runs", 'r', WK_CLI_VALUE, "N", "replays (default 10)" },
 *         { "seed", OPT_SEED, WK_CLI_VALUE, "N", "the first run's seed" },
 *         { "no-calibrate", OPT_NO_CALIBRATE, WK_CLI_FLAG, NULL, "one run, no timing" },
 *         { 0 }
 *     };
 *     static const struct wk_cli_command repro_command = {
 *         "repro", "FILE [options]", repro_options,
 *         "Replays a crash file in forked children.", "exit: 0 pass, 1 fail, 3 crash, 4 timeout" };
 *
 *     static int repro_arg(void *ctx, const struct wk_cli_arg *a)
 *     {
 *         struct repro_args *r = ctx;
 *         switch (a->key) {
 *         case OPT_DRIVER: r->driver = a->value; return 0;
 *         case 'r': return wk_cli_number(a, 1, 100000, &r->runs);
 *         case OPT_SEED: return wk_cli_number(a, 0, UINT64_MAX, &r->seed);
 *         case OPT_NO_CALIBRATE: r->calibrate = 0; return 0;
 *         case WK_CLI_OPERAND:
 *             if (r->file)
 *                 return wk_cli_error(a->cmd, "one FILE only, saw '%s' after '%s'", a->value, r->file);
 *             r->file = a->value;
 *             return 0;
 *         }
 *         return 0;
 *     }
 *
 *     int wk_cli_repro(int argc, char **argv)      // the arguments after "repro"
 *     {
 *         struct repro_args r = { .runs = 10 };
 *         int rc = wk_cli_parse(&repro_command, argc, argv, repro_arg, &r);
 *         if (rc >= 0)
 *             return rc;                           // help (0) or a usage error (2)
 *         if (!r.file)
 *             return wk_cli_usage_error(&repro_command, "expected a FILE");
 *         if (wk_cli_parse_only)
 *             return 0;
 *         ...
 *     }
 *
 * A command of subcommands (`wddmkit gpu disasm|validate|exec`) is a
 * wk_cli_subcommand table and wk_cli_dispatch; each subcommand then parses
 * its own arguments as above. The key 'h' and the name "help" are the
 * helper's; a table must not use them.
 */
#ifndef WK_CLI_OPTIONS_H
#define WK_CLI_OPTIONS_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Keys of long-only options start here (a short option's key is its
 * letter); WK_CLI_OPERAND is the key an operand arrives with. */
#define WK_CLI_LONG_ONLY 256
#define WK_CLI_OPERAND 1
/* Room for options in one table (besides --help). */
#define WK_CLI_MAX_OPTIONS 48
/* wk_cli_parse's "go on": anything else it returns is the exit code. */
#define WK_CLI_CONTINUE (-1)

enum wk_cli_has_value {
    WK_CLI_FLAG,  /* --list */
    WK_CLI_VALUE, /* --driver PATH, --driver=PATH, -j 4, -j4; never empty */
};

/* One option of a command's table; the table ends with an all-zero entry. */
struct wk_cli_option {
    const char *name;           /* long name without "--"; NULL: short only */
    int key;                    /* the short letter, or >= WK_CLI_LONG_ONLY for long only */
    enum wk_cli_has_value value;
    const char *meta;           /* the value's name in the help: "PATH", "N" (NULL for a flag) */
    const char *help;           /* one line; more lines separated by '\n' */
};

/* A command (or a subcommand): its usage line, options and help. */
struct wk_cli_command {
    const char *name;   /* "conform", "gpu disasm": the usage line's and the error prefix's */
    const char *usage;  /* the usage line after "usage: wddmkit <name> ", e.g. "[options] [SPEC|DIR...]" */
    const struct wk_cli_option *options; /* NULL: only --help */
    const char *about;  /* printed after the usage line; NULL: nothing */
    const char *epilog; /* printed after the options; NULL: nothing */
};

/* One option or operand, as the handler sees it. */
struct wk_cli_arg {
    const struct wk_cli_command *cmd;
    int key;           /* the option's key, or WK_CLI_OPERAND */
    const char *value; /* the option's value (NULL for a flag), or the operand */
    const char *opt;   /* the option as given, for messages: "--jobs" or "-j" ("" for an operand) */
    int after_end;     /* an operand after "--" (`wddmkit fuzz` hands those to the engine) */
};

/* Called for each option and operand in command-line order: 0 to go on,
 * anything else after printing why (wk_cli_error, wk_cli_number). */
typedef int (*wk_cli_handler)(void *ctx, const struct wk_cli_arg *arg);

/*
 * Parses argv[0, argc) (the arguments after the command's words) against
 * cmd's table, calling on() for each option and operand. Returns
 * WK_CLI_CONTINUE when every argument was taken; else the exit code,
 * after printing: 0 after the help (to stdout), 2 after a usage error
 * (unknown option, missing or empty value, a value or operand on() refused;
 * to stderr, with the "try" line).
 */
int wk_cli_parse(const struct wk_cli_command *cmd, int argc, char **argv, wk_cli_handler on, void *ctx);

/* The help text: usage line, about, options, epilog. */
void wk_cli_help(const struct wk_cli_command *cmd, FILE *out);

/* "wddmkit <name>: " and the message to stderr; returns 2 (nonzero, for a
 * handler to return). */
int wk_cli_error(const struct wk_cli_command *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A usage error found after parsing (a missing operand, options that do
 * not go together): the message and the "try" line; returns 2. */
int wk_cli_usage_error(const struct wk_cli_command *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* arg->value as a whole number in [min, max] (decimal, or hex after 0x;
 * no sign, no spaces, no suffix) into *out: 0, or 2 after saying which
 * option and what it expected. */
int wk_cli_number(const struct wk_cli_arg *arg, uint64_t min, uint64_t max, uint64_t *out);

/* The same for a decimal number ("0.5", "60"), finite, in [min, max]
 * (seconds, percentages). */
int wk_cli_decimal(const struct wk_cli_arg *arg, double min, double max, double *out);

/* "Did you mean": the one candidate word is a prefix of, else the
 * candidate fewest edits from word (at most 2, and fewer than word's
 * length); NULL when none is close. */
const char *wk_cli_suggest(const char *word, const char *const *candidates, size_t count);

/* A command made of subcommands: `wddmkit <group> <word> ...`. */
struct wk_cli_subcommand {
    const char *word;                   /* "disasm" */
    const struct wk_cli_command *cmd;   /* its usage line, for the group's help */
    int (*run)(int argc, char **argv);  /* the arguments after the word */
};

/*
 * Runs the subcommand argv[0] names, with the arguments after it. No
 * word, or an unknown one (with "did you mean"): a usage error, exit 2.
 * "help", -h, --help: the group's help to stdout (every subcommand's usage
 * line, then about), exit 0.
 */
int wk_cli_dispatch(const char *group, const char *about, const struct wk_cli_subcommand *subs, size_t count,
                    int argc, char **argv);

/* The group's help text. */
void wk_cli_group_help(const char *group, const char *about, const struct wk_cli_subcommand *subs, size_t count,
                       FILE *out);

/* getopt_long's tables from an option table (with -h/--help added):
 * longopts (room for WK_CLI_MAX_OPTIONS + 2 entries) and the optstring
 * ("-:" first: operands in order, ':' on a missing value). 0, or -1 when
 * the table is larger than WK_CLI_MAX_OPTIONS or optstring too small. */
int wk_cli_getopt_tables(const struct wk_cli_option *options, struct option *longopts, char *optstring,
                         size_t optstring_size);

/*
 * Where -h/--help goes. NULL (always, but for the manual's writer): the
 * help text to stdout. The writer of the manual page and of the shell
 * completion (cli_manual.c) points it at a sink for a moment and asks every
 * command for its help, so the tables it is handed are the very ones the
 * help text is printed from: the manual cannot tell of an option the
 * command lacks, nor miss one it has.
 */
struct wk_cli_help_sink {
    void (*command)(void *ctx, const struct wk_cli_command *cmd);
    void (*group)(void *ctx, const char *group, const char *about, const struct wk_cli_subcommand *subs,
                  size_t count);
    void *ctx;
};
extern const struct wk_cli_help_sink *wk_cli_help_sink;

#endif
