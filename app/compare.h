/* compare: DP against FSDP for the same matrices and devices, the memory
 * argument of the exercise in numbers, and the one memory model that batch
 * mode and the interface both print.
 *
 * The model is the engine's accounting (exec/device.c, exec/fsdp.c) worked
 * out from the shapes with the real, possibly uneven, shard sizes: a device
 * holds its rows of A and of C throughout and the B it starts with (all of
 * B in DP, its own shard in FSDP); an FSDP transfer holds the incoming
 * shard's buffer beside the outgoing one; at the gather rank 0 also holds
 * the whole C.  The textbook formulas (DP: A_r + B + C_r; FSDP: A_r +
 * 2*B/n + C_r) are exact only for even splits and leave the gathered C out:
 * they are kept beside the model, never instead of it.
 *
 * The peaks and sends of the table come from a finished run in that mode
 * (the run just made, or one made for the table: batch's --compare, the
 * interface's memory view when it is small enough) or, for a mode not run,
 * from the same model (compare_fill_model).  tests/app/tui/check_memory.c holds the
 * model to the engine phase by phase; tests/app/batch/batch_test.sh holds batch's
 * table from the model to the one from real runs. */
#ifndef APP_COMPARE_H
#define APP_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include <distmm/evlog.h>
#include <distmm/mat.h>
#include <distmm/run.h>

/* One rank's bytes in one mode, by the model. */
struct compare_model {
	uint64_t a, c;     /* its rows of A and of C */
	uint64_t b_start;  /* the B it starts with */
	uint64_t b_peak;   /* the most of B it holds at once (FSDP: out + in at a transfer) */
	uint64_t work;     /* its peak before the gather: a + c + b_peak */
	uint64_t gathered; /* rank 0: the whole C it gathers, else 0 */
	uint64_t peak;     /* its peak over the run, the gathered C included */
	uint64_t sent;     /* FSDP: the shards it passes on; both: its rows of C at the gather */
	uint64_t textbook; /* the textbook formula's figure (without the gathered C) */
};

/* The model for rank r of n in mode (DM_FSDP or DM_DP) on M x K @ K x N. */
void compare_model_rank(int mode, int n, int r, size_t M, size_t K, size_t N,
			struct compare_model *m);

/* The peak rank r has reached by the end of `phase` (-1: before the first;
 * the last phase is the gather), by the model. */
uint64_t compare_model_peak_by(int mode, int n, int r, size_t M, size_t K, size_t N, int phase);

/* The largest byte count any rank holds in either mode over the whole run:
 * the one scale every memory bar of the run is drawn on. */
uint64_t compare_model_scale(int n, size_t M, size_t K, size_t N);

/* Whether N columns split evenly over n (the textbook formula is exact). */
int compare_even(int n, size_t N);

struct compare_dev {
	uint64_t formula[2];  /* [DM_FSDP], [DM_DP]: the model's peak, the gathered C included */
	uint64_t textbook[2]; /* the textbook formula */
	uint64_t measured[2]; /* peak held: from a run, or the model's (compare::model) */
	uint64_t sent[2];     /* bytes sent, from the same source */
};

struct compare {
	int n;
	int measured[2];        /* the mode's peaks and sends are there (run or model) */
	int model[2];           /* ... and come from the model, not from a run */
	int ran[2];             /* ... and come from a run made for the table */
	uint64_t gathered;      /* the gathered C that rank 0 also holds at the end */
	uint64_t b_bytes;       /* all of B */
	int even;               /* N splits evenly: the textbook formula is exact */
	struct compare_dev *dev; /* n */
	uint64_t total_formula[2], total_measured[2], total_sent[2];
};

/* Fills c for A, B on cfg->devices devices (cfg's other settings used for
 * both runs, with the correct ring and no bug).  known, when not NULL: the
 * per-device summaries of a finished run in cfg->mode, used instead of
 * running that mode again (unless cfg has a bug: then they are the bug's).
 * Runs each other mode whose estimate is at most max_run_bytes (0: none);
 * a mode neither known nor run comes from the model.  Returns 0 or
 * DM_ENOMEM. */
int compare_build(struct compare *c, const struct mat *a, const struct mat *b,
		  const struct run_config *cfg, uint64_t max_run_bytes,
		  const struct ev_summary *known, struct dm_err *err);

/* Fills the peaks and sends of `mode` from the model (compare_model_rank),
 * for M x K @ K x N on c->n devices, replacing what was there. */
void compare_fill_model(struct compare *c, int mode, size_t M, size_t K, size_t N);

void compare_free(struct compare *c);

/* The sentence on what the numbers mean for n devices and this B: what
 * FSDP saves (and at n = 2 why nothing: 2*B/2 = B; at n = 1 there is
 * nothing to compare), into buf. */
void compare_saving_line(const struct compare *c, char *buf, size_t size);

#endif
