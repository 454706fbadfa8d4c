#!/bin/bash -eu
# SPDX-License-Identifier: MIT
# .clusterfuzzlite/build.sh - ClusterFuzzLite's build step: the same build as
# OSS-Fuzz's (oss-fuzz/build.sh, in the checkout the Dockerfile copied to
# $SRC/wddmkit), so the two never drift apart.
exec bash "$SRC/wddmkit/oss-fuzz/build.sh"
