/* SPDX-License-Identifier: MIT */
/*
 * test_wdk_names.c - the WDK names a port of the public RosKmd sample found
 * missing, now in the kit's headers: D3DDDIFORMAT's values (d3dkmddi.h),
 * DXGI_FORMAT (dxgiformat.h), the DXGK_QUERYADAPTERINFOTYPE values and the
 * runtime power types (d3dkmddi.h, dxgkpower.h), FLOAT and
 * _IRQL_requires_DXGK_, and the kernel names FILE_OBJECT, GENERIC_*,
 * DECLARE_CONST_UNICODE_STRING, RtlStringCb/CchPrintfW,
 * MmMapLockedPagesSpecifyCache / MmUnmapLockedPages and KeBugCheckEx.
 *
 * Values are spot-checked against the public documentation each header
 * comment names (first, last and FOURCC-coded values, the ones a miniport's
 * format table uses); layouts against their x64 sizes and offsets. The
 * misuse cases (KeBugCheckEx, a wrong unmap, a NULL format) run in a forked
 * child whose stderr is captured, as tests/test_km.c does: with no kit the
 * child must abort after printing its rule line.
 *
 * Built three ways (tests/wdk_names_tests.cmake): C11, C++17 through
 * test_wdk_names_cxx.cpp, and C11 with -fshort-wchar. Each links a second
 * C unit, this file compiled with WK_WDK_NAMES_TU2, which checks the
 * D3DDDIFORMAT enumeration with d3dkmddi.h alone (where it is defined).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* fork, pipe, waitpid */
#endif

#ifdef WK_WDK_NAMES_TU2
/* ------------------------------------------------------------------------ */
/* Second unit: D3DDDIFORMAT, with d3dkmddi.h alone                          */
/* ------------------------------------------------------------------------ */
#include <stddef.h>

#include "wddmkit/d3dkmddi.h"

const char *wk_wdk_names_d3dddifmt_check(long long *got, long long *want);

/* One expected value. */
struct wk_fmt_case {
    const char *name;
    long long got;
    long long want;
};
#define FMT(n, v) { #n, (long long)(n), (long long)(v) }

/* The first wrong value's name (NULL when all agree); *got and *want say
 * how. Values: d3dukmdt.h of 10.0.16299 and the D3DFORMAT reference page
 * (direct3d9/d3dformat), which number them identically. */
