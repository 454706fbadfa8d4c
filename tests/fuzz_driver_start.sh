#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/fuzz_driver_start.sh - ctest cli.fuzz_driver_start: what `wddmkit
# fuzz --driver X` checks before the engine starts (fuzz/campaign/).
#
# A stand-in build (fuzz/fuzz_patch: an engine that lists the corpus it was
# given and exits; fuzz/fuzz_patch_replay: this build's real replay binary)
# and this build's examples/drivers/buggy_patch_offset.so, whose bug the
# committed regression and two seeds show:
#   1. the starting inputs are replayed against the driver first, and those
#      that crash it are left out of corpus/, one line each with the
#      signature and a total (after `wddmkit promote`, every libFuzzer
#      campaign against the buggy driver stopped at 0 s on them); the
#      engine starts from the rest;
#   2. --keep-crashing-seeds keeps them;
#   3. the reference driver as a module: every input checked, none left out;
#   4. a module without the engine's instrumentation gets a warning on the
#      console before the campaign, for libFuzzer and AFL++ (it was only in
#      libFuzzer's log, and AFL++ said nothing); one with it gets none;
#   5. a stand-in replay binary that reports a finding for one --seeds
#      input, dies of SIGSEGV in another and hangs in a third: each is left
#      out with what happened (the replay is started again after the input
#      it died or hung in), the inputs around them are kept; the finding's
#      signature reads as `wddmkit triage` gives it ("finding: ...");
#   6. the output folder notes the campaign (campaign.txt: its harness and
#      driver), and `wddmkit triage` of its crashes/ without --driver
#      triages with that driver and says so (it replayed them on the
#      reference driver: all a pass), the harness from the note too (the
#      --out folder names none); `wddmkit repro` of one names the driver.
#
# Usage: fuzz_driver_start.sh WDDMKIT PATCH_REPLAY BUGGY_PATCH_SO REFDRIVER_SO WORK_DIR
set -u
wddmkit=$1 replay=$2 buggy=$3 refdriver=$4 work=$5
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf "$work" && mkdir -p "$work/build/fuzz" "$work/afl/fuzz" || exit 1
out=$work/out.txt

# The engine stand-in writes the names of its corpus (its last argument).
cat >"$work/build/fuzz/fuzz_patch" <<'SH'
#!/bin/sh
for a in "$@"; do corpus=$a; done
ls "$corpus" >"$(dirname "$corpus")/engine-saw.txt"
exit 0
SH
chmod +x "$work/build/fuzz/fuzz_patch"
ln -s "$replay" "$work/build/fuzz/fuzz_patch_replay" || exit 1
printf '#!/bin/sh\n# __AFL_SHM_ID\nexit 0\n' >"$work/afl/fuzz/fuzz_patch"
chmod +x "$work/afl/fuzz/fuzz_patch"

# campaign OUT [OPTIONS...]
campaign() {
    local dir=$1
    shift
    env -u WK_DRIVER "$wddmkit" fuzz --harness fuzz_patch --build-dir "$work/build" --out "$work/$dir" --time 1 \
        --no-triage "$@" >"$out" 2>&1
}

# 1. Left out, with their signatures.
campaign buggy --driver "$buggy"
status=$?
listed=$(grep -c "^  left out .*: " "$out")
total=$(sed -n 's/^left out \([0-9]*\) inputs\? that already fails\? on this driver.*/\1/p' "$out")
if [ "$status" -ne 1 ] || ! grep -q "^  left out regression-buggy-patch-offset.bin: PATCH-CONFINE-001 in DxgkDdiPatch" "$out" ||
    [ -z "$total" ] || [ "$listed" -ne "$total" ] || ! grep -q "^checked: [0-9]* starting inputs against the driver" "$out" ||
    ! grep -q "^  $total of them kept in $work/buggy/crashes as seed-NAME" "$out" ||
    [ ! -e "$work/buggy/crashes/seed-regression-buggy-patch-offset.bin" ] ||
    ! grep -q "^result: no new crash; $total starting inputs\? already fails\? on this driver" "$out"; then
    fail "the buggy driver: exit $status, $listed lines for a total of '$total', expected 1, the regression left out and kept in crashes/ as a finding"
    cat "$out"
fi
# 1b. Their signatures named as known: no finding, exit 0.
sigs=$(sed -n 's/^  left out [^:]*: //p' "$out" | sort -u)
set --
while IFS= read -r one; do [ -n "$one" ] && set -- "$@" --ignore-signature "$one"; done <<EOF2
$sigs
EOF2
campaign acknowledged --driver "$buggy" "$@"
status=$?
if [ "$status" -ne 0 ] || ls "$work/acknowledged/crashes/" | grep -q "^seed-" || ! grep -q "^result: no crash" "$out"; then
    fail "the buggy driver with its signatures named: exit $status, expected 0 and no seed- file"
    cat "$out"
fi
set --
if [ -e "$work/buggy/corpus/regression-buggy-patch-offset.bin" ] ||
    grep -q "regression-buggy-patch-offset.bin" "$work/buggy/engine-saw.txt" 2>/dev/null; then
    fail "the regression that crashes the driver is still in the engine's corpus"
fi
[ "$(wc -l <"$work/buggy/engine-saw.txt" 2>/dev/null || echo 0)" -gt 50 ] ||
    fail "the engine did not get the other seeds ($work/buggy/engine-saw.txt)"

