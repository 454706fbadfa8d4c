/* SPDX-License-Identifier: MIT */
/*
 * trace.h - WPP-style tracing that compiles to nothing.
 *
 * A Windows miniport traces with WPP: `TraceEvents(LEVEL, FLAG, "fmt", ...)`
 * calls that the WPP preprocessor (tracewpp) turns into ETW events, with
 * its own format specifiers (%!STATUS!, %!FUNC!). There is no tracewpp on
 * Linux, so the calls stay in the sources and expand to a call that never
 * runs: the arguments are still evaluated by the compiler's checker (no
 * "unused variable" for a value only traced), none of them at run time,
 * and WPP's specifiers are never handed to a printf (the sink takes no
 * format attribute). Define CG_TRACE_TO_STDERR to see them as DbgPrint
 * lines when running a case with `wddmkit conform --no-fork`.
 */
#ifndef CPPGPU_TRACE_H
#define CPPGPU_TRACE_H

#include "wddmkit/km.h"

/* WPP trace levels (evntrace.h) and this driver's trace flags. */
#define TRACE_LEVEL_ERROR 2
#define TRACE_LEVEL_WARNING 3
#define TRACE_LEVEL_INFORMATION 4
#define TRACE_LEVEL_VERBOSE 5

#define TRACE_ADAPTER 0x1
#define TRACE_OBJECTS 0x2
#define TRACE_PAGING 0x4
#define TRACE_SUBMIT 0x8

/* Never called at run time: a sink the traced arguments can bind to. */
static inline void cg_trace_sink(int level, int flag, const char *fmt, ...)
{
    (void)level;
    (void)flag;
    (void)fmt;
}

#ifdef CG_TRACE_TO_STDERR
#define TraceEvents(level, flag, ...) DbgPrint(__VA_ARGS__)
#else
#define TraceEvents(level, flag, ...)                         \
    do {                                                      \
        if (false)                                            \
            cg_trace_sink((level), (flag), __VA_ARGS__);      \
    } while (false)
#endif

/* WPP's start and stop calls (DriverEntry, unload): nothing to set up. */
#define WPP_INIT_TRACING(driver_object, registry_path) ((void)(driver_object), (void)(registry_path))
#define WPP_CLEANUP(driver_object) ((void)(driver_object))

#endif /* CPPGPU_TRACE_H */
