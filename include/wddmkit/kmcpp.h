/* SPDX-License-Identifier: MIT */
/*
 * wddmkit/kmcpp.h - C++ operator new and delete over km.h's pool, for display
 * miniports written in C++.
 *
 * Why. Kernel-mode C++ on Windows has no default global operator new: a WDK
 * driver defines the forms it uses over ExAllocatePoolWithTag, most often
 * `new (NonPagedPoolNx, 'gaT1') T`. This header gives a driver module those
 * forms on the kit's pool (km.h), so its objects carry pool tags, are filled
 * with 0xCD when new, and a double free or a foreign pointer aborts with a
 * KM-POOL line, as for C code:
 *
 *     new (PoolType) T            new (PoolType, Tag) T
 *     new (PoolType) T[n]         new (PoolType, Tag) T[n]
 *
 * return nullptr when the pool cannot serve the request (they are noexcept,
 * so the new-expression then yields nullptr and runs no constructor; check
 * it and return STATUS_NO_MEMORY from the DDI). Without a tag they use
 * WK_KM_CPP_DEFAULT_TAG.
 *
 * Plain `new T`, `new T[n]` and `new (std::nothrow) T` are routed to the pool
 * too, with WK_KM_CPP_DEFAULT_POOL (NonPagedPoolNx: non-paged, so usable at
 * any IRQL up to DISPATCH_LEVEL, and not executable, the pool type the WDK
 * asks for since Windows 8) and WK_KM_CPP_DEFAULT_TAG ('WkCp'). Plain new has
 * no way to report failure without exceptions, so it fails with a
 * "KM-API-001: operator new(N): ..." line (km.h's wk_km_fail: under the kit
 * the DDI call ends as that rule, elsewhere the process aborts); the
 * nothrow form returns nullptr.
 *
 * Every plain delete (`delete p`, `delete[] p`, sized, nothrow) frees with
 * ExFreePool, which checks that the block is a live pool block but not its
 * tag: a C++ delete cannot know the tag the block was allocated with, so a
 * block from any of the forms above, whatever its pool and tag, can be
 * deleted with plain delete. The delete forms taking a pool type and tag are
 * the ones the compiler pairs with the placement forms (it calls them only
 * if a constructor throws, which -fno-exceptions rules out); called
 * directly they free with ExFreePoolWithTag, which does check the tag.
 *
 * Over-aligned types (alignas above 16) are not supported: km.h's pool
 * promises 16-byte alignment only, and kernel C++ has no aligned new
 * either. Their new fails with a KM-API-001 line rather than return a
 * misaligned block.
 *
 * Shape. The pool forms are ordinary inline functions. The replaceable
 * global forms (plain new and delete) may not be inline (C++ [replacement.
 * functions]), so each translation unit that includes this header defines
 * them weak, and the linker keeps one per module. They are hidden: the
 * module's own calls bind to them, and the module neither exports them nor
 * replaces the operator new of the process that loads it (the kit, or
 * libstdc++'s). <new> declares them with default visibility, and GCC and
 * Clang refuse a visibility attribute that contradicts it, so visibility
 * is set with an assembler `.hidden` directive on their Itanium-ABI names
 * (LP64: size_t is unsigned long, checked below). A C++ source of the
 * module that does not include this header still gets them: the linker
 * resolves its references to the hidden definitions.
 *
 * Opting out. A driver that defines its own operator new and delete (many
 * define `operator new(size_t, POOL_TYPE)` themselves) defines
 * WK_KM_NO_OPERATOR_NEW before including this header, or on the compiler
 * line for the whole module: then this header defines nothing, and the
 * driver's own replaceable forms should be hidden the same way (see
 * docs/writing-a-driver.md, "C++ drivers").
 *
 * Not supported: the C++ standard library's containers and strings
 * (libstdc++.so allocates some of their storage with its own operator new,
 * which a pool delete then refuses; kernel C++ has no standard library
 * either), exceptions and RTTI (build with -fno-exceptions -fno-rtti, as the
 * WDK does).
 *
 * In C this header is empty, so a C translation unit may include it.
 */
#ifndef WDDMKIT_KMCPP_H
#define WDDMKIT_KMCPP_H

#ifdef __cplusplus

#include <new>

#include "wddmkit/km.h"

#ifndef WK_KM_NO_OPERATOR_NEW

/* The pool and tag of every form that names none; define them for the whole
 * module (every translation unit must agree: the linker keeps one copy of
 * the plain forms). */
#ifndef WK_KM_CPP_DEFAULT_POOL
#define WK_KM_CPP_DEFAULT_POOL NonPagedPoolNx
#endif
#ifndef WK_KM_CPP_DEFAULT_TAG
#define WK_KM_CPP_DEFAULT_TAG 0x70436B57u /* 'WkCp' in memory order */
#endif

/* The alignment km.h's pool gives every block (its 48-byte header). */
#define WK_KM_CPP_POOL_ALIGNMENT 16u

