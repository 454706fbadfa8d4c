#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli_manual.sh - ctest cli.manual: the manual page and the bash
# completion the build writes from the help text (cli/cli_manual.c), read
# by their real consumers (groff, bash):
#   1. the page: groff reads it without a warning (-ww) and renders it, and
#      every command of `wddmkit help` and every option every command's
#      --help prints is in the rendered page (the page is written from the
#      tables, this reads the help text: a command whose --help bypassed the
#      tables would be missing);
#   2. the completion: bash sources it, and completing as a user would
#      (COMP_WORDS as bash splits them, '--opt=VALUE' included) gives the
#      commands, a group's subcommands, every long option of each command,
#      an option's choices, the kit's harness names, folders for DIR;
#   3. the build's copies are what the command prints now.
#
# Usage: cli_manual.sh WDDMKIT MANPAGE COMPLETION WORK_DIR
set -u
export LC_ALL=C # sort order, and the page rendered in ASCII
wddmkit=$1 page=$2 completion=$3 work=$4
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1

# 3. The build's copies are current.
"$wddmkit" help --man >man.1 || fail "help --man: exit $?"
"$wddmkit" help --completion bash >completion.bash || fail "help --completion bash: exit $?"
cmp -s man.1 "$page" || fail "$page differs from 'wddmkit help --man'"
cmp -s completion.bash "$completion" || fail "$completion differs from 'wddmkit help --completion bash'"
"$wddmkit" help --completion zsh >/dev/null 2>err && fail "--completion zsh: exit 0"
grep -q "bash is the one shell" err || fail "--completion zsh: no message: $(cat err)"

# The commands and their words, from `wddmkit help` ("  gpu disasm FILE  ...").
commands=()
while IFS= read -r line; do
    line=${line#  }
    words=()
    for w in ${line%%  *}; do
        case $w in [a-z]*) words+=("$w") ;; *) break ;; esac
    done
    [ "${#words[@]}" -gt 0 ] && commands+=("${words[*]}")
done < <("$wddmkit" help | sed -n '/^commands:/,/^$/p' | grep '^  [a-z]')
[ "${#commands[@]}" -ge 15 ] || fail "wddmkit help lists ${#commands[@]} commands"

# 1. The page (groff: Debian's groff-base, which man-db needs).
if command -v groff >/dev/null; then
    groff -man -Tutf8 -ww -z "$page" 2>groff.err || fail "groff: exit $?"
    [ -s groff.err ] && { fail "groff warns:"; sed 's/^/    /' groff.err | head -20; }
    groff -man -Tascii -P-bcou "$page" >page.txt 2>/dev/null # what man shows, without overstrikes
    for c in "${commands[@]}"; do
        grep -q -- "wddmkit $c" page.txt || fail "page: no 'wddmkit $c'"
        # each long option on an option line of the command's help
        # (the help text's own option column: two spaces, then -x, or --name)
        # shellcheck disable=SC2086
        for o in $("$wddmkit" $c --help | grep -oE '^  (-[a-zA-Z], )?--[a-z0-9-]+' | grep -oE -- '--[a-z0-9-]+'); do
            awk -v c="wddmkit $c" -v o="$o" '
                index($0, c) == 8 { on = 1; next }       # the command heading ("       wddmkit ...")
                on && /^   [a-z]/ { on = 0 }             # the next command
                on && index($0, o) { found = 1 }
                END { exit !found }' page.txt || fail "page: 'wddmkit $c' lacks $o"
        done
    done
else
    echo "groff is missing (Debian: groff-base): the page is not rendered"
    fail "no groff"
fi

# 2. The completion: complete WORD... -> the sorted words it offers.
# shellcheck disable=SC1090
source "$completion" || fail "bash cannot source $completion"
complete_words() {
    COMP_WORDS=("$@")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMPREPLY=()
    _wddmkit
    printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}
expect() { # WANT WORD...
    local want=$1 got
    shift
    got=$(complete_words "$@")
    [ "$got" = "$want" ] || fail "completing '$*': got '$got', want '$want'"
}
expect "conform corpus coverage" wddmkit co
expect "disasm exec validate" wddmkit gpu ""
expect "--driver" wddmkit conform --dri
expect "contract reference stress" wddmkit conform --profile ""
expect "stress" wddmkit conform --profile = st
expect "auto model none" wddmkit conform --gpu ""
expect "afl libfuzzer" wddmkit fuzz --engine ""
expect "fuzz_paging fuzz_patch" wddmkit fuzz --harness fuzz_pa
expect "fuzz_paging fuzz_patch" wddmkit repro crash.bin --harness = fuzz_pa
expect "--help" wddmkit gpu disasm --he
expect "--help -h" wddmkit version -
mkdir -p adir && : >afile
expect "adir" wddmkit corpus seed --out a
expect "adir afile" wddmkit conform --driver a
expect "" wddmkit conform -j ""
expect "conform corpus coverage" wddmkit help co
expect "bash" wddmkit help --completion ""
for c in "${commands[@]}"; do
    # shellcheck disable=SC2086
    want=$("$wddmkit" $c --help | grep -oE '^  (-[a-zA-Z], )?--[a-z0-9-]+' | grep -oE -- '--[a-z0-9-]+' | sort)
    # shellcheck disable=SC2086
    got=$(complete_words wddmkit $c -- | tr ' ' '\n' | sort)
    missing=$(comm -23 <(echo "$want") <(echo "$got"))
    [ -z "$missing" ] || fail "completing 'wddmkit $c --': lacks $(echo $missing)"
done

if [ "$fails" -gt 0 ]; then
    echo "cli_manual: $fails check(s) failed"
    exit 1
fi
echo "cli_manual: all checks passed (${#commands[@]} commands)"
