# SPDX-License-Identifier: MIT
"""One run of `wddmkit conform` on a module, and what it says of it.

The suite runs one case at a time (-j 1: --jobs mutants already share the
machine) and writes its JSON report (docs/json-report.md), from which the
rules that fired and the first failing case are read: the console report
is for people. Exit 1 is a kill, exit 0 a survivor, anything else an error
of the run (kept apart). The whole run is bounded: past the per-mutant
limit its process group is killed and the mutant counts as a "timeout",
a hang, which the suite caught too (docs/detection.md).
"""
import json
import os
import signal
import subprocess
import threading
import time
from collections import Counter
from dataclasses import dataclass

# Conform's own limit for one case: its default, unless the whole run's
# limit is shorter.
CASE_TIMEOUT_S = 10


@dataclass
class Suite:
    wddmkit: str
    profile: str
    specs: list
    binding: str = None


@dataclass
class Verdict:
    outcome: str          # killed, survived, timeout, error
    seconds: float
    how: str = ''         # for a kill: the verdict of the first unexpected case
    rules: dict = None    # rule -> unexpected cases it fired in
    first_case: str = ''
    tail: str = ''        # the output's last lines, for an error


class Running:
    """The process groups of the runs in flight, so that an interrupted
    bench leaves none behind."""

    def __init__(self):
        self.lock = threading.Lock()
        self.pgids = set()

    def add(self, pid):
        with self.lock:
            self.pgids.add(pid)

    def discard(self, pid):
        with self.lock:
            self.pgids.discard(pid)

    def kill_all(self):
        with self.lock:
            for pgid in list(self.pgids):
                _kill_group(pgid)


def _kill_group(pgid):
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def command(suite, module, report, timeout):
    cmd = [suite.wddmkit, 'conform', '--profile', suite.profile, '--driver', module, '-j', '1', '--quiet',
           '--timeout', str(max(1, min(CASE_TIMEOUT_S, int(timeout)))), '--json', report]
    if suite.binding:
        cmd += ['--binding', suite.binding]
    return cmd + list(suite.specs)


def _read_report(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _kill_details(report):
    """(how, rules, first case) from the JSON report of a failed run."""
    unexpected = [c for c in (report or {}).get('cases', []) if c.get('unexpected')]
    if not unexpected:
        return 'fail', {}, ''
    rules = Counter(c.get('rule') or '(a failed check, no rule)' for c in unexpected)
    first = unexpected[0]
    return first.get('verdict', 'fail'), dict(rules.most_common()), first.get('id', '')


def run(suite, module, scratch, timeout, running):
    """Run the suite on MODULE; the Verdict."""
    report = os.path.join(scratch, 'report.json')
    if os.path.exists(report):
        os.unlink(report)
    log = os.path.join(scratch, 'conform.log')
    t0 = time.monotonic()
    with open(log, 'wb') as out:
        # A session of its own: a hung run is killed with all it started.
        p = subprocess.Popen(command(suite, module, report, timeout), stdout=out, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, cwd=scratch, start_new_session=True)
        running.add(p.pid)
        try:
            rc = p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(p.pid)
            p.wait()
            rc = None
        except BaseException:  # Ctrl-C while the main thread waits (the baseline)
            _kill_group(p.pid)
            p.wait()
            raise
        finally:
            running.discard(p.pid)
    seconds = time.monotonic() - t0
    if rc is None:
        return Verdict('timeout', seconds, 'run timeout', {}, '', _tail(log))
    if rc == 0:
        return Verdict('survived', seconds)
    if rc == 1:
        how, rules, first = _kill_details(_read_report(report))
        return Verdict('killed', seconds, how, rules, first)
    return Verdict('error', seconds, f'exit {rc}', {}, '', _tail(log))


def _tail(path, lines=8):
    try:
        with open(path, 'rb') as f:
            text = f.read()[-4096:].decode('utf-8', 'replace')
    except OSError:
        return ''
    return '\n'.join(text.splitlines()[-lines:])
