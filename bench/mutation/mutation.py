#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""mutation.py - how much of a driver's behaviour the conformance suite checks.

Mutates a driver's C sources one token at a time (sites from clang's
lexer: sites.py, operators.py), rebuilds the driver module from the
commands CMake wrote (build.py), runs `wddmkit conform` on each mutant
(conform.py) and reports the share of mutants the suite kills, with every
survivor (report.py). Results are kept as they come (results.py): a rerun
resumes. docs/detection.md explains the measure and how to read it.

Python, standard library only: the tool reads CMake's compile_commands.json
with a real JSON reader and orchestrates processes; it is a bench for
developers, never part of the kit or of `make test` (bar the fast check of
the equivalents list, --check-equivalents).
"""
import sys

if sys.version_info < (3, 7):
    sys.exit('mutation.py needs Python 3.7 or later: apt-get install -y python3')

import argparse
import concurrent.futures
import fnmatch
import os
import queue
import random
import shutil
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import build      # noqa: E402
import conform    # noqa: E402
import equivalents  # noqa: E402
import report     # noqa: E402
import results    # noqa: E402
import sites      # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog='mutation.py', description='Mutation testing of a driver against the conformance suite '
        '(docs/detection.md).')
    p.add_argument('--build', help='a CMake build dir configured with CMAKE_EXPORT_COMPILE_COMMANDS=ON')
    p.add_argument('--target', help="the driver module's CMake target (wk_refdriver, independent_driver, ...)")
    p.add_argument('--sources', nargs='+', metavar='GLOB',
                   help="files to mutate (default: the target's C sources under the source tree)")
    p.add_argument('--profile', default='contract', choices=('contract', 'reference', 'stress'))
    p.add_argument('--binding', help='passed to conform (a driver for other hardware)')
    p.add_argument('--specs', nargs='+', metavar='DIR', help="spec files or folders (default: the repo's specs/)")
    p.add_argument('--seed', type=int, default=1, help='the sample\'s random seed (default 1)')
    p.add_argument('--sample', type=int, default=0, help='how many mutants to run (default: all)')
    p.add_argument('--jobs', type=int, default=2, help='mutants at once (default 2)')
    p.add_argument('--out', help='results folder (default bench-out/mutation-<target>)')
    p.add_argument('--equivalents', help='the committed list of equivalent survivors (TSV)')
    p.add_argument('--timeout', type=float, help='seconds per mutant run (default: 10x the baseline run, '
                   'at least 5)')
    p.add_argument('--wddmkit', help='the wddmkit command (default <build>/cli/wddmkit)')
    p.add_argument('--source-root', help='paths in mutant ids are relative to it (default: the build\'s '
                   'source tree; this repository for --check-equivalents)')
    p.add_argument('--cflag', action='append', default=[],
                   help='with --list-mutants and no --build: a preprocessor flag for clang (repeatable)')
    p.add_argument('--list-mutants', action='store_true', help='print every mutant id, in order, and exit')
    p.add_argument('--check-equivalents', nargs='+', metavar='FILE',
                   help='check that each entry still matches the source, and exit (1 when one does not)')
    a = p.parse_args(argv)
    if a.jobs < 1 or a.sample < 0:
        p.error('--jobs must be at least 1 and --sample at least 0')
    return a


def source_root(build_dir):
    """The build's source tree (CMakeCache.txt's CMAKE_HOME_DIRECTORY)."""
    try:
        with open(os.path.join(build_dir, 'CMakeCache.txt')) as f:
            for line in f:
                if line.startswith('CMAKE_HOME_DIRECTORY:'):
                    return line.split('=', 1)[1].strip()
    except OSError:
        pass
    return REPO


def _matches(path, root, globs):
    rel = os.path.relpath(path, root)
    return any(fnmatch.fnmatch(path, os.path.abspath(g)) or fnmatch.fnmatch(rel, g) for g in globs)


def select_entries(entries, root, globs):
    """The target's compile entries of the files to mutate."""
    mine = [e for e in entries if e.file.endswith('.c')
            and os.path.commonpath([e.file, root]) == root]
    if globs:
        mine = [e for e in mine if _matches(e.file, root, globs)]
    if not mine:
        raise build.BuildError('no C source of the target matches: ' + ' '.join(globs or ['(under the source tree)']))
    return sorted(mine, key=lambda e: os.path.relpath(e.file, root))


def all_mutants(clang, entries, root):
    out = []
    for e in entries:
        out += sites.file_mutants(clang, build.lexer_flags(e), e.file, os.path.relpath(e.file, root))
    return out


