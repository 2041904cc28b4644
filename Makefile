# tinyaot — build, demo and test entry points.
#   make          build build/tinyaot
#   make demo     build, write the demo model, convert, build and run it on the host
#   make test     unit tests + every corpus case (+ the same under ASan/UBSan)
#   make test-unit  only the unit tests (tests/unit; tables registered in tests/unit/unit_tables.h)

CC      ?= gcc
CFLAGS  ?= -O2 -g
WARN    := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-unused-parameter
DEPFLAGS = -MMD -MP
BUILD   ?= build
SRC     := $(sort $(wildcard src/*/*.c src/*/*/*.c))
OBJ     := $(SRC:%.c=$(BUILD)/obj/%.o)
RUNTIME := $(sort $(wildcard runtime/kernels/*.c runtime/kernels/*.h))
CORPUS  ?= ../shared/corpus
# `tinyaot --version` and every generated file's header: the release and the commit built.
VERSION := 0.1.0
GIT_REV := $(shell git --no-optional-locks describe --always --dirty --abbrev=12 2>/dev/null)
ifeq ($(GIT_REV),)
GIT_REV := unknown
endif

.PHONY: bench-opt
.PHONY: all demo test test-unit test-corpus test-asan clean docs prereqs FORCE

all: $(BUILD)/tinyaot

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(VERSION_DEFS) $(DEPFLAGS) -c $< -o $@

# version.o is rebuilt when the version or the commit changes (the stamp file's content).
$(BUILD)/gen/version.txt: FORCE
	@mkdir -p $(dir $@)
	@echo '$(VERSION) $(GIT_REV)' | cmp -s - $@ 2>/dev/null || echo '$(VERSION) $(GIT_REV)' >$@
$(BUILD)/obj/src/common/version.o: $(BUILD)/gen/version.txt
$(BUILD)/obj/src/common/version.o: VERSION_DEFS = -DTINYAOT_VERSION='"$(VERSION)"' -DTINYAOT_REVISION='"$(GIT_REV)"'

# The runtime kernels are embedded in the compiler so that it is self-contained.
$(BUILD)/embed: tools/embed.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -O1 $< -o $@

$(BUILD)/gen/runtime_blobs.c: $(BUILD)/embed $(RUNTIME)
	@mkdir -p $(dir $@)
	$(BUILD)/embed $@ $(RUNTIME)

$(BUILD)/obj/gen/runtime_blobs.o: $(BUILD)/gen/runtime_blobs.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) -Isrc -c $< -o $@

$(BUILD)/tinyaot: $(OBJ) $(BUILD)/obj/gen/runtime_blobs.o
	$(CC) $(CFLAGS) $^ -o $@ -lyaml -lz -lm

-include $(OBJ:.o=.d)

$(BUILD)/demo_model: tools/make_demo_model.c tools/fbwriter.c tools/fbwriter.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -O1 $< -o $@ -lm

# demo and test first check (as root: install) the Debian packages they need.
demo:
	@sh tools/prereqs.sh demo
	@$(MAKE) --no-print-directory $(BUILD)/tinyaot $(BUILD)/demo_model
	@sh tools/demo.sh $(BUILD)

test-unit: $(BUILD)/unit_tests
	@$(BUILD)/unit_tests

test:
	@sh tools/prereqs.sh test
	@$(MAKE) --no-print-directory $(BUILD)/tinyaot $(BUILD)/compare $(BUILD)/demo_model
	@sh tests/run_tests.sh $(BUILD) $(CORPUS)

prereqs:
	@sh tools/prereqs.sh test

# The README's measured tables, rewritten from the runs that measure them (multi_model.sh checks them).
.PHONY: readme-tables
readme-tables: $(BUILD)/tinyaot
	@sh tools/readme_tables.sh $(BUILD) $(CORPUS) README.md

clean:
	rm -rf $(BUILD)

# make install [PREFIX=/usr/local] [DESTDIR=]: bin/tinyaot, bin/helia-aot (a link to it:
# heliaAOT's command name and defaults), share/man/man1/tinyaot.1 and
# share/bash-completion/completions/tinyaot (no kernel sources: the binary embeds them);
# make uninstall removes exactly what install put there (dist/install.sh records it).
PREFIX ?= /usr/local
DESTDIR ?=
.PHONY: install uninstall
install: $(BUILD)/tinyaot
	@sh dist/install.sh install "$(DESTDIR)$(PREFIX)" $(BUILD)/tinyaot

uninstall:
	@sh dist/install.sh uninstall "$(DESTDIR)$(PREFIX)"

$(BUILD)/compare: tests/tools/compare.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -O1 $< -o $@ -lm

UNIT_SRC := $(sort $(wildcard tests/unit/*.c))
UNIT_OBJ := $(filter-out $(BUILD)/obj/src/cli/main.o,$(OBJ)) $(BUILD)/obj/gen/runtime_blobs.o
$(BUILD)/unit_tests: $(UNIT_SRC) $(UNIT_OBJ) tools/fbwriter.c tools/fbwriter.h $(wildcard tests/unit/*.h)
	$(CC) $(WARN) $(CFLAGS) -Isrc -Itools $(UNIT_SRC) tools/fbwriter.c $(UNIT_OBJ) -o $@ -lyaml -lz -lm

# Fuzzing (issue 7; docs/robustness.md): every fuzz/fuzz_<name>.c is a libFuzzer target,
# linked with the compiler's objects built by clang with ASan+UBSan and coverage.
# `make fuzz FUZZ_SECONDS=N` builds them all and runs each for N seconds, one at a time.
FUZZ_SECONDS ?= 60
FUZZ_CC  ?= clang
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_SRC := $(sort $(wildcard fuzz/fuzz_*.c))
FUZZ_BIN := $(FUZZ_SRC:fuzz/%.c=$(FUZZ_DIR)/%)
FUZZ_OBJ := $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(filter-out src/cli/main.c,$(SRC))) $(FUZZ_DIR)/obj/gen/runtime_blobs.o

.PHONY: fuzz fuzz-build

$(FUZZ_DIR)/obj/src/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WARN) -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link $(DEPFLAGS) -c $< -o $@

$(FUZZ_DIR)/obj/gen/runtime_blobs.o: $(BUILD)/gen/runtime_blobs.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WARN) -O1 -Isrc -c $< -o $@

$(FUZZ_DIR)/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz_common.h $(FUZZ_OBJ)
	$(FUZZ_CC) $(WARN) -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer -Isrc $< $(FUZZ_OBJ) -o $@ -lyaml -lz -lm

-include $(FUZZ_OBJ:.o=.d)

fuzz-build: $(FUZZ_BIN)

fuzz: $(FUZZ_BIN)
	@sh fuzz/run_fuzz.sh $(FUZZ_DIR) $(FUZZ_SECONDS) $(CORPUS)

# Issue 16: differential fuzzing against TFLite Micro's reference kernels (tools/fuzz_diff/,
# docs/robustness.md). FUZZ_DIFF_MODELS=N / FUZZ_DIFF_SECONDS=S / FUZZ_DIFF_SEED=S bound it.
ORACLE ?= ../shared/oracle/tflm_ref
.PHONY: fuzz-diff
$(BUILD)/fuzz_diff_gen: tools/fuzz_diff/fuzz_diff_gen.c tools/fbwriter.c tools/fbwriter.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -O1 -Itools tools/fuzz_diff/fuzz_diff_gen.c tools/fbwriter.c -o $@ -lm

fuzz-diff: $(BUILD)/tinyaot $(BUILD)/fuzz_diff_gen
	@sh tools/fuzz_diff/fuzz_diff.sh $(BUILD) $(ORACLE)

# Issue 29: int16 requantising elementwise operators against the reference (s16_elementwise suite).
$(BUILD)/s16_ew_gen: tools/s16_ew/s16_ew_gen.c tools/fbwriter.c tools/fbwriter.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -O1 -Itools tools/s16_ew/s16_ew_gen.c tools/fbwriter.c -o $@ -lm

# Issue 29: the same random graphs on the host and on QEMU Cortex-M4 / Cortex-M55 (the DSP/MVE
# tiers), every verdict compared across them; FUZZ_DIFF_TARGET="m55" (or m4, host) narrows it.
.PHONY: fuzz-diff-target
fuzz-diff-target: $(BUILD)/tinyaot $(BUILD)/fuzz_diff_gen
	@FUZZ_DIFF_TARGET="$${FUZZ_DIFF_TARGET:-host m4 m55}" sh tools/fuzz_diff/fuzz_diff.sh $(BUILD) $(ORACLE)

# Issue 4: on the target. `make bench` measures the MLPerf Tiny models on QEMU Cortex-M4/M55
# (bench/README.md); `make test-target` runs every corpus model there (tests/run_target_tests.sh).
.PHONY: bench test-target
bench: $(BUILD)/tinyaot $(BUILD)/compare
	@sh bench/bench.sh $(BUILD) $(CORPUS)

# The per-operator cost model (docs/kernels.md, "Cost model"): cost-model refits
# src/resolve/cost_table.c from bench/layers.json and bench/cost/*.json (run it after make
# bench); cost-measure re-measures the portable kernels and the code bytes (QEMU, minutes).
# cost-cycles: the portable kernels' cycles only (bench/cost/portable_cycles.json).
.PHONY: cost-model cost-measure cost-cycles
cost-model: $(BUILD)/tinyaot
	@python3 tools/fit_cost_model.py $(BUILD)/tinyaot $(CORPUS) src/resolve/cost_table.c
	@$(MAKE) --no-print-directory BUILD=$(BUILD) $(BUILD)/tinyaot
cost-measure: $(BUILD)/tinyaot $(BUILD)/compare
	@sh tools/cost_measure.sh $(BUILD) $(CORPUS)
cost-cycles: $(BUILD)/tinyaot $(BUILD)/compare
	@COST_MEASURE_CYCLES=1 sh tools/cost_measure.sh $(BUILD) $(CORPUS)

# Flash with the capability-gated optimisations on and off (bench/opt_sizes.md).
bench-opt: $(BUILD)/tinyaot
	@sh bench/opt_sizes.sh $(BUILD) $(CORPUS)

test-target: $(BUILD)/tinyaot $(BUILD)/compare
	@sh tests/run_target_tests.sh $(BUILD) $(CORPUS)

# The whole corpus (case 0 of every model and op directory) on QEMU M4 and M55 with the
# DSP/MVE tiers; make test runs the models and the tiered int8 operators there. Then every
# model again with --memory.optimize max and with every memory rewrite off; then the
# differential sweeps at their long budgets (tests/run_full_sweeps.sh).
.PHONY: test-full
test-full: $(BUILD)/tinyaot $(BUILD)/compare
	@TARGET_OPS=all sh tests/run_target_tests.sh $(BUILD) $(CORPUS)
	@TARGET_OPS=none TARGET_TINYAOT_ARGS="--memory.optimize max" sh tests/run_target_tests.sh $(BUILD) $(CORPUS)
	@TARGET_OPS=none TARGET_TINYAOT_ARGS="--no-alias --no-fold-pad --no-elide-quantize --no-concat-views --no-slice-views --no-inplace" \
	  sh tests/run_target_tests.sh $(BUILD) $(CORPUS)
	@sh tests/run_full_sweeps.sh $(BUILD) $(CORPUS)