/* The Itanium-ABI names below spell size_t as unsigned long ('m'). */
template <class T> struct wk_km_cpp_is_ulong {
    static const bool value = false;
};
template <> struct wk_km_cpp_is_ulong<unsigned long> {
    static const bool value = true;
};
static_assert(wk_km_cpp_is_ulong<std::size_t>::value,
              "wddmkit/kmcpp.h names operator new by its LP64 symbol: size_t must be unsigned long");

/* Defined in this module only, never exported (the pool forms). */
#define WK_KM_CPP_LOCAL __attribute__((visibility("hidden")))

/* ---- The pool forms: new (PoolType[, Tag]) T, and their deletes -------- */

WK_KM_CPP_LOCAL inline void *operator new(std::size_t size, POOL_TYPE pool, ULONG tag) noexcept
{
    return ExAllocatePoolWithTag(pool, size, tag);
}

WK_KM_CPP_LOCAL inline void *operator new(std::size_t size, POOL_TYPE pool) noexcept
{
    return ExAllocatePoolWithTag(pool, size, WK_KM_CPP_DEFAULT_TAG);
}

WK_KM_CPP_LOCAL inline void *operator new[](std::size_t size, POOL_TYPE pool, ULONG tag) noexcept
{
    return ExAllocatePoolWithTag(pool, size, tag);
}

WK_KM_CPP_LOCAL inline void *operator new[](std::size_t size, POOL_TYPE pool) noexcept
{
    return ExAllocatePoolWithTag(pool, size, WK_KM_CPP_DEFAULT_TAG);
}

/* The tag is known here, so it is checked (KM-POOL-001 on a mismatch). */
WK_KM_CPP_LOCAL inline void operator delete(void *block, POOL_TYPE pool, ULONG tag) noexcept
{
    (void)pool;
    if (block)
        ExFreePoolWithTag(block, tag);
}

WK_KM_CPP_LOCAL inline void operator delete(void *block, POOL_TYPE pool) noexcept
{
    (void)pool;
    if (block)
        ExFreePoolWithTag(block, WK_KM_CPP_DEFAULT_TAG);
}

WK_KM_CPP_LOCAL inline void operator delete[](void *block, POOL_TYPE pool, ULONG tag) noexcept
{
    (void)pool;
    if (block)
        ExFreePoolWithTag(block, tag);
}

WK_KM_CPP_LOCAL inline void operator delete[](void *block, POOL_TYPE pool) noexcept
{
    (void)pool;
    if (block)
        ExFreePoolWithTag(block, WK_KM_CPP_DEFAULT_TAG);
}

/* ---- The replaceable global forms: plain new and delete ----------------- */

/* Hidden in the module (see "Shape" above). */
__asm__(".hidden _Znwm\n\t.hidden _Znam\n\t"
        ".hidden _ZnwmRKSt9nothrow_t\n\t.hidden _ZnamRKSt9nothrow_t\n\t"
        ".hidden _ZdlPv\n\t.hidden _ZdaPv\n\t"
        ".hidden _ZdlPvm\n\t.hidden _ZdaPvm\n\t"
        ".hidden _ZdlPvRKSt9nothrow_t\n\t.hidden _ZdaPvRKSt9nothrow_t");

/* The helpers are the kit's (wk_km_ prefix), not part of its API. A plain
 * new cannot return NULL (the compiler may construct into it) nor throw. */
static inline __attribute__((noreturn)) void wk_km_cpp_new_failed(std::size_t size, const char *form)
{
    wk_km_fail("KM-API-001: %s(%zu): the pool cannot serve it, and a plain new cannot return "
               "NULL without exceptions: use new (NonPagedPoolNx, Tag) and check for nullptr",
               form, size);
}

static inline void *wk_km_cpp_new_or_fail(std::size_t size, const char *form)
{
    void *block = ExAllocatePoolWithTag(WK_KM_CPP_DEFAULT_POOL, size, WK_KM_CPP_DEFAULT_TAG);
    if (!block)
        wk_km_cpp_new_failed(size, form);
    return block;
}

/* A plain delete cannot know the tag: ExFreePool checks liveness only. */
static inline void wk_km_cpp_delete(void *block)
{
    if (block)
        ExFreePool(block);
}

/* Clang's AddressSanitizer poisons the array cookie (the element count an
 * array of a type with a destructor keeps at the start of its block) that
 * a new-expression writes through the global operator new[], replaced or
 * not, and only its own operator delete[] unpoisons it. km.h fills a block
 * it frees with 0xDD, over the cookie, so an array delete unpoisons it
 * first. */
#if defined(__SANITIZE_ADDRESS__)
#define WK_KM_CPP_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WK_KM_CPP_ASAN 1
#endif
#endif
#ifdef WK_KM_CPP_ASAN
extern "C" void __asan_unpoison_memory_region(void const volatile *addr, std::size_t size);
#endif

static inline void wk_km_cpp_delete_array(void *block)
{
#ifdef WK_KM_CPP_ASAN
    if (block)
        __asan_unpoison_memory_region(block, sizeof(std::size_t));
#endif
    wk_km_cpp_delete(block);
}

__attribute__((weak)) void *operator new(std::size_t size)
{
    return wk_km_cpp_new_or_fail(size, "operator new");
}

