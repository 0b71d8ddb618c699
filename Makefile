# epi: energy per instruction. Plain Makefile; see README.md.
# make            library and commands into bin/
# make check      all tests (unit tests under ASan/UBSan, end-to-end tests)
# make demo       calibrate this machine quickly, predict with it, then the RR-8416 examples
# make bench      benchmark figures
# make fuzz       the parsers under libFuzzer for FUZZ_TIME seconds each (default 60), then
#                 CSMITH random programs (default 200) through epi-predict; see fuzz/run.sh
# make accuracy   predicted against sampled time per loop nest, evals/kernels/ (KERNELS= CCS= LEVELS= TABLE= MODEL=),
#                 then evals/styles/ by gcc at -O0 and -O2 with the same table (STYLES=0 skips it),
#                 then each kernel's machine instructions against callgrind's, evals/counts.sh (COUNTS=0 skips it)
# make install    PREFIX=/usr/local DESTDIR=

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man
DATADIR = $(PREFIX)/share/epi

LLVM_DIR ?= /usr/lib/llvm-19
CC ?= cc
CFLAGS ?= -O2 -g
# format-truncation: sysfs paths are composed with snprintf into fixed buffers;
# a path too long is cut and then fails to open with its name in the message
WARN = -std=c11 -Wall -Wextra -Wno-unused-parameter -Wno-format-truncation -D_DEFAULT_SOURCE
PKGS = libxml-2.0 jansson gmp gsl libdw zlib capstone
DEPCFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null) -I/usr/include/flint -I$(LLVM_DIR)/include
DEPLIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lflint -L$(LLVM_DIR)/lib -Wl,-rpath,$(LLVM_DIR)/lib -lclang -lLLVM-19 -lm -pthread
VERSION = 0.1.0
ALL_CFLAGS = $(WARN) $(CFLAGS) $(DEPCFLAGS) -I. -DEPI_VERSION='"$(VERSION)"' -DEPI_CLANG='"$(LLVM_DIR)/bin/clang"' -MMD -MP
SAN = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined -DEPI_FREE_AT_EXIT

# Debian packages the build and the tests need; installed by `make deps` when missing.
DEB_PKGS = pkg-config libclang-19-dev libgsl-dev libxml2-dev libcmocka-dev libdw-dev \
           libflint-dev libgmp-dev libjansson-dev zlib1g-dev libfuse3-dev fuse3 gnuplot-nox \
           gcc-aarch64-linux-gnu libc6-dev-arm64-cross libmimalloc-dev \
           clang-19 llvm-19 libclang-rt-19-dev libomp-19-dev python3 libcapstone-dev valgrind libcsmith-dev \
           slurmctld slurmd slurm-client munge
BENCH_PKGS = clang-19
# make fuzz: libFuzzer comes with clang's runtime; csmith writes random C
FUZZ_PKGS = clang-19 libclang-rt-19-dev csmith libcsmith-dev

ifeq ($(V),1)
Q =
else
Q = @
endif

