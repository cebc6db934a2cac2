/* model_words: the model's sentences (see model_words.h).  Every number
 * comes from the model; a formula written here names the terms the model
 * sums, in the order model.h states them. */
#include "model_words.h"

#include <inttypes.h>
#include <stdio.h>

#include <distmm/schedule.h>

void modelw_saving_line(const struct model_compare *c, char *buf, size_t size)
{
	int n = c->n;
	if (n == 1) {
		snprintf(buf, size, "one device: both modes hold all of A, B and C on it; nothing "
				    "is split, so there is nothing to save");
		return;
	}
	if (n == 2) {
		snprintf(buf, size, "n = 2: during a transfer FSDP holds two shards, 2*B/2 = B, as "
				    "much as DP's copy: FSDP saves memory only from n = 3 on");
		return;
	}
	snprintf(buf, size, "DP holds all of B (%" PRIu64 " B) on each of the %d devices; FSDP "
			    "at most two shards at once, about 2/%d of it%s",
		 c->b_bytes, n, n, c->even ? "" : " (the shards are uneven here: see the model)");
}

void modelw_ring_formula(const struct dm_plan *p, size_t K, size_t N, int rank, char *buf,
			 size_t size)
{
	int n = plan_devices(p), right = sched_right(n, rank);
	unsigned long long B = 8 * (unsigned long long)K * N;
	unsigned long long wr = model_chunk_bytes(p, K, N, rank);
	unsigned long long wn = model_chunk_bytes(p, K, N, right);
	unsigned long long sent = model_train_ring_sent(p, K, N, rank);
	if (n == 1)
		snprintf(buf, size, "one device: no ring, 0");
	else if (plan_mode(p) == DM_FSDP)
		snprintf(buf, size, "2*(B - w%d) + (B - w%d) = 2*(%llu - %llu) + (%llu - %llu) = %llu",
			 right, rank, B, wn, B, wr, sent);
	else
		snprintf(buf, size, "(B - w%d) + (B - w%d) = (%llu - %llu) + (%llu - %llu) = %llu",
			 rank, right, B, wr, B, wn, sent);
}
