#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/install_kit.sh BUILD SOURCE SCRATCH BINDIR LIBDIR INCLUDEDIR DATADIR LIBEXECDIR NEEDS_RUNTIME_SO
#
# The kit as a new user meets it installed (docs/install.md): `cmake
# --install` of the build into a scratch prefix, which is then moved, so
# nothing can be found where it was installed, let alone in the checkout:
#   - the layout: the command, headers, libraries, reference driver, data,
#     replay programs, CMake package and wddmkit.pc where docs/install.md
#     says;
#   - no path of the checkout in the command (its data is found from its
#     own folder, util/kit_dirs.c), and `wddmkit version` says where it
#     found its data: the moved prefix's share/wddmkit;
#   - `conform` from another folder runs the installed specs against the
#     installed reference driver; WDDMKIT_DATA_DIR overrides the data;
#   - `repro` finds the installed replay programs; `fuzz` without an
#     installed engine build says so and how a packager adds one, and with
#     one (a stand-in in libexec/wddmkit/libfuzzer/) takes its harness;
#     a driver needing a runtime the kit lacks (NEEDS_RUNTIME_SO) is
#     handed to that build's wddmkit;
#   - a driver project builds against the moved prefix with
#     find_package(wddmkit CONFIG REQUIRED) (tests/install_consumer/) and
#     with pkg-config, and the installed wddmkit runs them.
# The folders after SCRATCH are GNUInstallDirs' (relative to the prefix).
set -u
build=$1 src=$2 scratch=$3 bindir=$4 libdir=$5 includedir=$6 datadir=$7 libexecdir=$8 needs_runtime=$9
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
expect_in() { # NAME PATTERN FILE
    grep -q -- "$2" "$3" || { fail "$1: no '$2' in:"; sed 's/^/    /' "$3" | head -40; }
}
unset WDDMKIT_DATA_DIR WK_REPLAY_DIR WK_PROMOTE_ROOT WK_DRIVER

rm -rf "$scratch"
mkdir -p "$scratch"
out=$scratch/out
cmake --install "$build" --prefix "$scratch/installed" >"$scratch/install.log" 2>&1 ||
    { cat "$scratch/install.log"; echo "FAIL: cmake --install"; exit 1; }

# Moved after installing: every path the install step knew is gone.
mv "$scratch/installed" "$scratch/kit"
kit=$scratch/kit
wddmkit=$kit/$bindir/wddmkit

# The layout.
for f in "$bindir/wddmkit" "$includedir/wddmkit/driver.h" "$includedir/wddmkit/gpu.h" \
         "$includedir/wddmkit-reference/reference.h" "$includedir/wddmkit-reference/vidmm/vidmm.h" \
         "$includedir/wddmkit-reference/refdriver/refdriver_entry.h" \
         "$libdir/libwk_gpu.a" "$libdir/libwk_vidmm.a" "$libdir/libwk_refdriver_static.a" \
         "$libdir/wddmkit/wk_refdriver.so" "$libdir/cmake/wddmkit/wddmkitConfig.cmake" \
         "$libdir/cmake/wddmkit/wddmkitConfigVersion.cmake" "$libdir/cmake/wddmkit/wddmkitTargets.cmake" \
         "$libdir/pkgconfig/wddmkit.pc" "$datadir/wddmkit/specs/smoke.yaml" \
         "$datadir/wddmkit/corpus/fuzz_prog/seeds" "$datadir/wddmkit/harnesses/fuzz_prog.dict" \
         "$libexecdir/wddmkit/default/fuzz/fuzz_prog_replay" "$libexecdir/wddmkit/default/fuzz/fuzz_render_replay" \
         "$datadir/man/man1/wddmkit.1" "$datadir/bash-completion/completions/wddmkit" \
         "$datadir/doc/wddmkit/json-report.schema.json" "$datadir/doc/wddmkit/json-report.md"; do
    [ -e "$kit/$f" ] || fail "not installed: $f"
done
[ -e "$datadir/wddmkit/harnesses/CMakeLists.txt" ] && fail "harness sources installed"
# The archive a driver links is position-independent (it goes into a module).
if command -v readelf >/dev/null; then
    readelf -r "$kit/$libdir/libwk_gpu.a" 2>/dev/null | grep -q "R_X86_64_32S\b" &&
        fail "libwk_gpu.a has absolute 32-bit relocations: not built -fPIC"
fi

# No path of the checkout in the command: its data is found from its own
# folder. (Debug information names the source files: left out here.)
objcopy --strip-debug "$wddmkit" "$scratch/wddmkit.stripped"
strings "$scratch/wddmkit.stripped" | grep -E -e "^$src/?\$" -e "^$src/(specs|corpus|harnesses|build)" >"$out"
[ -s "$out" ] && { fail "the installed wddmkit names the checkout:"; sed 's/^/    /' "$out"; }

