/* SPDX-License-Identifier: MIT */
/*
 * campaign.h - `wddmkit fuzz` as a library: a fuzzing campaign on one
 * harness with libFuzzer or AFL++, from finding the harness binary to the
 * summary (campaign.c says what happens in which order, and which file of
 * campaign/ does what).
 *
 * The command line (cli/cli_fuzz.c) fills a struct wk_campaign_options and
 * calls wk_campaign_run; everything the campaign needs from outside (the
 * checkout root, the options) arrives in that struct, so nothing here knows
 * the command line.
 */
#ifndef WK_FUZZ_CAMPAIGN_H
#define WK_FUZZ_CAMPAIGN_H

#include <stddef.h>
#include <stdint.h>

#define WK_CAMPAIGN_MAX_JOBS 64u     /* engine processes / AFL++ instances */
#define WK_CAMPAIGN_MAX_EXTRA 64     /* engine arguments after `--` */
#define WK_CAMPAIGN_MAX_SEED_DIRS 8  /* --seeds options */
#define WK_CAMPAIGN_MAX_KNOWN 64     /* known signatures passed to the harness (fuzz/driver/internal.h's bound) */
#define WK_CAMPAIGN_SIG_TEXT 400     /* a signature (wk_fuzz_signature's, or a sanitizer's line) */

enum wk_campaign_engine { WK_CAMPAIGN_LIBFUZZER, WK_CAMPAIGN_AFL };

/* What the command line asked for (`wddmkit fuzz --help` says what each
 * option means). Strings are borrowed: they must outlive the run. */
struct wk_campaign_options {
    const char *harness, *driver, *out, *build_dir;
    /* --binding: the driver's hardware binding module (WK_BINDING), "none"
     * for no binding; NULL: the driver module's own export, if any. */
    const char *binding;
    /* The kit's data whose corpus/ and harnesses/ (the dictionaries) the
     * campaign uses: a checkout, or an installed kit's share/wddmkit (the
     * command line passes the one it found); "." is tried when it holds
     * neither. NULL: "." only. */
    const char *repo_dir;
    /* The folder of the kit's builds by name, where the default harness
     * binaries are (<builds_dir>/<preset>/fuzz/<harness>): a checkout's
     * build/, an installed kit's libexec/wddmkit. NULL: <repo>/build. */
    const char *builds_dir;
    /* This wddmkit's commit (`wddmkit version`): a build of another
     * commit is not taken (wk_campaign_same_kit). NULL: not checked. */
    const char *kit_commit;
    enum wk_campaign_engine engine;
    uint64_t jobs, time, max_len, timeout, rss_limit;
    int max_len_set, dry_run, no_triage, prune, keep_seeds, stop_on_known;
    const char *seed_dirs[WK_CAMPAIGN_MAX_SEED_DIRS];
    int seed_dir_count;
    const char *ignore[WK_CAMPAIGN_MAX_KNOWN]; /* --ignore-signature */
    int ignore_count;
    char **extra; /* after `--`, to the engine unchanged */
    int extra_count;
};

/* Runs the campaign (or, with prune, shrinks its corpus; with dry_run,
 * prints what would run). Returns the exit code: 0 no crash, 1 crashes
 * found, 2 a setup error (including an engine that failed without finding
 * anything). Prints its own messages. */
int wk_campaign_run(const struct wk_campaign_options *o);

/*
 * Whether the wddmkit at `exe` is of commit `commit` (what its `version`
 * prints): 1 yes, 0 no (its commit in theirs, "unknown" when it says
 * none). A build of another commit judges with other code (a program
 * format, a rule, how a step program is judged), so its verdicts are not
 * this wddmkit's: a build left behind by a checkout that moved on blamed a
 * correct driver where the current build passed it. WK_ANY_BUILD=1 in the
 * environment says yes to any build (the caller then says which it runs).
 */
int wk_campaign_same_kit(const char *exe, const char *commit, char *theirs, size_t cap);

/* Whether s can be a harness name or an AFL++ instance folder in a path:
 * 1 to 64 letters, digits, '_' and '-'. */
int wk_campaign_name_ok(const char *s);


#endif
