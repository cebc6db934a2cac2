# distmm-tui: `make` builds ./distmm-tui; `make test` builds and runs every test.
# `make deps` installs the Debian packages it needs (only the missing ones).
# Objects go under $(BUILD) so that sanitizer builds live beside the plain one.

CC      ?= gcc
BUILD   ?= build
# `make V=1` shows every command; by default one line a file.
V       ?= 0
Q        = $(if $(filter 1,$(V)),,@)
PKG_CONFIG ?= pkg-config

WARN    = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 -Wundef
CFLAGS  ?= -O2 -g
ALL_CFLAGS = -std=c11 -D_DEFAULT_SOURCE -D_XOPEN_SOURCE=600 $(WARN) $(WERROR) $(CFLAGS) $(EXTRA_CFLAGS) \
	-pthread $(shell $(PKG_CONFIG) --cflags openblas ncursesw 2>/dev/null)
# The engine's public API is engine/include/distmm/; its internals are
# engine/<subsystem>/*.h, seen only by the engine and its white-box tests.
# app/ gets the public path alone, and an internal header refuses to compile
# without DM_ENGINE_INTERNAL, so the boundary is the compiler's.
PUBLIC_INC   = -Iengine/include
INTERNAL_INC = -Iengine/include -Iengine -DDM_ENGINE_INTERNAL
APP_INC      = $(PUBLIC_INC) -Iapp
LDLIBS_ENGINE = $(shell $(PKG_CONFIG) --libs openblas 2>/dev/null || echo -lopenblas) -lm -pthread
LDLIBS_UI = $(shell $(PKG_CONFIG) --libs ncursesw 2>/dev/null || echo -lncursesw)
LDLIBS_CHECK = $(shell $(PKG_CONFIG) --libs check 2>/dev/null || echo -lcheck)

# Debian packages: build tools, libraries, what --judge runs (python3-numpy;
# bubblewrap, its sandbox),
# what the tests drive (tmux, numpy) or build with (clang and its sanitizer
# and fuzzer runtimes, valgrind).
DEPS = gcc make pkg-config libopenblas-dev libncurses-dev check tmux python3-numpy bubblewrap \
	clang libclang-rt-14-dev valgrind libopenmpi-dev openmpi-bin groff-base

