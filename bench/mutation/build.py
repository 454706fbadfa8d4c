# SPDX-License-Identifier: MIT
"""Building a mutant module without touching the source tree or the build.

CMake already wrote down how every object and module is made: each
object's command in compile_commands.json (CMAKE_EXPORT_COMPILE_COMMANDS,
set by the presets), and each target's link command, in
`CMakeFiles/<target>.dir/link.txt` under a Makefile generator or in
build.ninja under Ninja (asked of ninja itself, `ninja -t commands`). A
mutant is the module linked again with ONE object replaced: the mutated
file, compiled by its own command into a scratch folder. Nothing is
guessed about flags, libraries or link order, so this works for any
driver the build dir knows, built with any compiler.
"""
import glob
import json
import os
import shlex
import subprocess
from dataclasses import dataclass

# Dependency-file flags: they would write .d files next to the build's.
DEP_FLAGS_WITH_VALUE = {'-MT', '-MF', '-MQ'}
DEP_FLAGS = {'-MD', '-MMD', '-MP'}
# A mutant that only draws a warning is still a program that behaves
# differently: it is the suite's job to notice it, not the compiler's.
WERROR = ('-Werror', '-pedantic-errors')
# The flags that change what the preprocessor produces, for clang's lexer.
LEXER_FLAGS_WITH_VALUE = {'-I', '-D', '-U', '-isystem', '-iquote', '-idirafter', '-include',
                          '-imacros', '--sysroot', '-isysroot'}
LEXER_FLAG_PREFIXES = ('-I', '-D', '-U', '-std=', '-O', '-isystem', '-iquote', '-idirafter',
                       '--sysroot=', '-nostdinc', '-fPIC', '-fpic', '-fPIE', '-fpie', '-m32', '-m64')


class BuildError(Exception):
    pass


@dataclass
class CompileEntry:
    file: str        # absolute source path
    directory: str   # where the command runs
    args: list       # the command, split
    obj: str         # absolute object path


def _entry_args(e):
    return list(e['arguments']) if 'arguments' in e else shlex.split(e['command'])


def _output_of(args):
    for i, a in enumerate(args):
        if a == '-o' and i + 1 < len(args):
            return args[i + 1]
        if a.startswith('-o') and len(a) > 2:
            return a[2:]
    return None


def target_entries(build, target):
    """The compile entries of TARGET's own objects: those CMake puts in
    CMakeFiles/<target>.dir/ (the same file is often compiled for several
    targets with other flags)."""
    path = os.path.join(build, 'compile_commands.json')
    try:
        with open(path) as f:
            db = json.load(f)
    except OSError as e:
        raise BuildError(f'{path}: {e.strerror}: configure the build with '
                         '-DCMAKE_EXPORT_COMPILE_COMMANDS=ON (the presets set it)')
    except ValueError as e:
        raise BuildError(f'{path}: not JSON ({e})')
    marker = f'CMakeFiles{os.sep}{target}.dir{os.sep}'
    out = []
    for e in db:
        args = _entry_args(e)
        obj = _output_of(args)
        if obj and marker in obj:
            directory = e['directory']
            out.append(CompileEntry(os.path.normpath(os.path.join(directory, e['file'])), directory, args,
                                    os.path.normpath(os.path.join(directory, obj))))
    if not out:
        raise BuildError(f'no object of target {target} in {path}: is {target} a C target of this build?')
    return out


def lexer_flags(entry):
    """The flags of ENTRY that matter to the preprocessor, for clang."""
    out, args, i = [], entry.args[1:], 0
    while i < len(args):
        a = args[i]
        if a in LEXER_FLAGS_WITH_VALUE and i + 1 < len(args):
            out += [a, _absolute(entry.directory, args[i + 1]) if a != '-D' and a != '-U' else args[i + 1]]
            i += 2
            continue
        if a.startswith('-I') and len(a) > 2:
            out.append('-I' + _absolute(entry.directory, a[2:]))
        elif a.startswith(LEXER_FLAG_PREFIXES):
            out.append(a)
        i += 1
    return out


def _absolute(directory, path):
    return os.path.normpath(os.path.join(directory, path))


def compile_command(entry, source, obj):
    """ENTRY's command for SOURCE (a mutated copy) into OBJ."""
    out, args, i = [], entry.args, 0
    while i < len(args):
        a = args[i]
        if a in DEP_FLAGS_WITH_VALUE or a == '-o':
            i += 2
            continue
        if a in DEP_FLAGS or a.startswith(WERROR) or a.startswith(('-MF', '-MT', '-MQ')):
            i += 1
            continue
        if _absolute(entry.directory, a) == entry.file:
            a = source
        out.append(a)
        i += 1
    # The copy lives elsewhere: #include "x.h" must still find the
    # original's neighbours, which the compiler looks for first.
    return out[:1] + ['-iquote', os.path.dirname(entry.file)] + out[1:] + ['-o', obj]