LIB_SRC = model/ops.c model/freq.c model/table.c model/util.c \
          predict/poly.c predict/sym.c predict/counts.c predict/cfront.c predict/report.c predict/trips.c \
          machine/sysroot.c machine/cpu.c machine/meter.c machine/meter_powercap.c \
          machine/meter_msr.c machine/meter_perf.c machine/perf_sys.c machine/meter_hwmon.c \
          machine/meter_wattsup.c machine/meter_simple.c machine/meter_slurm.c machine/cpufreq.c \
          $(wildcard bench/*.c) $(wildcard calibrate/*.c) $(wildcard validate/*.c)
LIB_SRC += predict/fm.c predict/symfmt.c
LIB_SRC += predict/chunks.c predict/pragmas.c predict/compdb.c predict/nests.c predict/sizes.c predict/cmdline.c
LIB_SRC += fleet/report.c fleet/slurm.c
LIB_SRC += predict/isa.c predict/objcode.c predict/mcount.c predict/mprice.c predict/mmodel.c predict/mstride.c predict/mflow.c
CMDS = epi-predict epi
# `epi CMD` is also `epi-CMD`: links to bin/epi
EPI_SUBCMDS = probe measure freq calibrate profile validate trips fleet
EPI_SRC = cmd/epi.c cmd/die.c cmd/epi_probe.c cmd/epi_measure.c cmd/epi_freq.c cmd/epi_calibrate.c cmd/epi_profile.c cmd/epi_validate.c cmd/epi_trips.c cmd/epi_fleet.c
EPI_LINKS = $(EPI_SUBCMDS:%=bin/epi-%)

GEN_SRC = build/gen/costtable_xsd.c
OBJ = $(LIB_SRC:%.c=build/obj/%.o) build/obj/gen/costtable_xsd.o
SOBJ = $(LIB_SRC:%.c=build/san/%.o) build/san/gen/costtable_xsd.o
BINS = $(CMDS:%=bin/%)

TESTS = $(patsubst tests/%.c,%,$(wildcard tests/test_*.c))
TEST_BINS = $(TESTS:%=build/tests/%)

# the parsers' fuzz harnesses (fuzz/fuzz_NAME.c): libFuzzer programs for
# `make fuzz`, and replays of their corpora for `make check`
FUZZERS = table trace measured wattsup args compdb
REPLAYS = $(FUZZERS:%=build/tests/replay_%)
FUZZ_CC = $(LLVM_DIR)/bin/clang
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FOBJ = $(LIB_SRC:%.c=build/fuzz/obj/%.o) build/fuzz/obj/gen/costtable_xsd.o

.PHONY: all deps check demo bench accuracy fuzz install clean
.SECONDARY:
all: deps $(BINS) $(EPI_LINKS)

deps:
	$(Q)sh scripts/deps.sh $(DEB_PKGS)

build/gen/costtable_xsd.c: data/costtable.xsd scripts/embed.sh
	@mkdir -p $(dir $@)
	$(Q)sh scripts/embed.sh epi_costtable_xsd $< > $@

build/obj/gen/%.o: build/gen/%.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

build/san/gen/%.o: build/gen/%.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -O1 $(SAN) $(KOPT) -c $< -o $@

# the paper's kernels are measured as the paper compiled them: -O0; and
# -O0 code's own loop (bench/frame.c), as a user's -O0 build runs it
build/obj/bench/paper.o build/san/bench/paper.o build/obj/bench/frame.o build/san/bench/frame.o: KOPT = -O0

build/obj/%.o: %.c | deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) $(KOPT) -c $< -o $@

build/san/%.o: %.c | deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC-SAN  $<")
	$(Q)$(CC) $(ALL_CFLAGS) -O1 $(SAN) -c $< -o $@

build/san/tests/%.o: tests/%.c | deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC-SAN  $<")
	$(Q)$(CC) $(ALL_CFLAGS) $(shell pkg-config --cflags fuse3 2>/dev/null) -O1 $(SAN) -c $< -o $@

build/libepi.a: $(OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

build/libepi-san.a: $(SOBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

bin/epi: $(EPI_SRC:%.c=build/obj/%.o) build/libepi.a
	@mkdir -p bin
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(DEPLIBS)

$(EPI_LINKS): bin/epi
	$(Q)ln -sf epi $@

build/san/bin/epi: $(EPI_SRC:%.c=build/san/%.o) build/libepi-san.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(SAN) -o $@ $^ $(DEPLIBS)
	$(Q)for c in $(EPI_SUBCMDS); do ln -sf epi $(dir $@)epi-$$c; done

# epi-predict allocates millions of small polynomials: mimalloc serves them
# faster than glibc. (Not bin/epi: its malloc kernels measure the system's.)
bin/epi-predict: ALLOC = -lmimalloc
bin/epi-predict: build/obj/cmd/die.o
build/san/bin/epi-predict: build/san/cmd/die.o
build/obj/cmd/epi-predict.o: KOPT = -DEPI_MIMALLOC

bin/%: build/obj/cmd/%.o build/libepi.a
	@mkdir -p bin
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(ALLOC) $(DEPLIBS)

build/san/bin/%: build/san/cmd/%.o build/libepi-san.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(SAN) -o $@ $^ $(DEPLIBS)

# the perf meter's system calls are replaced by the test's mocks
build/tests/test_perf: LDWRAP = -Wl,--wrap=epi_sys_perf_event_open -Wl,--wrap=epi_sys_perf_read
build/tests/%: build/san/tests/%.o build/san/tests/fakehw.o build/libepi-san.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(SAN) $(LDWRAP) -o $@ $^ $(DEPLIBS) $(shell pkg-config --libs cmocka fuse3 2>/dev/null) -lpthread

build/tests/replay_%: build/san/fuzz/fuzz_%.o build/san/fuzz/fuzz.o build/san/fuzz/replay.o build/libepi-san.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(SAN) -o $@ $^ $(DEPLIBS)

build/fuzz/obj/gen/%.o: build/gen/%.c
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(ALL_CFLAGS) -O1 $(FUZZ_SAN) -fsanitize=fuzzer-no-link -c $< -o $@

build/fuzz/obj/%.o: %.c | deps
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC-FUZZ $<")
	$(Q)$(FUZZ_CC) $(ALL_CFLAGS) -O1 $(FUZZ_SAN) -fsanitize=fuzzer-no-link -c $< -o $@

build/fuzz/libepi-fuzz.a: $(FOBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

build/fuzz/fuzz_%: build/fuzz/obj/fuzz/fuzz_%.o build/fuzz/obj/fuzz/fuzz.o build/fuzz/libepi-fuzz.a
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(DEPLIBS)

# the program test_profile profiles: plain, with line information
build/tests/phases: tests/phases.c tests/phases.h
	@mkdir -p $(dir $@)
	$(Q)$(CC) -std=c11 -O1 -g -I. -o $@ $<

# and with two threads at once
build/tests/threads: tests/threads.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) -std=c11 -O1 -g -pthread -o $@ $<

check: deps $(BINS) $(EPI_LINKS) $(TEST_BINS) $(REPLAYS) build/tests/fakepower build/tests/phases build/tests/threads build/san/bin/epi-predict build/san/bin/epi
	$(Q)T="$(T)" U="$(U)" J="$(J)" sh tests/run.sh $(TEST_BINS)

demo: deps $(BINS)
	$(Q)sh scripts/demo.sh

bench: deps $(BINS) $(EPI_LINKS) build/tests/phases
	$(Q)sh scripts/deps.sh $(BENCH_PKGS)
	$(Q)sh evals/predict-bench.sh
	$(Q)sh evals/corpus.sh -q
	$(Q)sh evals/calibrate-bench.sh
	$(Q)sh evals/profile-bench.sh

fuzz: deps $(BINS) build/san/bin/epi-predict
	$(Q)sh scripts/deps.sh $(FUZZ_PKGS)
	$(Q)$(MAKE) -s --no-print-directory $(FUZZERS:%=build/fuzz/fuzz_%)
	$(Q)FUZZ_TIME="$(FUZZ_TIME)" CSMITH="$(CSMITH)" sh fuzz/run.sh $(FUZZERS)

accuracy: deps $(BINS) $(EPI_LINKS)
	$(Q)sh scripts/deps.sh $(BENCH_PKGS)
	$(Q)KERNELS="$(KERNELS)" CCS="$(CCS)" LEVELS="$(LEVELS)" TABLE="$(TABLE)" MODEL="$(MODEL)" sh evals/accuracy.sh
	$(Q)[ "$(STYLES)" = 0 ] || sh evals/styles.sh "$(if $(TABLE),$(TABLE),build/accuracy/table.xml)"
	$(Q)[ "$(COUNTS)" = 0 ] || KERNELS="$(KERNELS)" CCS="$(CCS)" LEVELS="$(LEVELS)" TABLE="$(TABLE)" sh evals/counts.sh

install: $(BINS) $(EPI_LINKS)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DATADIR)/examples
	install -m 755 $(BINS) $(DESTDIR)$(BINDIR)/
	for c in $(EPI_SUBCMDS); do ln -sf epi $(DESTDIR)$(BINDIR)/epi-$$c; done
	install -m 644 man/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 data/*.xml data/*.xsd $(DESTDIR)$(DATADIR)/
	install -m 644 data/examples/*.c $(DESTDIR)$(DATADIR)/examples/

clean:
	rm -rf build bin

-include $(shell find build -name '*.d' 2>/dev/null)
