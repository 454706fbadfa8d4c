#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/run_all.py - `make bench`: every benchmark of a build, one table.

Runs each benchmark program of BUILD/bench/ (and `fuzz_speed --floor` of the
bench-floor build, which times the driver's code: docs/performance.md) with WK_BENCH_FIGURES pointing at
a file they append their figures to (bench/figures.h: one JSON object a
line), then prints one table (figure, value, goal, met or not, and the
"before" column from the committed baseline, docs/bench-baseline.json) and
writes BUILD/bench/results.json: the machine, the compiler, the commit and
every figure with its unit and goal (its shape: docs/bench-results.schema.json).

    python3 bench/run_all.py --build build/default [--floor-build build/bench-floor]
                             [--quick] [--only NAME,...] [--out FILE] [--baseline FILE]
    python3 bench/run_all.py --build build/default --update-baseline

--quick (`make bench QUICK=1`) sets WK_BENCH_QUICK=1: each benchmark does the
least work that still gives every figure (seconds in all; noisy figures, for
checking the machinery, not for judging speed). --update-baseline runs the
full set and writes the baseline: a deliberate act, committed with the change
that moved the figures. A benchmark measures; it does not judge: the exit
code is 0 whether goals are met or not, 1 when a benchmark failed to run or
wrote a figure this script cannot read, 2 on a usage error.
"""
import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

FORMAT = "wddmkit-bench-1"
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

# The benchmarks `make bench` runs, in order, with their arguments. A program
# the build lacks (mutator_speed needs the AFL++ mutator library) is listed as
# not built. fuzz_stability, sanitize_scope_speed.sh, mutation/ and matrix/
# need other presets or take minutes to hours: they are run on their own
# (bench/README.md).
# Each: its name, the build it runs from ("main": --build; "floor": the
# bench-floor build, --floor-build), the program and its arguments.
BENCHMARKS = [
    ("gpu_copy", "main", "gpu_copy", ["--processor", "--flat"]),
    ("gpu_blit", "main", "gpu_blit", []),
    ("gpu_reset", "main", "gpu_reset", []),
    ("conform_speed", "main", "conform_speed", []),
    ("fuzz_speed", "main", "fuzz_speed", []),
    ("mutator_speed", "main", "mutator_speed", []),
    ("vidmm_scale", "main", "vidmm_scale", []),
    ("floor_paging", "floor", "fuzz_speed", ["--floor", "fuzz_paging"]),
    ("floor_prog", "floor", "fuzz_speed", ["--floor", "fuzz_prog"]),
]

FIGURE_KEYS = {"name", "value", "unit", "goal", "what", "quick"}


class BadFigure(Exception):
    pass


def read_figures(path, bench):
    """The figures a benchmark appended: a list of dicts, checked."""
    figures = []
    if not os.path.exists(path):
        return figures
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            try:
                fig = json.loads(line)
            except json.JSONDecodeError as e:
                raise BadFigure(f"{bench}: figure line {number}: not JSON ({e})")
            if not isinstance(fig, dict) or set(fig) != FIGURE_KEYS:
                raise BadFigure(f"{bench}: figure line {number}: expected the keys {sorted(FIGURE_KEYS)}")
            goal = fig["goal"]
            if goal is not None and (not isinstance(goal, dict) or goal.get("op") not in (">=", "<=")
                                     or not isinstance(goal.get("value"), (int, float))):
                raise BadFigure(f"{bench}: figure line {number}: goal must be null or {{op: >=|<=, value}}")
            figures.append(fig)
    return figures


def goal_met(fig):
    goal, value = fig["goal"], fig["value"]
    if goal is None:
        return None
    if value is None:
        return False
    return value >= goal["value"] if goal["op"] == ">=" else value <= goal["value"]


def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def mem_total_kib():
    try:
        with open("/proc/meminfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def cmake_cache(build):
    cache = {}
    try:
        with open(os.path.join(build, "CMakeCache.txt"), encoding="utf-8") as f:
            for line in f:
                if "=" in line and ":" in line.split("=", 1)[0] and not line.startswith(("//", "#")):
                    key, value = line.rstrip("\n").split("=", 1)
                    cache[key.split(":", 1)[0]] = value
    except OSError:
        pass
    return cache


def compiler(cache):
    cc = cache.get("CMAKE_C_COMPILER", "")
    version = "unknown"
    if cc:
        try:
            out = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=10).stdout
            version = out.splitlines()[0] if out else "unknown"
        except (OSError, subprocess.TimeoutExpired):
            pass
    return {"path": cc or None, "version": version, "build_type": cache.get("CMAKE_BUILD_TYPE") or None}


def commit():
    def git(*args):
        r = subprocess.run(["git", "-C", REPO, *args], capture_output=True, text=True)
        return r.stdout.strip() if r.returncode == 0 else None
    head = git("rev-parse", "HEAD")
    dirty = git("status", "--porcelain", "--untracked-files=no")
    return {"sha": head, "dirty": bool(dirty) if dirty is not None else None}


def load_baseline(path):
    if not path or not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if doc.get("format") != FORMAT:
        raise BadFigure(f"{path}: format {doc.get('format')!r}, expected {FORMAT!r}")
    return {fig["name"]: fig for fig in doc.get("figures", [])}


def run_benchmarks(builds, names, quick, log_dir):
    """Runs each benchmark; returns (figures, benchmarks) or raises BadFigure."""
    figures, runs = [], []
    env = dict(os.environ)
    env.pop("WK_BENCH_QUICK", None)
    if quick:
        env["WK_BENCH_QUICK"] = "1"
    for name, which, program_name, args in BENCHMARKS:
        if names and name not in names:
            continue
        build = builds.get(which)
        program = os.path.join(build, "bench", program_name) if build else None
        if not program or not os.access(program, os.X_OK):
            runs.append({"name": name, "args": args, "status": "not built", "seconds": None})
            where = build or "the bench-floor build (cmake --preset bench-floor; --floor-build)"
            print(f"  {name}: not built in {where}", flush=True)
            continue
        with tempfile.NamedTemporaryFile(prefix=f"{name}.", suffix=".jsonl", delete=False) as tmp:
            figures_path = tmp.name
        env["WK_BENCH_FIGURES"] = figures_path
        log = os.path.join(log_dir, f"{name}.log")
        print(f"  {name}: {program} {' '.join(args)}".rstrip() + f"  (output: {log})", flush=True)
        start = time.monotonic()
        with open(log, "w", encoding="utf-8") as out:
            rc = subprocess.run([program, *args], stdout=out, stderr=subprocess.STDOUT, env=env,
                                cwd=build).returncode
        seconds = time.monotonic() - start
        try:
            found = read_figures(figures_path, name)
        finally:
            os.unlink(figures_path)
        status = "ok" if rc == 0 else f"exit {rc}"
        if rc == 0 and not found:
            status = "no figures"
        runs.append({"name": name, "args": args, "status": status, "seconds": round(seconds, 3)})
        for fig in found:
            fig["benchmark"] = name
        figures.extend(found)
    return figures, runs


def fmt(value, unit):
    if value is None:
        return "-"
    text = f"{value:.4g}" if abs(value) < 1000 else f"{value:,.0f}"
    return f"{text} {unit}" if unit and unit != "ratio" else text


def print_table(figures, baseline):
    rows = [("figure", "value", "goal", "met", "before")]
    for fig in figures:
        goal = fig["goal"]
        met = goal_met(fig)
        before = baseline.get(fig["name"], {}).get("value")
        rows.append((fig["name"], fmt(fig["value"], fig["unit"]),
                     f"{goal['op']} {goal['value']:g}" if goal else "info",
                     "-" if met is None else "met" if met else "MISSED",
                     fmt(before, fig["unit"]) if fig["name"] in baseline else "-"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for k, r in enumerate(rows):
        print("  ".join(c.ljust(widths[i]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(r)))
        if k == 0:
            print("  ".join("-" * w for w in widths))


def main():
    ap = argparse.ArgumentParser(description="Run every benchmark of a build and print one table.")
    ap.add_argument("--build", required=True, help="the build folder (build/default)")
    ap.add_argument("--floor-build", help="the bench-floor build, for fuzz_speed --floor "
                    "(default: build/bench-floor beside --build, when it exists)")
    ap.add_argument("--quick", action="store_true", help="least work per benchmark (seconds in all)")
    ap.add_argument("--only", default="", help="comma-separated benchmark names")
    ap.add_argument("--out", help="results file (default: BUILD/bench/results.json)")
    ap.add_argument("--baseline", default=os.path.join(REPO, "docs", "bench-baseline.json"),
                    help="the 'before' column (default: docs/bench-baseline.json)")
    ap.add_argument("--update-baseline", action="store_true",
                    help="write the results to the baseline file as well (a full run only)")
    a = ap.parse_args()
    names = [n for n in a.only.split(",") if n]
    known = [b[0] for b in BENCHMARKS]
    for n in names:
        if n not in known:
            ap.error(f"--only: unknown benchmark '{n}' (one of: {', '.join(known)})")
    if a.update_baseline and (a.quick or names):
        ap.error("--update-baseline takes a full run: no --quick, no --only")
    build = os.path.abspath(a.build)
    if not os.path.isdir(os.path.join(build, "bench")):
        print(f"run_all: {build}/bench does not exist (build the default preset first)", file=sys.stderr)
        return 1
    out = a.out or os.path.join(build, "bench", "results.json")
    log_dir = os.path.join(build, "bench", "logs")
    os.makedirs(log_dir, exist_ok=True)
    try:
        baseline = load_baseline(a.baseline)
    except (OSError, ValueError, BadFigure) as e:
        print(f"run_all: baseline: {e}", file=sys.stderr)
        return 1
    cache = cmake_cache(build)
    print(f"bench: {'quick run' if a.quick else 'full run'} of {build}", flush=True)
    try:
        floor = os.path.abspath(a.floor_build) if a.floor_build else os.path.join(os.path.dirname(build), "bench-floor")
        builds = {"main": build, "floor": floor if os.path.isdir(floor) else None}
        figures, runs = run_benchmarks(builds, names, a.quick, log_dir)
    except BadFigure as e:
        print(f"run_all: {e}", file=sys.stderr)
        return 1
    for fig in figures:
        fig["met"] = goal_met(fig)
    doc = {
        "format": FORMAT,
        "quick": a.quick,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine": {
            "host": platform.node(),
            "kernel": platform.release(),
            "arch": platform.machine(),
            "cpus": os.cpu_count(),
            "cpu_model": cpu_model(),
            "mem_total_kib": mem_total_kib(),
            "load_average": list(os.getloadavg()),
        },
        "compiler": compiler(cache),
        "commit": commit(),
        "build": build,
        "benchmarks": runs,
        "figures": figures,
    }
    print()
    print_table(figures, baseline)
    missed = [f["name"] for f in figures if f["met"] is False]
    failed = [r["name"] for r in runs if r["status"] not in ("ok", "not built")]
    print()
    print(f"{len(figures)} figures, {sum(1 for f in figures if f['goal'])} with a goal, "
          f"{len(missed)} missed; load average {doc['machine']['load_average'][0]:.1f} at the end"
          + (f"; FAILED to run: {', '.join(failed)}" if failed else ""))
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.replace(tmp, out)
    print(f"results: {out}")
    if a.update_baseline:
        with open(a.baseline, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        print(f"baseline written: {a.baseline}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
