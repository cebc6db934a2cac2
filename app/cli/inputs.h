/* inputs: the matrices A and B a run starts from, loaded from files or
 * generated from the seed, with their shapes checked against the options and
 * the memory the run will need checked before anything large is allocated. */
#ifndef APP_INPUTS_H
#define APP_INPUTS_H

#include <stdint.h>

#include "cli.h"
#include <distmm/dm_err.h>
#include <distmm/hw.h>
#include <distmm/mat.h>
#include <distmm/plan.h>
#include <distmm/run.h>

/* Bytes this process may still allocate: MemAvailable (or physical memory
 * when /proc is missing), and RLIMIT_AS when it is lower. */
uint64_t inputs_available_bytes(void);

/* Fills a and b from the options.  Returns 0, or DM_EINVAL / DM_EFORMAT /
 * DM_EIO / DM_ENOMEM with err filled; nothing is left allocated on failure. */
int inputs_load(const struct cli_opts *o, struct mat *a, struct mat *b, struct dm_err *err);

/* The training step's dC (M x N: C's shape): loaded from --dC, else
 * generated from the seed (the stream after A's and B's).  Returns 0, or
 * DM_EINVAL (its shape: one line naming the file and both shapes) /
 * DM_EFORMAT / DM_EIO / DM_ENOMEM with err filled; dc empty on failure. */
int inputs_load_dc(const struct cli_opts *o, size_t M, size_t N, struct mat *dc,
		   struct dm_err *err);

/* tp-mlp's second weight E, N x P (N: b's columns): loaded from -E, else
 * generated from the seed (the stream after dC's), P -P's or K; and the
 * plan's activation and P set to match (plan NULL: E alone, for the
 * interface, whose m reaches tp-mlp).  Returns 0, or DM_EINVAL (E's
 * shape against N or -P: one line naming the file and both shapes) /
 * DM_EFORMAT / DM_EIO / DM_ENOMEM with err filled; e empty on failure. */
int inputs_load_e(const struct cli_opts *o, const struct mat *b, struct dm_plan *plan,
		  struct mat *e, struct dm_err *err);

/* The plan of the options: mode, devices, the forward or the training
 * step, order, bug and capacity.  Returns 0 or an engine error with err
 * filled (*out NULL). */
int inputs_plan(const struct cli_opts *o, struct dm_plan **out, struct dm_err *err);

/* The run's settings besides its plan for these options and shapes: its
 * memory limit, what is available once A, B and the reference product
 * (and a training step's dC and results) are held. */
void inputs_run_config(const struct cli_opts *o, const struct mat *a, const struct mat *b,
		       struct run_config *cfg);
enum run_keep inputs_keep(const struct cli_opts *o);

/* The clock's (inputs_clock.c).  The model the options ask for: --hw's
 * preset, or its file when no preset has that name (else h100-nvlink),
 * with --alpha, --bw and --flops over it.  Returns 0, or DM_EINVAL (a name
 * that is neither: one line) / DM_EIO / DM_EFORMAT / DM_ENOMEM with err
 * filled. */
int inputs_hw(const struct cli_opts *o, struct dm_hw *hw, struct dm_err *err);
/* The CLOCKW_* bits (words/clock_words.h) of the values the command line
 * set over the preset's, for the words that mark them. */
unsigned inputs_hw_given(const struct cli_opts *o);
/* inputs_hw for a run with products to time (a multiply, the training
 * step), whose F must be known.  Returns as inputs_hw, or DM_EINVAL when
 * the model gives no F. */
int inputs_hw_products(const struct cli_opts *o, struct dm_hw *hw, struct dm_err *err);

/* --collective's plan (kind, --algo, -d, --bytes / 8 doubles a rank,
 * --capacity), its run's settings and its buffers: a -d x count matrix,
 * row r rank r's, generated from --seed and --values.  Returns 0, or
 * DM_EINVAL (ccl_check's words: rhd on 6 ranks) / DM_ENOMEM (it would not
 * fit: one line) with err filled; nothing left allocated on failure. */
int inputs_collective(const struct cli_opts *o, struct dm_plan **plan, struct mat *in,
		      struct run_config *cfg, struct dm_err *err);

#endif
