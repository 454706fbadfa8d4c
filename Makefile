# SPDX-License-Identifier: MIT
# The quick start: `make conform` (the main job) and `make test` (every test).
# Both install missing Debian packages first (scripts/ensure-deps.sh), then
# configure once and build incrementally with the CMake preset PRESET.
PRESET ?= default
BUILD := build/$(PRESET)
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all deps configure build test test-hostile conform bench fuzz-smoke clean

all: build

deps:
	@bash scripts/ensure-deps.sh

$(BUILD)/build.ninja: CMakeLists.txt CMakePresets.json | deps
	cmake --preset $(PRESET)

configure: deps $(BUILD)/build.ninja

build: configure
	cmake --build --preset $(PRESET) -j $(JOBS)

test: build
	ctest --preset $(PRESET) -j $(JOBS)

# The hostile set alone: the tests docs/threat-model.md names (ctest -L hostile).
test-hostile: build
	ctest --preset $(PRESET) -L hostile -j $(JOBS)

# The main job: the whole conformance suite (specs/) against the built-in
# reference driver, with JUnit and JSON reports and the coverage summary.
# Another driver: make conform DRIVER=path/to/driver.so
DRIVER ?=
conform: build
	$(BUILD)/cli/wddmkit conform -j $(JOBS) $(if $(DRIVER),--driver $(DRIVER)) \
	    --junit $(BUILD)/conform.junit.xml --json $(BUILD)/conform.json --coverage

bench: PRESET = default
bench: build
	$(BUILD)/bench/gpu_copy
	$(BUILD)/bench/gpu_blit
	$(BUILD)/bench/conform_speed
	$(BUILD)/bench/vidmm_scale

clean:
	rm -rf build
