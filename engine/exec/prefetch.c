/* prefetch: --prefetch's pair, a ring step's compute and its transfer at
 * once (see device.h).  The product runs on the device's compute worker
 * (overlap.h) from the shard held; this thread meanwhile sends a copy of
 * that shard (the worker still reads the original, so it cannot move into
 * the message: a real device sends it in place) and receives the next, in
 * the configured order or fix, so the transport sees the same calls as in
 * the plain ring and every order completes or deadlocks as it does there.
 * Once both are over the original is let go (in the training step's first
 * transfer of a pass it is the rank's own shard, kept).
 *
 * The accounting is the plain transfer's, from the start of the pair: the
 * shard multiplied and the incoming buffer are held while the product
 * runs, and the compute's event says so (held and peak with both); the
 * transfer's events are stamped at its end, as ever.  A transfer that
 * fails leaves the counts as the plain one does, and the compute's event
 * then says what was held before the pair. */
#include "exec/device.h"

#include "exec/overlap.h"

int prefetch_start(struct device *d)
{
	if (!d->prefetch || d->n < 2 || d->ov)
		return 0;
	return overlap_start(&d->ov, d->rank, &d->err);
}

void prefetch_stop(struct device *d)
{
	overlap_stop(d->ov);
	d->ov = NULL;
}

int prefetch_pair(struct device *d, int phase, int step, int bwd)
{
	struct dev_job j;
	struct ev ev[2];
	struct mat aside = { 0, 0, NULL };
	uint64_t held0, peak0, held, peak;
	int logged = 0;
	int rc = bwd ? train_da_prep(d, phase, step, &j) : fsdp_compute_prep(d, phase, step, &j);
	if (rc)
		return rc;
	held0 = held = d->held;
	peak0 = peak = d->peak;
	overlap_post(d->ov, &j);
	int xrc = fsdp_transfer_go(d, phase + 1, step, &aside, ev, &logged, &held, &peak);
	overlap_join(d->ov);
	device_mat_free(d, &aside); /* the product is over: its shard can go */
	j.stamped = 1;
	j.held = xrc ? held0 : held;
	j.peak = xrc ? peak0 : peak;
	rc = bwd ? train_da_done(d, &j) : fsdp_compute_done(d, &j);
	if (rc || xrc)
		return rc ? rc : xrc;
	return fsdp_transfer_log(d, ev, logged);
}
