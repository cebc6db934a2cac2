/* battery: the cases the judge runs and the matrices each one gets.  The
 * matrices are the program's own (mat_fill for the seed, as batch mode makes
 * them), so a case's trace replays with the same -M/-K/-N, --values and
 * --seed; the seed moves on until every block is unique, which is what lets
 * the harness name a block by its values. */
#ifndef APP_JUDGE_BATTERY_H
#define APP_JUDGE_BATTERY_H

#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"
#include <distmm/dm_err.h>
#include <distmm/mat.h>

struct judge_case;

/* The largest case --judge takes: devices (one Python thread each) and
 * elements of each matrix. */
#define BATTERY_MAX_DEVICES 128
#define BATTERY_MAX_ELEMS (4u << 20)

/* The cases for o: the battery (both functions, each over the shapes below)
 * or, when o picks one (-d, -M/-K/-N, -m, --values, --seed, --capacity), that
 * one case for each function (or for -m's).  Returns 0 with *cases (calloc'd,
 * n_cases of them), or DM_EINVAL with err (a case too large), DM_ENOMEM. */
int battery_build(const struct cli_opts *o, struct judge_case **cases, size_t *n_cases,
		  struct dm_err *err);

/* A and B for case c, from its seed (c->seed becomes the one used).
 * Returns 0 or DM_ENOMEM. */
int battery_inputs(struct judge_case *c, struct mat *a, struct mat *b, struct dm_err *err);

/* Whether every block a message or a column of C can hold tells which it is
 * for these inputs: B's columns pairwise different, and per rank its
 * columns of C pairwise different and none of them zero. */
int battery_identifiable(const struct mat *a, const struct mat *b, int n);

#endif