# The sources that include <mpi.h> go into distmm-mpi only (see below).
ENGINE_MPI_SRC = engine/comm/comm_mpi.c engine/exec/mpi_rank.c
ENGINE_SRC = $(filter-out $(ENGINE_MPI_SRC),$(wildcard engine/*/*.c))
ENGINE_OBJ = $(ENGINE_SRC:%.c=$(BUILD)/%.o)
APP_SRC    = $(filter-out app/mpi/%,$(wildcard app/*.c app/*/*.c app/*/*/*.c))
APP_OBJ    = $(APP_SRC:%.c=$(BUILD)/%.o)
# app/ but its main(), as a library: the program, distmm-mpi, the app's
# suites and the benchmarks link it, and the linker takes what each needs.
APP_LIB_OBJ = $(filter-out $(BUILD)/app/main.o,$(APP_OBJ)) $(BUILD)/gen/judge_harness.o
APP_LIB    = $(BUILD)/libdistmm-app.a
# The judge's harness (app/judge/py/, Python) is built into distmm-tui as C
# arrays by app/judge/embed.sh (od and sed: no Python needed to build), so the
# program finds it from any directory.  The list's order is its load order.
JUDGE_PY   = $(addprefix app/judge/py/,jd_world.py jd_queue.py jd_run.py jd_main.py)
JUDGE_GEN  = $(BUILD)/gen/judge_harness.c
# The Check suites mirror the source: tests/engine/<area>/check_*.c are
# white-box suites of the engine (its internal headers, libdistmm.a alone),
# tests/app/<area>/check_*.c suites of app/ (its one include path, the app
# library); tests/lib/ holds what they share.  A new suite is a new file:
# the pattern rules below build and link it.
ENGINE_SUITES = $(wildcard tests/engine/*/check_*.c)
APP_SUITES    = $(wildcard tests/app/*/check_*.c)
CHECK_BIN  = $(patsubst tests/%.c,$(BUILD)/tests/%,$(ENGINE_SUITES) $(APP_SUITES))
TEST_LIB_OBJ = $(patsubst tests/lib/%.c,$(BUILD)/tests/lib/%.o,$(wildcard tests/lib/*.c))
TEST_LIB   = $(BUILD)/tests/libtestutil.a
TEST_INC   = -Itests/lib
LIB        = $(BUILD)/libdistmm.a
BIN       ?= distmm-tui

# Sanitizer builds live in their own $(BUILD); each runs every Check suite
# and the batch tests.  A report fails the run: ASan/UBSan abort, TSan exits 66.
# TU_SAMPLE=1: the replay suites hold a stepped run's rebuild at sampled
# phases (tests/lib/testutil.h); the plain build holds every phase.
SAN_ASAN   = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
SAN_TSAN   = -O1 -g -fno-omit-frame-pointer -fsanitize=thread
SAN_ENV    = ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1" CK_TIMEOUT_MULTIPLIER=10 TU_SAMPLE=1
VALGRIND   = valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect
FUZZ_SECONDS ?= 60
STRESS_COUNT ?= 2000
export STRESS_COUNT

.PHONY: all deps run test check check-boundary check-suites asan tsan valgrind sanitized fuzz fuzz-pairs clean \
	install
all: $(BIN) mpi

$(BUILD)/engine/%.o: engine/%.c
	@mkdir -p $(dir $@)
	@echo "  CC     $<"
	$(Q)$(CC) $(ALL_CFLAGS) $(INTERNAL_INC) -MMD -MP -c $< -o $@

# app/ sees its own headers and the engine's public ones; engine/ never sees app/'s.
$(BUILD)/app/%.o: app/%.c
	@mkdir -p $(dir $@)
	@echo "  CC     $<"
	$(Q)$(CC) $(ALL_CFLAGS) $(APP_INC) -MMD -MP -c $< -o $@

$(JUDGE_GEN): $(JUDGE_PY) app/judge/embed.sh
	@mkdir -p $(dir $@)
	@echo "  EMBED  $@"
	$(Q)sh app/judge/embed.sh $@ $(JUDGE_PY)

$(BUILD)/gen/judge_harness.o: $(JUDGE_GEN) app/judge/harness.h
	@echo "  CC     $<"
	$(Q)$(CC) $(ALL_CFLAGS) $(APP_INC) -c $< -o $@

$(LIB): $(ENGINE_OBJ)
	@rm -f $@
	@echo "  AR     $@"
	$(Q)$(AR) rcs $@ $^

$(APP_LIB): $(APP_LIB_OBJ)
	@rm -f $@
	@echo "  AR     $@"
	$(Q)$(AR) rcs $@ $^

$(BIN): $(BUILD)/app/main.o $(APP_LIB) $(LIB)
	@echo "  CC     $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(BUILD)/app/main.o $(APP_LIB) $(LIB) $(LDLIBS_UI) $(LDLIBS_ENGINE)

# The suites' shared helpers see the engine's internals (the engine suites
# need them); an app suite links only those it calls.
$(BUILD)/tests/lib/%.o: tests/lib/%.c
	@mkdir -p $(dir $@)
	@echo "  CC     $<"
	$(Q)$(CC) $(ALL_CFLAGS) $(INTERNAL_INC) $(TEST_INC) -MMD -MP -c $< -o $@

$(TEST_LIB): $(TEST_LIB_OBJ)
	@rm -f $@
	@echo "  AR     $@"
	$(Q)$(AR) rcs $@ $^

$(BUILD)/tests/engine/%: tests/engine/%.c $(TEST_LIB) $(LIB)
	@mkdir -p $(dir $@)
	@echo "  CC     $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(INTERNAL_INC) $(TEST_INC) -MMD -MP $(LDFLAGS) -o $@ $< $(TEST_LIB) $(LIB) \
		$(LDLIBS_CHECK) $(LDLIBS_ENGINE)

$(BUILD)/tests/app/%: tests/app/%.c $(TEST_LIB) $(APP_LIB) $(LIB)
	@mkdir -p $(dir $@)
	@echo "  CC     $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(APP_INC) $(TEST_INC) -MMD -MP $(LDFLAGS) -o $@ $< $(TEST_LIB) $(APP_LIB) $(LIB) \
		$(LDLIBS_CHECK) $(LDLIBS_UI) $(LDLIBS_ENGINE)

deps:
	@missing=""; for p in $(DEPS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; \
	fi

run: all
	./$(BIN) -d 4

# The boundary holds: each engine-internal header, included from an app/ file
# by its path or by name, fails to compile with app/'s flags; with the
# engine's own flags it compiles (so the check itself can fail).
ENGINE_INTERNAL_H = $(wildcard engine/*/*.h)
check-boundary:
	@for h in $(ENGINE_INTERNAL_H); do \
		for inc in "$(CURDIR)/$$h" "$${h#engine/}"; do \
			if printf '#include "%s"\n' "$$inc" | $(CC) $(ALL_CFLAGS) $(APP_INC) -fsyntax-only -x c - 2>/dev/null; then \
				echo "boundary: app/ can include $$inc"; exit 1; fi; \
		done; \
		case "$$h" in *_mpi.h) command -v $(MPICC) >/dev/null 2>&1 || continue; \
			mpi_cflags=$$($(MPICC) --showme:compile 2>/dev/null) ;; *) mpi_cflags= ;; esac; \
		printf '#include "%s"\n' "$${h#engine/}" | \
			$(CC) $(ALL_CFLAGS) $(INTERNAL_INC) $$mpi_cflags -fsyntax-only -x c - || exit 1; \
	done; echo "boundary: app/ sees only engine/include ($(words $(ENGINE_INTERNAL_H)) internal headers refused)"

