/* SPDX-License-Identifier: MIT */
/*
 * wddmkit/kmwchar.h - WCHAR, the Windows 16-bit character, alone.
 *
 * Why a header of its own: driver.h's UNICODE_STRING and kmstring.h's
 * routines must agree on one WCHAR, and driver.h must not include km.h.
 * Both include this file, which needs nothing but the compiler.
 *
 * Why the name is not wchar.h: a build that puts include/wddmkit itself on
 * the include path would then hide the C library's <wchar.h>.
 *
 * Windows' WCHAR is wchar_t, 2 bytes, so L"..." literals are UTF-16. On
 * Linux wchar_t is 4 bytes (UTF-32), so the kit picks the type by how the
 * translation unit is compiled:
 *
 *   - with -fshort-wchar (__SIZEOF_WCHAR_T__ == 2) WCHAR is wchar_t and
 *     L"..." works unchanged, as on Windows. In C, u"..." works too (both
 *     are unsigned 16-bit there); in C++ only L"..." does (distinct types).
 *     Do not call the C library's wide functions (wcslen, swprintf...) from
 *     such a unit: glibc's are built for a 4-byte wchar_t.
 *   - otherwise WCHAR is char16_t (<uchar.h> in C11, built in in C++) and
 *     literals are written u"...". WK_WTEXT("...") expands to whichever
 *     prefix fits, for sources that build both ways.
 *
 * The two choices have the same size, signedness and alignment, so a
 * structure holding WCHARs has one layout whichever way each unit is
 * compiled. (In C++ the two are distinct types: a unit built with
 * -fshort-wchar and one built without see different WCHAR* parameter
 * types, which only matters for functions with C++ linkage.)
 *
 * Valid C11 and C++11.
 */
#ifndef WDDMKIT_KMWCHAR_H
#define WDDMKIT_KMWCHAR_H

#if defined(__SIZEOF_WCHAR_T__) && __SIZEOF_WCHAR_T__ == 2
#define WK_WCHAR_IS_WCHAR_T 1
#include <stddef.h> /* wchar_t in C */
#else
#define WK_WCHAR_IS_WCHAR_T 0
#ifndef __cplusplus
#include <uchar.h> /* char16_t in C11 */
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* One guard for the block: a typedef may be repeated with the same type,
 * but there is nothing to gain from doing so. */
#ifndef WK_WCHAR_TYPES_DEFINED
#define WK_WCHAR_TYPES_DEFINED
#if WK_WCHAR_IS_WCHAR_T
typedef wchar_t WCHAR;
#define WK_WTEXT(s) L##s
#else
typedef char16_t WCHAR;
#define WK_WTEXT(s) u##s
#endif
typedef WCHAR *PWCHAR;
typedef WCHAR *PWCH;
typedef const WCHAR *PCWCH;
typedef WCHAR *PWSTR;
typedef const WCHAR *PCWSTR;
#endif /* WK_WCHAR_TYPES_DEFINED */

#ifdef __cplusplus
static_assert(sizeof(WCHAR) == 2 && (WCHAR)-1 > 0, "WCHAR is an unsigned 16-bit type");
#else
_Static_assert(sizeof(WCHAR) == 2 && (WCHAR)-1 > 0, "WCHAR is an unsigned 16-bit type");
#endif

#ifdef __cplusplus
}
#endif

#endif /* WDDMKIT_KMWCHAR_H */