def list_without_build(clang, a):
    root = os.path.abspath(a.source_root or REPO)
    flags = a.cflag or ['-std=c11']
    out = []
    for path in sorted(os.path.abspath(s) for s in a.sources):
        out += sites.file_mutants(clang, flags, path, os.path.relpath(path, root))
    return out


def check_equivalents(a):
    root = os.path.abspath(a.source_root or REPO)
    problems, n = [], 0
    for path in a.check_equivalents:
        problems += equivalents.check(path, root)
        try:
            n += len(equivalents.load(path))
        except (OSError, equivalents.EntryError):
            pass
    for line in problems:
        print(line)
    if problems:
        print(f'{len(problems)} stale entr{"y" if len(problems) == 1 else "ies"}: find the mutant\'s id in today\'s '
              'source with `bench/mutation/mutation.py --build DIR --target T --list-mutants` and fix the line, '
              'or drop the entry when the code it judged is gone')
        return 1
    print(f'equivalents: {n} entries match the source')
    return 0


def sample_of(mutants, n, seed):
    """N mutants picked with random.Random(seed), kept in list order."""
    if not n or n >= len(mutants):
        return list(mutants)
    picked = set(random.Random(seed).sample(range(len(mutants)), n))
    return [m for i, m in enumerate(mutants) if i in picked]


class Bench:
    """A run: the suite, how to build, where results go."""

    def __init__(self, a, entries, recipe, suite, root, out):
        self.a, self.recipe, self.suite, self.root, self.out = a, recipe, suite, root, out
        self.entry_of = {os.path.relpath(e.file, root): e for e in entries}
        self.running = conform.Running()
        self.stop = threading.Event()
        self.slots = queue.Queue()
        self.scratch = tempfile.mkdtemp(prefix='scratch-', dir=out)
        for n in range(a.jobs):
            d = os.path.join(self.scratch, f'job{n}')
            os.makedirs(os.path.join(d, 'src'))
            self.slots.put(d)

    def build(self, rel, text, slot):
        e = self.entry_of[rel]
        source = os.path.join(slot, 'src', os.path.basename(e.file))
        with open(source, 'wb') as f:
            f.write(text)
        return build.build_module(e, self.recipe, source, slot)

    def baseline(self):
        """Build each file unmutated by the mutants' own path, then run the
        suite on one such module: it must pass, or no kill means anything."""
        slot = self.slots.get()
        try:
            module = None
            for rel, e in self.entry_of.items():
                with open(e.file, 'rb') as f:
                    module, out = self.build(rel, f.read(), slot)
                if not module:
                    raise build.BuildError(f'the unmutated {rel} does not build by its own command:\n{out}')
            v = conform.run(self.suite, module, slot, 600, self.running)
            if v.outcome != 'survived':
                raise build.BuildError(f'the suite does not pass on the unmutated module ({v.outcome} '
                                       f'{v.how} {v.first_case}); fix that first:\n{v.tail}')
            return v.seconds
        finally:
            self.slots.put(slot)

    def judge(self, m, sources, timeout):
        if self.stop.is_set():
            return None
        slot = self.slots.get()
        try:
            t0 = time.monotonic()
            module, out = self.build(m.file, sites.apply(sources[m.file].data, m), slot)
            r = {'id': m.id, 'file': m.file, 'line': m.line, 'col': m.col, 'kind': m.kind, 'op': m.op,
                 'build_seconds': round(time.monotonic() - t0, 2)}
            if module is False or self.stop.is_set():
                return None  # a build step killed by the interrupt: not judged
            if not module:
                r.update(outcome='stillborn', tail=out)
                return r
            v = conform.run(self.suite, module, slot, timeout, self.running)
            if self.stop.is_set():
                return None  # killed by the interrupt, not judged
            r.update(outcome=v.outcome, how=v.how, rules=v.rules, first_case=v.first_case,
                     seconds=round(v.seconds, 2), tail=v.tail)
            return r
        finally:
            self.slots.put(slot)

    def close(self):
        shutil.rmtree(self.scratch, ignore_errors=True)


def _progress(n, total, r):
    what = r['outcome']
    if what == 'killed':
        rules = ', '.join(list(r['rules'])[:3])
        what += f' ({r["how"]}: {rules or "no rule"}; {r["first_case"]})'
    print(f'[{n}/{total}] {what:9s} {r["id"]}', flush=True)