const char *wk_wdk_names_d3dddifmt_check(long long *got, long long *want)
{
    static const struct wk_fmt_case c[] = {
        FMT(D3DDDIFMT_UNKNOWN, 0),
        FMT(D3DDDIFMT_R8G8B8, 20),
        FMT(D3DDDIFMT_A8R8G8B8, 21),
        FMT(D3DDDIFMT_X8R8G8B8, 22),
        FMT(D3DDDIFMT_R5G6B5, 23),
        FMT(D3DDDIFMT_A1R5G5B5, 25),
        FMT(D3DDDIFMT_A4R4G4B4, 26),
        FMT(D3DDDIFMT_A8, 28),
        FMT(D3DDDIFMT_A2B10G10R10, 31),
        FMT(D3DDDIFMT_A8B8G8R8, 32),
        FMT(D3DDDIFMT_A16B16G16R16, 36),
        FMT(D3DDDIFMT_A8P8, 40),
        FMT(D3DDDIFMT_P8, 41),
        FMT(D3DDDIFMT_L8, 50),
        FMT(D3DDDIFMT_V8U8, 60),
        FMT(D3DDDIFMT_W11V11U10, 65),
        FMT(D3DDDIFMT_A2W10V10U10, 67),
        FMT(D3DDDIFMT_D16_LOCKABLE, 70),
        FMT(D3DDDIFMT_D32, 71),
        FMT(D3DDDIFMT_S1D15, 72),
        FMT(D3DDDIFMT_S8D24, 74),
        FMT(D3DDDIFMT_D24S8, 75),
        FMT(D3DDDIFMT_X8D24, 76),
        FMT(D3DDDIFMT_D24X8, 77),
        FMT(D3DDDIFMT_D16, 80),
        FMT(D3DDDIFMT_L16, 81),
        FMT(D3DDDIFMT_D32F_LOCKABLE, 82),
        FMT(D3DDDIFMT_S8_LOCKABLE, 85),
        FMT(D3DDDIFMT_G8R8, 91),
        FMT(D3DDDIFMT_R8, 92),
        FMT(D3DDDIFMT_VERTEXDATA, 100),
        FMT(D3DDDIFMT_INDEX32, 102),
        FMT(D3DDDIFMT_Q16W16V16U16, 110),
        FMT(D3DDDIFMT_R16F, 111),
        FMT(D3DDDIFMT_A16B16G16R16F, 113),
        FMT(D3DDDIFMT_A32B32G32R32F, 116),
        FMT(D3DDDIFMT_CxV8U8, 117),
        FMT(D3DDDIFMT_A1, 118),
        FMT(D3DDDIFMT_A2B10G10R10_XR_BIAS, 119),
        FMT(D3DDDIFMT_DXVACOMPBUFFER_BASE, 150),
        FMT(D3DDDIFMT_PICTUREPARAMSDATA, 150),
        FMT(D3DDDIFMT_FILMGRAINBUFFER, 158),
        FMT(D3DDDIFMT_DXVA_RESERVED31, 181),
        FMT(D3DDDIFMT_DXVACOMPBUFFER_MAX, 181),
        FMT(D3DDDIFMT_BINARYBUFFER, 199),
        FMT(D3DDDIFMT_FORCE_UINT, 0x7fffffff),
        /* FOURCC: first character in the low byte */
        FMT(D3DDDIFMT_UYVY, 0x59565955),
        FMT(D3DDDIFMT_YUY2, 0x32595559),
        FMT(D3DDDIFMT_R8G8_B8G8, 0x47424752),
        FMT(D3DDDIFMT_G8R8_G8B8, 0x42475247),
        FMT(D3DDDIFMT_DXT1, 0x31545844),
        FMT(D3DDDIFMT_DXT5, 0x35545844),
        FMT(D3DDDIFMT_MULTI2_ARGB8, 0x3154454D),
        FMT(MAKEFOURCC('D', 'X', 'T', '3'), 0x33545844),
    };
    size_t i;
    if (sizeof(D3DDDIFORMAT) != 4) {
        *got = (long long)sizeof(D3DDDIFORMAT);
        *want = 4;
        return "sizeof(D3DDDIFORMAT)";
    }
    for (i = 0; i < sizeof c / sizeof c[0]; i++) {
        if (c[i].got != c[i].want) {
            *got = c[i].got;
            *want = c[i].want;
            return c[i].name;
        }
    }
    return NULL;
}

#else /* the tests */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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
#include "wddmkit/dxgiformat.h"

#ifdef __cplusplus
extern "C" {
#endif
const char *wk_wdk_names_d3dddifmt_check(long long *got, long long *want);
#ifdef __cplusplus
}
#endif

/* ------------------------------------------------------------------------ */
/* Child processes (as tests/test_km.c)                                      */
/* ------------------------------------------------------------------------ */

#include "child_test.h"
typedef wk_child_fn child_fn;

/* True when fn aborts after printing want (child_test.h). */
static bool dies_with(child_fn fn, const char *want)
{
    return wk_child_dies_with(fn, want, NULL);
}

/* ------------------------------------------------------------------------ */
/* Enumerations                                                              */
/* ------------------------------------------------------------------------ */

/* D3DDDIFORMAT, from the second unit (see the file comment). */
static void test_d3dddiformat_values(void **state)
{
    long long got = 0, want = 0;
    const char *bad = wk_wdk_names_d3dddifmt_check(&got, &want);
    (void)state;
    if (bad)
        print_error("%s is %lld, expected %lld\n", bad, got, want);
    assert_null(bad);
}

