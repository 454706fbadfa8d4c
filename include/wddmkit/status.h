/* SPDX-License-Identifier: MIT */
/*
 * wddmkit/status.h - the kit-wide status vocabulary.
 *
 * Every function of ours that can fail returns a wk_status: 0 is success,
 * errors are negative. One X-macro table generates the enum, the names and
 * the messages, so the three can never drift apart. Numbers are stable and
 * never reused: a retired status keeps its slot, commented out.
 *
 * NTSTATUS is used only at the DDI boundary (d3dkmddi.h); test verdicts are a
 * separate enum owned by the conformance runner. This header is the one piece
 * of shared vocabulary every module may include, gpu-model included: it has
 * no code to link and no state.
 */
#ifndef WDDMKIT_STATUS_H
#define WDDMKIT_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

/* X(name, number, message) */
#define WK_STATUS_MAP(X)                                                        \
    X(WK_OK, 0, "success")                                                      \
    X(WK_E_INVALID_ARGUMENT, -1, "invalid argument")                            \
    X(WK_E_NO_MEMORY, -2, "out of host memory")                                 \
    X(WK_E_NO_SPACE, -3, "not enough room in the destination buffer")           \
    X(WK_E_OUT_OF_RANGE, -4, "value outside its allowed range")                 \
    X(WK_E_BAD_ADDRESS, -5, "address outside every segment")                    \
    X(WK_E_UNMAPPED, -6, "aperture page has no mapping")                        \
    X(WK_E_CROSSES_SEGMENT, -7, "access crosses the end of its segment")        \
    X(WK_E_TRUNCATED, -8, "input ends in the middle of a record")               \
    X(WK_E_UNKNOWN_OPCODE, -9, "unknown command opcode")                        \
    X(WK_E_BAD_OPERAND, -10, "command operand holds a forbidden value")         \
    X(WK_E_GPU_FAULT, -11, "the GPU model recorded a fault")                    \
    X(WK_E_LIMIT, -12, "a configured resource limit was reached")               \
    X(WK_E_IO, -13, "input/output error")                                       \
    X(WK_E_NOT_SUPPORTED, -14, "operation not supported")                      \
    X(WK_E_CONTRACT, -15, "the driver broke a DDI contract rule")              \
    X(WK_E_DRIVER_FAILED, -16, "the driver returned an error status")          \
    X(WK_E_DRIVER_CRASH, -17, "the driver crashed")                            \
    X(WK_E_DRIVER_HANG, -18, "the driver did not return in time")              \
    X(WK_E_DEAD, -19, "the adapter is unusable after an earlier driver crash") \
    X(WK_E_NOT_FOUND, -20, "no such object")                                   \
    X(WK_E_STATE, -21, "operation not valid in the current state")               \
    X(WK_E_BINDING, -22, "the hardware binding failed (crash, hang or an answer outside its interface)")

typedef enum wk_status {
#define WK_STATUS_ENUM_(name, num, msg) name = (num),
    WK_STATUS_MAP(WK_STATUS_ENUM_)
#undef WK_STATUS_ENUM_
} wk_status;

/* The enumerator's name, e.g. "WK_E_NO_SPACE"; "WK_STATUS_UNKNOWN" otherwise. */
static inline const char *wk_status_name(wk_status s)
{
    switch (s) {
#define WK_STATUS_NAME_(name, num, msg) case name: return #name;
        WK_STATUS_MAP(WK_STATUS_NAME_)
#undef WK_STATUS_NAME_
    }
    return "WK_STATUS_UNKNOWN";
}

/* A short human message for the status. */
static inline const char *wk_status_str(wk_status s)
{
    switch (s) {
#define WK_STATUS_STR_(name, num, msg) case name: return msg;
        WK_STATUS_MAP(WK_STATUS_STR_)
#undef WK_STATUS_STR_
    }
    return "unknown status";
}

#ifdef __cplusplus
}
#endif

#endif /* WDDMKIT_STATUS_H */
