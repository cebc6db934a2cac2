/* report_tp_train: what batch mode prints of tensor parallel's training
 * step (-m tp-col|tp-row --train): what the backward does and which
 * collective it needs, its events in words, and each rank's bytes against
 * the model (model_tp_train_rank). */
#ifndef APP_REPORT_TP_TRAIN_H
#define APP_REPORT_TP_TRAIN_H

#include <stddef.h>

#include <distmm/evlog.h>
#include <distmm/plan.h>

/* The line that says what the backward computes and why it needs the
 * collective it needs (or none). */
void report_tp_train_intro(const struct dm_plan *p);

/* One line an event (the forward's as report_tp_event words them). */
void report_tp_train_events(const struct ev *ev, size_t n_ev, const struct dm_plan *p);

/* Each rank's peak, sent and received bytes against the model, and the
 * backward's ring bytes against the closed form.  Returns the number of
 * ranks whose figures differ from the model (0: all equal). */
int report_tp_train_summary(const struct ev_summary *sum, const struct dm_plan *p, size_t M,
			    size_t K, size_t N);

#endif
