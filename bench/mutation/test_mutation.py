#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fast checks of mutation.py that build no mutant (ctest bench.mutation_tool).

- the site finder on tests/data/mutation/sites.c gives exactly the ids in
  sites.expected (operators of each kind; not a header's macro body, not an
  inactive #if branch, not a unary '*' or '-', not a statement after an if);
- the equivalents check fails on a stale entry and names it, and passes on
  a matching one;
- integer literals keep their base, width and suffix;
- a resume with other options is refused, and a torn results line does not
  swallow the next one.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
TOOL = os.path.join(HERE, 'mutation.py')
DATA = os.path.join(REPO, 'tests', 'data', 'mutation')
sys.path.insert(0, HERE)

import operators  # noqa: E402
import results    # noqa: E402


def tool(*args):
    return subprocess.run([sys.executable, TOOL] + list(args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, cwd=REPO)


class SiteFinder(unittest.TestCase):
    def test_known_sites(self):
        p = tool('--list-mutants', '--sources', os.path.join(DATA, 'sites.c'), '--source-root', REPO)
        self.assertEqual(p.returncode, 0, p.stdout)
        with open(os.path.join(DATA, 'sites.expected')) as f:
            want = f.read().splitlines()
        got = p.stdout.splitlines()
        missing, extra = sorted(set(want) - set(got)), sorted(set(got) - set(want))
        self.assertEqual((missing, extra), ([], []), 'mutants missing / not expected')
        self.assertEqual(got, want, 'the same mutants in another order')


class Equivalents(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, lines):
        path = os.path.join(self.dir, 'equivalent-test.tsv')
        with open(path, 'w') as f:
            f.write('# a comment\n\n' + ''.join(lines))
        return path

    def test_matching_entries_pass(self):
        path = self.write(['tests/data/mutation/sites.c:27:25:constant:4->5\tthe loop bound, for the test\n',
                           'tests/data/mutation/sites.c:25:5:delete:sink(r);->\ta deleted call\n'])
        p = tool('--check-equivalents', path, '--source-root', REPO)
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn('2 entries match', p.stdout)

    def test_stale_column_fails_and_names_the_entry(self):
        stale = 'tests/data/mutation/sites.c:27:26:constant:4->5'  # the 4 is at column 25
        path = self.write(['tests/data/mutation/sites.c:27:25:constant:4->5\tfine\n', stale + '\tmoved\n'])
        p = tool('--check-equivalents', path, '--source-root', REPO)
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn(f'{path}:4: {stale}', p.stdout)
        self.assertIn('column 26 does not hold', p.stdout)

    def test_stale_statement_and_missing_file_fail(self):
        path = self.write(['tests/data/mutation/sites.c:25:5:delete:sink(a);->\tnot that call\n',
                           'tests/data/mutation/gone.c:1:1:constant:1->2\tno such file\n',
                           'not an id\tmalformed\n'])
        p = tool('--check-equivalents', path, '--source-root', REPO)
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn('no longer starts the statement', p.stdout)
        self.assertIn('gone.c does not exist', p.stdout)
        self.assertIn('not a mutant id', p.stdout)
        self.assertIn('3 stale entries', p.stdout)


class Constants(unittest.TestCase):
    def test_base_width_and_suffix_kept(self):
        self.assertEqual(operators.constant_swaps('0x00000000u'), [('+1', '0x00000001u')])
        self.assertEqual(operators.constant_swaps('0xFFull'), [('+1', '0x100ull'), ('-1', '0xFEull')])
        self.assertEqual(operators.constant_swaps('1'), [('+1', '2'), ('-1', '0')])
        self.assertEqual(operators.constant_swaps('010'), [('+1', '011'), ('-1', '007')])
        self.assertEqual(operators.constant_swaps('1.5'), [])
        self.assertEqual(operators.constant_swaps("'a'"), [])


class Results(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_resume_with_other_options_refused(self):
        opts = {'target': 't', 'profile': 'contract', 'seed': 1, 'sample': 300}
        results.check_or_write_options(self.dir, opts)
        results.check_or_write_options(self.dir, dict(opts))  # the same: fine
        with self.assertRaises(results.ResumeRefused) as e:
            results.check_or_write_options(self.dir, dict(opts, seed=2))
        self.assertIn('seed: was 1, now 2', str(e.exception))

    def test_torn_line_is_skipped_and_ended(self):
        with open(os.path.join(self.dir, 'results.jsonl'), 'w') as f:
            f.write(json.dumps({'id': 'a', 'outcome': 'killed'}) + '\n{"id": "b", "outc')
        j = results.Journal(self.dir)
        j.append({'id': 'c', 'outcome': 'survived'})
        j.close()
        self.assertEqual(sorted(results.load(self.dir)), ['a', 'c'])


if __name__ == '__main__':
    unittest.main(verbosity=2)
