/* SPDX-License-Identifier: MIT */
/*
 * kit_dirs.c - where the running kit keeps its data (specs/, corpus/,
 * harnesses/<harness>.dict) and its builds by name (<name>/cli/wddmkit,
 * <name>/fuzz/<harness>), found at run time (util.h).
 *
 * Why at run time: the command used to have the checkout's paths compiled
 * in, so a moved checkout or an installed copy looked for its specs where
 * the sources had been ("cannot open specs"). Now, in this order:
 *   1. WDDMKIT_DATA_DIR, when set and not empty: the user's word;
 *   2. a build tree: CMake writes WK_BUILD_TREE_FILE into the kit's build
 *      folder (cli/CMakeLists.txt), never installed; it names the source
 *      folder relative to itself (a checkout moved with its build still
 *      works) and, second, absolutely (a build folder moved alone);
 *   3. an installed kit: <exe dir>/WK_INSTALL_DATA_REL (for bin/wddmkit,
 *      ../share/wddmkit), computed by CMake from the install folders;
 *   4. else the working directory.
 * The build tree is asked before the install layout because a build
 * folder is never installed, while <exe dir>/../.. of a build could by
 * chance hold a share/wddmkit of an installed kit.
 *
 * The compiled-in relative paths hold no checkout path: an installed
 * binary finds nothing of the source tree it was built from.
 */
#define _GNU_SOURCE /* realpath */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

#ifndef WK_INSTALL_DATA_REL /* <exe dir> to <datadir>/wddmkit (util/CMakeLists.txt) */
#define WK_INSTALL_DATA_REL "../share/wddmkit"
#endif
#ifndef WK_INSTALL_BUILDS_REL /* <exe dir> to <libexecdir>/wddmkit */
#define WK_INSTALL_BUILDS_REL "../libexec/wddmkit"
#endif
#ifndef WK_INSTALL_REPLAY_REL /* <exe dir> to <libexecdir>/wddmkit/<variant>/fuzz */
#define WK_INSTALL_REPLAY_REL "../libexec/wddmkit/default/fuzz"
#endif

/* The folder of the running executable, resolved. */
static int exe_dir(char *out, size_t cap)
{
    char self[PATH_MAX];
    if (!realpath("/proc/self/exe", self))
        return 0;
    char *slash = strrchr(self, '/');
    if (!slash)
        return 0;
    *slash = '\0';
    return wk_str_copy(out, cap, self[0] ? self : "/");
}

/* base/rel resolved into out when it is a folder. */
static int real_dir(const char *base, const char *rel, char *out, size_t cap)
{
    char joined[PATH_MAX], real[PATH_MAX];
    if (rel[0] == '/') {
        if (!wk_str_copy(joined, sizeof(joined), rel))
            return 0;
    } else if (!wk_path_join(joined, sizeof(joined), base, rel)) {
        return 0;
    }
    return wk_path_is_dir(joined) && realpath(joined, real) && wk_str_copy(out, cap, real);
}

/* Whether dir holds the kit's data: a specs/ folder. */
static int holds_data(const char *dir)
{
    char p[PATH_MAX];
    return wk_path_join(p, sizeof(p), dir, "specs") && wk_path_is_dir(p);
}

/* The source folder a build tree's WK_BUILD_TREE_FILE names, looked for in
 * the executable's folder and its parent (<build>/cli/wddmkit,
 * <build>/tests/x, <build>/fuzz/x). */
static int build_tree_source(const char *exe, char *out, size_t cap)
{
    char dir[PATH_MAX];
    if (!wk_str_copy(dir, sizeof(dir), exe))
        return 0;
    for (int level = 0; level < 2; level++) {
        char file[PATH_MAX], text[2 * PATH_MAX + 4];
        if (wk_path_join(file, sizeof(file), dir, WK_BUILD_TREE_FILE) && wk_file_head(file, text, sizeof(text)) > 0) {
            char *second = strchr(text, '\n');
            if (second)
                *second++ = '\0';
            if (text[0] && real_dir(dir, text, out, cap) && holds_data(out))
                return 1;
            if (second) {
                second[strcspn(second, "\n")] = '\0';
                if (second[0] && real_dir(dir, second, out, cap) && holds_data(out))
                    return 1;
            }
        }
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir)
            break;
        *slash = '\0';
    }
    return 0;
}

enum wk_kit_origin wk_kit_data_dir(char *out, size_t cap)
{
    const char *env = getenv("WDDMKIT_DATA_DIR");
    if (env && *env)
        return wk_str_copy(out, cap, env) ? WK_KIT_FROM_ENV : WK_KIT_NOWHERE;
    char exe[PATH_MAX];
    if (exe_dir(exe, sizeof(exe))) {
        if (build_tree_source(exe, out, cap))
            return WK_KIT_BUILD_TREE;
        if (real_dir(exe, WK_INSTALL_DATA_REL, out, cap) && holds_data(out))
            return WK_KIT_INSTALLED;
    }
    wk_str_copy(out, cap, ".");
    return WK_KIT_NOWHERE;
}

int wk_kit_is_checkout(const char *dir)
{
    char p[PATH_MAX];
    return wk_path_join(p, sizeof(p), dir, "harnesses/CMakeLists.txt") && wk_path_is_regular(p);
}

int wk_kit_builds_dir(char *out, size_t cap)
{
    char data[PATH_MAX], exe[PATH_MAX];
    enum wk_kit_origin from = wk_kit_data_dir(data, sizeof(data));
    int have_exe = exe_dir(exe, sizeof(exe));
    /* A checkout's builds: build/<preset>/ (a build tree, or
     * WDDMKIT_DATA_DIR naming a checkout). */
    if (from != WK_KIT_INSTALLED && wk_kit_is_checkout(data) && real_dir(data, "build", out, cap))
        return 1;
    if (have_exe && from != WK_KIT_BUILD_TREE && real_dir(exe, WK_INSTALL_BUILDS_REL, out, cap))
        return 1;
    out[0] = '\0';
    return 0;
}

int wk_kit_replay_dir(char *out, size_t cap)
{
    const char *env = getenv("WK_REPLAY_DIR");
    if (env && *env)
        return wk_str_copy(out, cap, env);
    char exe[PATH_MAX];
    if (!exe_dir(exe, sizeof(exe)))
        return 0;
    /* A build's cli/ and fuzz/ are siblings, in a build tree and in an
     * installed instrumented build (<libexecdir>/wddmkit/<name>/). */
    if (real_dir(exe, "../fuzz", out, cap))
        return 1;
    if (real_dir(exe, WK_INSTALL_REPLAY_REL, out, cap))
        return 1;
    return wk_path_join(out, cap, exe, "../fuzz"); /* what the messages name */
}
