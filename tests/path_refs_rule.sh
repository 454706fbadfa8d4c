#!/bin/sh
# SPDX-License-Identifier: MIT
# path_refs_rule.sh TESTS_DIR - path_refs.sh names a cited path that does
# not exist, with the file and line that cite it, and passes over one that
# does (ctest layout.path_refs_catches). The paths are spelt from pieces
# here so that this file cites none itself.
check=${1:?usage: path_refs_rule.sh TESTS_DIR}/path_refs.sh
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
top=fuzz
page=docs
mkdir -p "$work/$top" "$work/$page"
: >"$work/$top/here.c"
printf 'intro\nsee %s/gone.c and %s/here.c\n' "$top" "$top" >"$work/$page/a.md"
out=$(sh "$check" "$work")
rc=$?
fail() { echo "$out"; echo "path_refs_rule: $*"; exit 1; }
[ "$rc" -eq 1 ] || fail "exit $rc, expected 1"
echo "$out" | grep -q "^$page/a.md:2: $top/gone.c\$" || fail "the missing path was not named with its line"
! echo "$out" | grep -q "here.c" || fail "an existing path was named"
rm "$work/$page/a.md"
sh "$check" "$work" >/dev/null || fail "a tree with no dangling path was refused"
echo "path_refs_rule: all checks passed"
