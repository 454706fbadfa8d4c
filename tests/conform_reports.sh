#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/conform_reports.sh - ctest conform.reports_pipe: reports as a user
# pipes, redirects and links them (conformance/runner/report_target.c,
# cli/cli_conform.c, docs/command-line.md "Report files"), through the real
# wddmkit binary:
#   1. --json - / --junit - / --tap - write the report to stdout and only the
#      report (the console goes to stderr): stdout parses as JSON, validates
#      against tests/data/junit.xsd, is run by prove as a TAP test;
#      /proc/self/fd/1 (a path that is stdout) counts as -;
#   2. two reports on stdout: a usage error (exit 2) before anything runs;
#   3. a FIFO read by cat in the background gets the report and stays a FIFO;
#   4. a symlink to a report file stays a symlink, its target gets the new
#      report; a dangling symlink's target is created, the link kept;
#   5. a report in a folder that does not exist, or a folder given as the
#      report: exit 2 naming the path and why, before any case ran (no case
#      line, no gpu: line, no journal);
#   6. provenance: the driver's SHA-256 (sha256sum's), its build-id
#      (readelf's, when readelf is installed), the kit's commit (HEAD or an
#      ancestor, in the kit's own checkout; else unknown) and version, in
#      JSON, JUnit and TAP.
#   7. a report that cannot be written at the end (its folder removed
#      during the run): said, exit 2, the other report written whole and
#      the journal holding every case.
# Never run against /dev/stdout or another device: before the fix, a
# report renamed over one as root replaced the device node.
# Usage: conform_reports.sh WDDMKIT DRIVER.so SLOW_DRIVER.so SPEC SOURCE_DIR XSD WORK_DIR
set -u
wddmkit=$1 driver=$2 slow=$3 spec=$4 src=$5 xsd=$6 work=$7
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
conform() { "$wddmkit" conform -j 2 --driver "$driver" "$@" "$spec"; }
json_ok() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["totals"]["finished"] > 0' "$1" 2>/dev/null; }

# 1. stdout.
conform --json - >out.json 2>out.err
code=$?
[ "$code" = 0 ] || fail "--json -: exit $code"
json_ok out.json || fail "--json -: stdout is not the JSON report: $(head -c 200 out.json)"
grep -q '^gpu: ' out.err || fail "--json -: the console's gpu: line is not on stderr"
grep -q 'RESULT' out.err || fail "--json -: the summary is not on stderr"
[ ! -e ./- ] || fail "--json -: made a file named -"
conform --junit - 2>junit.err | tee out.xml | xmllint --noout --schema "$xsd" - 2>xmllint.err ||
    fail "--junit -: stdout is not valid JUnit: $(cat xmllint.err | head -3)"
cat >tap.sh <<SH
#!/bin/sh
exec "$wddmkit" conform -j 2 --driver "$driver" --tap - "$spec" 2>tap.err
SH
chmod +x tap.sh
if command -v prove >/dev/null; then
    prove ./tap.sh >prove.out 2>&1 || fail "--tap - | prove: $(cat prove.out)"
else
    ./tap.sh | grep -q '^1\.\.[1-9]' || fail "--tap -: no plan on stdout"
fi
(exec "$wddmkit" conform -j 2 --driver "$driver" --json /proc/self/fd/1 "$spec" >proc.json 2>proc.err)
json_ok proc.json || fail "--json /proc/self/fd/1: stdout is not the JSON report"
grep -q '^gpu: ' proc.err || fail "--json /proc/self/fd/1: the console is not on stderr"

# 2. Two reports on stdout.
conform --json - --junit /proc/self/fd/1 >two.out 2>two.err
code=$?
[ "$code" = 2 ] || fail "two reports on stdout: exit $code, expected 2"
grep -q 'only one report can take stdout' two.err || fail "two reports on stdout: $(cat two.err)"
[ ! -s two.out ] || fail "two reports on stdout: something ran: $(head -3 two.out)"

# 3. A FIFO, read by cat in the background.
mkfifo fifo
timeout 120 cat fifo >from-fifo.json &
reader=$!
conform --json fifo >fifo.out 2>&1
code=$?
wait "$reader"
[ "$code" = 0 ] || fail "--json FIFO: exit $code: $(tail -3 fifo.out)"
json_ok from-fifo.json || fail "--json FIFO: the reader did not get the report"
[ -p fifo ] || fail "--json FIFO: the FIFO was replaced by $(ls -l fifo)"

# 4. Symlinks.
echo old >target.json
ln -s target.json link.json
conform --json link.json >link.out 2>&1 || fail "--json symlink: exit $?"
[ -L link.json ] || fail "--json symlink: link.json is no longer a symlink"
[ "$(readlink link.json)" = target.json ] || fail "--json symlink: the link now points at $(readlink link.json)"
json_ok target.json || fail "--json symlink: the target does not hold the report"
ls target.json.tmp.* >/dev/null 2>&1 && fail "--json symlink: a temporary file was left behind"
ln -s made.xml dangling.xml
conform --junit dangling.xml >dangling.out 2>&1 || fail "--junit dangling symlink: exit $?"
[ -L dangling.xml ] && [ -f made.xml ] || fail "--junit dangling symlink: $(ls -l dangling.xml made.xml 2>&1)"
xmllint --noout --schema "$xsd" made.xml 2>/dev/null || fail "--junit dangling symlink: made.xml is not valid JUnit"