@dataclass
class LinkRecipe:
    commands: list   # each an argv
    cwd: str


def _ninja_link(build, target):
    q = subprocess.run(['ninja', '-C', build, '-t', 'query', target], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if q.returncode != 0:
        raise BuildError(f'ninja knows no target {target} in {build}: {q.stderr.strip()}')
    lines = q.stdout.splitlines()
    # `target:` / `  input: phony` / `    <the module file>` / `  outputs:`
    outputs = [ln.strip() for ln in lines[2:] if ln.startswith('    ')]
    if len(lines) < 3 or lines[1].strip() != 'input: phony' or not outputs:
        raise BuildError(f'ninja -t query {target}: not the alias of one file:\n{q.stdout}')
    c = subprocess.run(['ninja', '-C', build, '-t', 'commands', '-s', outputs[0]], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if c.returncode != 0 or not c.stdout.strip():
        raise BuildError(f'ninja -t commands -s {outputs[0]}: {c.stderr.strip()}')
    return c.stdout.strip().splitlines()[-1], build


def _split_shell(line):
    """A CMake link line as argvs: CMake wraps Ninja's in `: && ... && :`;
    anything else a shell would do is refused, since we run argvs."""
    words = shlex.split(line)
    commands, cur = [], []
    for w in words + ['&&']:
        if w == '&&':
            if cur and cur != [':']:
                commands.append(cur)
            cur = []
        elif w in (';', '|', '||', '>', '<'):
            raise BuildError(f'a link command with {w!r} in it: {line}')
        else:
            cur.append(w)
    return commands


def link_recipe(build, target):
    """How TARGET is linked: link.txt (Makefile generators) or ninja's."""
    found = glob.glob(os.path.join(build, '**', 'CMakeFiles', f'{target}.dir', 'link.txt'), recursive=True)
    if found:
        with open(found[0]) as f:
            lines = [ln for ln in f.read().splitlines() if ln.strip()]
        cwd = os.path.dirname(os.path.dirname(os.path.dirname(found[0])))
    elif os.path.exists(os.path.join(build, 'build.ninja')):
        line, cwd = _ninja_link(build, target)
        lines = [line]
    else:
        raise BuildError(f'no link command for {target}: neither CMakeFiles/{target}.dir/link.txt nor build.ninja')
    commands = [argv for ln in lines for argv in _split_shell(ln)]
    return LinkRecipe(commands, cwd)


def link_commands(recipe, obj, replacement, output):
    """The recipe with the one object replaced and the module written to OUTPUT."""
    out = []
    for argv in recipe.commands:
        new, i, replaced = [], 0, False
        while i < len(argv):
            a = argv[i]
            if a == '-o' and i + 1 < len(argv):
                new += ['-o', output]
                i += 2
                continue
            if _absolute(recipe.cwd, a) == obj:
                a, replaced = replacement, True
            new.append(a)
            i += 1
        if not replaced:
            raise BuildError(f'the link command does not name {obj}: {" ".join(argv)}')
        out.append(new)
    return out


def run(argv, cwd, timeout=300):
    """(ok, last lines of the output) of one build step; ok is None when
    the step was killed by a signal (Ctrl-C reaches the compiler too):
    that says nothing of the mutant."""
    try:
        p = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           errors='replace', timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, f'{argv[0]}: no result in {timeout} s'
    except OSError as e:
        return False, f'{argv[0]}: {e.strerror}'
    ok = None if p.returncode < 0 else p.returncode == 0
    return ok, '\n'.join(p.stdout.splitlines()[-12:])


def build_module(entry, recipe, source, scratch):
    """Compile SOURCE (ENTRY's file, mutated) and link the module in
    SCRATCH. (path of the module, or None when it does not build, or
    False when a build step was killed; the compiler's last lines)."""
    obj = os.path.join(scratch, 'mutant.o')
    module = os.path.join(scratch, 'mutant.so')
    for f in (obj, module):
        if os.path.exists(f):
            os.unlink(f)
    steps = [(compile_command(entry, source, obj), entry.directory)]
    steps += [(argv, recipe.cwd) for argv in link_commands(recipe, entry.obj, obj, module)]
    for argv, cwd in steps:
        ok, out = run(argv, cwd)
        if ok is None:
            return False, out
        if not ok:
            return None, out
    return module, ''


def check_up_to_date(entries):
    """The build's objects must be those of today's sources: a mutant is
    linked with them."""
    for e in entries:
        if not os.path.exists(e.obj):
            raise BuildError(f'{e.obj} is missing: build the target first')
        if os.path.getmtime(e.obj) < os.path.getmtime(e.file):
            raise BuildError(f'{e.obj} is older than {e.file}: build the target first')
