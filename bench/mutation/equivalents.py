# SPDX-License-Identifier: MIT
"""The committed list of equivalent mutants, and its check against the source.

A survivor is "equivalent" when the mutated driver is still a correct
driver under the documented WDDM contract (a different chunk size, a
bound that no input can reach): no suite should kill it, so it is left
out of the non-equivalent rate. Each is one line of a TSV file,

    mutant id<TAB>why it is still a correct driver

and the id pins the token by file, line and column. When the source
moves, the pin goes stale silently; the check below (a fast ctest,
bench.mutation_equivalents) reads each entry against today's file and
names the ones that no longer match.
"""
import os

import operators
import sites


class EntryError(Exception):
    pass


def parse_id(mutant_id):
    """(file, line, col, kind, orig, new) of an id `file:line:col:kind:orig->new`.
    The new spelling never holds '->' (operators.py), the original may (a
    deleted `p->x = 1;`): split at the last one."""
    parts = mutant_id.split(':', 4)
    if len(parts) != 5 or '->' not in parts[4]:
        raise EntryError(f'not a mutant id (file:line:col:kind:orig->new): {mutant_id!r}')
    file, line, col, kind, rest = parts
    if not (line.isdigit() and col.isdigit()):
        raise EntryError(f'line and column must be numbers: {mutant_id!r}')
    if kind not in operators.KINDS:
        raise EntryError(f'unknown kind {kind!r} (one of {", ".join(operators.KINDS)}): {mutant_id!r}')
    orig, new = rest.rsplit('->', 1)
    return file, int(line), int(col), kind, orig, new


def load(path):
    """[(line number, id, reason)]; blank lines and '#' comments skipped."""
    out = []
    with open(path, encoding='utf-8') as f:
        for n, text in enumerate(f, 1):
            text = text.rstrip('\n')
            if not text.strip() or text.lstrip().startswith('#'):
                continue
            mutant_id, tab, reason = text.partition('\t')
            if not tab or not reason.strip():
                raise EntryError(f'{path}:{n}: want "mutant id<TAB>reason", got {text!r}')
            out.append((n, mutant_id, reason.strip()))
    return out


def _collapsed_from(src, line, col, length):
    """The text from line:col with whitespace runs made single spaces, as
    a deleted statement's id spells it."""
    start = src.offset(line, col)
    return ' '.join(src.text(start, start + 4 * length + 256).split())


def mismatch(root, mutant_id):
    """None when the id still matches the source under ROOT, else why not."""
    file, line, col, kind, orig, _ = parse_id(mutant_id)
    path = os.path.join(root, file)
    if not os.path.isfile(path):
        return f'{file} does not exist (under {root})'
    src = sites.SourceText(path)
    if line > len(src.starts):
        return f'{file} has no line {line}'
    if kind == 'delete':
        if not _collapsed_from(src, line, col, len(orig)).startswith(orig):
            return f'{file}:{line}:{col} no longer starts the statement {orig!r}'
        return None
    if not src.holds(line, col, orig):
        return f'{file}:{line}: column {col} does not hold {orig!r} (the line: {src.line(line).strip()!r})'
    return None


def check(path, root):
    """Problems of the equivalents file PATH, each naming its entry."""
    problems = []
    try:
        entries = load(path)
    except (OSError, EntryError) as e:
        return [str(e)]
    for n, mutant_id, _ in entries:
        try:
            why = mismatch(root, mutant_id)
        except EntryError as e:
            why = str(e)
        if why:
            problems.append(f'{path}:{n}: {mutant_id}: {why}')
    return problems