def run_all(bench, pending, sources, timeout, journal):
    total, n = len(pending), 0
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=bench.a.jobs)
    futures = [pool.submit(bench.judge, m, sources, timeout) for m in pending]
    try:
        for f in concurrent.futures.as_completed(futures):
            r = f.result()
            if r is None:
                continue
            journal.append(r)
            n += 1
            _progress(n, total, r)
    finally:
        # Ctrl-C: the runs in flight are killed (each is a session of its
        # own, so the terminal's SIGINT did not reach them) and not judged.
        bench.stop.set()
        for f in futures:
            f.cancel()
        bench.running.kill_all()
        pool.shutdown(wait=True)


def options_of(a, root, entries):
    return {'target': a.target, 'profile': a.profile, 'seed': a.seed, 'sample': a.sample,
            'binding': os.path.abspath(a.binding) if a.binding else None,
            'sources': [os.path.relpath(e.file, root) for e in entries],
            'specs': [os.path.abspath(s) for s in a.specs]}


def prepare(a):
    """(entries, suite, root) of a run, or a BuildError."""
    if not a.build or not a.target:
        raise build.BuildError('--build and --target are needed (or --check-equivalents, or '
                               '--list-mutants --sources FILE...)')
    a.build = os.path.abspath(a.build)
    root = os.path.abspath(a.source_root or source_root(a.build))
    entries = select_entries(build.target_entries(a.build, a.target), root, a.sources)
    a.specs = a.specs or [os.path.join(REPO, 'specs')]
    wddmkit = os.path.abspath(a.wddmkit or os.path.join(a.build, 'cli', 'wddmkit'))
    if not os.access(wddmkit, os.X_OK):
        raise build.BuildError(f'{wddmkit}: no wddmkit there (--wddmkit PATH, or build the target wddmkit)')
    suite = conform.Suite(wddmkit, a.profile, [os.path.abspath(s) for s in a.specs],
                          os.path.abspath(a.binding) if a.binding else None)
    return entries, suite, root


def main(argv):
    a = parse_args(argv)
    if a.check_equivalents:
        return check_equivalents(a)
    clang = sites.find_clang()
    if a.list_mutants and not a.build:
        if not a.sources:
            raise build.BuildError('--list-mutants without --build needs --sources FILE...')
        for m in list_without_build(clang, a):
            print(m.id)
        return 0
    entries, suite, root = prepare(a)
    mutants = all_mutants(clang, entries, root)
    if a.list_mutants:
        for m in mutants:
            print(m.id)
        return 0
    return run(a, clang, entries, suite, root, mutants)


def run(a, clang, entries, suite, root, mutants):
    t0 = time.monotonic()
    recipe = build.link_recipe(a.build, a.target)
    build.check_up_to_date(entries)
    out = os.path.abspath(a.out or os.path.join('bench-out', f'mutation-{a.target}'))
    os.makedirs(out, exist_ok=True)
    results.check_or_write_options(out, options_of(a, root, entries))
    equiv = {i: why for _, i, why in equivalents.load(a.equivalents)} if a.equivalents else {}
    sample = sample_of(mutants, a.sample, a.seed)
    done = results.load(out)
    pending = [m for m in sample if m.id not in done]
    sources = {os.path.relpath(e.file, root): sites.SourceText(e.file) for e in entries}
    bench = Bench(a, entries, recipe, suite, root, out)
    journal = results.Journal(out)
    try:
        print(f'{a.target}: {len(mutants)} mutants, {len(sample)} sampled (seed {a.seed}), '
              f'{len(sample) - len(pending)} already judged in {out}', flush=True)
        base = bench.baseline()
        timeout = a.timeout or max(5.0, 10 * base)
        print(f'baseline: the suite passes on the unmutated module in {base:.1f} s; limit per mutant '
              f'{timeout:.0f} s', flush=True)
        run_all(bench, pending, sources, timeout, journal)
    except KeyboardInterrupt:
        print(f'\ninterrupted: the results so far are kept in {out}/results.jsonl; the same command '
              'resumes', file=sys.stderr)
        raise
    finally:
        journal.close()
        bench.close()
    meta = {'target': a.target, 'profile': a.profile, 'seed': a.seed, 'sample': a.sample,
            'generated': len(mutants), 'timeout': timeout, 'baseline_seconds': base, 'jobs': a.jobs,
            'wall_seconds': time.monotonic() - t0, 'equivalents_file': a.equivalents}
    text = report.render(meta, sample, results.load(out), equiv, sources)
    with open(os.path.join(out, 'report.md'), 'w') as f:
        f.write(text)
    print('\n' + text)
    return 0


if __name__ == '__main__':
    try:
        sys.exit(main(sys.argv[1:]))
    except (build.BuildError, sites.ClangMissing, results.ResumeRefused, equivalents.EntryError) as e:
        print(f'mutation.py: {e}', file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)