/* DXGI_FORMAT: the reference page ne-dxgiformat-dxgi_format and
 * microsoft/DirectX-Headers' dxgiformat.h. */
static void test_dxgi_format_values(void **state)
{
    (void)state;
    assert_int_equal(sizeof(DXGI_FORMAT), 4);
    assert_int_equal(DXGI_FORMAT_DEFINED, 1);
    assert_int_equal(DXGI_FORMAT_UNKNOWN, 0);
    assert_int_equal(DXGI_FORMAT_R32G32B32A32_TYPELESS, 1);
    assert_int_equal(DXGI_FORMAT_R16G16B16A16_FLOAT, 10);
    assert_int_equal(DXGI_FORMAT_R10G10B10A2_UNORM, 24);
    assert_int_equal(DXGI_FORMAT_R8G8B8A8_UNORM, 28);
    assert_int_equal(DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, 29);
    assert_int_equal(DXGI_FORMAT_D32_FLOAT, 40);
    assert_int_equal(DXGI_FORMAT_D24_UNORM_S8_UINT, 45);
    assert_int_equal(DXGI_FORMAT_A8_UNORM, 65);
    assert_int_equal(DXGI_FORMAT_BC1_UNORM, 71);
    assert_int_equal(DXGI_FORMAT_BC5_SNORM, 84);
    assert_int_equal(DXGI_FORMAT_B5G6R5_UNORM, 85);
    assert_int_equal(DXGI_FORMAT_B8G8R8A8_UNORM, 87);
    assert_int_equal(DXGI_FORMAT_R10G10B10_XR_BIAS_A2_UNORM, 89);
    assert_int_equal(DXGI_FORMAT_B8G8R8X8_UNORM_SRGB, 93);
    assert_int_equal(DXGI_FORMAT_BC7_UNORM_SRGB, 99);
    assert_int_equal(DXGI_FORMAT_NV12, 103);
    assert_int_equal(DXGI_FORMAT_420_OPAQUE, 106);
    assert_int_equal(DXGI_FORMAT_YUY2, 107);
    assert_int_equal(DXGI_FORMAT_P8, 113);
    assert_int_equal(DXGI_FORMAT_A8P8, 114);
    assert_int_equal(DXGI_FORMAT_B4G4R4A4_UNORM, 115);
    assert_int_equal(DXGI_FORMAT_P208, 130);
    assert_int_equal(DXGI_FORMAT_V208, 131);
    assert_int_equal(DXGI_FORMAT_V408, 132);
    assert_true((unsigned long long)DXGI_FORMAT_FORCE_UINT == 0xffffffffull);
}

/* DXGK_QUERYADAPTERINFOTYPE: ne-d3dkmddi-_dxgk_queryadapterinfotype. */
static void test_queryadapterinfotype_values(void **state)
{
    (void)state;
    assert_int_equal(DXGKQAITYPE_UMDRIVERPRIVATE, 0);
    assert_int_equal(DXGKQAITYPE_QUERYSEGMENT3, 5);
    assert_int_equal(DXGKQAITYPE_NUMPOWERCOMPONENTS, 6);
    assert_int_equal(DXGKQAITYPE_POWERCOMPONENTINFO, 7);
    assert_int_equal(DXGKQAITYPE_PREFERREDGPUNODE, 8);
    assert_int_equal(DXGKQAITYPE_POWERCOMPONENTPSTATEINFO, 9);
    assert_int_equal(DXGKQAITYPE_HISTORYBUFFERPRECISION, 10);
    assert_int_equal(DXGKQAITYPE_QUERYSEGMENT4, 11);
    assert_int_equal(DXGKQAITYPE_PHYSICALADAPTERCAPS, 15);
    assert_int_equal(DXGKQAITYPE_DISPLAY_DRIVERCAPS_EXTENSION, 16);
    assert_int_equal(DXGKQAITYPE_INTEGRATED_DISPLAY_DESCRIPTOR, 17);
    assert_int_equal(DXGKQAITYPE_UEFIFRAMEBUFFERRANGES, 18);
    assert_int_equal(DXGKQAITYPE_QUERYCOLORIMETRYOVERRIDES, 19);
    assert_int_equal(DXGKQAITYPE_DISPLAYID_DESCRIPTOR, 20);
}

