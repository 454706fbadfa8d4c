#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli_options.sh - ctest cli.options: the one command-line style of
# every subcommand (cli/cli_options.h), from the outside:
#   0. the commands are those `wddmkit help` lists (it prints the
#      dispatcher's table), and a group's --help lists no subcommand that
#      `wddmkit help` leaves out;
#   1. --help and -h of every command and subcommand: its usage line on
#      stdout, nothing on stderr, exit 0 (before opening anything: repro
#      never takes --help for a FILE, fuzz starts nothing, no file is
#      written);
#   2. --opt=value does what --opt value does (one option of each command
#      that takes a value);
#   3. an unknown option: exit 2, "wddmkit <cmd>: unknown option" on
#      stderr, nothing on stdout;
#   4. "did you mean" for a close option, subcommand and command;
#   5. -- ends the options: an operand after it may start with '-'; fuzz
#      hands everything after it to the engine.
#
# Usage: cli_options.sh WDDMKIT SPECS_DIR WORK_DIR
set -u
wddmkit=$1 specs=$2 work=$3
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1 # a file named --help here would be found by a command that took it for one

# run ARGS...: $rc, $work/out, $work/err
run() {
    "$wddmkit" "$@" >"$work/out" 2>"$work/err"
    rc=$?
}

# 0. The commands: the words of each line of `wddmkit help` before its
# first operand or option, and before its summary (two spaces on):
# "  gpu disasm FILE     print ..." -> "gpu disasm".
run help
[ "$rc" = 0 ] || fail "help: exit $rc"
commands=()
while IFS= read -r line; do
    line=${line#  }
    words=""
    for w in ${line%%  *}; do
        case "$w" in *[!a-z-]* | -*) break ;; esac
        words="${words:+$words }$w"
    done
    case "$words" in "" | help | version) ;; *) commands+=("$words") ;; esac
done < <(grep '^  [a-z]' "$work/out")
[ "${#commands[@]}" -ge 15 ] || fail "wddmkit help lists ${#commands[@]} commands: ${commands[*]}"
listed=" $(printf '%s|' "${commands[@]}") "
for want in conform fuzz "gpu disasm" "prog dump" repro minimize promote triage coverage "driver check" \
            "corpus seed" rules "spec lint" "spec dump" "spec mutations"; do
    case "$listed" in *"$want|"*) ;; *) fail "wddmkit help does not list '$want'" ;; esac
done
for group in gpu spec driver corpus prog; do
    run "$group" --help
    sed -n 's/^\(usage:\|      \) wddmkit \([a-z]* [a-z-]*\).*/\2/p' "$work/out" >"$work/subs"
    [ -s "$work/subs" ] || fail "$group --help: no usage lines"
    while IFS= read -r sub; do
        case "$listed" in *"|$sub|"* | " $sub|"*) ;; *) fail "'$sub' ($group --help) is missing from wddmkit help" ;; esac
    done <"$work/subs"
done

# 1. Help.
for cmd in "${commands[@]}"; do
    for h in --help -h; do
        # shellcheck disable=SC2086
        run $cmd $h
        [ "$rc" = 0 ] || fail "$cmd $h: exit $rc, expected 0"
        head -n1 "$work/out" | grep -q "^usage: wddmkit $cmd\( \|$\)" || fail "$cmd $h: no usage line on stdout"
        grep -q -- "-h, --help" "$work/out" || fail "$cmd $h: --help not listed"
        [ ! -s "$work/err" ] || fail "$cmd $h: wrote to stderr: $(cat "$work/err")"
    done
done
[ -z "$(ls -A "$work" | grep -v '^\(out\|err\|subs\)$')" ] ||
    fail "--help wrote something: $(ls -A "$work" | tr '\n' ' ')"
for group in gpu spec driver corpus prog; do
    run "$group" --help
    [ "$rc" = 0 ] && head -n1 "$work/out" | grep -q "^usage: wddmkit $group " && [ ! -s "$work/err" ] ||
        fail "$group --help: exit $rc, expected 0 and its usage lines on stdout"
done
# options before the operands or after them; help wins over an operand
run gpu disasm nothing-here.bin --help
[ "$rc" = 0 ] || fail "gpu disasm FILE --help: exit $rc, expected the help"

# 2. --opt=value and --opt value.
run conform --list --filter smoke.render-all-commands "$specs"
cp "$work/out" "$work/spaced"
run conform --list --filter=smoke.render-all-commands "$specs"
[ "$rc" = 0 ] && [ -s "$work/out" ] && cmp -s "$work/out" "$work/spaced" ||
    fail "conform --filter=GLOB: exit $rc, not what --filter GLOB lists"
for spelling in "--jobs=1" "--jobs 1" "-j1" "-j 1" "--shard=1/1" "--seed=0x10" "--timeout=0.5" "--profile=contract"; do
    # shellcheck disable=SC2086
    run conform --list $spelling --filter=smoke.render-all-commands "$specs"
    [ "$rc" = 0 ] && cmp -s "$work/out" "$work/spaced" || fail "conform $spelling: exit $rc $(cat "$work/err")"