# 2. --keep-crashing-seeds.
campaign kept --driver "$buggy" --keep-crashing-seeds
status=$?
if [ "$status" -ne 0 ] || grep -q "left out" "$out" || [ ! -e "$work/kept/corpus/regression-buggy-patch-offset.bin" ]; then
    fail "--keep-crashing-seeds: exit $status, expected 0 with the regression kept"
    cat "$out"
fi

# 3. The reference driver.
campaign reference --driver "$refdriver"
status=$?
if [ "$status" -ne 0 ] || grep -q "left out" "$out" || ! grep -q "^checked: [0-9]* starting inputs" "$out"; then
    fail "the reference driver: exit $status, expected every input checked and none left out"
    cat "$out"
fi

# 4. The instrumentation warning (a dry run: the files are only read).
printf 'no hooks here' >"$work/plain.so"
printf 'x __sanitizer_cov_8bit_counters_init x' >"$work/libfuzzer.so"
printf 'x __afl_area_ptr x' >"$work/afl.so"
warned() { # ENGINE BUILD MODULE
    env -u WK_DRIVER "$wddmkit" fuzz --harness fuzz_patch --engine "$1" --build-dir "$2" --driver "$3" --dry-run \
        --out "$work/dry" >"$out" 2>&1
    grep -q "^warning: .* has no .* instrumentation of its own" "$out"
}
warned libfuzzer "$work/build" "$work/plain.so" || fail "libFuzzer, a module without coverage: no warning"
warned afl "$work/afl" "$work/plain.so" || fail "AFL++, a module without instrumentation: no warning"
warned libfuzzer "$work/build" "$work/libfuzzer.so" && fail "libFuzzer, an instrumented module: a warning"
warned afl "$work/afl" "$work/afl.so" && fail "AFL++, an instrumented module: a warning"

# 5. Findings, deaths and hangs of the replay.
mkdir -p "$work/odd/fuzz" "$work/mine" || exit 1
cp "$work/build/fuzz/fuzz_patch" "$work/odd/fuzz/fuzz_patch"
cat >"$work/odd/fuzz/fuzz_patch_replay" <<'SH'
#!/bin/sh
for a in "$@"; do
    case "$a" in -*) continue ;; esac
    echo "replay: $a (1 bytes)" >&2
    case "$(cat "$a")" in
    FIND) echo "fuzz_patch: FINDING: a planted finding" >&2 ;;
    DIE) kill -SEGV $$ ;;
    HANG) sleep 60 ;;
    esac
done
echo "replay: every input ran" >&2
SH
chmod +x "$work/odd/fuzz/fuzz_patch_replay"
for x in a-ok:OK b-find:FIND c-die:DIE d-hang:HANG e-ok:OK; do printf '%s' "${x#*:}" >"$work/mine/${x%%:*}"; done
env -u WK_DRIVER "$wddmkit" fuzz --harness fuzz_patch --build-dir "$work/odd" --out "$work/odd-out" --time 1 \
    --timeout 1 --no-triage --driver "$buggy" --seeds "$work/mine" >"$out" 2>&1
status=$?
for want in "left out s1-b-find: finding: a planted finding" "left out s1-c-die: signal 11" \
    "left out s1-d-hang: hang (no result within 1 s)"; do
    grep -q "^  $want" "$out" || { fail "a stand-in replay: no '$want'"; cat "$out"; }
done
if [ "$status" -ne 1 ] || grep -q "left out s1-[ae]-ok" "$out" || ! grep -q "^s1-a-ok$" "$work/odd-out/engine-saw.txt" ||
    ! grep -q "^s1-e-ok$" "$work/odd-out/engine-saw.txt"; then
    fail "a stand-in replay: exit $status, expected 1 (three findings) with the inputs around the bad ones kept"
    cat "$out"
fi

# 6. campaign.txt, and triage and repro without --driver.
note=$work/buggy/campaign.txt
if ! grep -q "^harness: fuzz_patch$" "$note" || ! grep -q "^driver: $(realpath "$buggy")$" "$note"; then
    fail "campaign.txt does not name the harness and the driver"
    cat "$note"
fi
regression=$(dirname "$0")/../corpus/fuzz_patch/regressions/buggy-patch-offset.bin
cp "$regression" "$work/buggy/crashes/crash-1" || exit 1
env -u WK_DRIVER "$wddmkit" triage "$work/buggy/crashes" >"$out" 2>&1
status=$?
if [ "$status" -ne 0 ] || ! grep -q "^triage: no --driver given: these crashes were found with --driver $(realpath "$buggy")" "$out" ||
    ! grep -Eq "^ +[0-9]+  fail +PATCH-CONFINE-001 in DxgkDdiPatch " "$out"; then
    fail "triage of a campaign's crashes without --driver: exit $status, expected the campaign's driver and its finding"
    cat "$out"
fi
env -u WK_DRIVER "$wddmkit" repro "$work/buggy/crashes/crash-1" >"$out" 2>&1
if ! grep -q "^note: this file comes from a campaign with --driver $(realpath "$buggy")" "$out" ||
    ! grep -q "fuzz_patch input, replayed by fuzz_patch_replay" "$out"; then
    fail "repro of a campaign's crash without --driver: the campaign's driver not named, or the harness not taken"
    cat "$out"
fi

if [ "$fails" -ne 0 ]; then
    echo "fuzz_driver_start: $fails check(s) failed"
    exit 1
fi
echo "fuzz_driver_start: all checks passed"
