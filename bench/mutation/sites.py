# SPDX-License-Identifier: MIT
"""Mutation sites of one C file, from clang's own lexer.

`clang -fsyntax-only -Xclang -dump-tokens FLAGS FILE` prints every token
the compiler sees after preprocessing, one a line, with where it was
expanded and, for a token that came out of a macro, where it is spelled.
That stream is the code that is compiled: inactive #if branches are not in
it, headers are marked as such, and a token written in the file is told
apart from one that a header's macro produced. We keep a token as a site
when it is SPELLED in the file itself: plain code, a macro argument, or the
body of a macro the file defines and uses; never a header's macro body.

One thing the stream cannot show is the name of a macro that was expanded:
STATUS_SUCCESS arrives as the tokens of its definition. For the status
swaps the raw lexer (`-dump-raw-tokens`, the file's tokens as written)
gives the identifiers, and the expanded stream says which of them are in
compiled code.

Deleted statements are found on the expanded stream too (brackets must
balance there), but only a statement whose first token and `;` are
written in the file, so that the text removed is exactly that statement.
"""
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field

import operators

# kind 'spelling'<TAB>flags<TAB>Loc=<...>; the spelling may hold anything
# but a newline, so the line is matched from both ends.
TOKEN_LINE = re.compile(r"^(?P<kind>\w+) '(?P<spell>.*)'\t[^\t]*\tLoc=<(?P<loc>.*)>$")
LOCATION = re.compile(r'^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+)'
                      r'(?: <Spelling=(?P<sfile>.+?):(?P<sline>\d+):(?P<scol>\d+)>)?$')
RAW_IDENTIFIER = re.compile(r"^raw_identifier '(?P<name>\w+)'\t[^\t]*\tLoc=<(?P<loc>.*)>$")

ASSIGNMENTS = {'=', '+=', '-=', '*=', '/=', '%=', '<<=', '>>=', '&=', '|=', '^='}
OPEN, CLOSE = {'(', '[', '{'}, {')', ']', '}'}
# What may stand before a binary operator: the end of an operand.
OPERAND_ENDS = {'identifier', 'numeric_constant', 'char_constant', 'string_literal',
                'r_paren', 'r_square'}
# A '*' after a type name is a declarator: `T *p`, `T **pp`, `(T *)x`.
# The lexer cannot tell a typedef name from a variable; these are the cases
# its neighbours settle (a '*' before any of AFTER_DECLARATOR_STAR, or after
# a name that BEFORE_TYPE_NAME or a statement's start introduces).
AFTER_DECLARATOR_STAR = {'*', ')', ',', 'const', 'volatile', 'restrict'}
BEFORE_TYPE_NAME = {'struct', 'union', 'enum', 'const', 'volatile', 'static', 'extern', 'register',
                    ';', '{', '}'}


class ClangMissing(Exception):
    """No clang, or clang could not lex the file: no sites."""
    pass


@dataclass
class Token:
    kind: str
    spell: str
    exp: tuple          # (file, line, col) where the token was expanded
    spelled: tuple      # (file, line, col) where its characters are written
    from_macro: bool    # it came out of a macro expansion


@dataclass
class Mutant:
    file: str           # path relative to the source root, as in the id
    line: int
    col: int
    kind: str
    op: str             # the row of the per-operator table
    orig: str
    new: str
    start: int = field(repr=False, default=0)   # byte range replaced in the file
    end: int = field(repr=False, default=0)

    @property
    def id(self):
        return f'{self.file}:{self.line}:{self.col}:{self.kind}:{self.orig}->{self.new}'


def find_clang():
    clang = shutil.which('clang')
    if not clang:
        raise ClangMissing('clang is needed for its lexer (-dump-tokens): apt-get install -y clang')
    return clang


def _run_dump(clang, flags, path, action):
    cmd = [clang, '-fsyntax-only', '-w', '-Xclang', action] + flags + [path]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, errors='replace')
    if p.returncode != 0:
        tail = '\n'.join(p.stderr.splitlines()[-5:])
        raise ClangMissing(f'clang could not lex {path} ({" ".join(cmd)}):\n{tail}')
    return p.stderr.splitlines()


def _location(text):
    m = LOCATION.match(text)
    if not m:
        return None, None
    exp = (m.group('file'), int(m.group('line')), int(m.group('col')))
    if m.group('sfile') is None:
        return exp, None
    return exp, (m.group('sfile'), int(m.group('sline')), int(m.group('scol')))


def expanded_tokens(clang, flags, path):
    """The token stream the compiler sees, with locations."""
    out = []
    for line in _run_dump(clang, flags, path, '-dump-tokens'):
        m = TOKEN_LINE.match(line)
        if not m:
            continue
        exp, spelled = _location(m.group('loc'))
        if exp is None:
            continue  # <scratch space>, <built-in>: nothing written in a file
        out.append(Token(m.group('kind'), m.group('spell'), exp, spelled or exp, spelled is not None))
    return out


