/* report_mlp: what batch mode prints of -m tp-mlp besides tensor
 * parallel's shared lines (report_tp.h): the MLP named, its events, its
 * traffic against the closed form, the wrong order's bytes beside it, and
 * Z verified against the sequential act(A @ B) @ E. */
#ifndef APP_REPORT_MLP_H
#define APP_REPORT_MLP_H

#include <stddef.h>

#include <distmm/evlog.h>
#include <distmm/mat.h>
#include <distmm/plan.h>

#include "cli/cli.h"

/* The line under the header: Z = act(A @ B) @ E, E's shape and source. */
void report_mlp_header(const struct cli_opts *o, const struct dm_plan *p, size_t N);

/* An event's line where tp-mlp's differs from tp-col's and tp-row's (the
 * first layer, the activation, the second layer): 1 printed, 0 not. */
int report_mlp_event(const struct ev *e, const struct dm_plan *p);

/* The closed form of the traffic, under the table of each rank's bytes. */
void report_mlp_traffic(const struct dm_plan *p, size_t M, size_t K, size_t N);

/* Column-then-row against row-then-column, rank by rank, from the model. */
void report_mlp_orders(const struct dm_plan *p, size_t M, size_t K, size_t N);

/* Z (M x P) against act(A @ B) @ E computed here in sequence (H by
 * mat_matmul, act_apply, then batch's check of H @ E: allclose, or
 * Freivalds where batch switches).  STATUS_OK or STATUS_MISMATCH. */
int report_mlp_verify(const struct cli_opts *o, const struct mat *a, const struct mat *b,
		      const struct mat *e, const struct dm_plan *p, const struct mat *z);

#endif
