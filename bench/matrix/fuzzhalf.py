# SPDX-License-Identifier: MIT
"""fuzzhalf.py - the fuzz half of the matrix: how fast libFuzzer finds each
planted bug with the harnesses of its DDI, and the committed cache of the
results (bench/matrix/fuzz-results.json).

One run: a copy of corpus/<harness>/seeds as the corpus, the harness's
dictionary, `-seed=S -max_total_time=LIMIT`, the planted module as
WK_DRIVER. The harness stops at its first finding (it aborts with the
finding's signature, fuzz/driver/findings.c); the time is the process's,
from start to exit. A run is `found` when the first finding's signature
names the entry's rule, `other` when it names another rule, `none` without
a finding. The rule counts when the first finding lists it among its
violations, not only in its signature (which names the first one), as the
conformance half counts every rule a case tripped. `phase` says when:
`start` (the harness refused the driver at once, naming the rule: it cannot
start an adapter), `seeds` (while libFuzzer read its corpus, before
"INITED": a seed made the bug visible on its own) or `mutation`.
"""
import concurrent.futures
import datetime
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time

import catalogue

FORMAT = 'wddmkit-matrix-fuzz-1'
SIGNATURE = re.compile(r'signature: (\S+)(.*)')
# A finding's violations, each "violation in DDI: RULE-ID: ..." (fuzz/driver/findings.c).
VIOLATION = re.compile(r'violation in [^:]+: ([A-Z]+-[A-Z]+-[0-9]+):')
REFUSED = re.compile(r'cannot bring up the driver under test[^\n]*')
RULE_ID = re.compile(r'[A-Z]+-[A-Z]+-[0-9]+')
INITED = re.compile(r'^#\d+\s+INITED', re.M)


def source_digest(root, entry):
    with open(catalogue.source(root, entry), 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()[:16]


def load(path):
    """The cache, or an empty one. A file of another format is refused."""
    if not os.path.exists(path):
        return {'format': FORMAT, 'entries': {}}
    with open(path, encoding='utf-8') as f:
        data = json.load(f)
    if data.get('format') != FORMAT:
        raise catalogue.CatalogueError('%s: format %r, this tool writes %s' % (path, data.get('format'), FORMAT))
    data.setdefault('entries', {})
    return data


def save(path, data):
    tmp = path + '.tmp'
    with open(tmp, 'w', encoding='utf-8') as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write('\n')
    os.replace(tmp, path)


REPLAY_LINE = re.compile(r'^replay: (.*) \((\d+) bytes\)$')


def tripping_seeds(root, build, entry, harness):
    """The seed files that make the entry's rule fire on their own (the
    harness's replay binary over every seed, WK_FUZZ_NO_ABORT=1), or None
    when the harness refuses the driver outright (every seed would)."""
    replay = os.path.join(build, 'fuzz', harness + '_replay')
    seeds = os.path.join(root, 'corpus', harness, 'seeds')
    if not os.path.exists(replay):
        raise catalogue.CatalogueError('%s is missing (cmake --build %s --target %s_replay)' % (replay, build, harness))
    env = dict(os.environ, WK_FUZZ_NO_ABORT='1', WK_DRIVER=catalogue.module(build, entry))
    try:
        run = subprocess.run([replay, '-v', seeds], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                             timeout=1800, check=False)
    except subprocess.TimeoutExpired:
        raise catalogue.CatalogueError('%s on %s: the replay of the seeds ran past 1800 s' % (harness, entry['name']))
    return seeds_tripping(run.stdout.decode('utf-8', 'replace'), entry['rule'])


def seeds_tripping(text, rule):
    """From a `<harness>_replay -v` output: the seed files (base names)
    whose replay lists the rule, or None when the harness refused the
    driver."""
    if REFUSED.search(text):
        return None
    current, out = None, set()
    for line in text.splitlines():
        m = REPLAY_LINE.match(line)
        if m:
            current = os.path.basename(m.group(1))
            continue
        sig = SIGNATURE.search(line)
        if current and (rule in VIOLATION.findall(line) or (sig and sig.group(1) == rule)):
            out.add(current)
    return out


def read_log(rule, log, artifacts):
    """What one run's libFuzzer log says of the rule: outcome (found, other,
    none), phase and signature. artifacts: the files the run left (crash-*,
    timeout-*, oom-*)."""
    found_files = artifacts
    m = SIGNATURE.search(log)
    refused = REFUSED.search(log)
    result = {'signature': None, 'phase': None}
    if m and found_files:
        signature = (m.group(1) + m.group(2)).strip()
        result['signature'] = signature[:200]
        start = log.rfind('FINDING:', 0, m.start())
        tripped = set(VIOLATION.findall(log[start if start >= 0 else 0:m.start()])) | {m.group(1)}
        result['outcome'] = 'found' if rule in tripped else 'other'
        result['phase'] = 'mutation' if INITED.search(log[:m.start()]) else 'seeds'
    elif refused:
        # The harness refuses a driver that cannot start an adapter, naming
        # the rule (fuzz/driver/adapters.c): the bug is reported at once.
        result['signature'] = refused.group(0)[:200]
        result['outcome'] = 'found' if rule in RULE_ID.findall(refused.group(0)) else 'other'
        result['phase'] = 'start'
    elif found_files:
        result['outcome'] = 'other'
        result['signature'] = 'no signature (%s): %s' % (found_files[0].split('-')[0], tail(log))
    else:
        result['outcome'] = 'none'
        if 'INITED' not in log:
            result['signature'] = 'the harness did not start: %s' % tail(log)
    return result


def one_run(root, build, entry, harness, seed, limit, exclude=()):
    """One libFuzzer run: a dict with seed, seconds, outcome, phase, signature.
    exclude: seed file names left out of the starting corpus."""
    binary = os.path.join(build, 'fuzz', harness)
    seeds = os.path.join(root, 'corpus', harness, 'seeds')
    module = catalogue.module(build, entry)
    with tempfile.TemporaryDirectory(prefix='wk-matrix-%s-' % harness) as tmp:
        corpus = os.path.join(tmp, 'corpus')
        shutil.copytree(seeds, corpus, ignore=lambda _d, names: [n for n in names if n in exclude])
        os.mkdir(os.path.join(tmp, 'art'))
        cmd = [binary, '-seed=%d' % seed, '-max_total_time=%d' % limit, '-timeout=10',
               '-artifact_prefix=%s/' % os.path.join(tmp, 'art'), corpus]
        dictionary = os.path.join(root, 'harnesses', harness + '.dict')
        if os.path.exists(dictionary):
            cmd.insert(1, '-dict=' + dictionary)
        env = dict(os.environ, WK_DRIVER=module)
        env.pop('WK_FUZZ_NO_ABORT', None)
        start = time.monotonic()
        try:
            run = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                                 timeout=limit * 3 + 60, check=False)
            log = run.stderr.decode('utf-8', 'replace')
        except subprocess.TimeoutExpired as e:
            log = (e.stderr or b'').decode('utf-8', 'replace')
        seconds = time.monotonic() - start
        found_files = [n for n in os.listdir(os.path.join(tmp, 'art')) if n.startswith(('crash-', 'timeout-', 'oom-'))]
    result = {'seed': seed, 'seconds': round(seconds, 2)}
    result.update(read_log(entry['rule'], log, found_files))
    return result


