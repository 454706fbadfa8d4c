/* SPDX-License-Identifier: MIT */
/*
 * test_km_more.c - checks wddmkit/kmstring.h, kmmemory.h and kmthread.h,
 * the kernel routines that extend km.h.
 *
 * As test_km.c: behaviour checks, and misuse checks that run the misuse in
 * a forked child whose stderr is captured - the case passes only if the
 * child dies of SIGABRT after printing the rule ID it expects.
 *
 * Built four ways (tests/km_more_tests.cmake): as C11 (test_km_more), as
 * C++17 through test_km_more_cxx.cpp (so: no designated initialisers, no
 * implicit void * conversions), as C11 with -fshort-wchar
 * (test_km_more_short_wchar: WCHAR is wchar_t and L"..." is checked), and,
 * with WK_KM_MORE_TU2, as a second unit linked into all three: strict C11
 * with no POSIX feature macro and a 4-byte wchar_t, which closes handles,
 * counts blocks, measures strings and declares a GUID the first unit
 * defines, proving the registries and GUIDs are shared across units and
 * that strings cross between the two WCHAR spellings.
 */

#ifdef WK_KM_MORE_TU2
/* ------------------------------------------------------------------------ */
/* Second translation unit                                                   */
/* ------------------------------------------------------------------------ */
#include "wddmkit/kmstring.h"
#include "wddmkit/kmmemory.h"
#include "wddmkit/kmthread.h"

/* Declared here, defined (INITGUID) by the first unit. */
DEFINE_GUID(WK_TEST_GUID, 0x01234567, 0x89ab, 0xcdef, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd,
            0xef);

const GUID *wk_more_tu2_guid(void);
NTSTATUS wk_more_tu2_close(HANDLE h);
size_t wk_more_tu2_wlen(const void *s);
SIZE_T wk_more_tu2_mem_live(void);
int wk_more_tu2_wchar_is_wchar_t(void);

const GUID *wk_more_tu2_guid(void)
{
    return &WK_TEST_GUID;
}

NTSTATUS wk_more_tu2_close(HANDLE h)
{
    return ZwClose(h);
}

/* RtlStringCchLengthW as this unit (WCHAR = char16_t) sees s. */
size_t wk_more_tu2_wlen(const void *s)
{
    size_t n = 99;
    if (!NT_SUCCESS(RtlStringCchLengthW((PCWSTR)s, 100, &n)))
        return 99;
    return n;
}

SIZE_T wk_more_tu2_mem_live(void)
{
    return wk_km_mem_live_count();
}

int wk_more_tu2_wchar_is_wchar_t(void)
{
    return WK_WCHAR_IS_WCHAR_T;
}

#else /* the tests */

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* fork, pipe, waitpid */
#endif

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
/* cmocka 1.1 has no extern "C" of its own. */
#ifdef __cplusplus
extern "C" {
#endif
#include <cmocka.h>
#ifdef __cplusplus
}
#endif

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wddmkit/km.h"
#include "wddmkit/kmstring.h"
#include "wddmkit/kmmemory.h"
#include "wddmkit/kmthread.h"

/* This unit defines the test GUID: INITGUID, then the header again. */
#define INITGUID
#include "wddmkit/kmstring.h"
DEFINE_GUID(WK_TEST_GUID, 0x01234567, 0x89ab, 0xcdef, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd,
            0xef);

#ifdef __cplusplus
extern "C" {
#endif
const GUID *wk_more_tu2_guid(void);
NTSTATUS wk_more_tu2_close(HANDLE h);
size_t wk_more_tu2_wlen(const void *s);
SIZE_T wk_more_tu2_mem_live(void);
int wk_more_tu2_wchar_is_wchar_t(void);
#ifdef __cplusplus
}
#endif

/* IsEqualGUID takes pointers in C and references in C++, as on Windows. */
#ifdef __cplusplus
#define GUID_EQ_ARG(g) (g)
#else
#define GUID_EQ_ARG(g) (&(g))
#endif
#define GUID_EQ(a, b) IsEqualGUID(GUID_EQ_ARG(a), GUID_EQ_ARG(b))

/* A WCHAR string compared with a char one, character by character. */
static bool wstr_is(const WCHAR *w, const char *s)
{
    size_t i;
    for (i = 0; s[i]; i++)
        if (w[i] != (WCHAR)(unsigned char)s[i])
            return false;
    return w[i] == 0;
}

/* ------------------------------------------------------------------------ */
/* Child processes (as test_km.c)                                            */
/* ------------------------------------------------------------------------ */

#include "child_test.h"
typedef wk_child_fn child_fn;
#define dies_with wk_child_dies_with

/* ------------------------------------------------------------------------ */
/* kmstring.h                                                                */
/* ------------------------------------------------------------------------ */

/* WCHAR is an unsigned 16-bit type, spelled as the unit's wchar_t size says,
 * and WK_WTEXT literals are arrays of it. */
static void test_wchar_type(void **state)
{
    static const WCHAR lit[] = WK_WTEXT("ab");
    (void)state;
    assert_int_equal(sizeof(WCHAR), 2);
    assert_true((WCHAR)-1 > 0);
    assert_int_equal(sizeof lit, 6);
    assert_true(wstr_is(lit, "ab"));
#if defined(__SIZEOF_WCHAR_T__) && __SIZEOF_WCHAR_T__ == 2
    assert_int_equal(WK_WCHAR_IS_WCHAR_T, 1);
#else
    assert_int_equal(WK_WCHAR_IS_WCHAR_T, 0);
#endif
    assert_int_equal(wk_more_tu2_wchar_is_wchar_t(), 0); /* the other unit: no -fshort-wchar */
    /* A string of this unit, measured by the other one. */
    assert_int_equal(wk_more_tu2_wlen(WK_WTEXT("hello")), 5);
}

#if defined(__SIZEOF_WCHAR_T__) && __SIZEOF_WCHAR_T__ == 2
/* With -fshort-wchar, L"..." is a WCHAR string as on Windows, through every
 * routine that takes one, and the other unit (char16_t) reads it alike. */
static void test_short_wchar_literals(void **state)
{
    WCHAR buf[8];
    size_t cb = 0;
    UNICODE_STRING us;
    const WCHAR *p = L"abc";
    (void)state;
    assert_int_equal(sizeof(L"abc"), 8);
    assert_true(wstr_is(p, "abc"));
    RtlInitUnicodeString(&us, L"abc");
    assert_int_equal(us.Length, 6);
    assert_int_equal(us.MaximumLength, 8);
    assert_int_equal(RtlStringCbCopyW(buf, sizeof buf, L"hi"), STATUS_SUCCESS);
    assert_int_equal(RtlStringCbCatW(buf, sizeof buf, L" you"), STATUS_SUCCESS);
    assert_true(wstr_is(buf, "hi you"));
    assert_int_equal(RtlStringCbLengthW(L"four", 100, &cb), STATUS_SUCCESS);
    assert_int_equal(cb, 8);
    assert_int_equal(wk_more_tu2_wlen(L"wide!"), 5);
    assert_true(buf[0] == L'h');
}
#endif

/* DEFINE_GUID defines with INITGUID (this unit) and declares without (the
 * other unit): both name one object. IsEqualGUID compares all 16 bytes. */
static void test_guid(void **state)
{
    GUID other;
    const unsigned char *b = (const unsigned char *)&WK_TEST_GUID;
    (void)state;
    assert_ptr_equal(wk_more_tu2_guid(), &WK_TEST_GUID);
    assert_int_equal(sizeof(GUID), 16);
    assert_int_equal(b[0], 0x67); /* Data1 little-endian first, as on Windows */
    assert_int_equal(b[4], 0xab);
    assert_int_equal(b[8], 0x01);
    assert_int_equal(b[15], 0xef);
    memcpy(&other, &WK_TEST_GUID, sizeof other);
    assert_true(GUID_EQ(other, WK_TEST_GUID));
    assert_true(InlineIsEqualGUID(GUID_EQ_ARG(other), GUID_EQ_ARG(WK_TEST_GUID)));
    other.Data4[7] ^= 1;
    assert_false(GUID_EQ(other, WK_TEST_GUID));
#ifdef __cplusplus
    assert_true(other != WK_TEST_GUID);
    other.Data4[7] ^= 1;
    assert_true(other == WK_TEST_GUID);
#endif
}

