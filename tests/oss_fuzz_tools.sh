# SPDX-License-Identifier: MIT
# tests/oss_fuzz_tools.sh - sourced by the `fuzzbuild` tests
# (oss_fuzz_build.sh, oss_fuzz_team_driver.sh): exits 77 (skipped) unless
# what oss-fuzz/build.sh needs for a libFuzzer build is here: clang and
# clang++ with the libFuzzer runtime (Debian: libclang-rt-dev), cmake,
# ninja, and zip or python3 for the seed archives.
# Usage: wk_ossfuzz_require_tools PROBE_DIR
wk_ossfuzz_require_tools() {
  local tool
  for tool in clang clang++ cmake ninja; do
    command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool is not installed"; exit 77; }
  done
  if ! command -v zip >/dev/null 2>&1 && ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: neither zip nor python3 is installed (build.sh needs one to write the seed archives)"
    exit 77
  fi
  mkdir -p "$1"
  printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' \
    >"$1/probe.c"
  clang -fsanitize=fuzzer "$1/probe.c" -o "$1/probe" >/dev/null 2>&1 ||
    { echo "SKIP: clang cannot link -fsanitize=fuzzer (libFuzzer runtime missing)"; exit 77; }
}
