/* SPDX-License-Identifier: MIT */
/*
 * fuzz.h - the API of fuzz/ for the modules above it (cli/, harnesses/):
 * the harnesses' driver runtime and crash signatures (driver/), the input
 * formats of the driver harnesses and the seeds made from specs (inputs/),
 * the coverage and leak gates (gate/), and the tools the crash and
 * coverage commands build on (tools/), and the fuzzing campaign of
 * `wddmkit fuzz` (campaign/).
 */
#ifndef WK_FUZZ_H
#define WK_FUZZ_H

#include "campaign/campaign.h"
#include "crash/crash.h"
#include "driver/fuzz_driver.h"
#include "gate/coverage_gate.h"
#include "gate/elf_build_id.h"
#include "gate/elf_section.h"
#include "gate/leak_gate.h"
#include "inputs/seeds_lib.h"
#include "tools/coverage_run.h"
#include "tools/harness_names.h"
#include "tools/lcov_summary.h"

#endif