/* RtlInitUnicodeString / RtlInitAnsiString: lengths, NULL, the cap. */
static void test_init_strings(void **state)
{
    static const WCHAR hello[] = WK_WTEXT("hello");
    UNICODE_STRING us;
    ANSI_STRING as;
    STRING s;
    WCHAR *big = (WCHAR *)calloc(40000, sizeof(WCHAR));
    char *bigc = (char *)malloc(70000);
    size_t i;
    (void)state;
    assert_non_null(big);
    assert_non_null(bigc);
    RtlInitUnicodeString(&us, hello);
    assert_int_equal(us.Length, 10);
    assert_int_equal(us.MaximumLength, 12);
    assert_ptr_equal(us.Buffer, hello);
    RtlInitUnicodeString(&us, NULL);
    assert_int_equal(us.Length, 0);
    assert_int_equal(us.MaximumLength, 0);
    assert_null(us.Buffer);
    for (i = 0; i < 39999; i++)
        big[i] = (WCHAR)'x';
    RtlInitUnicodeString(&us, big);
    assert_int_equal(us.Length, 0xFFFC);
    assert_int_equal(us.MaximumLength, 0xFFFE);

    RtlInitAnsiString(&as, "hello");
    assert_int_equal(as.Length, 5);
    assert_int_equal(as.MaximumLength, 6);
    assert_string_equal(as.Buffer, "hello");
    RtlInitString(&s, NULL);
    assert_int_equal(s.Length, 0);
    assert_int_equal(s.MaximumLength, 0);
    assert_null(s.Buffer);
    memset(bigc, 'y', 69999);
    bigc[69999] = '\0';
    RtlInitAnsiString(&as, bigc);
    assert_int_equal(as.Length, 0xFFFD);
    assert_int_equal(as.MaximumLength, 0xFFFE);
    free(big);
    free(bigc);
}

/* RTL_CONSTANT_STRING builds both counted string types. */
static void test_constant_string(void **state)
{
    UNICODE_STRING us = RTL_CONSTANT_STRING(WK_WTEXT("abc"));
    ANSI_STRING as = RTL_CONSTANT_STRING("abcd");
    (void)state;
    assert_int_equal(us.Length, 6);
    assert_int_equal(us.MaximumLength, 8);
    assert_true(wstr_is((const WCHAR *)us.Buffer, "abc"));
    assert_int_equal(as.Length, 4);
    assert_int_equal(as.MaximumLength, 5);
    assert_string_equal(as.Buffer, "abcd");
}

/* Copy: success, truncation, bad sizes, byte sizes of the W form. */
static void test_strsafe_copy(void **state)
{
    char a[8];
    WCHAR w[4];
    (void)state;
    assert_int_equal(RtlStringCbCopyA(a, sizeof a, "hello"), STATUS_SUCCESS);
    assert_string_equal(a, "hello");
    assert_int_equal(RtlStringCbCopyA(a, sizeof a, "much too long"), STATUS_BUFFER_OVERFLOW);
    assert_string_equal(a, "much to"); /* truncated, terminated */
    assert_int_equal(RtlStringCchCopyA(a, 3, "xyz"), STATUS_BUFFER_OVERFLOW);
    assert_string_equal(a, "xy");
    memset(a, 'Q', sizeof a);
    assert_int_equal(RtlStringCbCopyA(a, 0, "x"), STATUS_INVALID_PARAMETER);
    assert_int_equal(a[0], 'Q'); /* size 0: untouched */
    assert_int_equal(RtlStringCchCopyA(a, (size_t)NTSTRSAFE_MAX_CCH + 1, "x"),
                     STATUS_INVALID_PARAMETER);
    assert_int_equal(a[0], '\0'); /* too large: terminated */
    assert_int_equal(RtlStringCbCopyA(a, 1, ""), STATUS_SUCCESS);

    assert_int_equal(RtlStringCbCopyW(w, sizeof w, WK_WTEXT("abc")), STATUS_SUCCESS);
    assert_true(wstr_is(w, "abc"));
    assert_int_equal(RtlStringCbCopyW(w, 7, WK_WTEXT("abc")), STATUS_BUFFER_OVERFLOW);
    assert_true(wstr_is(w, "ab")); /* 7 bytes are 3 characters */
    assert_int_equal(RtlStringCbCopyW(w, 1, WK_WTEXT("a")), STATUS_INVALID_PARAMETER);
    assert_int_equal(RtlStringCchCopyW(w, 2, WK_WTEXT("abc")), STATUS_BUFFER_OVERFLOW);
    assert_true(wstr_is(w, "a"));
    assert_int_equal(RtlStringCbCopyW(w, ((size_t)NTSTRSAFE_MAX_CCH + 1) * 2, WK_WTEXT("a")),
                     STATUS_INVALID_PARAMETER);
    assert_int_equal(w[0], 0);
}

/* Concatenate: success, truncation, unterminated destination. */
static void test_strsafe_cat(void **state)
{
    char a[8] = "ab";
    WCHAR w[5];
    (void)state;
    assert_int_equal(RtlStringCbCatA(a, sizeof a, "cd"), STATUS_SUCCESS);
    assert_string_equal(a, "abcd");
    assert_int_equal(RtlStringCchCatA(a, sizeof a, "efghij"), STATUS_BUFFER_OVERFLOW);
    assert_string_equal(a, "abcdefg");
    memset(a, 'Z', sizeof a); /* no terminator within the size */
    assert_int_equal(RtlStringCbCatA(a, sizeof a, "x"), STATUS_INVALID_PARAMETER);
    assert_int_equal(a[0], 'Z');
    assert_int_equal(RtlStringCbCatA(a, 0, "x"), STATUS_INVALID_PARAMETER);

    assert_int_equal(RtlStringCchCopyW(w, 5, WK_WTEXT("ab")), STATUS_SUCCESS);
    assert_int_equal(RtlStringCbCatW(w, sizeof w, WK_WTEXT("cd")), STATUS_SUCCESS);
    assert_true(wstr_is(w, "abcd"));
    assert_int_equal(RtlStringCchCopyW(w, 5, WK_WTEXT("ab")), STATUS_SUCCESS);
    assert_int_equal(RtlStringCchCatW(w, 5, WK_WTEXT("cdef")), STATUS_BUFFER_OVERFLOW);
    assert_true(wstr_is(w, "abcd"));
}

/* Length: within the maximum, not within it, NULL. */
static void test_strsafe_length(void **state)
{
    size_t n = 77;
    char unterminated[4] = {'a', 'b', 'c', 'd'};
    (void)state;
    assert_int_equal(RtlStringCbLengthA("hello", 6, &n), STATUS_SUCCESS);
    assert_int_equal(n, 5);
    assert_int_equal(RtlStringCchLengthA("hello", 5, &n), STATUS_INVALID_PARAMETER);
    assert_int_equal(n, 0);
    assert_int_equal(RtlStringCbLengthA(unterminated, sizeof unterminated, &n),
                     STATUS_INVALID_PARAMETER);
    assert_int_equal(RtlStringCbLengthA(NULL, 10, &n), STATUS_INVALID_PARAMETER);
    assert_int_equal(RtlStringCbLengthA("x", 0, NULL), STATUS_INVALID_PARAMETER);
    assert_int_equal(RtlStringCbLengthA("x", (size_t)NTSTRSAFE_MAX_CCH + 1, NULL),
                     STATUS_INVALID_PARAMETER);
    assert_int_equal(RtlStringCbLengthW(WK_WTEXT("abc"), 8, &n), STATUS_SUCCESS);
    assert_int_equal(n, 6); /* bytes */
    assert_int_equal(RtlStringCbLengthW(WK_WTEXT("abc"), 7, &n), STATUS_INVALID_PARAMETER);
    assert_int_equal(n, 0);
    assert_int_equal(RtlStringCchLengthW(WK_WTEXT("abc"), 4, &n), STATUS_SUCCESS);
    assert_int_equal(n, 3);
}

/* Printf: success, truncation, bad sizes. */
static void test_strsafe_printf(void **state)
{
    char a[8];
    (void)state;
    assert_int_equal(RtlStringCbPrintfA(a, sizeof a, "%d-%s", 42, "x"), STATUS_SUCCESS);
    assert_string_equal(a, "42-x");
    assert_int_equal(RtlStringCbPrintfA(a, sizeof a, "%08x!", 0xABCDu), STATUS_BUFFER_OVERFLOW);
    assert_string_equal(a, "0000abc");
    assert_int_equal(RtlStringCchPrintfA(a, 3, "%u", 12345u), STATUS_BUFFER_OVERFLOW);
    assert_string_equal(a, "12");
    memset(a, 'Q', sizeof a);
    assert_int_equal(RtlStringCbPrintfA(a, 0, "x"), STATUS_INVALID_PARAMETER);
    assert_int_equal(a[0], 'Q');
    assert_int_equal(RtlStringCchPrintfA(a, (size_t)NTSTRSAFE_MAX_CCH + 1, "x"),
                     STATUS_INVALID_PARAMETER);
    assert_int_equal(a[0], '\0');
}

