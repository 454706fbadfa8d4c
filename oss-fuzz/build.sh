#!/bin/bash -eu
# SPDX-License-Identifier: MIT
# oss-fuzz/build.sh - builds wddmkit's fuzz harnesses the OSS-Fuzz way
# (also ClusterFuzzLite's build, .clusterfuzzlite/build.sh, and the local
# `fuzzbuild` ctest, tests/oss_fuzz_build.sh).
#
# Contract (google/oss-fuzz docs, "Setting up a new project"): compile with
# $CC/$CXX and $CFLAGS/$CXXFLAGS, link every target with $CXX and
# $LIB_FUZZING_ENGINE (never a hard-coded engine), and put into $OUT, per
# harness: the binary (no extension), <harness>_seed_corpus.zip,
# <harness>.dict and <harness>.options. Intermediate files go to $WORK.
#
# How: CMake builds the project's static libraries and each harness with
# the engine's flags, and the harness is relinked from the objects and the
# exact libraries CMake chose (read from `ninja -t commands`) with $CXX and
# $LIB_FUZZING_ENGINE. Harness sources and dependencies therefore stay
# declared in one place, harnesses/CMakeLists.txt; which harnesses there are
# and their max_len, in fuzz/harnesses.txt. For libFuzzer builds the
# target read is the libFuzzer harness itself (WK_FUZZ_ENGINE=libfuzzer:
# it carries the structure-aware mutator of fuzz_prog and fuzz_render);
# for the other engines and for coverage builds it is the replay target
# (<harness>_replay), minus replay_main.c.
#
# libyaml (the spec loader's parser) is linked statically: fuzz targets run
# on images that do not have it. An instrumented copy is built from
# $SRC/libyaml when the Dockerfile cloned it, else the system's libyaml.a
# (Debian/Ubuntu libyaml-dev) is used. libjansson (the journal's reader) and
# libnettle (SHA-256, the command line's) are linked statically from the
# system's libjansson.a (libjansson-dev) and libnettle.a (nettle-dev).
#
# Environment: CC CXX CFLAGS [CXXFLAGS (default: $CFLAGS)] LIB_FUZZING_ENGINE
# OUT [SRC] [WORK (default: a temporary folder)] [WK_REPO (default: the
# checkout this script is in, else $SRC/wddmkit)].
#
# A team's driver (docs/fuzzing.md, "OSS-Fuzz and ClusterFuzzLite with your
# driver"). OSS-Fuzz's runners hold nothing but the fuzz target, so the
# driver under test is linked into the driver harnesses (WK_FUZZ_DRIVER_LIB,
# harnesses/CMakeLists.txt) instead of the reference driver:
#   WK_DRIVER_SOURCES     the driver's C and C++ sources, separated by
#                         blanks, relative to the working directory or
#                         absolute (shell patterns are expanded there). Compiled here with $CC $CFLAGS (.c) or
#                         $CXX $CXXFLAGS (.cc .cpp .cxx), -I<kit>/include and
#                         -DDriverEntry=wk_fuzz_linked_DriverEntry, into one
#                         static library;
#   WK_DRIVER_CFLAGS      more flags for those sources (-I, -D);
#   WK_DRIVER_LIB         static libraries the team built itself with the
#                         same compilers and flags (blank- or ;-separated),
#                         linked after those sources; without
#                         WK_DRIVER_SOURCES the first defines
#                         wk_fuzz_linked_DriverEntry;
#   WK_DRIVER_CMAKE_ARGS  more arguments for the kit's CMake configure;
#   WK_HARNESSES          the harnesses to build (blank-separated). Default:
#                         every one of fuzz/harnesses.txt; with a driver,
#                         the four that fuzz it (fuzz_render fuzz_patch
#                         fuzz_paging fuzz_prog): the others fuzz the kit.
# Paths with blanks are not supported in these variables.

say() { echo "wddmkit build.sh: $*" >&2; }

: "${CC:?CC must name the C compiler}" "${CXX:?CXX must name the C++ compiler}"
: "${LIB_FUZZING_ENGINE:?LIB_FUZZING_ENGINE must be set (e.g. -fsanitize=fuzzer)}" "${OUT:?OUT must be set}"
CFLAGS=${CFLAGS-}
CXXFLAGS=${CXXFLAGS-$CFLAGS}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ -n "${WK_REPO:-}" ]; then
  repo=$WK_REPO
elif [ -f "$here/../fuzz/CMakeLists.txt" ]; then
  repo=$(cd "$here/.." && pwd)
elif [ -n "${SRC:-}" ] && [ -f "$SRC/wddmkit/fuzz/CMakeLists.txt" ]; then
  repo=$SRC/wddmkit
else
  say "cannot find the wddmkit checkout (set WK_REPO)"
  exit 1
