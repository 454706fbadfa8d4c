/* SPDX-License-Identifier: MIT */
/*
 * cli.h - subcommands of the `wddmkit` command line and their helpers.
 */
#ifndef WK_CLI_H
#define WK_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"
#include "wddmkit/status.h"

/* The whole command line: argv[0] is the program's name, argv[1] the
 * command (cli_main.c). Returns the exit code. */
int wk_cli_main(int argc, char **argv);

/* Set by the fuzz_cli harness (harnesses/fuzz_cli.c): every command returns 0
 * once its arguments are parsed and checked, before it reads an input,
 * writes a file, starts a process or runs anything. Usage errors still
 * print and return 2. */
extern int wk_cli_parse_only;

/* fuzz_cli's input format: text[0, size) (text[size] must be '\0') as the
 * arguments after "wddmkit", separated by NUL bytes, into argv[0, the
 * returned argc) with argv[0] = "wddmkit" and argv[argc] = NULL; at most
 * max_args arguments (argv holds max_args + 2 pointers). No bytes: none. */
int wk_cli_split_args(char *text, size_t size, char **argv, int max_args);

/* The folders the commands default to (cli_data.c, over util's
 * wk_kit_data_dir): the kit's data root (its origin in *from when not
 * NULL), its specs/, the checkout it is (NULL for an installed kit or a
 * WDDMKIT_DATA_DIR that is not one: `promote` and `corpus` then write
 * under the working directory), and the folder of its builds by name
 * (NULL: none). Found once per process. */
const char *wk_cli_data_dir(enum wk_kit_origin *from);
const char *wk_cli_specs_dir(void);
const char *wk_cli_checkout(void);
const char *wk_cli_builds_dir(void);
/* How the data root was found, for `wddmkit version`. */
const char *wk_cli_origin_text(enum wk_kit_origin from);

/* The commands `wddmkit` dispatches, each with its lines of `wddmkit help`
 * (the usage after the command's name, and what it does: more lines after
 * '\n'); a command of subcommands has a line for each. In `wddmkit help`'s
 * order; *count entries (cli_main.c). */
struct wk_cli_help_line {
    const char *usage, *summary;
};
struct wk_cli_top_command {
    const char *name;
    int (*run)(int argc, char **argv); /* the arguments after the command word */
    struct wk_cli_help_line help[3];
};
const struct wk_cli_top_command *wk_cli_commands(size_t *count);
/* What wddmkit is, in a line ("fuzzing and conformance tests for ..."), and
 * the closing paragraph of `wddmkit help`. */
extern const char wk_cli_tagline[];
extern const char wk_cli_closing[];

/* `wddmkit help --man` and `wddmkit help --completion bash`: the manual
 * page (roff, man(7)) and a bash completion script, written from the help
 * text of every command (cli_manual.c). 0, or 1 after saying why to stderr. */
int wk_cli_write_manual(FILE *out);
int wk_cli_write_bash_completion(FILE *out);

/* `wddmkit gpu SUBCOMMAND ...`; argv[0] is the subcommand. */
int wk_cli_gpu(int argc, char **argv);

/* `wddmkit rules [--markdown]`; argv holds the arguments after "rules". */
int wk_cli_rules(int argc, char **argv);



/* `wddmkit spec lint|dump|mutations ...`; argv holds the arguments after "spec". */
int wk_cli_spec(int argc, char **argv);

/* `wddmkit conform [options] [SPEC|DIR...]`: run specs as isolated cases
 * (cli_conform.c); argv holds the arguments after "conform". */
int wk_cli_conform(int argc, char **argv);

/* `wddmkit results baseline|diff|merge ...`: the JSON reports of conform
 * between runs (cli_results.c over conformance/results/); argv holds the
 * arguments after "results". */
int wk_cli_results(int argc, char **argv);

/* `wddmkit fuzz --harness NAME [options]`: a fuzzing campaign with libFuzzer
 * or AFL++ (cli_fuzz.c parses, fuzz/campaign/ runs it); argv holds the
 * arguments after "fuzz". */
int wk_cli_fuzz(int argc, char **argv);

/* Crash reproduction and regressions (cli_prog.c, cli_repro.c,
 * cli_minimize.c, cli_promote.c, cli_triage.c over fuzz/crash/); argv
 * holds the arguments after the command word: `prog dump FILE`,
 * `repro FILE ...`, `minimize FILE ...`, `promote FILE ...`,
 * `triage DIR ...`. */
int wk_cli_prog(int argc, char **argv);
int wk_cli_repro(int argc, char **argv);
int wk_cli_minimize(int argc, char **argv);
int wk_cli_promote(int argc, char **argv);
int wk_cli_triage(int argc, char **argv);

/* `wddmkit coverage --harness NAME [--driver PATH] ...`: which lines and
 * functions of a driver a harness's inputs reach (cli_coverage.c); argv
 * holds the arguments after "coverage". */
int wk_cli_coverage(int argc, char **argv);

/* `wddmkit corpus seed [--specs DIR] [--out DIR] [--check]`: the seed
 * corpora of the driver harnesses from YAML specs (cli_corpus.c); argv
 * holds the arguments after "corpus". */
int wk_cli_corpus(int argc, char **argv);

