#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/fuzz_known.sh - ctest fuzz.known_signatures: findings of a known
# signature are passed over (fuzz/driver/fuzz_driver.h, WK_FUZZ_IGNORE), and
# `wddmkit fuzz` passes over those of the starting inputs it leaves out
# (fuzz/campaign/).
#
# Checks, with this build's fuzz_render_replay and buggy_render_index.so
# and the committed regression that shows its bug (MEM-GUARD-001 in
# DxgkDdiRender):
#   1. the replay binary aborts on it (exit 134) without WK_FUZZ_IGNORE,
#      with a list that names another signature, and with an entry that is
#      the rule alone;
#   2. with its signature listed (alone, among others, or followed by a
#      sanitizer's part as `wddmkit repro` prints it), every run of it ends
#      well (exit 0), is named once, and adds one to its counter in
#      WK_FUZZ_IGNORE_COUNTS (three runs: 3), not to the others';
#   3. `wddmkit fuzz --driver` (a stand-in engine that records the
#      environment it was given and runs the real replay binary on the
#      regression, as an engine's mutation would find it again): one line
#      names the signatures it passes over, those of the left-out inputs;
#      the engine gets them in WK_FUZZ_IGNORE and its counters in
#      WK_FUZZ_IGNORE_COUNTS; the summary counts the run that hit one and
#      no crash is reported;
#   4. --stop-on-known: none passed over, the engine gets no list;
#      --ignore-signature and the environment's WK_FUZZ_IGNORE still are;
#      a signature with a ';' is a usage error; a campaign whose stand-in
#      engine finds one crash names that file in its reproduce line;
#   5. with ENGINE (the build's libFuzzer fuzz_render): 1,000 mutations of
#      the regression run to the end with its signatures listed (before,
#      libFuzzer stopped at the first; then LeakSanitizer reported the
#      crashed driver's pool as a leak), and stop without them.
#
# Usage: fuzz_known.sh WDDMKIT RENDER_REPLAY BUGGY_RENDER_SO SOURCE_DIR WORK_DIR [ENGINE]
set -u
wddmkit=$1 replay=$2 buggy=$3 src=$4 work=$5 engine=${6:-}
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf "$work" && mkdir -p "$work/build/fuzz" || exit 1
out=$work/out.txt
crasher=$src/corpus/fuzz_render/regressions/buggy-render-index-render.bin
sig="MEM-GUARD-001 in DxgkDdiRender"

# counters FILE N: a file of N zeroed 8-byte counters; counter FILE I: the I-th.
counters() { head -c $(($2 * 8)) /dev/zero >"$1"; }
counter() { od -An -tu8 -j $(($2 * 8)) -N 8 "$1" | tr -d ' '; }

# replay IGNORE: the regression three times through the replay binary.
replay() {
    env -u WK_FUZZ_NO_ABORT WK_DRIVER="$buggy" WK_FUZZ_IGNORE="$1" WK_FUZZ_IGNORE_COUNTS="$work/counts" \
        "$replay" "$crasher" "$crasher" "$crasher" >"$out" 2>&1
}

# 1. Not passed over.
for list in "" "DRV-CRASH-001 (SIGSEGV) in DxgkDdiRender" "MEM-GUARD-001" "MEM-GUARD-001 in DxgkDdiRend"; do
    counters "$work/counts" 2
    replay "$list"
    status=$?
    if [ "$status" -ne 134 ] || ! grep -q "signature: $sig" "$out"; then
        fail "WK_FUZZ_IGNORE='$list': exit $status, expected 134 (SIGABRT) and the finding's signature"
        cat "$out"
    fi
done

