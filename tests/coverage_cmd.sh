#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/coverage_cmd.sh - ctest cli.coverage: `wddmkit coverage` on driver
# modules built here with clang's source-based coverage.
#
# Checks:
#   1. buggy_render_index built with -fprofile-instr-generate
#      -fcoverage-mapping: the committed fuzz_render seeds and regression
#      cover its source file, and the report files are written; the kit's
#      headers are left out, and in with --all-files;
#   2. the counts come from the inputs: one empty input covers fewer lines
#      of the driver than the corpus, and --fail-under turns that into
#      exit 1 (0 with --fail-under 0);
#   3. a module without coverage mapping: exit 2 with the build flags;
#   4. a driver that ends the process on one input (_exit in Render): with
#      --batch 1 only that input's coverage is lost, said in a note, and
#      the report of the others is written (exit 0); an input with the same
#      bytes as another is left out;
#   5. usage errors exit 2;
#   6. without INPUT, the inputs are also the campaigns of the working
#      directory as `wddmkit fuzz` lays them out: an AFL++ campaign's
#      corpus and fuzz-out/NAME-afl/afl/<instance>/queue (it looked for
#      fuzz-out/NAME-afl/<instance>/queue, where nothing writes);
#   7. a coverage module that does not load (the kit's GPU library left
#      out: undefined symbol wk_gpu_...) is refused before any input runs,
#      with the loader's reason and a build line that links libwk_gpu.a.
#
# Usage: coverage_cmd.sh WDDMKIT SOURCE_DIR "REFDRIVER_STATIC_LIB GPU_LIB" WORK_DIR
# Exit 77 (skipped) without clang, llvm-profdata or llvm-cov.
set -u
wddmkit=$1 src=$2 reflib=$3 work=$4
for tool in clang llvm-profdata llvm-cov; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "coverage_cmd: $tool is not on PATH (Debian: apt-get install clang llvm): skipped"
        exit 77
    fi
done
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf "$work" && mkdir -p "$work" || exit 1
out=$work/out.txt

# module NAME SOURCE [FLAGS...]: a driver module like examples/drivers/'s.
module() {
    local name=$1 source=$2
    shift 2
    clang -std=c11 -O1 -fPIC -shared -fvisibility=hidden "$@" -I"$src/include" -I"$src/reference-impl" -I"$src/examples/drivers" \
        "$source" $reflib -Wl,--exclude-libs,ALL -o "$work/$name.so" # reflib: two archives
}
cov_flags=(-fprofile-instr-generate -fcoverage-mapping)
module covered "$src/examples/drivers/buggy_render_index.c" "${cov_flags[@]}" || exit 1
module plain "$src/examples/drivers/buggy_render_index.c" || exit 1
module exiting "$src/tests/coverage/exit_in_render.c" "${cov_flags[@]}" || exit 1

# lines_hit LCOV FILE_SUFFIX: LH of that file's record.
lines_hit() {
    awk -v f="$2" '/^SF:/ { on = index($0, f) > 0 } on && /^LH:/ { sub(/^LH:/, ""); print; exit }' "$1"
}

# 1. The corpus.
"$wddmkit" coverage --harness fuzz_render --driver "$work/covered.so" --out "$work/all" >"$out" 2>&1
status=$?
if [ "$status" -ne 0 ] || ! grep -q "buggy_render_index.c" "$out" || ! grep -q "^total: " "$out"; then
    fail "the corpus: exit $status, expected 0 with a row for buggy_render_index.c and a total:"
    cat "$out"
fi
for f in report.txt coverage.lcov html/index.html; do
    [ -s "$work/all/$f" ] || fail "the corpus: $work/all/$f was not written"
done
[ -e "$work/all/never-run.txt" ] || fail "the corpus: never-run.txt was not written" # empty when every function ran
all_hit=$(lines_hit "$work/all/coverage.lcov" buggy_render_index.c)
[ -n "$all_hit" ] && [ "$all_hit" -gt 0 ] || fail "the corpus: no line of buggy_render_index.c ran ($all_hit)"
if grep -q "^SF:.*include/wddmkit/" "$work/all/coverage.lcov"; then
    fail "the corpus: the kit's headers are in the report without --all-files"
fi
"$wddmkit" coverage --harness fuzz_render --driver "$work/covered.so" --out "$work/every" --all-files >"$out" 2>&1 ||
    fail "--all-files: exit $?"
grep -q "^SF:.*include/wddmkit/" "$work/every/coverage.lcov" || fail "--all-files: the kit's headers are not in the report"

# 2. One empty input.
: >"$work/empty.bin"
"$wddmkit" coverage --harness fuzz_render --driver "$work/covered.so" --out "$work/one" "$work/empty.bin" >"$out" 2>&1 ||
    fail "one input: exit $?"
one_hit=$(lines_hit "$work/one/coverage.lcov" buggy_render_index.c)
if [ -z "$one_hit" ] || [ -z "$all_hit" ] || [ "$one_hit" -ge "$all_hit" ]; then
    fail "one empty input covers $one_hit lines of buggy_render_index.c, the corpus $all_hit: expected fewer"
