# The quick start: `make conform` (the main job) and `make test` (every test).
# Both install missing Debian packages first (scripts/ensure-deps.sh), then
# configure once and build incrementally with the CMake preset PRESET.
PRESET ?= default
BUILD := build/$(PRESET)
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all deps configure build test conform bench fuzz-smoke clean

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

# The main job: the built-in conformance scenarios against the reference
# driver (`wddmkit check`), then every test labelled "conform" (the same
# scenarios through the shared object, and the GPU model's command-set
# suite). The YAML spec runner (issue "Conformance") takes this over.
conform: build
	$(BUILD)/conformance/wddmkit check
	ctest --preset $(PRESET) -L conform -j $(JOBS)

bench: PRESET = default
bench: build
	$(BUILD)/bench/gpu_copy

clean:
	rm -rf build
