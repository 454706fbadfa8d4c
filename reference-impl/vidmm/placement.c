/* SPDX-License-Identifier: MIT */
/*
 * placement.c - the placement heap: where in a segment a block goes.
 *
 * Overview. A heap is the address bookkeeping of one GPU segment. Every byte
 * of [0, size) is in exactly one block, free or allocated, and free blocks
 * never touch (freeing merges a block with its free neighbours at once), so
 * the free ranges are the holes between allocations and nothing else. Each
 * kind lives in its own AVL tree keyed by start offset. The free tree is
 * augmented: every node also knows the longest free range in its subtree and
 * the coarsest power of two dividing every free start in its subtree. Those
 * two numbers let one root-to-leaf descent answer "the lowest (or highest)
 * free range intersecting [lo, hi) that holds this block", which is the
 * question a WDDM video memory manager asks for every placement: a segment
 * preference with its direction bit, or a bank preference, becomes a window
 * and a direction (docs/wddm-facts.md 5.6, B3/B4). The allocated tree only maps
 * an offset back to its size, so free() takes nothing but the offset.
 *
 * What it deliberately does not do. It has no eviction policy: when a
 * request fails it says WK_E_NO_SPACE and the caller decides what to evict
 * and retries. It knows nothing of banks: the caller turns a bank into its
 * [lo, hi) window and tries its hints in priority order, falling back to the
 * whole segment, because that order is policy. It keeps no per-block payload
 * (the caller maps offsets to its allocations) and no locks (a memory
 * manager has to lock far more than this anyway). Unlike drm_mm, the caller
 * does not embed nodes: a caller that tracks blocks by offset alone keeps
 * its structures free of ours, at the price of one malloc per split, which
 * is why WK_E_NO_MEMORY exists; every call that can fail allocates first and
 * only then changes the trees, so a failure leaves the heap as it was.
 *
 * Complexity, for n blocks: alloc, reserve and free are O(log n) (a few
 * descents and at most three tree updates); free bytes, largest free range
 * and block count are O(1); iteration is O(log n) a step; the check is
 * O(n log n). Recursion depth is the AVL height, below 1.45 log2(n) + 2.
 *
 * Fit guarantee. The descent cannot afford to look at every free range, so
 * it enters a subtree only when the subtree's two summaries promise a fit:
 * with L the longest range below and g the coarsest power of two dividing
 * every start below, a range of L bytes starting at a multiple of g wastes
 * at most alignment - g bytes to alignment (none once g >= alignment), so
 * L >= size + slack, slack = (g >= alignment ? 0 : alignment - g), proves
 * that a fit exists there and the descent never has to back out. Every range
 * the descent does reach, and the (at most two) ranges cut by the window
 * edges, are judged exactly. What this gives, bottom-up (top-down mirrors):
 *   - alignment 1, or every free start inside the window a multiple of the
 *     alignment (a page-granular heap with page-aligned requests): the result
 *     is exactly the lowest fit, and WK_E_NO_SPACE means nothing fits;
 *   - otherwise the result is never above the lowest range cut by a window
 *     edge that fits, nor above the lowest range wholly inside the window
 *     that holds size + (alignment - g_w) bytes, g_w being the coarsest power
 *     of two dividing the starts of all such ranges; so in particular never
 *     above the lowest range holding size + alignment - 1 bytes inside the
 *     window, and the call succeeds whenever one does;
 *   - a range holding fewer bytes that fits only because its start happens
 *     to be better aligned than its neighbours' may be passed over for a
 *     higher one, or missed (WK_E_NO_SPACE) when it is the only fit.
 * Whatever range is chosen, the block sits at its lowest (top-down: highest)
 * aligned offset inside the window.
 */
#include "placement.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* A free range or an allocated block: [start, start + len). */
struct node {
    struct node *child[2]; /* 0: lower starts, 1: higher starts */
    uint64_t start;
    uint64_t len;
    uint64_t max_len;      /* longest len in this subtree */
    unsigned char height;  /* 1 for a leaf */
    unsigned char min_tz;  /* fewest trailing zero bits of any start below (64 for 0) */
};

