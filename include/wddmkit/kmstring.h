/* SPDX-License-Identifier: MIT */
/*
 * wddmkit/kmstring.h - the string and GUID routines of the kernel API a
 * display miniport calls: WCHAR and its pointer types, GUID comparison and
 * DEFINE_GUID, counted strings (RtlInitUnicodeString, RtlInitAnsiString,
 * RTL_CONSTANT_STRING) and the ntstrsafe.h subset (RtlStringCb/Cch Copy,
 * Cat, Length and Printf/VPrintf for both character widths; the W printf
 * forms have a formatter of their own, described at them), and
 * DECLARE_CONST_UNICODE_STRING.
 *
 * Shape and strictness as km.h (read its header comment): header only, static
 * inline, no state at all here. A NULL string pointer handed to a non-Ex
 * ntstrsafe routine, which Windows dereferences, and overlapping source and
 * destination, whose result Windows leaves undefined, end the process with a
 * rule line (KM-STR-001, KM-STR-002). Everything else the documentation
 * gives a status for returns that status.
 *
 * Characters. WCHAR is 16 bits (wddmkit/kmwchar.h says how: wchar_t under
 * -fshort-wchar, else char16_t), so write literals L"..." with -fshort-wchar
 * or u"..." without (WK_WTEXT("...") fits both). No routine here calls the C
 * library's wide functions, which assume a 4-byte wchar_t.
 *
 * Types this header takes from the others: UNICODE_STRING from driver.h
 * (its Buffer is to become WCHAR *; the code below compiles either way),
 * GUID and LPCGUID from dispmprt.h (through driver.h), PSTR and PCSTR from
 * km.h.
 *
 * Valid C11 and C++11 (checked as C++17 too), warning-free with -Wall -Wextra.
 */
#ifndef WDDMKIT_KMSTRING_H
#define WDDMKIT_KMSTRING_H

#include "wddmkit/km.h"
#include "wddmkit/kmwchar.h"
#include "wddmkit/driver.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef UNICODE_NULL
#define UNICODE_NULL ((WCHAR)0) /* (added) */
#define ANSI_NULL ((CHAR)0)
#endif

/* ------------------------------------------------------------------------ */
/* Types and limits                                                          */
/* ------------------------------------------------------------------------ */

/* The largest character count any ntstrsafe routine accepts (INT_MAX, as
 * in ntstrsafe.h), and the UNICODE_STRING limit of the RtlUnicodeString*
 * family. */
#ifndef NTSTRSAFE_MAX_CCH
#define NTSTRSAFE_MAX_CCH 2147483647
#endif
#ifndef NTSTRSAFE_UNICODE_STRING_MAX_CCH
#define NTSTRSAFE_UNICODE_STRING_MAX_CCH 32767
#endif

/* A warning status: the result was truncated (NT_SUCCESS is false for it
 * too, as severity 2 makes the value negative). */
#ifndef STATUS_BUFFER_OVERFLOW
#define STATUS_BUFFER_OVERFLOW WK_NTSTATUS(0x80000005u)
#endif

typedef const UNICODE_STRING *PCUNICODE_STRING;

/* A counted 8-bit string; STRING and ANSI_STRING are one type, as on
 * Windows, with the Windows x64 layout. */
typedef struct _STRING {
    USHORT Length;        /* bytes, without terminator */
    USHORT MaximumLength; /* bytes of Buffer */
    PCHAR Buffer;
} STRING, *PSTRING, ANSI_STRING, *PANSI_STRING;
typedef const STRING *PCSTRING;
typedef const ANSI_STRING *PCANSI_STRING;

WK_STATIC_ASSERT(sizeof(STRING) == 16 && offsetof(STRING, Buffer) == 8,
                 "STRING has the Windows x64 layout");
WK_STATIC_ASSERT(sizeof(UNICODE_STRING) == 16 && offsetof(UNICODE_STRING, Buffer) == 8,
                 "UNICODE_STRING has the Windows x64 layout");

/* ------------------------------------------------------------------------ */
/* GUID                                                                      */
/* ------------------------------------------------------------------------ */

/* GUID itself is dispmprt.h's (Data1..Data4, 16 bytes, the Windows layout):
 * defining it twice would not compile. These asserts pin the layout
 * DEFINE_GUID's initialiser relies on. */
WK_STATIC_ASSERT(sizeof(GUID) == 16 && offsetof(GUID, Data2) == 4 &&
                     offsetof(GUID, Data3) == 6 && offsetof(GUID, Data4) == 8,
                 "GUID has the Windows layout");

/* REFGUID is a pointer in C and a reference in C++, as in guiddef.h, so
 * IsEqualGUID takes &a in C and a in C++ like on Windows. */
#ifdef __cplusplus
#define REFGUID const GUID &
#else
#define REFGUID const GUID *
/* TRUE (1) when the two GUIDs are equal. */
static inline int InlineIsEqualGUID(const GUID *rguid1, const GUID *rguid2)
{
    return memcmp(rguid1, rguid2, sizeof(GUID)) == 0;
}
#define IsEqualGUID(rguid1, rguid2) InlineIsEqualGUID((rguid1), (rguid2))
#endif

