# SPDX-License-Identifier: MIT
# cli/fuzztools.cmake - the tests of crash reproduction and regressions:
# `wddmkit prog dump | repro | minimize | promote | triage`.
# include()d at the end of cli/CMakeLists.txt; the other tests are in
# tests/fuzztools_tests.cmake, the planted-bug drivers and their tests in
# examples/drivers/.