static void copy_null_source(void)
{
    char a[4];
    PCSTR src = NULL;
    RtlStringCbCopyA(a, sizeof a, src);
}

/* RtlStringCbVPrintfA with a NULL format, called through a pointer: the
 * compilers rightly reject a NULL or non-literal format in a direct call. */
static void vprintf_null_format(int unused, ...)
{
    char a[4];
    NTSTATUS (*vprintf_fn)(PSTR, size_t, PCSTR, va_list) = RtlStringCbVPrintfA;
    va_list ap;
    va_start(ap, unused);
    vprintf_fn(a, sizeof a, NULL, ap);
    va_end(ap);
}

static void printf_null_format(void)
{
    vprintf_null_format(0);
}

static void cat_overlapping(void)
{
    char a[16] = "abcdef";
    RtlStringCbCatA(a, sizeof a, a + 2);
}

static void copy_overlapping_wide(void)
{
    WCHAR w[8];
    RtlStringCchCopyW(w, 8, WK_WTEXT("abc"));
    RtlStringCchCopyW(w + 1, 4, w);
}

/* ------------------------------------------------------------------------ */
/* kmmemory.h                                                                */
/* ------------------------------------------------------------------------ */

static PHYSICAL_ADDRESS pa(LONGLONG v)
{
    PHYSICAL_ADDRESS p;
    p.QuadPart = v;
    return p;
}

/* Contiguous memory: page-aligned, 0xCD-filled, identity "physical"
 * address, counted in the registry the other unit sees. */
static void test_contiguous_memory(void **state)
{
    SIZE_T live = wk_more_tu2_mem_live();
    UCHAR *p = (UCHAR *)MmAllocateContiguousMemory(3 * PAGE_SIZE + 5, pa(-1));
    SIZE_T i;
    (void)state;
    assert_non_null(p);
    assert_int_equal(BYTE_OFFSET(p), 0);
    for (i = 0; i < 3 * PAGE_SIZE + 5; i++)
        if (p[i] != 0xCD)
            fail_msg("byte %zu is 0x%02x", (size_t)i, p[i]);
    assert_true(MmGetPhysicalAddress(p).QuadPart == (LONGLONG)(uintptr_t)p);
    assert_true(MmGetPhysicalAddress(p + 7).QuadPart == (LONGLONG)(uintptr_t)p + 7);
    assert_int_equal(wk_more_tu2_mem_live(), live + 1);
    p[3 * PAGE_SIZE + 4] = 1;
    /* A 32-bit limit is accepted though the block lies above it (see the
     * header: not enforced). */
    {
        PVOID low = MmAllocateContiguousMemory(PAGE_SIZE, pa(0xFFFFFFFFll));
        assert_non_null(low);
        MmFreeContiguousMemory(low);
    }
    MmFreeContiguousMemory(p);
    assert_int_equal(wk_more_tu2_mem_live(), live);
}

/* The SpecifyCache form: refusals, the boundary, the size-checked free. */
static void test_contiguous_constraints(void **state)
{
    UCHAR *p;
    (void)state;
    assert_null(MmAllocateContiguousMemory(0, pa(-1)));
    assert_null(MmAllocateContiguousMemory(WK_KM_POOL_MAX_BYTES + 1, pa(-1)));
    assert_null(MmAllocateContiguousMemorySpecifyCache(PAGE_SIZE, pa(0), pa(-1), pa(0),
                                                       MmMaximumCacheType));
    assert_null(MmAllocateContiguousMemorySpecifyCache(PAGE_SIZE, pa(0), pa(-1), pa(0),
                                                       (MEMORY_CACHING_TYPE)77));
    assert_null(MmMapIoSpace(pa(0x1000), 16, (MEMORY_CACHING_TYPE)-5));
    /* A range that cannot hold the block. */
    assert_null(MmAllocateContiguousMemorySpecifyCache(2 * PAGE_SIZE, pa(0x10000),
                                                       pa(0x10000 + PAGE_SIZE), pa(0), MmCached));
    assert_null(MmAllocateContiguousMemorySpecifyCache(PAGE_SIZE, pa(0x20000), pa(0x10000),
                                                       pa(0), MmCached));
    /* A block larger than the boundary. */
    assert_null(MmAllocateContiguousMemorySpecifyCache(3 * PAGE_SIZE, pa(0), pa(-1),
                                                       pa(2 * PAGE_SIZE), MmCached));
    /* Within a boundary: never crosses a multiple of it. */
    p = (UCHAR *)MmAllocateContiguousMemorySpecifyCache(3 * PAGE_SIZE, pa(0), pa(-1),
                                                        pa(16 * PAGE_SIZE), MmWriteCombined);
    assert_non_null(p);
    assert_int_equal((uintptr_t)p / (16 * PAGE_SIZE),
                     ((uintptr_t)p + 3 * PAGE_SIZE - 1) / (16 * PAGE_SIZE));
    MmFreeContiguousMemorySpecifyCache(p, 3 * PAGE_SIZE, MmWriteCombined);
}

/* I/O space: the page offset kept, zero-filled, writes kept; registers
 * through the accessors; the Ex protections. */
static void test_io_space(void **state)
{
    SIZE_T live = wk_more_tu2_mem_live();
    UCHAR *regs = (UCHAR *)MmMapIoSpace(pa(0xFE000123ll), 64, MmNonCached);
    ULONG lbuf[3] = {7, 8, 9}, lout[3];
    USHORT sbuf[2] = {0x1111, 0x2222}, sout[2];
    UCHAR cbuf[3] = {1, 2, 3}, cout[3];
    ULONG64 qbuf[2] = {5, 6}, qout[2];
    PVOID ex;
    (void)state;
    assert_non_null(regs);
    assert_int_equal(BYTE_OFFSET(regs), 0x123);
    assert_int_equal(wk_more_tu2_mem_live(), live + 1);
    assert_int_equal(READ_REGISTER_ULONG((volatile ULONG *)(regs + 4)), 0);
    WRITE_REGISTER_ULONG((volatile ULONG *)(regs + 4), 0xDEADBEEFu);
    assert_int_equal(READ_REGISTER_ULONG((volatile ULONG *)(regs + 4)), 0xDEADBEEFu);
    WRITE_REGISTER_UCHAR(regs, 0x5A);
    assert_int_equal(READ_REGISTER_UCHAR(regs), 0x5A);
    WRITE_REGISTER_USHORT((volatile USHORT *)(regs + 2), 0xBEEF);
    assert_int_equal(READ_REGISTER_USHORT((volatile USHORT *)(regs + 2)), 0xBEEF);
    WRITE_REGISTER_ULONG64((volatile ULONG64 *)(regs + 8), 0x0123456789ABCDEFull);
    assert_true(READ_REGISTER_ULONG64((volatile ULONG64 *)(regs + 8)) == 0x0123456789ABCDEFull);
    /* Buffer forms: consecutive registers. */
    WRITE_REGISTER_BUFFER_ULONG((volatile ULONG *)(regs + 16), lbuf, 3);
    READ_REGISTER_BUFFER_ULONG((volatile ULONG *)(regs + 16), lout, 3);
    assert_memory_equal(lbuf, lout, sizeof lbuf);
    WRITE_REGISTER_BUFFER_USHORT((volatile USHORT *)(regs + 28), sbuf, 2);
    READ_REGISTER_BUFFER_USHORT((volatile USHORT *)(regs + 28), sout, 2);
    assert_memory_equal(sbuf, sout, sizeof sbuf);
    WRITE_REGISTER_BUFFER_UCHAR(regs + 32, cbuf, 3);
    READ_REGISTER_BUFFER_UCHAR(regs + 32, cout, 3);
    assert_memory_equal(cbuf, cout, sizeof cbuf);
    WRITE_REGISTER_BUFFER_ULONG64((volatile ULONG64 *)(regs + 40), qbuf, 2);
    READ_REGISTER_BUFFER_ULONG64((volatile ULONG64 *)(regs + 40), qout, 2);
    assert_memory_equal(qbuf, qout, sizeof qbuf);
    MmUnmapIoSpace(regs, 64);
    assert_int_equal(wk_more_tu2_mem_live(), live);

    assert_null(MmMapIoSpace(pa(0x1000), 0, MmNonCached));
    assert_null(MmMapIoSpaceEx(pa(0x1000), 16, PAGE_EXECUTE_READWRITE));
    assert_null(MmMapIoSpaceEx(pa(0x1000), 16, PAGE_READWRITE | PAGE_NOCACHE | PAGE_WRITECOMBINE));
    ex = MmMapIoSpaceEx(pa(0x2000), 2 * PAGE_SIZE, PAGE_READWRITE | PAGE_WRITECOMBINE);
    assert_non_null(ex);
    assert_int_equal(BYTE_OFFSET(ex), 0);
    MmUnmapIoSpace(ex, 2 * PAGE_SIZE);
    ex = MmMapIoSpaceEx(pa(0x2000), 8, PAGE_READONLY | PAGE_NOCACHE);
    assert_non_null(ex);
    MmUnmapIoSpace(ex, 8);
}