/* ------------------------------------------------------------------------ */
/* Counted strings                                                           */
/* ------------------------------------------------------------------------ */

/* Characters before the terminator of s, looking at no more than max; max
 * when none is found. width is 1 (char) or 2 (WCHAR). */
static inline size_t wk_km_str_len(const void *s, size_t max, size_t width)
{
    size_t n = 0;
    if (width == 1) {
        const unsigned char *c = (const unsigned char *)s;
        while (n < max && c[n])
            n++;
    } else {
        const WCHAR *w = (const WCHAR *)s;
        while (n < max && w[n])
            n++;
    }
    return n;
}

/* Largest byte counts a counted string can describe: Windows' MAX_USTRING
 * (0xFFFE) with room for the terminator. */
#define WK_KM_MAX_USTRING 0xFFFEu

/* Points a UNICODE_STRING at a terminated string (no copy). Windows sets
 * Length to the string's bytes without terminator and MaximumLength to
 * Length + 2, both 0 for NULL, and caps a string too long for a USHORT at
 * Length 0xFFFC, MaximumLength 0xFFFE; the kit does the same. The kit
 * looks at no more than 32767 characters to find that out. */
static inline VOID RtlInitUnicodeString(PUNICODE_STRING DestinationString, PCWSTR SourceString)
{
    size_t n = SourceString ? wk_km_str_len(SourceString, WK_KM_MAX_USTRING / 2, 2) : 0;
    size_t bytes = n * sizeof(WCHAR);
    if (bytes >= WK_KM_MAX_USTRING)
        bytes = WK_KM_MAX_USTRING - sizeof(WCHAR);
    DestinationString->Length = (USHORT)bytes;
    DestinationString->MaximumLength = (USHORT)(SourceString ? bytes + sizeof(WCHAR) : 0);
    /* Through void *: Buffer's declared type (uint16_t * or WCHAR *)
     * converts from it in C; C++ casts with decltype. */
#ifdef __cplusplus
    DestinationString->Buffer =
        (decltype(DestinationString->Buffer))(void *)(uintptr_t)SourceString;
#else
    DestinationString->Buffer = (void *)(uintptr_t)SourceString;
#endif
}

/* The char form: Length is strlen, MaximumLength Length + 1. A string too
 * long for a USHORT is capped at Length 0xFFFD, MaximumLength 0xFFFE (the
 * kit's reading of Windows' cap; the kit looks at no more than 0xFFFE
 * characters). */
static inline VOID RtlInitAnsiString(PANSI_STRING DestinationString, PCSTR SourceString)
{
    size_t n = SourceString ? wk_km_str_len(SourceString, WK_KM_MAX_USTRING, 1) : 0;
    if (n >= WK_KM_MAX_USTRING)
        n = WK_KM_MAX_USTRING - 1;
    DestinationString->Length = (USHORT)n;
    DestinationString->MaximumLength = (USHORT)(SourceString ? n + 1 : 0);
    DestinationString->Buffer = (PCHAR)(uintptr_t)SourceString;
}

/* RtlInitString is the same routine on a STRING. */
static inline VOID RtlInitString(PSTRING DestinationString, PCSTR SourceString)
{
    RtlInitAnsiString(DestinationString, SourceString);
}

/*
 * RTL_CONSTANT_STRING(s): an initialiser for a STRING or UNICODE_STRING
 * from a string literal (or any true array): Length without the
 * terminator, MaximumLength with it. As on Windows a pointer argument gives
 * a wrong size. In C the buffer goes through void *, so one macro serves
 * both string types; in C++ a helper object converts to whichever pointer
 * type the Buffer field has.
 */
#ifndef RTL_CONSTANT_STRING
#ifdef __cplusplus
#define RTL_CONSTANT_STRING(s) \
    { sizeof(s) - sizeof((s)[0]), sizeof(s), wk_km_any_ptr{(s)} }
#else
#define RTL_CONSTANT_STRING(s) \
    { sizeof(s) - sizeof((s)[0]), sizeof(s), (void *)(uintptr_t)(s) }
#endif
#endif

/*
 * DECLARE_CONST_UNICODE_STRING(var, L"text") (added; ntdef.h/wdm.h): a
 * const WCHAR array var_buffer holding the text, and a const UNICODE_STRING
 * var describing it (Length without the terminator, MaximumLength with
 * it), at file or block scope, as the WDK's macro declares them. The
 * literal must be a wide one: L"..." under -fshort-wchar, u"..." (or
 * WK_WTEXT("...")) without (kmwchar.h).
 */
