# SPDX-License-Identifier: MIT
"""judge.py - the conformance half of the matrix: runs `wddmkit conform` on
one planted-bug module and says whether the suite caught it with the rule
the catalogue wrote down for it.

What the run is read from: the JSON report (docs/json-report.md), each
unexpected case's `rules_tripped` (every rule the case's run tripped, not
only the first: a wrong unmap that the GPU also refuses trips PAGING-GPU-001
first and PAGING-UNMAP-001 after it). A run that blames the kit (an `error`
verdict, an incomplete run, a binding rule, a kit invariant) is never a
catch: the bug must be caught by the suite judging the driver.
"""
import collections
import json
import os
import re
import signal
import subprocess
import tempfile

KIT_BLAME = re.compile(r'wddmkit internal invariant broken|KIT INVARIANT')


class Verdict:
    """One entry's conformance half."""

    def __init__(self, entry):
        self.entry = entry
        self.exit = None
        self.failing = []              # the unexpected cases' ids
        self.with_rule = []            # those whose run tripped the entry's rule
        self.rules = collections.Counter()  # rule -> unexpected cases that tripped it
        self.first_rules = collections.Counter()  # rule -> cases it was the first rule of
        self.cases = 0
        self.problem = None            # why the run cannot be judged, or None

    @property
    def caught(self):
        return self.problem is None and self.exit == 1 and bool(self.with_rule)

    @property
    def ok(self):
        """The run is what the catalogue says: caught with the rule, or
        (latent) passed."""
        if self.problem is not None:
            return False
        if self.entry['state'] == 'latent':
            return self.exit == 0
        return self.caught

    def summary(self):
        e = self.entry
        if self.problem is not None:
            return '%s: the run cannot be judged: %s' % (e['name'], self.problem)
        if e['state'] == 'latent':
            return '%s (latent): %s' % (e['name'], 'passes, as the catalogue says it must' if self.exit == 0 else
                                        'fails %d cases (first rules: %s): no longer latent, update the catalogue'
                                        % (len(self.failing), rules_text(self.first_rules)))
        if self.caught:
            return '%s: caught by %s in %d of %d cases (%d fail; rules: %s)' % (
                e['name'], e['rule'], len(self.with_rule), self.cases, len(self.failing), rules_text(self.rules))
        if self.exit == 0:
            return '%s: NOT caught: the suite passes it (%d cases)' % (e['name'], self.cases)
        return '%s: NOT caught by %s: %d cases fail with %s' % (
            e['name'], e['rule'], len(self.failing), rules_text(self.rules))


def rules_text(counter, limit=6):
    items = counter.most_common()
    text = ', '.join('%s (%d)' % (r, n) for r, n in items[:limit])
    if len(items) > limit:
        text += ', and %d more' % (len(items) - limit)
    return text or 'none'


def read_report(verdict, path, output):
    """Fills verdict from conform's JSON report at path."""
    try:
        with open(path, encoding='utf-8') as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        verdict.problem = 'no readable JSON report (%s); conform said: %s' % (e, output[-400:])
        return
    if report.get('status') != 'complete':
        verdict.problem = 'the run is %s, not complete' % report.get('status')
        return
    totals = report.get('totals', {})
    if totals.get('error', 0) or totals.get('spec_errors', 0):
        verdict.problem = '%d error verdicts, %d spec errors: the kit could not run every case' % (
            totals.get('error', 0), totals.get('spec_errors', 0))
        return
    if KIT_BLAME.search(output):
        verdict.problem = 'a kit invariant broke (%s)' % KIT_BLAME.search(output).group(0)
        return
    cases = report.get('cases', [])
    verdict.cases = len(cases)
    for case in cases:
        if not case.get('unexpected'):
            continue
        tripped = list(case.get('rules_tripped') or [])
        if case.get('rule') and case['rule'] not in tripped:
            tripped.append(case['rule'])  # a crash's DRV-CRASH-001 comes from the parent
        binding = [r for r in tripped if r.startswith('BIND-')]
        if binding:
            verdict.problem = '%s blames the binding (%s), not the driver' % (case['id'], binding[0])
            return
        verdict.failing.append(case['id'])
        verdict.rules.update(tripped)
        if case.get('rule'):
            verdict.first_rules[case['rule']] += 1
        if verdict.entry['rule'] in tripped:
            verdict.with_rule.append(case['id'])


def exit_text(code):
    """conform's exit code in words: 2 is a refusal before any case ran
    (docs/command-line.md); 128 + N, or a negative N from Python, a signal
    from outside the run (a case's own signals never stop it)."""
    signo = -code if code < 0 else code - 128 if code > 128 else 0
    if signo:
        try:
            name = signal.Signals(signo).name
        except ValueError:
            name = 'signal %d' % signo
        return 'conform was stopped by %s from outside the run (exit %d): rerun it' % (name, code)
    return 'conform exited %d (2: it refused the run before any case)' % code


def last_lines(text, n=8):
    lines = [l for l in text.rstrip().splitlines() if l.strip()]
    return '\n'.join('    ' + l for l in lines[-n:])


def judge(entry, wddmkit, module, jobs=2, binding=None, keep_json=None, timeout=1800):
    """Runs the suite on module in the entry's profile: a Verdict."""
    verdict = Verdict(entry)
    with tempfile.TemporaryDirectory(prefix='wk-matrix-') as tmp:
        path = keep_json or os.path.join(tmp, 'report.json')
        cmd = [wddmkit, 'conform', '--profile', entry['profile'], '--driver', module,
               '-j', str(jobs), '--quiet', '--json', path]
        if binding:
            cmd += ['--binding', binding]
        try:
            run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            verdict.problem = 'conform ran past %d s' % timeout
            return verdict
        except OSError as e:
            verdict.problem = 'cannot run %s: %s' % (wddmkit, e.strerror)
            return verdict
        output = run.stdout.decode('utf-8', 'replace')
        verdict.exit = run.returncode
        if run.returncode not in (0, 1):
            verdict.problem = '%s; its last lines:\n%s' % (exit_text(run.returncode), last_lines(output))
            return verdict
        read_report(verdict, path, output)
    return verdict
