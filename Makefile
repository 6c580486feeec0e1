# xdplab build. Everything generated goes to build/.
#   make            build build/xdplab
#   make demo       deps, build, run the lab table (xdplab lab run), write build/report.html
#   make check      deps, build, unit and end-to-end tests
#   make unit       unit tests only (cmocka, no root needed)
#   make e2e        end-to-end tests only (root, veth lab)
#   make bench      lab run with more repetitions, JSON saved under bench/

CC       ?= gcc
CLANG    ?= clang
BPFTOOL  ?= bpftool
BUILD    := build
ARCH     := $(shell uname -m | sed 's/x86_64/x86/;s/aarch64/arm64/')
MULTIARCH:= $(shell $(CC) -print-multiarch 2>/dev/null)

PKGS     := libbpf libxdp libpcap jansson libmnl libnftables
CFLAGS   ?= -O2 -g
CFLAGS   += -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers -Wshadow -pthread \
	    -Iinclude -I$(BUILD) -D_GNU_SOURCE
# Header dependencies come from the compiler (-MMD), so a change to a header
# rebuilds exactly the objects that include it; -MP keeps a deleted header
# from breaking the build.
DEPFLAGS := -MMD -MP
LDLIBS   += $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lbpf -lxdp -lpcap -ljansson -lmnl -lnftables -lelf -lz) -lpthread -lm

BPF_CFLAGS := -O2 -g -target bpf -D__TARGET_ARCH_$(ARCH) -Iinclude -Ibpf \
	      -I/usr/include/$(MULTIARCH) -Wall -Wno-unused-value

