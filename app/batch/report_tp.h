/* report_tp: what batch mode prints of a tensor-parallel run (-m tp-col,
 * -m tp-row): its events in words, each rank's bytes against the model's
 * closed forms, and the four modes side by side on the same job. */
#ifndef APP_REPORT_TP_H
#define APP_REPORT_TP_H

#include <stddef.h>

#include <distmm/evlog.h>
#include <distmm/plan.h>

/* One line for an event of p's tensor-parallel run (nothing for the
 * receives, which mirror the sends). */
void report_tp_event(const struct ev *e, const struct dm_plan *p);

/* Each rank's peak, sent and received bytes from the run against the
 * model (model_tp_rank) and the textbook's closed form.  Returns the
 * number of ranks whose figures differ from the model (0: all equal). */
int report_tp_summary(const struct ev_summary *sum, const struct dm_plan *p, size_t M, size_t K,
		      size_t N);

/* DP, FSDP, tp-col and tp-row on p's devices for M x K @ K x N, rank by
 * rank: each one's peak and bytes sent by the model, and p's mode's
 * measured (sum, when not NULL) beside it. */
void report_tp_modes(const struct ev_summary *sum, const struct dm_plan *p, size_t M, size_t K,
		     size_t N);

#endif