# The suites run JOBS at a time (tests/lib/run_suites.sh: each one's output
# whole once it ends); they share nothing and no suite depends on timing.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
check-suites: $(CHECK_BIN)
	@tests/lib/run_suites.sh $(JOBS) '$(SUITE_ENV)' -- $(CHECK_BIN)

# Everything, as CI runs it: the plain tests, then the sanitizers, memcheck,
# a short fuzzing of every reader and one reduced benchmark (run, not
# judged).  Builds use -Werror: a warning fails.
# The builds run JOBS at a time too, and the four fuzzers two by two.
test: WERROR = -Werror
test: check
	$(MAKE) --no-print-directory -j$(JOBS) asan
	$(MAKE) --no-print-directory -j$(JOBS) tsan
	$(MAKE) --no-print-directory -j$(JOBS) valgrind
	$(MAKE) --no-print-directory fuzz-pairs FUZZ_SECONDS=30
	$(MAKE) --no-print-directory bench-quick

# The plain build's tests: Check suites, batch mode, the judge (batch and
# interface), the interface, the practice lab (--quiz=derive, the deadlock lab
# on screen), the storm, the export and --record, the clock on screen.
check: WERROR = -Werror
check: $(BIN) mpi check-boundary check-suites
	tests/app/batch/batch_test.sh ./$(BIN)
	tests/app/cli/man_test.sh ./$(BIN) ./$(MPI_BIN)
	tests/app/cli/docs_test.sh
	tests/app/judge/judge_test.sh ./$(BIN)
	tests/ui/judge_ui_test.sh ./$(BIN)
	tests/ui/ui_test.sh ./$(BIN)
	tests/ui/train_ui_test.sh ./$(BIN)
	tests/ui/tp_ui_test.sh ./$(BIN)
	tests/ui/ccl_ui_test.sh ./$(BIN)
	tests/ui/still_ui_test.sh ./$(BIN)
	tests/ui/clock_ui_test.sh ./$(BIN)
	tests/ui/interview_test.sh ./$(BIN)
	tests/ui/practice_test.sh ./$(BIN)
	tests/ui/drill_test.sh ./$(BIN)
	tests/ui/storm_test.sh ./$(BIN)
	tests/ui/export_test.sh ./$(BIN)
	tests/app/mpi/mpi_test.sh ./$(MPI_BIN) ./$(BIN)

asan:
	$(MAKE) --no-print-directory BUILD=build/asan BIN=build/asan/distmm-tui CC=clang \
		CFLAGS="$(SAN_ASAN)" LDFLAGS="-fsanitize=address,undefined" WERROR=-Werror \
		SUITE_ENV='$(SAN_ENV)' sanitized

tsan:
	$(MAKE) --no-print-directory BUILD=build/tsan BIN=build/tsan/distmm-tui CC=clang \
		CFLAGS="$(SAN_TSAN)" LDFLAGS="-fsanitize=thread" WERROR=-Werror STRESS_COUNT=200 \
		SUITE_ENV='$(SAN_ENV)' sanitized

sanitized: $(BIN) check-suites
	$(SAN_ENV) tests/app/batch/batch_test.sh $(BIN)

# memcheck in one process per suite (no fork: valgrind follows no fork well)
valgrind: WERROR = -Werror
valgrind: $(CHECK_BIN)
	@tests/lib/run_suites.sh $(JOBS) 'CK_FORK=no STRESS_COUNT=100 TU_SAMPLE=2 $(VALGRIND)' -- $(CHECK_BIN)

fuzz:
	tests/fuzz/run.sh $(FUZZ_SECONDS)

# CI's short fuzzing: the readers two at a time (run.sh builds once, under
# its lock), each for FUZZ_SECONDS.
fuzz-pairs:
	@mkdir -p build; tests/fuzz/run.sh $(FUZZ_SECONDS) npy csv > build/fuzz-pair1.log 2>&1 & p=$$!; \
	tests/fuzz/run.sh $(FUZZ_SECONDS) cli trace; s2=$$?; wait $$p; s1=$$?; \
	cat build/fuzz-pair1.log; exit $$((s1 | s2))

