#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/hostile_reports.sh WDDMKIT MODE SPEC DRIVER SCRATCH PROGRAM
#
# What a crash report says about a hostile driver (issue 22, "Precise crash
# reports"), one MODE per ctest, each with a driver of
# tests/driver_build/render_ends.c or thread_crash.c (DRIVER) run on the one
# case of SPEC that calls DxgkDdiRender (smoke.render-all-commands), and on
# PROGRAM (the same case as a fuzz_prog file) with `repro` and `triage`:
#   tail          the case process dies after 300 lines: every report
#                 (console, JSON, JUnit, TAP) keeps the END of its output,
#                 the final FATAL line (it kept the first 511 bytes of the
#                 last 2 KiB), and the console names the DDI it died in;
#   noaddr        abort() in Render: DRV-CRASH-001 with no "address" (the
#                 pid was printed as one), identical over two runs;
#   exit          exit(3) or _exit(3) in Render: the report names the DDI
#                 and the exit status;
#   segv-handler  a SIGSEGV handler of the driver's own cannot turn a
#                 guard-page hit into a hang: MEM-GUARD-001, in well under
#                 the 5 s hang timer;
#   overflow      endless recursion in Render: DRV-CRASH-001 "overflowed
#                 its stack", no address (it differs run to run);
#   spin          an endless loop in Render, on the case with a 100 ms DDI
#                 timer (robustness.short-timeout-renders): DRV-HANG-001
#                 naming DxgkDdiRender, the run done in under 2 s;
#   flood         16 MiB of binary garbage on stdout and stderr, then a
#                 normal Render: the case passes, every report is small;
#   fds           every inherited descriptor closed, or /dev/null put on it,
#                 in Render: a crash saying the driver closed or replaced
#                 the kit's result pipe, never a pass;
#   foreign       (DRIVER unused) ELF headers for other machines, crafted
#                 here: `driver check` and `conform --driver` name the
#                 machine, not "No such file or directory";
#   exit-repro    exit(3) in Render: `repro` and `triage` name the DDI and
#                 DRV-CRASH-001 as conform does (they said "exit 3 without
#                 an answer (a sanitizer report?)");
#   exit-replay   the same judged by fuzz_prog_replay (`repro` of a fuzz_prog
#                 input with --driver, calibrated): the replay binary
#                 publishes the crash slot too, so the signature names the
#                 DDI as the program route does (it said "exit 3");
#   thread-system Render waits for its system thread (PsCreateSystemThread),
#                 which dereferences NULL: conform, repro and triage name
#                 the thread, its StartRoutine and the DDI that started it,
#                 not DxgkDdiRender, where the kit's thread only waited;
#   thread-raw    the same with a thread the driver made with
#                 pthread_create: "a thread the driver started itself".
set -u
wddmkit=$1 mode=$2 spec=$3 driver=$4 scratch=$5 program=${6:-}
. "$(dirname "$0")/hostile_lib.sh"

rm -rf "$scratch"
mkdir -p "$scratch"
out=$scratch/out

conform() { # OUT [ARGS...]: the Render case on DRIVER
    local to=$1
    shift
    "$wddmkit" conform -j 1 --driver "$driver" --filter smoke.render-all-commands "$@" "$spec" >"$to" 2>&1
}

# repro and triage of PROGRAM on DRIVER, as the program's own expectations.
repro() { # OUT
    "$wddmkit" repro "$program" --driver "$driver" --timeout 5 --no-calibrate >"$1" 2>&1
}
triage() { # OUT
    mkdir -p "$scratch/crashes"
    cp "$program" "$scratch/crashes/"
    "$wddmkit" triage "$scratch/crashes" --harness fuzz_prog --driver "$driver" --timeout 5 --no-calibrate >"$1" 2>&1
}
# A driver thread's crash through conform, repro and triage: THREAD is how
# the report must name it; the DDI the kit's thread waited in is not blamed.
thread_crash() { # THREAD
    local sig="DRV-CRASH-001 (SIGSEGV) in $1"
    start=$(date +%s%N)
    conform "$out" --json "$scratch/r.json"
    expect_rc "conform" 1 $?
    expect_in "conform" "DRV-CRASH-001: crashed with signal 11 (Segmentation fault)" "$out"
    expect_in "conform" " in $1" "$out"
    expect_not_in "conform" "inside DxgkDdiRender" "$out"
    expect_in "conform (JSON)" '"rule": "DRV-CRASH-001"' "$scratch/r.json"
    repro "$out"
    expect_rc "repro" 3 $?
    expect_in "repro" "result: crash (exit 3)" "$out"
    expect_in "repro" "signature: $sig" "$out"
    triage "$out"
    expect_rc "triage" 0 $?
    expect_in "triage" "crash   $sig" "$out"
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    [ "$ms" -lt 2000 ] || fail "the three commands took $ms ms"
}