struct wk_place_heap {
    uint64_t size;
    uint64_t free_bytes;
    uint64_t count;        /* allocated blocks */
    uint64_t free_ranges;  /* free blocks */
    struct node *free_root;
    struct node *alloc_root;
    uint64_t fail_nth;     /* torture hook: 0 off, else allocations until one fails */
    uint64_t last_visits;  /* complexity probe: nodes the last search looked at */
    int shaped;            /* nothing inserted or erased since the last wk_place_rebuild */
};

/* ------------------------------------------------------------------ */
/* AVL tree keyed by start, augmented with max_len and min_tz           */
/* ------------------------------------------------------------------ */

static unsigned trailing_zeros(uint64_t x)
{
    if (!x)
        return 64;
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctzll(x);
#else
    unsigned n = 0;
    while (!(x & 1)) {
        x >>= 1;
        n++;
    }
    return n;
#endif
}

static unsigned height(const struct node *n)
{
    return n ? n->height : 0;
}

/* Recomputes n's summaries from its own range and its children's. */
static void fix(struct node *n)
{
    unsigned h = 0, tz = trailing_zeros(n->start);
    uint64_t m = n->len;
    for (int d = 0; d < 2; d++) {
        const struct node *c = n->child[d];
        if (!c)
            continue;
        if (c->height > h)
            h = c->height;
        if (c->max_len > m)
            m = c->max_len;
        if (c->min_tz < tz)
            tz = c->min_tz;
    }
    n->height = (unsigned char)(h + 1);
    n->max_len = m;
    n->min_tz = (unsigned char)tz;
}

/* Lifts n's child on side d into n's place. */
static struct node *rotate(struct node *n, int d)
{
    struct node *c = n->child[d];
    n->child[d] = c->child[!d];
    c->child[!d] = n;
    fix(n);
    fix(c);
    return c;
}

/* Fixes n and restores the AVL balance at n (children already balanced). */
static struct node *rebalance(struct node *n)
{
    fix(n);
    int bf = (int)height(n->child[0]) - (int)height(n->child[1]);
    if (bf > 1 || bf < -1) {
        int d = bf > 1 ? 0 : 1; /* the taller side */
        struct node *c = n->child[d];
        if (height(c->child[!d]) > height(c->child[d]))
            n->child[d] = rotate(c, !d); /* zig-zag: straighten first */
        return rotate(n, d);
    }
    return n;
}

/* Inserts n (its key absent from t); returns the new root. */
static struct node *tree_insert(struct node *t, struct node *n)
{
    if (!t) {
        n->child[0] = n->child[1] = NULL;
        fix(n);
        return n;
    }
    int d = n->start > t->start;
    t->child[d] = tree_insert(t->child[d], n);
    return rebalance(t);
}

/* Unlinks the lowest node of t into *min; returns the new root. */
static struct node *tree_take_min(struct node *t, struct node **min)
{
    if (!t->child[0]) {
        *min = t;
        return t->child[1];
    }
    t->child[0] = tree_take_min(t->child[0], min);
    return rebalance(t);
}

/* Unlinks the node with this key into *out (NULL if absent); returns the
 * new root. Nodes are relinked, never copied, so other node pointers stay
 * valid. */
static struct node *tree_erase(struct node *t, uint64_t key, struct node **out)
{
    if (!t)
        return NULL;
    if (key != t->start) {
        int d = key > t->start;
        t->child[d] = tree_erase(t->child[d], key, out);
        return rebalance(t);
    }
    *out = t;
    if (!t->child[0] || !t->child[1])
        return t->child[0] ? t->child[0] : t->child[1];
    struct node *m;
    struct node *right = tree_take_min(t->child[1], &m);
    m->child[0] = t->child[0];
    m->child[1] = right;
    return rebalance(m);
}