/* A driver module and this build (driver_probe.c, cli_driver.c, hand_over.c). */
enum wk_cli_driver_load {
    WK_CLI_DRIVER_LOADS,         /* loads, exports DriverEntry */
    WK_CLI_DRIVER_NEEDS_RUNTIME, /* an undefined symbol of a sanitizer or coverage runtime */
    WK_CLI_DRIVER_REFUSED,       /* any other reason it does not load */
    WK_CLI_DRIVER_CRASHED,       /* its constructors crashed */
    WK_CLI_DRIVER_HUNG,          /* DRV-HANG-001: loading or DriverEntry took longer than a DDI call may
                                    (WK_VIDMM_DDI_TIMEOUT_MS, or --load-timeout); everything the probe
                                    started was killed */
};

/* --load-timeout S, which every command that loads a --driver takes: how
 * long loading the module and its DriverEntry may take in the probe (default
 * a DDI call's, WK_VIDMM_DDI_TIMEOUT_MS). The option's table entry, the key
 * given by the command. */
#define WK_CLI_OPT_LOAD_TIMEOUT(key)                                                   \
    { "load-timeout", key, WK_CLI_VALUE, "S",                                          \
      "seconds the driver may take to load and run DriverEntry (default 5)" }
struct wk_cli_arg;
/* Its value: 0, or 2 after saying what is wrong with it. */
int wk_cli_load_timeout_arg(const struct wk_cli_arg *a);
/* Its value from a whole command line, before the command parses it (the
 * hand-over's probe); a bad value is left to the command. */
void wk_cli_load_timeout_from_argv(int argc, char **argv);

/* Loads path in a forked child, and runs its DriverEntry there, within the
 * timeout of a DDI call; why gets the loader's reason (empty when it
 * loads). A module that hung is not loaded again in this process: the
 * same verdict is returned at once. */
enum wk_cli_driver_load wk_cli_driver_probe(const char *path, char *why, size_t cap);
/* The same, and what it learned of the driver's DDI table when it loads
 * (its interface version, the DDIs it fills that the kit never calls,
 * after WK_CLI_PATCH_LEFT what a NULL DxgkDdiPatch means when only its
 * contexts can say whether it is needed, and after WK_CLI_DDIS_MISSING, to
 * the end, the DDIs it leaves NULL that the kernel calls on every adapter
 * that renders) in info ("" when DriverEntry never handed one). */
#define WK_CLI_PATCH_LEFT "; DxgkDdiPatch is NULL: "
#define WK_CLI_DDIS_MISSING "; it leaves NULL "
enum wk_cli_driver_load wk_cli_driver_probe_info(const char *path, char *why, size_t cap, char *info, size_t info_cap);

/* Whether the module at path declares that it targets the GPU model
 * (WK_DRIVER_TARGETS_GPU_MODEL, driver.h), asked in a forked child: 1 yes,
 * 0 no, -1 it could not be asked. */
int wk_cli_driver_declares_model(const char *path);
/* The same for WK_DRIVER_READS_KIT_UMD (driver.h). */
int wk_cli_driver_declares_kit_umd(const char *path);
/* The hardware binding (binding.h) the module at path exports, found and
 * checked in a child process (its constructors run there): -1 refused or
 * not loadable (desc says why), 0 none exported (quietly, when
 * from_driver: a driver module need not export one), else
 * WK_CLI_BINDING_FOUND with a bit per part it provides, and desc the line
 * wk_vidmm_binding_describe gives. */
#define WK_CLI_BINDING_FOUND 0x1
#define WK_CLI_BINDING_PROCESSOR 0x2
#define WK_CLI_BINDING_ENCODER 0x4
#define WK_CLI_BINDING_REGISTERS 0x8
#define WK_CLI_BINDING_DISASM 0x10
int wk_cli_binding_probe(const char *path, int from_driver, char *desc, size_t cap);

/* Whether the wddmkit at exe loads the driver module (`exe driver check
 * driver` exits 0): whether that build can run it. */
int wk_cli_build_loads_driver(const char *exe, const char *driver);

/* The first other wddmkit build that loads driver, a module that needs a
 * runtime this build lacks (the builds wk_cli_hand_over tries, in its
 * order), into exe: 1, or 0 when none does. Never from a build that was
 * itself asked by another (no probe of a probe). */
int wk_cli_build_for_driver(const char *driver, char *exe, size_t exe_size);

/* `wddmkit driver check PATH`; argv holds the arguments after "driver". */
int wk_cli_driver(int argc, char **argv);
/* `wddmkit binding check PATH` (cli_binding.c). */
int wk_cli_binding(int argc, char **argv);

/* The whole command line (as wk_cli_main's): when its command loads a
 * --driver that needs a runtime this build lacks, runs the same command
 * line in the first wddmkit build that loads the driver (does not return)
 * or prints why none can and returns 2. -1: nothing to hand over. Called
 * by the executable's main only (never in fuzz_cli). */
int wk_cli_hand_over(int argc, char **argv);

/* Which driver module a report judged (driver_identity.c): the SHA-256 of
 * its file (64 lower-case hex digits) and its GNU build-id (hex; "" when
 * the file has no NT_GNU_BUILD_ID note). 0, or -1 when the file cannot be
 * read (why says so; *out is then all empty). */
struct wk_cli_driver_identity {
    char sha256[65];
    char build_id[2 * 64 + 1];
};
int wk_cli_driver_identity(const char *path, struct wk_cli_driver_identity *out, char *why, size_t cap);
/* SHA-256 of data[0, size) as 64 lower-case hex digits. */
void wk_cli_sha256_hex(const void *data, size_t size, char out[65]);

/* The kit's git commit, read when the build was configured
 * (build_info.c.in): 40 hex digits, or "unknown" for a build outside git. */
extern const char wk_cli_kit_commit[];


#endif