BPF_SRCS := $(wildcard bpf/*.bpf.c)
BPF_OBJS := $(patsubst bpf/%.bpf.c,$(BUILD)/%.bpf.o,$(BPF_SRCS))
SKELS    := $(patsubst bpf/%.bpf.c,$(BUILD)/%.skel.h,$(BPF_SRCS))

# Example user programs (docs/own-program.md): build/examples/NAME.o.
EXAMPLE_SRCS := $(wildcard examples/*.bpf.c)
EXAMPLE_OBJS := $(patsubst examples/%.bpf.c,$(BUILD)/examples/%.o,$(EXAMPLE_SRCS))

# The library is a folder per concern (docs/architecture.md).
LIB_DIRS := core sys pkt xdp gen xsk measure profile html lab
LIB_SRCS := $(foreach d,$(LIB_DIRS),$(wildcard src/lib/$(d)/*.c))
CMD_SRCS := $(wildcard src/cmd/*.c)
LIB_OBJS := $(patsubst src/%.c,$(BUILD)/%.o,$(LIB_SRCS))
CMD_OBJS := $(patsubst src/%.c,$(BUILD)/%.o,$(CMD_SRCS))

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))
# Test-only BPF programs (tests/unit/*.bpf.c) and their skeletons, for the
# unit tests that run BPF code with BPF_PROG_RUN.
UNIT_BPF_SKELS := $(patsubst tests/unit/%.bpf.c,$(BUILD)/tests/bpf/%.skel.h,$(wildcard tests/unit/*.bpf.c))

.PHONY: all deps demo check unit e2e bench clean
# Objects and skeletons are kept: a second make with nothing changed runs no
# compiler (make would otherwise delete them as intermediates and rebuild).
.SECONDARY: $(BPF_OBJS) $(SKELS) $(UNIT_BPF_SKELS) $(UNIT_BPF_SKELS:.skel.h=.bpf.o)

all: $(BUILD)/xdplab $(EXAMPLE_OBJS)

deps:
	@./scripts/deps.sh

$(BUILD)/%.bpf.o: bpf/%.bpf.c | $(BUILD)
	$(CLANG) $(BPF_CFLAGS) $(DEPFLAGS) -MF $(BUILD)/$*.bpf.d -MT $@ -c $< -o $@

$(BUILD)/examples/%.o: examples/%.bpf.c
	@mkdir -p $(dir $@)
	$(CLANG) -O2 -g -target bpf -I/usr/include/$(MULTIARCH) -Wall $(DEPFLAGS) -MF $(BUILD)/examples/$*.d -MT $@ -c $< -o $@

$(BUILD)/%.skel.h: $(BUILD)/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $(subst -,_,$(notdir $*)) > $@

$(BUILD)/tests/bpf/%.bpf.o: tests/unit/%.bpf.c | $(BUILD)
	@mkdir -p $(dir $@)
	$(CLANG) $(BPF_CFLAGS) $(DEPFLAGS) -MF $(BUILD)/tests/bpf/$*.bpf.d -MT $@ -c $< -o $@

# Skeletons are an order-only prerequisite: they must exist before the first
# compile; after that the generated .d files name the ones each object uses.
$(BUILD)/lib/%.o: src/lib/%.c | $(SKELS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/cmd/%.o: src/cmd/%.c | $(SKELS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(DEPFLAGS) -c $< -o $@

# Archives are written afresh: a renamed or deleted source leaves no member.
$(BUILD)/libxdplab.a: $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

# The commands without main(), so unit tests can call option parsing.
$(BUILD)/libxdplab-cmd.a: $(filter-out $(BUILD)/cmd/main.o,$(CMD_OBJS))
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/xdplab: $(BUILD)/cmd/main.o $(BUILD)/libxdplab-cmd.a $(BUILD)/libxdplab.a
	$(CC) $(CFLAGS) -o $@ $(BUILD)/cmd/main.o $(BUILD)/libxdplab-cmd.a $(BUILD)/libxdplab.a $(LDLIBS)

# Their dependency files go to build/deps/tests/ (build/tests/ holds only
# test binaries: tests/run-all.sh runs build/tests/test_*).
# Unit tests may reach the library's insides (-Isrc/lib/xsk: the hot path on
# fake rings) and the command layer (-Isrc/cmd: option parsing).
$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libxdplab-cmd.a $(BUILD)/libxdplab.a | $(UNIT_BPF_SKELS)
	@mkdir -p $(dir $@)
	@mkdir -p $(BUILD)/deps/tests
	$(CC) $(CFLAGS) $(DEPFLAGS) -MF $(BUILD)/deps/tests/$*.d -Isrc/cmd -Isrc/lib/xsk -I$(BUILD)/tests/bpf -o $@ $< $(BUILD)/libxdplab-cmd.a $(BUILD)/libxdplab.a $(LDLIBS) -lcmocka

$(BUILD):
	@mkdir -p $(BUILD)

# The project's own test captures (scripts/make-test-pcaps.py), read by the
# unit tests' capture parse; ../shared/corpus adds more where present.
TEST_PCAPS := $(BUILD)/test-pcaps/.made
$(TEST_PCAPS): scripts/make-test-pcaps.py
	@python3 $< $(dir $@)
	@touch $@

unit: $(UNIT_BINS) $(TEST_PCAPS)
	@./tests/unit/run.sh $(UNIT_BINS)

e2e: $(BUILD)/xdplab
	@./tests/e2e/run.sh

check:
	@./scripts/deps.sh --test
	@$(MAKE) --no-print-directory all $(UNIT_BINS) $(TEST_PCAPS)
	@./tests/run-all.sh

demo: deps
	@$(MAKE) --no-print-directory all
	./$(BUILD)/xdplab lab run --with-monitor --json $(BUILD)/lab-results.json
	./$(BUILD)/xdplab report $(BUILD)/lab-results.json -o $(BUILD)/report.html

bench: deps
	@$(MAKE) --no-print-directory all
	@./scripts/bench.sh

clean:
	rm -rf $(BUILD)

-include $(EXAMPLE_OBJS:.o=.d) $(LIB_OBJS:.o=.d) $(CMD_OBJS:.o=.d) $(BPF_OBJS:.o=.d) $(UNIT_BPF_SKELS:.skel.h=.bpf.d) $(patsubst $(BUILD)/tests/%,$(BUILD)/deps/tests/%.d,$(UNIT_BINS))