(cd / && "$wddmkit" version) >"$out" 2>&1 || fail "version: exit $?"
expect_in "version" "^data:   $kit/$datadir/wddmkit (installed" "$out"
expect_in "version" "^builds: $kit/$libexecdir/wddmkit\$" "$out"

# The suite, from another folder, against the installed reference driver.
# Which specs it read: a case's file is relative to the specs root, so one
# installed spec is renamed to a name the checkout lacks, and the report
# must name it, and never the checkout's name.
installed_specs=$kit/$datadir/wddmkit/specs
mv "$installed_specs/smoke.yaml" "$installed_specs/installed-only-smoke.yaml"
mkdir -p "$scratch/elsewhere"
(cd "$scratch/elsewhere" && "$wddmkit" conform -j 2 --quiet --driver "$kit/$libdir/wddmkit/wk_refdriver.so" \
    --json "$scratch/conform.json") >"$out" 2>&1
rc=$?
mv "$installed_specs/installed-only-smoke.yaml" "$installed_specs/smoke.yaml"
[ "$rc" = 0 ] || { fail "conform: exit $rc"; tail -n 20 "$out"; }
expect_in "conform cases from the installed specs" '"file": "installed-only-smoke.yaml"' "$scratch/conform.json"
grep -q '"file": "smoke.yaml"' "$scratch/conform.json" && fail "conform read a spec of the checkout"

# The checkout out of reach: a copy of the prefix outside it, run in a
# mount namespace where an empty tmpfs hides the checkout (and its build).
# Where namespaces are not allowed, said and left out.
tmp=$(mktemp -d)
cp -a "$kit" "$tmp/kit"
if unshare -rm true 2>/dev/null; then
    # shellcheck disable=SC2016
    unshare -rm sh -c 'mount -t tmpfs none "$1" && [ ! -e "$1/specs" ] && cd / &&
        "$2/$3/wddmkit" version && "$2/$3/wddmkit" conform -j 2 --quiet --driver "$2/$4/wddmkit/wk_refdriver.so"' \
        sh "$src" "$tmp/kit" "$bindir" "$libdir" >"$out" 2>&1 || { fail "with the checkout hidden: exit $?"; tail -n 20 "$out"; }
    expect_in "with the checkout hidden" "^data:   $tmp/kit/$datadir/wddmkit (installed" "$out"
else
    echo "note: unshare -rm is not allowed here: the run with the checkout hidden is left out"
fi
rm -rf "$tmp"

# WDDMKIT_DATA_DIR: another data folder, here one spec file.
mkdir -p "$scratch/data/specs"
cp "$kit/$datadir/wddmkit/specs/smoke.yaml" "$scratch/data/specs/"
(cd / && WDDMKIT_DATA_DIR=$scratch/data "$wddmkit" version) >"$out" 2>&1
expect_in "WDDMKIT_DATA_DIR version" "^data:   $scratch/data (from WDDMKIT_DATA_DIR)" "$out"
(cd / && WDDMKIT_DATA_DIR=$scratch/data "$wddmkit" conform --quiet --json "$scratch/data.json") >"$out" 2>&1 ||
    fail "conform with WDDMKIT_DATA_DIR: exit $?"
# a case's file is relative to the specs root (docs/json-report.md): the
# data folder holds smoke.yaml alone, the installed specs many files
expect_in "WDDMKIT_DATA_DIR conform" "\"file\": \"smoke.yaml\"" "$scratch/data.json"
grep "\"file\": " "$scratch/data.json" | grep -v -q "\"smoke.yaml\"" &&
    fail "conform with WDDMKIT_DATA_DIR ran other specs"

# The installed replay programs: a committed seed replays clean.
seed=$(ls "$kit/$datadir/wddmkit/corpus/fuzz_prog/seeds/"*.bin | head -n 1)
(cd / && "$wddmkit" repro "$seed" --runs 1) >"$out" 2>&1 || { fail "repro of $seed: exit $?"; tail -n 20 "$out"; }

# No engine build installed: `fuzz` says so, and how one is added.
(cd "$scratch/elsewhere" && "$wddmkit" fuzz --harness fuzz_prog --time 1) >"$out" 2>&1
rc=$?
[ "$rc" = 2 ] || fail "fuzz without an engine build: exit $rc, expected 2"
expect_in "fuzz without an engine build" "this installed kit has no libfuzzer build ($kit/$libexecdir/wddmkit/libfuzzer/)" "$out"
expect_in "fuzz without an engine build" "Instrumented builds" "$out"

