/* SPDX-License-Identifier: MIT */
/*
 * under_asan.h - UNDER_ASAN is defined when the test is built with
 * AddressSanitizer (gcc's __SANITIZE_ADDRESS__, clang's feature test), for
 * the few checks whose premise ASan changes (its allocator's reuse, its
 * larger stack frames).
 */
#ifndef WK_TESTS_UNDER_ASAN_H
#define WK_TESTS_UNDER_ASAN_H

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

#endif
