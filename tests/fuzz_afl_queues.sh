#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/fuzz_afl_queues.sh - ctest cli.fuzz_afl_queues: the corpus an AFL++
# campaign of several instances ends with is every instance's queue
# (fuzz/campaign/, count_queue), not the main instance's alone.
#
# A stand-in afl-fuzz (first on PATH) fills the queue of the instance it
# plays as AFL++ names its entries: the three starting inputs ("orig:") in
# each, inputs it found itself, and inputs it imported from the other
# instance ("sync:"). main: 3 seeds, 4 found, 1 imported (8 entries); s1:
# 3 seeds, 2 found, 1 imported (6). The campaign's corpus is 3 + 4 + 2 = 9
# inputs in afl/*/queue, each queue's size beside it; the summary said
# "8 inputs in .../afl/main/queue". With one instance, the line is as it
# was: every entry of its queue.
#
# Usage: fuzz_afl_queues.sh WDDMKIT WORK_DIR
set -u
wddmkit=$1 work=$2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf "$work" && mkdir -p "$work/build/fuzz" "$work/bin" || exit 1
out=$work/out.txt

printf '#!/bin/sh\n# A stand-in AFL++ harness (its marker: __AFL_SHM_ID); afl-fuzz never runs it.\nexit 0\n' \
    >"$work/build/fuzz/fuzz_gpu_decode"
cat >"$work/bin/afl-fuzz" <<'SH'
#!/bin/sh
# A stand-in afl-fuzz: the queue of one instance, then exit.
out= name=
while [ $# -gt 0 ]; do case "$1" in -o) out=$2; shift ;; -M|-S) name=$2; shift ;; --) break ;; esac; shift; done
q=$out/$name/queue
mkdir -p "$q" "$out/$name/crashes"
for i in 0 1 2; do printf 'seed %s' "$i" >"$q/id:00000$i,time:0,execs:0,orig:seed-$i"; done
if [ "$name" = main ]; then found=4 from=s1; else found=2 from=main; fi
for i in $(seq 1 "$found"); do printf '%s %s' "$name" "$i" >"$q/id:00010$i,src:000001,time:5,execs:90,op:havoc,rep:2,+cov"; done
printf 'imported' >"$q/id:000200,sync:$from,src:000003"
exit 0
SH
chmod +x "$work/build/fuzz/fuzz_gpu_decode" "$work/bin/afl-fuzz"

campaign() { # JOBS OUT
    env -u WK_DRIVER PATH="$work/bin:$PATH" "$wddmkit" fuzz --harness fuzz_gpu_decode --engine afl --jobs "$1" \
        --build-dir "$work/build" --time 5 --no-triage --out "$work/$2" >"$out" 2>&1
}

campaign 2 two
status=$?
if [ "$status" -ne 0 ] ||
    ! grep -q "^  corpus    9 inputs in $work/two/afl/\*/queue (main 8, s1 6; a seed or an input synced from another instance counted once)$" "$out"; then
    fail "two instances: exit $status, expected 0 and 9 inputs over both queues"
    cat "$out"
fi

campaign 1 one
status=$?
if [ "$status" -ne 0 ] || ! grep -q "^  corpus    8 inputs in $work/one/afl/main/queue$" "$out"; then
    fail "one instance: exit $status, expected 0 and the 8 inputs of its queue"
    cat "$out"
fi

if [ "$fails" -ne 0 ]; then
    echo "fuzz_afl_queues: $fails check(s) failed"
    exit 1
fi
echo "fuzz_afl_queues: all checks passed"