/* ------------------------------------------------------------------------ */
/* Runtime power types                                                       */
/* ------------------------------------------------------------------------ */

/* Sizes, offsets, the component types and the flag bits. */
static void test_power_runtime_component(void **state)
{
    DXGK_POWER_COMPONENT_FLAGS flags;
    DXGK_POWER_RUNTIME_COMPONENT comp;
    DXGKARG_HISTORYBUFFERPRECISION prec;
    (void)state;
    assert_int_equal(DXGK_MAX_F_STATES, 8);
    assert_int_equal(DXGK_POWER_COMPONENT_NAME_SIZE, 40);
    assert_int_equal(DXGK_MAX_POWER_COMPONENT_PROVIDERS, 16);
    assert_int_equal(sizeof(DXGK_POWER_RUNTIME_STATE), 24);
    assert_int_equal(offsetof(DXGK_POWER_RUNTIME_STATE, NominalPower), 16);
    assert_int_equal(sizeof(DXGK_POWER_COMPONENT_MAPPING), 8);
    assert_int_equal(offsetof(DXGK_POWER_COMPONENT_MAPPING, EngineDesc), 4);
    assert_int_equal(sizeof(DXGK_POWER_RUNTIME_COMPONENT), 0x150);
    assert_int_equal(offsetof(DXGK_POWER_RUNTIME_COMPONENT, States), 0x08);
    assert_int_equal(offsetof(DXGK_POWER_RUNTIME_COMPONENT, ComponentMapping), 0xC8);
    assert_int_equal(offsetof(DXGK_POWER_RUNTIME_COMPONENT, Flags), 0xD0);
    assert_int_equal(offsetof(DXGK_POWER_RUNTIME_COMPONENT, ComponentGuid), 0xD4);
    assert_int_equal(offsetof(DXGK_POWER_RUNTIME_COMPONENT, ComponentName), 0xE4);
    assert_int_equal(offsetof(DXGK_POWER_RUNTIME_COMPONENT, ProviderCount), 0x10C);
    assert_int_equal(offsetof(DXGK_POWER_RUNTIME_COMPONENT, Providers), 0x110);
    assert_int_equal(DXGK_POWER_COMPONENT_ENGINE, 0);
    assert_int_equal(DXGK_POWER_COMPONENT_MONITOR_REFRESH, 2);
    assert_int_equal(DXGK_POWER_COMPONENT_MEMORY, 3);
    assert_int_equal(DXGK_POWER_COMPONENT_OTHER, 5);
    assert_int_equal(DXGK_POWER_COMPONENT_D3_TRANSITION, 6);
    assert_int_equal(DXGK_POWER_COMPONENT_SHARED, 7);
    assert_int_equal(DXGK_POWER_COMPONENT_MAX, 8);
    flags.Value = 0;
    flags.DriverCompletesFStateTransition = 1;
    assert_int_equal(flags.Value, 0x2);
    flags.Value = 0;
    flags.TransitionTo_F0_OnDx = 1;
    assert_int_equal(flags.Value, 0x4);
    flags.Value = 0;
    flags.ActiveInD3 = 1;
    assert_int_equal(flags.Value, 0x10);
    /* What RosKmd writes (RosKmdPower.cpp). */
    memset(&comp, 0, sizeof comp);
    comp.ComponentMapping.ComponentType = DXGK_POWER_COMPONENT_ENGINE;
    comp.ComponentMapping.EngineDesc.NodeIndex = 3;
    comp.States[7].NominalPower = 1;
    comp.Providers[15] = 2;
    assert_int_equal(comp.ComponentMapping.MonitorDesc.VidPnTargetID, 3);
    prec.PrecisionBits = 64;
    assert_int_equal(sizeof prec, 4);
    assert_int_equal(prec.PrecisionBits, 64);
    assert_int_equal(sizeof(FLOAT), 4);
}