# An instrumented build installed beside the kit, as a packager adds one
# (stand-ins here: a libfuzzer harness, and a wddmkit that loads any
# driver): `fuzz` takes its harness, and a driver that needs a runtime the
# kit's own wddmkit lacks is handed to its wddmkit.
variant=$kit/$libexecdir/wddmkit/libfuzzer
mkdir -p "$variant/fuzz" "$variant/cli"
printf '#!/bin/sh\nexit 0\n' >"$variant/fuzz/fuzz_prog"
# Of the installed kit's commit, as a packager's build of the same source
# is (a build of another commit is passed over: cli.driver_build).
commit=$("$wddmkit" version | sed -n 's/^commit //p')
printf '#!/bin/sh\nif [ "$1" = version ]; then printf "wddmkit 0\\ncommit %s\\n"; exit 0; fi\nif [ "$1" = driver ]; then exit 0; fi\necho "stand-in $0 ran: $*"\nexit 7\n' "$commit" >"$variant/cli/wddmkit"
chmod +x "$variant/fuzz/fuzz_prog" "$variant/cli/wddmkit"
(cd "$scratch/elsewhere" && "$wddmkit" fuzz --harness fuzz_prog --dry-run) >"$out" 2>&1 || fail "fuzz --dry-run: exit $?"
expect_in "fuzz takes the installed engine build" "^binary:  $variant/fuzz/fuzz_prog\$" "$out"
expect_in "fuzz takes the installed dictionary" "^dict:    $kit/$datadir/wddmkit/harnesses/fuzz_prog.dict\$" "$out"
(cd "$scratch/elsewhere" && "$wddmkit" conform --quiet --driver "$needs_runtime") >"$out" 2>&1
rc=$?
[ "$rc" = 7 ] || fail "hand-over to the installed build: exit $rc, expected the stand-in's 7"
expect_in "hand-over to the installed build" "stand-in $variant/cli/wddmkit ran: conform --quiet --driver $needs_runtime" "$out"
rm -rf "$variant"

# A driver project, with find_package.
cmake -S "$src/tests/install_consumer" -B "$scratch/consumer" -DCMAKE_PREFIX_PATH="$kit" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$scratch/consumer.log" 2>&1 &&
    cmake --build "$scratch/consumer" >>"$scratch/consumer.log" 2>&1 ||
    { fail "the find_package project does not build:"; tail -n 30 "$scratch/consumer.log"; }
if [ -f "$scratch/consumer/package.txt" ]; then
    expect_in "package variables" "^data=$kit/$datadir/wddmkit\$" "$scratch/consumer/package.txt"
    expect_in "package variables" "^wddmkit=$wddmkit\$" "$scratch/consumer/package.txt"
    expect_in "package variables" "^refdriver=$kit/$libdir/wddmkit/wk_refdriver.so\$" "$scratch/consumer/package.txt"
fi
if [ -f "$scratch/consumer/trivial.so" ]; then
    nm -D --defined-only "$scratch/consumer/trivial.so" >"$out"
    expect_in "trivial.so exports DriverEntry" " DriverEntry\$" "$out"
    grep -q " wk_gpu_" "$out" && fail "trivial.so exports the encoder"
fi
if [ -f "$scratch/consumer/forwarder.so" ]; then
    ctest --test-dir "$scratch/consumer" --output-on-failure >"$out" 2>&1 ||
        { fail "the project's ctest (conform against the driver it built): exit $?"; tail -n 20 "$out"; }
    expect_in "the project's ctest" "100% tests passed, 0 tests failed out of 1" "$out"
fi

# The same trivial driver with pkg-config, the package's wddmkit.pc.
export PKG_CONFIG_PATH=$kit/$libdir/pkgconfig
pkg-config --modversion wddmkit >"$out" 2>&1 || fail "pkg-config --modversion: exit $?"
pkg-config --variable=wddmkit wddmkit >"$out" 2>&1
[ "$(readlink -f "$(cat "$out")")" = "$(readlink -f "$wddmkit")" ] || fail "pkg-config wddmkit variable: $(cat "$out")"
# shellcheck disable=SC2046
cc -std=c11 -O2 -fPIC -shared -fvisibility=hidden $(pkg-config --cflags wddmkit) \
    "$src/tests/install_consumer/trivial.c" $(pkg-config --libs wddmkit) -Wl,--exclude-libs,ALL \
    -Wl,-z,defs -o "$scratch/pc-trivial.so" >"$out" 2>&1 || { fail "pkg-config build:"; cat "$out"; }

if [ "$fails" != 0 ]; then
    echo "$fails failure(s)"
    exit 1
fi
echo "install: the kit installs, moves, runs from its prefix, and builds drivers with find_package and pkg-config"
