# xdplab build. Everything generated goes to build/.
#   make            build build/xdplab
#   make demo       deps, build, run the lab table (xdplab lab run), write build/report.html
#   make check      deps, build, unit, docs/--help and layer checks, end-to-end tests
#   make unit       unit tests only (cmocka, no root needed)
#   make e2e        end-to-end tests only (root, veth lab)
#   make bench      lab run with more repetitions, JSON saved under bench/
#   make coverage   line and branch coverage of src/lib by the tests (gcovr)

CC       ?= gcc
CLANG    ?= clang
BPFTOOL  ?= bpftool
# demo, check and bench build in parallel (one job per CPU): make demo's
# three minutes include the build.
NPROC    := $(shell nproc 2>/dev/null || echo 1)
BUILD    := build
ARCH     := $(shell uname -m | sed 's/x86_64/x86/;s/aarch64/arm64/')
MULTIARCH:= $(shell $(CC) -print-multiarch 2>/dev/null)

PKGS     := libbpf libxdp libpcap jansson libmnl libnftables sqlite3 libpq zlib
CFLAGS   ?= -O2 -g
CFLAGS   += -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers -Wshadow -pthread \
	    -Iinclude -I$(BUILD) -D_GNU_SOURCE
# libpq's header lives in its own directory (Debian: /usr/include/postgresql).
CFLAGS   += $(shell pkg-config --cflags libpq 2>/dev/null || echo -I/usr/include/postgresql)
# Header dependencies come from the compiler (-MMD), so a change to a header
# rebuilds exactly the objects that include it; -MP keeps a deleted header
# from breaking the build.
DEPFLAGS := -MMD -MP
LDLIBS   += $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lbpf -lxdp -lpcap -ljansson -lmnl -lnftables -lsqlite3 -lpq -lelf -lz) -lpthread -lm

BPF_CFLAGS := -O2 -g -target bpf -D__TARGET_ARCH_$(ARCH) -Iinclude -Ibpf \
	      -I/usr/include/$(MULTIARCH) -Wall -Wno-unused-value

