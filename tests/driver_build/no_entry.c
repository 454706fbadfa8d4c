/* SPDX-License-Identifier: MIT */
/*
 * no_entry.c - a shared object that loads but exports no DriverEntry (a
 * system library given as --driver by mistake): a harness must refuse it
 * before its first input with exit 2, not abort at the first input as a
 * crash (fuzz/driver/load.c, LLVMFuzzerInitialize).
 */
int wk_test_not_a_driver(int x);

int wk_test_not_a_driver(int x)
{
    return x + 1;
}