fi
# The harnesses and the largest input each is fuzzed with, NAME:MAX_LEN,
# from the one list (fuzz/harnesses.txt: NAME MAX_LEN DESCRIPTION, '#'
# comments). A harness whose source is not in the tree is skipped with a
# message.
list=$repo/fuzz/harnesses.txt
if [ ! -f "$list" ]; then
  say "$list is missing"
  exit 1
fi
HARNESSES=$(awk '$1 !~ /^#/ && NF >= 2 { print $1 ":" $2 }' "$list")
if [ -z "$HARNESSES" ]; then
  say "$list names no harness"
  exit 1
fi
driver_given=0
if [ -n "${WK_DRIVER_SOURCES:-}${WK_DRIVER_LIB:-}" ]; then
  driver_given=1
fi
# WK_HARNESSES: a subset of the list, each name checked against it.
wanted=${WK_HARNESSES:-}
if [ -z "$wanted" ] && [ $driver_given -eq 1 ]; then
  wanted="fuzz_render fuzz_patch fuzz_paging fuzz_prog"
fi
if [ -n "$wanted" ]; then
  subset=""
  for w in $wanted; do
    entry=""
    for e in $HARNESSES; do
      [ "${e%%:*}" = "$w" ] && entry=$e
    done
    if [ -z "$entry" ]; then
      say "WK_HARNESSES names $w, which $list does not list"
      exit 1
    fi
    subset="$subset $entry"
  done
  HARNESSES=$subset
fi
if [ -z "${WORK:-}" ]; then
  WORK=$(mktemp -d)
  trap 'rm -rf "$WORK"' EXIT
fi
mkdir -p "$OUT" "$WORK"
build=$WORK/wddmkit-build
jobs=$(nproc 2>/dev/null || echo 2)

# New compilers add warnings; the project's warnings-as-errors must not
# break the fuzzing build (warnings are enforced by the project's own CI
# presets): CMAKE_COMPILE_WARNING_AS_ERROR=OFF below.

# ---- libyaml, static --------------------------------------------------------
yaml_args=()
if [ -n "${SRC:-}" ] && [ -f "$SRC/libyaml/CMakeLists.txt" ]; then
  say "building libyaml from $SRC/libyaml with the fuzzing flags"
  cmake -S "$SRC/libyaml" -B "$WORK/libyaml-build" -G Ninja -DCMAKE_BUILD_TYPE= \
    -DCMAKE_C_COMPILER="$CC" -DCMAKE_C_FLAGS="$CFLAGS" -DBUILD_SHARED_LIBS=OFF -DBUILD_TESTING=OFF \
    -DINSTALL_LIB_DIR=lib -DCMAKE_INSTALL_PREFIX="$WORK/libyaml" -DCMAKE_DISABLE_FIND_PACKAGE_ICU=TRUE \
    -DCMAKE_POLICY_VERSION_MINIMUM=3.5 >/dev/null
  cmake --build "$WORK/libyaml-build" -j "$jobs" >/dev/null
  cmake --install "$WORK/libyaml-build" >/dev/null
  yaml_args=(-DWK_YAML_LIB="$WORK/libyaml/lib/libyaml.a" -DWK_YAML_INCLUDE="$WORK/libyaml/include")
else
  yaml_a=$($CC -print-file-name=libyaml.a)
  if [ ! -f "$yaml_a" ]; then
    for d in /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib64 /usr/lib /usr/local/lib; do
      [ -f "$d/libyaml.a" ] && yaml_a=$d/libyaml.a && break
    done
  fi
  if [ ! -f "$yaml_a" ]; then
    say "no static libyaml (install libyaml-dev, or clone libyaml into \$SRC/libyaml)"
    exit 1
  fi
  yaml_args=(-DWK_YAML_LIB="$yaml_a")
fi

# ---- libjansson, static ----------------------------------------------------
# The run journal's reader (conformance/runner/journal.c) is in the library
# the harnesses link; like libyaml, the system's static copy
# (Debian/Ubuntu libjansson-dev) goes into the targets.
jansson_a=$($CC -print-file-name=libjansson.a)
if [ ! -f "$jansson_a" ]; then
  for d in /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib64 /usr/lib /usr/local/lib; do
    [ -f "$d/libjansson.a" ] && jansson_a=$d/libjansson.a && break
  done
fi
if [ ! -f "$jansson_a" ]; then
  say "no static libjansson (install libjansson-dev)"
  exit 1
fi
yaml_args+=(-DWK_JANSSON_LIB="$jansson_a")