case $mode in
tail)
    fatal="FATAL: render_ends: the last word before the abort"
    conform "$out" --json "$scratch/r.json" --junit "$scratch/r.xml" --tap "$scratch/r.tap"
    expect_rc "noisy abort" 1 $?
    expect_in "console" "$fatal" "$out"
    expect_in "console" "killed by SIGABRT (Aborted) inside DxgkDdiRender" "$out"
    for f in r.json r.xml r.tap; do
        expect_in "$f" "$fatal" "$scratch/$f"
        expect_not_in "$f" "noise line 200 of 300" "$scratch/$f" # the start of the tail went
    done
    ;;
noaddr)
    for run in 1 2; do
        conform "$scratch/out$run" --json "$scratch/r$run.json"
        expect_rc "abort in Render, run $run" 1 $?
        expect_in "abort in Render, run $run" "DRV-CRASH-001: DxgkDdiRender: crashed with signal 6 (Aborted)" "$scratch/out$run"
        expect_not_in "abort in Render, run $run" "at address" "$scratch/out$run"
        grep '"seen"' "$scratch/r$run.json" >"$scratch/seen$run"
    done
    cmp -s "$scratch/seen1" "$scratch/seen2" || fail "the two runs' reports differ: $(cat "$scratch/seen1" "$scratch/seen2")"
    ;;
exit)
    conform "$out" --json "$scratch/r.json"
    expect_rc "exit in Render" 1 $?
    expect_in "exit in Render" "DRV-CRASH-001: DxgkDdiRender: the driver exited the process (exit status 3)" "$out"
    expect_in "exit in Render (JSON)" '"rule": "DRV-CRASH-001"' "$scratch/r.json"
    ;;
segv-handler)
    start=$(date +%s%N)
    conform "$out"
    expect_rc "own SIGSEGV handler" 1 $?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    expect_in "own SIGSEGV handler" "MEM-GUARD-001: DxgkDdiRender: wrote past the end of the DMA buffer" "$out"
    expect_not_in "own SIGSEGV handler" "DRV-HANG-001" "$out"
    [ "$ms" -lt 2000 ] || fail "own SIGSEGV handler: $ms ms (a fault retried until a timer)"
    ;;
overflow)
    conform "$out" --json "$scratch/r.json"
    expect_rc "stack overflow in Render" 1 $?
    expect_in "stack overflow in Render" "DRV-CRASH-001: DxgkDdiRender: overflowed its stack (signal 11" "$out"
    expect_not_in "stack overflow in Render" "at address" "$out"
    ;;
spin)
    start=$(date +%s%N)
    "$wddmkit" conform -j 1 --driver "$driver" --filter robustness.short-timeout-renders \
        "$(dirname "$spec")/robustness.yaml" >"$out" 2>&1
    expect_rc "endless loop in Render" 1 $?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    expect_in "endless loop in Render" "DRV-HANG-001: DxgkDdiRender: did not return within 100 ms" "$out"
    [ "$ms" -lt 2000 ] || fail "endless loop in Render: $ms ms"
    ;;
fpe)
    # a SIGFPE's address is the instruction's: module+offset, not an ASLR'd address
    conform "$out"
    expect_rc "divide by zero in Render" 1 $?
    expect_in "divide by zero in Render" "DRV-CRASH-001: DxgkDdiRender: crashed with signal 8 (Floating point exception) at $(basename "$driver")+0x" "$out"
    expect_not_in "divide by zero in Render" "at address 0x7" "$out"
    ;;