def raw_identifiers(clang, flags, path):
    """{(line, col): name} of every identifier written in the file."""
    out = {}
    for line in _run_dump(clang, flags, path, '-dump-raw-tokens'):
        m = RAW_IDENTIFIER.match(line)
        if m:
            exp, _ = _location(m.group('loc'))
            if exp:
                out[exp[1:]] = m.group('name')
    return out


class SourceText:
    """The file's bytes, addressed as clang addresses them: 1-based line
    and byte column."""

    def __init__(self, path):
        with open(path, 'rb') as f:
            self.data = f.read()
        self.starts = [0] + [m.end() for m in re.finditer(rb'\n', self.data)]

    def offset(self, line, col):
        return self.starts[line - 1] + col - 1

    def text(self, start, end):
        return self.data[start:end].decode('utf-8', 'replace')

    def line(self, line):
        end = self.starts[line] - 1 if line < len(self.starts) else len(self.data)
        return self.text(self.starts[line - 1], end)

    def holds(self, line, col, spelling):
        if line < 1 or line > len(self.starts):
            return False
        start = self.offset(line, col)
        return self.data[start:start + len(spelling.encode())] == spelling.encode()


def _is_keyword(tok):
    # -dump-tokens names a keyword's kind after the keyword itself.
    return tok.kind == tok.spell and tok.kind != 'identifier'


def _nesting(tokens):
    """Per token: (brace depth, paren depth) before it, and for a ')' the
    index of its '('."""
    depth, opens, out, match = [0, 0], [], [], {}
    for i, tok in enumerate(tokens):
        out.append(tuple(depth))
        if tok.spell == '{':
            depth[0] += 1
        elif tok.spell == '}':
            depth[0] = max(0, depth[0] - 1)
        elif tok.spell == '(':
            depth[1] += 1
            opens.append(i)
        elif tok.spell == ')':
            depth[1] = max(0, depth[1] - 1)
            if opens:
                match[i] = opens.pop()
    return out, match


def _binary(tokens, i, nesting):
    """Whether tokens[i] ('+', '-', '*' or '&') is a binary operator."""
    depths, match = nesting
    prev = tokens[i - 1] if i else None
    if prev is None or prev.kind not in OPERAND_ENDS:
        return False  # a sign, a dereference, an address
    if prev.spell == ')' and i - 1 in match and match[i - 1] > 0 and \
            tokens[match[i - 1] - 1].spell in ('if', 'while', 'for', 'switch'):
        return False  # `if (x) *p = 1`: a statement starts after the ')'
    if tokens[i].spell != '*':
        return True
    if depths[i][0] == 0 and depths[i][1] > 0:
        return False  # in a function's parameter list
    after = tokens[i + 1].spell if i + 1 < len(tokens) else ''
    before_name = tokens[i - 2].spell if i >= 2 and prev.kind == 'identifier' else ''
    return after not in AFTER_DECLARATOR_STAR and before_name not in BEFORE_TYPE_NAME


def token_mutants(tokens, main, rel, src):
    """Operator and constant mutants of every token spelled in the file."""
    out, seen, nesting = [], set(), _nesting(tokens)
    for i, tok in enumerate(tokens):
        if tok.spelled[0] != main or tok.spelled in seen:
            continue
        seen.add(tok.spelled)  # a macro argument used twice is one site
        line, col = tok.spelled[1:]
        if not src.holds(line, col, tok.spell):
            continue  # a token split by a line continuation: leave it
        if tok.kind == 'numeric_constant':
            swaps = [('constant', op, new) for op, new in operators.constant_swaps(tok.spell)]
        else:
            if tok.spell in operators.BINARY_ONLY and not _binary(tokens, i, nesting):
                continue
            swaps = [(kind, operators.op_name(kind, tok.spell, new), new)
                     for kind, new in operators.token_swaps(tok.spell)]
        start = src.offset(line, col)
        for kind, op, new in swaps:
            out.append(Mutant(rel, line, col, kind, op, tok.spell, new, start, start + len(tok.spell.encode())))
    return out


def _macro_argument_spans(tokens, main):
    """[(first, next)] locations of the macro invocations written in the
    file: from the macro's name to the next token of the file after its
    expansion; a name inside one of them is in a macro argument."""
    spans, i = [], 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.from_macro and tok.exp[0] == main:
            j = i
            while j < len(tokens) and tokens[j].from_macro and tokens[j].exp == tok.exp:
                j += 1
            nxt = next((t.exp[1:] for t in tokens[j:] if t.exp[0] == main), (1 << 30, 0))
            spans.append((tok.exp[1:], nxt))
            i = j
        else:
            i += 1
    return spans


