# SPDX-License-Identifier: MIT
"""The mutation operators: what one token of C becomes.

Each operator is a kind (named in the reports) and, for a token spelled
one way, the spellings it is replaced by. The tables are the whole
definition: sites.py finds the tokens, this file says what they turn into.
The swaps are the classic single-token mutations (relational bounds, the
sign of arithmetic, and/or, a bit operator, an integer off by one, a
removed negation), plus the one WDDM adds: the NTSTATUS a DDI returns.
"""
import re

RELATIONAL = {'<': ['<=', '>'], '<=': ['<'], '>': ['>=', '<'], '>=': ['>'],
              '==': ['!='], '!=': ['==']}
ARITHMETIC = {'+': ['-'], '-': ['+'], '*': ['/'], '/': ['*'], '%': ['*'],
              '<<': ['>>'], '>>': ['<<']}
LOGICAL = {'&&': ['||'], '||': ['&&'], '!': ['']}
BITWISE = {'&': ['|'], '|': ['&'], '^': ['|']}

# '+', '-', '*' and '&' are also unary (sign, dereference, address-of):
# only their binary use is mutated, since '/' or '|' in front of an operand
# never compiles and would only add stillborn mutants.
BINARY_ONLY = {'+', '-', '*', '&'}

TOKEN_TABLES = (('relational', RELATIONAL), ('arithmetic', ARITHMETIC),
                ('logical', LOGICAL), ('bitwise', BITWISE))

# The kinds in report order; every mutant id carries one of them.
KINDS = ('relational', 'arithmetic', 'logical', 'bitwise', 'constant', 'delete', 'status')

STATUS_SUCCESS = 'STATUS_SUCCESS'
STATUS_UNSUCCESSFUL = 'STATUS_UNSUCCESSFUL'

# An integer literal of C11: hexadecimal, binary (a common extension),
# octal or decimal digits, then any of the suffixes u, l, ll in any case.
INTEGER = re.compile(r'^(?P<digits>0[xX][0-9a-fA-F]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)'
                     r'(?P<suffix>[uUlL]*)$')


def token_swaps(spelling):
    """[(kind, new spelling)] for an operator token, [] for any other."""
    for kind, table in TOKEN_TABLES:
        if spelling in table:
            return [(kind, new) for new in table[spelling]]
    return []


def _spell_integer(value, digits):
    """value written in the base, letter case and zero padding of digits."""
    if digits[:2] in ('0x', '0X'):
        body = format(value, 'x')
        if any(c in 'ABCDEF' for c in digits[2:]):
            body = body.upper()
        return digits[:2] + body.zfill(len(digits) - 2)
    if digits[:2] in ('0b', '0B'):
        return digits[:2] + format(value, 'b').zfill(len(digits) - 2)
    if len(digits) > 1 and digits[0] == '0':
        return '0' + format(value, 'o').zfill(len(digits) - 1)
    return str(value)


def integer_value(digits):
    if digits[:2] in ('0x', '0X'):
        return int(digits[2:], 16)
    if digits[:2] in ('0b', '0B'):
        return int(digits[2:], 2)
    if len(digits) > 1 and digits[0] == '0':
        return int(digits[1:], 8)
    return int(digits)


def constant_swaps(spelling):
    """[(op, new spelling)] for an integer literal: n+1 and n-1 in the
    literal's own base and suffix (so 0 gives only 1, and 1 gives 2 and 0:
    the 0->1 and 1->0 of the classic set); [] for anything else (floats,
    character constants)."""
    m = INTEGER.match(spelling)
    if not m:
        return []
    digits, suffix = m.group('digits'), m.group('suffix')
    value = integer_value(digits)
    out = [('+1', _spell_integer(value + 1, digits) + suffix)]
    if value > 0:
        out.append(('-1', _spell_integer(value - 1, digits) + suffix))
    return out


def status_swap(name):
    """The NTSTATUS a STATUS_* name is swapped for: success becomes a
    failure, any other status becomes success."""
    if name == STATUS_SUCCESS:
        return STATUS_UNSUCCESSFUL
    return STATUS_SUCCESS


def op_name(kind, orig, new):
    """The row of the per-operator table a mutant counts in."""
    if kind == 'constant':
        return 'n+1' if integer_value(INTEGER.match(new).group('digits')) > \
            integer_value(INTEGER.match(orig).group('digits')) else 'n-1'
    if kind == 'status':
        return 'SUCCESS->UNSUCCESSFUL' if orig == STATUS_SUCCESS else 'STATUS_*->SUCCESS'
    if kind == 'delete':
        return 'statement'
    return f'{orig} -> {new}' if new else f'{orig} removed'