fi
"$wddmkit" coverage --harness fuzz_render --driver "$work/covered.so" --out "$work/one" --fail-under 99 "$work/empty.bin" \
    >"$out" 2>&1
status=$?
[ "$status" -eq 1 ] && grep -q "is below --fail-under 99" "$out" || fail "--fail-under 99 on one empty input: exit $status, expected 1"
"$wddmkit" coverage --harness fuzz_render --driver "$work/covered.so" --out "$work/one" --fail-under 0 "$work/empty.bin" \
    >"$out" 2>&1 || fail "--fail-under 0: exit $?"

# 3. No coverage mapping.
"$wddmkit" coverage --harness fuzz_render --driver "$work/plain.so" --out "$work/plain" >"$out" 2>&1
status=$?
[ "$status" -eq 2 ] && grep -q "has no coverage mapping" "$out" && grep -q -- "-fcoverage-mapping" "$out" ||
    { fail "a module without coverage mapping: exit $status, expected 2 naming the flags"; cat "$out"; }

# 4. A driver that ends the process on one input.
mkdir -p "$work/kill" && printf '\0\0\0\0KILLKILL' >"$work/kill/a-kill.bin" &&
    cp "$src/corpus/fuzz_render/regressions/buggy-render-index-render.bin" "$work/kill/b-render.bin" &&
    cp "$work/kill/b-render.bin" "$work/kill/c-same-bytes.bin" || exit 1
"$wddmkit" coverage --harness fuzz_render --driver "$work/exiting.so" --out "$work/exiting" --batch 1 "$work/kill" \
    >"$out" 2>&1
status=$?
if [ "$status" -ne 0 ] || ! grep -q "note: inputs 1 to 1 (.*a-kill.bin ...) ended the replay with exit status 9" "$out" ||
    ! grep -q "1 inputs ran, 1 lost" "$out" || ! grep -q "inputs: 1 with the same bytes as another left out" "$out"; then
    fail "a driver that exits: exit $status, expected 0 with the first input's batch lost, the second's kept and the third (a copy of the second) left out"
    cat "$out"
fi
exit_hit=$(lines_hit "$work/exiting/coverage.lcov" exit_in_render.c)
[ -n "$exit_hit" ] && [ "$exit_hit" -gt 0 ] || fail "a driver that exits: the kept batch covered no line ($exit_hit)"

# 5. Usage errors.
for args in "" "--harness" "--harness ../x" "--harness fuzz_render --fail-under 101" \
    "--harness fuzz_render --batch 0" "--harness fuzz_render --bogus"; do
    # shellcheck disable=SC2086
    "$wddmkit" coverage $args >"$out" 2>&1
    status=$?
    [ "$status" -eq 2 ] || fail "coverage $args: exit $status, expected 2"
done
"$wddmkit" coverage --harness fuzz_render --driver "$work/covered.so" --out "$work/none" "$work/no-such-file" >"$out" 2>&1
[ $? -eq 2 ] || fail "a missing input: expected exit 2"

# 6. The campaigns of the working directory, as `wddmkit fuzz` writes them.
camp=$work/campaigns
mkdir -p "$camp/fuzz-out/fuzz_render-afl/afl/main/queue" "$camp/fuzz-out/fuzz_render-afl/corpus" || exit 1
printf 'queued' >"$camp/fuzz-out/fuzz_render-afl/afl/main/queue/id:000000,orig:x"
printf 'started' >"$camp/fuzz-out/fuzz_render-afl/corpus/seed-x"
(cd "$camp" && "$wddmkit" coverage --harness fuzz_render --driver "$work/covered.so" --out "$work/campaigns-out") \
    >"$out" 2>&1 || fail "the working directory's campaigns: exit $?"
for dir in fuzz-out/fuzz_render-afl/afl/main/queue fuzz-out/fuzz_render-afl/corpus; do
    grep -q "^inputs: $dir\$" "$out" || { fail "the default inputs leave out $dir"; cat "$out"; }
done

# 7. A module that does not load: refused before the replay.
set -- $reflib # the reference driver's archive, then the GPU model's
clang -std=c11 -O1 -fPIC -shared -fvisibility=hidden "${cov_flags[@]}" -I"$src/include" -I"$src/reference-impl" -I"$src/examples/drivers" \
    "$src/examples/drivers/buggy_render_index.c" "$1" -Wl,--exclude-libs,ALL -o "$work/nolib.so" || exit 1
"$wddmkit" coverage --harness fuzz_render --driver "$work/nolib.so" --out "$work/nolib" >"$out" 2>&1
status=$?
if [ "$status" -ne 2 ] || ! grep -q "does not load: .*undefined symbol: wk_gpu_" "$out" ||
    ! grep -q "gpu-model/libwk_gpu.a" "$out" || [ -e "$work/nolib/replay.log" ]; then
    fail "a module without the GPU library: exit $status, expected 2 with the loader's reason and libwk_gpu.a, before any replay"
    cat "$out"
fi

if [ "$fails" -ne 0 ]; then
    echo "coverage_cmd: $fails check(s) failed"
    exit 1
fi
echo "coverage_cmd: all checks passed"