/* _IRQL_requires_DXGK_ and the other DXGK annotations are empty. */
_IRQL_requires_DXGK_(PASSIVE_LEVEL) _Function_class_DXGK_(WK_TEST_FN) static int
annotated(_Field_size_bytes_DXGK_(4) int x)
{
    return x + 1;
}

/* ------------------------------------------------------------------------ */
/* Kernel names                                                              */
/* ------------------------------------------------------------------------ */

DECLARE_CONST_UNICODE_STRING(wk_file_scope_name, WK_WTEXT("\\Device\\RPIQ"));

/* The WCHAR text s as an ASCII C string (non-ASCII as '?'). */
static const char *narrow(const WCHAR *s)
{
    static char buf[256];
    size_t i;
    for (i = 0; i + 1 < sizeof buf && s[i]; i++)
        buf[i] = s[i] < 0x80 ? (char)s[i] : '?';
    buf[i] = '\0';
    return buf;
}

static void test_kernel_names(void **state)
{
    PFILE_OBJECT file = NULL;
    DECLARE_CONST_UNICODE_STRING(value_name, WK_WTEXT("RenderOnly"));
    (void)state;
    assert_null(file);
    assert_int_equal(annotated(1), 2);
    assert_true(GENERIC_READ == 0x80000000u);
    assert_true(GENERIC_WRITE == 0x40000000u);
    assert_true(GENERIC_EXECUTE == 0x20000000u);
    assert_true(GENERIC_ALL == 0x10000000u);
    assert_int_equal(value_name.Length, 10 * sizeof(WCHAR));
    assert_int_equal(value_name.MaximumLength, 11 * sizeof(WCHAR));
    assert_ptr_equal(value_name.Buffer, value_name_buffer);
    assert_string_equal(narrow(value_name.Buffer), "RenderOnly");
    assert_int_equal(wk_file_scope_name.Length, 12 * sizeof(WCHAR));
    assert_int_equal(wk_file_scope_name.MaximumLength, 13 * sizeof(WCHAR));
    assert_string_equal(narrow(wk_file_scope_name.Buffer), "\\Device\\RPIQ");
}

/* ------------------------------------------------------------------------ */
/* RtlStringCb/CchPrintfW                                                    */
/* ------------------------------------------------------------------------ */

/* Formats into a 64-WCHAR buffer; fails unless the status is SUCCESS and
 * the text is want. */
#define WPRINTF_IS(want, ...)                                                    \
    do {                                                                         \
        WCHAR out_[64];                                                          \
        NTSTATUS st_ = RtlStringCbPrintfW(out_, sizeof out_, __VA_ARGS__);       \
        assert_int_equal(st_, STATUS_SUCCESS);                                   \
        assert_string_equal(narrow(out_), want);                                 \
    } while (0)