done
run corpus seed --specs="$work/no-such-specs"
grep -q "^wddmkit corpus seed: --specs: not a folder: '$work/no-such-specs'" "$work/err" && [ "$rc" = 2 ] ||
    fail "corpus seed --specs=DIR: exit $rc, $(cat "$work/err")"

corpus=$specs/../corpus
seed=$corpus/fuzz_prog/seeds/smoke.aperture.bin
# the same run, spelled both ways: same exit code, same output
same_both_ways() { # same_both_ways NAME "ARGS WITH --opt=value" "ARGS WITH --opt value"
    # shellcheck disable=SC2086
    run $2
    local rc1=$rc
    cp "$work/out" "$work/first"
    # shellcheck disable=SC2086
    run $3
    [ "$rc1" = "$rc" ] && [ -s "$work/out" ] && cmp -s "$work/out" "$work/first" ||
        fail "$1: '$2' (exit $rc1) and '$3' (exit $rc) differ: $(diff "$work/first" "$work/out" | head -5)"
    rm -f "$work/first"
}
same_both_ways fuzz "fuzz --harness=fuzz_gpu_decode --engine=afl --jobs=3 --time=60 --dry-run --out=$work/fz" \
    "fuzz --harness fuzz_gpu_decode --engine afl --jobs 3 --time 60 --dry-run --out $work/fz"
grep -q "^would run: .*-V 60 " "$work/out" || fail "fuzz --time=60: $(head -3 "$work/out")"
same_both_ways repro "repro $seed --runs=2 --seed=3" "repro $seed --runs 2 --seed 3"
grep -q "deterministic: 2/2 identical" "$work/out" || fail "repro --runs=2: $(cat "$work/out")"
same_both_ways "prog dump" "prog dump $seed --harness=fuzz_prog" "prog dump $seed --harness fuzz_prog"
# a value that reaches the command's own check, spelled --opt=value
expect_err() { # expect_err WANT ARGS...: exit 2, WANT on stderr
    local want=$1
    shift
    run "$@"
    [ "$rc" = 2 ] && grep -qF -- "$want" "$work/err" || fail "$*: exit $rc, no \"$want\" in: $(cat "$work/err")"
}
expect_err "wddmkit fuzz: --jobs: expected a whole number from 1 to 64, saw '0'" fuzz --harness fuzz_spec --jobs=0
expect_err "wddmkit fuzz: --engine: expected libfuzzer or afl, saw 'honggfuzz'" fuzz --harness fuzz_spec --engine=honggfuzz
expect_err "wddmkit minimize: --timeout: expected a whole number from 1 to 3600, saw '0'" minimize "$seed" --timeout=0
expect_err "wddmkit promote: --name: expected 1..63 characters of [a-z0-9-], saw 'Bad_Name'" \
    promote "$seed" --driver=x.so --name=Bad_Name
expect_err "wddmkit triage: --seed: expected a whole number from 0 to 18446744073709551615, saw 'x'" \
    triage "$corpus/fuzz_prog/seeds" --seed=x
expect_err "wddmkit coverage: --fail-under: expected a number from 0 to 100, saw '101'" \
    coverage --harness=fuzz_render --fail-under=101
expect_err "wddmkit repro: unknown harness 'fuzz_rendr' (did you mean 'fuzz_render'? one of: fuzz_gpu_decode, " repro "$seed" --harness=fuzz_rendr
expect_err "wddmkit repro: --runs: expected a whole number from 1 to 100000, saw '0'" repro "$seed" --runs=0
[ ! -e "$work/fz" ] || fail "fuzz --dry-run created $work/fz"

# 3. Unknown options.
for cmd in "${commands[@]}"; do
    # shellcheck disable=SC2086
    run $cmd --bogus-option x
    [ "$rc" = 2 ] || fail "$cmd --bogus-option: exit $rc, expected 2"
    head -n1 "$work/err" | grep -q "^wddmkit $cmd: unknown option '--bogus-option'$" ||
        fail "$cmd --bogus-option: $(head -n1 "$work/err")"
    [ ! -s "$work/out" ] || fail "$cmd --bogus-option: wrote to stdout"
done
run conform -Z
[ "$rc" = 2 ] && grep -q "^wddmkit conform: unknown option '-Z'$" "$work/err" || fail "conform -Z: exit $rc"
run conform --jobs
[ "$rc" = 2 ] && grep -q "^wddmkit conform: option '--jobs' needs a value$" "$work/err" || fail "conform --jobs: exit $rc"
run conform --jobs=0
[ "$rc" = 2 ] && grep -q "^wddmkit conform: --jobs: expected a whole number from 1 to 256, saw '0'$" "$work/err" ||
    fail "conform --jobs=0: exit $rc, $(cat "$work/err")"
run conform --list=yes
[ "$rc" = 2 ] && grep -q "takes no value" "$work/err" || fail "conform --list=yes: exit $rc"
run conform --driv x.so # no abbreviations: a new option must not break a script
[ "$rc" = 2 ] || fail "conform --driv: exit $rc, expected 2 (long names match whole)"

