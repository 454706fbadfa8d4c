# SPDX-License-Identifier: MIT
"""The report of a mutation run (report.md and stdout).

The rate is killed / (killed + survived): a mutant that did not compile
(stillborn) says nothing of the suite, and one whose run failed for
another reason (an error) is shown apart with its output. A timeout, a
mutant whose whole run went past the limit, is a hang the suite caught:
it counts as killed. Survivors judged equivalent (the committed list) are
taken out for the non-equivalent rate; every other survivor is listed with
its line before and after, since each is a bug the suite would not see.
"""
from collections import Counter, defaultdict

import operators
import sites

KILLS = ('killed', 'timeout')


def _rate(killed, survived):
    total = killed + survived
    return f'{100.0 * killed / total:.1f}% ({killed}/{total})' if total else 'n/a (no mutant judged)'


def _before_after(src, m):
    mutated = sites.apply(src.data, m)
    after = mutated[src.starts[m.line - 1]:].split(b'\n', 1)[0].decode('utf-8', 'replace')
    return src.line(m.line).strip(), after.strip()


def _table(title, key_name, rows):
    out = [f'\n## {title}\n', f'| {key_name} | mutants | stillborn | killed | survived | equivalent | errors | rate |',
           '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |']
    for key, c in rows:
        key = key.replace('|', '\\|')  # a '|' or '||' operator would end the cell
        out.append(f'| {key} | {c["all"]} | {c["stillborn"]} | {c["kill"]} | {c["survived"]} | {c["equivalent"]} '
                   f'| {c["error"]} | {_rate(c["kill"], c["survived"])} |')
    return out


def _count(groups, key, outcome, equivalent):
    c = groups[key]
    c['all'] += 1
    if outcome in KILLS:
        c['kill'] += 1
    elif outcome in ('stillborn', 'survived', 'error'):
        c[outcome] += 1
    if equivalent:
        c['equivalent'] += 1


def render(meta, sample, results, equivalents, sources):
    """The report as text. SAMPLE: the Mutants chosen; RESULTS: {id: result};
    EQUIVALENTS: {id: reason}; SOURCES: {relative path: SourceText}."""
    judged = [(m, results[m.id]) for m in sample if m.id in results]
    outcomes = Counter(r['outcome'] for _, r in judged)
    hows = Counter(r.get('how') or 'fail' for _, r in judged if r['outcome'] == 'killed')
    killed = outcomes['killed'] + outcomes['timeout']
    survivors = [(m, r) for m, r in judged if r['outcome'] == 'survived']
    equivalent = [(m, r) for m, r in survivors if m.id in equivalents]
    live = [(m, r) for m, r in survivors if m.id not in equivalents]
    wrongly_listed = [m for m, r in judged if r['outcome'] in KILLS and m.id in equivalents]

    out = [f'# Mutation testing: {meta["target"]}, profile {meta["profile"]}\n',
           f'- source files: {", ".join(sorted(sources))}',
           f'- mutants generated: {meta["generated"]}; sampled: {len(sample)} (seed {meta["seed"]}, '
           f'sample {meta["sample"] or "all"}); judged: {len(judged)}'
           + ('' if len(judged) == len(sample) else f' (INCOMPLETE: {len(sample) - len(judged)} to go; rerun to resume)'),
           f'- stillborn (did not compile, not in the rate): {outcomes["stillborn"]}',
           f'- killed: {killed}: ' + ', '.join(f'{n} {h}' for h, n in hows.most_common())
           + f'; {outcomes["timeout"]} run timeouts (a hang past {meta["timeout"]:.0f} s, counted as killed)',
           f'- survived: {len(survivors)}, of which equivalent: {len(equivalent)}'
           + (f' ({meta["equivalents_file"]})' if meta.get('equivalents_file') else ''),
           f'- errors (the run failed otherwise, not in the rate): {outcomes["error"]}',
           f'- kill rate: {_rate(killed, len(survivors))}',
           f'- non-equivalent kill rate: {_rate(killed, len(live))}',
           f'- baseline run {meta["baseline_seconds"]:.1f} s; limit per mutant {meta["timeout"]:.0f} s; '
           f'{meta["jobs"]} at once; wall time of this session {meta["wall_seconds"]:.0f} s']
    if wrongly_listed:
        out.append('\nKILLED, yet listed as equivalent (the list is wrong; drop these entries):')
        out += [f'- {m.id}' for m in wrongly_listed]

    out.append(f'\n## Survivors ({len(live)} not judged equivalent)\n')
    for m, _ in live:
        before, after = _before_after(sources[m.file], m)
        out += [f'- `{m.file}:{m.line}:{m.col}` {m.kind} ({m.op}): `{m.id}`',
                f'  - before: `{before}`', f'  - after:  `{after}`']
    if equivalent:
        out.append(f'\n## Equivalent survivors ({len(equivalent)})\n')
        out += [f'- `{m.id}`: {equivalents[m.id]}' for m, _ in equivalent]
    errors = [(m, r) for m, r in judged if r['outcome'] == 'error']
    if errors:
        out.append(f'\n## Errors ({len(errors)})\n')
        for m, r in errors:
            out.append(f'- `{m.id}` ({r.get("how", "")}):')
            out += [f'      {ln}' for ln in (r.get('tail') or '').splitlines()]

    ops, files = defaultdict(Counter), defaultdict(Counter)
    for m, r in judged:
        _count(ops, (operators.KINDS.index(m.kind), m.kind, m.op), r['outcome'], m.id in equivalents)
        _count(files, m.file, r['outcome'], m.id in equivalents)
    out += _table('Per operator', 'operator', [(f'{k[1]}: {k[2]}', c) for k, c in sorted(ops.items())])
    out += _table('Per file', 'file', sorted(files.items()))

    rules = Counter()
    for _, r in judged:
        for rule in (r.get('rules') or {}):
            rules[rule] += 1
    if rules:
        out.append('\n## Rules that killed (mutants whose run broke each)\n')
        out += [f'- {rule}: {n}' for rule, n in rules.most_common()]
    return '\n'.join(out) + '\n'
