#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/binding_cli.sh WDDMKIT REFDRIVER REFDRIVER_MMIO SPECS SCRATCH GOOD BAD_MAGIC
#   ABI_2 SMALL NO_EXEC BAD_BAR NO_MEMORY CRASH_EXEC LOOP_EXEC BAD_FAULT IGNORE_BUDGET
#   FAULTS CRASH_REGWRITE NONDET GREEDY_OPAQUE OVERREAD_OPAQUE RENDER_ENCODER SLOT5 SLOT12
#   SPEND_BUDGET GPUMMU MMU_MISREAD MMU_HALF GPUMMU_REGS ENC_FILL_WRONG GPUMMU2 REFDRIVER_GPUMMU
#   GPUMMU_ROOT_KEPT
#
# What the kit makes of each test binding (tests/bindings/test_binding.c):
#   - `driver check --binding` names a binding it refuses, and why, with
#     exit 2; the good one is described (version, ABI, parts);
#   - `conform --binding` refuses a bad binding before any case runs;
#   - with the good one (the kit's command set behind processor.h) the
#     reference driver's paging buffers run through the binding path and
#     the cases pass, semantic checks included;
#   - a binding that crashes, hangs, reports a fault outside the interface
#     or ignores its budget makes the case an `error` with its BIND-* rule,
#     and never a DRV-* rule against the driver.
set -u
wddmkit=$1 refdriver=$2 refdriver_mmio=$3
shift 3
specs=$1 scratch=$2
good=$3 bad_magic=$4 abi_2=$5 small=$6 no_exec=$7 bad_bar=$8 no_memory=$9
crash_exec=${10} loop_exec=${11} bad_fault=${12} ignore_budget=${13} faults=${14} crash_regwrite=${15} nondet=${16}
greedy_opaque=${17} render_encoder=${19} spend_budget=${22}
gpummu=${23} mmu_misread=${24} mmu_half=${25} gpummu_regs=${26} enc_fill_wrong=${27}
gpummu2=${28} node_encoder=${29} refdriver_gpummu=${30} root_kept=${31} two_nodes=${32}
here=$(cd "$(dirname "$0")" && pwd)
spec=$here/bindings/specs/binding.yaml
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

rm -rf "$scratch"
mkdir -p "$scratch"
out=$scratch/out

# NAME WANT_RC REGEX COMMAND...: exit code and a line of the output.
expect() {
    local name=$1 want=$2 regex=$3
    shift 3
    "$@" >"$out" 2>&1
    local rc=$?
    [ "$rc" = "$want" ] || { fail "$name: exit code $rc, expected $want"; sed 's/^/    /' "$out"; return; }
    grep -Eq -- "$regex" "$out" || { fail "$name: no line matching /$regex/ in:"; sed 's/^/    /' "$out"; }
}

# Refused, by name and reason.
expect check.bad_magic 2 "binding refused: .* is not a wddmkit binding \(magic 0x12345678, expected 0x444e4942\)" \
    "$wddmkit" driver check "$refdriver" --binding "$bad_magic"
expect check.abi_2 2 "binding refused: binding 'test' 2.0 \(.*\) was built for binding ABI 2; this kit takes ABI 1" \
    "$wddmkit" driver check "$refdriver" --binding "$abi_2"
expect check.small 2 "binding refused: binding 'test' 1.0 \(.*\) is 24 bytes, smaller than ABI 1's [0-9]+" \
    "$wddmkit" driver check "$refdriver" --binding "$small"
expect check.no_exec 2 "binding refused: .*: its processor table \(size [0-9]+\) has no exec" \
    "$wddmkit" driver check "$refdriver" --binding "$no_exec"
expect check.bad_bar 2 "binding refused: .*: BAR0 shows segment 3, which is no memory segment of the binding's" \
    "$wddmkit" driver check "$refdriver" --binding "$bad_bar"
expect check.no_memory 2 "binding refused: .*: it has a processor but no memory layout" \
    "$wddmkit" driver check "$refdriver" --binding "$no_memory"
expect check.missing 2 "binding refused: cannot load binding $scratch/nothing.so" \
    "$wddmkit" driver check "$refdriver" --binding "$scratch/nothing.so"
expect check.none 0 "no binding \(--binding none\)" \
    "$wddmkit" driver check "$refdriver" --binding none
expect check.module_has_none 0 "no binding \(it exports no wk_binding" \
    "$wddmkit" driver check "$refdriver"
expect check.good 0 "binding 'test' 1.0, binding ABI 1: memory \(3 segments, 256 system pages\), processor \(address decoding\), from $good" \
    "$wddmkit" driver check "$refdriver" --binding "$good"

# conform refuses a bad binding before the first case.
expect conform.refused 2 "wddmkit conform: binding 'test' 2.0 .* was built for binding ABI 2" \
    "$wddmkit" conform --binding "$abi_2" "$spec"
grep -q "cases" "$out" && fail "conform.refused: cases ran"