/* Changes the node keyed `key` to [start, start + len) and refreshes the
 * summaries on its path. The caller guarantees the new start keeps the
 * node's place in key order, so the shape needs no rebalancing. */
static void tree_retouch(struct node *t, uint64_t key, uint64_t start, uint64_t len)
{
    if (key == t->start) {
        t->start = start;
        t->len = len;
    } else {
        tree_retouch(t->child[key > t->start], key, start, len);
    }
    fix(t);
}

static struct node *tree_find(struct node *t, uint64_t key)
{
    while (t && t->start != key)
        t = t->child[key > t->start];
    return t;
}

/* The node with the greatest start <= key (dir 0), or the least start >=
 * key (dir 1); NULL if none. */
static struct node *tree_bound(struct node *t, uint64_t key, int dir)
{
    struct node *best = NULL;
    while (t) {
        if (t->start == key)
            return t;
        int right = key > t->start;
        if (right != dir)
            best = t;
        t = t->child[right];
    }
    return best;
}

/* Appends t's nodes in key order to the list ending at tail (linked
 * through child[1]); returns the new tail. Left children are rotated up,
 * so the walk needs no stack. */
static struct node *tree_flatten(struct node *t, struct node *tail)
{
    while (t) {
        if (t->child[0]) {
            struct node *l = t->child[0];
            t->child[0] = l->child[1];
            l->child[1] = t;
            t = l;
        } else {
            tail->child[1] = t;
            tail = t;
            t = t->child[1];
        }
    }
    tail->child[1] = NULL;
    return tail;
}

/* The first n nodes of the list at *list as a tree balanced by halves
 * (its shape a function of n alone); *list moves past them. */
static struct node *tree_from_list(struct node **list, uint64_t n)
{
    if (!n)
        return NULL;
    struct node *left = tree_from_list(list, n / 2); /* depth log2(n): the stack is no concern */
    struct node *root = *list;
    *list = root->child[1];
    root->child[0] = left;
    root->child[1] = tree_from_list(list, n - n / 2 - 1);
    fix(root);
    return root;
}

/* t's nodes as a list in key order, linked through child[1]. */
static struct node *tree_to_list(struct node *t)
{
    struct node head = { { NULL, NULL }, 0, 0, 0, 0, 0 };
    tree_flatten(t, &head);
    return head.child[1];
}

static void tree_destroy(struct node *t)
{
    for (struct node *n = tree_to_list(t), *next; n; n = next) {
        next = n->child[1];
        free(n);
    }
}

static struct node *tree_rebuild(struct node *t, uint64_t n)
{
    struct node *list = tree_to_list(t);
    return tree_from_list(&list, n);
}

/* ------------------------------------------------------------------ */
/* The search                                                           */
/* ------------------------------------------------------------------ */

/* A validated request. Interior ranges are the free ranges whose start is
 * in [klo, khi): they lie wholly inside the window. */
struct query {
    uint64_t size, align, lo, hi;
    uint64_t klo, khi;
    int dir;         /* 0 bottom-up, 1 top-down: the child searched first */
    uint64_t visits; /* nodes the search looked at (wk_place_last_visits) */
};

/* Where the block goes in range r clipped to the window; 0 if it does not
 * fit there. */
static int place_in(const struct query *q, const struct node *r, uint64_t *at)
{
    uint64_t a = r->start > q->lo ? r->start : q->lo;
    uint64_t end = r->start + r->len;
    uint64_t b = end < q->hi ? end : q->hi;
    if (a >= b || b - a < q->size)
        return 0;
    uint64_t mask = q->align - 1, o;
    if (q->dir) {
        o = (b - q->size) & ~mask;
        if (o < a)
            return 0;
    } else {
        uint64_t pad = (q->align - (a & mask)) & mask;
        if (pad > b - a - q->size)
            return 0;
        o = a + pad;
    }
    *at = o;
    return 1;
}

/* Do subtree t's summaries prove that a fit exists in it ("Fit guarantee")?
 * Only for subtrees of interior ranges: a range cut by the window has less
 * room than its length. */
