// SPDX-License-Identifier: MIT
// test_ddiparams.c as C++17: a parameter name that denotes another type
// than the DDI's is an error when the function is assigned to the table.
#include "test_ddiparams.c"
