#!/bin/sh
# SPDX-License-Identifier: MIT
# fuzz/check_ignorelist.sh - whether a fuzzing build really leaves every
# file that fuzz/coverage-ignorelist.txt names without coverage
# instrumentation (ctest fuzz.ignorelist_applies, in the libfuzzer, afl and
# bench-libfuzzer presets).
#
# Why: neither engine says when a `src:` entry matches nothing. AFL++ 4.04c
# ignored every entry of the form clang needs (the list says why), and the
# AFL++ harnesses counted the kit's state reuse as coverage for as long.
#
# How: each listed file is compiled to LLVM IR with its own command from
# the build's compile_commands.json (the engine's compiler, flags and
# instrumentation), the list swapped for LIST, and the IR is read for
# functions that carry coverage (they reference a __sancov_gen_ guard or
# counter array) and whose debug information places them in that file.
# Functions inlined from headers belong to the headers and may stay
# instrumented. Prints each offender; exit status 1 if any (or if nothing
# could be checked), 0 otherwise.
#
# Usage: check_ignorelist.sh BUILD_DIR LIST SOURCE_ROOT
#   LIST: the list to try (the build's own, or another to compare)
set -u
build=$1 list=$2 root=$3
db=$build/compile_commands.json
configured=$root/fuzz/coverage-ignorelist.txt
[ -f "$db" ] || { echo "no $db (configure with CMAKE_EXPORT_COMPILE_COMMANDS=ON)"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The compile command of a file (the first of its entries), unescaped.
command_of() {
    awk -v want="$root/$1" '
        /"command":/ { cmd = $0; sub(/^[^"]*"command": "/, "", cmd); sub(/",?$/, "", cmd) }
        /"file":/ { f = $0; sub(/^[^"]*"file": "/, "", f); sub(/",?$/, "", f)
                    if (f == want) { gsub(/\\"/, "\"", cmd); print cmd; exit } }' "$db"
}

bad=0
checked=0
for f in $(sed -n 's/^src:\(\*\/\)\{0,1\}\([^*].*\)$/\2/p' "$list" | sort -u); do
    cmd=$(command_of "$f")
    if [ -z "$cmd" ]; then
        echo "listed, but not compiled in this build: $f"
        continue
    fi
    ir=$tmp/out.ll
    # IR instead of an object, no dependency file, LIST instead of the list
    # the build was configured with.
    cmd=$(printf '%s\n' "$cmd" | sed -e "s# -o [^ ]*# -o $ir -S -emit-llvm#" -e 's# -MD##' \
        -e 's# -MT [^ ]*##' -e 's# -MF [^ ]*##' -e "s#$configured#$list#g")
    # AFL++ reads the list from the environment (the build sets it with a
    # compiler launcher, which compile_commands.json does not record).
    if ! (cd "$build" && export AFL_LLVM_DENYLIST="$list" AFL_QUIET=1 && eval "$cmd") >"$tmp/err" 2>&1 || [ ! -s "$ir" ]; then
        echo "cannot compile $f:"
        cat "$tmp/err"
        bad=1
        continue
    fi
    checked=$((checked + 1))
    awk -v want="$f" '
        /^define / {
            infn = 1; hit = 0; name = $0
            sub(/^[^@]*@/, "", name); sub(/\(.*/, "", name)
            d = ""
            if (match($0, /!dbg ![0-9]+/)) d = substr($0, RSTART + 6, RLENGTH - 6)
            next
        }
        infn && /__sancov_gen_/ { hit = 1 }
        infn && /^}/ { if (hit && d != "") inst[d] = name; infn = 0 }
        /^![0-9]+ = distinct !DISubprogram\(/ {
            id = substr($1, 2)
            if (match($0, /file: ![0-9]+/)) file[id] = substr($0, RSTART + 7, RLENGTH - 7)
        }
        /^![0-9]+ = !DIFile\(/ {
            id = substr($1, 2)
            if (match($0, /filename: "[^"]*"/)) fname[id] = substr($0, RSTART + 11, RLENGTH - 12)
        }
        END {
            n = 0
            for (d in inst) {
                g = fname[file[d]]
                if (g == want || substr(g, length(g) - length(want)) == "/" want) {
                    print "instrumented despite the list: " want ": " inst[d]
                    n++
                }
            }
            exit n > 0
        }' "$ir" || bad=1
done
if [ "$checked" -eq 0 ]; then
    echo "no listed file could be checked"
    exit 1
fi
[ "$bad" -eq 0 ] && echo "each of the $checked listed files is left without coverage instrumentation"
exit "$bad"