static int promises_fit(const struct query *q, const struct node *t)
{
    if (!t || t->max_len < q->size)
        return 0;
    uint64_t g = t->min_tz >= 64 ? 0 : 1ull << t->min_tz; /* 0: start 0 only, aligned to all */
    uint64_t slack = (g == 0 || g >= q->align) ? 0 : q->align - g;
    return t->max_len - q->size >= slack;
}

/* First fitting range, in scan order, of a subtree wholly inside [klo, khi).
 * Enters only subtrees that promise a fit, so it never backs out. */
static struct node *descend(struct query *q, struct node *t, uint64_t *at)
{
    if (!promises_fit(q, t))
        return NULL;
    for (;;) {
        q->visits++;
        if (promises_fit(q, t->child[q->dir]))
            t = t->child[q->dir];
        else if (place_in(q, t, at))
            return t;
        else if (promises_fit(q, t->child[!q->dir]))
            t = t->child[!q->dir];
        else
            return NULL; /* unreachable: t promised and its near child did not,
                            so the range behind the promise is t itself or in
                            the far child, whose g is no finer than t's */
    }
}

#define BOUND_LO 1u /* subtree may hold starts < klo */
#define BOUND_HI 2u /* subtree may hold starts >= khi */

/* First fitting interior range, in scan order, of subtree t. While a bound
 * is open this walks the paths to klo and khi, O(height) nodes; each
 * subtree hanging off them lies wholly inside and goes to descend(), which
 * either rejects it in O(1) or finds the answer. */
static struct node *search(struct query *q, struct node *t, unsigned bounds, uint64_t *at)
{
    if (!t || t->max_len < q->size)
        return NULL;
    q->visits++;
    if (!bounds)
        return descend(q, t, at);
    if ((bounds & BOUND_LO) && t->start < q->klo)
        return search(q, t->child[1], bounds, at);
    if ((bounds & BOUND_HI) && t->start >= q->khi)
        return search(q, t->child[0], bounds, at);
    /* t is interior: its left subtree is below khi, its right above klo. */
    unsigned near = bounds & (q->dir ? BOUND_HI : BOUND_LO);
    unsigned far = bounds & (q->dir ? BOUND_LO : BOUND_HI);
    struct node *r = search(q, t->child[q->dir], near, at);
    if (r)
        return r;
    if (place_in(q, t, at))
        return t;
    return search(q, t->child[!q->dir], far, at);
}

/* The range the block goes in, in scan order: the range cut by the near
 * window edge, the interior ranges, the range cut by the far edge. */
static struct node *find_fit(const struct wk_place_heap *h, struct query *q, uint64_t *at)
{
    struct node *cut_lo = tree_bound(h->free_root, q->lo, 0);
    if (cut_lo && (cut_lo->start == q->lo || cut_lo->start + cut_lo->len <= q->lo))
        cut_lo = NULL; /* starts at lo (interior) or ends before the window */
    struct node *cut_hi = tree_bound(h->free_root, q->hi - 1, 0);
    if (cut_hi && cut_hi->start + cut_hi->len <= q->hi)
        cut_hi = NULL;
    if (cut_hi == cut_lo)
        cut_hi = NULL; /* one range covers the whole window */
    q->klo = q->lo;
    q->khi = cut_hi ? cut_hi->start : q->hi;