__attribute__((weak)) void *operator new[](std::size_t size)
{
    return wk_km_cpp_new_or_fail(size, "operator new[]");
}

__attribute__((weak)) void *operator new(std::size_t size, const std::nothrow_t &) noexcept
{
    return ExAllocatePoolWithTag(WK_KM_CPP_DEFAULT_POOL, size, WK_KM_CPP_DEFAULT_TAG);
}

__attribute__((weak)) void *operator new[](std::size_t size, const std::nothrow_t &) noexcept
{
    return ExAllocatePoolWithTag(WK_KM_CPP_DEFAULT_POOL, size, WK_KM_CPP_DEFAULT_TAG);
}

__attribute__((weak)) void operator delete(void *block) noexcept
{
    wk_km_cpp_delete(block);
}

__attribute__((weak)) void operator delete[](void *block) noexcept
{
    wk_km_cpp_delete_array(block);
}

__attribute__((weak)) void operator delete(void *block, std::size_t) noexcept
{
    wk_km_cpp_delete(block);
}

__attribute__((weak)) void operator delete[](void *block, std::size_t) noexcept
{
    wk_km_cpp_delete_array(block);
}

__attribute__((weak)) void operator delete(void *block, const std::nothrow_t &) noexcept
{
    wk_km_cpp_delete(block);
}

__attribute__((weak)) void operator delete[](void *block, const std::nothrow_t &) noexcept
{
    wk_km_cpp_delete_array(block);
}

#ifdef __cpp_aligned_new
/* C++17 calls these for types aligned above 16 bytes, which the pool cannot
 * honour (see the top of this file); 16 or less is served. */
__asm__(".hidden _ZnwmSt11align_val_t\n\t.hidden _ZnamSt11align_val_t\n\t"
        ".hidden _ZnwmSt11align_val_tRKSt9nothrow_t\n\t.hidden _ZnamSt11align_val_tRKSt9nothrow_t\n\t"
        ".hidden _ZdlPvSt11align_val_t\n\t.hidden _ZdaPvSt11align_val_t\n\t"
        ".hidden _ZdlPvmSt11align_val_t\n\t.hidden _ZdaPvmSt11align_val_t\n\t"
        ".hidden _ZdlPvSt11align_val_tRKSt9nothrow_t\n\t.hidden _ZdaPvSt11align_val_tRKSt9nothrow_t");

static inline void *wk_km_cpp_new_aligned(std::size_t size, std::align_val_t alignment)
{
    if (static_cast<std::size_t>(alignment) > WK_KM_CPP_POOL_ALIGNMENT)
        wk_km_fail("KM-API-001: operator new(%zu, align %zu): over-aligned types are not "
                   "supported: the pool aligns blocks to %u bytes",
                   size, static_cast<std::size_t>(alignment), WK_KM_CPP_POOL_ALIGNMENT);
    return ExAllocatePoolWithTag(WK_KM_CPP_DEFAULT_POOL, size, WK_KM_CPP_DEFAULT_TAG);
}

__attribute__((weak)) void *operator new(std::size_t size, std::align_val_t alignment)
{
    void *block = wk_km_cpp_new_aligned(size, alignment);
    if (!block)
        wk_km_cpp_new_failed(size, "operator new");
    return block;
}

__attribute__((weak)) void *operator new[](std::size_t size, std::align_val_t alignment)
{
    void *block = wk_km_cpp_new_aligned(size, alignment);
    if (!block)
        wk_km_cpp_new_failed(size, "operator new[]");
    return block;
}

__attribute__((weak)) void *operator new(std::size_t size, std::align_val_t alignment,
                                         const std::nothrow_t &) noexcept
{
    return wk_km_cpp_new_aligned(size, alignment);
}

__attribute__((weak)) void *operator new[](std::size_t size, std::align_val_t alignment,
                                           const std::nothrow_t &) noexcept
{
    return wk_km_cpp_new_aligned(size, alignment);
}

__attribute__((weak)) void operator delete(void *block, std::align_val_t) noexcept
{
    wk_km_cpp_delete(block);
}

__attribute__((weak)) void operator delete[](void *block, std::align_val_t) noexcept
{
    wk_km_cpp_delete_array(block);
}

__attribute__((weak)) void operator delete(void *block, std::size_t, std::align_val_t) noexcept
{
    wk_km_cpp_delete(block);
}

__attribute__((weak)) void operator delete[](void *block, std::size_t, std::align_val_t) noexcept
{
    wk_km_cpp_delete_array(block);
}

__attribute__((weak)) void operator delete(void *block, std::align_val_t, const std::nothrow_t &) noexcept
{
    wk_km_cpp_delete(block);
}

__attribute__((weak)) void operator delete[](void *block, std::align_val_t, const std::nothrow_t &) noexcept
{
    wk_km_cpp_delete_array(block);
}
#endif /* __cpp_aligned_new */

#endif /* WK_KM_NO_OPERATOR_NEW */

#endif /* __cplusplus */

#endif /* WDDMKIT_KMCPP_H */
