#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/sanitize_scope_speed.sh - what sanitizing only the driver buys a
# libFuzzer campaign against a driver module: the cost of an input in each
# driver harness of the libfuzzer preset (ASan + UBSan on everything) and
# of the libfuzzer-driver preset (on the driver and the kit code it calls,
# WK_SANITIZE_SCOPE=driver), on the same driver module and the same inputs,
# measured in one run (docs/performance.md, "Under libFuzzer and sanitizers").
#
# How: the libFuzzer binary runs a fixed set of inputs K times each
# (`-runs=K FILE...`: libFuzzer's own loop, with its coverage collection,
# no mutation), so both builds do exactly the same work; a run with
# -runs=1 is subtracted (process start, loading the module, first runs).
# Campaigns are not compared: two campaigns find different inputs, and
# their exec/s follow what they found.
#
# Usage: bench/sanitize_scope_speed.sh [--driver MODULE] [--inputs DIR] [K [HARNESS...]]
#   MODULE   default build/libfuzzer-driver/reference-impl/refdriver/wk_refdriver.so
#            (the reference driver built with ASan + UBSan and coverage)
#   DIR      the inputs, DIR/<harness>/ (for instance a campaign's corpus
#            folders); default the committed seeds, corpus/<harness>/seeds
#   K        runs of each input, default 20; HARNESS default: fuzz_render
#            fuzz_patch fuzz_paging fuzz_prog fuzz_hostile
# Needs both presets built (cmake --build --preset libfuzzer, and
# libfuzzer-driver). Three rounds, the builds alternating; prints the cost
# of an input in each round and the ratio of the sums.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
driver=$root/build/libfuzzer-driver/reference-impl/refdriver/wk_refdriver.so
inputs=""
while [ $# -gt 0 ]; do
    case $1 in
    --driver) driver=$(realpath "$2"); shift 2 ;;
    --inputs) inputs=$(realpath "$2"); shift 2 ;;
    *) break ;;
    esac
done
runs=${1:-20}
shift || true
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(fuzz_render fuzz_patch fuzz_paging fuzz_prog fuzz_hostile)
[ -f "$driver" ] || { echo "no driver module $driver (cmake --build --preset libfuzzer-driver)" >&2; exit 2; }
case $runs in '' | *[!0-9]* | 0 | 1) echo "K: expected a whole number above 1, saw '$runs'" >&2; exit 2 ;; esac

# seconds BIN RUNS FILE...: wall time of one libFuzzer process over the files.
seconds() {
    local bin=$1 k=$2
    shift 2
    local start end
    start=$(date +%s.%N)
    if ! WK_DRIVER=$driver ASAN_OPTIONS=detect_leaks=0 "$bin" -runs="$k" "$@" >/dev/null 2>&1; then
        echo "$bin failed on these inputs (a finding?)" >&2
        exit 1
    fi
    end=$(date +%s.%N)
    awk -v s="$start" -v e="$end" 'BEGIN { printf "%.6f", e - s }'
}

printf '%-14s %6s %6s  %-34s %-34s %6s\n' harness inputs K "all: us/input (3 rounds)" "driver: us/input" ratio
for h in "${harnesses[@]}"; do
    dir=${inputs:+$inputs/$h}
    dir=${dir:-$root/corpus/$h/seeds}
    mapfile -t files < <(find "$dir" -maxdepth 1 -type f ! -name 'README*' | sort)
    [ ${#files[@]} -gt 0 ] || { echo "$h: no inputs in $dir" >&2; continue; }
    declare -A per=([libfuzzer]="" [libfuzzer-driver]="") sum=([libfuzzer]=0 [libfuzzer-driver]=0)
    for round in 1 2 3; do
        for preset in libfuzzer libfuzzer-driver; do
            bin=$root/build/$preset/fuzz/$h
            [ -x "$bin" ] || { echo "no $bin (cmake --build --preset $preset --target $h)" >&2; exit 2; }
            one=$(seconds "$bin" 1 "${files[@]}")
            many=$(seconds "$bin" "$runs" "${files[@]}")
            us=$(awk -v a="$one" -v b="$many" -v n="${#files[@]}" -v k="$runs" \
                 'BEGIN { printf "%.1f", (b - a) * 1e6 / (n * (k - 1)) }')
            per[$preset]="${per[$preset]} $us"
            sum[$preset]=$(awk -v s="${sum[$preset]}" -v u="$us" 'BEGIN { print s + u }')
        done
    done
    printf '%-14s %6d %6d  %-34s %-34s %6s\n' "$h" "${#files[@]}" "$runs" "${per[libfuzzer]# }" \
        "${per[libfuzzer-driver]# }" \
        "$(awk -v a="${sum[libfuzzer]}" -v d="${sum[libfuzzer-driver]}" 'BEGIN { printf "%.2f", a / d }')"
    unset per sum
done
echo "ratio: the libfuzzer build's cost of an input over the libfuzzer-driver build's (above 1: the latter is faster)"
