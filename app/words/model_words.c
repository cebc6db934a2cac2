/* model_words: the model's sentences (see model_words.h).  Every number
 * comes from the model; a formula written here names the terms the model
 * sums, in the order model.h states them. */
#include "model_words.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

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

void modelw_bytes(uint64_t bytes, char *buf, size_t size)
{
	if (bytes < 1024)
		snprintf(buf, size, "%" PRIu64 " B", bytes);
	else if (bytes < 1024ull * 1024)
		snprintf(buf, size, "%.1f KiB", (double)bytes / 1024.0);
	else if (bytes < 1024ull * 1024 * 1024)
		snprintf(buf, size, "%.1f MiB", (double)bytes / 1048576.0);
	else
		snprintf(buf, size, "%.1f GiB", (double)bytes / 1073741824.0);
}

static uint64_t modelw_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

void modelw_fraction(uint64_t x, uint64_t whole, int parts, char *buf, size_t size)
{
	if (whole == 0 || x == 0) {
		snprintf(buf, size, "none");
		return;
	}
	if (x == whole) {
		snprintf(buf, size, "all");
		return;
	}
	/* x * parts exact in whole's units: the split's own denominator */
	if (parts > 0 && x <= UINT64_MAX / (uint64_t)parts && x * (uint64_t)parts % whole == 0) {
		snprintf(buf, size, "%" PRIu64 "/%d", x * (uint64_t)parts / whole, parts);
		return;
	}
	uint64_t g = modelw_gcd(x, whole);
	snprintf(buf, size, "%" PRIu64 "/%" PRIu64, x / g, whole / g);
}

/* "3/4 of B", "all of B", "2 x B". */
static void modelw_share_of(uint64_t x, uint64_t whole, int parts, const char *of, char *buf,
			    size_t size)
{
	char f[48];
	if (whole > 0 && x > whole && x % whole == 0) {
		snprintf(buf, size, "%" PRIu64 " x %s", x / whole, of);
		return;
	}
	modelw_fraction(x, whole, parts, f, sizeof f);
	snprintf(buf, size, "%s of %s", f, of);
}

void modelw_shares(const uint64_t *x, int n, uint64_t whole, int parts, const char *of,
		   char *buf, size_t size)
{
	char f[64];
	uint64_t sum = 0;
	int same = 1;
	for (int r = 0; r < n; r++) {
		sum += x[r];
		same = same && x[r] == x[0];
	}
	if (n < 1 || same) {
		modelw_share_of(n > 0 ? x[0] : 0, whole, parts, of, buf, size);
		return;
	}
	/* the average: the sum of n ranks' shares over n wholes */
	modelw_share_of(sum, whole * (uint64_t)n, parts, of, f, sizeof f);
	size_t len = (size_t)snprintf(buf, size, "on average %s (", f);
	for (int r = 0; r < n && len < size;) {
		int end = r;
		while (end + 1 < n && x[end + 1] == x[r])
			end++;
		if (x[r] > whole && x[r] % whole == 0)
			snprintf(f, sizeof f, "%" PRIu64, x[r] / whole);
		else
			modelw_fraction(x[r], whole, parts, f, sizeof f);
		if (end == r)
			len += (size_t)snprintf(buf + len, size - len, "%srank %d %s", r ? ", " : "", r, f);
		else
			len += (size_t)snprintf(buf + len, size - len, "%sranks %d-%d %s", r ? ", " : "", r,
						end, f);
		r = end + 1;
	}
	if (len < size)
		snprintf(buf + len, size - len, ")");
}

void modelw_ring_share(const struct dm_plan *p, size_t M, size_t K, size_t N, char *buf,
		       size_t size)
{
	int n = plan_devices(p);
	uint64_t *x = calloc((size_t)n, sizeof *x);
	if (!x) {
		snprintf(buf, size, "?");
		return;
	}
	for (int r = 0; r < n; r++) {
		struct model_fwd m;
		model_fwd_rank(p, r, M, K, N, &m);
		x[r] = m.ring;
	}
	modelw_shares(x, n, 8 * (uint64_t)K * N, model_even(p, N) ? n : 0, "B", buf, size);
	free(x);
}

void modelw_train_share(const struct dm_plan *p, size_t K, size_t N, const char *of, char *buf,
			size_t size)
{
	int n = plan_devices(p);
	uint64_t *x = calloc((size_t)n, sizeof *x);
	if (!x) {
		snprintf(buf, size, "?");
		return;
	}
	for (int r = 0; r < n; r++)
		x[r] = model_train_ring_sent(p, K, N, r);
	modelw_shares(x, n, 8 * (uint64_t)K * N, model_even(p, N) ? n : 0, of, buf, size);
	free(x);
}
