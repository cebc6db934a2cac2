/* trace_util: what the trace suites (reader, checker, Chrome writer, the
 * training step's trace, rules and replay) share: a run stepped to its end
 * with its events and summaries kept, to write, read back, damage or draw, and a mkdtemp() directory per test with whole
 * files read back.  The helpers assert, so they live in trace_util.c. */
#ifndef TRACE_UTIL_H
#define TRACE_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include <distmm/evlog.h>
#include <distmm/mat.h>
#include <distmm/plan.h>
#include <distmm/run.h>

/* A run's inputs and what it logged. */
struct tt_logged {
	struct mat a, b;
	struct ev *ev;
	size_t n_ev;
	struct ev_summary *sum;
	int mode, n, bug, finished;
	struct dm_plan *plan; /* the run's: mode, n, bug, the forward */
	const struct mat *c; /* not kept: compared while the run lives */
};

/* Runs A (M x K) @ B (K x N), ints or floats, on n devices in mode with
 * bug, stepped to the end (or to the stop of a bug that stops a run), and
 * keeps the events and summaries; result, when given, gets a copy of C
 * (the run must have finished). */
void tt_logged_run(struct tt_logged *l, int mode, int n, int bug, size_t M, size_t K, size_t N,
		   int floats, struct mat *result);
void tt_logged_free(struct tt_logged *l);

/* A training step run to the end, stepped: its inputs (dC too), its log,
 * a copy of the log to damage, its totals and, when asked for, a snapshot
 * with values after every phase (live[p + 1] after phase p, live[0]
 * before the first). */
struct tt_train_log {
	int mode, n, bug, phases;
	struct mat a, b, dc;
	struct ev *ev, *copy;
	size_t n_ev;
	struct ev_summary *sum;
	struct run_snapshot *live; /* NULL unless asked for */
	struct dm_plan *plan;      /* the run's: a training step */
};

/* A (M x K), B (K x N) and dC (M x N) from seed, ints or floats, a training
 * step of mode on n devices with bug (the backward's) and that capacity. */
void tt_train_log_make(struct tt_train_log *l, int mode, int n, int bug, size_t M, size_t K,
		       size_t N, int floats, uint64_t seed, size_t capacity, int snapshots);
void tt_train_log_free(struct tt_train_log *l);

/* The test's directory, from tt_setup_dir to tt_remove_dir (which removes
 * its files too). */
extern char tt_tmpdir[64];
void tt_setup_dir(void);
void tt_remove_dir(void);

/* tt_tmpdir/name into path. */
void tt_in_dir(char *path, size_t size, const char *name);

/* The whole file into a malloc'd NUL-terminated buffer. */
char *tt_slurp(const char *path, size_t *len);

#endif
