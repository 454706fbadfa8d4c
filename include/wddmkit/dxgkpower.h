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

#ifdef __cplusplus
}
#endif

#endif /* WDDMKIT_DXGKPOWER_H */
