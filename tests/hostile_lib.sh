# SPDX-License-Identifier: MIT
# tests/hostile_lib.sh - the checks every hostile-driver script shares
# (tests/hostile_*.sh source it): each failed check prints one FAIL line and
# counts; hostile_done NAME ends the script with "NAME: all checks passed"
# (what ctest's PASS_REGULAR_EXPRESSION looks for) or the count, exit 1.
# Strings are fixed (grep -F); output may be binary (a hostile driver's):
# it is searched as text and shown with its unprintable bytes left out.
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# The last lines of FILE, printable bytes only, indented.
show_tail() { # FILE
    tr -cd '\11\12\40-\176' <"$1" | tail -40 | sed 's/^/    /'
}
expect_rc() { # NAME WANT GOT
    [ "$2" = "$3" ] || fail "$1: exit code $3, expected $2"
}
expect_in() { # NAME FIXED-STRING FILE
    grep -aqF -- "$2" "$3" || { fail "$1: no '$2' in:"; show_tail "$3"; }
}
expect_not_in() { # NAME FIXED-STRING FILE
    ! grep -aqF -- "$2" "$3" || { fail "$1: '$2' in:"; grep -aF -- "$2" "$3" | tr -cd '\11\12\40-\176' | sed 's/^/    /'; }
}
expect_count() { # NAME WANT FIXED-STRING FILE
    local got
    got=$(grep -acF -- "$3" "$4")
    [ "$got" = "$2" ] || { fail "$1: $got lines with '$3', expected $2:"; show_tail "$4"; }
}
hostile_done() { # NAME
    if [ "$fails" -ne 0 ]; then
        echo "$1: $fails check(s) failed"
        exit 1
    fi
    echo "$1: all checks passed"
    exit 0
}