def status_mutants(tokens, names, main, rel, src):
    """STATUS_* names in compiled code: each swapped (operators.status_swap)."""
    spans = _macro_argument_spans(tokens, main)
    plain = {t.exp[1:] for t in tokens if not t.from_macro and t.exp[0] == main}
    out = []
    for (line, col), name in sorted(names.items()):
        if not name.startswith('STATUS_') or not src.holds(line, col, name):
            continue
        if (line, col) not in plain and not any(first <= (line, col) < nxt for first, nxt in spans):
            continue
        new = operators.status_swap(name)
        start = src.offset(line, col)
        out.append(Mutant(rel, line, col, 'status', operators.op_name('status', name, new), name, new,
                          start, start + len(name.encode())))
    return out


def _statement_end(tokens, i):
    """Index of the `;` that ends a statement starting at i with the
    brackets balanced in between, or None."""
    depth = 0
    for j in range(i, len(tokens)):
        s = tokens[j].spell
        if s in OPEN:
            depth += 1
        elif s in CLOSE:
            depth -= 1
            if depth < 0:
                return None
        elif s == ';' and depth == 0:
            return j
    return None


def _is_declaration(stmt):
    """`T x ...` or `T *x ...`: an identifier followed by another, maybe
    through stars (no expression statement starts that way)."""
    if len(stmt) < 2 or stmt[0].kind != 'identifier':
        return False
    k = 1
    while k < len(stmt) and stmt[k].spell == '*':
        k += 1
    return k < len(stmt) and stmt[k].kind == 'identifier'


def _top_level(stmt):
    depth, out = 0, []
    for tok in stmt:
        if tok.spell in CLOSE:
            depth -= 1
        if depth == 0:
            out.append(tok)
        if tok.spell in OPEN:
            depth += 1
    return out


def _is_call(stmt):
    """`f(...)`, `p->ops.f(...)`, optionally cast to void: a call and
    nothing else at the top level."""
    if [t.spell for t in stmt[:3]] == ['(', 'void', ')']:
        stmt = stmt[3:]
    top = _top_level(stmt)
    if len(top) < 3 or top[-2].spell != '(' or top[-1].spell != ')':
        return False
    names = top[:-2]
    if not names or names[0].kind != 'identifier' or len(names) % 2 == 0:
        return False
    return all(t.spell in ('.', '->') for t in names[1::2]) and \
        all(t.kind == 'identifier' for t in names[0::2])


def statement_kind(stmt):
    """'assignment', 'call' or None for the tokens of a statement (no `;`)."""
    if not stmt or _is_keyword(stmt[0]) or _is_declaration(stmt):
        return None
    if any(t.spell in ASSIGNMENTS for t in _top_level(stmt)):
        return 'assignment'
    return 'call' if _is_call(stmt) else None


def delete_mutants(tokens, main, rel, src):
    """Expression statements (an assignment or a call) that start at a
    statement boundary, removed with their `;`. After the `)` of an if,
    for or while without braces is not a boundary: removing that statement
    alone would take the next one into the condition."""
    out, paren = [], 0
    for i, tok in enumerate(tokens):
        prev = tokens[i - 1].spell if i else ';'
        if (paren == 0 and prev in (';', '{', '}') and not tok.from_macro and tok.exp[0] == main):
            end = _statement_end(tokens, i)
            if end is not None and not tokens[end].from_macro and tokens[end].exp[0] == main:
                kind = statement_kind(tokens[i:end])
                if kind:
                    start = src.offset(*tok.exp[1:])
                    stop = src.offset(*tokens[end].exp[1:]) + 1
                    text = ' '.join(src.text(start, stop).split())
                    out.append(Mutant(rel, tok.exp[1], tok.exp[2], 'delete', kind, text, '', start, stop))
        if tok.spell in ('(', '['):
            paren += 1
        elif tok.spell in (')', ']'):
            paren = max(0, paren - 1)
    return out


def file_mutants(clang, flags, path, rel):
    """Every mutant of one file, in a fixed order: by place, then kind."""
    main = os.path.abspath(path)
    tokens = expanded_tokens(clang, flags, main)
    names = raw_identifiers(clang, flags, main)
    src = SourceText(main)
    mutants = (token_mutants(tokens, main, rel, src) + status_mutants(tokens, names, main, rel, src)
               + delete_mutants(tokens, main, rel, src))
    order = {k: n for n, k in enumerate(operators.KINDS)}
    mutants.sort(key=lambda m: (m.line, m.col, order[m.kind], m.new))
    return mutants


def apply(src_bytes, mutant):
    """The file's bytes with the mutant's range replaced."""
    return src_bytes[:mutant.start] + mutant.new.encode() + src_bytes[mutant.end:]