# 4. Did you mean.
expect_hint() { # expect_hint WANT ARGS...
    local want=$1
    shift
    run "$@"
    [ "$rc" = 2 ] && grep -qF -- "$want" "$work/err" || fail "$*: exit $rc, no \"$want\" in: $(cat "$work/err")"
}
expect_hint "wddmkit conform: unknown option '--jbos' (did you mean '--jobs'?)" conform --jbos 2
expect_hint "(did you mean '--driver'?)" conform --driv x.so
expect_hint "(did you mean '--driver'?)" conform -driver x.so
expect_hint "(did you mean '--markdown'?)" rules --markdwn
expect_hint "(did you mean '--check'?)" corpus seed --chek
expect_hint "wddmkit: unknown command 'confrom' (did you mean 'conform'?)" confrom
expect_hint "wddmkit spec: unknown subcommand 'lnit' (did you mean 'lint'?)" spec lnit x
expect_hint "wddmkit gpu: unknown subcommand 'dissasm' (did you mean 'disasm'?)" gpu dissasm x
expect_hint "wddmkit driver: unknown subcommand 'chek' (did you mean 'check'?)" driver chek x
expect_hint "wddmkit corpus: unknown subcommand 'sed' (did you mean 'seed'?)" corpus sed
expect_hint "wddmkit fuzz: unknown option '--harnes' (did you mean '--harness'?)" fuzz --harnes fuzz_spec
expect_hint "wddmkit repro: unknown option '--runz' (did you mean '--runs'?)" repro "$seed" --runz 2
expect_hint "wddmkit minimize: unknown option '--no-calibrat' (did you mean '--no-calibrate'?)" minimize "$seed" --no-calibrat
expect_hint "wddmkit promote: unknown option '--nmae' (did you mean '--name'?)" promote "$seed" --nmae x
expect_hint "wddmkit triage: unknown option '--drivr' (did you mean '--driver'?)" triage "$work" --drivr x.so
expect_hint "wddmkit prog dump: unknown option '--harnes' (did you mean '--harness'?)" prog dump "$seed" --harnes fuzz_prog
expect_hint "wddmkit prog: unknown subcommand 'dmp' (did you mean 'dump'?)" prog dmp "$seed"
expect_hint "wddmkit coverage: unknown option '--fail-undr' (did you mean '--fail-under'?)" coverage --fail-undr 5
# an option another crash command takes is not this one's
expect_hint "wddmkit triage: unknown option '--runs'" triage "$work" --runs 2
expect_hint "wddmkit prog dump: unknown option '--driver'" prog dump "$seed" --driver x.so

# 5. -- ends the options.
run rules -- -NOT-A-RULE
[ "$rc" = 2 ] && grep -q "no rule '-NOT-A-RULE'" "$work/err" || fail "rules -- -X: exit $rc, $(cat "$work/err")"
run gpu disasm -- --help
[ "$rc" = 2 ] && grep -q -- "--help" "$work/err" && ! grep -q "^usage:" "$work/out" ||
    fail "gpu disasm -- --help: exit $rc, expected the file '--help' refused as missing"

run repro -- -no-such-crash.bin
[ "$rc" = 2 ] && grep -q -- "-no-such-crash.bin" "$work/err" || fail "repro -- -FILE: exit $rc, $(cat "$work/err")"
# fuzz: everything after -- is the engine's, --help included
run fuzz --harness fuzz_gpu_decode --engine afl --dry-run --out "$work/fz" -- --help -j 9
[ "$rc" = 0 ] && grep -q "^would run: .* --help -j 9 -- " "$work/out" && ! grep -q "^usage:" "$work/out" ||
    fail "fuzz ... -- --help -j 9: exit $rc, $(head -3 "$work/out") $(cat "$work/err")"
expect_err "wddmkit fuzz: unexpected argument 'stray'" fuzz --harness fuzz_gpu_decode stray --dry-run

# 6. help and version keep the style too: `help COMMAND` is COMMAND's help,
# `version` takes --help and no stray argument; an unknown harness gets a
# "did you mean"; a file named like an option gets the hint about --.
run help conform
[ "$rc" = 0 ] && head -1 "$work/out" | grep -q "^usage: wddmkit conform " || fail "help conform: exit $rc, $(head -1 "$work/out")"
expect_err "wddmkit: unknown command 'confrom' (did you mean 'conform'?)" help confrom
run version --help
[ "$rc" = 0 ] && head -1 "$work/out" | grep -q "^usage: wddmkit version" || fail "version --help: exit $rc, $(head -1 "$work/out")"
expect_err "wddmkit version: unexpected argument 'extra'" version extra
expect_err "wddmkit fuzz: unknown harness 'fuzz_cl' (did you mean 'fuzz_cli'?" fuzz --harness fuzz_cl --dry-run
expect_err "wddmkit gpu disasm: unknown option '-d' in '-dash.bin' (a file whose name starts with '-' goes after '--')" \
    gpu disasm -dash.bin

if [ "$fails" -eq 0 ]; then
    echo "cli_options: all checks passed"
else
    echo "cli_options: $fails checks failed"
    exit 1
fi
