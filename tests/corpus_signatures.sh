#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/corpus_signatures.sh - every committed regression replays to the
# signature corpus/signatures.tsv gives it, and so does each one after
# `wddmkit corpus upgrade` rewrote it from the version-1 program format
# (tests/data/corpus-v1/: the program regressions as they were committed
# before version 2).
#
#   corpus_signatures.sh WDDMKIT CORPUS DRIVERS_DIR V1_DIR SCRATCH
#
# DRIVERS_DIR holds the buggy example drivers (<name>.so); "reference" in
# the manifest is the built-in reference driver. Prints one line per
# mismatch and "corpus_signatures: all N regressions keep their signatures".
set -u
wddmkit=$1 corpus=$2 drivers=$3 v1=$4 scratch=$5
manifest=$corpus/signatures.tsv
fails=0 count=0

# The signature FILE replays to against DRIVER.
signature_of() {
    local file=$1 driver=$2 args=()
    [ "$driver" != reference ] && args=(--driver "$drivers/$driver.so")
    "$wddmkit" repro "$file" "${args[@]}" 2>&1 | sed -n 's/^signature: //p' | head -n 1
}

# Checks FILE (relative path REL in the manifest) against its manifest line.
check() {
    local file=$1 rel=$2 what=$3 line driver want seen
    line=$(awk -F'\t' -v f="$rel" '$1 == f { print; exit }' "$manifest")
    if [ -z "$line" ]; then
        echo "corpus_signatures: $rel: no line in $manifest; add one (file, driver, the signature \`wddmkit repro\` prints)"
        fails=$((fails + 1))
        return
    fi
    driver=$(printf '%s' "$line" | cut -f2)
    want=$(printf '%s' "$line" | cut -f3)
    seen=$(signature_of "$file" "$driver")
    count=$((count + 1))
    if [ "$seen" != "$want" ]; then
        echo "corpus_signatures: $rel ($what, driver $driver): expected signature '$want', seen '$seen'"
        fails=$((fails + 1))
    fi
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
    [ "$(head -c 1 "$file" | od -An -tu1 | tr -d ' ')" = 2 ] || {
        echo "corpus_signatures: $file: not rewritten in version 2"
        fails=$((fails + 1))
    }
    check "$file" "${file#"$scratch"/}" "upgraded from version 1"
done

if [ "$fails" -ne 0 ]; then
    echo "corpus_signatures: $fails problem(s)"
    exit 1
fi
echo "corpus_signatures: all $count regressions keep their signatures"
