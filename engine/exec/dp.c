/* dp: data parallel, for one rank.  Every rank holds all of B (its own
 * replica), multiplies its A rows by it, and sends the rows to rank 0. */
#include "exec/device.h"

#include "core/gemm.h"

int dp_compute(struct device *d, int phase)
{
	size_t rows = d->a.rows;
	uint64_t t = device_now_ns();
	gemm_acc(rows, d->N, d->K, d->a.data, d->K, d->b.data, d->N, d->c.data, d->N);
	for (size_t j = 0; j < d->N; j++)
		d->col_fill[j] = DEVICE_FILL_FULL_B;
	struct ev e = { .phase = phase, .step = 0, .op = EV_COMPUTE, .rank = d->rank, .peer = -1,
			.shard = -1, .row_begin = (uint32_t)d->row_begin,
			.row_end = (uint32_t)d->row_end, .col_begin = 0, .col_end = (uint32_t)d->N,
			.bytes = mat_bytes(rows, d->N), .t_begin_ns = t - d->t0_ns,
			.t_end_ns = device_now_ns() - d->t0_ns };
	return device_log(d, &e);
}

int dp_device_run(struct device *d)
{
	int rc;
	if ((rc = device_enter(d, 0)) || (rc = dp_compute(d, 0)))
		return rc;
	if ((rc = device_enter(d, 1)))
		return rc;
	return device_gather(d, 1, 0);
}
