#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""test_matrix.py - the matrix tool's own checks (ctest bench.matrix_tool):
the catalogue reader refuses bad lines with their place, a run is judged
from every rule its cases tripped and never when it blames the kit, and the
fuzz half's medians count a run without the rule as past the limit. No
driver runs here; planted.* run the real thing."""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import catalogue  # noqa: E402
import fuzzhalf   # noqa: E402
import judge      # noqa: E402
import render     # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENTRY = {'entry': 19, 'name': 'unmap_not_dummy', 'target': 'planted_unmap_not_dummy', 'ddi': 'BuildPagingBuffer',
         'rule': 'PAGING-UNMAP-001', 'profile': 'contract', 'state': 'caught'}


def case(cid, rule=None, tripped=(), unexpected=True):
    return {'id': cid, 'unexpected': unexpected, 'rule': rule, 'rules_tripped': list(tripped)}


def report(cases, status='complete', error=0):
    return {'status': status, 'cases': cases, 'totals': {'error': error, 'spec_errors': 0}}


class Judge(unittest.TestCase):
    def verdict(self, rep, output='', exit_code=1, entry=ENTRY):
        v = judge.Verdict(dict(entry))
        v.exit = exit_code
        with tempfile.NamedTemporaryFile('w', suffix='.json', delete=False) as f:
            json.dump(rep, f)
        try:
            judge.read_report(v, f.name, output)
        finally:
            os.unlink(f.name)
        return v

    def test_rule_tripped_after_another_is_caught(self):
        v = self.verdict(report([case('a', 'PAGING-GPU-001', ['PAGING-GPU-001', 'PAGING-UNMAP-001']),
                                 case('b', None, [], unexpected=False)]))
        self.assertTrue(v.caught, v.summary())
        self.assertEqual(v.with_rule, ['a'])
        self.assertIn('first rule PAGING-GPU-001', render.conform_cell(v))

    def test_other_rule_only_is_not_caught(self):
        v = self.verdict(report([case('a', 'PAGING-GPU-001', ['PAGING-GPU-001'])]))
        self.assertFalse(v.caught)
        self.assertFalse(v.ok)
        self.assertIn('NOT caught by PAGING-UNMAP-001', v.summary())

    def test_expected_cases_do_not_count(self):
        v = self.verdict(report([case('neg', 'PAGING-UNMAP-001', ['PAGING-UNMAP-001'], unexpected=False)]))
        self.assertFalse(v.caught)

    def test_crash_rule_from_the_parent_counts(self):
        e = dict(ENTRY, rule='DRV-CRASH-001')
        v = self.verdict(report([case('a', 'DRV-CRASH-001', [])]), entry=e)
        self.assertTrue(v.caught)

    def test_kit_blame_is_never_a_catch(self):
        for rep, output, words in (
                (report([case('a', 'PAGING-UNMAP-001', ['PAGING-UNMAP-001'])], error=1), '', 'error verdicts'),
                (report([case('a', 'PAGING-UNMAP-001', ['PAGING-UNMAP-001'])], status='interrupted'), '',
                 'not complete'),
                (report([case('a', 'BIND-CRASH-001', ['BIND-CRASH-001', 'PAGING-UNMAP-001'])]), '', 'binding'),
                (report([case('a', 'PAGING-UNMAP-001', ['PAGING-UNMAP-001'])]),
                 'wddmkit internal invariant broken: x', 'kit invariant')):
            v = self.verdict(rep, output)
            self.assertFalse(v.caught, words)
            self.assertIn(words, v.problem)

    def test_latent_must_pass(self):
        e = dict(ENTRY, state='latent')
        self.assertTrue(self.verdict(report([]), exit_code=0, entry=e).ok)
        failing = self.verdict(report([case('a', 'MEM-GUARD-001', ['MEM-GUARD-001'])]), entry=e)
        self.assertFalse(failing.ok)
        self.assertIn('no longer latent', failing.summary())

    def test_exit_codes_in_words(self):
        self.assertIn('stopped by SIGTERM from outside the run (exit 143)', judge.exit_text(143))
        self.assertIn('stopped by SIGKILL', judge.exit_text(-9))
        self.assertIn('refused the run before any case', judge.exit_text(2))
        self.assertEqual(judge.last_lines('a\n\nb\nc\n', 2), '    b\n    c')

    def test_unreadable_report(self):
        v = judge.Verdict(dict(ENTRY))
        judge.read_report(v, '/nonexistent/report.json', 'conform said this')
        self.assertIn('no readable JSON report', v.problem)


class Catalogue(unittest.TestCase):
    def read(self, text):
        with tempfile.NamedTemporaryFile('w', suffix='.tsv', delete=False) as f:
            f.write(text)
        try:
            return catalogue.read(f.name)
        finally:
            os.unlink(f.name)

    def test_the_committed_catalogue(self):
        entries = catalogue.read(os.path.join(ROOT, 'examples/drivers/planted/catalogue.tsv'))
        self.assertGreaterEqual(len(entries), 24)  # issue 24: at least 24 planted bugs
        for e in entries:
            self.assertTrue(os.path.exists(catalogue.source(ROOT, e)), e['name'])
        self.assertEqual(len({e['entry'] for e in entries}), len(entries))

    def test_bad_lines_are_refused_with_their_place(self):
        good = '1\ta\tplanted_a\tRender\tMEM-GUARD-001\tcontract\tcaught\n'
        for text, words in (('1\ta\tplanted_a\n', ':1: 3 columns'),
                            ('x\ta\tplanted_a\tRender\tR\tcontract\tcaught\n', "entry 'x'"),
                            (good.replace('caught', 'maybe'), "state 'maybe'"),
                            (good.replace('contract', 'strict'), "profile 'strict'"),
                            (good + good, ':2: a is listed twice'),
                            ('# only a comment\n', 'no entry')):
            with self.assertRaises(catalogue.CatalogueError) as cm:
                self.read(text)
            self.assertIn(words, str(cm.exception))

    def test_harnesses_by_ddi(self):
        self.assertEqual(catalogue.harnesses({'ddi': 'Render'}), ('fuzz_render', 'fuzz_prog'))
        self.assertEqual(catalogue.harnesses({'ddi': 'QueryAdapterInfo'}), ('fuzz_prog',))

    def test_unknown_name(self):
        with self.assertRaises(catalogue.CatalogueError):
            catalogue.select([dict(ENTRY)], ['nope'])


class Fuzz(unittest.TestCase):
    def runs(self, *outcomes):
        return [{'seed': i + 1, 'seconds': s, 'outcome': o, 'phase': 'seeds', 'signature': sig}
                for i, (o, s, sig) in enumerate(outcomes)]

    def test_median_counts_misses_as_past_the_limit(self):
        self.assertEqual(fuzzhalf.median_time(self.runs(('found', 1.0, 'R'), ('found', 3.0, 'R'),
                                                        ('none', 60.0, None)), 60), 3.0)
        self.assertIsNone(fuzzhalf.median_time(self.runs(('found', 1.0, 'R'), ('other', 0.5, 'X y'),
                                                         ('none', 60.0, None)), 60))

    def test_a_symptom_in_the_same_ddi(self):
        runs = self.runs(('other', 0.2, 'DRV-CRASH-001 (SIGSEGV) in DxgkDdiPatch'),
                         ('other', 0.4, 'DRV-CRASH-001 (SIGSEGV) in DxgkDdiPatch'), ('none', 60, None))
        self.assertEqual(fuzzhalf.same_ddi_time(runs, 'Patch', 60), 0.4)
        self.assertIsNone(fuzzhalf.same_ddi_time(runs, 'Render', 60))

    def test_cell_names_the_other_rule(self):
        cell = render.fuzz_cell({'runs': self.runs(('other', 0.5, 'DRV-CRASH-001 in Render'),
                                                   ('none', 60, None), ('none', 60, None))}, 60)
        self.assertIn('not in 60 s (0/3; first finding DRV-CRASH-001)', cell)

    def test_stale_when_the_source_changes(self):
        cached = {'source': 'abc', 'limit': 60, 'runs': [{}, {}, {}]}
        self.assertFalse(fuzzhalf.stale(cached, 'abc', 3, 60))
        self.assertTrue(fuzzhalf.stale(cached, 'abd', 3, 60))
        self.assertTrue(fuzzhalf.stale(cached, 'abc', 3, 30))
        self.assertTrue(fuzzhalf.stale(None, 'abc', 3, 60))

    def test_cache_of_another_format_is_refused(self):
        with tempfile.NamedTemporaryFile('w', suffix='.json', delete=False) as f:
            json.dump({'format': 'other'}, f)
        try:
            with self.assertRaises(catalogue.CatalogueError):
                fuzzhalf.load(f.name)
        finally:
            os.unlink(f.name)

    FINDING = (
        'INFO: seed corpus: files: 3\n'
        'fuzz_paging: FINDING: contract violation at step 3 (teardown: destroy_device)\n'
        'fuzz_paging:   violation in DxgkDdiBuildPagingBuffer: PAGING-GPU-001: the paging buffer faulted\n'
        'fuzz_paging:   violation in DxgkDdiBuildPagingBuffer: PAGING-UNMAP-001: page 0 points elsewhere\n'
        'fuzz_paging:   signature: PAGING-GPU-001 (BAD_OPERAND) in DxgkDdiBuildPagingBuffer\n')

    def test_a_rule_listed_after_the_signature_s_counts(self):
        r = fuzzhalf.read_log('PAGING-UNMAP-001', self.FINDING, ['crash-1'])
        self.assertEqual((r['outcome'], r['phase']), ('found', 'seeds'))
        self.assertTrue(r['signature'].startswith('PAGING-GPU-001'))
        self.assertEqual(fuzzhalf.read_log('PATCH-VALUE-001', self.FINDING, ['crash-1'])['outcome'], 'other')
        # after INITED: found by a mutation
        r = fuzzhalf.read_log('PAGING-UNMAP-001', '#1024 INITED cov: 10\n' + self.FINDING, ['crash-1'])
        self.assertEqual(r['phase'], 'mutation')

    def test_a_driver_the_harness_refuses_names_its_rule(self):
        log = ('fuzz_driver: cannot bring up the driver under test (x.so): wk_vidmm_start: WK_E_CONTRACT: '
               'SEG-COMMIT-001: segment 2: CommitLimit 0x0\n==1== ERROR: libFuzzer: deadly signal\n')
        r = fuzzhalf.read_log('SEG-COMMIT-001', log, ['crash-1'])
        self.assertEqual((r['outcome'], r['phase']), ('found', 'start'))
        self.assertEqual(fuzzhalf.read_log('SEG-BANK-003', log, ['crash-1'])['outcome'], 'other')

    def test_seeds_that_trip_the_rule_on_their_own(self):
        text = ('replay: corpus/fuzz_paging/seeds/a.bin (12 bytes)\n'
                'replay: corpus/fuzz_paging/seeds/b.bin (20 bytes)\n'
                'fuzz_paging:   violation in DxgkDdiBuildPagingBuffer: PAGING-GPU-001: x\n'
                'fuzz_paging:   violation in DxgkDdiBuildPagingBuffer: PAGING-UNMAP-001: y\n'
                'replay: corpus/fuzz_paging/seeds/c.bin (8 bytes)\n'
                'fuzz_paging:   signature: PAGING-UNMAP-001 in DxgkDdiBuildPagingBuffer\n')
        self.assertEqual(fuzzhalf.seeds_tripping(text, 'PAGING-UNMAP-001'), {'b.bin', 'c.bin'})
        self.assertEqual(fuzzhalf.seeds_tripping(text, 'PAGING-GPU-001'), {'b.bin'})
        self.assertIsNone(fuzzhalf.seeds_tripping('fuzz_driver: cannot bring up the driver under test (x)', 'R-X-001'))

    def test_no_finding(self):
        self.assertEqual(fuzzhalf.read_log('R-X-001', '#1024 INITED\nDone 5 runs\n', [])['outcome'], 'none')
        r = fuzzhalf.read_log('R-X-001', 'error: no such file\n', [])
        self.assertIn('the harness did not start', r['signature'])

    def test_committed_cache_covers_the_catalogue(self):
        path = os.path.join(ROOT, 'bench/matrix/fuzz-results.json')
        if not os.path.exists(path):
            self.skipTest('no committed fuzz results')
        cache = fuzzhalf.load(path)
        entries = catalogue.read(os.path.join(ROOT, 'examples/drivers/planted/catalogue.tsv'))
        for e in entries:
            for h in catalogue.harnesses(e):
                cached = cache['entries'].get(e['name'], {}).get(h)
                self.assertIsNotNone(cached, '%s/%s has no fuzz results: matrix.py fuzz %s' % (e['name'], h, e['name']))
                self.assertEqual(cached['source'], fuzzhalf.source_digest(ROOT, e),
                                 '%s changed since its fuzz results: matrix.py fuzz %s' % (e['name'], e['name']))


if __name__ == '__main__':
    unittest.main()