# The good binding runs the reference driver's buffers: semantic checks run.
expect conform.good 0 "1 of 1 cases .*1 pass" "$wddmkit" conform --binding "$good" "$spec"
grep -q "gpu:     the binding's processor executes the driver's buffers" "$out" || fail "conform.good: no gpu line"
grep -Eq "^  semantic +[1-9][0-9]* run" "$out" || { fail "conform.good: no semantic check ran:"; sed 's/^/    /' "$out"; }
expect conform.good_suite 0 "all as expected" "$wddmkit" conform --binding "$good" --profile contract "$specs"
grep -Eq "^  semantic +[1-9][0-9]* run" "$out" || { fail "conform.good_suite: no semantic check ran:"; sed 's/^/    /' "$out"; }
expect conform.gpu_none 0 "all as expected" "$wddmkit" conform --binding "$good" --gpu none --profile contract "$spec"
grep -q "gpu:     none" "$out" || fail "conform.gpu_none: --gpu none did not win over the binding"

# A failing binding is an error with its rule, never the driver's failure.
for v in crash_exec:BIND-CRASH-001 loop_exec:BIND-HANG-001 bad_fault:BIND-RESULT-001 ignore_budget:BIND-BUDGET-001; do
    name=${v%%:*} rule=${v#*:}
    eval module=\$$name
    expect "conform.$name" 1 "rule: +$rule" "$wddmkit" conform --binding "$module" "$spec"
    grep -q "1 of 1 cases in .*: 1 error" "$out" || fail "conform.$name: not an error"
    grep -q "DRV-" "$out" && { fail "conform.$name: a DRV-* rule blamed the driver:"; sed 's/^/    /' "$out"; }
done

# An encoder that says it took more opaque bytes than the kit gave it: the
# binding's error, before the driver's Render sees its bytes.
expect conform.greedy_opaque 1 "rule: +BIND-RESULT-001" "$wddmkit" conform --binding "$greedy_opaque" \
    "$here/bindings/specs/encoder.yaml"
grep -q "the encoder of binding 'test' took more opaque bytes than it was given" "$out" || { fail "conform.greedy_opaque: no opaque wording:"; sed 's/^/    /' "$out"; }
grep -q "1 of 1 cases in .*: 1 error" "$out" || { fail "conform.greedy_opaque: not an error:"; sed 's/^/    /' "$out"; }
grep -q "DRV-" "$out" && { fail "conform.greedy_opaque: a DRV-* rule blamed the driver:"; sed 's/^/    /' "$out"; }

# A binding that encodes Render's bytes but not allocation requests: the
# driver gets the kit's WK_ALLOCATION_REQUEST, so the checks of that
# format run (they were skipped as "the driver reads its own allocation
# format" whenever a render encoder existed).
expect conform.render_encoder_only 0 "1 of 1 cases in .*: 1 pass" "$wddmkit" conform --binding "$render_encoder" \
    --filter allocation-placement.request-size-zero "$specs/allocation-placement.yaml"

# A register model that crashes inside the driver's own call (the
# RD_MMIO reference driver writes its registers through the BAR's window):
# the binding's fault, the driver's call unwound and never blamed.
expect conform.crash_regwrite 1 "rule: +BIND-CRASH-001" \
    "$wddmkit" conform --driver "$refdriver_mmio" --binding "$crash_regwrite" "$spec"
grep -q "registers.write32 of the binding crashed with signal 11 .* during Dxgk" "$out" || { fail "conform.crash_regwrite: no registers.write32 crash during a DDI:"; sed 's/^/    /' "$out"; }
grep -q "DRV-" "$out" && { fail "conform.crash_regwrite: a DRV-* rule blamed the driver:"; sed 's/^/    /' "$out"; }

# A GPU fault is the driver's (the processor ran its buffer), reported in the
# processor's words with the faulting command as the binding lists it.
expect conform.faults 1 "PAGING-GPU-001: .*: the paging buffer faulted on the GPU: DECODE at \+0x0 in buffer 0x[0-9a-f]+ depth 0: test fault 7 \[0x0000: TESTOP 0x[0-9a-f]{2}\]" \
    "$wddmkit" conform --binding "$faults" "$spec"
# A processor that stops on the kit's budget did as processor.h asks: the
# budget is the kit's limit (a real GPU runs the buffer to its end), so the
# case is a skip that says so, never SUBMIT-GPU-001 against the driver.
expect conform.spend_budget 0 "a limit of the kit: the DMA buffer .* ran past the kit's budget for one buffer" \
    "$wddmkit" conform --umd kit --binding "$spend_budget" --filter 'render.fill-*' "$specs/render.yaml"
grep -q "GPU-001" "$out" && { fail "conform.spend_budget: a GPU rule blamed the driver:"; sed 's/^/    /' "$out"; }
# GPU virtual addressing through a binding: the kit reads the GpuMmu
# driver's entries as the binding's hardware reads them (processor.h
# mmu_geometry, mmu_decode), and judges them by that reading.
expect check.mmu_half 2 "binding refused: .*: its processor gives mmu_geometry without mmu_decode \(both or neither\)" \
    "$wddmkit" driver check "$refdriver" --binding "$mmu_half"
expect check.gpummu 0 "processor \(address decoding, a GPU MMU of 3 levels, 39 address bits\)" \
    "$wddmkit" driver check "$refdriver" --binding "$gpummu"
expect conform.gpummu 0 "[0-9]+ of [0-9]+ cases in [0-9.]+ s: [0-9]+ pass(, 1 skip)?\$" \
    "$wddmkit" conform --profile reference --binding "$gpummu" --driver "$refdriver_gpummu" "$specs/gpu-va.yaml"
expect conform.gpummu_misread 1 "PAGING-UPDATEPT-001" \
    "$wddmkit" conform --binding "$mmu_misread" --driver "$refdriver_gpummu" --filter 'gpu-va.map-read' "$specs/gpu-va.yaml"
# The encoder learns the node of the context Render builds for, and may
# refuse what that engine does not run (a BLIT on a copy engine): the test
# binding's says which node it got, and the case is a skip saying so.
expect conform.node_encoder 0 "the test binding's encoder got node 1" \
    "$wddmkit" conform --binding "$node_encoder" --driver "$two_nodes" --filter contexts.render-on-node-1 "$specs"
# Virtual contexts on a binding: its encoder writes the buffers
# (encoder.commands). Without registers the kit runs them in the context's
# space; with them (the kit's ring registers, RING_ROOT) under the root the
# driver latched, so a driver that keeps a moved root is caught there.
# (the two root-shrinks cases are skips: this tree has 3 levels, and only
# a 2-level root resizes)
expect conform.gpummu_contexts 0 "19 of 19 cases in [0-9.]+ s: 17 pass, 2 skip\$" \
    "$wddmkit" conform --binding "$gpummu" --driver "$refdriver_gpummu" "$specs/gpu-va-contexts.yaml"
expect conform.gpummu_regs 0 "[0-9]+ of [0-9]+ cases in [0-9.]+ s: [0-9]+ pass, 3 skip\$" \
    "$wddmkit" conform --profile reference --binding "$gpummu_regs" --driver "$refdriver_gpummu" \
    "$specs/gpu-va.yaml" "$specs/gpu-va-contexts.yaml"
expect conform.gpummu_regs_root_kept 1 "SUBMITV-GPU-001: .*ran it under root 0x[0-9a-f]+, no address space's" \
    "$wddmkit" conform --binding "$gpummu_regs" --driver "$root_kept" "$specs/gpu-va-contexts.yaml"
expect conform.gpummu_no_mmu 0 "no GPU virtual address space: the hardware binding says nothing of its GPU's MMU" \
    "$wddmkit" conform --binding "$good" --driver "$refdriver_gpummu" --filter 'gpu-va.map-read' "$specs/gpu-va.yaml"
expect disasm.binding 0 "^0x0004: TESTOP 0x02$" "$wddmkit" gpu disasm --binding "$faults" "$here/bindings/specs/four_words.bin"
expect disasm.no_disasm 2 "binding 'test' .* has no disassembler" "$wddmkit" gpu disasm --binding "$good" "$here/bindings/specs/four_words.bin"

# `binding check`: a binding on its own, on random buffers twice each.
expect check.selfcheck_good 0 "result: clean" "$wddmkit" binding check "$good" --inputs 300
# The encoder's command buffers run by the processor (encoder.commands):
# they do as asked, or the binding check says the two disagree.
expect check.selfcheck_encoder 0 "encoder commands run   8: 8 as asked, 0 otherwise, 0 not judged" \
    "$wddmkit" binding check "$gpummu" --inputs 20
expect check.selfcheck_encoder_wrong 1 "first problem: input 20: encoder.commands: its FILL of 4096 bytes at 0x[0-9a-f]+ ran as 0x[0-9a-f]+ at \+0, not 0x[0-9a-f]+: encoder and processor disagree" \
    "$wddmkit" binding check "$enc_fill_wrong" --inputs 20
expect check.selfcheck_crash 3 "BIND-CRASH-001: input 0: the binding crashed with signal (11|6) " \
    "$wddmkit" binding check "$crash_exec" --inputs 5
expect check.selfcheck_hang 3 "BIND-HANG-001: input 0 ran longer than 1 s" \
    "$wddmkit" binding check "$loop_exec" --inputs 5 --hang 1
expect check.selfcheck_result 1 "first problem: input 0: answered outside processor.h \(BIND-RESULT-001\)" \
    "$wddmkit" binding check "$bad_fault" --inputs 5
expect check.selfcheck_budget 1 "ran on after the budget was spent \(BIND-BUDGET-001\)" \
    "$wddmkit" binding check "$ignore_budget" --inputs 5
expect check.selfcheck_nondet 1 "not deterministic +[1-9]" "$wddmkit" binding check "$nondet" --inputs 20
expect check.selfcheck_refused 2 "binding refused: .*was built for binding ABI 2" "$wddmkit" binding check "$abi_2"

if [ "$fails" = 0 ]; then
    echo "binding_cli: all checks passed"
else
    echo "binding_cli: $fails check(s) failed"
    exit 1
fi
