#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/gpu_cli.sh - ctest gpu.cli: `wddmkit gpu disasm|validate|exec FILE`
# (cli/cli_gpu.c) as docs/gpu-model.md describes them.
#
# Checks:
#   1. the example of "Command encoding" / "Example", read from the document
#      itself (its first code block is the listing, its second the bytes in
#      hex): the bytes disassemble to the listing, `validate` and `exec`
#      accept them, and `exec` prints every counter of "Counters" (interrupts,
#      execs, faults, the last fence), so the example cannot drift into one
#      that faults again;
#   2. a refused operand says which and why, from `validate` and `exec` alike;
#      `validate` names no buffer (it fetched none);
#   3. a fault inside a CALL is printed at the file offset of the CALL, the
#      callee's own offset and buffer in the rest of the line;
#   4. a memory fault at address 0 prints that address;
#   5. `exec` refuses a file larger than segment 1 and says where it loads
#      it, while `validate` accepts it;
#   6. `disasm` ends at a truncated command with its name and "1 byte left".
#
# Usage: gpu_cli.sh WDDMKIT GPU_MODEL_MD WORK_DIR
set -u
wddmkit=$1 doc=$2 work=$3
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf "$work" && mkdir -p "$work" || exit 1

# Little-endian bytes: le VALUE WIDTH.
le() {
    local v=$1 n=$2 i
    for ((i = 0; i < n; i++)); do printf "\\x$(printf %02x $(((v >> (8 * i)) & 255)))"; done
}

# expect_line NAME WANT_STATUS WANT_LINE CMD...: CMD exits WANT_STATUS and
# prints WANT_LINE as a whole line (stdout or stderr).
expect_line() {
    local name=$1 want_rc=$2 want=$3 rc
    shift 3
    "$@" >"$work/out.txt" 2>&1
    rc=$?
    [ "$rc" = "$want_rc" ] || fail "$name: exit $rc, expected $want_rc"
    grep -qxF -- "$want" "$work/out.txt" || {
        fail "$name: no line \"$want\" in:"
        sed 's/^/    /' "$work/out.txt"
    }
}

# 1. The documented example.
awk '/^### Example/ { on = 1; next } on && /^##/ { exit }
     on && /^```/ { block++; next }
     on && block == 1 { print > "'"$work/listing.txt"'" }
     on && block == 3 { print > "'"$work/hex.txt"'" }' "$doc"
if [ ! -s "$work/listing.txt" ] || [ ! -s "$work/hex.txt" ]; then
    fail "no listing and byte block under \"### Example\" in $doc"
else
    for b in $(cat "$work/hex.txt"); do printf "\\x$b"; done >"$work/example.bin"
    "$wddmkit" gpu disasm "$work/example.bin" >"$work/disasm.txt" 2>&1 || fail "example: disasm exit $?"
    diff -u "$work/listing.txt" "$work/disasm.txt" || fail "example: the bytes do not disassemble to the listing"
    expect_line "example: validate" 0 "$work/example.bin: valid ($(wc -c <"$work/example.bin") bytes)" \
        "$wddmkit" gpu validate "$work/example.bin"
    expect_line "example: exec" 0 "$work/example.bin: ran to the end" "$wddmkit" gpu exec "$work/example.bin"
    grep -q "interrupts 1, last fence 0x1" "$work/out.txt" || fail "example: exec prints no interrupts or last fence"
    grep -q "execs 1, faults 0" "$work/out.txt" || fail "example: exec prints no execs or faults"
fi

# 2. GART_MAP of memory segment 1.
{ le 6 4; le 1 4; le 0 4; le 0 4; } >"$work/gart.bin"
expect_line "gart: validate" 1 "$work/gart.bin:+0x0: BAD_OPERAND at +0x0 (GART_MAP): segment 1 is not an aperture" \
    "$wddmkit" gpu validate "$work/gart.bin"
expect_line "gart: exec" 1 \
    "$work/gart.bin:+0x0: BAD_OPERAND at +0x0 (GART_MAP) in buffer 0x100000 depth 0: segment 1 is not an aperture" \
    "$wddmkit" gpu exec "$work/gart.bin"
{ le 0x10a 4; le 0 32; } >"$work/blit.bin"
expect_line "blit: disasm" 1 "0x0000: <BAD_OPERAND: BLIT (opcode byte 0x0a): reserved header bits 0x100 set, 36 bytes left>" \
    "$wddmkit" gpu disasm "$work/blit.bin"

# 3. NOP, CALL 0x100100 (16 bytes), zeroes up to +0x100, where the callee
# writes to 0x200000 (in no region).
{
    le 0 4; le 9 4; le 0x100100 8; le 16 4
    head -c $((0x100 - 20)) /dev/zero
    le 3 4; le 0x200000 8; le 1 4
} >"$work/call.bin"
expect_line "call: exec" 1 "$work/call.bin:+0x4: BAD_ADDRESS at +0x0 (WRITE32) in buffer 0x100100 depth 1: address 0x200000" \
    "$wddmkit" gpu exec "$work/call.bin"

# 4. WRITE32 to address 0.
{ le 3 4; le 0 8; le 1 4; } >"$work/zero.bin"
expect_line "address 0: exec" 1 "$work/zero.bin:+0x0: BAD_ADDRESS at +0x0 (WRITE32) in buffer 0x100000 depth 0: address 0x0" \
    "$wddmkit" gpu exec "$work/zero.bin"
expect_line "address 0: validate" 1 "$work/zero.bin:+0x0: BAD_ADDRESS at +0x0 (WRITE32): address 0x0" \
    "$wddmkit" gpu validate "$work/zero.bin"

# 5. One NOP more than segment 1 holds.
head -c $((0x100000 + 4)) /dev/zero >"$work/big.bin"
"$wddmkit" gpu exec "$work/big.bin" >"$work/out.txt" 2>&1
rc=$?
[ "$rc" = 2 ] || fail "big: exec exit $rc, expected 2"
grep -q "loads the buffer at 0x100000, the start of segment 1" "$work/out.txt" ||
    fail "big: exec does not say where it loads the buffer: $(cat "$work/out.txt")"
expect_line "big: validate" 0 "$work/big.bin: valid (1048580 bytes)" "$wddmkit" gpu validate "$work/big.bin"

# 6. A lone COPY opcode byte.
printf '\x01' >"$work/one.bin"
expect_line "one byte: disasm" 1 "0x0000: <TRUNCATED: COPY (opcode byte 0x01) needs 28 bytes, 1 byte left>" \
    "$wddmkit" gpu disasm "$work/one.bin"

if [ "$fails" -ne 0 ]; then
    echo "gpu_cli: $fails check(s) failed"
    exit 1
fi
echo "gpu_cli: all checks passed"
