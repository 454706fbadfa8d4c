#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""matrix.py - the planted-bug matrix: for each bug of the catalogue
(examples/drivers/planted/catalogue.tsv), the conformance cases that fail
with its rule, and how fast the fuzz harnesses of its DDI find it.

  matrix.py judge   --wddmkit W --driver D --rule R [--profile P] [--state S]
      one module, the conformance half: exit 0 when the run is what the
      catalogue says (caught with R; latent: passed). ctest runs this for
      every entry (tests/planted_tests.cmake).
  matrix.py conform [--build DIR] [NAME...]
      the conformance half for the entries named (all by default).
  matrix.py fuzz    [--build DIR] [--runs N] [--time S] [--parallel N]
                    [--refresh] [NAME...]
      the fuzz half: runs what the cache lacks (or all, --refresh) and
      updates bench/matrix/fuzz-results.json. A bench: never in CI.
  matrix.py report  [--build DIR] [--fuzz-build DIR]
      the conformance half now, the fuzz half from the cache:
      docs/detection-matrix.md.

Python, standard library only (it reads conform's JSON report with the
json module). docs/detection.md, "The matrix", explains it.
"""
import sys

if sys.version_info < (3, 7):
    sys.exit('matrix.py needs Python 3.7 or later: apt-get install -y python3')

import argparse
import concurrent.futures
import os
import subprocess

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import catalogue  # noqa: E402
import fuzzhalf   # noqa: E402
import judge      # noqa: E402
import render     # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CATALOGUE = os.path.join(ROOT, 'examples', 'drivers', 'planted', 'catalogue.tsv')
CACHE = os.path.join(ROOT, 'bench', 'matrix', 'fuzz-results.json')
CACHE_MUTATED = os.path.join(ROOT, 'bench', 'matrix', 'fuzz-results-mutated.json')
NOTES = os.path.join(ROOT, 'bench', 'matrix', 'fuzz-notes.tsv')
DOC = os.path.join(ROOT, 'docs', 'detection-matrix.md')


def say(text):
    print(text, flush=True)


def cmd_judge(a):
    entry = {'entry': 0, 'name': os.path.basename(a.driver), 'target': '', 'ddi': '', 'rule': a.rule,
             'profile': a.profile, 'state': a.state}
    v = judge.judge(entry, a.wddmkit, a.driver, jobs=a.jobs, binding=a.binding, keep_json=a.json)
    say(v.summary())
    if v.ok and v.caught:
        say('cases with %s: %s%s' % (a.rule, ', '.join(v.with_rule[:5]),
                                     ', ...' if len(v.with_rule) > 5 else ''))
    return 0 if v.ok else 1


def conform_half(build, entries, jobs, parallel):
    wddmkit = os.path.join(build, 'cli', 'wddmkit')
    if not os.path.exists(wddmkit):
        raise catalogue.CatalogueError('%s is missing (cmake --build %s --target wddmkit)' % (wddmkit, build))
    modules = {e['name']: catalogue.module(build, e) for e in entries}
    verdicts = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=parallel) as pool:
        futures = {pool.submit(judge.judge, e, wddmkit, modules[e['name']], jobs): e for e in entries}
        for fut in concurrent.futures.as_completed(futures):
            v = fut.result()
            verdicts[v.entry['name']] = v
            say(('ok    ' if v.ok else 'WRONG ') + v.summary())
    return verdicts


def cmd_conform(a):
    entries = catalogue.select(catalogue.read(a.catalogue), a.names)
    verdicts = conform_half(a.build, entries, a.jobs, a.parallel)
    wrong = [n for n, v in verdicts.items() if not v.ok]
    say('%d of %d entries as the catalogue says%s' % (len(entries) - len(wrong), len(entries),
                                                      ': not ' + ', '.join(sorted(wrong)) if wrong else ''))
    return 1 if wrong else 0


def git_commit():
    try:
        out = subprocess.run(['git', '-C', ROOT, 'rev-parse', '--short', 'HEAD'], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, check=False)
        dirty = subprocess.run(['git', '-C', ROOT, 'diff', '--quiet', 'HEAD', '--'], check=False).returncode
        return out.stdout.decode().strip() + ('+changes' if dirty else '') or 'unknown'
    except OSError:
        return 'unknown'


def cmd_fuzz(a):
    entries = catalogue.select(catalogue.read(a.catalogue), a.names)
    path = a.cache or (CACHE_MUTATED if a.start == 'mutated' else CACHE)
    cache = fuzzhalf.load(path)
    for name, harness in fuzzhalf.run_all(ROOT, a.build, entries, cache, a.runs, a.time, a.parallel, a.refresh,
                                          git_commit(), say, a.start):
        fuzzhalf.save(path, cache)  # after every pair: an interrupted run keeps what it measured
        say('kept %s / %s in %s' % (name, harness, path))
    return 0


def read_notes(path):
    notes = {}
    if os.path.exists(path):
        with open(path, encoding='utf-8') as f:
            for number, line in enumerate(f, 1):
                if line.strip() and not line.startswith('#'):
                    name, sep, why = line.rstrip('\n').partition('\t')
                    if not sep:
                        raise catalogue.CatalogueError('%s:%d: no tab between the name and the reason'
                                                       % (path, number))
                    notes[name] = why
    return notes


def cmd_report(a):
    entries = catalogue.read(a.catalogue)
    cache = fuzzhalf.load(a.cache)
    mutated = fuzzhalf.load(a.cache_mutated)
    verdicts = conform_half(a.build, entries, a.jobs, a.parallel)
    runs = max((len(c['runs']) for v in cache['entries'].values() for c in v.values()), default=a.runs)
    limit = max((c['limit'] for v in cache['entries'].values() for c in v.values()), default=a.time)
    render.write(a.out, entries, verdicts, cache, mutated, read_notes(a.notes), limit, runs,
                 'each entry\'s profile, `wddmkit conform` at commit %s' % git_commit())
    say('wrote %s' % a.out)
    return 0 if all(v.ok for v in verdicts.values()) else 1


def main(argv):
    p = argparse.ArgumentParser(prog='matrix.py', description=__doc__.split('\n\n')[0])
    p.add_argument('--catalogue', default=CATALOGUE)
    sub = p.add_subparsers(dest='command', required=True)

    j = sub.add_parser('judge', help='one module, the conformance half (ctest)')
    j.add_argument('--wddmkit', required=True)
    j.add_argument('--driver', required=True)
    j.add_argument('--rule', required=True)
    j.add_argument('--profile', default='contract', choices=catalogue.PROFILES)
    j.add_argument('--state', default='caught', choices=catalogue.STATES)
    j.add_argument('--binding')
    j.add_argument('--json', help='keep conform\'s JSON report here')
    j.add_argument('-j', '--jobs', type=int, default=2)
    j.set_defaults(run=cmd_judge)

    for name, fn, help_ in (('conform', cmd_conform, 'the conformance half'),
                            ('report', cmd_report, 'write docs/detection-matrix.md')):
        c = sub.add_parser(name, help=help_)
        c.add_argument('--build', default=os.path.join(ROOT, 'build', 'default'))
        c.add_argument('-j', '--jobs', type=int, default=1, help='conform -j for each entry (default 1)')
        c.add_argument('--parallel', type=int, default=2, help='entries at once (default 2)')
        c.set_defaults(run=fn)
        if name == 'conform':
            c.add_argument('names', nargs='*', metavar='NAME')
        else:
            c.add_argument('--cache', default=CACHE, help='the fuzz half, seeds start (default %(default)s)')
            c.add_argument('--cache-mutated', default=CACHE_MUTATED,
                           help='the fuzz half, mutated start (default %(default)s)')
            c.add_argument('--notes', default=NOTES, help='why a bug is not found (default %(default)s)')
            c.add_argument('--out', default=DOC, help='the page to write (default %(default)s); '
                                                      'another path previews it')
            c.add_argument('--runs', type=int, default=3)
            c.add_argument('--time', type=int, default=60)

    f = sub.add_parser('fuzz', help='the fuzz half (a bench)')
    f.add_argument('--build', default=os.path.join(ROOT, 'build', 'libfuzzer'),
                   help='the libFuzzer build (default build/libfuzzer)')
    f.add_argument('--runs', type=int, default=3, help='runs per harness, libFuzzer -seed=1..N (default 3)')
    f.add_argument('--time', type=int, default=60, help='the limit of one run, in seconds (default 60)')
    f.add_argument('--parallel', type=int, default=2, help='runs at once (default 2)')
    f.add_argument('--refresh', action='store_true', help='rerun what the cache holds too')
    f.add_argument('--start', choices=('seeds', 'mutated'), default='seeds',
                   help='seeds: every committed seed; mutated: without the seeds that show the bug on their own')
    f.add_argument('--cache', help='default bench/matrix/fuzz-results.json, or fuzz-results-mutated.json')
    f.add_argument('names', nargs='*', metavar='NAME')
    f.set_defaults(run=cmd_fuzz)

    a = p.parse_args(argv)
    try:
        return a.run(a)
    except catalogue.CatalogueError as e:
        print('matrix.py: %s' % e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print('matrix.py: interrupted; the fuzz cache keeps every finished pair', file=sys.stderr)
        return 130


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