BPF_SRCS := $(wildcard bpf/*.bpf.c)
BPF_OBJS := $(patsubst bpf/%.bpf.c,$(BUILD)/%.bpf.o,$(BPF_SRCS))
SKELS    := $(patsubst bpf/%.bpf.c,$(BUILD)/%.skel.h,$(BPF_SRCS))

# Example user programs (docs/own-program.md): build/examples/NAME.o.
EXAMPLE_SRCS := $(wildcard examples/*.bpf.c)
EXAMPLE_OBJS := $(patsubst examples/%.bpf.c,$(BUILD)/examples/%.o,$(EXAMPLE_SRCS))

# The library is a folder per concern (docs/architecture.md).
LIB_DIRS := core sys pkt xdp gen xsk measure profile store html lab rows
LIB_SRCS := $(foreach d,$(LIB_DIRS),$(wildcard src/lib/$(d)/*.c))
CMD_SRCS := $(wildcard src/cmd/*.c)
LIB_OBJS := $(patsubst src/%.c,$(BUILD)/%.o,$(LIB_SRCS))
CMD_OBJS := $(patsubst src/%.c,$(BUILD)/%.o,$(CMD_SRCS))

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))
# Test-only BPF programs (tests/unit/*.bpf.c) and their skeletons, for the
# unit tests that run BPF code with BPF_PROG_RUN.
UNIT_BPF_SKELS := $(patsubst tests/unit/%.bpf.c,$(BUILD)/tests/bpf/%.skel.h,$(wildcard tests/unit/*.bpf.c))

.PHONY: all deps demo check unit e2e bench clean fuzz fuzz-bins unit-asan coverage
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

# The commit the binary is built from, stamped at build time (the results'
# "git", xdplab compare's "xdplab commit"): 12 hex digits, "-dirty" when
# tracked files differ from it, "unknown" outside a git checkout (a
# tarball). The header is rewritten only when that changes, so a make with
# nothing changed still compiles nothing.
XL_COMMIT := $(shell [ -e .git ] && git rev-parse HEAD 2>/dev/null | cut -c1-12)
XL_COMMIT := $(if $(XL_COMMIT),$(XL_COMMIT)$(shell git diff --quiet HEAD -- 2>/dev/null || echo -dirty),unknown)
# xdplab --version: `git describe --always --dirty --abbrev=12` at build
# time (the nearest tag, commits since and the commit; the commit alone
# while the repository has no tag), "unknown" outside a git checkout.
XL_DESCRIBE := $(shell [ -e .git ] && git describe --always --dirty --abbrev=12 2>/dev/null)
XL_DESCRIBE := $(if $(XL_DESCRIBE),$(XL_DESCRIBE),unknown)
$(BUILD)/xl_commit.h: FORCE | $(BUILD)
	@{ echo '#define XL_COMMIT "$(XL_COMMIT)"'; echo '#define XL_DESCRIBE "$(XL_DESCRIBE)"'; } > $@.tmp; \
	if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
FORCE:
$(BUILD)/cmd/json_cli.o $(BUILD)/asan/cmd/json_cli.o $(BUILD)/cov/cmd/json_cli.o: $(BUILD)/xl_commit.h

# Their dependency files go to build/deps/tests/ (build/tests/ holds only
# test binaries: tests/run-all.sh runs build/tests/test_*).
# Unit tests may reach the library's insides (-Isrc/lib/xsk: the hot path on
# fake rings; -Isrc/lib/sys: the softirq tracepoints' references on a fake
# instance; -Isrc/lib/measure: compare's shared verdict rule and pairing)
# and the command layer (-Isrc/cmd: option parsing).
$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libxdplab-cmd.a $(BUILD)/libxdplab.a | $(UNIT_BPF_SKELS)
	@mkdir -p $(dir $@)
	@mkdir -p $(BUILD)/deps/tests
	$(CC) $(CFLAGS) $(DEPFLAGS) -MF $(BUILD)/deps/tests/$*.d -Isrc/cmd -Isrc/lib/xsk -Isrc/lib/sys -Isrc/lib/measure -I$(BUILD)/tests/bpf -o $@ $< $(BUILD)/libxdplab-cmd.a $(BUILD)/libxdplab.a $(LDLIBS) -lcmocka

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
	@$(MAKE) --no-print-directory -j$(NPROC) all $(UNIT_BINS) $(TEST_PCAPS)
	@# The fuzz targets link their library sources by list: built here, a
	@# source missing from a list fails check, not the next make fuzz.
	@$(MAKE) --no-print-directory -j$(NPROC) fuzz-bins
	@$(MAKE) --no-print-directory unit-asan
	@./tests/run-all.sh

demo: deps
	@$(MAKE) --no-print-directory -j$(NPROC) all
	./$(BUILD)/xdplab lab run --with-monitor --json $(BUILD)/lab-results.json
	./$(BUILD)/xdplab report $(BUILD)/lab-results.json -o $(BUILD)/report.html

# Benchmarks of xdplab's own code (tests/bench/*.c): build/bench/NAME, run by scripts/bench.sh.
BENCH_BINS := $(patsubst tests/bench/%.c,$(BUILD)/bench/%,$(wildcard tests/bench/*.c))
$(BUILD)/bench/%: tests/bench/%.c $(BUILD)/libxdplab.a
	@mkdir -p $(dir $@) $(BUILD)/deps/bench
	$(CC) $(CFLAGS) $(DEPFLAGS) -MF $(BUILD)/deps/bench/$*.d -Isrc/lib/xsk -o $@ $< $(BUILD)/libxdplab.a $(LDLIBS)
# ... and BPF programs they compare (tests/bench/bpf/*.bpf.c): build/bench/NAME.bpf.o.
BENCH_BPF_OBJS := $(patsubst tests/bench/bpf/%.bpf.c,$(BUILD)/bench/%.bpf.o,$(wildcard tests/bench/bpf/*.bpf.c))
$(BUILD)/bench/%.bpf.o: tests/bench/bpf/%.bpf.c
	@mkdir -p $(dir $@)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

bench: deps
	@$(MAKE) --no-print-directory -j$(NPROC) all $(BENCH_BINS) $(BENCH_BPF_OBJS)
	@./scripts/bench.sh

# ---- Fuzzing (libFuzzer, clang) and the unit tests under ASan + UBSan ----
# make fuzz [FUZZ_SECONDS=600]: build every fuzz/fuzz_*.c with
# -fsanitize=fuzzer,address,undefined and the library sources it needs,
# seed it (build/test-pcaps, ../shared/corpus where present, the committed
# results in bench/) and run each for FUZZ_SECONDS; a finding stops it and
# leaves its input as build/fuzz/crash-*. docs/testing.md has the runs.
FUZZ_SECONDS ?= 600
FUZZ_CFLAGS := -g -O1 -std=gnu11 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	       -Iinclude -Isrc/cmd -I$(BUILD) -D_GNU_SOURCE
FUZZ_NAMES := $(patsubst fuzz/fuzz_%.c,%,$(wildcard fuzz/fuzz_*.c))
FUZZ_BINS := $(patsubst %,$(BUILD)/fuzz/fuzz_%,$(FUZZ_NAMES))
# The library sources each target runs (instrumented, not the gcc archive).
FUZZ_SRC_pcap := src/lib/pkt/pcapfile.c src/lib/pkt/pcapng.c src/lib/pkt/pkt.c src/lib/core/atomicfile.c src/lib/core/tmpdir.c src/lib/core/log.c src/lib/core/escape.c
FUZZ_SRC_parse := src/lib/pkt/pkt.c
FUZZ_SRC_opts := src/cmd/opts.c src/lib/core/opts.c src/lib/core/opts_help.c src/lib/core/opts_value.c src/lib/core/log.c src/lib/core/escape.c
FUZZ_SRC_compare := src/lib/measure/compare.c src/lib/measure/compare_read.c src/lib/measure/compare_env.c src/lib/measure/compare_fig.c src/lib/measure/calib.c src/lib/measure/compare_runs.c src/lib/measure/permtest.c src/lib/core/atomicfile.c src/lib/core/tmpdir.c src/lib/measure/fields.c src/lib/measure/rowfields.c src/lib/measure/report.c src/lib/sys/pmu.c src/lib/measure/compare_lat.c src/lib/measure/compare_rule.c src/lib/measure/utest.c src/lib/measure/stats.c src/lib/sys/env.c src/lib/core/log.c src/lib/core/escape.c
FUZZ_SRC_mapfile := src/lib/xdp/mapfile.c src/lib/core/log.c src/lib/core/escape.c
FUZZ_SRC_folded := src/lib/profile/folded.c src/lib/core/log.c src/lib/core/escape.c
FUZZ_SRC_report := $(wildcard src/lib/html/*.c) src/lib/store/trend.c src/lib/measure/changepoint.c src/lib/profile/folded.c src/lib/profile/flame.c src/lib/core/escape.c $(filter-out src/lib/core/log.c src/lib/core/escape.c,$(FUZZ_SRC_compare)) src/lib/core/log.c

.SECONDEXPANSION:
$(BUILD)/fuzz/fuzz_%: fuzz/fuzz_%.c $$(FUZZ_SRC_$$*) | $(SKELS)
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_SRC_$*) $(LDLIBS)

# Every fuzz target built, none run (make check builds them).
fuzz-bins: $(FUZZ_BINS)

fuzz: $(FUZZ_BINS) $(TEST_PCAPS)
	@FUZZ_SECONDS=$(FUZZ_SECONDS) ./scripts/fuzz.sh $(FUZZ_NAMES)

# Instrumented variants of the library, the commands and the unit tests,
# each in a folder of its own: $(call VARIANT,DIR,FLAGS) makes DIR/*.o from
# src/, DIR/libxdplab.a, DIR/libxdplab-cmd.a, DIR/tests/test_* and
# DIR/xdplab, all compiled with FLAGS. Two use it: build/asan (the unit tests
# under ASan + UBSan, part of make check) and build/cov (make coverage).
define VARIANT
$(1)/%.o: src/%.c | $$(SKELS)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(CFLAGS) $(2) $$(DEPFLAGS) -c $$< -o $$@

$(1)/libxdplab.a: $$(patsubst src/%.c,$(1)/%.o,$$(LIB_SRCS))
	rm -f $$@
	$$(AR) rcs $$@ $$^

$(1)/libxdplab-cmd.a: $$(patsubst src/%.c,$(1)/%.o,$$(filter-out src/cmd/main.c,$$(CMD_SRCS)))
	rm -f $$@
	$$(AR) rcs $$@ $$^

$(1)/tests/%: tests/unit/%.c $(1)/libxdplab-cmd.a $(1)/libxdplab.a | $$(UNIT_BPF_SKELS)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(CFLAGS) $(2) -Isrc/cmd -Isrc/lib/xsk -Isrc/lib/sys -Isrc/lib/measure -I$$(BUILD)/tests/bpf -o $$@ $$< $(1)/libxdplab-cmd.a $(1)/libxdplab.a $$(LDLIBS) -lcmocka

$(1)/xdplab: $(1)/cmd/main.o $(1)/libxdplab-cmd.a $(1)/libxdplab.a
	$$(CC) $$(CFLAGS) $(2) -o $$@ $(1)/cmd/main.o $(1)/libxdplab-cmd.a $(1)/libxdplab.a $$(LDLIBS)

-include $$(patsubst src/%.c,$(1)/%.d,$$(LIB_SRCS) $$(CMD_SRCS))
endef

# The unit tests again, built with gcc -fsanitize=address,undefined (every
# library and command object too, in build/asan/); part of make check.
ASAN_BUILD := $(BUILD)/asan
ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
ASAN_UNIT_BINS := $(patsubst $(BUILD)/tests/%,$(ASAN_BUILD)/tests/%,$(UNIT_BINS))
$(eval $(call VARIANT,$(ASAN_BUILD),$(ASAN_FLAGS)))

# make coverage: line and branch coverage of src/lib by the unit and the
# end-to-end tests (gcc --coverage in build/cov/, gcovr's report in
# build/coverage.txt and build/coverage.html). COVERAGE_E2E=0: unit tests only.
COV_BUILD := $(BUILD)/cov
COV_FLAGS := --coverage -O0
COV_UNIT_BINS := $(patsubst $(BUILD)/tests/%,$(COV_BUILD)/tests/%,$(UNIT_BINS))
COVERAGE_E2E ?= 1
$(eval $(call VARIANT,$(COV_BUILD),$(COV_FLAGS)))

coverage:
	@./scripts/deps.sh --coverage
	@$(MAKE) --no-print-directory -j$(NPROC) all $(COV_UNIT_BINS) $(COV_BUILD)/xdplab $(TEST_PCAPS)
	@COVERAGE_E2E=$(COVERAGE_E2E) ./scripts/coverage.sh $(COV_BUILD) $(COV_UNIT_BINS)

unit-asan: $(ASAN_UNIT_BINS) $(TEST_PCAPS)
	@bash -c 'set -o pipefail; ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		./tests/unit/run.sh $(ASAN_UNIT_BINS) | sed "s/^unit:/unit (ASan+UBSan):/"'

clean:
	rm -rf $(BUILD)

-include $(EXAMPLE_OBJS:.o=.d) $(LIB_OBJS:.o=.d) $(CMD_OBJS:.o=.d) $(BPF_OBJS:.o=.d) $(UNIT_BPF_SKELS:.skel.h=.bpf.d) $(patsubst $(BUILD)/tests/%,$(BUILD)/deps/tests/%.d,$(UNIT_BINS)) $(patsubst $(BUILD)/bench/%,$(BUILD)/deps/bench/%.d,$(BENCH_BINS))