timeout)
    # a hang the DDI timer cannot end (SIGALRM blocked): the case's timeout
    # kills it, and the verdict names the DDI it was in
    "$wddmkit" conform -j 1 --timeout 1 --driver "$driver" --filter smoke.render-all-commands "$spec" \
        --json "$scratch/r.json" >"$out" 2>&1
    expect_rc "a hang past the DDI timer" 1 $?
    expect_in "a hang past the DDI timer" "s: the case process was killed inside DxgkDdiRender" "$out"
    expect_in "a hang past the DDI timer" '"verdict": "timeout"' "$scratch/r.json"
    ;;
flood)
    conform "$out" --json "$scratch/r.json" --junit "$scratch/r.xml" --tap "$scratch/r.tap"
    expect_rc "16 MiB of output" 0 $?
    expect_in "16 MiB of output" "RESULT: all as expected" "$out"
    for f in out r.json r.xml r.tap; do
        size=$(wc -c <"$scratch/$f")
        [ "$size" -lt 65536 ] || fail "16 MiB of output: $f holds $size bytes"
    done
    ;;
fds)
    conform "$out" --json "$scratch/r.json"
    expect_rc "descriptors taken in Render" 1 $?
    expect_in "descriptors taken in Render" '"verdict": "crash"' "$scratch/r.json"
    case $driver in
    *hijack*) want="without a result: the driver put another file on the kit's result pipe" ;;
    *) want="without a result: the driver closed the kit's result pipe (Bad file descriptor)" ;;
    esac
    expect_in "descriptors taken in Render" "$want" "$scratch/r.json"
    ;;
foreign)
    # An ELF header (64 bytes, then padding) of class $2 (1: 32-bit,
    # 2: 64-bit), little-endian, ET_DYN, e_machine $3: enough for the
    # loader to refuse it and for the kit to read what it is.
    byte() { printf "\\x$(printf %02x "$1")"; }
    elf() { # FILE CLASS MACHINE
        {
            printf '\177ELF'
            byte "$2"                                   # EI_CLASS
            printf '\001\001\000\000\000\000\000\000\000\000\000' # EI_DATA LSB, EI_VERSION, padding
            printf '\003\000'                           # e_type ET_DYN
            byte $(($3 & 255))                          # e_machine, little-endian
            byte $(($3 >> 8))
            printf '\001\000\000\000'                   # e_version
            head -c 1024 /dev/zero
        } >"$1"
    }
    host=$(uname -m)
    elf "$scratch/arm64.so" 2 183
    elf "$scratch/riscv64.so" 2 243
    elf "$scratch/arm32.so" 1 40
    want_arm64="is built for aarch64 (EM_AARCH64), this kit runs "
    [ "$host" = aarch64 ] && { elf "$scratch/arm64.so" 2 62; want_arm64="is built for x86-64 (EM_X86_64), this kit runs "; }
    for f in arm64:"$want_arm64" riscv64:"is built for riscv64 (EM_RISCV)" arm32:"is built for arm (EM_ARM)"; do
        so=$scratch/${f%%:*}.so want=${f#*:}
        "$wddmkit" driver check "$so" >"$out" 2>&1
        expect_rc "driver check ${f%%:*}" 2 $?
        expect_in "driver check ${f%%:*}" "$want" "$out"
        expect_not_in "driver check ${f%%:*}" "No such file" "$out"
        "$wddmkit" conform --driver "$so" "$spec" >"$out" 2>&1
        expect_rc "conform --driver ${f%%:*}" 2 $?
        expect_in "conform --driver ${f%%:*}" "$want" "$out"
    done
    ;;
exit-replay)
    "$wddmkit" repro "$program" --driver "$driver" --timeout 5 >"$out" 2>&1
    expect_rc "repro" 3 $?
    expect_in "repro" "judged by: fuzz_prog_replay" "$out"
    expect_in "repro" "signature: DRV-CRASH-001 (exit 3) in DxgkDdiRender" "$out"
    mkdir -p "$scratch/crashes"
    cp "$program" "$scratch/crashes/"
    "$wddmkit" triage "$scratch/crashes" --harness fuzz_prog --driver "$driver" --timeout 5 >"$out" 2>&1
    expect_in "triage" "DRV-CRASH-001 (exit 3) in DxgkDdiRender" "$out"
    ;;