# ---- libnettle, static -----------------------------------------------------
# The command line's SHA-256 of a driver module (cli/driver_identity.c) is
# in wk_cli, which fuzz_cli links: the system's static copy (Debian/Ubuntu
# nettle-dev), like libjansson.
nettle_a=$($CC -print-file-name=libnettle.a)
if [ ! -f "$nettle_a" ]; then
  for d in /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib64 /usr/lib /usr/local/lib; do
    [ -f "$d/libnettle.a" ] && nettle_a=$d/libnettle.a && break
  done
fi
if [ ! -f "$nettle_a" ]; then
  say "no static libnettle (install nettle-dev)"
  exit 1
fi
yaml_args+=(-DWK_NETTLE_LIB="$nettle_a")

# ---- the team's driver, a static library ----------------------------------
# Its DriverEntry is renamed the way wk_refdriver_static renames the
# reference driver's, so the harnesses call it (fuzz/driver/fuzz_driver.h).
# A relative path is taken from the working directory this script was
# started in (OSS-Fuzz: the Dockerfile's WORKDIR).
driver_libs=()
if [ -n "${WK_DRIVER_SOURCES:-}" ]; then
  drv=$WORK/driver
  rm -rf "$drv"
  mkdir -p "$drv"
  objs=()
  n=0
  for src in $WK_DRIVER_SOURCES; do
    case "$src" in /*) ;; *) src=$PWD/$src ;; esac
    if [ ! -f "$src" ]; then
      say "WK_DRIVER_SOURCES: no such file: $src"
      exit 1
    fi
    n=$((n + 1))
    obj=$drv/$n-$(basename "$src").o
    # The flags are word lists by contract: unquoted.
    # shellcheck disable=SC2086
    case "$src" in
      *.c)
        $CC $CFLAGS -std=c11 -fPIC -I"$repo/include" -DDriverEntry=wk_fuzz_linked_DriverEntry \
          ${WK_DRIVER_CFLAGS:-} -c "$src" -o "$obj" ;;
      *.cc | *.cpp | *.cxx)
        # As docs/writing-a-driver.md, "C++ drivers": no exceptions, no RTTI,
        # and not the two UBSan checks whose runtime half the kit's C
        # programs lack.
        $CXX $CXXFLAGS -std=c++17 -fno-exceptions -fno-rtti -fno-sanitize=function,vptr -fPIC -I"$repo/include" \
          -DDriverEntry=wk_fuzz_linked_DriverEntry ${WK_DRIVER_CFLAGS:-} -c "$src" -o "$obj" ;;
      *)
        say "WK_DRIVER_SOURCES: $src is neither C (.c) nor C++ (.cc, .cpp, .cxx)"
        exit 1 ;;
    esac
    objs+=("$obj")
  done
  ${AR:-ar} rcs "$drv/libwk_team_driver.a" "${objs[@]}"
  driver_libs+=("$drv/libwk_team_driver.a")
  say "compiled the driver under test: $n sources into $drv/libwk_team_driver.a"
fi
given_libs=${WK_DRIVER_LIB:-}
for lib in ${given_libs//;/ }; do
  case "$lib" in /*) ;; *) lib=$PWD/$lib ;; esac
  if [ ! -f "$lib" ]; then
    say "WK_DRIVER_LIB: no such file: $lib"
    exit 1
  fi
  driver_libs+=("$lib")
done
# Always passed, empty without a driver: a build folder reused from a run
# with a driver must not keep it in its cache.
driver_arg=$(IFS=';' && echo "${driver_libs[*]}")
extra_cmake_args=()
if [ -n "${WK_DRIVER_CMAKE_ARGS:-}" ]; then
  read -r -a extra_cmake_args <<<"$WK_DRIVER_CMAKE_ARGS"
fi

# ---- the project's libraries and the harnesses' objects ---------------------
# No build type: the engine's flags decide optimisation and debug info.
# NDEBUG as in the libfuzzer preset (the manager's invariant walk is for its
# own tests, and costs executions). WK_SANITIZE stays empty: sanitizers come
# in through $CFLAGS.
engine=none
suffix=_replay
if [ "${FUZZING_ENGINE:-libfuzzer}" = libfuzzer ] && [ "${SANITIZER:-}" != coverage ]; then
  engine=libfuzzer
  suffix=""
fi
say "configuring $repo in $build (WK_FUZZ_ENGINE=$engine)"
cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE= \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_C_FLAGS="$CFLAGS -DNDEBUG" -DCMAKE_CXX_FLAGS="$CXXFLAGS -DNDEBUG" \
  -DCMAKE_COMPILE_WARNING_AS_ERROR=OFF -DWK_BUILD_TESTS=OFF -DWK_BUILD_BENCH=OFF -DWK_BUILD_EXAMPLES=OFF -DWK_FUZZ_ENGINE=$engine -DWK_SANITIZE= -DWK_COVERAGE=OFF \
  -DWK_FUZZ_DRIVER_LIB="$driver_arg" "${yaml_args[@]}" "${extra_cmake_args[@]}" >/dev/null

targets=()
built=()
for entry in $HARNESSES; do
  h=${entry%%:*}
  if [ ! -f "$repo/harnesses/$h.c" ]; then
    say "skipping $h: harnesses/$h.c is not in this tree"
    continue
  fi
  if ! ninja -C "$build" -t targets all | grep -q "^${h}${suffix}: "; then
    say "skipping $h: harnesses/CMakeLists.txt does not declare it (wk_add_fuzzer)"
    continue
  fi
  targets+=("${h}${suffix}")
  built+=("$entry")
done
if [ ${#targets[@]} -eq 0 ]; then
  say "no harness to build"
  exit 1
fi
say "building ${targets[*]}"
cmake --build "$build" -j "$jobs" --target "${targets[@]}"

# ---- zip: `zip` when installed, else python3's zipfile ----------------------
make_zip() { # make_zip ARCHIVE DIR: every file of DIR at the archive's top
  rm -f "$1"
  if command -v zip >/dev/null 2>&1; then
    (cd "$2" && zip -q -X -r "$1" .)
  elif command -v python3 >/dev/null 2>&1; then
    python3 - "$1" "$2" <<'PY'
import os, sys, zipfile
archive, folder = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
    for name in sorted(os.listdir(folder)):
        z.write(os.path.join(folder, name), name)
PY
  else
    say "neither zip nor python3 is installed: cannot write $1"
    return 1
  fi
}

# ---- each harness: link, seeds, dictionary, options -------------------------
for entry in "${built[@]}"; do
  h=${entry%%:*}
  max_len=${entry##*:}

  # The target's link line, as CMake wrote it (the engine flag, if any, is
  # among FLAGS and is replaced by $LIB_FUZZING_ENGINE):
  #   : && CC FLAGS objs... -o fuzz/<target> LIBS... && :
  line=$(ninja -C "$build" -t commands "${h}${suffix}" | tail -n 1)
  read -r -a words <<<"$line"
  objs=()
  libs=()
  seen_o=0
  for ((i = 0; i < ${#words[@]}; i++)); do
    w=${words[$i]}
    if [ $seen_o -eq 0 ]; then
      if [ "$w" = "-o" ]; then
        seen_o=1
        i=$((i + 1)) # CMake's binary itself
      elif [[ "$w" == *.o && "$w" != */replay_main.c.o ]]; then
        objs+=("$w")
      fi
    elif [ "$w" = "&&" ]; then
      break
    else
      libs+=("$w")
    fi
  done
  if [ ${#objs[@]} -eq 0 ] || [ $seen_o -eq 0 ]; then
    say "cannot read the link line of ${h}${suffix}: $line"
    exit 1
  fi
  say "linking $OUT/$h"
  # $LIB_FUZZING_ENGINE and the flags are words lists by contract: unquoted.
  # shellcheck disable=SC2086
  (cd "$build" && $CXX $CXXFLAGS "${objs[@]}" -o "$OUT/$h" $LIB_FUZZING_ENGINE "${libs[@]}" -ldl -lpthread -lm)

  # Seeds and regressions, one flat folder (regressions prefixed: names may
  # repeat across the two), zipped.
  stage=$WORK/seeds/$h
  rm -rf "$stage"
  mkdir -p "$stage"
  for kind in seeds regressions; do
    dir=$repo/corpus/$h/$kind
    [ -d "$dir" ] || continue
    prefix=""
    [ $kind = regressions ] && prefix="regression-"
    for f in "$dir"/*; do
      name=$(basename "$f")
      case "$name" in README* | *.md | .*) continue ;; esac
      [ -f "$f" ] && cp "$f" "$stage/$prefix$name"
    done
  done
  if [ -n "$(ls -A "$stage")" ]; then
    make_zip "$OUT/${h}_seed_corpus.zip" "$stage"
  else
    say "$h has no seeds (corpus/$h/seeds): no seed corpus archive"
  fi

  {
    echo "[libfuzzer]"
    echo "max_len = $max_len"
    # fuzz_hostile's leak gate runs LeakSanitizer itself (fuzz/gate/leak_gate.h).
    if [ "$h" = fuzz_hostile ]; then
      echo "detect_leaks = 0"
    fi
    if [ -f "$repo/harnesses/$h.dict" ]; then
      cp "$repo/harnesses/$h.dict" "$OUT/$h.dict"
      echo "dict = $h.dict"
    fi
  } >"$OUT/$h.options"
done
if [ $driver_given -eq 1 ]; then
  say "done: ${#built[@]} harnesses in $OUT, each with the driver under test linked in (${driver_libs[*]})"
else
  say "done: ${#built[@]} harnesses in $OUT"
fi
