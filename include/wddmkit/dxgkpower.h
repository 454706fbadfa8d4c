/* SPDX-License-Identifier: MIT */
/*
 * wddmkit/dxgkpower.h - DXGK_POWER_RUNTIME_COMPONENT, the answer to
 * DxgkDdiQueryAdapterInfo(DXGKQAITYPE_POWERCOMPONENTINFO): one power
 * component of the adapter, its idle states (F-states) and what it powers.
 *
 * Why a header of its own: in the WDK the struct is d3dkmddi.h's, like the
 * types it is built from (DXGK_POWER_RUNTIME_STATE, DXGK_POWER_COMPONENT_TYPE,
 * _MAPPING, _FLAGS, which wddmkit/d3dkmddi.h has), but it carries a GUID,
 * and the kit's GUID is dispmprt.h's, which wddmkit/d3dkmddi.h must not
 * need. driver.h (after dispmprt.h) and km.h include this header.
 *
 * Layout: the WDK's d3dkmddi.h (public copy of the 10.0.15063 header, repo
 * T-RN-R/ddk_headers shared/d3dkmddi.h, S3 of docs/wddm-ddi-tables.md; the
 * struct has had the same members since WIN8), the reference page
 * ns-d3dkmddi-_dxgk_power_runtime_component, and an offset dump of the
 * struct in a public sdkgen-style WDK 10 header (States 0x08,
 * ComponentMapping 0xC8, Flags 0xD0, ComponentGuid 0xD4, ComponentName 0xE4,
 * ProviderCount 0x10C, Providers 0x110, 0x150 bytes), which the asserts
 * below pin.
 *
 * Valid C11 and C++11.
 */
#ifndef WDDMKIT_DXGKPOWER_H
#define WDDMKIT_DXGKPOWER_H

#include <stddef.h>

#include "wddmkit/d3dkmddi.h"
#include "wddmkit/driver.h" /* GUID (dispmprt.h) */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct _DXGK_POWER_RUNTIME_COMPONENT {
    ULONG StateCount;                                       /* 0x000: F-states in States */
    DXGK_POWER_RUNTIME_STATE States[DXGK_MAX_F_STATES];     /* 0x008 */
    DXGK_POWER_COMPONENT_MAPPING ComponentMapping;          /* 0x0C8 */
    DXGK_POWER_COMPONENT_FLAGS Flags;                       /* 0x0D0 */
    GUID ComponentGuid;                                     /* 0x0D4: for the PEP */
    UCHAR ComponentName[DXGK_POWER_COMPONENT_NAME_SIZE];    /* 0x0E4: for profiling tools */
    ULONG ProviderCount;                                    /* 0x10C */
    ULONG Providers[DXGK_MAX_POWER_COMPONENT_PROVIDERS];    /* 0x110: component indices */
} DXGK_POWER_RUNTIME_COMPONENT;

WK_STATIC_ASSERT(offsetof(DXGK_POWER_RUNTIME_COMPONENT, States) == 0x08 &&
                     offsetof(DXGK_POWER_RUNTIME_COMPONENT, ComponentMapping) == 0xC8 &&
                     offsetof(DXGK_POWER_RUNTIME_COMPONENT, Flags) == 0xD0 &&
                     offsetof(DXGK_POWER_RUNTIME_COMPONENT, ComponentGuid) == 0xD4 &&
                     offsetof(DXGK_POWER_RUNTIME_COMPONENT, ComponentName) == 0xE4 &&
                     offsetof(DXGK_POWER_RUNTIME_COMPONENT, ProviderCount) == 0x10C &&
                     offsetof(DXGK_POWER_RUNTIME_COMPONENT, Providers) == 0x110 &&
                     sizeof(DXGK_POWER_RUNTIME_COMPONENT) == 0x150,
                 "DXGK_POWER_RUNTIME_COMPONENT has its x64 layout");

/* The power-management control codes dxgkrnl hands
 * DxgkDdiPowerRuntimeControlRequest (d3dkmddi.h's DEFINE_GUIDs, values from
 * a public copy of the WDK header). Defined here, weak and hidden, so every
 * unit may compare against them and the module holds one copy. */
#ifdef __cplusplus
#define WK_DXGK_GUID extern __attribute__((weak, visibility("hidden"))) const /* C++ const: internal unless extern */
#else
#define WK_DXGK_GUID __attribute__((weak, visibility("hidden"))) const
#endif
extern const GUID GUID_DXGKDDI_POWER_MANAGEMENT_PREPARE_TO_START;
extern const GUID GUID_DXGKDDI_POWER_MANAGEMENT_STARTED;
extern const GUID GUID_DXGKDDI_POWER_MANAGEMENT_STOPPED;
WK_DXGK_GUID GUID GUID_DXGKDDI_POWER_MANAGEMENT_PREPARE_TO_START = {
    0xcba549d4, 0xcf3a, 0x445c, { 0x94, 0x68, 0x23, 0x83, 0xfd, 0x52, 0x31, 0x16 } };
WK_DXGK_GUID GUID GUID_DXGKDDI_POWER_MANAGEMENT_STARTED = {
    0x6c929c1d, 0x7d76, 0x4538, { 0x93, 0xad, 0x44, 0x9d, 0xc9, 0xfd, 0xc2, 0x39 } };
WK_DXGK_GUID GUID GUID_DXGKDDI_POWER_MANAGEMENT_STOPPED = {
    0x0a9d9621, 0xbc21, 0x4dd4, { 0xa0, 0xfc, 0xd9, 0x76, 0xe4, 0x28, 0xf7, 0x38 } };

#ifdef __cplusplus
}
#endif

#endif /* WDDMKIT_DXGKPOWER_H */