static void test_wprintf_conversions(void **state)
{
    WCHAR wide[] = {'w', 'i', 'd', 'e', 0};
    UNICODE_STRING us;
    ANSI_STRING as;
    int x = 7;
    (void)state;
    /* RosKmd's DxgkDdiGetNodeMetadata line */
    WPRINTF_IS("3DNode05", WK_WTEXT("3DNode%02X"), (UINT)5);
    WPRINTF_IS("plain 100%", WK_WTEXT("plain 100%%"));
    WPRINTF_IS("-42|   17|17   |00017|+5| 5", WK_WTEXT("%d|%5i|%-5d|%05d|%+d|% d"), -42, 17, 17,
               17, 5, 5);
    WPRINTF_IS("4294967295 ffffffff FFFFFFFF 17", WK_WTEXT("%u %x %X %o"), 0xFFFFFFFFu,
               0xFFFFFFFFu, 0xFFFFFFFFu, 15u);
    WPRINTF_IS("0x1f 0X1F 017 0", WK_WTEXT("%#x %#X %#o %#x"), 31u, 31u, 15u, 0u);
    /* %lu is a 32-bit ULONG, as on Windows (LP64's long would read 64 bits) */
    WPRINTF_IS("4000000000 -5", WK_WTEXT("%lu %ld"), (ULONG)4000000000u, (LONG)-5);
    WPRINTF_IS("18446744073709551615 -9223372036854775808", WK_WTEXT("%llu %lld"),
               0xFFFFFFFFFFFFFFFFull, (long long)(-9223372036854775807LL - 1));
    WPRINTF_IS("123456789abc 123456789ABC 42", WK_WTEXT("%I64x %I64X %I32u"), 0x123456789abcull,
               0x123456789abcull, 42u);
    WPRINTF_IS("300 65535 255", WK_WTEXT("%Iu %hu %hhu"), (SIZE_T)300, 0xFFFFFu, 0x1FFu);
    WPRINTF_IS("00042 0042", WK_WTEXT("%.5d %4.4u"), 42, 42u);
    /* strings: %s is WCHAR in a W function, %S / %hs char, %ls / %ws WCHAR */
    WPRINTF_IS("wide narrow narrow wide wide", WK_WTEXT("%s %S %hs %ls %ws"), wide, "narrow",
               "narrow", wide, wide);
    WPRINTF_IS("[  wid][wi   ](null)", WK_WTEXT("[%5.3s][%-5.2s]%s"), wide, wide, (WCHAR *)NULL);
    WPRINTF_IS("a b c", WK_WTEXT("%c %C %hc"), (int)'a', (int)'b', (int)'c');
    RtlInitUnicodeString(&us, wide);
    RtlInitAnsiString(&as, "ansi");
    WPRINTF_IS("<wide> <ansi>", WK_WTEXT("<%wZ> <%Z>"), &us, &as);
    {
        WCHAR out[64];
        char want[32];
        assert_int_equal(RtlStringCchPrintfW(out, 64, WK_WTEXT("%p"), (void *)&x), STATUS_SUCCESS);
        snprintf(want, sizeof want, "%016llX", (unsigned long long)(uintptr_t)&x);
        assert_string_equal(narrow(out), want);
    }
}

static void test_wprintf_statuses(void **state)
{
    WCHAR out[8];
    (void)state;
    /* fits exactly: 7 characters and the terminator */
    assert_int_equal(RtlStringCchPrintfW(out, 8, WK_WTEXT("%s"), WK_WTEXT("1234567")),
                     STATUS_SUCCESS);
    assert_string_equal(narrow(out), "1234567");
    /* one more: cut to fit, terminated, STATUS_BUFFER_OVERFLOW */
    assert_int_equal(RtlStringCchPrintfW(out, 8, WK_WTEXT("%d%d"), 1234, 5678),
                     STATUS_BUFFER_OVERFLOW);
    assert_string_equal(narrow(out), "1234567");
    assert_false(NT_SUCCESS(STATUS_BUFFER_OVERFLOW));
    /* Cb rounds down to whole WCHARs: 9 bytes are 4 characters */
    assert_int_equal(RtlStringCbPrintfW(out, 9, WK_WTEXT("abcdef")), STATUS_BUFFER_OVERFLOW);
    assert_string_equal(narrow(out), "abc");
    /* zero size: STATUS_INVALID_PARAMETER, the buffer untouched */
    out[0] = 'z';
    out[1] = 0;
    assert_int_equal(RtlStringCchPrintfW(out, 0, WK_WTEXT("x")), STATUS_INVALID_PARAMETER);
    assert_int_equal(RtlStringCbPrintfW(out, 1, WK_WTEXT("x")), STATUS_INVALID_PARAMETER);
    assert_string_equal(narrow(out), "z");
    /* above NTSTRSAFE_MAX_CCH: invalid, and terminated */
    assert_int_equal(RtlStringCchPrintfW(out, (size_t)NTSTRSAFE_MAX_CCH + 1, WK_WTEXT("x")),
                     STATUS_INVALID_PARAMETER);
    assert_int_equal(out[0], 0);
    /* unsupported conversions: invalid, emptied */
    assert_int_equal(RtlStringCchPrintfW(out, 8, WK_WTEXT("ab%f"), 1.5), STATUS_INVALID_PARAMETER);
    assert_int_equal(out[0], 0);
    assert_int_equal(RtlStringCchPrintfW(out, 8, WK_WTEXT("ab%q")), STATUS_INVALID_PARAMETER);
    assert_int_equal(RtlStringCchPrintfW(out, 8, WK_WTEXT("ab%")), STATUS_INVALID_PARAMETER);
    assert_int_equal(out[0], 0);
}