exit0-replay)
    # exit(0) inside Render ends the replay binary with status 0: no pass
    "$wddmkit" repro "$program" --driver "$driver" --timeout 5 >"$out" 2>&1
    expect_rc "repro" 3 $?
    expect_in "repro" "judged by: fuzz_prog_replay" "$out"
    expect_in "repro" "signature: DRV-CRASH-001 (exit 0) in DxgkDdiRender" "$out"
    mkdir -p "$scratch/crashes"
    cp "$program" "$scratch/crashes/"
    "$wddmkit" triage "$scratch/crashes" --harness fuzz_prog --driver "$driver" --timeout 5 >"$out" 2>&1
    expect_in "triage" "crash   DRV-CRASH-001 (exit 0) in DxgkDdiRender" "$out"
    # a campaign's check of its starting inputs names the DDI too, and the
    # input is a finding the run's exit status counts (an engine stand-in:
    # no fuzzing here, only the check before it)
    replay=$(dirname "$wddmkit")/../fuzz/fuzz_prog_replay
    if [ -x "$replay" ]; then
        mkdir -p "$scratch/build/fuzz" "$scratch/seeds"
        printf '#!/bin/sh\nexit 0\n' >"$scratch/build/fuzz/fuzz_prog"
        chmod +x "$scratch/build/fuzz/fuzz_prog"
        ln -sf "$(realpath "$replay")" "$scratch/build/fuzz/fuzz_prog_replay"
        cp "$program" "$scratch/seeds/"
        env -u WK_DRIVER "$wddmkit" fuzz --harness fuzz_prog --build-dir "$scratch/build" --out "$scratch/campaign" \
            --time 1 --no-triage --driver "$driver" --seeds "$scratch/seeds" >"$out" 2>&1
        expect_rc "fuzz" 1 $?
        expect_in "fuzz" "left out s1-$(basename "$program"): DRV-CRASH-001 (exit 0) in DxgkDdiRender" "$out"
        expect_in "fuzz" "result: no new crash; " "$out"
    fi
    ;;
fds-replay)
    # descriptors taken under the replay binary: its findings are lost, no pass
    "$wddmkit" repro "$program" --driver "$driver" --timeout 5 >"$out" 2>&1
    expect_rc "repro" 3 $?
    expect_in "repro" "judged by: fuzz_prog_replay" "$out"
    expect_in "repro" "signature: DRV-CRASH-001 (descriptors taken)" "$out"
    case $driver in
    *hijack*) want="the driver put another file on the process's standard error" ;;
    *) want="the driver closed the process's standard error" ;;
    esac
    expect_in "repro" "$want" "$out"
    ;;
exit-repro)
    conform "$out"
    expect_rc "conform" 1 $?
    expect_in "conform" "DRV-CRASH-001: DxgkDdiRender: the driver exited the process (exit status 3)" "$out"
    repro "$out"
    expect_rc "repro" 3 $?
    expect_in "repro" "result: crash (exit 3)" "$out"
    expect_in "repro" "signature: DRV-CRASH-001 (exit 3) in DxgkDdiRender" "$out"
    expect_in "repro" "DRV-CRASH-001: DxgkDdiRender: the driver exited the process (exit status 3) without a result" "$out"
    triage "$out"
    expect_rc "triage" 0 $?
    expect_in "triage" "crash   DRV-CRASH-001 (exit 3) in DxgkDdiRender" "$out"
    ;;
thread-system)
    thread_crash "the driver's system thread (StartRoutine crashing_worker, started during DxgkDdiRender)"
    ;;
thread-raw)
    thread_crash "a thread the driver started itself (not a DDI)"
    ;;
*)
    fail "unknown mode $mode"
    ;;
esac

hostile_done "hostile_reports $mode"
