#!/bin/sh
# SPDX-License-Identifier: MIT
# layout.doc_refs: every documentation citation in the tree resolves.
#
#   sh tests/doc_refs.sh ROOT
#
# Scans the code (*.c *.h *.cpp *.sh *.cmake CMakeLists.txt), README.md and
# docs/*.md under ROOT (not build/, corpus/ or .git/) and fails, listing
# FILE:LINE and the missing target, when
#   - a cited docs/PAGE.md does not exist;
#   - a cited section does not exist: docs/PAGE.md followed by a quoted
#     heading ( , "Name"  or  ("Name"  or  "Name", also on the next line
#     after a trailing comma) that no heading of the page starts with, or
#     docs/PAGE.md#anchor that is no heading's anchor (docs/README.md,
#     "Citing a page");
#   - "facts N.N" or "facts §N.N" names no section N.N of docs/wddm-facts.md;
#   - DESIGN.md or research/ is cited at all (they are not in the tree).
# POSIX sh, find, grep, sed and awk only.
set -u
ROOT=${1:?usage: doc_refs.sh ROOT}
cd "$ROOT" || exit 2
[ -d docs ] || { echo "doc_refs: $ROOT has no docs/" >&2; exit 2; }

tmp=${TMPDIR:-/tmp}/doc_refs.$$
trap 'rm -f "$tmp".*' EXIT INT TERM

# The headings of every page, outside code fences: "page<TAB>heading".
for f in docs/*.md; do
    awk -v page="$f" '
        /^```/ { fence = !fence; next }
        !fence && /^#+ / { h = $0; sub(/^#+ +/, "", h); print page "\t" h }
    ' "$f"
done >"$tmp.heads"

find . \( -path ./build -o -path ./corpus -o -path ./.git \) -prune -o -type f \
    \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.sh' -o -name '*.cmake' \
       -o -name CMakeLists.txt -o -path './README.md' -o -path './docs/*.md' \) -print |
    sed 's|^\./||' | grep -v '^tests/doc_refs\.sh$' | sort >"$tmp.files"

# shellcheck disable=SC2046
awk -v heads="$tmp.heads" '
function trim_heading(h) { gsub(/`/, "", h); return h }
function slug(h,   s) {
    s = tolower(trim_heading(h))
    gsub(/[^a-z0-9 _-]/, "", s)
    gsub(/ /, "-", s)
    return s
}
function exists(p,   line) {
    if (p in known) return known[p]
    known[p] = ((getline line < p) >= 0)
    close(p)
    return known[p]
}
function bad(what) { printf "%s:%d: %s\n", FILENAME, FNR, what; failed = 1 }
function has_section(page, name,   i, h) {
    for (i = 1; i <= nh[page]; i++) {
        h = tolower(head[page, i])
        if (index(h, tolower(name)) == 1) return 1
        sub(/^[0-9]+(\.[0-9]+)*\.? +/, "", h)
        if (index(h, tolower(name)) == 1) return 1
    }
    return 0
}
function has_anchor(page, a,   i) {
    for (i = 1; i <= nh[page]; i++)
        if (slug(head[page, i]) == a) return 1
    return 0
}
function has_fact(n,   i, h) {
    for (i = 1; i <= nh["docs/wddm-facts.md"]; i++) {
        h = head["docs/wddm-facts.md", i]
        if (index(h, n " ") == 1 || index(h, n ". ") == 1) return 1
    }
    return 0
}
# A quoted section name at the start of s (after , ( or spaces), or "".
function quoted(s) {
    if (match(s, /^`?[ \t]*,?[ \t]*\(?"[^"]+"?/)) {
        s = substr(s, 1, RLENGTH)
        sub(/^[^"]*"/, "", s)
        sub(/"$/, "", s)
        return s
    }
    return ""
}
BEGIN {
    FS = "\t"
    while ((getline line < heads) > 0) {
        split(line, f, "\t")
        h = trim_heading(f[2])
        head[f[1], ++nh[f[1]]] = h
    }
    FS = " "
}
FNR == 1 { pending = "" }
{
    line = $0
    gsub(/\\"/, "\"", line)
    if (pending != "") {
        rest = line
        sub(/^[ \t]*(\*|#|\/\/|--)?[ \t]*/, "", rest)
        name = quoted(rest)
        if (name != "" && !has_section(pending, name))
            bad(pending ": no section \"" name "\"")
        pending = ""
    }
    if (line ~ /DESIGN\.md/) bad("cites DESIGN.md, which is not in the tree")
    if (line ~ /research\//) bad("cites research/, which is not in the tree")
    s = line
    while (match(s, /docs\/[A-Za-z0-9_.-]+\.md(#[A-Za-z0-9_-]+)?/)) {
        ref = substr(s, RSTART, RLENGTH)
        s = substr(s, RSTART + RLENGTH)
        page = ref; anchor = ""
        if (index(ref, "#")) { anchor = substr(ref, index(ref, "#") + 1); page = substr(ref, 1, index(ref, "#") - 1) }
        if (!exists(page)) { bad("no file " page); continue }
        if (anchor != "" && !has_anchor(page, anchor)) bad(page ": no section with anchor #" anchor)
        name = quoted(s)
        if (name != "" && !has_section(page, name)) bad(page ": no section \"" name "\"")
        if (name == "" && s ~ /^[ \t]*,[ \t]*$/) pending = page
    }
    s = line
    while (match(s, /facts (§)?[0-9]+(\.[0-9]+)?/)) {
        n = substr(s, RSTART, RLENGTH)
        s = substr(s, RSTART + RLENGTH)
        sub(/^facts (§)?/, "", n)
        if (!has_fact(n)) bad("facts " n ": no section " n " in docs/wddm-facts.md")
    }
}
END { exit failed }
' $(cat "$tmp.files")
status=$?
if [ "$status" -ne 0 ]; then
    echo "doc_refs: unresolved documentation citations (above)" >&2
    exit 1
fi
echo "doc_refs: $(wc -l <"$tmp.files" | tr -d ' ') files, every citation resolves"
