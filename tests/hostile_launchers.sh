#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/hostile_launchers.sh WDDMKIT MODE REPLAY DRIVER_SOURCE_DIR SCRATCH [REFLIB]
#
# The launchers that run a driver outside `conform` leave none of its
# processes behind (issue 22, "Every process a driver starts is found and
# killed ... The same for repro, fuzz, coverage"; docs/threat-model.md).
# The driver is tests/driver_build/fork_orphan.c: its Render forks
# a helper that calls setsid(), forks a grandchild and exits, so the
# grandchild is an orphan in a session of its own, sleeping 60 s; it writes
# its pid to $WK_TEST_ORPHAN_FILE. When the command has ended, no such pid
# may be alive.
#   fuzz      `wddmkit fuzz --driver` with a stand-in engine (a script that
#             runs the real replay binary REPLAY, fuzz_render_replay, on a
#             corpus input, as libFuzzer would run the harness): the orphans
#             of the seed check and of the engine;
#   fuzz-term the same, stopped by SIGTERM while the engine runs (the
#             engines are stopped, the summary printed, then every process
#             below is killed);
#   coverage  `wddmkit coverage --driver` of the driver built here with
#             clang's coverage flags (REFLIB: the reference driver's and the
#             GPU model's static libraries): the orphans of the replay
#             batches. Exit 77 (skipped) without clang, llvm-profdata or
#             llvm-cov.
# DRIVER_SOURCE_DIR is the repository (fuzz: the built module's path
# instead, passed as DRIVER).
set -u
wddmkit=$1 mode=$2 replay=$(realpath "$3") driver=$(realpath "$4") scratch=$5 reflib=${6:-}
. "$(dirname "$0")/hostile_lib.sh"
rm -rf "$scratch" && mkdir -p "$scratch" || exit 1
out=$scratch/out
export WK_TEST_ORPHAN_FILE=$scratch/pids

# No process whose pid the driver wrote is alive.
none_left() { # NAME
    [ -s "$WK_TEST_ORPHAN_FILE" ] || { fail "$1: the driver wrote no pid"; cat "$out"; return; }
    local pid
    while read -r pid; do
        [ ! -d "/proc/$pid" ] || { fail "$1: process $pid of the driver is still there"; kill -9 "$pid"; }
    done <"$WK_TEST_ORPHAN_FILE"
}

# A build folder whose engine is a script: it runs the replay binary on the
# first input of its corpus (its last argument), then sleeps as an engine
# would fuzz, until --time or a signal ends it.
stand_in_build() {
    mkdir -p "$scratch/build/fuzz" || exit 1
    ln -s "$replay" "$scratch/build/fuzz/fuzz_render_replay" || exit 1
    cat >"$scratch/build/fuzz/fuzz_render" <<'SH'
#!/bin/sh
for a in "$@"; do corpus=$a; done
first=$(ls "$corpus" | head -n 1)
"$(dirname "$0")/fuzz_render_replay" "$corpus/$first" >/dev/null 2>&1
echo engine-ran >"$(dirname "$corpus")/engine-ran"
exec sleep "${WK_TEST_ENGINE_SLEEP:-0}"
SH
    chmod +x "$scratch/build/fuzz/fuzz_render"
}

campaign() { # OUT [OPTIONS...]
    local dir=$1
    shift
    env -u WK_DRIVER "$wddmkit" fuzz --harness fuzz_render --build-dir "$scratch/build" --out "$scratch/$dir" \
        --driver "$driver" --no-triage "$@"
}

case $mode in
fuzz)
    stand_in_build
    start=$SECONDS
    campaign run --time 1 >"$out" 2>&1
    status=$?
    [ "$status" -eq 0 ] || { fail "wddmkit fuzz: exit $status, expected 0"; cat "$out"; }
    [ -e "$scratch/run/engine-ran" ] || fail "wddmkit fuzz: the stand-in engine did not run"
    [ "$(wc -l <"$WK_TEST_ORPHAN_FILE" 2>/dev/null || echo 0)" -ge 2 ] ||
        fail "wddmkit fuzz: expected orphans of the seed check and the engine"
    none_left "wddmkit fuzz"
    [ $((SECONDS - start)) -le 2 ] || fail "wddmkit fuzz took $((SECONDS - start)) s"
    ;;
fuzz-term)
    stand_in_build
    (WK_TEST_ENGINE_SLEEP=30 && export WK_TEST_ENGINE_SLEEP &&
        exec env -u WK_DRIVER "$wddmkit" fuzz --harness fuzz_render --build-dir "$scratch/build" --out "$scratch/run" \
            --driver "$driver" --no-triage --keep-crashing-seeds >"$out" 2>&1) &
    launcher=$!
    for _ in $(seq 100); do [ -e "$scratch/run/engine-ran" ] && break; sleep 0.02; done
    [ -e "$scratch/run/engine-ran" ] || fail "wddmkit fuzz: the stand-in engine did not run"
    start=$SECONDS
    kill -TERM "$launcher"
    wait "$launcher"
    grep -q "^result: " "$out" || { fail "wddmkit fuzz, stopped by SIGTERM: no summary"; cat "$out"; }
    none_left "wddmkit fuzz, stopped by SIGTERM"
    [ $((SECONDS - start)) -le 2 ] || fail "wddmkit fuzz took $((SECONDS - start)) s to stop"
    ;;
coverage)
    for tool in clang llvm-profdata llvm-cov; do
        if ! command -v "$tool" >/dev/null 2>&1; then
            echo "hostile_launchers: $tool is not on PATH (Debian: apt-get install clang llvm): skipped"
            exit 77
        fi
    done
    src=$driver
    # reflib: two archives, split on purpose
    # shellcheck disable=SC2086
    clang -std=c11 -O1 -fPIC -shared -fvisibility=hidden -fprofile-instr-generate -fcoverage-mapping \
        -I"$src/include" -I"$src/reference-impl" -I"$src/examples/drivers" "$src/tests/driver_build/fork_orphan.c" \
        $reflib -Wl,--exclude-libs,ALL -o "$scratch/orphan.so" || exit 1
    mkdir -p "$scratch/inputs" || exit 1
    cp "$src/corpus/fuzz_render/seeds/smoke.render-all-commands.4.bin" "$scratch/inputs/" 2>/dev/null ||
        cp "$(ls "$src"/corpus/fuzz_render/seeds/*.bin | head -n 1)" "$scratch/inputs/" || exit 1
    start=$SECONDS
    "$wddmkit" coverage --harness fuzz_render --driver "$scratch/orphan.so" --replay-dir "$(dirname "$replay")" \
        --out "$scratch/cov" "$scratch/inputs" >"$out" 2>&1
    status=$?
    [ "$status" -eq 0 ] || { fail "wddmkit coverage: exit $status, expected 0"; cat "$out"; }
    none_left "wddmkit coverage"
    [ $((SECONDS - start)) -le 2 ] || fail "wddmkit coverage took $((SECONDS - start)) s"
    ;;
*)
    fail "unknown mode $mode"
    ;;
esac
hostile_done "hostile_launchers $mode"