/* No port space: reads are all ones, writes go nowhere. */
static void test_ports(void **state)
{
    UCHAR c[3];
    USHORT s[2];
    ULONG l[2];
    (void)state;
    WRITE_PORT_UCHAR((PUCHAR)(uintptr_t)0x3C0, 1);
    WRITE_PORT_USHORT((PUSHORT)(uintptr_t)0x3C4, 1);
    WRITE_PORT_ULONG((PULONG)(uintptr_t)0xCF8, 1);
    assert_int_equal(READ_PORT_UCHAR((PUCHAR)(uintptr_t)0x3C0), 0xFF);
    assert_int_equal(READ_PORT_USHORT((PUSHORT)(uintptr_t)0x3C4), 0xFFFF);
    assert_int_equal(READ_PORT_ULONG((PULONG)(uintptr_t)0xCFC), 0xFFFFFFFFu);
    READ_PORT_BUFFER_UCHAR((PUCHAR)(uintptr_t)0x3C0, c, 3);
    READ_PORT_BUFFER_USHORT((PUSHORT)(uintptr_t)0x3C0, s, 2);
    READ_PORT_BUFFER_ULONG((PULONG)(uintptr_t)0x3C0, l, 2);
    assert_int_equal(c[2], 0xFF);
    assert_int_equal(s[1], 0xFFFF);
    assert_int_equal(l[1], 0xFFFFFFFFu);
    WRITE_PORT_BUFFER_UCHAR((PUCHAR)(uintptr_t)0x3C0, c, 3);
    WRITE_PORT_BUFFER_USHORT((PUSHORT)(uintptr_t)0x3C0, s, 2);
    WRITE_PORT_BUFFER_ULONG((PULONG)(uintptr_t)0x3C0, l, 2);
}

static void free_unknown_contiguous(void)
{
    int x = 0;
    MmFreeContiguousMemory(&x);
}

static void free_contiguous_twice(void)
{
    PVOID p = MmAllocateContiguousMemory(PAGE_SIZE, pa(-1));
    MmFreeContiguousMemory(p);
    MmFreeContiguousMemory(p);
}

static void free_mapping_as_contiguous(void)
{
    PVOID p = MmMapIoSpace(pa(0x1000), 16, MmNonCached);
    MmFreeContiguousMemory(p);
}

static void free_contiguous_wrong_size(void)
{
    PVOID p = MmAllocateContiguousMemory(2 * PAGE_SIZE, pa(-1));
    MmFreeContiguousMemorySpecifyCache(p, PAGE_SIZE, MmCached);
}

static void unmap_unknown(void)
{
    PVOID p = MmAllocateContiguousMemory(PAGE_SIZE, pa(-1));
    MmUnmapIoSpace(p, PAGE_SIZE); /* contiguous memory, not a mapping */
}

static void unmap_wrong_size(void)
{
    PVOID p = MmMapIoSpace(pa(0x1000), 64, MmNonCached);
    MmUnmapIoSpace(p, 32);
}

static void contiguous_at_high_level(void)
{
    KIRQL old;
    KeRaiseIrql(HIGH_LEVEL, &old);
    MmAllocateContiguousMemory(PAGE_SIZE, pa(-1));
}

/* ------------------------------------------------------------------------ */
/* kmthread.h: threads                                                       */
/* ------------------------------------------------------------------------ */

/* What a worker reports and waits on. */
struct worker {
    KEVENT started;   /* set by the worker when it has run its checks */
    KEVENT go;        /* set by the test to let it finish */
    KIRQL irql;       /* its IRQL at start */
    PETHREAD self;    /* PsGetCurrentThread() in it */
    HANDLE id;        /* PsGetCurrentThreadId() in it */
    LONG volatile ran;
    int terminate;    /* end with PsTerminateSystemThread(exit_status) */
    NTSTATUS exit_status;
};

static void worker_init(struct worker *w)
{
    memset(w, 0, sizeof *w);
    KeInitializeEvent(&w->started, NotificationEvent, FALSE);
    KeInitializeEvent(&w->go, NotificationEvent, FALSE);
}

static VOID worker_main(PVOID ctx)
{
    struct worker *w = (struct worker *)ctx;
    w->irql = KeGetCurrentIrql();
    w->self = PsGetCurrentThread();
    w->id = PsGetCurrentThreadId();
    KeSetEvent(&w->started, 0, FALSE);
    KeWaitForSingleObject(&w->go, Executive, KernelMode, FALSE, NULL);
    InterlockedIncrement(&w->ran);
    if (w->terminate) {
        PsTerminateSystemThread(w->exit_status);
        InterlockedAdd(&w->ran, 100); /* never reached */
    }
}

/* Waits until obj is no longer a live object (every reference, the
 * thread's own included, gone), so no worker still holds the registry lock
 * when a later test forks. */
static void wait_gone(PVOID obj)
{
    for (;;) {
        int live;
        wk_km_threads_lock();
        live = wk_km_thread_is_live_locked(obj);
        wk_km_threads_unlock();
        if (!live)
            return;
        sched_yield();
    }
}

/* Starts a worker; returns its handle. */
static HANDLE start_worker(struct worker *w, PCLIENT_ID cid)
{
    OBJECT_ATTRIBUTES oa;
    HANDLE h = NULL;
    InitializeObjectAttributes(&oa, NULL, OBJ_KERNEL_HANDLE, NULL, NULL);
    assert_int_equal(PsCreateSystemThread(&h, THREAD_ALL_ACCESS, &oa, NULL, cid, worker_main, w),
                     STATUS_SUCCESS);
    assert_non_null(h);
    return h;
}

/* The Windows shutdown sequence: reference by handle, close the handle,
 * signal, wait on the thread object with km.h's wait, dereference. */
static void test_thread_lifecycle(void **state)
{
    struct worker w;
    CLIENT_ID cid;
    OBJECT_HANDLE_INFORMATION info;
    PVOID obj = NULL;
    LARGE_INTEGER zero;
    HANDLE h;
    (void)state;
    worker_init(&w);
    h = start_worker(&w, &cid);
    assert_int_equal(ObReferenceObjectByHandle(h, SYNCHRONIZE, *PsThreadType, KernelMode, &obj,
                                               &info),
                     STATUS_SUCCESS);
    assert_non_null(obj);
    assert_int_equal(info.HandleAttributes, OBJ_KERNEL_HANDLE);
    assert_int_equal(info.GrantedAccess, THREAD_ALL_ACCESS);
    assert_int_equal(wk_more_tu2_close(h), STATUS_SUCCESS); /* the other unit closes it */

    assert_int_equal(KeWaitForSingleObject(&w.started, Executive, KernelMode, FALSE, NULL),
                     STATUS_SUCCESS);
    assert_int_equal(w.irql, PASSIVE_LEVEL);
    assert_ptr_equal(w.self, obj);
    assert_ptr_equal(w.id, cid.UniqueThread);
    assert_ptr_equal(cid.UniqueProcess, (HANDLE)(uintptr_t)4);
    zero.QuadPart = 0;
    assert_int_equal(KeWaitForSingleObject(obj, Executive, KernelMode, FALSE, &zero),
                     STATUS_TIMEOUT);
    assert_int_equal(PsGetThreadExitStatus((PETHREAD)obj), STATUS_PENDING);
    assert_true(wk_km_system_threads_running() >= 1);

    KeSetEvent(&w.go, 0, FALSE);
    assert_int_equal(KeWaitForSingleObject(obj, Executive, KernelMode, FALSE, NULL),
                     STATUS_SUCCESS);
    assert_int_equal(w.ran, 1);
    assert_int_equal(PsGetThreadExitStatus((PETHREAD)obj), STATUS_SUCCESS);
    /* Still ours to use after the thread ended and the handle is closed. */
    assert_int_equal(ObfReferenceObject(obj) >= 2, 1);
    ObDereferenceObject(obj);
    ObDereferenceObject(obj);
    wait_gone(obj);
    assert_int_equal(wk_km_system_threads_running(), 0);
}

