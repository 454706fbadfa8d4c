#!/bin/sh
# SPDX-License-Identifier: MIT
# module_graph_rule.sh REPO - scripts/module-graph.sh --check catches what
# it must (ctest layout.includes_catches): in a scratch tree, an arrow up
# (gpu-model including conformance's API), an include past a module's API
# (fuzz including conformance/spec/spec_internal.h), and the kit including
# a leaf (cli including tests/); and passes a tree that keeps the rule.
repo=${1:?usage: module_graph_rule.sh REPO}
script=$repo/scripts/module-graph.sh
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
fail() { echo "module_graph_rule: $*"; exit 1; }

mkdir -p "$work/include/wddmkit" "$work/gpu-model" "$work/conformance/spec" "$work/fuzz" "$work/cli" "$work/tests"
echo '/* api */' >"$work/conformance/conformance.h"
echo '/* internal */' >"$work/conformance/spec/spec_internal.h"
echo '/* leaf */' >"$work/tests/helper.h"
echo '#include "wddmkit/gpu.h"' >"$work/gpu-model/ok.c"
echo '/* gpu api */' >"$work/include/wddmkit/gpu.h"
printf '#include "conformance.h"\n#include "wddmkit/gpu.h"\n' >"$work/fuzz/ok.c"
printf '#include "conformance.h"\n#include "../tests/helper.h"\n' >"$work/tests/t.c"
sh "$script" --check "$work" >"$work/out" 2>&1 || { cat "$work/out"; fail "a tree that keeps the rule was refused"; }

echo '#include "conformance.h"' >"$work/gpu-model/up.c"
echo '#include "spec/spec_internal.h"' >"$work/fuzz/past.c"
echo '#include "../tests/helper.h"' >"$work/cli/leaf.c"
if sh "$script" --check "$work" >"$work/out" 2>&1; then cat "$work/out"; fail "three broken includes passed"; fi
grep -q 'gpu-model/up.c:1: .*arrow up (gpu-model is below conformance)' "$work/out" || { cat "$work/out"; fail "the arrow up was not named"; }
grep -q "fuzz/past.c:1: .*past conformance/'s API" "$work/out" || { cat "$work/out"; fail "the include past the API was not named"; }
grep -q 'cli/leaf.c:1: .*includes a leaf (tests/)' "$work/out" || { cat "$work/out"; fail "the include of a leaf was not named"; }
grep -q '3 includes break it' "$work/out" || { cat "$work/out"; fail "the count is wrong"; }
echo "module_graph_rule: all checks passed"