# make install PREFIX=DIR: the programs in DIR/bin, their manual pages in
# DIR/share/man/man1, the lessons and solutions in DIR/share/distmm-tui/,
# where the program looks for a lesson named without a folder.  DESTDIR
# prefixes every path, for packaging.
PREFIX ?= /usr/local
SHARE   = $(DESTDIR)$(PREFIX)/share/distmm-tui
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(SHARE)/lessons \
		$(SHARE)/solutions
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/
	if [ -x $(MPI_BIN) ]; then install -m 755 $(MPI_BIN) $(DESTDIR)$(PREFIX)/bin/; fi
	install -m 644 docs/man/distmm-tui.1 docs/man/distmm-mpi.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 assets/lessons/*.lesson $(SHARE)/lessons/
	install -m 644 assets/solutions/*.py $(SHARE)/solutions/

clean:
	rm -rf build $(BIN) $(MPI_BIN)

-include $(ENGINE_OBJ:.o=.d) $(APP_OBJ:.o=.d) $(TEST_LIB_OBJ:.o=.d) $(CHECK_BIN:=.d)

# distmm-mpi: the same ring over Open MPI, one device per rank.  Its sources
# (engine/comm/comm_mpi.c, the transport; engine/exec/mpi_rank.c, one rank's run; app/mpi/: the program)
# include <mpi.h>: they are left out of the engine library, are compiled
# with mpicc and go into distmm-mpi only.  `make` builds it when mpicc is there
# (make deps installs Open MPI) and says it skipped it otherwise: the engine,
# distmm-tui and every other test need no MPI.
MPICC      ?= mpicc
MPI_BIN    ?= distmm-mpi
ENGINE_MPI_OBJ = $(ENGINE_MPI_SRC:%.c=$(BUILD)/%.o)
MPI_OBJ     = $(ENGINE_MPI_OBJ) $(patsubst %.c,$(BUILD)/%.o,$(wildcard app/mpi/*.c))

# mpicc is looked for when the recipe runs, not when make reads this file:
# `make deps run` installs it after the reading.  The objects shared with
# distmm-tui are prerequisites here, so that make -j never builds them twice.
.PHONY: mpi
mpi: $(LIB) $(APP_LIB)
	@if command -v $(MPICC) >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory -f $(firstword $(MAKEFILE_LIST)) WERROR='$(WERROR)' $(MPI_BIN); \
	else \
		echo "distmm-mpi: skipped: $(MPICC) not found (Open MPI: make deps, or apt-get install libopenmpi-dev openmpi-bin)"; \
	fi

$(ENGINE_MPI_OBJ): $(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  MPICC  $<"
	$(Q)$(MPICC) $(ALL_CFLAGS) $(INTERNAL_INC) -MMD -MP -c $< -o $@

$(BUILD)/app/mpi/%.o: app/mpi/%.c
	@mkdir -p $(dir $@)
	@echo "  MPICC  $<"
	$(Q)$(MPICC) $(ALL_CFLAGS) $(APP_INC) -MMD -MP -c $< -o $@

$(MPI_BIN): $(MPI_OBJ) $(APP_LIB) $(LIB)
	@echo "  MPICC  $@"
	$(Q)$(MPICC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(MPI_OBJ) $(APP_LIB) $(LIB) $(LDLIBS_ENGINE)

-include $(MPI_OBJ:.o=.d)

# Benchmarks: `make bench` runs tests/bench/run.sh, which prints a table of
# the figures (compute against OpenBLAS, the step barrier, messages, memory,
# the interface, scale) and writes build/bench/bench.json; `make bench-quick`
# is the reduced run CI makes once.  Times are reported, never asserted.

$(BUILD)/bench/bench_engine: tests/bench/bench_engine.c $(LIB)
	@mkdir -p $(dir $@)
	@echo "  CC     $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(INTERNAL_INC) $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS_ENGINE)

# The training step against its three dgemms, and its RSS against the model.
$(BUILD)/bench/bench_train: tests/bench/bench_train.c $(LIB)
	@mkdir -p $(dir $@)
	@echo "  CC     $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(PUBLIC_INC) $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS_ENGINE)

# The sweep of issue 26's clock: the model alone, from the public API.
$(BUILD)/bench/bench_clock: tests/bench/bench_clock.c $(LIB)
	@mkdir -p $(dir $@)
	@echo "  CC     $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(PUBLIC_INC) $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS_ENGINE)

# The interface's frame time, from app/'s own objects drawing to /dev/null.
$(BUILD)/bench/bench_tui: tests/bench/bench_tui.c $(APP_LIB) $(LIB)
	@mkdir -p $(dir $@)
	@echo "  CC     $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(APP_INC) $(LDFLAGS) -o $@ $< $(APP_LIB) $(LIB) \
		$(LDLIBS_UI) $(LDLIBS_ENGINE)

.PHONY: bench bench-quick
bench:
	tests/bench/run.sh

bench-quick:
	tests/bench/run.sh --quick
