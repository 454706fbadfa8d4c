# SPDX-License-Identifier: MIT
"""catalogue.py - reads examples/drivers/planted/catalogue.tsv, the one list
of planted bugs (its header says what each column means), and finds each
entry's module in a build."""
import os

COLUMNS = ('entry', 'name', 'target', 'ddi', 'rule', 'profile', 'state')
STATES = ('caught', 'latent')
PROFILES = ('contract', 'reference', 'stress')

# The harnesses that drive each DDI (docs/fuzz-your-driver.md, "Choose a
# harness"): the DDI's own harness, then fuzz_prog, which drives every DDI
# through whole programs. A DDI with no harness of its own has fuzz_prog.
HARNESSES_OF_DDI = {
    'Patch': ('fuzz_patch', 'fuzz_prog'),
    'Render': ('fuzz_render', 'fuzz_prog'),
    'BuildPagingBuffer': ('fuzz_paging', 'fuzz_prog'),
}


class CatalogueError(Exception):
    pass


def harnesses(entry):
    return HARNESSES_OF_DDI.get(entry['ddi'], ('fuzz_prog',))


def read(path):
    """The entries, in file order. Raises CatalogueError naming the line."""
    entries = []
    seen = set()
    try:
        with open(path, encoding='utf-8') as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise CatalogueError('%s: %s' % (path, e.strerror))
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.startswith('#'):
            continue
        cols = line.split('\t')
        where = '%s:%d' % (path, number)
        if len(cols) != len(COLUMNS):
            raise CatalogueError('%s: %d columns, the catalogue has %d (%s)'
                                 % (where, len(cols), len(COLUMNS), ', '.join(COLUMNS)))
        e = dict(zip(COLUMNS, cols))
        if not e['entry'].isdigit():
            raise CatalogueError('%s: entry %r is not a number' % (where, e['entry']))
        e['entry'] = int(e['entry'])
        if e['state'] not in STATES:
            raise CatalogueError('%s: state %r is none of %s' % (where, e['state'], ', '.join(STATES)))
        if e['profile'] not in PROFILES:
            raise CatalogueError('%s: profile %r is none of %s' % (where, e['profile'], ', '.join(PROFILES)))
        if e['name'] in seen:
            raise CatalogueError('%s: %s is listed twice' % (where, e['name']))
        seen.add(e['name'])
        entries.append(e)
    if not entries:
        raise CatalogueError('%s: no entry' % path)
    return entries


def select(entries, names):
    """The entries named (all when none is); an unknown name is an error."""
    if not names:
        return entries
    by_name = {e['name']: e for e in entries}
    unknown = [n for n in names if n not in by_name]
    if unknown:
        raise CatalogueError('not in the catalogue: %s' % ', '.join(unknown))
    return [by_name[n] for n in names]


def module(build, entry):
    """The entry's module in a build: examples/drivers/ (the buggy_*) or
    examples/drivers/planted/ (the planted_*)."""
    for sub in ('examples/drivers/planted', 'examples/drivers'):
        path = os.path.join(build, sub, entry['target'] + '.so')
        if os.path.exists(path):
            return path
    raise CatalogueError('%s: no %s.so under %s/examples/drivers (build it: cmake --build %s --target %s)'
                         % (entry['name'], entry['target'], build, build, entry['target']))


def source(root, entry):
    """The entry's C source (its fuzz results are kept per source)."""
    for sub in ('examples/drivers/planted', 'examples/drivers'):
        path = os.path.join(root, sub, entry['target'] + '.c')
        if os.path.exists(path):
            return path
    raise CatalogueError('%s: no %s.c under examples/drivers' % (entry['name'], entry['target']))
