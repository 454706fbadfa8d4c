/* SPDX-License-Identifier: MIT */
/*
 * wddmkit/km.h - the kernel-mode API subset a display miniport's DDI code
 * calls, rebuilt on the C library so that code compiles on Linux unchanged.
 *
 * What it covers: annotation and helper macros (SAL, NT_ASSERT, C_ASSERT,
 * FIELD_OFFSET), the Rtl memory routines, tagged pool allocation, IRQL, spin
 * locks, mutexes, events, DPC objects, interlocked operations and barriers,
 * the LIST_ENTRY and SINGLE_LIST_ENTRY routines, MDL mapping and the page
 * arithmetic macros, DbgPrint, KeBugCheckEx, and a compile-only stand-in for
 * __try/__except; and, in the headers included at its end, strings, GUIDs
 * and the ntstrsafe routines (kmstring.h), contiguous memory, I/O space,
 * MmGetPhysicalAddress and the register accessors (kmmemory.h), system
 * threads, object references, handles, clocks and IoGetDeviceProperty
 * (kmthread.h), and registry reads (kmregistry.h, through kmthread.h). What
 * a miniport calls beyond that is absent, so a port
 * fails at compile time rather than at run time against a guess
 * (docs/writing-a-driver.md lists what the kit models).
 *
 * Shape. Header only: every routine is a static inline function, so a driver
 * object needs no symbol from any wddmkit library and several translation
 * units (C and C++) may include it. Where a routine needs the kit - to end a
 * DDI call as a named rule, to count pool blocks by tag for the leak check
 * at teardown, to run a DPC at the kit's DPC point - it calls the kit
 * through a table of services the kit hands the driver at DxgkInitialize
 * (kmservices.h); without a kit it does without (a misuse aborts, a DPC runs
 * at once). Global state: the services pointer and one per-thread value, the
 * modelled IRQL (see "IRQL" below for why it cannot be avoided and how it
 * is shared). Locks carry their own state.
 *
 * Stricter than Windows on purpose. Misuse that crashes or hangs a Windows
 * machine - freeing pool with the wrong tag, a double free, taking a spin
 * lock twice on one thread, releasing a lock or mutex that is not held,
 * waiting or touching paged pool at raised IRQL, a corrupt list - is
 * detected here: one line on stderr that starts with a rule ID (KM-POOL-001
 * ...), then the kit ends the DDI call and reports that rule
 * (docs/contract-rules.md lists them); with no kit, or on a thread of the
 * driver's own, the process aborts after the line. NT_ASSERT and ASSERT are
 * always compiled in, for the same reason (their line starts "NT_ASSERT
 * failed:" / "ASSERT failed:" and the rule is DRV-ASSERT-001). New pool
 * memory is filled with 0xCD and freed memory with 0xDD so that reads of
 * uninitialised or stale memory show up.
 *
 * Porting notes. The header needs GCC or Clang (it uses __atomic builtins,
 * __thread and format attributes). `#pragma alloc_text` and `code_seg` are
 * unknown to them and -Wall reports them: build driver sources with
 * -Wno-unknown-pragmas (and -Wno-multichar for pool tags written 'Tag1').
 * For C++ sources see the notes at the SAL 1 and SEH
 * macros: libstdc++ uses the names __in, __out and __try itself. C++
 * drivers include wddmkit/kmcpp.h for operator new and delete over the
 * pool below.
 *
 * Valid C11 and C++11 (checked as C++17 too), warning-free with -Wall -Wextra.
 */
#ifndef WDDMKIT_KM_H
#define WDDMKIT_KM_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sched.h>
#include <pthread.h>

#include "wddmkit/d3dkmddi.h"
#include "wddmkit/kmservices.h"

#if !defined(__GNUC__)
#error "wddmkit/km.h needs GCC or Clang (__atomic builtins, __thread, attributes)"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* p with its origin hidden from the optimiser (kmstring.h, kmmemory.h and
 * kmthread.h use it). After inlining, GCC checks an access against the
 * object the pointer came from even on paths the kit's own checks have
 * ruled out (a misuse that aborts first), and warns (-Warray-bounds,
 * -Wnonnull) in the driver's build. Costs nothing at run time. */
static inline void *wk_km_opaque(const void *p)
{
    void *q = (void *)(uintptr_t)p;
    __asm__("" : "+r"(q));
    return q;
}

/* ------------------------------------------------------------------------ */
/* Annotations: SAL and the old IN/OUT words compile to nothing              */
/* ------------------------------------------------------------------------ */

/* SAL 2 parameter and function annotations. They only feed the Windows code
 * analyser, so they expand to nothing; each is guarded so a driver that
 * brings its own definitions keeps them. */
#ifndef _In_
#define _In_
#endif
#ifndef _Out_
#define _Out_
#endif
#ifndef _Inout_
#define _Inout_
#endif
#ifndef _In_opt_
#define _In_opt_
#endif
#ifndef _Out_opt_
#define _Out_opt_
#endif
#ifndef _Inout_opt_
#define _Inout_opt_
#endif
#ifndef _In_z_
#define _In_z_
#endif
#ifndef _In_reads_
#define _In_reads_(n)
#endif
#ifndef _In_reads_opt_
#define _In_reads_opt_(n)
#endif
#ifndef _In_reads_bytes_
#define _In_reads_bytes_(n)
#endif
#ifndef _In_reads_bytes_opt_
#define _In_reads_bytes_opt_(n)
#endif
#ifndef _Out_writes_
#define _Out_writes_(n)
#endif
#ifndef _Out_writes_opt_
#define _Out_writes_opt_(n)
#endif
#ifndef _Out_writes_bytes_
#define _Out_writes_bytes_(n)
#endif
#ifndef _Out_writes_bytes_opt_
#define _Out_writes_bytes_opt_(n)
#endif
#ifndef _Out_writes_to_
#define _Out_writes_to_(n, c)
#endif
#ifndef _Out_writes_bytes_to_
#define _Out_writes_bytes_to_(n, c)
#endif
#ifndef _Inout_updates_
#define _Inout_updates_(n)
#endif
#ifndef _Inout_updates_bytes_
#define _Inout_updates_bytes_(n)
#endif
#ifndef _Outptr_
#define _Outptr_
#endif
#ifndef _Outptr_opt_
#define _Outptr_opt_
#endif
#ifndef _Outptr_result_maybenull_
#define _Outptr_result_maybenull_
#endif
#ifndef _Ret_maybenull_
#define _Ret_maybenull_
#endif
#ifndef _Must_inspect_result_
#define _Must_inspect_result_
#endif
#ifndef _Check_return_
#define _Check_return_
#endif
#ifndef _Success_
#define _Success_(x)
#endif
#ifndef _IRQL_requires_
#define _IRQL_requires_(x)
#endif
#ifndef _IRQL_requires_max_
#define _IRQL_requires_max_(x)
#endif
#ifndef _IRQL_requires_min_
#define _IRQL_requires_min_(x)
#endif
#ifndef _IRQL_raises_
#define _IRQL_raises_(x)
#endif
#ifndef _IRQL_saves_
#define _IRQL_saves_
#endif
#ifndef _IRQL_restores_
#define _IRQL_restores_
#endif
#ifndef _Requires_lock_held_
#define _Requires_lock_held_(x)
#endif
#ifndef _Acquires_lock_
#define _Acquires_lock_(x)
#endif
#ifndef _Releases_lock_
#define _Releases_lock_(x)
#endif
#ifndef _Function_class_
#define _Function_class_(x)
#endif
#ifndef _Use_decl_annotations_
#define _Use_decl_annotations_
#endif
#ifndef _When_
#define _When_(a, b)
#endif
#ifndef _Field_size_
#define _Field_size_(n)
#endif
#ifndef _Field_size_bytes_
#define _Field_size_bytes_(n)
#endif

/* Pre-SAL direction words and calling conventions. CONST keeps its Windows
 * meaning (const), not nothing, so const-correct code stays const-correct. */
#ifndef IN
#define IN
#endif
#ifndef OUT
#define OUT
#endif
#ifndef OPTIONAL
#define OPTIONAL
#endif
#ifndef CONST
#define CONST const
#endif
#ifndef NTAPI
#define NTAPI
#endif
#ifndef APIENTRY
#define APIENTRY
#endif
#ifndef __stdcall
#define __stdcall
#endif
#ifndef __cdecl
#define __cdecl
#endif
#ifndef CALLBACK
#define CALLBACK
#endif

/* MSVC's spellings (added): __forceinline is an inline request,
 * __pragma(x) the operator form of #pragma (dropped: MSVC pragmas mean
 * nothing to GCC), __control_entrypoint an annotation, _ReturnAddress()
 * the compiler builtin. */
#ifndef __forceinline
#define __forceinline inline __attribute__((always_inline))
#endif
#ifndef __pragma
#define __pragma(x)
#endif
#ifndef __control_entrypoint
#define __control_entrypoint(category)
#endif
#ifndef _ReturnAddress
#define _ReturnAddress() __builtin_return_address(0)
#endif

/* The names Windows headers give anonymous members, for compilers without
 * them; GCC and Clang have anonymous structs and unions, so they are
 * empty, as Windows defines them there (added). */
#ifndef DUMMYSTRUCTNAME
#define DUMMYSTRUCTNAME
#define DUMMYSTRUCTNAME2
#define DUMMYSTRUCTNAME3
#define DUMMYSTRUCTNAME4
#define DUMMYSTRUCTNAME5
#endif
#ifndef DUMMYUNIONNAME
#define DUMMYUNIONNAME
#define DUMMYUNIONNAME2
#define DUMMYUNIONNAME3
#define DUMMYUNIONNAME4
#define DUMMYUNIONNAME5
#endif

