#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/driver_build.sh WDDMKIT NEEDS_RUNTIME_SO CRASHING_SO REFDRIVER_SO REPLAY_BIN SCRATCH
#
# `wddmkit driver check`, and how repro/minimize/promote/triage/conform hand
# their work to a build that can load their --driver
# (cli/driver_probe.c, cli/hand_over.c):
#   - check: exit 0 for a loadable module, 2 with the runtime symbol for one
#     that needs an instrumentation runtime (and the build that loads it,
#     when one does), 3 for one whose constructor aborts (the check itself
#     survives);
#   - a driver inside a build tree whose wddmkit loads it: the command line
#     runs there, unchanged, with a note on stderr naming the symbol;
#   - a build that cannot load it either is passed over;
#   - none: exit 2 before anything runs, naming the symbol and the preset;
#   - WK_DRIVER_BUILD_CHOSEN=1 (set for the build that takes over): no
#     second hand-over;
#   - a replay binary given a WK_DRIVER it cannot load exits 2 with the
#     loader's reason, and repro calls that an error, not a crash.
set -u
wddmkit=$1 needs=$2 crashing=$3 refdriver=$4 replay=$5 scratch=$6
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
expect_rc() { # NAME WANT GOT
    [ "$2" = "$3" ] || fail "$1: exit code $3, expected $2"
}
expect_in() { # NAME PATTERN FILE
    grep -q -- "$2" "$3" || { fail "$1: no '$2' in:"; sed 's/^/    /' "$3"; }
}

rm -rf "$scratch"
mkdir -p "$scratch"
out=$scratch/out

# driver check
"$wddmkit" driver check "$refdriver" >"$out" 2>&1; expect_rc "check refdriver" 0 $?
expect_in "check refdriver" "loads into this build" "$out"
"$wddmkit" driver check "$needs" >"$out" 2>&1; expect_rc "check needs-runtime" 2 $?
expect_in "check needs-runtime" "undefined symbol: __sanitizer_wk_test_missing" "$out"
"$wddmkit" driver check "$crashing" >"$out" 2>&1; expect_rc "check crashing constructor" 3 $?
expect_in "check crashing constructor" "while loading" "$out"
"$wddmkit" driver check "$scratch/none.so" >"$out" 2>&1; expect_rc "check missing file" 2 $?
"$wddmkit" driver check >"$out" 2>&1; expect_rc "check without PATH" 2 $?

# A build tree holding the driver, whose stand-in wddmkit "loads" it and
# records the command line it was given; it is of this wddmkit's commit
# unless a third argument names another.
commit=$("$wddmkit" version | sed -n 's/^commit //p')
stand_in() { # DIR ANSWER [COMMIT]
    mkdir -p "$1/cli" "$1/drivers"
    cat >"$1/cli/wddmkit" <<SCRIPT
#!/bin/sh
if [ "\$1" = version ]; then printf 'wddmkit 0.1.0\\ncommit %s\\n' "${3:-$commit}"; exit 0; fi
if [ "\$1" = driver ]; then exit $2; fi
echo "stand-in \$0 ran: \$*"
exit 7
SCRIPT
    chmod +x "$1/cli/wddmkit"
    cp "$needs" "$1/drivers/needs.so"
}
stand_in "$scratch/good" 0
# driver check of it names the build that loads it (it does not hand over:
# it is the question the hand-over asks).
"$wddmkit" driver check "$scratch/good/drivers/needs.so" >"$out" 2>&1; expect_rc "check names the build" 2 $?
expect_in "check names the build" "needs.so: loads into $scratch/good/cli/wddmkit" "$out"
prog="$scratch/input.bin"
printf 'not a program' >"$prog"
"$wddmkit" repro "$prog" --runs 3 --driver "$scratch/good/drivers/needs.so" >"$out" 2>&1
expect_rc "hand-over" 7 $?
expect_in "hand-over" "needs __sanitizer_wk_test_missing, which this build lacks" "$out"
expect_in "hand-over" "stand-in .*/good/cli/wddmkit ran: repro $prog --runs 3 --driver $scratch/good/drivers/needs.so" "$out"
"$wddmkit" conform --driver="$scratch/good/drivers/needs.so" --filter 'x*' >"$out" 2>&1
expect_rc "hand-over of conform --driver=" 7 $?

