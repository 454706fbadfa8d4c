#!/bin/sh
# SPDX-License-Identifier: MIT
# path_refs.sh ROOT - every path of the tree that the code, the scripts and
# the docs cite ("see fuzz/gate/leak_gate.h", "harnesses/gen_dicts.c")
# exists, so a reader who follows one after a file moved is not left with
# a dangling reference (ctest layout.path_refs). A cited path is a word
# that starts with one of the kit's top-level folders and ends in a source
# or document suffix; placeholders (NAME, <harness>, *) and the scratch
# trees tests build are not paths of the tree. Prints file:line: path for
# each one missing, exit 1 if any.
root=${1:?usage: path_refs.sh ROOT}
cd "$root" || exit 2
folders='cli|conformance|fuzz|harnesses|gpu-model|reference-impl|include/wddmkit|util|tests|bench|examples|cmake|scripts|oss-fuzz|docs'
missing=$(find . \( -path ./build -o -path './build-*' -o -path ./corpus -o -path ./.git \) -prune -o -type f \
    \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.sh' -o -name '*.cmake' -o -name CMakeLists.txt \
       -o -name '*.md' -o -name '*.txt' -o -name '*.yml' -o -name Makefile \) -print |
  grep -v '^\./tests/module_graph_rule\.sh$' |
  while read -r f; do
    grep -noE "(^|[^A-Za-z0-9_./<-])($folders)/[A-Za-z0-9_./-]+\.(c|h|cpp|cmake|sh|txt|md|dict|yaml)" "$f" |
      sed -E 's/^([0-9]+):[^a-z]?/\1:/' |
      while IFS=: read -r line path; do
        case "$path" in *NAME* | *PAGE* | *'*'* | */./* | */../*) continue ;; esac
        [ -e "$path" ] || echo "${f#./}:$line: $path"
      done
  done)
if [ -n "$missing" ]; then
  echo "path_refs: these cited paths do not exist:"
  echo "$missing"
  exit 1
fi
echo "path_refs: every cited path exists"
