/* report: the plain-text account of a run that batch mode prints (and the
 * MPI program prints the same way): the header, the schedule read off the
 * event log, memory and traffic, DP against FSDP, a deadlock's cycle, the
 * verification; and the outputs (-o, --trace) written all or nothing. */
#ifndef APP_REPORT_H
#define APP_REPORT_H

#include <stddef.h>

#include "cli/cli.h"
#include <distmm/evlog.h>
#include <distmm/mat.h>
#include <distmm/plan.h>
#include <distmm/verify.h>
#include <distmm/run.h>

/* "distmm-tui batch: FSDP, 4 devices, A 8x6, B 6x4, ..." (and the bug's
 * lines, and how each rank makes its transfers). */
void report_header(const char *who, const struct cli_opts *o, const struct dm_plan *p, size_t M,
		   size_t K, size_t N);

/* One line a compute, a transfer or a gather, in the log's order (e alone:
 * report_event). */
void report_events(const struct ev *ev, size_t n_ev, const struct dm_plan *p);
void report_event(const struct ev *e, const struct dm_plan *p);

/* Per rank: peak held, what DP would hold, sent, received; and the total. */
void report_summary(const struct ev_summary *sum, const struct dm_plan *p, size_t M, size_t K,
		    size_t N);

/* DP against FSDP, formula and peaks: sum is the run of p just made (NULL
 * if none); a mode no correct run measured comes from the model, or with
 * run_other (--compare) runs in-process when it fits in cfg->mem_limit.
 * The table says which.  Skipped beyond 64 devices. */
void report_compare(const struct mat *a, const struct mat *b, const struct dm_plan *p,
		    const struct run_config *cfg, const struct ev_summary *sum, int run_other);

/* The cycle of waits of a deadlocked run, read off its snapshot. */
void report_deadlock(const struct run_snapshot *s);

/* "threads: 8 for 4 devices ..." when the recv-thread fix added threads. */
void report_threads(const struct run_snapshot *s);

/* The last line: C checked against A @ B as o->verify says (verify.h),
 * "verify: allclose ok, max |err| = 0", "verify: Freivalds ok, ..." or
 * "verify: MISMATCH ...".  Returns STATUS_OK or STATUS_MISMATCH. */
int report_verify(const struct cli_opts *o, const struct mat *a, const struct mat *b,
		  const struct mat *c);

/* A product as its verification line names it: the line's start ("verify",
 * "verify dA = dC @ B^T"), the result ("C", "dA"), the product ("A @ B",
 * "dC @ B^T"), Freivalds' projection of it ("A(Bx)", "dC(B^Tx)") and the
 * matrices a value of which can be not finite ("A, B or C"). */
struct report_product {
	const char *label, *c, *prod, *proj, *names;
};

/* The same line for c = op(a) @ op(b): exact up to M*K*N = 2^24 and
 * Freivalds' vectors from seed above (or as --verify says), the exact
 * check after a Freivalds that cannot decide.  STATUS_OK or
 * STATUS_MISMATCH. */
int report_verify_product(const struct cli_opts *o, const struct report_product *p,
			  struct verify_op a, struct verify_op b, const struct mat *c,
			  uint64_t seed);

/* Refuses an output path that cannot be written, before anything runs;
 * need_kind: it must be .npy or .csv.  Returns 0 or an engine error. */
int report_check_output(const char *path, int need_kind, struct dm_err *err);

/* SIGINT, SIGTERM and SIGHUP remove the temporary files of the outputs
 * being written (<distmm/outfile.h>), then end the process as they would
 * have: an interrupted -o or --trace leaves nothing behind.  A signal
 * ignored when the program started (nohup) stays ignored.  For the
 * programs' batch modes, which have no main loop to watch a flag. */
void report_catch_signals(void);

/* Writes --trace (in o->trace_format) and -o (when c is not NULL).  Prints
 * the error and returns STATUS_USAGE on failure, else STATUS_OK. */
int report_write_outputs(const struct cli_opts *o, const struct ev *ev, size_t n_ev,
			 const struct ev_summary *sum, const struct dm_plan *p, const struct mat *c);

#endif