/* PsTerminateSystemThread ends the thread there, with its status. */
static void test_thread_terminate(void **state)
{
    struct worker w;
    PVOID obj = NULL;
    HANDLE h;
    (void)state;
    worker_init(&w);
    w.terminate = 1;
    w.exit_status = WK_NTSTATUS(0xC0001234u);
    h = start_worker(&w, NULL);
    assert_int_equal(ObReferenceObjectByHandle(h, SYNCHRONIZE, NULL, KernelMode, &obj, NULL),
                     STATUS_SUCCESS);
    KeSetEvent(&w.go, 0, FALSE);
    assert_int_equal(KeWaitForSingleObject(obj, Executive, KernelMode, FALSE, NULL),
                     STATUS_SUCCESS);
    assert_int_equal(w.ran, 1);
    assert_int_equal(PsGetThreadExitStatus((PETHREAD)obj), WK_NTSTATUS(0xC0001234u));
    assert_int_equal(ZwClose(h), STATUS_SUCCESS);
    ObDereferenceObject(obj);
    wait_gone(obj);
}

/* Handles: unknown, closed, the wrong type, the pseudo handle, a slot
 * reused under a new generation. */
static void test_handles(void **state)
{
    struct worker w;
    PVOID obj = (PVOID)&obj;
    HANDLE h, h2;
    (void)state;
    assert_int_equal(ObReferenceObjectByHandle((HANDLE)(uintptr_t)0x1234, 0, NULL, KernelMode,
                                               &obj, NULL),
                     STATUS_INVALID_HANDLE);
    assert_null(obj);

    worker_init(&w);
    KeSetEvent(&w.go, 0, FALSE);
    h = start_worker(&w, NULL);
    assert_int_equal(ObReferenceObjectByHandle(h, 0, (POBJECT_TYPE)(uintptr_t)0x40, KernelMode,
                                               &obj, NULL),
                     STATUS_OBJECT_TYPE_MISMATCH);
    assert_int_equal(ObReferenceObjectByHandle(h, 0, NULL, KernelMode, &obj, NULL),
                     STATUS_SUCCESS);
    assert_int_equal(ZwClose(h), STATUS_SUCCESS);
    KeWaitForSingleObject(obj, Executive, KernelMode, FALSE, NULL);
    ObDereferenceObject(obj);
    wait_gone(obj);
    /* The same slot again: a new handle value; the old one stays closed. */
    worker_init(&w);
    KeSetEvent(&w.go, 0, FALSE);
    h2 = start_worker(&w, NULL);
    assert_true(h2 != h);
    assert_int_equal(ObReferenceObjectByHandle(h, 0, NULL, KernelMode, &obj, NULL),
                     STATUS_INVALID_HANDLE);
    assert_int_equal(ObReferenceObjectByHandle(h2, 0, NULL, KernelMode, &obj, NULL),
                     STATUS_SUCCESS);
    assert_int_equal(NtClose(h2), STATUS_SUCCESS);
    KeWaitForSingleObject(obj, Executive, KernelMode, FALSE, NULL);
    ObDereferenceObject(obj);
    wait_gone(obj);

    /* NtCurrentThread names the calling thread. */
    assert_int_equal(ObReferenceObjectByHandle(NtCurrentThread(), 0, *PsThreadType, KernelMode,
                                               &obj, NULL),
                     STATUS_SUCCESS);
    assert_ptr_equal(obj, PsGetCurrentThread());
    ObDereferenceObject(obj);
}

/* A thread the kit did not make: a stable object that is never signalled. */
static void test_foreign_thread(void **state)
{
    PETHREAD self = PsGetCurrentThread();
    LARGE_INTEGER zero;
    (void)state;
    assert_non_null(self);
    assert_ptr_equal(PsGetCurrentThread(), self);
    assert_ptr_equal(KeGetCurrentThread(), self);
    assert_ptr_equal(PsGetCurrentThreadId(), PsGetCurrentThreadId());
    assert_non_null(PsGetCurrentThreadId());
    zero.QuadPart = 0;
    assert_int_equal(KeWaitForSingleObject(self, Executive, KernelMode, FALSE, &zero),
                     STATUS_TIMEOUT);
    assert_int_equal(PsGetThreadExitStatus(self), STATUS_PENDING);
    assert_int_equal(ObfReferenceObject(self), 2);
    assert_int_equal(ObfDereferenceObject(self), 1);
    ObReferenceObjectWithTag(self, 0x74736554u);
    ObDereferenceObjectWithTag(self, 0x74736554u);
}

/* Bad arguments give statuses; NtCurrentProcess() is accepted. */
static void test_create_arguments(void **state)
{
    struct worker w;
    HANDLE h = NULL;
    PVOID obj = NULL;
    (void)state;
    worker_init(&w);
    KeSetEvent(&w.go, 0, FALSE);
    assert_int_equal(PsCreateSystemThread(NULL, 0, NULL, NULL, NULL, worker_main, &w),
                     STATUS_INVALID_PARAMETER);
    assert_int_equal(PsCreateSystemThread(&h, 0, NULL, NULL, NULL, NULL, &w),
                     STATUS_INVALID_PARAMETER);
    assert_int_equal(PsCreateSystemThread(&h, 0, NULL, (HANDLE)(uintptr_t)0x88, NULL, worker_main,
                                          &w),
                     STATUS_INVALID_HANDLE);
    assert_int_equal(PsCreateSystemThread(&h, 0, NULL, NtCurrentProcess(), NULL, worker_main, &w),
                     STATUS_SUCCESS);
    assert_int_equal(ObReferenceObjectByHandle(h, 0, NULL, KernelMode, &obj, NULL),
                     STATUS_SUCCESS);
    assert_int_equal(ZwClose(h), STATUS_SUCCESS);
    KeWaitForSingleObject(obj, Executive, KernelMode, FALSE, NULL);
    ObDereferenceObject(obj);
    wait_gone(obj);
}

/* KeDelayExecutionThread sleeps real time: relative, absolute, zero. */
static void test_delay(void **state)
{
    LARGE_INTEGER interval, now;
    ULONGLONG t0 = KeQueryInterruptTime(), t1;
    (void)state;
    interval.QuadPart = -20 * 10000; /* 20 ms, relative */
    assert_int_equal(KeDelayExecutionThread(KernelMode, FALSE, &interval), STATUS_SUCCESS);
    t1 = KeQueryInterruptTime();
    assert_true(t1 - t0 >= 20 * 10000);
    KeQuerySystemTime(&now);
    interval.QuadPart = now.QuadPart + 10 * 10000; /* 10 ms, absolute */
    assert_int_equal(KeDelayExecutionThread(KernelMode, FALSE, &interval), STATUS_SUCCESS);
    KeQuerySystemTime(&now);
    assert_true(now.QuadPart >= interval.QuadPart);
    interval.QuadPart = 0;
    assert_int_equal(KeDelayExecutionThread(KernelMode, TRUE, &interval), STATUS_SUCCESS);
    interval.QuadPart = 1; /* absolute, 1601: already past */
    assert_int_equal(KeDelayExecutionThread(KernelMode, FALSE, &interval), STATUS_SUCCESS);
}

/* The clocks agree with each other and with km.h's. */
static void test_clocks(void **state)
{
    LARGE_INTEGER st, stp, freq, c1, c2, ticks;
    (void)state;
    KeQuerySystemTime(&st);
    KeQuerySystemTimePrecise(&stp);
    assert_true(stp.QuadPart >= st.QuadPart);
    assert_true(st.QuadPart > 116444736000000000LL); /* after 1970 */
    c1 = KeQueryPerformanceCounter(&freq);
    c2 = KeQueryPerformanceCounter(NULL);
    assert_true(freq.QuadPart == 10000000);
    assert_true(c2.QuadPart >= c1.QuadPart);
    assert_int_equal(KeQueryTimeIncrement(), 156250);
    KeQueryTickCount(&ticks);
    assert_true(ticks.QuadPart > 0);
    assert_true((ULONGLONG)ticks.QuadPart <= KeQueryInterruptTime() / 156250);
}

