#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/harness_list.sh - the ctest layout.harness_list: the lists of
# harnesses still written by hand agree with the one list, fuzz/harnesses.txt
# (CMake already fails when a wk_add_fuzzer and the list differ):
#   - every harnesses/fuzz_*.c source is in the list;
#   - bench/harnesses.h and bench/CMakeLists.txt name a subset of it;
#   - `wddmkit fuzz --help` lists exactly its harnesses, in its order, with
#     their descriptions (the help reads the generated table: this checks
#     that it still does);
#   - docs/fuzzing.md (its section "The harnesses") mentions every harness;
#   - no C, header or shell file spells the whole list out again (all its
#     names within four lines), outside this script.
# Usage: harness_list.sh REPO WDDMKIT. Exit 0 pass, 1 fail.
set -u
repo=${1:?usage: harness_list.sh REPO WDDMKIT}
wddmkit=${2:?usage: harness_list.sh REPO WDDMKIT}
list=$repo/fuzz/harnesses.txt
failed=0
fail() { echo "FAIL: $*"; failed=1; }

names=$(awk '$1 !~ /^#/ && NF >= 2 { print $1 }' "$list")
[ -n "$names" ] || { echo "FAIL: $list names no harness"; exit 1; }
count=$(echo "$names" | wc -l)
listed() { echo "$names" | grep -qx "$1"; }

for src in "$repo"/harnesses/fuzz_*.c; do
  h=$(basename "$src" .c)
  listed "$h" || fail "harnesses/$h.c is not in fuzz/harnesses.txt"
done

for h in $(sed -n 's/.*wk_bench_\(fuzz_[a-z0-9_]*\).*/\1/p' "$repo/bench/harnesses.h"); do
  listed "$h" || fail "bench/harnesses.h: $h is not in fuzz/harnesses.txt"
done
for h in $(sed -n 's/^ *foreach(h \(fuzz_[a-z0-9_ ]*\)).*/\1/p' "$repo/bench/CMakeLists.txt"); do
  listed "$h" || fail "bench/CMakeLists.txt: $h is not in fuzz/harnesses.txt"
done

# The help's harness lines: after "--harness NAME", indented, up to the next option.
help=$("$wddmkit" fuzz --help) || fail "wddmkit fuzz --help failed"
shown=$(echo "$help" | awk '/^  --harness NAME/ { on = 1; next } on && /^  -/ { on = 0 } on { print $1 }')
[ "$shown" = "$names" ] || fail "wddmkit fuzz --help lists '$(echo $shown)', fuzz/harnesses.txt '$(echo $names)'"
awk '$1 !~ /^#/ && NF >= 3 { $2 = ""; print }' "$list" | while read -r h description; do
  echo "$help" | grep -q "^ *$h  *$description\$" || echo "FAIL: wddmkit fuzz --help does not describe $h as in fuzz/harnesses.txt"
done | grep FAIL && failed=1

for doc in docs/fuzzing.md; do
  for h in $names; do
    grep -q "$h" "$repo/$doc" || fail "$doc does not mention the harness $h"
  done
done

# A hand-written copy of the whole list: every name, as a list item (quoted,
# or followed by ',', ':', a blank or the end of the line), within four lines.
files=$(cd "$repo" && git ls-files '*.c' '*.h' '*.sh' 2>/dev/null) ||
  files=$(cd "$repo" && find . -path ./build -prune -o \( -name '*.[ch]' -o -name '*.sh' \) -print)
for f in $files; do
  case "$f" in tests/harness_list.sh | ./tests/harness_list.sh) continue ;; esac
  awk -v names="$(echo $names)" -v n="$count" -v f="$f" '
    BEGIN { split(names, a, " ") }
    { w[NR % 4] = $0; text = w[0] "\n" w[1] "\n" w[2] "\n" w[3]; c = 0
      for (i = 1; i <= n; i++) if (text ~ ("(^|[^a-z0-9_])" a[i] "([\",: ]|$)")) c++
      if (c == n) { print "FAIL: " f ":" NR ": the whole harness list again (read fuzz/harnesses.txt)"; exit } }' \
    "$repo/$f"
done | grep FAIL && failed=1

[ "$failed" -eq 0 ] || exit 1
echo "harness lists agree with fuzz/harnesses.txt ($count harnesses)"
