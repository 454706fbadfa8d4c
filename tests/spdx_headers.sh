#!/bin/sh
# SPDX-License-Identifier: MIT
# spdx_headers.sh ROOT - every source file of the kit names its licence
# (LICENSE, MIT) in an SPDX line within its first three lines, so a file
# copied out of the tree still says under what terms. Prints the files that
# do not and exits 1; corpus inputs and generated build trees are data.
root=${1:?usage: spdx_headers.sh ROOT}
cd "$root" || exit 2
[ -f LICENSE ] || { echo "spdx_headers: no LICENSE file in $root"; exit 1; }
missing=$(find . \( -path ./build -o -path ./corpus -o -path ./.git \) -prune -o -type f \
  \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.cmake' -o -name CMakeLists.txt \
     -o -name '*.sh' -o -name Makefile -o -name Dockerfile -o -name '*.yml' \) -print |
  while read -r f; do head -3 "$f" | grep -q 'SPDX-License-Identifier: MIT' || echo "$f"; done)
if [ -n "$missing" ]; then
  echo "spdx_headers: these files have no 'SPDX-License-Identifier: MIT' line in their first three:"
  echo "$missing"
  exit 1
fi
echo "spdx_headers: every source file names its licence"
