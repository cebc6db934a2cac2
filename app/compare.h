/* compare: DP against FSDP for the same matrices and devices, the memory
 * argument of the exercise in numbers.  For each device, the bytes each mode
 * holds by the formula (DP: A_r + B + C_r; FSDP: A_r + 2*B/n + C_r) beside
 * its peak and the bytes it sends.  A mode's peaks and sends come from a
 * finished run in that mode (the run just made, or one made for the table),
 * or from the model: the accounting a correct run in that mode records,
 * worked out from the shapes without running it (compare_model). */
#ifndef APP_COMPARE_H
#define APP_COMPARE_H

#include <stdint.h>

#include <distmm/evlog.h>
#include <distmm/mat.h>
#include <distmm/run.h>

struct compare_dev {
	uint64_t formula[2];  /* [DM_FSDP], [DM_DP] */
	uint64_t measured[2]; /* peak held; 0 when not measured */
	uint64_t sent[2];
};

struct compare {
	int n;
	int measured[2];        /* the mode's peaks and sends are there (run or model) */
	int model[2];           /* ... and come from the model, not from a run */
	int ran[2];             /* ... and come from a run made for the table */
	uint64_t gathered;      /* the gathered C that rank 0 also holds at the end */
	struct compare_dev *dev; /* n */
	uint64_t total_formula[2], total_measured[2], total_sent[2];
};

/* Fills c for A, B on cfg->devices devices (cfg's other settings used for
 * both runs, with the correct ring and no bug).  known, when not NULL: the
 * per-device summaries of a finished run in cfg->mode, used instead of
 * running that mode again (unless cfg has a bug: then they are the bug's).
 * Runs each other mode whose estimate is at most max_run_bytes.  Returns 0
 * or DM_ENOMEM. */
int compare_build(struct compare *c, const struct mat *a, const struct mat *b,
		  const struct run_config *cfg, uint64_t max_run_bytes,
		  const struct ev_summary *known, struct dm_err *err);

/* Fills the peaks and sends of `mode` from the model, for M x K @ K x N on
 * c->n devices (replacing what was there).  The model is the engine's
 * accounting rules (exec/device.c, exec/fsdp.c) for the correct ring:
 * tests/batch_test.sh checks it against real runs (--compare). */
void compare_model(struct compare *c, int mode, size_t M, size_t K, size_t N);

void compare_free(struct compare *c);

#endif