/*
 * SAL 1 (__in, __out, __inout): on by default in C, off in C++. libstdc++
 * uses these three names for its own parameters (<utility>, <string>,
 * <vector>, ...), so once they are empty macros every standard C++ header
 * included after km.h fails to compile. A C++ driver that uses them defines
 * WK_KM_LEGACY_SAL=1 and includes its standard headers before km.h; C code
 * may define WK_KM_LEGACY_SAL=0 to keep the names free.
 */
#ifndef WK_KM_LEGACY_SAL
#ifdef __cplusplus
#define WK_KM_LEGACY_SAL 0
#else
#define WK_KM_LEGACY_SAL 1
#endif
#endif
#if WK_KM_LEGACY_SAL
#ifndef __in
#define __in
#endif
#ifndef __out
#define __out
#endif
#ifndef __inout
#define __inout
#endif
#endif

/*
 * FORCEINLINE is a request, not a contract; on Linux it becomes an ordinary
 * inline that every translation unit may define. In C that has to be
 * `static inline` (a plain C99 inline function may not call the static
 * functions of this header), so C code must not write `static FORCEINLINE`.
 */
#ifndef FORCEINLINE
#ifdef __cplusplus
#define FORCEINLINE inline
#else
#define FORCEINLINE static inline
#endif
#endif

#ifndef TRUE
#define TRUE 1
#endif
#ifndef FALSE
#define FALSE 0
#endif

/* ------------------------------------------------------------------------ */
/* Types                                                                     */
/* ------------------------------------------------------------------------ */

/* Windows widths for the types the routines below take. A typedef may be
 * repeated with the same type in C11 and C++, so another wddmkit header that
 * also names one of these stays compatible. */
typedef char CHAR;
typedef char CCHAR;
typedef char *PCHAR;
typedef char *PSTR;
typedef const char *PCSTR;
typedef UCHAR *PUCHAR;
typedef BYTE *PBYTE;           /* (added) */
typedef INT BOOL, *PBOOL;      /* the Win32 4-byte boolean (added); BOOLEAN is the kernel's */
typedef SHORT *PSHORT;         /* (added) */
typedef ULONGLONG *PULONGLONG; /* (added) */
typedef PFN_NUMBER *PPFN_NUMBER; /* (added) */
#ifndef MAXULONG
#define MAXULONG 0xFFFFFFFFu /* (added, as the rest of ntdef.h's limits) */
#define MAXLONG 0x7FFFFFFF
#define MAXUSHORT 0xFFFFu
#define MAXUCHAR 0xFFu
#define MAXULONGLONG (~(ULONGLONG)0)
#define MAXLONGLONG ((LONGLONG)(MAXULONGLONG >> 1))
#endif

/* C linkage for declarations shared with C++, as ntdef.h spells it (added). */
#ifndef EXTERN_C
#ifdef __cplusplus
#define EXTERN_C extern "C"
#define EXTERN_C_START extern "C" {
#define EXTERN_C_END }
#else
#define EXTERN_C extern
#define EXTERN_C_START
#define EXTERN_C_END
#endif
#endif
typedef USHORT *PUSHORT;
typedef ULONG *PULONG;
typedef LONG *PLONG;
typedef int64_t LONG64;
typedef LONG64 *PLONG64;
typedef uint64_t ULONG_PTR; /* pointer-sized, as on x64 Windows */
typedef int64_t LONG_PTR;
typedef SIZE_T *PSIZE_T;
typedef BOOLEAN *PBOOLEAN;
typedef LARGE_INTEGER *PLARGE_INTEGER;

#ifndef STATUS_TIMEOUT
#define STATUS_TIMEOUT WK_NTSTATUS(0x00000102u)
#endif

/* wdm.h's file object (added): only ever handled through a pointer, so it
 * stays incomplete; the kit creates none. */
typedef struct _FILE_OBJECT FILE_OBJECT, *PFILE_OBJECT;

/* The generic access rights of an ACCESS_MASK (added; winnt.h / wdm.h
 * values): ZwCreateFile, IoGetDeviceObjectPointer, ObReferenceObjectByHandle. */
#ifndef GENERIC_READ
#define GENERIC_READ 0x80000000u
#define GENERIC_WRITE 0x40000000u
#define GENERIC_EXECUTE 0x20000000u
#define GENERIC_ALL 0x10000000u
#endif

/* ------------------------------------------------------------------------ */
/* Helper macros                                                             */
/* ------------------------------------------------------------------------ */

/* A build-time check, at file or block scope. */
#ifndef C_ASSERT
#define C_ASSERT(e) WK_STATIC_ASSERT(e, "C_ASSERT(" #e ")")
#endif

#ifndef UNREFERENCED_PARAMETER
#define UNREFERENCED_PARAMETER(P) ((void)(P))
#endif

/* Pageable code runs at IRQL <= APC_LEVEL: Windows checked builds assert
 * it here, and a free build faults when the page is out (changed: it was
 * empty; the kit calls SubmitCommand, the interrupt and DPC routines at
 * their raised IRQLs, where a PAGED_CODE() is the driver's bug). A
 * failure is KM-IRQL-003. */
#ifndef PAGED_CODE
#define PAGED_CODE() wk_km_require_irql(APC_LEVEL, "PAGED_CODE()", " (pageable code)")
#endif

/* Byte offset of a field, as a LONG like the Windows macro. */
#ifndef FIELD_OFFSET
#define FIELD_OFFSET(type, field) ((LONG)offsetof(type, field))
#endif

/* The struct that contains `field` at `address`. */
#ifndef CONTAINING_RECORD
#define CONTAINING_RECORD(address, type, field) \
    ((type *)((char *)(address) - offsetof(type, field)))
#endif

/* Element count of a true array (a pointer argument gives a wrong answer,
 * as on Windows in C). */
#ifndef RTL_NUMBER_OF
#define RTL_NUMBER_OF(A) (sizeof(A) / sizeof((A)[0]))
#endif
#ifndef ARRAYSIZE
#define ARRAYSIZE(A) RTL_NUMBER_OF(A)
#endif

/* min and max are not defined: as macros they break C++ (std::min). */

/* ------------------------------------------------------------------------ */
/* Diagnostics and assertions                                                */
/* ------------------------------------------------------------------------ */

/* Reports a driver bug the kit detected (changed): prints the line, then
 * the kit ends the DDI call as a violation of the rule the line names
 * (kmservices.h, Fail: KM-POOL-001, DRV-ASSERT-001 for a failed assertion
 * ...). With no kit, or on a thread of the driver's own where no DDI call
 * runs, the process aborts: the kit's isolation reports the crash with
 * this line attached. */
static inline __attribute__((noreturn, format(printf, 1, 2))) void
wk_km_fail(const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", line);
    fflush(stderr);
    if (WK_KM_SERVICE(Fail))
        wk_km_services->Fail(line);
    abort();
}

/* The failure path of NT_ASSERT and friends (msg may be NULL). */
static inline __attribute__((noreturn)) void
wk_km_assert_failed(const char *macro, const char *expr, const char *msg, const char *file,
                    int line)
{
    if (msg)
        wk_km_fail("%s failed: %s at %s:%d (%s)", macro, expr, file, line, msg);
    wk_km_fail("%s failed: %s at %s:%d", macro, expr, file, line);
}

/*
 * NT_ASSERT(e): when e is false, prints "NT_ASSERT failed: e at file:line"
 * and ends the DDI call as DRV-ASSERT-001 with that line (changed: it
 * aborted the process; it still does with no kit). Always compiled in: on Windows a free build drops it, but in
 * the kit a failed assertion is exactly the driver bug a run should report.
 * (Side effects in e therefore happen here even where a free build would
 * skip them.)
 */