    struct node *first = q->dir ? cut_hi : cut_lo;
    struct node *last = q->dir ? cut_lo : cut_hi;
    if (first && place_in(q, first, at))
        return first;
    if (q->klo < q->khi) {
        struct node *r = search(q, h->free_root, BOUND_LO | BOUND_HI, at);
        if (r)
            return r;
    }
    if (last && place_in(q, last, at))
        return last;
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Carving and releasing                                                */
/* ------------------------------------------------------------------ */

static struct node *node_new(struct wk_place_heap *h)
{
    if (h->fail_nth && --h->fail_nth == 0)
        return NULL;
    return malloc(sizeof(struct node));
}

/* Allocates [o, o + size) out of free range f, which holds it. Up to two
 * nodes are allocated before anything changes. */
static wk_status carve(struct wk_place_heap *h, struct node *f, uint64_t o, uint64_t size)
{
    uint64_t f_start = f->start, f_end = f->start + f->len, end = o + size;
    int left = o > f_start, right = end < f_end;
    struct node *blk = NULL, *rest = NULL;
    if (left || right) {
        blk = node_new(h);
        if (!blk)
            return WK_E_NO_MEMORY;
    }
    if (left && right) {
        rest = node_new(h);
        if (!rest) {
            free(blk);
            return WK_E_NO_MEMORY;
        }
    }

    if (!left && !right) {
        /* Exact fit: the free node itself moves to the allocated tree. */
        h->free_root = tree_erase(h->free_root, f_start, &blk);
        h->free_ranges--;
    } else if (left) {
        tree_retouch(h->free_root, f_start, f_start, o - f_start);
        if (right) {
            rest->start = end;
            rest->len = f_end - end;
            h->free_root = tree_insert(h->free_root, rest);
            h->free_ranges++;
        }
    } else {
        /* Only a tail is left; no free start lies in [f_start, end). */
        tree_retouch(h->free_root, f_start, end, f_end - end);
    }
    blk->start = o;
    blk->len = size;
    h->alloc_root = tree_insert(h->alloc_root, blk);
    h->count++;
    h->shaped = 0;
    h->free_bytes -= size;
    return WK_OK;
}

wk_status wk_place_create(uint64_t size, struct wk_place_heap **out)
{
    if (!size || !out)
        return WK_E_INVALID_ARGUMENT;
    struct wk_place_heap *h = calloc(1, sizeof(*h));
    struct node *all = malloc(sizeof(*all));
    if (!h || !all) {
        free(h);
        free(all);
        return WK_E_NO_MEMORY;
    }
    all->start = 0;
    all->len = size;
    h->size = size;
    h->free_bytes = size;
    h->free_ranges = 1;
    h->free_root = tree_insert(NULL, all);
    *out = h;
    return WK_OK;
}

void wk_place_destroy(struct wk_place_heap *h)
{
    if (!h)
        return;
    tree_destroy(h->free_root);
    tree_destroy(h->alloc_root);
    free(h);
}

wk_status wk_place_alloc(struct wk_place_heap *h, const struct wk_place_request *req,
                         uint64_t *offset)
{
    if (!h || !req || !offset)
        return WK_E_INVALID_ARGUMENT;
    struct query q = {
        .size = req->size,
        .align = req->alignment ? req->alignment : 1,
        .lo = req->lo,
        .hi = req->hi ? req->hi : h->size,
        .dir = req->top_down,
    };
    if (!q.size || (q.align & (q.align - 1)) || q.lo >= q.hi || q.hi > h->size ||
        (req->top_down != 0 && req->top_down != 1))
        return WK_E_INVALID_ARGUMENT;
    h->last_visits = 0;
    if (q.size > q.hi - q.lo)
        return WK_E_NO_SPACE;
    uint64_t at;
    struct node *f = find_fit(h, &q, &at);
    h->last_visits = q.visits;
    if (!f)
        return WK_E_NO_SPACE;
    wk_status s = carve(h, f, at, q.size);
    if (s == WK_OK)
        *offset = at;
    return s;
}

wk_status wk_place_reserve(struct wk_place_heap *h, uint64_t offset, uint64_t size)
{
    if (!h || !size || offset + size < offset)
        return WK_E_INVALID_ARGUMENT;
    if (offset + size > h->size)
        return WK_E_OUT_OF_RANGE;
    struct node *f = tree_bound(h->free_root, offset, 0);
    if (!f || f->start + f->len < offset + size)
        return WK_E_NO_SPACE;
    return carve(h, f, offset, size);
}

wk_status wk_place_free(struct wk_place_heap *h, uint64_t offset)
{
    if (!h)
        return WK_E_INVALID_ARGUMENT;
    struct node *blk = NULL;
    h->alloc_root = tree_erase(h->alloc_root, offset, &blk);
    if (!blk)
        return WK_E_INVALID_ARGUMENT;
    uint64_t start = blk->start, len = blk->len, end = start + len;
    h->count--;
    h->shaped = 0;
    h->free_bytes += len;

    struct node *prev = tree_bound(h->free_root, start, 0);
    if (prev && prev->start + prev->len != start)
        prev = NULL;
    struct node *next = tree_find(h->free_root, end);
    if (next) {
        /* Absorb next into blk (it no longer starts a range). */
        struct node *gone;
        len += next->len;
        h->free_root = tree_erase(h->free_root, end, &gone);
        free(gone);
        h->free_ranges--;
    }
    if (prev) {
        tree_retouch(h->free_root, prev->start, prev->start, prev->len + len);
        free(blk);
    } else {
        blk->len = len;
        h->free_root = tree_insert(h->free_root, blk);
        h->free_ranges++;
    }
    return WK_OK;
}

void wk_place_rebuild(struct wk_place_heap *h)
{
    if (!h || h->shaped)
        return; /* a reset after an input that placed nothing costs nothing */
    h->free_root = tree_rebuild(h->free_root, h->free_ranges);
    h->alloc_root = tree_rebuild(h->alloc_root, h->count);
    h->shaped = 1;
}

uint64_t wk_place_free_bytes(const struct wk_place_heap *h)
{
    return h ? h->free_bytes : 0;
}

uint64_t wk_place_largest_free(const struct wk_place_heap *h)
{
    return h && h->free_root ? h->free_root->max_len : 0;
}

uint64_t wk_place_count(const struct wk_place_heap *h)
{
    return h ? h->count : 0;
}

int wk_place_next(const struct wk_place_heap *h, uint64_t *cursor, uint64_t *offset,
                  uint64_t *size)
{
    if (!h || !cursor)
        return 0;
    const struct node *n = tree_bound(h->alloc_root, *cursor, 1);
    if (!n)
        return 0;
    if (offset)
        *offset = n->start;
    if (size)
        *size = n->len;
    *cursor = n->start + n->len;
    return 1;
}

unsigned wk_place_height(const struct wk_place_heap *h)
{
    if (!h)
        return 0;
    unsigned a = height(h->free_root), b = height(h->alloc_root);
    return a > b ? a : b;
}

uint64_t wk_place_last_visits(const struct wk_place_heap *h)
{
    return h ? h->last_visits : 0;
}

void wk_place_fail_nth_alloc(struct wk_place_heap *h, uint64_t nth)
{
    if (h)
        h->fail_nth = nth;
}

/* ------------------------------------------------------------------ */
/* The invariant check                                                  */
/* ------------------------------------------------------------------ */

/* AVL height bound is ~92 for 2^64 nodes; deeper means a broken tree. */
#define CHECK_MAX_DEPTH 128u

struct check {
    const struct wk_place_heap *h;
    char *why;
    size_t why_size;
    const char *tree;      /* "free" or "allocated" */
    const struct node *prev; /* in-order predecessor */
    uint64_t nodes, bytes;
};

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
static wk_status broken(struct check *c, const char *fmt, ...)
{
    if (c->why && c->why_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->why, c->why_size, fmt, ap);
        va_end(ap);
    }
    return WK_E_INVALID_ARGUMENT;
}

