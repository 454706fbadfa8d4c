#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/corpus_signatures.sh - every committed regression replays to the
# signature corpus/signatures.tsv gives it, and so does each one after
# `wddmkit corpus upgrade` rewrote it from the version-1 program format
# (tests/data/corpus-v1/: the program regressions as they were committed
# before version 2).
#
#   corpus_signatures.sh WDDMKIT CORPUS MODULE_DIRS V1_DIR SCRATCH
#
# MODULE_DIRS: the folders (colon-separated) that hold the example drivers
# (<name>.so) and hardware bindings (<name>_binding.so) the manifest names;
# "reference" is the built-in reference driver. A file may have several
# lines (each is checked): its signature on the reference, and on the
# driver it was found on, with that driver's binding when a fourth column
# names one (the run then passes --binding). Prints one line per mismatch
# and "corpus_signatures: all N checks keep their signatures".
set -u
wddmkit=$1 corpus=$2 dirs=$3 v1=$4 scratch=$5
manifest=$corpus/signatures.tsv
fails=0 count=0

# The first MODULE_DIRS folder's path to module NAME.so (empty: none).
module() {
    local dir
    local IFS=:
    for dir in $dirs; do
        [ -e "$dir/$1.so" ] && { echo "$dir/$1.so"; return; }
    done
}

# The signature FILE replays to against DRIVER, with BINDING (or none).
signature_of() {
    local file=$1 driver=$2 binding=$3 args=() path
    if [ "$driver" != reference ]; then
        path=$(module "$driver")
        [ -n "$path" ] || { echo "(no $driver.so in $dirs)"; return; }
        args=(--driver "$path")
    fi
    if [ -n "$binding" ]; then
        path=$(module "${binding}_binding")
        [ -n "$path" ] || { echo "(no ${binding}_binding.so in $dirs)"; return; }
        args+=(--binding "$path")
    fi
    "$wddmkit" repro "$file" "${args[@]}" 2>&1 | sed -n 's/^signature: //p' | head -n 1
}

# Checks FILE (relative path REL in the manifest) against each of its
# manifest lines.
check() {
    local file=$1 rel=$2 what=$3 lines line driver want binding seen
    lines=$(awk -F'\t' -v f="$rel" '$1 == f' "$manifest")
    if [ -z "$lines" ]; then
        echo "corpus_signatures: $rel: no line in $manifest; add one (file, driver, the signature \`wddmkit repro\` prints)"
        fails=$((fails + 1))
        return
    fi
    while IFS= read -r line; do
        driver=$(printf '%s' "$line" | cut -f2)
        want=$(printf '%s' "$line" | cut -f3)
        binding=$(printf '%s' "$line" | cut -s -f4)
        seen=$(signature_of "$file" "$driver" "$binding")
        count=$((count + 1))
        if [ "$seen" != "$want" ]; then
            echo "corpus_signatures: $rel ($what, driver $driver${binding:+, binding $binding}): expected signature '$want', seen '$seen'"
            fails=$((fails + 1))
        fi
    done <<<"$lines"
}

for file in "$corpus"/*/regressions/*.bin; do
    check "$file" "${file#"$corpus"/}" committed
done

# The version-1 files: older, upgraded, and then the same signatures.
rm -rf "$scratch" && mkdir -p "$scratch" && cp -R "$v1"/. "$scratch"/ || exit 1
"$wddmkit" corpus upgrade --corpus "$scratch" --check >/dev/null 2>&1
if [ $? -ne 1 ]; then
    echo "corpus_signatures: corpus upgrade --check did not find the version-1 files older"
    fails=$((fails + 1))
fi
"$wddmkit" corpus upgrade --corpus "$scratch" || fails=$((fails + 1))
for file in "$scratch"/*/regressions/*.bin; do
    [ "$(head -c 1 "$file" | od -An -tu1 | tr -d ' ')" = 5 ] || { # the current version (prog_codec.c)
        echo "corpus_signatures: $file: not rewritten in version 5"
        fails=$((fails + 1))
    }
    check "$file" "${file#"$scratch"/}" "upgraded from version 1"
done

if [ "$fails" -ne 0 ]; then
    echo "corpus_signatures: $fails problem(s)"
    exit 1
fi
echo "corpus_signatures: all $count checks keep their signatures"
