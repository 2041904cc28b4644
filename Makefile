# tinyaot — build, demo and test entry points.
#   make          build build/tinyaot
#   make demo     build, write the demo model, convert, build and run it on the host
#   make test     unit tests + every corpus case (+ the same under ASan/UBSan)

CC      ?= gcc
CFLAGS  ?= -O2 -g
WARN    := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-unused-parameter
DEPFLAGS = -MMD -MP
BUILD   ?= build
SRC     := $(sort $(wildcard src/*/*.c))
OBJ     := $(SRC:%.c=$(BUILD)/obj/%.o)
RUNTIME := $(sort $(wildcard runtime/kernels/*.c runtime/kernels/*.h))
CORPUS  ?= ../shared/corpus

.PHONY: all demo test test-unit test-corpus test-asan clean docs

all: $(BUILD)/tinyaot

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(DEPFLAGS) -c $< -o $@

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
	$(CC) $(CFLAGS) $^ -o $@ -lm

-include $(OBJ:.o=.d)

$(BUILD)/demo_model: tools/make_demo_model.c tools/fbwriter.c tools/fbwriter.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -O1 $< -o $@ -lm

demo: $(BUILD)/tinyaot $(BUILD)/demo_model
	@sh tools/demo.sh $(BUILD)

test: $(BUILD)/tinyaot $(BUILD)/compare $(BUILD)/demo_model
	@sh tests/run_tests.sh $(BUILD) $(CORPUS)

clean:
	rm -rf $(BUILD)

$(BUILD)/compare: tests/tools/compare.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -O1 $< -o $@ -lm

UNIT_SRC := $(sort $(wildcard tests/unit/*.c))
UNIT_OBJ := $(filter-out $(BUILD)/obj/src/cli/main.o,$(OBJ)) $(BUILD)/obj/gen/runtime_blobs.o
$(BUILD)/unit_tests: $(UNIT_SRC) $(UNIT_OBJ) tools/fbwriter.c tools/fbwriter.h tests/unit/unit.h
	$(CC) $(WARN) $(CFLAGS) -Isrc -Itools $(UNIT_SRC) tools/fbwriter.c $(UNIT_OBJ) -o $@ -lm