/* In-order walk of one tree checking order, balance and summaries. */
static wk_status check_tree(struct check *c, const struct node *t, unsigned depth)
{
    if (!t)
        return WK_OK;
    if (depth > CHECK_MAX_DEPTH)
        return broken(c, "%s tree deeper than %u", c->tree, CHECK_MAX_DEPTH);
    wk_status s = check_tree(c, t->child[0], depth + 1);
    if (s)
        return s;
    if (!t->len)
        return broken(c, "%s block at 0x%llx has length 0", c->tree,
                      (unsigned long long)t->start);
    if (t->start + t->len < t->start || t->start + t->len > c->h->size)
        return broken(c, "%s block [0x%llx, +0x%llx) runs past the heap end 0x%llx", c->tree,
                      (unsigned long long)t->start, (unsigned long long)t->len,
                      (unsigned long long)c->h->size);
    if (c->prev && c->prev->start >= t->start)
        return broken(c, "%s tree out of order: 0x%llx before 0x%llx", c->tree,
                      (unsigned long long)c->prev->start, (unsigned long long)t->start);
    c->prev = t;
    c->nodes++;
    c->bytes += t->len;
    unsigned hl = height(t->child[0]), hr = height(t->child[1]);
    if (hl > hr + 1 || hr > hl + 1)
        return broken(c, "%s node 0x%llx unbalanced: heights %u and %u", c->tree,
                      (unsigned long long)t->start, hl, hr);
    struct node want = *t;
    fix(&want);
    if (want.height != t->height || want.max_len != t->max_len || want.min_tz != t->min_tz)
        return broken(c,
                      "%s node 0x%llx stale summary: height %u max_len 0x%llx min_tz %u, "
                      "want %u 0x%llx %u",
                      c->tree, (unsigned long long)t->start, t->height,
                      (unsigned long long)t->max_len, t->min_tz, want.height,
                      (unsigned long long)want.max_len, want.min_tz);
    return check_tree(c, t->child[1], depth + 1);
}