# A build that answers no is passed over for the next one.
stand_in "$scratch/tree/bad" 2
stand_in "$scratch/tree" 0
cp "$needs" "$scratch/tree/bad/drivers/inner.so"
"$wddmkit" triage "$scratch" --driver "$scratch/tree/bad/drivers/inner.so" >"$out" 2>&1
expect_rc "passed over" 7 $?
expect_in "passed over" "stand-in $scratch/tree/cli/wddmkit ran: triage" "$out"

# A build of another commit that loads it is not used: its verdicts would
# come from other code (a stale build/asan blamed a correct driver that the
# current build passed). WK_ANY_BUILD=1 uses it, saying so.
stand_in "$scratch/stale" 0 0123456789abcdef0123456789abcdef01234567
"$wddmkit" repro "$prog" --driver "$scratch/stale/drivers/needs.so" >"$out" 2>&1
expect_rc "stale build" 2 $?
expect_in "stale build" "$scratch/stale/cli/wddmkit would load the driver but is of commit 0123456789ab" "$out"
grep -q "stand-in" "$out" && fail "stale build: the stand-in ran"
WK_ANY_BUILD=1 "$wddmkit" repro "$prog" --driver "$scratch/stale/drivers/needs.so" >"$out" 2>&1
expect_rc "stale build, WK_ANY_BUILD=1" 7 $?
expect_in "stale build, WK_ANY_BUILD=1" "warning: $scratch/stale/cli/wddmkit is of commit 0123456789ab" "$out"

# No build loads it.
mkdir -p "$scratch/lone"
cp "$needs" "$scratch/lone/needs.so"
"$wddmkit" repro "$prog" --driver "$scratch/lone/needs.so" >"$out" 2>&1
expect_rc "no build" 2 $?
expect_in "no build" "cannot load $scratch/lone/needs.so into this build: undefined symbol __sanitizer_wk_test_missing" "$out"
expect_in "no build" "cmake --preset libfuzzer" "$out"
grep -q "stand-in" "$out" && fail "no build: a stand-in ran"

# The build that took over does not hand over again.
WK_DRIVER_BUILD_CHOSEN=1 "$wddmkit" repro "$prog" --driver "$scratch/good/drivers/needs.so" >"$out" 2>&1
rc=$?
grep -q "stand-in" "$out" && fail "chosen build: handed over again"
[ "$rc" = 7 ] && fail "chosen build: exit code of the stand-in"

# A replay binary that cannot load WK_DRIVER: exit 2 before any input, and
# repro's verdict is an error, not a crash of the driver.
printf 'x' >"$scratch/one.bin"
WK_DRIVER="$scratch/lone/needs.so" "$replay" "$scratch/one.bin" >"$out" 2>&1
expect_rc "replay" 2 $?
expect_in "replay" "cannot load the driver under test (WK_DRIVER=$scratch/lone/needs.so)" "$out"
WK_DRIVER_BUILD_CHOSEN=1 WK_REPLAY_DIR=$(dirname "$replay") "$wddmkit" repro "$scratch/one.bin" \
    --harness "$(basename "$replay" _replay)" --driver "$scratch/lone/needs.so" >"$out" 2>&1
expect_rc "repro through replay" 2 $?
expect_in "repro through replay" "result: error" "$out"
expect_in "repro through replay" "the replay binary could not run: fuzz_driver: cannot load" "$out"

[ $fails = 0 ] && echo "driver_build: all checks passed"
exit $((fails > 0))