def tail(log, n=200):
    lines = [l for l in log.strip().splitlines() if l.strip()]
    return (lines[-1] if lines else '')[:n]


def median_time(runs, limit):
    """The median time to a finding of the entry's rule: a run that did
    not find it counts as past the limit. None when the median is past it."""
    return median_within([r['seconds'] if r['outcome'] == 'found' else float('inf') for r in runs], limit)


def median_within(times, limit):
    """The median of times (inf: a miss), None when it is past the limit."""
    m = statistics.median(times) if times else float('inf')
    return m if m <= limit else None


def same_ddi_time(runs, ddi, limit):
    """The median time to a finding in the bug's own DDI, whatever its rule
    (a Patch that writes far past its buffer shows first as DRV-CRASH-001
    in DxgkDdiPatch rather than its guard rule); None past the limit."""
    where = 'in DxgkDdi%s' % ddi
    return median_within([r['seconds'] if r['outcome'] in ('found', 'other') and (r.get('signature') or '').endswith(where)
                          else float('inf') for r in runs], limit)


def stale(cached, digest, runs, limit, start='seeds'):
    return (cached is None or cached.get('source') != digest or cached.get('limit') != limit
            or len(cached.get('runs', [])) != runs or cached.get('start', 'seeds') != start)


def run_all(root, build, entries, cache, runs, limit, parallel, refresh, commit, progress, start='seeds'):
    """Runs every (entry, harness) whose cache is stale, `parallel` runs at a
    time; updates cache['entries'] in place after each finished pair.
    start 'mutated': each pair's corpus leaves out the seeds that show the
    bug on their own, so what is found comes from the fuzzer's mutations."""
    todo = []
    for e in entries:
        digest = source_digest(root, e)
        for h in catalogue.harnesses(e):
            cached = cache['entries'].get(e['name'], {}).get(h)
            if refresh or stale(cached, digest, runs, limit, start):
                todo.append((e, h, digest))
    for e, h, _ in todo:  # fail before the first run, not an hour in
        catalogue.module(build, e)
        for path in (os.path.join(build, 'fuzz', h), os.path.join(root, 'corpus', h, 'seeds')):
            if not os.path.exists(path):
                raise catalogue.CatalogueError('%s is missing (build the harness: cmake --build %s --target %s)'
                                               % (path, build, h))
    progress('%d (bug, harness) pairs to run, %d runs each of at most %d s, %d at a time'
             % (len(todo), runs, limit, parallel))
    excluded = {}
    if start == 'mutated':
        for e, h, _ in todo:
            t = tripping_seeds(root, build, e, h)
            excluded[(e['name'], h)] = t
            progress('%-32s %-12s %s' % (e['name'], h, 'the harness refuses the driver: no seed to leave out'
                                         if t is None else '%d seeds show the bug on their own: left out' % len(t)))
    with concurrent.futures.ThreadPoolExecutor(max_workers=parallel) as pool:
        futures = {}
        for e, h, digest in todo:
            for s in range(1, runs + 1):
                leave_out = excluded.get((e['name'], h)) or ()
                futures[pool.submit(one_run, root, build, e, h, s, limit, leave_out)] = (e, h, digest)
        done = {}
        for fut in concurrent.futures.as_completed(futures):
            e, h, digest = futures[fut]
            r = fut.result()
            key = (e['name'], h)
            done.setdefault(key, []).append(r)
            progress('%-32s %-12s seed %d: %-5s %6.2f s %s' % (e['name'], h, r['seed'], r['outcome'], r['seconds'],
                                                               r['signature'] or ''))
            if len(done[key]) == runs:
                left_out = excluded.get((e['name'], h))
                cache['entries'].setdefault(e['name'], {})[h] = {
                    'source': digest, 'limit': limit, 'commit': commit, 'start': start,
                    'seeds_left_out': None if left_out is None else len(left_out),
                    'date': datetime.date.today().isoformat(),
                    'runs': sorted(done[key], key=lambda x: x['seed']),
                }
                yield e['name'], h
