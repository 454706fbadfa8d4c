#!/bin/sh
# SPDX-License-Identifier: MIT
# gen_cli_seeds.sh OUT_DIR - writes the seeds of fuzz_cli (harnesses/fuzz_cli.c):
# one file per command line, its arguments after "wddmkit" separated by NUL
# bytes. They cover every command and option of `wddmkit help` and the
# commands' --help texts once; the engines find the rest. Committed in
# corpus/fuzz_cli/seeds/:  sh harnesses/gen_cli_seeds.sh corpus/fuzz_cli/seeds
set -eu
out=${1:?usage: gen_cli_seeds.sh OUT_DIR}
mkdir -p "$out"
n=0
seed() { # seed NAME ARG...
    name=$1
    shift
    : > "$out/$name.bin"
    first=1
    for a in "$@"; do
        if [ $first -eq 0 ]; then printf '\000' >> "$out/$name.bin"; fi
        printf '%s' "$a" >> "$out/$name.bin"
        first=0
    done
    n=$((n + 1))
}
seed help help
seed version version
seed conform conform
seed conform-all-options conform --driver build/driver.so -j 2 --filter 'smoke.*' --exclude 'multipass.*' \
    --junit out.xml --tap out.tap --json out.json --quiet --timeout 5 --total-timeout 600 specs
seed conform-shard conform --shard 2/3 --list --no-fork --coverage
seed conform-expectations conform --expectations expect.yaml --driver=x.so specs/smoke.yaml
seed fuzz-libfuzzer fuzz --harness fuzz_prog --driver x.so --jobs 2 --time 60 --out out --max-len 8192 \
    --timeout 10 --rss-limit 0 --no-triage --dry-run -- -use_value_profile=1
seed fuzz-afl fuzz --harness=fuzz_render --engine afl -j 3 --seeds corpus --build-dir build/afl --dry-run
seed fuzz-prune fuzz --harness fuzz_prog --prune --out out --driver x.so
seed coverage coverage --harness fuzz_render --driver x-cov.so --out cov --replay-dir build/default/fuzz \
    --all-files --fail-under 80.5 --batch 64 --timeout 120 corpus/fuzz_render/seeds crash.bin
seed repro repro crash.bin --driver x.so --runs 100 --seed 7 --harness fuzz_patch --timeout 5 --no-calibrate
seed minimize minimize crash.bin -o crash.min --driver x.so --harness fuzz_paging --seed 1 --timeout 60
seed promote promote crash.bin --driver x.so --name my-bug --harness fuzz_prog
seed triage triage crashes --driver x.so --harness fuzz_render --timeout 3
seed driver-check driver check x.so
seed prog-dump prog dump input.bin
seed prog-dump-harness prog dump input.bin --harness fuzz_paging
seed corpus-seed corpus seed --specs specs --out corpus --check
seed gpu-disasm gpu disasm dma.bin
seed gpu-exec gpu exec dma.bin
seed gpu-validate gpu validate dma.bin
seed spec-lint spec lint specs a.yaml
seed spec-dump spec dump smoke.aperture specs
seed spec-mutations spec mutations
seed spec-dump-help spec dump --help
seed driver-check-help driver check --help
seed gpu-disasm-operand-after-dashdash gpu disasm -- -dma.bin
seed conform-equals conform --jobs=2 --filter=smoke.* --seed=0x10 --timeout=0.5 -q -- specs
seed rules-markdown rules --markdown
seed repro-help repro --help
seed repro-equals repro --runs=3 --harness=fuzz_prog --timeout=5 -- crash.bin
seed fuzz-engine-after-dashdash fuzz --harness=fuzz_spec --dry-run -- --help -runs=10
seed coverage-help coverage -h
seed prog-dump-equals prog dump --harness=fuzz_paging -- input.bin
seed unknown-command frobnicate --x
echo "gen_cli_seeds.sh: $n seeds written under $out"