/* IoGetDeviceProperty's fixed answers and statuses. */
static void test_device_property(void **state)
{
    DEVICE_OBJECT pdo;
    WCHAR text[64];
    ULONG value = 77, len = 0;
    GUID bus;
    static const GUID pci = {0xc8ebdfb0u, 0xb510, 0x11d0,
                             {0x80, 0xe5, 0x00, 0xa0, 0xc9, 0x25, 0x42, 0xe3}};
    (void)state;
    pdo.wk_magic = WK_KM_PDO_MAGIC;
    pdo.wk_owner = NULL;
    assert_int_equal(IoGetDeviceProperty(&pdo, DevicePropertyDeviceDescription, 4, text, &len),
                     STATUS_BUFFER_TOO_SMALL);
    assert_int_equal(len, sizeof(WK_WTEXT("wddmkit display adapter")));
    assert_int_equal(IoGetDeviceProperty(&pdo, DevicePropertyDeviceDescription, 0, NULL, &len),
                     STATUS_BUFFER_TOO_SMALL);
    assert_int_equal(IoGetDeviceProperty(&pdo, DevicePropertyDeviceDescription, sizeof text,
                                         text, &len),
                     STATUS_SUCCESS);
    assert_true(wstr_is(text, "wddmkit display adapter"));
    assert_int_equal(IoGetDeviceProperty(&pdo, DevicePropertyManufacturer, sizeof text, text,
                                         &len),
                     STATUS_SUCCESS);
    assert_true(wstr_is(text, "wddmkit"));
    assert_int_equal(IoGetDeviceProperty(&pdo, DevicePropertyClassName, sizeof text, text, &len),
                     STATUS_SUCCESS);
    assert_true(wstr_is(text, "Display"));
    assert_int_equal(IoGetDeviceProperty(&pdo, DevicePropertyClassGuid, sizeof text, text, &len),
                     STATUS_SUCCESS);
    assert_true(wstr_is(text, "{4d36e968-e325-11ce-bfc1-08002be10318}"));
    assert_int_equal(IoGetDeviceProperty(&pdo, DevicePropertyEnumeratorName, sizeof text, text,
                                         &len),
                     STATUS_SUCCESS);
    assert_true(wstr_is(text, "PCI"));
    assert_int_equal(IoGetDeviceProperty(&pdo, DevicePropertyBusTypeGuid, sizeof bus, &bus, &len),
                     STATUS_SUCCESS);
    assert_true(GUID_EQ(bus, pci));
    assert_int_equal(IoGetDeviceProperty(&pdo, DevicePropertyLegacyBusType, sizeof value, &value,
                                         &len),
                     STATUS_SUCCESS);
    assert_int_equal(value, PCIBus);
    assert_int_equal(IoGetDeviceProperty(&pdo, DevicePropertyBusNumber, sizeof value, &value,
                                         &len),
                     STATUS_SUCCESS);
    assert_int_equal(value, 0);
    assert_int_equal(len, sizeof(ULONG));
    value = 5;
    assert_int_equal(IoGetDeviceProperty(&pdo, DevicePropertyAddress, sizeof value, &value, &len),
                     STATUS_SUCCESS);
    assert_int_equal(value, 0);
    assert_int_equal(IoGetDeviceProperty(&pdo, DevicePropertyFriendlyName, sizeof text, text,
                                         &len),
                     STATUS_NOT_SUPPORTED);
    assert_int_equal(len, 0);
    assert_int_equal(IoGetDeviceProperty(&pdo, (DEVICE_REGISTRY_PROPERTY)99, sizeof text, text,
                                         &len),
                     STATUS_INVALID_PARAMETER_2);
}

/* Misuse cases of kmthread.h. */

static void terminate_foreign_thread(void)
{
    PsTerminateSystemThread(STATUS_SUCCESS);
}

static KSPIN_LOCK leaked_lock;

static VOID return_holding_spin_lock(PVOID ctx)
{
    KIRQL old;
    (void)ctx;
    KeAcquireSpinLock(&leaked_lock, &old);
}

static void thread_ends_at_dispatch(void)
{
    HANDLE h;
    PVOID obj = NULL;
    KeInitializeSpinLock(&leaked_lock);
    PsCreateSystemThread(&h, 0, NULL, NULL, NULL, return_holding_spin_lock, NULL);
    ObReferenceObjectByHandle(h, 0, NULL, KernelMode, &obj, NULL);
    KeWaitForSingleObject(obj, Executive, KernelMode, FALSE, NULL); /* the thread aborts first */
}

static VOID do_nothing(PVOID ctx)
{
    (void)ctx;
}

static void close_twice(void)
{
    HANDLE h;
    PsCreateSystemThread(&h, 0, NULL, NULL, NULL, do_nothing, NULL);
    ZwClose(h);
    ZwClose(h);
}

static void close_garbage(void)
{
    ZwClose((HANDLE)(uintptr_t)0x1234);
}

static void close_pseudo_handle(void)
{
    ZwClose(NtCurrentThread());
}

static void dereference_after_last(void)
{
    HANDLE h;
    PVOID obj = NULL;
    PsCreateSystemThread(&h, 0, NULL, NULL, NULL, do_nothing, NULL);
    ObReferenceObjectByHandle(h, 0, NULL, KernelMode, &obj, NULL);
    ZwClose(h);
    KeWaitForSingleObject(obj, Executive, KernelMode, FALSE, NULL);
    ObDereferenceObject(obj);
    wait_gone(obj);
    ObDereferenceObject(obj);
}

static void reference_an_event(void)
{
    KEVENT e;
    KeInitializeEvent(&e, NotificationEvent, FALSE);
    ObReferenceObject(&e);
}

static void dereference_foreign_too_often(void)
{
    ObDereferenceObject(PsGetCurrentThread());
}

static void device_property_of_fdo(void)
{
    DEVICE_OBJECT fdo;
    ULONG v, len;
    fdo.wk_magic = 0x12345678u;
    fdo.wk_owner = NULL;
    IoGetDeviceProperty(&fdo, DevicePropertyBusNumber, sizeof v, &v, &len);
}

static void create_thread_at_dispatch(void)
{
    HANDLE h;
    KIRQL old;
    KeRaiseIrql(DISPATCH_LEVEL, &old);
    PsCreateSystemThread(&h, 0, NULL, NULL, NULL, do_nothing, NULL);
}

static void delay_at_dispatch(void)
{
    LARGE_INTEGER interval;
    KIRQL old;
    interval.QuadPart = -1;
    KeRaiseIrql(DISPATCH_LEVEL, &old);
    KeDelayExecutionThread(KernelMode, FALSE, &interval);
}

/* ------------------------------------------------------------------------ */
/* Misuse table and main                                                     */
/* ------------------------------------------------------------------------ */

struct crash_case {
    child_fn fn;
    const char *want;
    const char *want2;
};

static struct crash_case case_copy_null = {copy_null_source, "KM-STR-001", "RtlStringCbCopyA"};
static struct crash_case case_printf_null = {printf_null_format, "KM-STR-001",
                                             "RtlStringCbVPrintfA"};
static struct crash_case case_cat_overlap = {cat_overlapping, "KM-STR-002", "RtlStringCbCatA"};
static struct crash_case case_copy_overlap = {copy_overlapping_wide, "KM-STR-002",
                                              "RtlStringCchCopyW"};
static struct crash_case case_free_unknown = {free_unknown_contiguous, "KM-MEM-001",
                                              "MmFreeContiguousMemory"};
static struct crash_case case_free_twice = {free_contiguous_twice, "KM-MEM-001",
                                            "released already"};
static struct crash_case case_free_mapping = {free_mapping_as_contiguous, "KM-MEM-001",
                                              "an I/O space mapping"};
static struct crash_case case_free_wrong_size = {free_contiguous_wrong_size, "KM-MEM-003",
                                                 "MmFreeContiguousMemorySpecifyCache"};
static struct crash_case case_unmap_unknown = {unmap_unknown, "KM-MEM-002", "MmUnmapIoSpace"};
static struct crash_case case_unmap_wrong_size = {unmap_wrong_size, "KM-MEM-003",
                                                  "made with 64 bytes"};
static struct crash_case case_contiguous_high = {contiguous_at_high_level, "KM-IRQL-003",
                                                 "MmAllocateContiguousMemorySpecifyCache"};
static struct crash_case case_terminate_foreign = {terminate_foreign_thread, "KM-THREAD-001",
                                                   NULL};
static struct crash_case case_thread_at_dispatch = {thread_ends_at_dispatch, "KM-THREAD-002",
                                                    "returned from its start routine"};
static struct crash_case case_close_twice = {close_twice, "KM-HANDLE-001", "ZwClose"};
static struct crash_case case_close_garbage = {close_garbage, "KM-HANDLE-001", NULL};
static struct crash_case case_close_pseudo = {close_pseudo_handle, "KM-HANDLE-001", NULL};
static struct crash_case case_deref_after_last = {dereference_after_last, "KM-OB-001",
                                                  "ObfDereferenceObject"};
static struct crash_case case_reference_event = {reference_an_event, "KM-OB-001",
                                                 "ObfReferenceObject"};
static struct crash_case case_deref_foreign = {dereference_foreign_too_often, "KM-OB-001",
                                               "more dereferences"};
static struct crash_case case_property_fdo = {device_property_of_fdo, "KM-DEV-001", NULL};
static struct crash_case case_create_at_dispatch = {create_thread_at_dispatch, "KM-IRQL-003",
                                                    "PsCreateSystemThread"};
