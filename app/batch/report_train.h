/* report_train: what batch mode prints of a training step (-b --train, and
 * distmm-mpi --train the same way): the schedule with each index formula
 * worked out, memory and traffic against the model (<distmm/model.h>), DP
 * against FSDP, the verification of C, dA and dB; and its outputs.  Like
 * report.c, every line comes from the event log and the per-rank totals. */
#ifndef APP_REPORT_TRAIN_H
#define APP_REPORT_TRAIN_H

#include <stddef.h>

#include "cli/cli.h"
#include <distmm/evlog.h>
#include <distmm/mat.h>
#include <distmm/plan.h>

/* The line after report_header's: what the training step is, and where dC
 * came from. */
void report_train_intro(const struct cli_opts *o, const struct dm_plan *p);

/* One line an event (the receives and the placements mirror the sends). */
void report_train_events(const struct ev *ev, size_t n_ev, const struct dm_plan *p);

/* Per rank: the peak held against the model's forward and backward peaks,
 * the ring's bytes sent against the closed form, the gather's; the
 * formulas with the numbers. */
void report_train_summary(const struct ev_summary *sum, const struct ev *ev, size_t n_ev,
			  const struct dm_plan *p, size_t M, size_t K, size_t N);

/* DP against FSDP for the same shapes and p's devices, by the model: peaks
 * and ring bytes (up to 64 devices). */
void report_train_compare(const struct dm_plan *p, size_t M, size_t K, size_t N);

/* "verify C = A @ B: ...", "verify dA = dC @ B^T: ...", "verify dB = A^T @
 * dC: ...", each as the forward's C is checked (report_verify_product:
 * exact up to M*K*N = 2^24, Freivalds above, or as --verify says); a
 * result that is NULL is a mismatch.  STATUS_OK or STATUS_MISMATCH. */
int report_train_verify(const struct cli_opts *o, const struct mat *a, const struct mat *b,
			const struct mat *dc, const struct mat *c, const struct mat *da,
			const struct mat *db);

/* Refuses -o, --dA-out, --dB-out and --trace paths that cannot be written,
 * before anything runs.  0 or an engine error with err filled. */
int report_train_check_outputs(const struct cli_opts *o, struct dm_err *err);

/* Writes --trace (a training step's, in o->trace_format), -o, --dA-out and
 * --dB-out (those whose matrix is not NULL).  Prints the error and returns
 * STATUS_USAGE on failure, else STATUS_OK. */
int report_train_write(const struct cli_opts *o, const struct ev *ev, size_t n_ev,
		       const struct ev_summary *sum, const struct dm_plan *p, const struct mat *c,
		       const struct mat *da, const struct mat *db);

#endif
