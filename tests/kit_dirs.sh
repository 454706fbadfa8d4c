#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/kit_dirs.sh WDDMKIT SOURCE SCRATCH EXEDIR DATADIR
#
# Where the command finds its data (util/kit_dirs.c, `wddmkit version`),
# with copies of the built wddmkit laid out as each case would have it:
#   - a checkout moved with its build: the build tree's
#     wddmkit-source-dir.txt names it relative to itself (its absolute
#     line is stale);
#   - a build folder moved alone: the absolute line;
#   - WDDMKIT_DATA_DIR over both;
#   - an installed layout (<prefix>/EXEDIR/wddmkit beside
#     <prefix>/DATADIR/wddmkit; EXEDIR is where this build installs the
#     command: bin, or libexec/wddmkit/<build>/cli for an instrumented one): `conform` runs its specs from any folder,
#     and `corpus seed` writes into the working directory, not the kit;
#   - none of these: the working directory, said as such.
set -u
wddmkit=$1 src=$2 scratch=$3 exedir=$4 datadir=$5
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
expect_in() { # NAME PATTERN FILE
    grep -q -- "$2" "$3" || { fail "$1: no '$2' in:"; sed 's/^/    /' "$3" | head -20; }
}
unset WDDMKIT_DATA_DIR
rm -rf "$scratch"
mkdir -p "$scratch"
out=$scratch/out

# A checkout of one spec file, moved with its build.
mkdir -p "$scratch/moved/src/specs" "$scratch/moved/build/cli"
cp "$src/specs/smoke.yaml" "$scratch/moved/src/specs/"
cp "$wddmkit" "$scratch/moved/build/cli/wddmkit"
printf '../src\n/nonexistent/old-checkout\n' >"$scratch/moved/build/wddmkit-source-dir.txt"
(cd / && "$scratch/moved/build/cli/wddmkit" version) >"$out" 2>&1
expect_in "moved with its checkout" "^data:   $scratch/moved/src (the source tree of this build)" "$out"
(cd / && "$scratch/moved/build/cli/wddmkit" conform --list) >"$out" 2>&1 || fail "moved: conform --list: exit $?"
expect_in "moved: the checkout's specs" "^smoke\." "$out"
grep -v -q "^smoke\." "$out" && fail "moved: conform --list lists cases of other specs"

# The build folder moved alone: the absolute line.
mkdir -p "$scratch/alone/cli"
cp "$wddmkit" "$scratch/alone/cli/wddmkit"
printf '../nowhere\n%s\n' "$scratch/moved/src" >"$scratch/alone/wddmkit-source-dir.txt"
(cd / && "$scratch/alone/cli/wddmkit" version) >"$out" 2>&1
expect_in "build moved alone" "^data:   $scratch/moved/src (the source tree of this build)" "$out"

# WDDMKIT_DATA_DIR first.
(cd / && WDDMKIT_DATA_DIR=$src "$scratch/moved/build/cli/wddmkit" version) >"$out" 2>&1
expect_in "WDDMKIT_DATA_DIR" "^data:   $src (from WDDMKIT_DATA_DIR)" "$out"
expect_in "WDDMKIT_DATA_DIR naming a checkout: its builds" "^builds: $src/build\$" "$out"

# An installed layout.
prefix=$scratch/prefix
mkdir -p "$prefix/$exedir" "$prefix/$datadir/wddmkit/specs"
cp "$src/specs/smoke.yaml" "$prefix/$datadir/wddmkit/specs/"
cp "$wddmkit" "$prefix/$exedir/wddmkit"
mkdir -p "$scratch/work"
(cd "$scratch/work" && "$prefix/$exedir/wddmkit" version) >"$out" 2>&1
expect_in "installed" "^data:   $prefix/$datadir/wddmkit (installed, beside this executable)" "$out"
(cd "$scratch/work" && "$prefix/$exedir/wddmkit" conform --quiet -j 2) >"$out" 2>&1 || fail "installed: conform: exit $?"
(cd "$scratch/work" && "$prefix/$exedir/wddmkit" corpus seed) >"$out" 2>&1 || fail "installed: corpus seed: exit $?"
expect_in "installed: corpus seed" "written under corpus from $prefix/$datadir/wddmkit/specs" "$out"
[ -d "$scratch/work/corpus/fuzz_prog/seeds" ] || fail "installed: corpus seed wrote no corpus/ in the working folder"
[ -e "$prefix/$datadir/wddmkit/corpus" ] && fail "installed: corpus seed wrote into the kit's data"

# Nowhere: the working folder, and conform says it has no specs there.
mkdir -p "$scratch/bare"
cp "$wddmkit" "$scratch/bare/wddmkit"
(cd "$scratch/work" && "$scratch/bare/wddmkit" version) >"$out" 2>&1
expect_in "nowhere" "^data:   \. (not found: the working directory)" "$out"

if [ "$fails" != 0 ]; then
    echo "$fails failure(s)"
    exit 1
fi
echo "kit_dirs: every way of finding the data holds"