static struct crash_case case_delay_at_dispatch = {delay_at_dispatch, "KM-IRQL-003",
                                                   "KeDelayExecutionThread"};

/* ------------------------------------------------------------------------ */
/* The kit's register windows and contiguous pool, through kmservices.h     */
/* ------------------------------------------------------------------------ */

/* A stand-in for the kit's side: one "window" (a page of our own that the
 * fake says is one), the register accesses it sees, and one contiguous
 * block at a GPU address of its choosing. */
static struct {
    UCHAR *window;
    uint64_t last_physical;
    void *unmapped;
    uint32_t reads, writes, last_width;
    uint64_t last_value;
    UCHAR *pool;
    void *freed;
    UCHAR first_freed_byte;
    int refuse_pool;
    int decline_pool; /* AllocateContiguous answers 0: km.h allocates its own */
    /* MemoryRecorded and MemoryReleased: what is live by kind (1: I/O
     * space, 2: contiguous), the calls, and the last owner handed out. */
    int64_t live[3];
    uint64_t live_bytes[3];
    uint32_t recorded, released;
    uint64_t last_owner, last_released;
    int owner_mismatch; /* a release named an owner never handed out for its kind and size */
} fake;

static int in_window(const volatile void *reg)
{
    const UCHAR *r = (const UCHAR *)(uintptr_t)reg;
    return fake.window && r >= fake.window && r < fake.window + PAGE_SIZE;
}

static int fake_map(uint64_t physical, size_t bytes, void **va)
{
    (void)bytes;
    fake.last_physical = physical;
    if ((physical & ~0xFFFull) != 0xD0000000ull)
        return 0;
    *va = fake.window + (physical & 0xFFF);
    return 1;
}

static void fake_unmap(void *va, size_t bytes)
{
    (void)bytes;
    fake.unmapped = va;
}

static int fake_read(const volatile void *reg, uint32_t width, uint64_t *value)
{
    if (!in_window(reg))
        return 0;
    fake.reads++;
    fake.last_width = width;
    *value = 0x1122334455667788ull;
    return 1;
}

static int fake_write(volatile void *reg, uint32_t width, uint64_t value)
{
    if (!in_window(reg))
        return 0;
    if (width == 1)
        return 2; /* as the kit: no byte lanes */
    fake.writes++;
    fake.last_width = width;
    fake.last_value = value;
    return 1;
}

static int fake_alloc(size_t bytes, uint64_t lowest, uint64_t highest, uint64_t boundary, void **va,
                      uint64_t *physical)
{
    (void)lowest, (void)highest, (void)boundary;
    if (fake.decline_pool)
        return 0;
    if (fake.refuse_pool)
        return 2;
    fake.pool = (UCHAR *)aligned_alloc(PAGE_SIZE, bytes);
    *va = fake.pool;
    *physical = 0x7000000ull;
    return 1;
}

static void fake_free(void *va)
{
    fake.freed = va;
    fake.first_freed_byte = *(UCHAR *)va;
    free(va);
}

/* The owner word the fake hands out: its sequence number, size (below
 * 2^32 here) and kind, so a release shows which record came back and that
 * it came with the same kind and size. */
#define FAKE_OWNER_KEY(kind, bytes) ((uint64_t)(bytes) << 8 | (kind))
#define FAKE_OWNER_KEY_MASK 0xFFFFFFFFFFull

static uint64_t fake_recorded(uint32_t kind, size_t bytes)
{
    assert_true(kind == WK_KM_MEMORY_IO_SPACE || kind == WK_KM_MEMORY_CONTIGUOUS);
    fake.recorded++;
    fake.live[kind]++;
    fake.live_bytes[kind] += bytes;
    fake.last_owner = (uint64_t)fake.recorded << 40 | FAKE_OWNER_KEY(kind, bytes);
    return fake.last_owner;
}

static void fake_released(uint64_t owner, uint32_t kind, size_t bytes)
{
    fake.released++;
    fake.last_released = owner;
    if ((owner & FAKE_OWNER_KEY_MASK) != FAKE_OWNER_KEY(kind, bytes))
        fake.owner_mismatch = 1;
    if (kind == WK_KM_MEMORY_IO_SPACE || kind == WK_KM_MEMORY_CONTIGUOUS) {
        fake.live[kind]--;
        fake.live_bytes[kind] -= bytes;
    }
}

static WK_KM_SERVICES fake_services;

static void install_fake_kit(void)
{
    memset(&fake, 0, sizeof(fake));
    memset(&fake_services, 0, sizeof(fake_services));
    fake.window = (UCHAR *)aligned_alloc(PAGE_SIZE, PAGE_SIZE);
    fake_services.Size = sizeof(fake_services);
    fake_services.MapIoSpace = fake_map;
    fake_services.UnmapIoSpace = fake_unmap;
    fake_services.RegisterRead = fake_read;
    fake_services.RegisterWrite = fake_write;
    fake_services.AllocateContiguous = fake_alloc;
    fake_services.FreeContiguous = fake_free;
    fake_services.MemoryRecorded = fake_recorded;
    fake_services.MemoryReleased = fake_released;
    wk_km_services = &fake_services;
}

static void remove_fake_kit(void)
{
    wk_km_services = NULL;
    free(fake.window);
    fake.window = NULL;
}

/* MmMapIoSpace of a range the kit takes is its window; the accessors on it
 * go to the kit (64-bit as one call of width 8: the kit splits it), the
 * accessors elsewhere are plain memory, the unmap goes back to the kit. */
static void test_kit_register_window(void **state)
{
    ULONG plain = 5;
    UCHAR *regs;
    (void)state;
    install_fake_kit();
    regs = (UCHAR *)MmMapIoSpace(pa(0xD0000010ll), 0x20, MmNonCached);
    assert_ptr_equal(regs, fake.window + 0x10);
    assert_true(READ_REGISTER_ULONG64((volatile ULONG64 *)regs) == 0x1122334455667788ull);
    assert_int_equal(fake.last_width, 8);
    WRITE_REGISTER_ULONG((volatile ULONG *)(regs + 4), 0xCAFEu);
    assert_int_equal(fake.writes, 1);
    assert_true(fake.last_value == 0xCAFEu);
    assert_int_equal(READ_REGISTER_ULONG(&plain), 5); /* not a window: memory */
    assert_int_equal(fake.reads, 1);
    MmUnmapIoSpace(regs, 0x20);
    assert_ptr_equal(fake.unmapped, regs);
    /* A range the kit does not take: memory of km.h's own, as without a kit. */
    regs = (UCHAR *)MmMapIoSpace(pa(0xC0000000ll), 0x20, MmNonCached);
    assert_non_null(regs);
    assert_true(regs < fake.window || regs >= fake.window + PAGE_SIZE);
    assert_int_equal(*(volatile ULONG *)regs, 0);
    MmUnmapIoSpace(regs, 0x20);
    remove_fake_kit();
}

/* Contiguous memory the kit gives: 0xCD-filled, its physical address the
 * kit's for every byte, 0xDD-filled when it goes back; NULL when the kit's
 * pool cannot satisfy the request. */
static void test_kit_contiguous_memory(void **state)
{
    UCHAR *p;
    (void)state;
    install_fake_kit();
    p = (UCHAR *)MmAllocateContiguousMemory(2 * PAGE_SIZE, pa(-1));
    assert_ptr_equal(p, fake.pool);
    assert_int_equal(p[PAGE_SIZE + 9], 0xCD);
    assert_true(MmGetPhysicalAddress(p + PAGE_SIZE + 9).QuadPart == 0x7000000ll + PAGE_SIZE + 9);
    MmFreeContiguousMemory(p);
    assert_ptr_equal(fake.freed, p);
    assert_int_equal(fake.first_freed_byte, 0xDD);
    fake.refuse_pool = 1;
    assert_null(MmAllocateContiguousMemory(PAGE_SIZE, pa(-1)));
    remove_fake_kit();
}

/* Every way kmmemory.h makes a mapping or a block is counted by the kit
 * (MemoryRecorded), with the kind and the size the driver asked for, and
 * every way it gives one back is uncounted with the owner it got
 * (MemoryReleased): the kit's register window, a mapping of km.h's own
 * for a range the kit does not take, the kit's contiguous pool, km.h's own
 * block when the kit declines, and a block km.h takes back at once (a
 * boundary it would cross). MEM-LEAK-001 is judged on these counts, so a
 * path that skipped them would hide a leak. */
