#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/package_kit.sh BUILD SCRATCH
#
# `cpack` in the build folder (cmake/WkPackage.cmake) as a packager runs
# it: the .tar.gz, and the .deb where dpkg-deb is installed. Each is
# unpacked into a scratch folder and the command in it runs from there:
# `wddmkit version` finds the unpacked share/wddmkit, and `conform` passes
# a spec against the unpacked reference driver. The .deb installs under
# /usr and depends on the shared libraries its programs load (libyaml,
# jansson: dpkg-shlibdeps).
set -u
build=$1 scratch=$2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
expect_in() { # NAME PATTERN FILE
    grep -q -- "$2" "$3" || { fail "$1: no '$2' in:"; sed 's/^/    /' "$3" | head -20; }
}
unset WDDMKIT_DATA_DIR
rm -rf "$scratch"
mkdir -p "$scratch"
out=$scratch/out

# Runs the unpacked command at $1 (its prefix) from another folder.
check_unpacked() { # NAME PREFIX
    local wddmkit=$2/bin/wddmkit refdriver
    refdriver=$(find "$2" -name wk_refdriver.so | head -n 1)
    (cd / && "$wddmkit" version) >"$out" 2>&1 || fail "$1: version: exit $?"
    expect_in "$1: version" "^data:   $2/share/wddmkit (installed" "$out"
    [ -n "$refdriver" ] || fail "$1: no wk_refdriver.so"
    (cd / && "$wddmkit" conform --quiet -j 2 --filter 'smoke.*' --driver "$refdriver") >"$out" 2>&1 ||
        { fail "$1: conform: exit $?"; tail -n 20 "$out"; }
}

generators=TGZ
command -v dpkg-deb >/dev/null && generators="TGZ;DEB"
cpack --config "$build/CPackConfig.cmake" -G "$generators" -B "$scratch/packages" >"$scratch/cpack.log" 2>&1 ||
    { tail -n 30 "$scratch/cpack.log"; echo "FAIL: cpack -G $generators"; exit 1; }

tgz=$(ls "$scratch/packages/"wddmkit-*.tar.gz 2>/dev/null | head -n 1)
if [ -z "$tgz" ]; then
    fail "no wddmkit-*.tar.gz"
else
    mkdir -p "$scratch/tgz"
    tar -xzf "$tgz" -C "$scratch/tgz" || fail "tar -xzf $tgz"
    top=$(ls -d "$scratch/tgz/"*/ | head -n 1)
    check_unpacked "tar.gz" "${top%/}"
fi

if command -v dpkg-deb >/dev/null; then
    deb=$(ls "$scratch/packages/"*.deb 2>/dev/null | head -n 1)
    if [ -z "$deb" ]; then
        fail "no .deb"
    else
        dpkg-deb --field "$deb" Package Version Depends >"$out" 2>&1 || fail "dpkg-deb --field: exit $?"
        expect_in "deb fields" "^Package: wddmkit" "$out"
        expect_in "deb depends on libyaml" "^Depends: .*libyaml" "$out"
        expect_in "deb depends on jansson" "^Depends: .*libjansson" "$out"
        dpkg-deb --contents "$deb" >"$out" 2>&1
        expect_in "deb contents" " ./usr/bin/wddmkit\$" "$out"
        expect_in "deb contents" " ./usr/share/wddmkit/specs/smoke.yaml\$" "$out"
        expect_in "deb contents" " ./usr/include/wddmkit/driver.h\$" "$out"
        mkdir -p "$scratch/deb"
        dpkg-deb -x "$deb" "$scratch/deb" || fail "dpkg-deb -x"
        check_unpacked "deb" "$scratch/deb/usr"
    fi
else
    echo "note: no dpkg-deb here: the .deb is not made"
fi

if [ "$fails" != 0 ]; then
    echo "$fails failure(s)"
    exit 1
fi
echo "package: cpack made $generators, and the kit runs unpacked"
