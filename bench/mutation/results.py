# SPDX-License-Identifier: MIT
"""The results folder: the run's options and one JSON line per mutant.

Each result is appended to results.jsonl (and flushed) the moment its
mutant is judged, so that an interrupted bench loses at most the mutants
in flight; a rerun with the same options skips every id already there.
run.json holds the options that decide WHICH mutants are run and how they
are judged: a resume with other ones would mix two experiments, and is
refused.
"""
import json
import os
import threading

# The options a resume must share with the run it continues.
RESUME_KEYS = ('target', 'profile', 'seed', 'sample', 'binding', 'sources', 'specs')


class ResumeRefused(Exception):
    pass


def check_or_write_options(out, options):
    path = os.path.join(out, 'run.json')
    if os.path.exists(path):
        with open(path) as f:
            before = json.load(f)
        differ = [k for k in RESUME_KEYS if before.get(k) != options.get(k)]
        if differ:
            lines = '\n'.join(f'  {k}: was {before.get(k)!r}, now {options.get(k)!r}' for k in differ)
            raise ResumeRefused(f'{out} holds a run with other options; use another --out or remove it:\n{lines}')
        return
    with open(path, 'w') as f:
        json.dump({k: options.get(k) for k in RESUME_KEYS}, f, indent=1)
        f.write('\n')


def load(out):
    """{id: result} of the results already in OUT (a torn last line, from
    a run killed mid-write, is skipped: that mutant runs again)."""
    done = {}
    path = os.path.join(out, 'results.jsonl')
    if not os.path.exists(path):
        return done
    with open(path) as f:
        for line in f:
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if isinstance(r, dict) and 'id' in r:
                done[r['id']] = r
    return done


class Journal:
    def __init__(self, out):
        self.lock = threading.Lock()
        path = os.path.join(out, 'results.jsonl')
        torn = False
        if os.path.exists(path) and os.path.getsize(path):
            with open(path, 'rb') as f:
                f.seek(-1, os.SEEK_END)
                torn = f.read(1) != b'\n'
        self.file = open(path, 'a')
        if torn:  # end the torn line, so that the next result is a line of its own
            self.file.write('\n')

    def append(self, result):
        with self.lock:
            self.file.write(json.dumps(result, sort_keys=True) + '\n')
            self.file.flush()

    def close(self):
        self.file.close()
