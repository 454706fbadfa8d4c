/* SPDX-License-Identifier: MIT */
/* Known mutation sites for bench/mutation/test_mutation.py: sites.expected
 * lists exactly the mutants `mutation.py --list-mutants` must find here. */
#include "sites.h"

#define LOCAL_STEP(v) ((v) + 2u)

typedef unsigned U32;
static int table[4];

/* Each '*' here is a declarator or a dereference, never a product. */
int known(int a, int b, U32 *p)
{
    U32 *q = (U32 *)p;
    if (a)
        *q = 1u;
    int r = a < b;
    r = HEADER_MAX(a - 1, b);
#if 0
    r = a >= b;
#endif
    if (a == 0x1Fu && !b)
        r = STATUS_NO_MEMORY;
    *p = LOCAL_STEP(*p) & 010;
    sink(r);
    (void)sink(a % b);
    for (int i = 0; i < 4; i++) {
        table[i] = i << 1;
    }
    return r || b ? STATUS_SUCCESS : -r;
}