/* The V form, called through a variadic helper. */
static NTSTATUS vformat(PWSTR out, size_t cch, PCWSTR fmt, ...)
{
    NTSTATUS st;
    va_list ap;
    va_start(ap, fmt);
    st = RtlStringCchVPrintfW(out, cch, fmt, ap);
    va_end(ap);
    return st;
}

static void test_wprintf_v_form(void **state)
{
    WCHAR out[16];
    (void)state;
    assert_int_equal(vformat(out, 16, WK_WTEXT("%s-%u"), WK_WTEXT("node"), 3u), STATUS_SUCCESS);
    assert_string_equal(narrow(out), "node-3");
}

static void printf_null_format(void)
{
    WCHAR out[4];
    (void)RtlStringCbPrintfW(out, sizeof out, (PCWSTR)NULL);
}

static void test_wprintf_null_aborts(void **state)
{
    (void)state;
    assert_true(dies_with(printf_null_format, "KM-STR-001: RtlStringCbPrintfW"));
}

/* ------------------------------------------------------------------------ */
/* MDL mappings                                                              */
/* ------------------------------------------------------------------------ */

static unsigned char mdl_pages[2 * PAGE_SIZE];
static int mdl_map_calls;
static int mdl_map_fails;

/* The kit's mapping hook, as VidMm installs one. */
static VOID *test_mdl_map(MDL *mdl)
{
    (void)mdl;
    mdl_map_calls++;
    return mdl_map_fails ? NULL : (VOID *)mdl_pages;
}

static void mdl_init(MDL *mdl)
{
    memset(mdl, 0, sizeof *mdl);
    mdl->wk_byte_count = sizeof mdl_pages;
    mdl->wk_page_count = 2;
    mdl->wk_map = test_mdl_map;
    mdl->MdlFlags = MDL_PAGES_LOCKED;
    mdl_map_calls = 0;
    mdl_map_fails = 0;
}

static void test_mdl_map_unmap(void **state)
{
    MDL mdl;
    PVOID va;
    (void)state;
    mdl_init(&mdl);
    va = MmMapLockedPagesSpecifyCache(&mdl, KernelMode, MmCached, NULL, FALSE, NormalPagePriority);
    assert_ptr_equal(va, mdl_pages);
    assert_true(mdl.MdlFlags & MDL_MAPPED_TO_SYSTEM_VA);
    assert_ptr_equal(MmGetSystemAddressForMdlSafe(&mdl, NormalPagePriority), va);
    /* unmapping clears the flag and keeps the kit's mapping */
    MmUnmapLockedPages(va, &mdl);
    assert_false(mdl.MdlFlags & MDL_MAPPED_TO_SYSTEM_VA);
    assert_true(mdl.MdlFlags & MDL_PAGES_LOCKED);
    assert_ptr_equal(mdl.wk_mapped_va, mdl_pages);
    /* RosKmd's sequence: remember the flag, map, use, unmap if it was clear */
    {
        CSHORT saved = mdl.MdlFlags;
        unsigned char *p = (unsigned char *)MmGetSystemAddressForMdlSafe(&mdl, NormalPagePriority);
        assert_ptr_equal(p, mdl_pages);
        p[PAGE_SIZE] = 0x5A;
        if (!(saved & MDL_MAPPED_TO_SYSTEM_VA))
            MmUnmapLockedPages(p, &mdl);
        assert_int_equal(mdl_pages[PAGE_SIZE], 0x5A);
    }
    assert_int_equal(mdl_map_calls, 1); /* mapped once, reused */
    /* user-mode mappings are not modelled */
    assert_null(MmMapLockedPagesSpecifyCache(&mdl, UserMode, MmCached, NULL, FALSE,
                                             NormalPagePriority));
    /* a failing mapping without BugCheckOnFailure: NULL */
    mdl_init(&mdl);
    mdl_map_fails = 1;
    assert_null(MmMapLockedPagesSpecifyCache(&mdl, KernelMode, MmNonCached, NULL, FALSE,
                                             HighPagePriority));
    assert_false(mdl.MdlFlags & MDL_MAPPED_TO_SYSTEM_VA);
}