static void test_every_path_is_counted(void **state)
{
    UCHAR *window, *plain, *pool, *own;
    (void)state;
    install_fake_kit();
    window = (UCHAR *)MmMapIoSpace(pa(0xD0000010ll), 0x20, MmNonCached);
    assert_ptr_equal(window, fake.window + 0x10);
    plain = (UCHAR *)MmMapIoSpaceEx(pa(0xC0000000ll), 0x3000, PAGE_READWRITE | PAGE_NOCACHE);
    assert_non_null(plain);
    assert_true(plain < fake.window || plain >= fake.window + PAGE_SIZE); /* km.h's own memory */
    pool = (UCHAR *)MmAllocateContiguousMemory(PAGE_SIZE + 5, pa(-1));
    assert_ptr_equal(pool, fake.pool);
    fake.decline_pool = 1;
    own = (UCHAR *)MmAllocateContiguousMemorySpecifyCache(100, pa(0), pa(-1), pa(0), MmCached);
    assert_non_null(own);
    assert_true(own != fake.pool);
    assert_int_equal(fake.recorded, 4);
    assert_int_equal(fake.live[WK_KM_MEMORY_IO_SPACE], 2);
    assert_true(fake.live_bytes[WK_KM_MEMORY_IO_SPACE] == 0x20 + 0x3000);
    assert_int_equal(fake.live[WK_KM_MEMORY_CONTIGUOUS], 2);
    assert_true(fake.live_bytes[WK_KM_MEMORY_CONTIGUOUS] == PAGE_SIZE + 5 + 100);
    MmUnmapIoSpace(window, 0x20);
    MmUnmapIoSpace(plain, 0x3000);
    MmFreeContiguousMemory(pool);
    MmFreeContiguousMemorySpecifyCache(own, 100, MmCached);
    assert_int_equal(fake.released, 4);
    assert_int_equal(fake.owner_mismatch, 0);
    assert_int_equal(fake.live[WK_KM_MEMORY_IO_SPACE], 0);
    assert_int_equal(fake.live[WK_KM_MEMORY_CONTIGUOUS], 0);
    assert_true(fake.live_bytes[WK_KM_MEMORY_IO_SPACE] == 0 && fake.live_bytes[WK_KM_MEMORY_CONTIGUOUS] == 0);
    /* A boundary that is not a power of two and that the block would
     * cross: km.h makes the block and takes it back at once; counted and
     * uncounted, nothing left. */
    own = (UCHAR *)MmAllocateContiguousMemorySpecifyCache(2 * PAGE_SIZE, pa(0), pa(-1), pa(3 * PAGE_SIZE),
                                                          MmCached);
    if (own)
        MmFreeContiguousMemory(own);
    assert_int_equal(fake.recorded, fake.released);
    assert_int_equal(fake.live[WK_KM_MEMORY_CONTIGUOUS], 0);
    remove_fake_kit();
}

/* The kit may hand an address out again once the memory behind a record
 * is gone without km.h knowing (its adapter went first: a driver that
 * died or leaked). Two records then hold one address, and the newer is
 * the one the driver holds: the unmap takes it, and the kit is told of
 * that one, so the live mapping is not left counted as a leak. */
static void test_reused_address_releases_the_newer_record(void **state)
{
    UCHAR *first, *second;
    uint64_t newer;
    (void)state;
    install_fake_kit();
    first = (UCHAR *)MmMapIoSpace(pa(0xD0000020ll), 0x10, MmNonCached);
    second = (UCHAR *)MmMapIoSpace(pa(0xD0000020ll), 0x10, MmNonCached); /* the fake's same window */
    assert_ptr_equal(first, second);
    newer = fake.last_owner;
    MmUnmapIoSpace(second, 0x10);
    assert_true(fake.last_released == newer);
    MmUnmapIoSpace(first, 0x10);
    assert_int_equal(fake.live[WK_KM_MEMORY_IO_SPACE], 0);
    assert_int_equal(fake.owner_mismatch, 0);
    remove_fake_kit();
}

/* A kit whose table ends before MemoryRecorded (an older kit, Size
 * smaller): kmmemory.h calls neither member, and maps and frees as
 * before. */
static void test_older_kit_is_not_asked_to_count(void **state)
{
    UCHAR *plain, *own;
    (void)state;
    install_fake_kit();
    fake_services.Size = (uint32_t)offsetof(WK_KM_SERVICES, MemoryRecorded);
    plain = (UCHAR *)MmMapIoSpace(pa(0xC0000000ll), 0x20, MmNonCached);
    own = (UCHAR *)MmAllocateContiguousMemory(PAGE_SIZE, pa(-1));
    assert_non_null(plain);
    assert_non_null(own);
    MmUnmapIoSpace(plain, 0x20);
    MmFreeContiguousMemory(own);
    assert_int_equal(fake.recorded, 0);
    assert_int_equal(fake.released, 0);
    remove_fake_kit();
}

/* An 8-bit write the register model cannot take ends the call. */
static void byte_write_to_window(void)
{
    UCHAR *regs;
    install_fake_kit();
    regs = (UCHAR *)MmMapIoSpace(pa(0xD0000000ll), 0x10, MmNonCached);
    WRITE_REGISTER_UCHAR(regs + 1, 1);
}

static struct crash_case case_byte_write_to_window = {byte_write_to_window, "KM-API-001",
                                                      "not this 8-bit write"};

/* The child aborts and says what the case expects. */
static void test_misuse_aborts(void **state)
{
    const struct crash_case *c = (const struct crash_case *)*state;
    assert_true(dies_with(c->fn, c->want, c->want2));
}

#define MISUSE(name, c) {name, test_misuse_aborts, NULL, NULL, (void *)&(c)}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wchar_type),
#if defined(__SIZEOF_WCHAR_T__) && __SIZEOF_WCHAR_T__ == 2
        cmocka_unit_test(test_short_wchar_literals),
#endif
        cmocka_unit_test(test_guid),
        cmocka_unit_test(test_init_strings),
        cmocka_unit_test(test_constant_string),
        cmocka_unit_test(test_strsafe_copy),
        cmocka_unit_test(test_strsafe_cat),
        cmocka_unit_test(test_strsafe_length),
        cmocka_unit_test(test_strsafe_printf),
        MISUSE("misuse_register_byte_write", case_byte_write_to_window),
        MISUSE("misuse_str_copy_null", case_copy_null),
        MISUSE("misuse_str_printf_null_format", case_printf_null),
        MISUSE("misuse_str_cat_overlap", case_cat_overlap),
        MISUSE("misuse_str_copy_overlap", case_copy_overlap),
        cmocka_unit_test(test_contiguous_memory),
        cmocka_unit_test(test_contiguous_constraints),
        cmocka_unit_test(test_io_space),
        cmocka_unit_test(test_kit_register_window),
        cmocka_unit_test(test_kit_contiguous_memory),
        cmocka_unit_test(test_every_path_is_counted),
        cmocka_unit_test(test_reused_address_releases_the_newer_record),
        cmocka_unit_test(test_older_kit_is_not_asked_to_count),
        cmocka_unit_test(test_ports),
        MISUSE("misuse_mem_free_unknown", case_free_unknown),
        MISUSE("misuse_mem_free_twice", case_free_twice),
        MISUSE("misuse_mem_free_mapping", case_free_mapping),
        MISUSE("misuse_mem_free_wrong_size", case_free_wrong_size),
        MISUSE("misuse_mem_unmap_unknown", case_unmap_unknown),
        MISUSE("misuse_mem_unmap_wrong_size", case_unmap_wrong_size),
        MISUSE("misuse_mem_contiguous_at_high_level", case_contiguous_high),
        cmocka_unit_test(test_thread_lifecycle),
        cmocka_unit_test(test_thread_terminate),
        cmocka_unit_test(test_handles),
        cmocka_unit_test(test_foreign_thread),
        cmocka_unit_test(test_create_arguments),
        cmocka_unit_test(test_delay),
        cmocka_unit_test(test_clocks),
        cmocka_unit_test(test_device_property),
        MISUSE("misuse_thread_terminate_foreign", case_terminate_foreign),
        MISUSE("misuse_thread_ends_at_dispatch", case_thread_at_dispatch),
        MISUSE("misuse_handle_close_twice", case_close_twice),
        MISUSE("misuse_handle_close_garbage", case_close_garbage),
        MISUSE("misuse_handle_close_pseudo", case_close_pseudo),
        MISUSE("misuse_ob_dereference_after_last", case_deref_after_last),
        MISUSE("misuse_ob_reference_event", case_reference_event),
        MISUSE("misuse_ob_dereference_foreign", case_deref_foreign),
        MISUSE("misuse_dev_property_fdo", case_property_fdo),
        MISUSE("misuse_thread_create_at_dispatch", case_create_at_dispatch),
        MISUSE("misuse_thread_delay_at_dispatch", case_delay_at_dispatch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

#endif /* WK_KM_MORE_TU2 */