# 2. Passed over.
for list in "$sig" "PATCH-CONFINE-001 in DxgkDdiPatch; $sig" "PATCH-CONFINE-001 in DxgkDdiPatch;$sig: AddressSanitizer: x"; do
    counters "$work/counts" 2
    replay "$list"
    status=$?
    named=$(grep -c "ignored a known signature (WK_FUZZ_IGNORE): $sig" "$out")
    at=$([ "${list#PATCH}" = "$list" ] && echo 0 || echo 1)
    if [ "$status" -ne 0 ] || [ "$named" -ne 1 ] || grep -q "FINDING" "$out" || [ "$(counter "$work/counts" "$at")" != 3 ] ||
        [ "$(counter "$work/counts" $((1 - at)))" != 0 ]; then
        fail "WK_FUZZ_IGNORE='$list': exit $status, named $named times, counters $(counter "$work/counts" 0)" \
            "$(counter "$work/counts" 1); expected 0, once, 3 at entry $at"
        cat "$out"
    fi
done

# 3. wddmkit fuzz: the stand-in engine records its environment and finds the bug again.
cat >"$work/build/fuzz/fuzz_render" <<'SH'
#!/bin/sh
for a in "$@"; do corpus=$a; done
dir=$(dirname "$corpus")
printf '%s\n' "${WK_FUZZ_IGNORE-<unset>}" >"$dir/engine-ignore.txt"
printf '%s\n' "${WK_FUZZ_IGNORE_COUNTS-<unset>}" >"$dir/engine-counts.txt"
"$(dirname "$0")/fuzz_render_replay" "$TEST_CRASHER" 2>"$dir/engine-replay.txt"
echo "replay exit $?" >>"$dir/engine-replay.txt"
printf '#2\tINITED cov: 10 ft: 12 corp: 1/1b exec/s: 0 rss: 30Mb\n' >&2
exit 0
SH
chmod +x "$work/build/fuzz/fuzz_render"
ln -s "$replay" "$work/build/fuzz/fuzz_render_replay" || exit 1
campaign() { # OUT [OPTIONS...]
    local dir=$1
    shift
    env -u WK_DRIVER TEST_CRASHER="$crasher" "$wddmkit" fuzz --harness fuzz_render --build-dir "$work/build" \
        --driver "$buggy" --out "$work/$dir" --time 1 --no-triage "$@" >"$out" 2>&1
}
campaign known
status=$?
if [ "$status" -ne 1 ] || ! grep -Eq "^ignoring [0-9]+ known signatures?: (.*; )?$sig(;|$)" "$out" ||
    ! grep -q "^  left out .*: $sig" "$out" || ! grep -q "$sig" "$work/known/engine-ignore.txt" ||
    ! grep -q "^replay exit 0" "$work/known/engine-replay.txt" ||
    ! grep -Eq "^  known     1 run hit an ignored signature:" "$out" || ! grep -Eq "^ +1  $sig$" "$out" ||
    ! grep -q "^result: no new crash; [0-9]* starting inputs\? already fails\? on this driver" "$out"; then
    fail "a campaign against the buggy driver: exit $status, expected 1 (its starting inputs fail), its signature passed over and one hit counted"
    cat "$out" "$work/known/engine-replay.txt"
fi
[ "$(cat "$work/known/engine-counts.txt")" = "$work/known/logs/known-signatures" ] ||
    fail "WK_FUZZ_IGNORE_COUNTS: '$(cat "$work/known/engine-counts.txt")', expected $work/known/logs/known-signatures"

# 3b. The left-out inputs' signatures named as known: no finding, exit 0.
set --
while IFS= read -r one; do [ -n "$one" ] && set -- "$@" --ignore-signature "$one"; done <<EOF2
$(sed -n 's/^  left out [^:]*: //p' "$out" | sort -u)
EOF2
campaign acknowledged "$@"
status=$?
set --
if [ "$status" -ne 0 ] || ! grep -q "^result: no crash" "$out" || ls "$work/acknowledged/crashes" | grep -q "^seed-"; then
    fail "a campaign with the left-out inputs' signature named: exit $status, expected 0 and no seed- file"
    cat "$out"
fi

# 4. --stop-on-known, --ignore-signature, the environment's list.
campaign stop --stop-on-known
status=$?
if [ "$status" -ne 1 ] || grep -q "^ignoring" "$out" || [ "$(cat "$work/stop/engine-ignore.txt")" != "<unset>" ] ||
    ! grep -q "^replay exit 134" "$work/stop/engine-replay.txt"; then
    fail "--stop-on-known: exit $status, expected 1 (its starting inputs fail) and nothing passed over"
    cat "$out"