# 5. A bad path: refused before any case runs.
for bad in "$work/no-such-folder/r.json" "$work"; do
    conform --json "$bad" --tap ok.tap >bad.out 2>&1
    code=$?
    [ "$code" = 2 ] || fail "--json $bad: exit $code, expected 2"
    grep -q "^wddmkit conform: --json $bad: " bad.out || fail "--json $bad: the message does not name it: $(head -2 bad.out)"
    grep -q 'No such file or directory\|a directory, where a file was expected' bad.out ||
        fail "--json $bad: the message does not say why: $(head -2 bad.out)"
    grep -q '^gpu: \|\.\.\. pass\|^\[ *1/' bad.out && fail "--json $bad: the run started: $(cat bad.out)"
    [ ! -e ok.tap ] && [ ! -e ok.tap.journal ] || fail "--json $bad: a report or journal was written"
done

# 6. Provenance.
sha=$(sha256sum "$driver" | cut -d' ' -f1)
# The kit's commit: read at configure time, so a commit made since the
# last build may be newer; the binary's must be HEAD or one of its
# ancestors in the kit's own checkout, else "unknown".
commit=$("$wddmkit" version | sed -n 's/^commit //p')
top=$(git -C "$src" rev-parse --show-toplevel 2>/dev/null)
if [ -n "$top" ] && [ "$(realpath "$top")" = "$(realpath "$src")" ]; then
    git -C "$src" merge-base --is-ancestor "$commit" HEAD 2>/dev/null ||
        fail "wddmkit version: commit '$commit' is not HEAD ($(git -C "$src" rev-parse HEAD)) or an ancestor"
elif [ "$commit" != unknown ]; then
    fail "wddmkit version: commit '$commit' outside a git checkout of the kit, expected unknown"
fi
build_id=
command -v readelf >/dev/null && build_id=$(readelf -n "$driver" | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p')
python3 - out.json "$sha" "$commit" "$build_id" "$("$wddmkit" version | head -1 | cut -d' ' -f2)" <<'PY' ||
import json, sys
env = json.load(open(sys.argv[1]))["environment"]
doc = json.load(open(sys.argv[1]))
want = {"driver_sha256": sys.argv[2], "kit_commit": sys.argv[3], "kit_version": sys.argv[5]}
if sys.argv[4]:
    want["driver_build_id"] = sys.argv[4]
bad = {k: (env.get(k), v) for k, v in want.items() if env.get(k) != v}
if doc.get("schema_version") != "1.3":
    bad["schema_version"] = doc.get("schema_version")
if bad:
    sys.exit("JSON provenance (seen, expected): %r" % bad)
PY
    fail "JSON provenance"
grep -q "<property name=\"driver-sha256\" value=\"$sha\"/>" out.xml || fail "JUnit: no driver-sha256 property"
grep -q "<property name=\"kit-commit\" value=\"$commit\"/>" out.xml || fail "JUnit: no kit-commit property"
[ -z "$build_id" ] || grep -q "<property name=\"driver-build-id\" value=\"$build_id\"/>" out.xml ||
    fail "JUnit: no driver-build-id property"
./tap.sh >tap.out
grep -v '^TAP version 13$\|^# \|^ok \|^not ok \|^1\.\.[0-9]*$\|^  ' tap.out >tap.other &&
    fail "--tap -: stdout holds lines that are not TAP: $(head -3 tap.other)"
grep -q "^# driver-sha256: $sha$" tap.out || fail "TAP: no driver-sha256 comment"
grep -q "^# kit-commit: $commit$" tap.out || fail "TAP: no kit-commit comment"
[ -z "$build_id" ] || grep -q "^# driver-build-id: $build_id$" tap.out || fail "TAP: no driver-build-id comment"

# 7. A report that fails at the end costs only itself.
mkdir gone
(WK_TEST_SLOW_START_MS=100 exec "$wddmkit" conform -j 1 --driver "$slow" --junit kept.xml --json gone/r.json \
    "$spec" >gone.out 2>&1) &
run=$!
for _ in $(seq 500); do [ -s kept.xml.journal ] && [ "$(wc -l <kept.xml.journal)" -ge 2 ] && break; sleep 0.01; done
rm -rf gone
wait "$run"
code=$?
[ "$code" = 2 ] || fail "report folder removed during the run: exit $code, expected 2"
grep -q "^wddmkit: gone/r.json: " gone.out || fail "report folder removed: the failure does not name it: $(tail -3 gone.out)"
grep -q "a report could not be written (above); the others were, and kept.xml.journal keeps every finished case" \
    gone.out || fail "report folder removed: no word on what was kept: $(tail -3 gone.out)"
xmllint --noout --schema "$xsd" kept.xml 2>/dev/null || fail "report folder removed: kept.xml is not valid JUnit"
grep -q '<testsuites name="wddmkit conform" tests="12"' kept.xml || fail "report folder removed: kept.xml lacks cases"
[ "$(grep -c '"id"' kept.xml.journal)" -ge 12 ] || fail "report folder removed: the journal lacks cases"

[ "$fails" = 0 ] && echo "conform_reports: all checks passed"
exit $((fails != 0))
