#!/bin/sh
# SPDX-License-Identifier: MIT
# module-graph.sh [--check] [ROOT] - the kit's module graph from its
# #include lines, and the rule it must keep (docs/architecture.md,
# "Modules and what each may use").
#
# Every `#include "X"` of a C or C++ file is resolved as the compiler would
# with the kit's include folders: the including file's folder, then each
# module root (include/, util/, gpu-model/, ...), then, for trees laid out
# before the module roots were include folders, the one file of the tree
# whose path ends in /X. An include that resolves to no file of the tree
# (a generated header, <cmocka.h> spelled with quotes) is left out.
#
# The rule, checked with --check (ctest layout.includes):
#   1. no arrow up: a module includes only modules below it, in the order
#        include < util < gpu-model < reference-impl < conformance < fuzz
#        < cli < harnesses
#      (tests/, bench/ and examples/ are leaves: they may include anything,
#      and nothing of the kit may include them);
#   2. through the front door: across modules, only a header at the other
#      module's root (its API: util/util.h, reference-impl/reference.h,
#      conformance/conformance.h, fuzz/fuzz.h, fuzz/harness.h, cli/cli.h)
#      or a driver-facing header of include/wddmkit/ (gpu-model's API is
#      include/wddmkit/gpu.h).
# Without --check it prints the graph (folder -> folder with the number of
# #include lines behind each arrow), the arrows that break the rule, the
# ten largest C files of the kit, and the small helpers written more than
# once (file-local definitions of the kinds util/ holds, and FNV-1a's
# prime outside util/): the figures of a layout change, before and after
# (run it on an old checkout with ROOT).
set -u
check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
root=${1:-.}
cd "$root" || exit 2

list=$(mktemp) || exit 2
trap 'rm -f "$list"' EXIT
find . \( -path ./build -o -path './build-*' -o -path ./corpus -o -path ./.git \) -prune -o -type f \
    \( -name '*.c' -o -name '*.h' -o -name '*.cpp' \) -print | sed 's|^\./||' | sort >"$list"

awk -v check="$check" -v listfile="$list" '
function module_of(p,   m) {
    m = p; sub(/\/.*/, "", m)
    if (m == p) return "(top)"
    return m
}
function rank_of(m) {
    if (m in rank) return rank[m]
    return -1
}
function dirname(p,   d) {
    d = p
    if (sub(/\/[^\/]*$/, "", d) == 0) return "."
    return d
}
function normalize(p,   n, parts, out, i, k) {
    n = split(p, parts, "/"); k = 0
    for (i = 1; i <= n; i++) {
        if (parts[i] == "." || parts[i] == "") continue
        if (parts[i] == ".." && k > 0 && out[k] != "..") { k--; continue }
        out[++k] = parts[i]
    }
    p = ""
    for (i = 1; i <= k; i++) p = p (i > 1 ? "/" : "") out[i]
    return p
}
function resolve(from, name,   d, c, r, i) {
    d = dirname(from)
    c = normalize((d == "." ? "" : d "/") name)
    if (c in exists) return c
    for (i = 1; i <= nroots; i++) {
        c = normalize(roots[i] "/" name)
        if (c in exists) return c
    }
    # Fallback for layouts whose include folders were subfolders: the one
    # file of the tree ending in /name.
    if ((name in by_tail) && by_tail_count[name] == 1) return by_tail[name]
    return ""
}
function is_api(target, m,   rest) {
    if (m == "include") return 1
    rest = substr(target, length(m) + 2)
    return index(rest, "/") == 0
}
BEGIN {
    split("include util gpu-model reference-impl conformance fuzz cli harnesses", order, " ")
    for (i = 1; i <= 8; i++) rank[order[i]] = i - 1
    leaf["tests"] = leaf["bench"] = leaf["examples"] = 1
    nroots = split("include util gpu-model reference-impl conformance fuzz cli harnesses reference-impl/vidmm", roots, " ")
    while ((getline f < listfile) > 0) {
        exists[f] = 1; files[++nfiles] = f
        t = f
        while (1) {
            by_tail_count[t]++; by_tail[t] = f
            if (sub(/^[^\/]*\//, "", t) == 0) break
        }
    }
    close(listfile)
    bad = 0
    for (fi = 1; fi <= nfiles; fi++) {
        f = files[fi]; src = module_of(f); lines = 0; ln = 0
        while ((getline line < f) > 0) {
            ln++; lines++
            if (line !~ /^[ \t]*#[ \t]*include[ \t]*"/) continue
            name = line; sub(/^[^"]*"/, "", name); sub(/".*/, "", name)
            target = resolve(f, name)
            if (target == "") continue
            dst = module_of(target)
            if (dst == src) continue
            edge[src " -> " dst]++
            if (src in leaf) continue
            why = ""
            if (dst in leaf) why = "includes a leaf (" dst "/)"
            else if (rank_of(src) >= 0 && rank_of(dst) >= 0 && rank_of(dst) > rank_of(src)) why = "arrow up (" src " is below " dst ")"
            else if (rank_of(src) < 0 || rank_of(dst) < 0) why = "a folder outside the module order"
            else if (!is_api(target, dst)) why = "past " dst "/'"'"'s API (" target " is not at its root)"
            if (why != "") { bad++; violation[bad] = f ":" ln ": #include \"" name "\" -> " target ": " why }
        }
        close(f)
        if (f ~ /\.c$/ && !(src in leaf)) size[f] = lines
        if (!(src in leaf) && src != "util") {
            while ((getline line < f) > 0) {
                if (line ~ /^static [a-z_ ]+\**(join|path_join|copy_str|copy_string|read_upto|read_tail|read_head|read_all|now_seconds|sleep_ms|grouped|same_file|file_digest|bytes_digest|is_executable|copy_file)\(/) {
                    h = line; sub(/\(.*/, "", h); sub(/.*[ *]/, "", h); helper[h] = helper[h] (helper[h] == "" ? "" : ", ") f
                }
                if (line ~ /0x100000001[bB]3|16777619u/) fnv[f] = 1
            }
            close(f)
        }
    }
    if (!check) {
        print "module graph: #include lines between top-level folders"
        n = 0
        for (e in edge) keys[++n] = e
        for (i = 2; i <= n; i++) { v = keys[i]; for (j = i - 1; j > 0 && keys[j] > v; j--) keys[j + 1] = keys[j]; keys[j + 1] = v }
        for (i = 1; i <= n; i++) printf "  %-36s %4d\n", keys[i], edge[keys[i]]
        print ""
        print "largest C files of the kit (lines; tests, bench and examples left out):"
        for (k = 1; k <= 10; k++) {
            best = ""; bestn = -1
            for (f in size) if (size[f] > bestn) { best = f; bestn = size[f] }
            if (best == "") break
            printf "  %6d  %s\n", bestn, best; delete size[best]
        }
        print ""
        print "small helpers written again outside util/ (name: files):"
        nh = 0
        for (h in helper) { printf "  %s: %s\n", h, helper[h]; nh++ }
        nf = 0; fl = ""
        for (f in fnv) { fl = fl (nf ? ", " : "") f; nf++ }
        if (nf) { printf "  FNV-1a: %s\n", fl; nh++ }
        if (!nh) print "  none"
        print ""
    }
    printf "rule (docs/architecture.md): %d include%s it\n", bad, bad == 1 ? " breaks" : "s break"
    for (i = 1; i <= bad; i++) print "  " violation[i]
    if (check && bad) exit 1
}
' </dev/null