/* Walks [0, size) block by block: each offset reached must start exactly
 * one block, and no free block may follow a free block. */
static wk_status check_tiling(struct check *c)
{
    const struct wk_place_heap *h = c->h;
    uint64_t pos = 0, blocks = 0;
    int prev_free = 0;
    while (pos < h->size) {
        const struct node *f = tree_find(h->free_root, pos);
        const struct node *a = tree_find(h->alloc_root, pos);
        if (f && a)
            return broken(c, "0x%llx starts both a free and an allocated block",
                          (unsigned long long)pos);
        if (!f && !a)
            return broken(c, "no block starts at 0x%llx (gap or overlap)",
                          (unsigned long long)pos);
        if (f && prev_free)
            return broken(c, "free range at 0x%llx follows a free range (not coalesced)",
                          (unsigned long long)pos);
        prev_free = f != NULL;
        pos += f ? f->len : a->len;
        blocks++;
    }
    if (pos != h->size)
        return broken(c, "blocks end at 0x%llx, heap at 0x%llx", (unsigned long long)pos,
                      (unsigned long long)h->size);
    if (blocks != h->free_ranges + h->count)
        return broken(c, "tiling has %llu blocks, trees hold %llu (overlapping blocks)",
                      (unsigned long long)blocks,
                      (unsigned long long)(h->free_ranges + h->count));
    return WK_OK;
}

wk_status wk_place_check(const struct wk_place_heap *h, char *why, size_t why_size)
{
    struct check c = {.h = h, .why = why, .why_size = why_size, .tree = "free"};
    if (!h)
        return broken(&c, "heap is NULL");
    wk_status s = check_tree(&c, h->free_root, 1);
    if (s)
        return s;
    if (c.nodes != h->free_ranges || c.bytes != h->free_bytes)
        return broken(&c, "free tree holds %llu ranges, 0x%llx bytes; counters say %llu, 0x%llx",
                      (unsigned long long)c.nodes, (unsigned long long)c.bytes,
                      (unsigned long long)h->free_ranges, (unsigned long long)h->free_bytes);
    c.tree = "allocated";
    c.prev = NULL;
    c.nodes = c.bytes = 0;
    s = check_tree(&c, h->alloc_root, 1);
    if (s)
        return s;
    if (c.nodes != h->count)
        return broken(&c, "allocated tree holds %llu blocks; counter says %llu",
                      (unsigned long long)c.nodes, (unsigned long long)h->count);
    s = check_tiling(&c);
    if (s == WK_OK && why && why_size)
        why[0] = '\0';
    return s;
}