#ifndef NT_ASSERT
#define NT_ASSERT(e) \
    ((e) ? (void)0 : wk_km_assert_failed("NT_ASSERT", #e, NULL, __FILE__, __LINE__))
#endif
/* NT_ASSERTMSG(msg, e): NT_ASSERT with a message string appended. */
#ifndef NT_ASSERTMSG
#define NT_ASSERTMSG(msg, e) \
    ((e) ? (void)0 : wk_km_assert_failed("NT_ASSERT", #e, (msg), __FILE__, __LINE__))
#endif
/* NT_VERIFY(e): NT_ASSERT that also yields e's truth as a BOOLEAN. */
#ifndef NT_VERIFY
#define NT_VERIFY(e)                                                                   \
    ((BOOLEAN)((e) ? 1                                                                 \
                   : (wk_km_assert_failed("NT_VERIFY", #e, NULL, __FILE__, __LINE__), \
                      0)))
#endif
/* ASSERT(e): the older spelling, same behaviour. */
#ifndef ASSERT
#define ASSERT(e) ((e) ? (void)0 : wk_km_assert_failed("ASSERT", #e, NULL, __FILE__, __LINE__))
#endif

/*
 * KeBugCheckEx (added; wdm.h): Windows stops the machine with the bug check
 * code and its four parameters. The kit ends the DDI call instead, as rule
 * KM-BUGCHECK-001, with the line
 *
 *     KM-BUGCHECK-001: KeBugCheckEx(0x000000EA, 0x1, 0x2, 0x3, 0x4): the driver
 *     stopped the system
 *
 * (one line; codes in hex, the code 8 digits as WinDbg prints it); with no
 * kit, or on a thread of the driver's own, the process aborts after the
 * line, as every km.h failure does (wk_km_fail). Never returns. KeBugCheck
 * is the same with its parameters 0.
 */
static inline __attribute__((noreturn)) VOID KeBugCheckEx(ULONG BugCheckCode,
                                                          ULONG_PTR BugCheckParameter1,
                                                          ULONG_PTR BugCheckParameter2,
                                                          ULONG_PTR BugCheckParameter3,
                                                          ULONG_PTR BugCheckParameter4)
{
    wk_km_fail("KM-BUGCHECK-001: KeBugCheckEx(0x%08X, 0x%llX, 0x%llX, 0x%llX, 0x%llX): the "
               "driver stopped the system",
               (unsigned)BugCheckCode, (unsigned long long)BugCheckParameter1,
               (unsigned long long)BugCheckParameter2, (unsigned long long)BugCheckParameter3,
               (unsigned long long)BugCheckParameter4);
}

/* KeBugCheckEx with four zero parameters. */
static inline __attribute__((noreturn)) VOID KeBugCheck(ULONG BugCheckCode)
{
    KeBugCheckEx(BugCheckCode, 0, 0, 0, 0);
}

/* ------------------------------------------------------------------------ */
/* Rtl memory routines                                                       */
/* ------------------------------------------------------------------------ */
/* Each skips the C call for a zero length, so a NULL pointer with length 0
 * (legal in Windows code) is not undefined behaviour here. */

/* Sets Length bytes to zero. */
static inline VOID RtlZeroMemory(VOID *Destination, SIZE_T Length)
{
    if (Length)
        memset(Destination, 0, Length);
}

/* Copies Length bytes between non-overlapping ranges (memcpy). */
static inline VOID RtlCopyMemory(VOID *Destination, const VOID *Source, SIZE_T Length)
{
    if (Length)
        memcpy(Destination, Source, Length);
}

/* Copies Length bytes; the ranges may overlap (memmove). */
static inline VOID RtlMoveMemory(VOID *Destination, const VOID *Source, SIZE_T Length)
{
    if (Length)
        memmove(Destination, Source, Length);
}

/* Sets Length bytes to Fill. */
static inline VOID RtlFillMemory(VOID *Destination, SIZE_T Length, UCHAR Fill)
{
    if (Length)
        memset(Destination, Fill, Length);
}

/* Number of leading bytes that are equal (Length when all are). */
static inline SIZE_T RtlCompareMemory(const VOID *Source1, const VOID *Source2, SIZE_T Length)
{
    const UCHAR *a = (const UCHAR *)Source1;
    const UCHAR *b = (const UCHAR *)Source2;
    SIZE_T n = 0;
    while (n < Length && a[n] == b[n])
        n++;
    return n;
}

/* TRUE when the two ranges hold the same bytes. */
static inline BOOLEAN RtlEqualMemory(const VOID *Source1, const VOID *Source2, SIZE_T Length)
{
    return (BOOLEAN)(Length == 0 || memcmp(Source1, Source2, Length) == 0);
}

/* ------------------------------------------------------------------------ */
/* IRQL                                                                      */
/* ------------------------------------------------------------------------ */

typedef UCHAR KIRQL;
typedef KIRQL *PKIRQL;

#define PASSIVE_LEVEL 0
#define LOW_LEVEL 0
#define APC_LEVEL 1
#define DISPATCH_LEVEL 2
#define HIGH_LEVEL 15

/*
 * What is modelled. Each thread has an IRQL, PASSIVE_LEVEL at start. It is
 * raised by KeRaiseIrql, KeAcquireSpinLock (to DISPATCH_LEVEL) and
 * ExAcquireFastMutex (to APC_LEVEL), and lowered by their counterparts to the
 * value they return. The *AtDpcLevel spin-lock variants leave it alone. The
 * kit sets it around its DDI calls to the IRQL Windows calls them at
 * (docs/verdicts.md): SubmitCommand and the DPC routine at DISPATCH_LEVEL,
 * the interrupt routine and DxgkCbSynchronizeExecution's routine at the
 * device's IRQL (5 here), the rest at PASSIVE_LEVEL. Interrupts are not masked: the value only answers KeGetCurrentIrql and
 * drives the checks (no waits and no paged pool above APC_LEVEL, nothing
 * above DISPATCH_LEVEL), which catch the IRQL bugs Windows bug-checks for.
 *
 * Why state at all: "which locks does this thread hold" cannot be answered
 * from the locks. The value is the header's one exception to "no global
 * state" (with the kit's services pointer, kmservices.h): a __thread byte, weak so every translation unit of the module (C
 * or C++) shares a single definition, hidden so a driver shared object and
 * the kit never see each other's.
 */
/* wk_km_thread_irql itself is in kmservices.h, so that DxgkInitialize
 * can set it back to PASSIVE_LEVEL. */
WK_STATIC_ASSERT(sizeof(wk_km_thread_irql) == sizeof(KIRQL), "the IRQL variable holds a KIRQL");

/* The calling thread's modelled IRQL. */
static inline KIRQL KeGetCurrentIrql(void)
{
    return wk_km_thread_irql;
}

/* Raises the thread's IRQL to NewIrql, returning the old one; lowering
 * through it is a driver bug (Windows bug-checks). */
static inline VOID KeRaiseIrql(KIRQL NewIrql, PKIRQL OldIrql)
{
    KIRQL cur = wk_km_thread_irql;
    if (NewIrql < cur)
        wk_km_fail("KM-IRQL-001: KeRaiseIrql(%u) below the current IRQL %u", (unsigned)NewIrql,
                   (unsigned)cur);
    *OldIrql = cur;
    wk_km_thread_irql = NewIrql;
}

/* Lowers the thread's IRQL to NewIrql; raising through it is a driver bug. */
static inline VOID KeLowerIrql(KIRQL NewIrql)
{
    KIRQL cur = wk_km_thread_irql;
    if (NewIrql > cur)
        wk_km_fail("KM-IRQL-002: KeLowerIrql(%u) above the current IRQL %u", (unsigned)NewIrql,
                   (unsigned)cur);
    wk_km_thread_irql = NewIrql;
}

/* Aborts when the thread's IRQL is above max; api and what (may be "")
 * name the call in the message. */
static inline void wk_km_require_irql(KIRQL max, const char *api, const char *what)
{
    KIRQL cur = wk_km_thread_irql;
    if (cur > max)
        wk_km_fail("KM-IRQL-003: %s%s called at IRQL %u; it requires IRQL <= %u", api, what,
                   (unsigned)cur, (unsigned)max);
}

/* ------------------------------------------------------------------------ */
/* Interlocked operations and barriers                                       */
/* ------------------------------------------------------------------------ */
/* All are sequentially consistent, as the Windows ones are full barriers. */

/* Adds one; returns the new value. */
static inline LONG InterlockedIncrement(LONG volatile *Addend)
{
    return __atomic_add_fetch(Addend, 1, __ATOMIC_SEQ_CST);
}

/* Subtracts one; returns the new value. */
static inline LONG InterlockedDecrement(LONG volatile *Addend)
{
    return __atomic_sub_fetch(Addend, 1, __ATOMIC_SEQ_CST);
}

/* Stores Value; returns the previous value. */
static inline LONG InterlockedExchange(LONG volatile *Target, LONG Value)
{
    return __atomic_exchange_n(Target, Value, __ATOMIC_SEQ_CST);
}

/* Stores Exchange if *Destination equals Comperand; returns the previous value. */
static inline LONG InterlockedCompareExchange(LONG volatile *Destination, LONG Exchange,
                                              LONG Comperand)
{
    __atomic_compare_exchange_n(Destination, &Comperand, Exchange, 0, __ATOMIC_SEQ_CST,
                                __ATOMIC_SEQ_CST);
    return Comperand;
}

/* Adds Value; returns the new value. */
static inline LONG InterlockedAdd(LONG volatile *Addend, LONG Value)
{
    return __atomic_add_fetch(Addend, Value, __ATOMIC_SEQ_CST);
}

/* Adds Value; returns the previous value. */
static inline LONG InterlockedExchangeAdd(LONG volatile *Addend, LONG Value)
{
    return __atomic_fetch_add(Addend, Value, __ATOMIC_SEQ_CST);
}

/* 64-bit InterlockedIncrement. */
static inline LONG64 InterlockedIncrement64(LONG64 volatile *Addend)
{
    return __atomic_add_fetch(Addend, 1, __ATOMIC_SEQ_CST);
}

/* 64-bit InterlockedDecrement. */
static inline LONG64 InterlockedDecrement64(LONG64 volatile *Addend)
{
    return __atomic_sub_fetch(Addend, 1, __ATOMIC_SEQ_CST);
}

/* 64-bit InterlockedExchange. */
static inline LONG64 InterlockedExchange64(LONG64 volatile *Target, LONG64 Value)
{
    return __atomic_exchange_n(Target, Value, __ATOMIC_SEQ_CST);
}

/* 64-bit InterlockedCompareExchange. */
static inline LONG64 InterlockedCompareExchange64(LONG64 volatile *Destination, LONG64 Exchange,
                                                  LONG64 Comperand)
{
    __atomic_compare_exchange_n(Destination, &Comperand, Exchange, 0, __ATOMIC_SEQ_CST,
                                __ATOMIC_SEQ_CST);
    return Comperand;
}

/* 64-bit InterlockedAdd (returns the new value). */
static inline LONG64 InterlockedAdd64(LONG64 volatile *Addend, LONG64 Value)
{
    return __atomic_add_fetch(Addend, Value, __ATOMIC_SEQ_CST);
}

/* 64-bit InterlockedExchangeAdd (returns the previous value). */
static inline LONG64 InterlockedExchangeAdd64(LONG64 volatile *Addend, LONG64 Value)
{
    return __atomic_fetch_add(Addend, Value, __ATOMIC_SEQ_CST);
}

/* Stores a pointer; returns the previous one. */
static inline PVOID InterlockedExchangePointer(PVOID volatile *Target, PVOID Value)
{
    return __atomic_exchange_n(Target, Value, __ATOMIC_SEQ_CST);
}

/* Stores Exchange if *Destination equals Comperand; returns the previous pointer. */
static inline PVOID InterlockedCompareExchangePointer(PVOID volatile *Destination,
                                                      PVOID Exchange, PVOID Comperand)
{
    __atomic_compare_exchange_n(Destination, &Comperand, Exchange, 0, __ATOMIC_SEQ_CST,
                                __ATOMIC_SEQ_CST);
    return Comperand;
}

/* Full hardware and compiler memory barrier. */
static inline VOID KeMemoryBarrier(void)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* Compiler-only barriers: no reordering across them, no fence instruction. */
#ifndef KeMemoryBarrierWithoutFence
#define KeMemoryBarrierWithoutFence() __atomic_signal_fence(__ATOMIC_SEQ_CST)
#endif
#ifndef _ReadWriteBarrier
#define _ReadWriteBarrier() __atomic_signal_fence(__ATOMIC_SEQ_CST)
#endif

/* Windows busy-waits for MicroSeconds. The kit returns at once: the GPU
 * model answers synchronously, so a polling loop gains nothing from real
 * time passing, and fuzzing throughput would lose a lot. */
static inline VOID KeStallExecutionProcessor(ULONG MicroSeconds)
{
    (void)MicroSeconds;
}

/* ------------------------------------------------------------------------ */
/* Spin locks                                                                */
/* ------------------------------------------------------------------------ */

/* A spin lock is the Windows pointer-sized word. The kit stores the owning
 * thread in it (0 when free), which makes self-deadlock and foreign release
 * detectable for free. */
typedef ULONG_PTR KSPIN_LOCK;
typedef KSPIN_LOCK *PKSPIN_LOCK;

WK_STATIC_ASSERT(sizeof(pthread_t) <= sizeof(ULONG_PTR), "a thread id fits a KSPIN_LOCK");

/* The calling thread's id as a non-zero word. */
static inline ULONG_PTR wk_km_self(void)
{
    return (ULONG_PTR)pthread_self();
}

/* Takes *word for this thread, yielding while another thread holds it;
 * aborts if this thread already holds it (on Windows: a hung processor). */
static inline void wk_km_word_take(ULONG_PTR volatile *word, const char *api)
{
    ULONG_PTR self = wk_km_self();
    if (__atomic_load_n(word, __ATOMIC_RELAXED) == self)
        wk_km_fail("KM-LOCK-001: %s(%p): already held by this thread, which deadlocks", api,
                   (void *)(uintptr_t)word);
    for (;;) {
        ULONG_PTR expected = 0;
        if (__atomic_compare_exchange_n(word, &expected, self, 0, __ATOMIC_ACQUIRE,
                                        __ATOMIC_RELAXED))
            return;
        sched_yield();
    }
}

/* Releases *word; aborts unless this thread holds it. */
static inline void wk_km_word_give(ULONG_PTR volatile *word, const char *api)
{
    ULONG_PTR owner = __atomic_load_n(word, __ATOMIC_RELAXED);
    if (owner != wk_km_self())
        wk_km_fail("KM-LOCK-002: %s(%p): %s", api, (void *)(uintptr_t)word,
                   owner ? "held by another thread" : "not held");
    __atomic_store_n(word, (ULONG_PTR)0, __ATOMIC_RELEASE);
}

/* Sets a spin lock to free. */
static inline VOID KeInitializeSpinLock(PKSPIN_LOCK SpinLock)
{
    __atomic_store_n(SpinLock, (ULONG_PTR)0, __ATOMIC_RELEASE);
}

/* Raises to DISPATCH_LEVEL and takes the lock; *OldIrql receives the IRQL to
 * pass to KeReleaseSpinLock. */
static inline VOID KeAcquireSpinLock(PKSPIN_LOCK SpinLock, PKIRQL OldIrql)
{
    KIRQL old;
    wk_km_require_irql(DISPATCH_LEVEL, "KeAcquireSpinLock", "");
    wk_km_word_take(SpinLock, "KeAcquireSpinLock");
    old = wk_km_thread_irql;
    wk_km_thread_irql = DISPATCH_LEVEL;
    *OldIrql = old;
}

/* Releases the lock and lowers the IRQL to NewIrql. */
static inline VOID KeReleaseSpinLock(PKSPIN_LOCK SpinLock, KIRQL NewIrql)
{
    wk_km_word_give(SpinLock, "KeReleaseSpinLock");
    KeLowerIrql(NewIrql);
}

/* Takes the lock without changing the modelled IRQL (the caller is meant to
 * be at DISPATCH_LEVEL already; not checked, see "IRQL"). */
static inline VOID KeAcquireSpinLockAtDpcLevel(PKSPIN_LOCK SpinLock)
{
    wk_km_word_take(SpinLock, "KeAcquireSpinLockAtDpcLevel");
}

/* Releases a lock taken with KeAcquireSpinLockAtDpcLevel. */
static inline VOID KeReleaseSpinLockFromDpcLevel(PKSPIN_LOCK SpinLock)
{
    wk_km_word_give(SpinLock, "KeReleaseSpinLockFromDpcLevel");
}

/* ------------------------------------------------------------------------ */
/* Mutexes and waits                                                         */
/* ------------------------------------------------------------------------ */

/* Object type words: KeWaitForSingleObject tells objects apart by them, and
 * the release paths use them to catch uninitialised objects. */
#define WK_KM_OBJECT_MUTEX 0x584D4B57u      /* 'WKMX' */
#define WK_KM_OBJECT_FAST_MUTEX 0x464D4B57u /* 'WKMF' */

#define WK_KM_OBJECT_EVENT 0x564D4B57u      /* 'WKMV' (added) */

/* An event (added): a notification event stays signaled until reset; a
 * synchronization event releases one wait and resets itself. The layout
 * is the kit's, the size Windows x64's (24 bytes, its DISPATCHER_HEADER),
 * so a driver structure that embeds one keeps its size. */
typedef enum _EVENT_TYPE { NotificationEvent = 0, SynchronizationEvent = 1 } EVENT_TYPE;
typedef LONG KPRIORITY;
typedef struct _KEVENT {
    ULONG wk_type;       /* WK_KM_OBJECT_EVENT once initialised */
    EVENT_TYPE wk_kind;
    LONG volatile wk_state; /* 1 signaled */
    ULONG wk_reserved[3];
} KEVENT, *PKEVENT, *PRKEVENT;

/* A kernel mutex: recursive for its owner. The layout is the kit's. */
typedef struct _KMUTEX {
    ULONG wk_type;      /* WK_KM_OBJECT_MUTEX once initialised */
    LONG wk_recursion;  /* acquisitions by the owner not yet released */
    ULONG_PTR wk_owner; /* owning thread, 0 when free */
} KMUTEX, *PKMUTEX, *PRKMUTEX;

/* A fast mutex: not recursive; holding it raises the IRQL to APC_LEVEL. */
typedef struct _FAST_MUTEX {
    ULONG wk_type;       /* WK_KM_OBJECT_FAST_MUTEX once initialised */
    KIRQL wk_old_irql;   /* IRQL to restore on release */
    ULONG_PTR wk_owner;  /* owning thread, 0 when free */
} FAST_MUTEX, *PFAST_MUTEX;

typedef CCHAR KPROCESSOR_MODE;
typedef enum _MODE { KernelMode = 0, UserMode = 1, MaximumMode = 2 } MODE;

/* Why a thread waits; only bookkeeping on Windows, ignored by the kit. */
typedef enum _KWAIT_REASON {
    Executive = 0,
    FreePage = 1,
    PageIn = 2,
    PoolAllocation = 3,
    DelayExecution = 4,
    Suspended = 5,
    UserRequest = 6
} KWAIT_REASON;

/* Current time in 100 ns units since 1601-01-01 UTC (the Windows epoch). */
static inline LONGLONG wk_km_system_time(void)
{
    struct timespec ts;
    if (timespec_get(&ts, TIME_UTC) != TIME_UTC)
        return 0;
    return (LONGLONG)ts.tv_sec * 10000000 + ts.tv_nsec / 100 + 116444736000000000LL;
}

/* Sets a mutex to free (Level is a Windows ordering hint, ignored). */
static inline VOID KeInitializeMutex(PRKMUTEX Mutex, ULONG Level)
{
    (void)Level;
    Mutex->wk_recursion = 0;
    Mutex->wk_owner = 0;
    Mutex->wk_type = WK_KM_OBJECT_MUTEX;
}

/* One try at an event: a signaled one satisfies the wait, a
 * synchronization event resetting itself as it does. */
static inline int wk_km_event_take(PRKEVENT e)
{
    if (e->wk_kind == SynchronizationEvent) {
        LONG one = 1;
        return __atomic_compare_exchange_n(&e->wk_state, &one, 0, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
    }
    return __atomic_load_n(&e->wk_state, __ATOMIC_ACQUIRE) != 0;
}

/* One try at a mutex: free, or already this thread's. */
static inline int wk_km_mutex_take(PRKMUTEX m)
{
    ULONG_PTR self = wk_km_self(), expected = 0;
    if (__atomic_load_n(&m->wk_owner, __ATOMIC_RELAXED) == self ||
        __atomic_compare_exchange_n(&m->wk_owner, &expected, self, 0, __ATOMIC_ACQUIRE,
                                    __ATOMIC_RELAXED)) {
        m->wk_recursion++;
        return 1;
    }
    return 0;
}

/* The absolute time a Windows timeout ends at (100 ns units since 1601). */
static inline LONGLONG wk_km_deadline(const LARGE_INTEGER *Timeout)
{
    LONGLONG now = wk_km_system_time(), t = Timeout->QuadPart;
    return t >= 0 ? t : (t < now - INT64_MAX ? INT64_MAX : now - t);
}

/*
 * Waits for a mutex (KeInitializeMutex) or an event (KeInitializeEvent:
 * changed, events added); any other object returns STATUS_NOT_SUPPORTED,
 * as no other dispatcher object exists here. The owner re-acquires a mutex
 * at once. Timeout as on Windows: NULL waits forever, 0 tries once,
 * negative is relative and positive absolute, in 100 ns units; expiry
 * returns STATUS_TIMEOUT. A driver that waits forever on an event only its
 * own later code would set hangs, as on Windows, and the kit reports the
 * hang (DRV-HANG-001). A non-zero wait above APC_LEVEL aborts. WaitReason,
 * WaitMode and Alertable are ignored (nothing alerts a kit thread).
 */
static inline NTSTATUS KeWaitForSingleObject(PVOID Object, KWAIT_REASON WaitReason,
                                             KPROCESSOR_MODE WaitMode, BOOLEAN Alertable,
                                             PLARGE_INTEGER Timeout)
{
    ULONG type = 0;
    LONGLONG deadline = 0;
    (void)WaitReason;
    (void)WaitMode;
    (void)Alertable;
    /* Hide where Object came from: the compiler cannot know the type word
     * picks the branch, and would warn that the other branch reads past an
     * object of the other kind. */
    __asm__("" : "+r"(Object));
    if (Object) /* both objects start with their type word */
        memcpy(&type, Object, sizeof type);
    if (type != WK_KM_OBJECT_MUTEX && type != WK_KM_OBJECT_EVENT)
        return STATUS_NOT_SUPPORTED;
    if (!Timeout || Timeout->QuadPart != 0)
        wk_km_require_irql(APC_LEVEL, "KeWaitForSingleObject", " with a non-zero timeout");
    if (Timeout)
        deadline = wk_km_deadline(Timeout);
    for (;;) {
        if (type == WK_KM_OBJECT_EVENT ? wk_km_event_take((PRKEVENT)Object)
                                       : wk_km_mutex_take((PRKMUTEX)Object))
            return STATUS_SUCCESS;
        if (Timeout && wk_km_system_time() >= deadline)
            return STATUS_TIMEOUT;
        sched_yield();
    }
}

/* Releases one acquisition; the mutex is free after the last. Returns the
 * Windows "previous state": 0 when this release frees it, negative while
 * still owned. Wait is a Windows scheduling hint, ignored. Releasing a mutex
 * this thread does not own aborts (Windows raises STATUS_MUTANT_NOT_OWNED). */
static inline LONG KeReleaseMutex(PRKMUTEX Mutex, BOOLEAN Wait)
{
    LONG held;
    (void)Wait;
    if (Mutex->wk_type != WK_KM_OBJECT_MUTEX)
        wk_km_fail("KM-MUTEX-003: KeReleaseMutex(%p): not initialised by KeInitializeMutex",
                   (void *)Mutex);
    if (__atomic_load_n(&Mutex->wk_owner, __ATOMIC_RELAXED) != wk_km_self())
        wk_km_fail("KM-MUTEX-001: KeReleaseMutex(%p): not owned by this thread", (void *)Mutex);
    held = Mutex->wk_recursion--;
    if (held == 1)
        __atomic_store_n(&Mutex->wk_owner, (ULONG_PTR)0, __ATOMIC_RELEASE);
    return 1 - held;
}

/* Sets a fast mutex to free. */
static inline VOID ExInitializeFastMutex(PFAST_MUTEX FastMutex)
{
    FastMutex->wk_old_irql = PASSIVE_LEVEL;
    FastMutex->wk_owner = 0;
    FastMutex->wk_type = WK_KM_OBJECT_FAST_MUTEX;
}

/* Aborts unless FastMutex was initialised; api names the caller. */
static inline void wk_km_fast_mutex_check(PFAST_MUTEX FastMutex, const char *api)
{
    if (FastMutex->wk_type != WK_KM_OBJECT_FAST_MUTEX)
        wk_km_fail("KM-MUTEX-003: %s(%p): not initialised by ExInitializeFastMutex", api,
                   (void *)FastMutex);
}

/* Takes the fast mutex and raises to APC_LEVEL. Requires IRQL <= APC_LEVEL;
 * re-acquiring on the owning thread aborts (on Windows: a deadlock). */
static inline VOID ExAcquireFastMutex(PFAST_MUTEX FastMutex)
{
    wk_km_fast_mutex_check(FastMutex, "ExAcquireFastMutex");
    wk_km_require_irql(APC_LEVEL, "ExAcquireFastMutex", "");
    wk_km_word_take(&FastMutex->wk_owner, "ExAcquireFastMutex");
    FastMutex->wk_old_irql = wk_km_thread_irql;
    wk_km_thread_irql = APC_LEVEL;
}

/* Takes the fast mutex if it is free: TRUE when taken, as ExAcquireFastMutex. */
static inline BOOLEAN ExTryToAcquireFastMutex(PFAST_MUTEX FastMutex)
{
    ULONG_PTR expected = 0;
    wk_km_fast_mutex_check(FastMutex, "ExTryToAcquireFastMutex");
    wk_km_require_irql(APC_LEVEL, "ExTryToAcquireFastMutex", "");
    if (!__atomic_compare_exchange_n(&FastMutex->wk_owner, &expected, wk_km_self(), 0,
                                     __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
        return FALSE;
    FastMutex->wk_old_irql = wk_km_thread_irql;
    wk_km_thread_irql = APC_LEVEL;
    return TRUE;
}

/* Releases the fast mutex and restores the IRQL saved when it was taken;
 * aborts unless this thread holds it. */
static inline VOID ExReleaseFastMutex(PFAST_MUTEX FastMutex)
{
    KIRQL old = FastMutex->wk_old_irql;
    wk_km_fast_mutex_check(FastMutex, "ExReleaseFastMutex");
    wk_km_word_give(&FastMutex->wk_owner, "ExReleaseFastMutex");
    KeLowerIrql(old);
}

/* ------------------------------------------------------------------------ */
/* Events (added)                                                            */
/* ------------------------------------------------------------------------ */

/* Sets an event up, signaled or not. */
/* The priority boost KeSetEvent and IoCompleteRequest take: the kit's
 * scheduling is the host's, so the value is accepted and not used. */
#ifndef IO_NO_INCREMENT
#define IO_NO_INCREMENT 0
#endif

static inline VOID KeInitializeEvent(PRKEVENT Event, EVENT_TYPE Type, BOOLEAN State)
{
    Event->wk_type = WK_KM_OBJECT_EVENT;
    Event->wk_kind = Type;
    __atomic_store_n(&Event->wk_state, State ? 1 : 0, __ATOMIC_RELEASE);
}

static inline void wk_km_event_check(PRKEVENT Event, const char *api)
{
    if (!Event || Event->wk_type != WK_KM_OBJECT_EVENT)
        wk_km_fail("KM-EVENT-001: %s(%p): not initialised by KeInitializeEvent", api, (void *)Event);
}

/* Signals an event; returns its previous state. Increment and Wait are
 * Windows scheduling hints, ignored. */
static inline LONG KeSetEvent(PRKEVENT Event, KPRIORITY Increment, BOOLEAN Wait)
{
    (void)Increment;
    (void)Wait;
    wk_km_event_check(Event, "KeSetEvent");
    return __atomic_exchange_n(&Event->wk_state, 1, __ATOMIC_RELEASE);
}

/* Makes an event non-signaled; returns its previous state. */
static inline LONG KeResetEvent(PRKEVENT Event)
{
    wk_km_event_check(Event, "KeResetEvent");
    return __atomic_exchange_n(&Event->wk_state, 0, __ATOMIC_RELEASE);
}

static inline VOID KeClearEvent(PRKEVENT Event)
{
    wk_km_event_check(Event, "KeClearEvent");
    __atomic_store_n(&Event->wk_state, 0, __ATOMIC_RELEASE);
}

static inline LONG KeReadStateEvent(PRKEVENT Event)
{
    wk_km_event_check(Event, "KeReadStateEvent");
    return __atomic_load_n(&Event->wk_state, __ATOMIC_ACQUIRE);
}

/* ------------------------------------------------------------------------ */
/* DPC objects (added)                                                       */
/* ------------------------------------------------------------------------ */

/*
 * A deferred procedure call the driver queues from its interrupt routine or
 * a DDI. On Windows it runs at DISPATCH_LEVEL soon after, once the IRQL
 * drops; the kit runs it at its DPC point (after DxgkDdiInterruptRoutine
 * and DxgkDdiDpcRoutine, and before it stops the adapter), at
 * DISPATCH_LEVEL, inside a guarded call, in the order queued: the same run
 * on every run. With no kit (kmservices.h), or queued on a thread of the
 * driver's own, it runs at once. The layout is the kit's, the size the
 * Windows x64 KDPC's (64 bytes).
 */
#define WK_KM_OBJECT_DPC 0x434D4B57u /* 'WKMC' */

struct _KDPC;
typedef VOID KDEFERRED_ROUTINE(struct _KDPC *Dpc, PVOID DeferredContext, PVOID SystemArgument1,
                               PVOID SystemArgument2);
typedef KDEFERRED_ROUTINE *PKDEFERRED_ROUTINE;

typedef struct _KDPC {
    ULONG wk_type;          /* WK_KM_OBJECT_DPC once initialised */
    LONG volatile wk_queued; /* 1 from KeInsertQueueDpc until it runs or is removed */
    PKDEFERRED_ROUTINE DeferredRoutine;
    PVOID DeferredContext;
    PVOID SystemArgument1;
    PVOID SystemArgument2;
    ULONG64 wk_reserved[3];
} KDPC, *PKDPC, *PRKDPC;

static inline void wk_km_dpc_check(PRKDPC Dpc, const char *api)
{
    if (!Dpc || Dpc->wk_type != WK_KM_OBJECT_DPC)
        wk_km_fail("KM-DPC-001: %s(%p): not initialised by KeInitializeDpc", api, (void *)Dpc);
}

/* Sets a DPC object up; it is not queued. */
static inline VOID KeInitializeDpc(PRKDPC Dpc, PKDEFERRED_ROUTINE DeferredRoutine, PVOID DeferredContext)
{
    memset(Dpc, 0, sizeof *Dpc);
    Dpc->wk_type = WK_KM_OBJECT_DPC;
    Dpc->DeferredRoutine = DeferredRoutine;
    Dpc->DeferredContext = DeferredContext;
}

/* Runs a queued DPC at DISPATCH_LEVEL, unless it was removed meanwhile:
 * what the kit calls at its DPC point. It leaves the queue first, so the
 * routine may queue it again, as on Windows. */
static inline void wk_km_dpc_run(void *object)
{
    PRKDPC Dpc = (PRKDPC)object;
    KIRQL old = wk_km_thread_irql;
    if (!__atomic_exchange_n(&Dpc->wk_queued, 0, __ATOMIC_ACQ_REL))
        return;
    wk_km_thread_irql = DISPATCH_LEVEL;
    Dpc->DeferredRoutine(Dpc, Dpc->DeferredContext, Dpc->SystemArgument1, Dpc->SystemArgument2);
    if (wk_km_thread_irql != DISPATCH_LEVEL)
        wk_km_fail("KM-IRQL-004: a DPC routine returned at IRQL %u; it runs, and must return, at "
                   "DISPATCH_LEVEL", (unsigned)wk_km_thread_irql);
    wk_km_thread_irql = old;
}

/* Queues the DPC with its two arguments; FALSE when it is queued already
 * (the arguments then stay those of the first call), as on Windows. */
static inline BOOLEAN KeInsertQueueDpc(PRKDPC Dpc, PVOID SystemArgument1, PVOID SystemArgument2)
{
    LONG idle = 0;
    wk_km_dpc_check(Dpc, "KeInsertQueueDpc");
    if (!__atomic_compare_exchange_n(&Dpc->wk_queued, &idle, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
        return FALSE;
    Dpc->SystemArgument1 = SystemArgument1;
    Dpc->SystemArgument2 = SystemArgument2;
    if (!WK_KM_SERVICE(QueueDpc) || !wk_km_services->QueueDpc(Dpc, wk_km_dpc_run))
        wk_km_dpc_run(Dpc);
    return TRUE;
}

/* Takes a queued DPC off the queue; TRUE when it was queued. */
static inline BOOLEAN KeRemoveQueueDpc(PRKDPC Dpc)
{
    wk_km_dpc_check(Dpc, "KeRemoveQueueDpc");
    if (!__atomic_exchange_n(&Dpc->wk_queued, 0, __ATOMIC_ACQ_REL))
        return FALSE;
    if (WK_KM_SERVICE(DequeueDpc))
        wk_km_services->DequeueDpc(Dpc);
    return TRUE;
}

/* Windows waits for every queued DPC to run. The kit runs them at its DPC
 * point, which a driver's DDI cannot reach from inside itself, so there is
 * nothing queued that could run earlier: it returns. Callable only at
 * PASSIVE_LEVEL, as on Windows. */
static inline VOID KeFlushQueuedDpcs(VOID)
{
    wk_km_require_irql(PASSIVE_LEVEL, "KeFlushQueuedDpcs", "");
}

/* ------------------------------------------------------------------------ */
/* Doubly and singly linked lists (added)                                    */
/* ------------------------------------------------------------------------ */

/* The Windows list heads and entries, and their inline routines: a list
 * head points at itself when empty. */
typedef struct _LIST_ENTRY {
    struct _LIST_ENTRY *Flink;
    struct _LIST_ENTRY *Blink;
} LIST_ENTRY, *PLIST_ENTRY;

typedef struct _SINGLE_LIST_ENTRY {
    struct _SINGLE_LIST_ENTRY *Next;
} SINGLE_LIST_ENTRY, *PSINGLE_LIST_ENTRY;

static inline VOID InitializeListHead(PLIST_ENTRY ListHead)
{
    ListHead->Flink = ListHead->Blink = ListHead;
}

static inline BOOLEAN IsListEmpty(const LIST_ENTRY *ListHead)
{
    return ListHead->Flink == ListHead;
}

/* Unlinks an entry; TRUE when the list is empty after it. */
static inline BOOLEAN RemoveEntryList(PLIST_ENTRY Entry)
{
    PLIST_ENTRY next = Entry->Flink, prev = Entry->Blink;
    if (next->Blink != Entry || prev->Flink != Entry) /* Windows fails fast on a corrupt list */
        wk_km_fail("KM-LIST-001: RemoveEntryList(%p): the list is corrupt (its neighbours do not point back)",
                   (void *)Entry);
    prev->Flink = next;
    next->Blink = prev;
    return (BOOLEAN)(next == prev);
}

static inline PLIST_ENTRY RemoveHeadList(PLIST_ENTRY ListHead)
{
    PLIST_ENTRY entry = ListHead->Flink;
    RemoveEntryList(entry);
    return entry;
}

static inline PLIST_ENTRY RemoveTailList(PLIST_ENTRY ListHead)
{
    PLIST_ENTRY entry = ListHead->Blink;
    RemoveEntryList(entry);
    return entry;
}

static inline VOID InsertTailList(PLIST_ENTRY ListHead, PLIST_ENTRY Entry)
{
    PLIST_ENTRY last = ListHead->Blink;
    if (last->Flink != ListHead)
        wk_km_fail("KM-LIST-001: InsertTailList(%p): the list is corrupt", (void *)ListHead);
    Entry->Flink = ListHead;
    Entry->Blink = last;
    last->Flink = Entry;
    ListHead->Blink = Entry;
}

static inline VOID InsertHeadList(PLIST_ENTRY ListHead, PLIST_ENTRY Entry)
{
    PLIST_ENTRY first = ListHead->Flink;
    if (first->Blink != ListHead)
        wk_km_fail("KM-LIST-001: InsertHeadList(%p): the list is corrupt", (void *)ListHead);
    Entry->Flink = first;
    Entry->Blink = ListHead;
    first->Blink = Entry;
    ListHead->Flink = Entry;
}

static inline VOID PushEntryList(PSINGLE_LIST_ENTRY ListHead, PSINGLE_LIST_ENTRY Entry)
{
    Entry->Next = ListHead->Next;
    ListHead->Next = Entry;
}

static inline PSINGLE_LIST_ENTRY PopEntryList(PSINGLE_LIST_ENTRY ListHead)
{
    PSINGLE_LIST_ENTRY first = ListHead->Next;
    if (first)
        ListHead->Next = first->Next;
    return first;
}

/* The interlocked forms: the same under the caller's spin lock. The insert
 * forms return the entry that was at that end before (NULL for an empty
 * list), the remove form the entry removed (NULL for an empty list). */
static inline PLIST_ENTRY ExInterlockedInsertTailList(PLIST_ENTRY ListHead, PLIST_ENTRY Entry, PKSPIN_LOCK Lock)
{
    KIRQL old;
    KeAcquireSpinLock(Lock, &old);
    PLIST_ENTRY first = IsListEmpty(ListHead) ? NULL : ListHead->Blink;
    InsertTailList(ListHead, Entry);
    KeReleaseSpinLock(Lock, old);
    return first;
}

static inline PLIST_ENTRY ExInterlockedInsertHeadList(PLIST_ENTRY ListHead, PLIST_ENTRY Entry, PKSPIN_LOCK Lock)
{
    KIRQL old;
    KeAcquireSpinLock(Lock, &old);
    PLIST_ENTRY first = IsListEmpty(ListHead) ? NULL : ListHead->Flink;
    InsertHeadList(ListHead, Entry);
    KeReleaseSpinLock(Lock, old);
    return first;
}

static inline PLIST_ENTRY ExInterlockedRemoveHeadList(PLIST_ENTRY ListHead, PKSPIN_LOCK Lock)
{
    KIRQL old;
    KeAcquireSpinLock(Lock, &old);
    PLIST_ENTRY entry = IsListEmpty(ListHead) ? NULL : RemoveHeadList(ListHead);
    KeReleaseSpinLock(Lock, old);
    return entry;
}

/* ------------------------------------------------------------------------ */
/* Pool                                                                      */
/* ------------------------------------------------------------------------ */

/* Pool types of ExAllocatePoolWithTag; odd values are paged, as on Windows. */
typedef enum _POOL_TYPE {
    NonPagedPool = 0,
    PagedPool = 1,
    NonPagedPoolNx = 512
} POOL_TYPE;

/* ExAllocatePool2 flags: the low 32 bits are requirements (an unknown one
 * fails the call), the high 32 bits are hints the kit ignores. */
typedef ULONG64 POOL_FLAGS;
#define POOL_FLAG_USE_QUOTA 0x0000000000000001ull         /* accepted, no quota kept */
#define POOL_FLAG_UNINITIALIZED 0x0000000000000002ull     /* not zeroed (kit: 0xCD) */
#define POOL_FLAG_CACHE_ALIGNED 0x0000000000000008ull     /* accepted, see alignment */
#define POOL_FLAG_RAISE_ON_FAILURE 0x0000000000000020ull  /* kit: failure aborts */
#define POOL_FLAG_NON_PAGED 0x0000000000000040ull
#define POOL_FLAG_NON_PAGED_EXECUTE 0x0000000000000080ull
#define POOL_FLAG_PAGED 0x0000000000000100ull

/* Largest single request the kit serves; larger ones fail with NULL like an
 * exhausted pool. Bounds what a fuzzed size can cost, keeps ASan (which
 * aborts on absurd mallocs) in step with the plain build, and makes the
 * header arithmetic below overflow-free. */
#ifndef WK_KM_POOL_MAX_BYTES
#define WK_KM_POOL_MAX_BYTES ((SIZE_T)1 << 30)
#endif

#define WK_KM_POOL_NONPAGED 0x4E4C4F50u /* 'POLN': live, non-paged */
#define WK_KM_POOL_PAGED 0x504C4F50u    /* 'POLP': live, paged */
#define WK_KM_POOL_FREED 0x464C4F50u    /* 'POLF': freed by the kit */
#define WK_KM_POOL_NEW_FILL 0xCD
#define WK_KM_POOL_FREED_FILL 0xDD

/*
 * The header in front of every block. glibc keeps its free-list links in
 * the first 32 bytes of a freed chunk, so magic and tag sit after them and
 * usually survive a free: a double free is then named as such rather than
 * as a corrupt header. 64 bytes keep blocks 16-byte aligned, which is all
 * the kit promises (Windows page-aligns blocks of PAGE_SIZE or more and
 * honours POOL_FLAG_CACHE_ALIGNED; the kit does neither).
 */
typedef struct wk_km_pool_header {
    ULONG64 wk_allocator_scratch[4];
    ULONG wk_magic; /* WK_KM_POOL_NONPAGED, _PAGED or _FREED */
    ULONG wk_tag;
    SIZE_T wk_size;   /* bytes the driver asked for */
    ULONG64 wk_owner; /* the kit's count it is in (kmservices.h), 0: none */
    ULONG64 wk_pad;
} wk_km_pool_header;

WK_STATIC_ASSERT(sizeof(wk_km_pool_header) == 64 && sizeof(wk_km_pool_header) % 16 == 0,
                 "pool header keeps 16-byte alignment");

/* A tag as its four characters in memory order (how debuggers show it). */
typedef struct wk_km_tag_text {
    char c[5];
} wk_km_tag_text;

static inline wk_km_tag_text wk_km_tag_chars(ULONG tag)
{
    wk_km_tag_text t;
    int i;
    for (i = 0; i < 4; i++) {
        unsigned ch = (unsigned)(tag >> (8 * i)) & 0xFFu;
        t.c[i] = (char)(ch >= 0x20 && ch <= 0x7E ? ch : '.');
    }
    t.c[4] = '\0';
    return t;
}

/* Common allocation path: NULL above WK_KM_POOL_MAX_BYTES, when malloc
 * fails or when the kit refuses it (a case's injected failure, only where
 * the caller takes NULL: may_fail), else a block of size bytes (a unique
 * block for 0) filled with fill. */
static inline PVOID wk_km_pool_alloc(SIZE_T size, ULONG tag, int paged, int fill, int may_fail,
                                     const char *api)
{
    wk_km_pool_header *h;
    wk_km_require_irql(paged ? APC_LEVEL : DISPATCH_LEVEL, api, paged ? " on paged pool" : "");
    if (size > WK_KM_POOL_MAX_BYTES)
        return NULL;
    if (may_fail && WK_KM_SERVICE(PoolRefused) && wk_km_services->PoolRefused(tag, size))
        return NULL;
    h = (wk_km_pool_header *)malloc(sizeof *h + size);
    if (!h)
        return NULL;
    memset(h->wk_allocator_scratch, 0, sizeof h->wk_allocator_scratch);
    h->wk_magic = paged ? WK_KM_POOL_PAGED : WK_KM_POOL_NONPAGED;
    h->wk_tag = tag;
    h->wk_size = size;
    h->wk_owner = WK_KM_SERVICE(PoolAllocated) ? wk_km_services->PoolAllocated(tag, size) : 0;
    h->wk_pad = 0;
    memset(h + 1, fill, size);
    return h + 1;
}

/* Common free path; tag is checked when check_tag is set. */
static inline void wk_km_pool_free(PVOID P, ULONG tag, int check_tag, const char *api)
{
    wk_km_pool_header *h;
    wk_km_tag_text want = wk_km_tag_chars(tag);
    if (!P)
        wk_km_fail("KM-POOL-003: %s(NULL): freeing a NULL pointer (Windows: BAD_POOL_CALLER)",
                   api);
    h = (wk_km_pool_header *)P - 1;
    if (h->wk_magic == WK_KM_POOL_FREED)
        wk_km_fail("KM-POOL-002: %s(%p, '%s' 0x%08x): double free of a block tagged '%s' "
                   "(Windows: BAD_POOL_CALLER)",
                   api, P, want.c, (unsigned)tag, wk_km_tag_chars(h->wk_tag).c);
    if (h->wk_magic != WK_KM_POOL_NONPAGED && h->wk_magic != WK_KM_POOL_PAGED)
        wk_km_fail("KM-POOL-002: %s(%p, '%s' 0x%08x): not a live pool block: freed already, "
                   "never allocated, or its header was overwritten (Windows: BAD_POOL_CALLER)",
                   api, P, want.c, (unsigned)tag);
    if (check_tag && h->wk_tag != tag)
        wk_km_fail("KM-POOL-001: %s(%p, '%s' 0x%08x): block was allocated with tag '%s' "
                   "0x%08x (Windows: BAD_POOL_CALLER 0xA)",
                   api, P, want.c, (unsigned)tag, wk_km_tag_chars(h->wk_tag).c,
                   (unsigned)h->wk_tag);
    if (h->wk_magic == WK_KM_POOL_PAGED)
        wk_km_require_irql(APC_LEVEL, api, " on paged pool");
    else
        wk_km_require_irql(DISPATCH_LEVEL, api, "");
    h->wk_magic = WK_KM_POOL_FREED;
    if (h->wk_owner && WK_KM_SERVICE(PoolFreed))
        wk_km_services->PoolFreed(h->wk_owner, h->wk_tag, h->wk_size);
    memset(P, WK_KM_POOL_FREED_FILL, h->wk_size);
    free(h);
}

/* Allocates NumberOfBytes from the given pool. Windows leaves the memory
 * uninitialised; the kit fills it with 0xCD so a driver that reads before
 * writing sees an obvious pattern. Paged pool requires IRQL <= APC_LEVEL. */
static inline PVOID ExAllocatePoolWithTag(POOL_TYPE PoolType, SIZE_T NumberOfBytes, ULONG Tag)
{
    return wk_km_pool_alloc(NumberOfBytes, Tag, ((ULONG)PoolType & 1u) != 0,
                            WK_KM_POOL_NEW_FILL, 1, "ExAllocatePoolWithTag");
}

/* Allocates zeroed memory (0xCD-filled with POOL_FLAG_UNINITIALIZED). As on
 * Windows it returns NULL for a zero tag, for anything but exactly one pool
 * type flag, and for an unknown requirement flag. With
 * POOL_FLAG_RAISE_ON_FAILURE a failure aborts: Windows would raise an
 * exception, and the kit's __except never runs (see "Structured exception
 * handling"). */
static inline PVOID ExAllocatePool2(POOL_FLAGS Flags, SIZE_T NumberOfBytes, ULONG Tag)
{
    const POOL_FLAGS types = POOL_FLAG_NON_PAGED | POOL_FLAG_NON_PAGED_EXECUTE | POOL_FLAG_PAGED;
    const POOL_FLAGS known = types | POOL_FLAG_USE_QUOTA | POOL_FLAG_UNINITIALIZED |
                             POOL_FLAG_CACHE_ALIGNED | POOL_FLAG_RAISE_ON_FAILURE;
    POOL_FLAGS type = Flags & types;
    PVOID p;
    if (Tag == 0 || (type & (type - 1)) != 0 || type == 0 || (Flags & 0xFFFFFFFFull & ~known))
        return NULL;
    /* With POOL_FLAG_RAISE_ON_FAILURE a failure raises, which the kit cannot
     * play: such an allocation is never refused on purpose. */
    p = wk_km_pool_alloc(NumberOfBytes, Tag, type == POOL_FLAG_PAGED,
                         (Flags & POOL_FLAG_UNINITIALIZED) ? WK_KM_POOL_NEW_FILL : 0,
                         (Flags & POOL_FLAG_RAISE_ON_FAILURE) == 0, "ExAllocatePool2");
    if (!p && (Flags & POOL_FLAG_RAISE_ON_FAILURE))
        wk_km_fail("KM-POOL-004: ExAllocatePool2(0x%llx, %llu, '%s'): allocation failed with "
                   "POOL_FLAG_RAISE_ON_FAILURE, which raises an exception",
                   (unsigned long long)Flags, (unsigned long long)NumberOfBytes,
                   wk_km_tag_chars(Tag).c);
    return p;
}

/* Frees a block after checking it is live and carries Tag; a wrong tag, a
 * double free or a NULL pointer aborts with the tags involved. Windows
 * bug-checks for the same (BAD_POOL_CALLER). The block is filled with 0xDD
 * before it goes back to the C library. */
static inline VOID ExFreePoolWithTag(PVOID P, ULONG Tag)
{
    wk_km_pool_free(P, Tag, 1, "ExFreePoolWithTag");
}

/* ExFreePoolWithTag without the tag check. */
static inline VOID ExFreePool(PVOID P)
{
    wk_km_pool_free(P, 0, 0, "ExFreePool");
}

/* ------------------------------------------------------------------------ */
/* MDL mapping and page arithmetic                                           */
/* ------------------------------------------------------------------------ */

typedef enum _MM_PAGE_PRIORITY {
    LowPagePriority = 0,
    NormalPagePriority = 16,
    HighPagePriority = 32
} MM_PAGE_PRIORITY;

/* Flags OR-ed into the priority argument of MmGetSystemAddressForMdlSafe. */
#define MdlMappingNoWrite 0x80000000u
#define MdlMappingNoExecute 0x40000000u

/*
 * The MDL's pages at one contiguous kernel address, mapped on first use.
 * The kit's hook (wk_map) does the mapping; the result is cached in
 * wk_mapped_va, so later calls return it without calling the hook, and
 * MDL_MAPPED_TO_SYSTEM_VA is set in MdlFlags (changed), on every call that
 * returns an address: kmmemory.h's MmUnmapLockedPages clears the flag and
 * keeps the kit's mapping, so mapping again gives the same address. NULL when
 * the MDL has no hook or the hook fails (the next call then tries again), as
 * Windows returns NULL when it cannot map. If two threads race on the first
 * call, both may call the hook and the first stored address wins. Priority
 * and its flags are accepted and ignored.
 */
static inline PVOID MmGetSystemAddressForMdlSafe(PMDL Mdl, ULONG Priority)
{
    PVOID va = __atomic_load_n(&Mdl->wk_mapped_va, __ATOMIC_ACQUIRE);
    PVOID expected = NULL;
    (void)Priority;
    if (!va && !Mdl->wk_map)
        return NULL;
    if (!va)
        va = Mdl->wk_map(Mdl);
    if (va && !__atomic_compare_exchange_n(&Mdl->wk_mapped_va, &expected, va, 0,
                                           __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        va = expected;
    if (va)
        __atomic_fetch_or(&Mdl->MdlFlags, (SHORT)MDL_MAPPED_TO_SYSTEM_VA, __ATOMIC_RELAXED);
    return va;
}

/* The page containing Va. */
#ifndef PAGE_ALIGN
#define PAGE_ALIGN(Va) ((PVOID)((ULONG_PTR)(Va) & ~((ULONG_PTR)PAGE_SIZE - 1)))
#endif
/* Va's offset inside its page. */
#ifndef BYTE_OFFSET
#define BYTE_OFFSET(Va) ((ULONG)((ULONG_PTR)(Va) & ((ULONG_PTR)PAGE_SIZE - 1)))
#endif
/* Size rounded up to whole pages, in bytes. */
#ifndef ROUND_TO_PAGES
#define ROUND_TO_PAGES(Size) \
    (((ULONG_PTR)(Size) + (ULONG_PTR)PAGE_SIZE - 1) & ~((ULONG_PTR)PAGE_SIZE - 1))
#endif
/* Pages needed for Size bytes starting on a page boundary. */
#ifndef BYTES_TO_PAGES
#define BYTES_TO_PAGES(Size)                      \
    ((ULONG)(((SIZE_T)(Size) >> PAGE_SHIFT) +     \
             (((SIZE_T)(Size) & ((SIZE_T)PAGE_SIZE - 1)) != 0)))
#endif
/* Pages touched by Size bytes starting at Va. Same formula as Windows, so
 * Size 0 gives 0 at a page boundary and 1 elsewhere. */
#ifndef ADDRESS_AND_SIZE_TO_SPAN_PAGES
#define ADDRESS_AND_SIZE_TO_SPAN_PAGES(Va, Size) \
    ((ULONG)(((SIZE_T)BYTE_OFFSET(Va) + (SIZE_T)(Size) + (SIZE_T)PAGE_SIZE - 1) >> PAGE_SHIFT))
#endif

/* ------------------------------------------------------------------------ */
/* Debug output                                                              */
/* ------------------------------------------------------------------------ */

/* Component ids and levels of DbgPrintEx. The kit prints every message
 * whatever its component and level; define WK_KM_QUIET_DBGPRINT to print
 * none (fuzzing throughput). Formats are still type-checked either way. */
#define DPFLTR_IHVDRIVER_ID 77
#define DPFLTR_IHVVIDEO_ID 78
#define DPFLTR_ERROR_LEVEL 0
#define DPFLTR_WARNING_LEVEL 1
#define DPFLTR_TRACE_LEVEL 2
#define DPFLTR_INFO_LEVEL 3
#define DPFLTR_MASK 0x80000000u

/* Writes "[driver] " and the formatted message to stderr in one call, so
 * lines of concurrent threads do not interleave (messages over 1 KB are
 * written in two pieces). */
static inline __attribute__((format(printf, 1, 0))) ULONG wk_km_vprint(PCSTR Format,
                                                                       va_list Args)
{
#ifdef WK_KM_QUIET_DBGPRINT
    (void)Format;
    (void)Args;
#else
    char line[1024];
    va_list copy;
    int n;
    va_copy(copy, Args);
    n = vsnprintf(line, sizeof line, Format, copy);
    va_end(copy);
    if (n >= 0 && (size_t)n < sizeof line) {
        fprintf(stderr, "[driver] %s", line);
    } else {
        fputs("[driver] ", stderr);
        vfprintf(stderr, Format, Args);
    }
#endif
    return (ULONG)STATUS_SUCCESS;
}

/* printf-style message to stderr with a "[driver] " prefix. */
static inline __attribute__((format(printf, 1, 2))) ULONG DbgPrint(PCSTR Format, ...)
{
    ULONG r;
    va_list ap;
    va_start(ap, Format);
    r = wk_km_vprint(Format, ap);
    va_end(ap);
    return r;
}

/* DbgPrint with a component and level, which the kit does not filter on. */
static inline __attribute__((format(printf, 3, 4))) ULONG DbgPrintEx(ULONG ComponentId,
                                                                     ULONG Level,
                                                                     PCSTR Format, ...)
{
    ULONG r;
    va_list ap;
    (void)ComponentId;
    (void)Level;
    va_start(ap, Format);
    r = wk_km_vprint(Format, ap);
    va_end(ap);
    return r;
}

/* KdPrint((fmt, ...)) and KdPrintEx((id, level, fmt, ...)): the double
 * parentheses carry the argument list. Windows drops them from free builds;
 * the kit always prints. */
#ifndef KdPrint
#define KdPrint(args) DbgPrint args
#endif
#ifndef KdPrintEx
#define KdPrintEx(args) DbgPrintEx args
#endif

/* ------------------------------------------------------------------------ */
/* Structured exception handling                                             */
/* ------------------------------------------------------------------------ */

/*
 * Linux C has no SEH, so these macros only make
 *
 *     __try { ... } __except (EXCEPTION_EXECUTE_HANDLER) { ... }
 *     __try { ... } __finally { ... }
 *
 * compile: the try block always runs, an __except block never runs (its
 * filter is not evaluated), and a __finally block runs after the try block
 * when control falls off its end (a return, goto or break out of the try
 * block skips it, unlike on Windows). __leave is not provided; code using it
 * fails to compile rather than jumping somewhere unexpected.
 *
 * Why this is safe in the kit. Drivers wrap in __try the reads of
 * user-mode memory that Windows may unmap under them, above all the
 * buffers handed to DxgkDdiRender (pCommand, pPatchLocationListIn). In the
 * kit those buffers are kit-owned mapped memory, so an access inside the
 * range cannot fault. An access outside it is a driver bug: it hits the
 * kit's guard pages and the kit reports it as a contract violation - the
 * handler that would have hidden it on Windows never runs. The one effect
 * lost is that a handler's recovery code is not exercised.
 *
 * C++: libstdc++ defines __try itself (as `try`, or `if (true)` under
 * -fno-exceptions). So that either include order works, C++ builds use
 * libstdc++'s exact spelling. With exceptions, __try is `try`, __except is
 * `catch (...)`, and __finally closes the try with a rethrowing
 * `catch (...)` and then opens its block; nothing in the kit throws, so the
 * behaviour is the C one. Under -fno-exceptions the spelling is the C one
 * with `true`/`false`. A driver with its own SEH macros defines
 * WK_KM_NO_SEH_MACROS.
 */
#ifndef WK_KM_NO_SEH_MACROS
#define EXCEPTION_EXECUTE_HANDLER 1
#define EXCEPTION_CONTINUE_SEARCH 0
#define EXCEPTION_CONTINUE_EXECUTION (-1)
#ifndef GetExceptionCode
#define GetExceptionCode() STATUS_UNSUCCESSFUL
#endif
#if defined(__cplusplus) && defined(__cpp_exceptions)
#ifndef __try
#define __try try
#endif
#ifndef __except
#define __except(filter) catch (...)
#endif
#ifndef __finally
#define __finally catch (...) { throw; } if (true)
#endif
#elif defined(__cplusplus)
#ifndef __try
#define __try if (true)
#endif
#ifndef __except
#define __except(filter) else if (false)
#endif
#ifndef __finally
#define __finally if (true)
#endif
#else
#ifndef __try
#define __try if (1)
#endif
#ifndef __except
#define __except(filter) else if (0)
#endif
#ifndef __finally
#define __finally if (1)
#endif
#endif
#endif /* WK_KM_NO_SEH_MACROS */

#ifdef __cplusplus
}
#endif

/* The rest of the surface, one header per area (added): strings, GUIDs and
 * the ntstrsafe routines; contiguous memory, I/O space and registers;
 * system threads, object references, handles, clocks and device
 * properties. Each includes this header first. */
#include "wddmkit/kmstring.h"
#include "wddmkit/kmmemory.h"
#include "wddmkit/kmthread.h"
/* DXGK_POWER_RUNTIME_COMPONENT, which needs dispmprt.h's GUID (added). */
#include "wddmkit/dxgkpower.h"

#endif /* WDDMKIT_KM_H */
