#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli_options.sh - ctest cli.options: the one command-line style of
# the subcommands converted to cli/cli_options.h, from the outside:
#   1. --help and -h of every command and subcommand: its usage line on
#      stdout, nothing on stderr, exit 0 (before opening anything: a
#      sub-subcommand never takes --help for a FILE or PATH);
#   2. --opt=value does what --opt value does;
#   3. an unknown option: exit 2, "wddmkit <cmd>: unknown option" on
#      stderr, nothing on stdout;
#   4. "did you mean" for a close option, subcommand and command;
#   5. -- ends the options: an operand after it may start with '-'.
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

# 1. Help.
for cmd in "conform" "rules" "gpu disasm" "gpu validate" "gpu exec" "spec lint" "spec dump" "spec mutations" \
           "driver check" "corpus seed"; do
    for h in --help -h; do
        # shellcheck disable=SC2086
        run $cmd $h
        [ "$rc" = 0 ] || fail "$cmd $h: exit $rc, expected 0"
        head -n1 "$work/out" | grep -q "^usage: wddmkit $cmd\( \|$\)" || fail "$cmd $h: no usage line on stdout"
        grep -q -- "-h, --help" "$work/out" || fail "$cmd $h: --help not listed"
        [ ! -s "$work/err" ] || fail "$cmd $h: wrote to stderr: $(cat "$work/err")"
    done
done
for group in gpu spec driver corpus; do
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

# 3. Unknown options.
for cmd in "conform" "rules" "gpu disasm" "gpu validate" "gpu exec" "spec lint" "spec dump" "spec mutations" \
           "driver check" "corpus seed"; do
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

# 5. -- ends the options.
run rules -- -NOT-A-RULE
[ "$rc" = 2 ] && grep -q "no rule '-NOT-A-RULE'" "$work/err" || fail "rules -- -X: exit $rc, $(cat "$work/err")"
run gpu disasm -- --help
[ "$rc" = 2 ] && grep -q -- "--help" "$work/err" && ! grep -q "^usage:" "$work/out" ||
    fail "gpu disasm -- --help: exit $rc, expected the file '--help' refused as missing"

if [ "$fails" -eq 0 ]; then
    echo "cli_options: all checks passed"
else
    echo "cli_options: $fails checks failed"
    exit 1
fi
