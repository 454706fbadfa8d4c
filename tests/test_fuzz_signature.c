/* SPDX-License-Identifier: MIT */
/*
 * test_fuzz_signature.c - one bug, one signature: a finding that broke no
 * rule (a differential mismatch) is signed by the words that name the bug
 * (wk_fuzz_finding_as), never by the step number, allocation number, byte
 * offset or reference status of the input that found it. Checked through
 * WK_FUZZ_IGNORE: two findings of one kind from different inputs are both
 * passed over by the one signature listed, a finding of another kind is
 * not. The list is read once per process, at the first finding: this file
 * is a program of its own.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "fuzz.h"

static void findings_of_one_kind_share_a_signature(void **state)
{
    (void)state;
    setenv("WK_FUZZ_IGNORE", "finding: differential: render returned WK_E_DRIVER_FAILED on the driver under test", 1);
    setenv("WK_FUZZ_NO_ABORT", "1", 1);
    const char *kind = "differential: render returned WK_E_DRIVER_FAILED on the driver under test";
    wk_fuzz_finding_as("test", NULL, kind, "step %u (render): the driver under test returned %s (%s), the reference %s",
                       3u, "WK_E_DRIVER_FAILED", "DxgkDdiRender rejected the command buffer", "WK_OK");
    wk_fuzz_finding_as("test", NULL, kind, "step %u (render): the driver under test returned %s (%s), the reference %s",
                       17u, "WK_E_DRIVER_FAILED", "another detail", "WK_E_STATE");
    assert_int_equal(wk_fuzz_ignored(), 2);
    assert_int_equal(wk_fuzz_findings(), 0);
    wk_fuzz_finding_as("test", NULL, "differential: patch returned WK_E_CONTRACT on the driver under test",
                       "step %u (patch): ...", 3u);
    assert_int_equal(wk_fuzz_findings(), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(findings_of_one_kind_share_a_signature) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