static void unmap_wrong_address(void)
{
    MDL mdl;
    mdl_init(&mdl);
    (void)MmGetSystemAddressForMdlSafe(&mdl, NormalPagePriority);
    MmUnmapLockedPages(mdl_pages + 16, &mdl);
}

static void unmap_twice(void)
{
    MDL mdl;
    PVOID va;
    mdl_init(&mdl);
    va = MmGetSystemAddressForMdlSafe(&mdl, NormalPagePriority);
    MmUnmapLockedPages(va, &mdl);
    MmUnmapLockedPages(va, &mdl);
}

static void map_fails_with_bugcheck(void)
{
    MDL mdl;
    mdl_init(&mdl);
    mdl_map_fails = 1;
    (void)MmMapLockedPagesSpecifyCache(&mdl, KernelMode, MmCached, NULL, TRUE, NormalPagePriority);
}

static void test_mdl_misuse_aborts(void **state)
{
    (void)state;
    assert_true(dies_with(unmap_wrong_address, "KM-MDL-001: MmUnmapLockedPages"));
    assert_true(dies_with(unmap_twice, "KM-MDL-001: MmUnmapLockedPages"));
    assert_true(dies_with(map_fails_with_bugcheck, "KM-MDL-001: MmMapLockedPagesSpecifyCache"));
}

/* ------------------------------------------------------------------------ */
/* KeBugCheckEx                                                              */
/* ------------------------------------------------------------------------ */

static void bugcheck_ex(void)
{
    KeBugCheckEx(0xEA, 1, 2, 3, (ULONG_PTR)0xFFFF800000001234ull);
}

static void bugcheck(void)
{
    KeBugCheck(0x7E);
}

static void test_bugcheck_aborts(void **state)
{
    (void)state;
    assert_true(dies_with(bugcheck_ex, "KM-BUGCHECK-001: KeBugCheckEx(0x000000EA, 0x1, 0x2, 0x3, "
                                       "0xFFFF800000001234)"));
    assert_true(dies_with(bugcheck, "KM-BUGCHECK-001: KeBugCheckEx(0x0000007E, 0x0, 0x0, 0x0, 0x0)"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_d3dddiformat_values),
        cmocka_unit_test(test_dxgi_format_values),
        cmocka_unit_test(test_queryadapterinfotype_values),
        cmocka_unit_test(test_power_runtime_component),
        cmocka_unit_test(test_kernel_names),
        cmocka_unit_test(test_wprintf_conversions),
        cmocka_unit_test(test_wprintf_statuses),
        cmocka_unit_test(test_wprintf_v_form),
        cmocka_unit_test(test_wprintf_null_aborts),
        cmocka_unit_test(test_mdl_map_unmap),
        cmocka_unit_test(test_mdl_misuse_aborts),
        cmocka_unit_test(test_bugcheck_aborts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

#endif /* WK_WDK_NAMES_TU2 */
