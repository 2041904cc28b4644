# The part of neuralSPOT's make that a module.mk relies on: `subdirectory` set from the
# makefile being included, BINDIR, includes_api, DEFINES, bindirs and make-library.
#   make -f neuralspot.mk MODULE=<module folder, relative> APP=<app_main.c> CC=... CFLAGS=...
#        MODEL_NAME=<name> MODEL_PREFIX=<prefix> [LDFLAGS=...]
.DEFAULT_GOAL := all
CC      ?= cc
AR      ?= ar
BINDIR  := build
includes_api :=
DEFINES :=
bindirs :=
libraries :=

# neuralSPOT: each module is included with its folder in $(subdirectory).
subdirectory = $(patsubst %/module.mk,%,$(word $(words $(MAKEFILE_LIST)),$(MAKEFILE_LIST)))

define make-library
libraries += $1
$1: $(patsubst %.c,$(BINDIR)/%.o,$2)
	@mkdir -p $$(dir $$@)
	$(AR) rcs $$@ $$^
endef

include $(MODULE)/module.mk

all: $(BINDIR)/app.axf

$(BINDIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) -std=c99 $(CFLAGS) $(addprefix -D,$(DEFINES)) $(addprefix -I,$(includes_api)) -c $< -o $@

$(BINDIR)/app.axf: $(APP) $(libraries)
	$(CC) -std=c99 $(CFLAGS) '-DMODEL_HEADER="$(MODEL_NAME)_model.h"' -DMODEL_PREFIX=$(MODEL_PREFIX) \
	  $(addprefix -I,$(includes_api)) $(APP) $(libraries) $(LDFLAGS) -lm -o $@

.PHONY: all
