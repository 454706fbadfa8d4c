/* SPDX-License-Identifier: MIT */
/*
 * conformance.h - the API of conformance/ for the modules above it (fuzz/,
 * cli/, harnesses/): step programs and their interpreter (prog/), the
 * YAML spec loader (spec/), the case runner with its expectations
 * file and case list (runner/), and its JSON reports read back
 * (results/). spec/spec_internal.h is private to this folder.
 */
#ifndef WK_CONFORMANCE_H
#define WK_CONFORMANCE_H

#include "prog/conform.h"
#include "prog/prog.h"
#include "results/results.h"
#include "runner/caselist.h"
#include "runner/expectations.h"
#include "runner/isolation.h"
#include "runner/journal.h"
#include "runner/runner.h"
#include "runner/sarif.h"
#include "spec/spec.h"

#endif