#ifndef DECLARE_CONST_UNICODE_STRING
#define DECLARE_CONST_UNICODE_STRING(_var, _string)                                   \
    const WCHAR _var##_buffer[] = _string;                                            \
    const UNICODE_STRING _var = { sizeof(_string) - sizeof(WCHAR), sizeof(_string), \
                                  (PWCH)(_var##_buffer) }
#endif

/* ------------------------------------------------------------------------ */
/* ntstrsafe: copy, concatenate, measure, format                             */
/* ------------------------------------------------------------------------ */
/*
 * The semantics are ntstrsafe.h's: sizes are in characters (Cch) or bytes
 * (Cb, rounded down to whole characters); a size of 0 or above
 * NTSTRSAFE_MAX_CCH characters is STATUS_INVALID_PARAMETER; a result that
 * does not fit is cut to fit, terminated, and reported as
 * STATUS_BUFFER_OVERFLOW; the destination is terminated whenever its size
 * is not 0, whatever the status (the kit writes the terminator on a
 * too-large size too, where Windows' validation may not; that buffer is
 * at least 1 character, as the caller claims more).
 *
 * Stricter than Windows: a NULL pointer aborts with KM-STR-001 (these
 * forms take none - the documentation sends callers with NULLs to the Ex
 * forms - and Windows' code dereferences them), and a source that overlaps
 * the destination aborts with KM-STR-002 (Windows documents the result as
 * undefined; the kit reports it instead of picking one).
 */

/* Character i of s (width 1 or 2). */
static inline unsigned wk_km_str_at(const void *s, size_t i, size_t width)
{
    return width == 1 ? ((const unsigned char *)s)[i] : ((const WCHAR *)s)[i];
}

/* Stores character c at index i of s (width 1 or 2). */
static inline void wk_km_str_put(void *s, size_t i, size_t width, unsigned c)
{
    if (width == 1)
        ((unsigned char *)s)[i] = (unsigned char)c;
    else
        ((WCHAR *)s)[i] = (WCHAR)c;
}

/* Aborts unless both pointers are set (KM-STR-001). The pointers come as
 * numbers: only their values matter, and GCC warns when an uninitialised
 * buffer is passed to a const pointer that is not inlined. */
static inline void wk_km_str_need(uintptr_t dst, uintptr_t src, const char *api)
{
    if (!dst || !src)
        wk_km_fail("KM-STR-001: %s(0x%llx, ..., 0x%llx): a NULL string pointer; this form "
                   "takes none (Windows dereferences it; use the Ex form to allow NULL)",
                   api, (unsigned long long)dst, (unsigned long long)src);
}

/* Aborts when [src, src + src_bytes) meets [dst, dst + dst_bytes) (KM-STR-002). */
static inline void wk_km_str_apart(uintptr_t d, size_t dst_bytes, uintptr_t s,
                                   size_t src_bytes, const char *api)
{
    if (d < s + src_bytes && s < d + dst_bytes)
        wk_km_fail("KM-STR-002: %s(0x%llx, %zu bytes, 0x%llx, %zu bytes): source and "
                   "destination overlap (Windows: undefined result)",
                   api, (unsigned long long)d, dst_bytes, (unsigned long long)s, src_bytes);
}

/* The size check every routine makes: 0 or too large is invalid. A
 * too-large size still gets the terminator (see above). */
static inline NTSTATUS wk_km_str_size_ok(void *dst, size_t cch, size_t width)
{
    if (cch == 0)
        return STATUS_INVALID_PARAMETER;
    if (cch > (size_t)NTSTRSAFE_MAX_CCH) {
        wk_km_str_put(dst, 0, width, 0);
        return STATUS_INVALID_PARAMETER;
    }
    return STATUS_SUCCESS;
}

/* Appends src at index at of dst (cch characters in all): copies what fits
 * before the last slot, terminates, and says whether all of src fit. */
static inline NTSTATUS wk_km_str_put_tail(void *dst, size_t cch, size_t at, const void *src,
                                          size_t src_len, size_t width)
{
    size_t room = cch - 1 - at, n = src_len < room ? src_len : room;
    memcpy((char *)wk_km_opaque(dst) + at * width, wk_km_opaque(src), n * width);
    wk_km_str_put(dst, at + n, width, 0);
    return n == src_len ? STATUS_SUCCESS : STATUS_BUFFER_OVERFLOW;
}

/* Copy worker: cch characters at dst. */
static inline NTSTATUS wk_km_str_copy(void *dst, size_t cch, const void *src, size_t width,
                                      const char *api)
{
    size_t src_len;
    NTSTATUS st;
    wk_km_str_need((uintptr_t)dst, (uintptr_t)src, api);
    st = wk_km_str_size_ok(dst, cch, width);
    if (!NT_SUCCESS(st))
        return st;
    src_len = wk_km_str_len(src, (size_t)NTSTRSAFE_MAX_CCH, width);
    wk_km_str_apart((uintptr_t)dst, cch * width, (uintptr_t)src, (src_len + 1) * width, api);
    return wk_km_str_put_tail(dst, cch, 0, src, src_len, width);
}

/* Concatenate worker: dst must hold a terminated string within cch
 * characters (STATUS_INVALID_PARAMETER otherwise, dst untouched). */
static inline NTSTATUS wk_km_str_cat(void *dst, size_t cch, const void *src, size_t width,
                                     const char *api)
{
    size_t dst_len, src_len;
    NTSTATUS st;
    wk_km_str_need((uintptr_t)dst, (uintptr_t)src, api);
    st = wk_km_str_size_ok(dst, cch, width);
    if (!NT_SUCCESS(st))
        return st;
    dst_len = wk_km_str_len(dst, cch, width);
    if (dst_len == cch)
        return STATUS_INVALID_PARAMETER;
    src_len = wk_km_str_len(src, (size_t)NTSTRSAFE_MAX_CCH, width);
    wk_km_str_apart((uintptr_t)dst, cch * width, (uintptr_t)src, (src_len + 1) * width, api);
    return wk_km_str_put_tail(dst, cch, dst_len, src, src_len, width);
}

/* Length worker: the characters before the terminator, which must lie
 * within cch_max. NULL psz is STATUS_INVALID_PARAMETER here (documented);
 * *len (optional) is 0 on failure. */
static inline NTSTATUS wk_km_str_length(const void *psz, size_t cch_max, size_t *len,
                                        size_t width)
{
    size_t n = 0;
    NTSTATUS st = STATUS_INVALID_PARAMETER;
    if (psz && cch_max != 0 && cch_max <= (size_t)NTSTRSAFE_MAX_CCH) {
        n = wk_km_str_len(psz, cch_max, width);
        if (n < cch_max)
            st = STATUS_SUCCESS;
        else
            n = 0;
    }
    if (len)
        *len = n;
    return st;
}

/* Byte count to characters; sizes above the limit stay above it. */
static inline size_t wk_km_str_cb_to_cch(size_t cb, size_t width)
{
    return cb / width;
}

/* Copies pszSrc into pszDest (cchDest characters). */
static inline NTSTATUS RtlStringCchCopyA(PSTR pszDest, size_t cchDest, PCSTR pszSrc)
{
    return wk_km_str_copy(pszDest, cchDest, pszSrc, 1, "RtlStringCchCopyA");
}

static inline NTSTATUS RtlStringCchCopyW(PWSTR pszDest, size_t cchDest, PCWSTR pszSrc)
{
    return wk_km_str_copy(pszDest, cchDest, pszSrc, 2, "RtlStringCchCopyW");
}

/* Copies pszSrc into pszDest (cbDest bytes). */
static inline NTSTATUS RtlStringCbCopyA(PSTR pszDest, size_t cbDest, PCSTR pszSrc)
{
    return wk_km_str_copy(pszDest, cbDest, pszSrc, 1, "RtlStringCbCopyA");
}

static inline NTSTATUS RtlStringCbCopyW(PWSTR pszDest, size_t cbDest, PCWSTR pszSrc)
{
    return wk_km_str_copy(pszDest, wk_km_str_cb_to_cch(cbDest, 2), pszSrc, 2,
                          "RtlStringCbCopyW");
}

/* Appends pszSrc to the string in pszDest (cchDest characters in all). */
static inline NTSTATUS RtlStringCchCatA(PSTR pszDest, size_t cchDest, PCSTR pszSrc)
{
    return wk_km_str_cat(pszDest, cchDest, pszSrc, 1, "RtlStringCchCatA");
}

static inline NTSTATUS RtlStringCchCatW(PWSTR pszDest, size_t cchDest, PCWSTR pszSrc)
{
    return wk_km_str_cat(pszDest, cchDest, pszSrc, 2, "RtlStringCchCatW");
}

/* Appends pszSrc to the string in pszDest (cbDest bytes in all). */
static inline NTSTATUS RtlStringCbCatA(PSTR pszDest, size_t cbDest, PCSTR pszSrc)
{
    return wk_km_str_cat(pszDest, cbDest, pszSrc, 1, "RtlStringCbCatA");
}

static inline NTSTATUS RtlStringCbCatW(PWSTR pszDest, size_t cbDest, PCWSTR pszSrc)
{
    return wk_km_str_cat(pszDest, wk_km_str_cb_to_cch(cbDest, 2), pszSrc, 2,
                         "RtlStringCbCatW");
}

/* Characters before the terminator, which must lie within cchMax. */
static inline NTSTATUS RtlStringCchLengthA(PCSTR psz, size_t cchMax, size_t *pcchLength)
{
    return wk_km_str_length(psz, cchMax, pcchLength, 1);
}

static inline NTSTATUS RtlStringCchLengthW(PCWSTR psz, size_t cchMax, size_t *pcchLength)
{
    return wk_km_str_length(psz, cchMax, pcchLength, 2);
}

/* Bytes before the terminator, which must lie within cbMax bytes. */
static inline NTSTATUS RtlStringCbLengthA(PCSTR psz, size_t cbMax, size_t *pcbLength)
{
    return wk_km_str_length(psz, cbMax, pcbLength, 1);
}

static inline NTSTATUS RtlStringCbLengthW(PCWSTR psz, size_t cbMax, size_t *pcbLength)
{
    size_t cch = 0;
    NTSTATUS st = wk_km_str_length(psz, wk_km_str_cb_to_cch(cbMax, 2), &cch, 2);
    if (pcbLength)
        *pcbLength = cch * sizeof(WCHAR);
    return st;
}

/*
 * Formats into pszDest (cchDest characters) with the C library's
 * vsnprintf. Format language: C's, not the Windows kernel's. The
 * conversions Windows adds (%ws, %wZ, %I64d, %Id) are not understood, and
 * the format attribute makes the compiler reject them at build time
 * (-Wformat). %S and %ls are the exception: the compiler accepts them for a
 * wchar_t string, but the C library reads a 4-byte wchar_t, so a WCHAR
 * string prints wrong; format WCHAR text with the W forms below. A
 * NULL pszDest or pszFormat aborts (KM-STR-001); an encoding error of
 * the C library is STATUS_INVALID_PARAMETER with an empty result.
 */
/* Format worker; api names the caller in a rule line. */
static inline __attribute__((format(printf, 3, 0))) NTSTATUS
wk_km_str_vprintf(PSTR dst, size_t cch, PCSTR fmt, va_list ap, const char *api)
{
    int n;
    NTSTATUS st;
    wk_km_str_need((uintptr_t)dst, (uintptr_t)fmt, api);
    st = wk_km_str_size_ok(dst, cch, 1);
    if (!NT_SUCCESS(st))
        return st;
    n = vsnprintf(dst, cch, fmt, ap);
    if (n < 0) {
        dst[0] = '\0';
        return STATUS_INVALID_PARAMETER;
    }
    return (size_t)n < cch ? STATUS_SUCCESS : STATUS_BUFFER_OVERFLOW;
}

/* vprintf into pszDest (cchDest characters). */
static inline __attribute__((format(printf, 3, 0))) NTSTATUS
RtlStringCchVPrintfA(PSTR pszDest, size_t cchDest, PCSTR pszFormat, va_list argList)
{
    return wk_km_str_vprintf(pszDest, cchDest, pszFormat, argList, "RtlStringCchVPrintfA");
}

/* vprintf into pszDest (cbDest bytes). */
static inline __attribute__((format(printf, 3, 0))) NTSTATUS
RtlStringCbVPrintfA(PSTR pszDest, size_t cbDest, PCSTR pszFormat, va_list argList)
{
    return wk_km_str_vprintf(pszDest, cbDest, pszFormat, argList, "RtlStringCbVPrintfA");
}

/* printf into pszDest (cchDest characters). */
static inline __attribute__((format(printf, 3, 4))) NTSTATUS
RtlStringCchPrintfA(PSTR pszDest, size_t cchDest, PCSTR pszFormat, ...)
{
    NTSTATUS st;
    va_list ap;
    va_start(ap, pszFormat);
    st = wk_km_str_vprintf(pszDest, cchDest, pszFormat, ap, "RtlStringCchPrintfA");
    va_end(ap);
    return st;
}

/* printf into pszDest (cbDest bytes). */
static inline __attribute__((format(printf, 3, 4))) NTSTATUS
RtlStringCbPrintfA(PSTR pszDest, size_t cbDest, PCSTR pszFormat, ...)
{
    NTSTATUS st;
    va_list ap;
    va_start(ap, pszFormat);
    st = wk_km_str_vprintf(pszDest, cbDest, pszFormat, ap, "RtlStringCbPrintfA");
    va_end(ap);
    return st;
}

/*
 * The WCHAR forms: RtlStringCchPrintfW, RtlStringCbPrintfW and their V
 * forms (added). The format is a WCHAR string, so the C library cannot do
 * the work (its wide functions assume a 4-byte wchar_t, kmwchar.h) and the
 * compiler cannot check the arguments: no format attribute exists for a
 * 16-bit format string, so a wrong argument type is not caught at build
 * time - keep these formats simple. Statuses, truncation and sizes are the
 * other ntstrsafe routines' (see above).
 *
 * The conversions are the Windows (MSVC) wide-printf ones, which
 * ntstrsafe's W routines use; where they differ from C's the Windows
 * meaning is the one here:
 *   %d %i %u %x %X %o   int; with h short, hh char, l (LONG/ULONG: 32 bits
 *                       on Windows), I32 32 bits, ll / I64 64 bits, I / z /
 *                       t / j pointer-sized (64 bits)
 *   %c                  a WCHAR (int-promoted); %C and %hc a char; %lc %wc a WCHAR
 *   %s                  a WCHAR string (wide, as in every Windows wprintf);
 *                       %S and %hs a char string; %ls %ws a WCHAR string;
 *                       NULL prints "(null)"; the precision caps the characters
 *   %wZ                 a PUNICODE_STRING (Length bytes), %Z / %hZ a PANSI_STRING
 *   %p                  16 upper-case hex digits, no 0x, as Windows x64 prints
 *   %%                  a percent sign
 * with the flags - + space # 0, a width and a precision (digits or *).
 * char strings are widened byte by byte (ASCII exact; bytes above 0x7F as
 * Latin-1, where Windows converts through the code page).
 * Not supported: the floating-point conversions (%e %E %f %F %g %G %a %A:
 * kernel code rarely formats a double), %n, and any other conversion: the
 * call returns STATUS_INVALID_PARAMETER with pszDest emptied (cch >= 1), so
 * such a format shows up in testing rather than printing wrong text.
 */

/* Where the formatter writes: cch characters at dst, len counted so far
 * (it goes on counting past the end, which is how truncation is seen). */
typedef struct wk_km_wfmt_out {
    WCHAR *dst;
    size_t cch;
    size_t len;
} wk_km_wfmt_out;

/* Appends one character if it fits before the terminator's slot. */
static inline void wk_km_wfmt_put(wk_km_wfmt_out *o, unsigned c)
{
    if (o->len + 1 < o->cch)
        o->dst[o->len] = (WCHAR)c;
    o->len++;
}

/* Appends n copies of c. */
static inline void wk_km_wfmt_fill(wk_km_wfmt_out *o, unsigned c, size_t n)
{
    while (n--)
        wk_km_wfmt_put(o, c);
}

/* The flags of one conversion. */
#define WK_KM_WF_LEFT 1u
#define WK_KM_WF_PLUS 2u
#define WK_KM_WF_SPACE 4u
#define WK_KM_WF_ALT 8u
#define WK_KM_WF_ZERO 16u

/* Size prefixes. */
enum { WK_KM_WS_NONE, WK_KM_WS_HH, WK_KM_WS_H, WK_KM_WS_L, WK_KM_WS_LL, WK_KM_WS_W, WK_KM_WS_PTR };

/* Appends n characters of s (width 1 or 2) padded to width. */
static inline void wk_km_wfmt_text(wk_km_wfmt_out *o, const void *s, size_t n, size_t width,
                                   unsigned flags, size_t char_width)
{
    size_t i;
    if (!(flags & WK_KM_WF_LEFT) && width > n)
        wk_km_wfmt_fill(o, ' ', width - n);
    for (i = 0; i < n; i++)
        wk_km_wfmt_put(o, wk_km_str_at(s, i, char_width));
    if ((flags & WK_KM_WF_LEFT) && width > n)
        wk_km_wfmt_fill(o, ' ', width - n);
}

/* Appends an integer: magnitude v in base (8, 10, 16), sign '-' when neg,
 * precision prec (-1: none), upper-case hex when upper. */
static inline void wk_km_wfmt_int(wk_km_wfmt_out *o, unsigned long long v, int neg, unsigned base,
                                  int upper, unsigned flags, size_t width, long prec)
{
    char digits[24];
    char prefix[3];
    size_t nd = 0, np = 0, zeros = 0, total;
    const char *set = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    unsigned long long x = v;
    while (x) {
        digits[nd++] = set[x % base];
        x /= base;
    }
    if (v == 0 && prec != 0)
        digits[nd++] = '0';
    if (neg)
        prefix[np++] = '-';
    else if (base == 10 && (flags & WK_KM_WF_PLUS))
        prefix[np++] = '+';
    else if (base == 10 && (flags & WK_KM_WF_SPACE))
        prefix[np++] = ' ';
    if ((flags & WK_KM_WF_ALT) && base == 16 && v != 0) {
        prefix[np++] = '0';
        prefix[np++] = upper ? 'X' : 'x';
    }
    if (prec >= 0 && (size_t)prec > nd)
        zeros = (size_t)prec - nd;
    if ((flags & WK_KM_WF_ALT) && base == 8 && zeros == 0 && (nd == 0 || digits[nd - 1] != '0'))
        zeros = 1;
    total = np + zeros + nd;
    if (prec < 0 && (flags & WK_KM_WF_ZERO) && !(flags & WK_KM_WF_LEFT) && width > total) {
        zeros += width - total;
        total = width;
    }
    if (!(flags & WK_KM_WF_LEFT) && width > total)
        wk_km_wfmt_fill(o, ' ', width - total);
    wk_km_wfmt_text(o, prefix, np, 0, 0, 1);
    wk_km_wfmt_fill(o, '0', zeros);
    while (nd)
        wk_km_wfmt_put(o, (unsigned char)digits[--nd]);
    if ((flags & WK_KM_WF_LEFT) && width > total)
        wk_km_wfmt_fill(o, ' ', width - total);
}

/* Reads a decimal number at *f, moving past it (capped at INT_MAX). */
static inline long wk_km_wfmt_number(const WCHAR **f)
{
    long n = 0;
    while (**f >= '0' && **f <= '9') {
        if (n < 214748364L)
            n = n * 10 + (long)(**f - '0');
        else
            n = 2147483647L;
        (*f)++;
    }
    return n;
}

/* Formats one conversion at *f (just past the '%'); 0 when it is not
 * supported. */
static inline int wk_km_wfmt_one(wk_km_wfmt_out *o, const WCHAR **f, va_list *ap)
{
    unsigned flags = 0;
    size_t width = 0;
    long prec = -1;
    int size = WK_KM_WS_NONE;
    unsigned conv;
    for (;; (*f)++) {
        unsigned c = **f;
        if (c == '-')
            flags |= WK_KM_WF_LEFT;
        else if (c == '+')
            flags |= WK_KM_WF_PLUS;
        else if (c == ' ')
            flags |= WK_KM_WF_SPACE;
        else if (c == '#')
            flags |= WK_KM_WF_ALT;
        else if (c == '0')
            flags |= WK_KM_WF_ZERO;
        else
            break;
    }
    if (**f == '*') {
        int w = va_arg(*ap, int);
        (*f)++;
        if (w < 0) {
            flags |= WK_KM_WF_LEFT;
            w = w == -2147483647 - 1 ? 2147483647 : -w;
        }
        width = (size_t)w;
    } else {
        width = (size_t)wk_km_wfmt_number(f);
    }
    if (**f == '.') {
        (*f)++;
        if (**f == '*') {
            int p = va_arg(*ap, int);
            (*f)++;
            prec = p < 0 ? -1 : p;
        } else {
            prec = wk_km_wfmt_number(f);
        }
    }
    if ((*f)[0] == 'h' && (*f)[1] == 'h') {
        size = WK_KM_WS_HH;
        *f += 2;
    } else if ((*f)[0] == 'h') {
        size = WK_KM_WS_H;
        *f += 1;
    } else if ((*f)[0] == 'l' && (*f)[1] == 'l') {
        size = WK_KM_WS_LL;
        *f += 2;
    } else if ((*f)[0] == 'l') {
        size = WK_KM_WS_L;
        *f += 1;
    } else if ((*f)[0] == 'w') {
        size = WK_KM_WS_W;
        *f += 1;
    } else if ((*f)[0] == 'I' && (*f)[1] == '6' && (*f)[2] == '4') {
        size = WK_KM_WS_LL;
        *f += 3;
    } else if ((*f)[0] == 'I' && (*f)[1] == '3' && (*f)[2] == '2') {
        size = WK_KM_WS_L;
        *f += 3;
    } else if ((*f)[0] == 'I' || (*f)[0] == 'z' || (*f)[0] == 't' || (*f)[0] == 'j') {
        size = WK_KM_WS_PTR;
        *f += 1;
    }
    conv = **f;
    if (conv == 0)
        return 0;
    (*f)++;
    if (conv == '%') {
        wk_km_wfmt_put(o, '%');
        return 1;
    }
    if (conv == 'd' || conv == 'i') {
        long long v;
        if (size == WK_KM_WS_LL || size == WK_KM_WS_PTR)
            v = va_arg(*ap, long long);
        else if (size == WK_KM_WS_H)
            v = (short)va_arg(*ap, int);
        else if (size == WK_KM_WS_HH)
            v = (signed char)va_arg(*ap, int);
        else
            v = va_arg(*ap, int);
        wk_km_wfmt_int(o, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v, v < 0, 10,
                       0, flags, width, prec);
        return 1;
    }
    if (conv == 'u' || conv == 'x' || conv == 'X' || conv == 'o') {
        unsigned long long v;
        if (size == WK_KM_WS_LL || size == WK_KM_WS_PTR)
            v = va_arg(*ap, unsigned long long);
        else if (size == WK_KM_WS_H)
            v = (unsigned short)va_arg(*ap, unsigned);
        else if (size == WK_KM_WS_HH)
            v = (unsigned char)va_arg(*ap, unsigned);
        else
            v = va_arg(*ap, unsigned);
        wk_km_wfmt_int(o, v, 0, conv == 'u' ? 10u : conv == 'o' ? 8u : 16u, conv == 'X', flags,
                       width, prec);
        return 1;
    }
    if (conv == 'p') {
        wk_km_wfmt_int(o, (unsigned long long)(uintptr_t)va_arg(*ap, void *), 0, 16, 1,
                       flags & WK_KM_WF_LEFT, width, 16);
        return 1;
    }
    if (conv == 'c' || conv == 'C') {
        int narrow = size == WK_KM_WS_H || size == WK_KM_WS_HH ||
                     (conv == 'C' && size != WK_KM_WS_L && size != WK_KM_WS_W);
        unsigned ch = (unsigned)va_arg(*ap, int);
        WCHAR wc = (WCHAR)(narrow ? (unsigned char)ch : ch);
        wk_km_wfmt_text(o, &wc, 1, width, flags, 2);
        return 1;
    }
    if (conv == 's' || conv == 'S') {
        int narrow = size == WK_KM_WS_H || size == WK_KM_WS_HH ||
                     (conv == 'S' && size != WK_KM_WS_L && size != WK_KM_WS_W);
        const void *str = va_arg(*ap, const void *);
        size_t cw = narrow ? 1 : 2;
        size_t max = prec >= 0 ? (size_t)prec : (size_t)NTSTRSAFE_MAX_CCH;
        if (!str) {
            str = "(null)";
            cw = 1;
        }
        wk_km_wfmt_text(o, str, wk_km_str_len(str, max, cw), width, flags, cw);
        return 1;
    }
    if (conv == 'Z') {
        const void *p = va_arg(*ap, const void *);
        size_t n, cw = (size == WK_KM_WS_W || size == WK_KM_WS_L) ? 2 : 1;
        const void *buf;
        if (cw == 2) {
            const UNICODE_STRING *u = (const UNICODE_STRING *)p;
            buf = u ? (const void *)u->Buffer : NULL;
            n = u ? u->Length / 2u : 0;
        } else {
            const STRING *a = (const STRING *)p;
            buf = a ? (const void *)a->Buffer : NULL;
            n = a ? a->Length : 0;
        }
        if (!buf) {
            buf = "(null)";
            n = 6;
            cw = 1;
        }
        if (prec >= 0 && (size_t)prec < n)
            n = (size_t)prec;
        wk_km_wfmt_text(o, buf, n, width, flags, cw);
        return 1;
    }
    return 0;
}

/* Format worker of the W forms: cch characters at dst. */
static inline NTSTATUS wk_km_wstr_vprintf(PWSTR dst, size_t cch, PCWSTR fmt, va_list ap,
                                          const char *api)
{
    wk_km_wfmt_out o;
    const WCHAR *f = fmt;
    va_list args;
    NTSTATUS st;
    wk_km_str_need((uintptr_t)dst, (uintptr_t)fmt, api);
    st = wk_km_str_size_ok(dst, cch, 2);
    if (!NT_SUCCESS(st))
        return st;
    o.dst = dst;
    o.cch = cch;
    o.len = 0;
    va_copy(args, ap);
    while (*f) {
        if (*f != '%') {
            wk_km_wfmt_put(&o, *f++);
            continue;
        }
        f++;
        if (!wk_km_wfmt_one(&o, &f, &args)) {
            va_end(args);
            dst[0] = 0;
            return STATUS_INVALID_PARAMETER;
        }
    }
    va_end(args);
    dst[o.len < cch ? o.len : cch - 1] = 0;
    return o.len < cch ? STATUS_SUCCESS : STATUS_BUFFER_OVERFLOW;
}

/* vprintf into pszDest (cchDest WCHARs); the format language is above. */
static inline NTSTATUS RtlStringCchVPrintfW(PWSTR pszDest, size_t cchDest, PCWSTR pszFormat,
                                            va_list argList)
{
    return wk_km_wstr_vprintf(pszDest, cchDest, pszFormat, argList, "RtlStringCchVPrintfW");
}

/* vprintf into pszDest (cbDest bytes, rounded down to whole WCHARs). */
static inline NTSTATUS RtlStringCbVPrintfW(PWSTR pszDest, size_t cbDest, PCWSTR pszFormat,
                                           va_list argList)
{
    return wk_km_wstr_vprintf(pszDest, wk_km_str_cb_to_cch(cbDest, 2), pszFormat, argList,
                              "RtlStringCbVPrintfW");
}

/* printf into pszDest (cchDest WCHARs). */
static inline NTSTATUS RtlStringCchPrintfW(PWSTR pszDest, size_t cchDest, PCWSTR pszFormat, ...)
{
    NTSTATUS st;
    va_list ap;
    va_start(ap, pszFormat);
    st = wk_km_wstr_vprintf(pszDest, cchDest, pszFormat, ap, "RtlStringCchPrintfW");
    va_end(ap);
    return st;
}

/* printf into pszDest (cbDest bytes, rounded down to whole WCHARs). */
static inline NTSTATUS RtlStringCbPrintfW(PWSTR pszDest, size_t cbDest, PCWSTR pszFormat, ...)
{
    NTSTATUS st;
    va_list ap;
    va_start(ap, pszFormat);
    st = wk_km_wstr_vprintf(pszDest, wk_km_str_cb_to_cch(cbDest, 2), pszFormat, ap,
                            "RtlStringCbPrintfW");
    va_end(ap);
    return st;
}

#ifdef __cplusplus
}

/* C++ only, so outside the C linkage block (templates and overloads cannot
 * have C linkage). */

/* RTL_CONSTANT_STRING's buffer: converts to any object pointer type, as
 * void * does in C, dropping const as the Windows macro does. */
struct wk_km_any_ptr {
    const void *p;
    template <class T> operator T *() const
    {
        return static_cast<T *>(const_cast<void *>(p));
    }
};

/* TRUE (1) when the two GUIDs are equal (references, as guiddef.h's C++). */
inline int InlineIsEqualGUID(REFGUID rguid1, REFGUID rguid2)
{
    return memcmp(&rguid1, &rguid2, sizeof(GUID)) == 0;
}
inline int IsEqualGUID(REFGUID rguid1, REFGUID rguid2)
{
    return InlineIsEqualGUID(rguid1, rguid2);
}
inline bool operator==(REFGUID a, REFGUID b)
{
    return InlineIsEqualGUID(a, b) != 0;
}
inline bool operator!=(REFGUID a, REFGUID b)
{
    return !(a == b);
}
#endif /* __cplusplus */

#endif /* WDDMKIT_KMSTRING_H */

/*
 * DEFINE_GUID, outside the include guard on purpose, as in guiddef.h: a
 * unit that defines INITGUID and includes this header again (after km.h
 * already did) gets the defining form from then on. Without INITGUID it
 * declares the GUID; with it, it defines it. The definition is weak (as
 * Windows' is selectany: several units may define one GUID) and hidden
 * (a driver's GUIDs stay inside its module, like km.h's IRQL).
 */
#ifdef DEFINE_GUID
#undef DEFINE_GUID
#endif
#ifdef __cplusplus
#define WK_KM_GUID_DECLARE extern "C" /* a declaration: extern "C" implies extern */
#define WK_KM_GUID_DEFINE extern "C"
#else
#define WK_KM_GUID_DECLARE extern
#define WK_KM_GUID_DEFINE
#endif
#ifdef INITGUID
#define DEFINE_GUID(name, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8)                     \
    WK_KM_GUID_DEFINE __attribute__((weak, visibility("hidden"))) const GUID name = { \
        l, w1, w2, { b1, b2, b3, b4, b5, b6, b7, b8 } }
#else
#define DEFINE_GUID(name, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8) \
    WK_KM_GUID_DECLARE const GUID name
#endif