fi
WK_FUZZ_IGNORE="X-ENV-001 in DxgkDdiEnv" campaign extra --stop-on-known --ignore-signature "X-OPT-001 in DxgkDdiOpt"
status=$?
if [ "$status" -ne 1 ] || ! grep -q "^ignoring 2 known signatures: X-OPT-001 in DxgkDdiOpt; X-ENV-001 in DxgkDdiEnv$" "$out" ||
    [ "$(cat "$work/extra/engine-ignore.txt")" != "X-OPT-001 in DxgkDdiOpt;X-ENV-001 in DxgkDdiEnv" ] ||
    ! grep -q "^  known     0 runs hit an ignored signature" "$out"; then
    fail "--ignore-signature and WK_FUZZ_IGNORE with --stop-on-known: exit $status"
    cat "$out"
fi
campaign bad --ignore-signature "A-001 in X; B-001 in Y"
status=$?
[ "$status" -eq 2 ] && grep -q "cannot be a signature" "$out" || { fail "a ';' in --ignore-signature: exit $status"; cat "$out"; }

# 4b. A campaign that finds one crash: the summary's reproduce line names
# that file, not FILE (an outside user was told to replace FILE when there
# was exactly one). The stand-in engine writes the crasher where libFuzzer
# writes its artifacts and exits as libFuzzer does after a crash.
mkdir -p "$work/onebuild/fuzz" || exit 1
cat >"$work/onebuild/fuzz/fuzz_render" <<'SH'
#!/bin/sh
for a in "$@"; do case $a in -artifact_prefix=*) prefix=${a#-artifact_prefix=} ;; esac; done
cp "$TEST_CRASHER" "${prefix}crash-0123456789abcdef0123456789abcdef01234567" || exit 2
printf '==1== ERROR: libFuzzer: deadly signal\n' >&2
exit 1
SH
chmod +x "$work/onebuild/fuzz/fuzz_render"
ln -s "$replay" "$work/onebuild/fuzz/fuzz_render_replay" || exit 1
env -u WK_DRIVER TEST_CRASHER="$crasher" "$wddmkit" fuzz --harness fuzz_render --build-dir "$work/onebuild" \
    --driver "$buggy" --out "$work/one" --time 1 --no-triage >"$out" 2>&1
status=$?
if [ "$status" -ne 1 ] || ! grep -Eq "^reproduce: .*/crashes/crash-0123456789abcdef0123456789abcdef01234567( |$)" "$out" ||
    grep -q "FILE" "$out"; then
    fail "a campaign with one crash: exit $status, expected 1 and a reproduce line that names the crash file"
    cat "$out"
fi

# 5. The real engine.
if [ -n "$engine" ]; then
    mkdir -p "$work/lf/corpus" "$work/lf/crashes" && cp "$crasher" "$work/lf/corpus/" || exit 1
    lf() { # ENV-ARGS...: the regression's mutations, 1,000 runs
        (cd "$work/lf" && env "$@" WK_DRIVER="$buggy" "$engine" -runs=1000 -seed=1 -artifact_prefix=crashes/ corpus \
            >"$out" 2>&1)
    }
    lf WK_FUZZ_IGNORE="$sig;DRV-CRASH-001 (SIGSEGV) in DxgkDdiRender"
    status=$?
    if [ "$status" -ne 0 ] || ! grep -q "^Done 1000 runs" "$out" || ! grep -q "ignored a known signature" "$out"; then
        fail "libFuzzer with the signatures listed: exit $status, expected 1,000 runs to the end"
        tail -40 "$out"
    fi
    lf -u WK_FUZZ_IGNORE
    status=$?
    [ "$status" -ne 0 ] || fail "libFuzzer without the signatures: exit 0, expected the crash to stop it"
fi

if [ "$fails" -ne 0 ]; then
    echo "fuzz_known: $fails check(s) failed"
    exit 1
fi
echo "fuzz_known: all checks passed"
