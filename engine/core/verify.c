/* verify: the exact check and Freivalds' check of C = A @ B (see verify.h).
 * Freivalds' k vectors go through as the columns of one N x k matrix X, so
 * each of B X, A (B X) and C X is one dgemm reading its big matrix once;
 * |x| = 1 everywhere, so the bound's |C||x| is a row's sum of |C| and needs
 * no product.  C's side and A's and B's run on two threads. */
#include <distmm/verify.h>

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "core/fault.h"
#include "core/gemm.h"
#include "core/xalloc.h"

/* X's signs come from mat_fill's integers in [-4, 5]: x = +1 for 1..5 and
 * -1 for -4..0, each with probability 1/2, on a stream of their own. */
#define VERIFY_STREAM 0x5645524946ULL

int verify_auto_method(size_t M, size_t K, size_t N)
{
	uint64_t work = (uint64_t)M;
	if ((K && work > UINT64_MAX / K) || (work *= K, N && work > UINT64_MAX / N))
		return VERIFY_FREIVALDS;
	work *= N;
	return work > VERIFY_AUTO_MIN ? VERIFY_FREIVALDS : VERIFY_EXACT;
}

static int verify_shapes(const struct mat *a, const struct mat *b, const struct mat *c,
			 struct dm_err *err)
{
	if (a->cols != b->rows || c->rows != a->rows || c->cols != b->cols)
		return dm_err_set(err, DM_EINVAL,
				  "cannot check a %zux%zu C against A %zux%zu @ B %zux%zu", c->rows,
				  c->cols, a->rows, a->cols, b->rows, b->cols);
	return 0;
}

int verify_exact(const struct mat *a, const struct mat *b, const struct mat *c,
		 struct verify_result *out, struct dm_err *err)
{
	struct mat ref = { 0, 0, NULL };
	int rc;
	memset(out, 0, sizeof *out);
	out->method = VERIFY_EXACT;
	out->decided = 1;
	if ((rc = verify_shapes(a, b, c, err)) || (rc = mat_matmul(&ref, a, b, err)))
		return rc;
	out->ok = mat_allclose(c, &ref, &out->max_abs_err, &out->n_bad, &out->n_nonfinite);
	out->checked = c->rows * c->cols;
	mat_free(&ref);
	return 0;
}

/* sum |v[0..n)|, with four partial sums (one chain of additions is a
 * latency-bound quarter of the speed) */
static double verify_abs_sum(const double *v, size_t n)
{
	double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	size_t i = 0;
	for (; i + 4 <= n; i += 4) {
		s0 += fabs(v[i]);
		s1 += fabs(v[i + 1]);
		s2 += fabs(v[i + 2]);
		s3 += fabs(v[i + 3]);
	}
	for (; i < n; i++)
		s0 += fabs(v[i]);
	return (s0 + s1) + (s2 + s3);
}

/* From this many elements of C on, C's side runs on a thread. */
#define VERIFY_THREAD_MIN ((size_t)1 << 18)

struct verify_cside {
	const struct mat *c;
	const double *x;
	size_t k;
	double *cx, *cabs; /* M x k, and M */
};

static void *verify_cside_main(void *arg)
{
	struct verify_cside *s = arg;
	size_t M = s->c->rows, N = s->c->cols;
	gemm_acc(M, s->k, N, s->c->data, N, s->x, s->k, s->cx, s->k);
	for (size_t i = 0; i < M; i++)
		s->cabs[i] = verify_abs_sum(&s->c->data[i * N], N);
	return NULL;
}

/* Starts C's side with every signal blocked, as the devices are. */
static int verify_start(pthread_t *th, struct verify_cside *cs)
{
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int rc = pthread_create(th, NULL, verify_cside_main, cs);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

int verify_freivalds(const struct mat *a, const struct mat *b, const struct mat *c, int k,
		     uint64_t seed, struct verify_result *out, struct dm_err *err)
{
	size_t M = a->rows, K = a->cols, N = b->cols, cells;
	int rc;
	memset(out, 0, sizeof *out);
	out->method = VERIFY_FREIVALDS;
	out->vectors = k;
	out->decided = 1;
	out->ok = 1;
	out->checked = M;
	if ((rc = verify_shapes(a, b, c, err)))
		return rc;
	if (k < 1)
		return dm_err_set(err, DM_EINVAL, "Freivalds' check needs at least one vector");
	if (M == 0 || N == 0)
		return 0; /* an empty C is the empty product */
	size_t kk = (size_t)k;
	/* X (N x k), then B X (K x k), A (B X) and C X (M x k each), |C| 1 (M) */
	if (mat_size_add(N, K, &cells) || mat_size_add(cells, M, &cells) ||
	    mat_size_add(cells, M, &cells) || mat_size_mul(cells, kk, &cells) ||
	    mat_size_add(cells, M, &cells))
		return dm_err_set(err, DM_ENOMEM, "Freivalds' check of a %zux%zu C is too large", M, N);
	double *buf = xcalloc(cells, sizeof *buf);
	if (!buf)
		return dm_err_set(err, DM_ENOMEM, "out of memory for Freivalds' check");
	double *x = buf, *bx = x + N * kk, *abx = bx + K * kk, *cx = abx + M * kk;
	struct mat xm = { N, kk, x };
	mat_fill(&xm, MAT_VALUES_INTS, seed, VERIFY_STREAM);
	for (size_t i = 0; i < N * kk; i++)
		x[i] = x[i] >= 1.0 ? 1.0 : -1.0;

	/* C's side (C X and the rows' sums of |C|) on a thread of its own while
	 * this one does A's and B's: two passes over C beside two over each of
	 * A and B, on two cores */
	struct verify_cside cs = { c, x, kk, cx, cx + M * kk };
	pthread_t th;
	int threaded = M * N >= VERIFY_THREAD_MIN && !fault_thread_fails() &&
		       verify_start(&th, &cs) == 0;
	if (!threaded)
		verify_cside_main(&cs);
	gemm_acc(K, kk, N, b->data, N, x, kk, bx, kk);
	gemm_acc(M, kk, K, a->data, K, bx, kk, abx, kk);

	/* the rounding term's |A||B||x| <= ||A_i||_1 * max_k (|B| 1)_k */
	double bmax = 0;
	for (size_t r = 0; r < K; r++) {
		double s = verify_abs_sum(&b->data[r * N], N);
		bmax = !(s <= bmax) ? s : bmax; /* NaN sticks */
	}
	if (threaded)
		pthread_join(th, NULL);
	const double u = DBL_EPSILON / 2, nk = (double)N + (double)K;
	out->bound_min = INFINITY;
	for (size_t i = 0; i < M; i++) {
		double cabs = cs.cabs[i];
		double aabs = verify_abs_sum(&a->data[i * K], K);
		double bound = (VERIFY_ATOL * (double)N + VERIFY_RTOL * cabs) / (1 - VERIFY_RTOL) +
			       2 * nk * u * (cabs + 2 * aabs * bmax);
		bound *= 1 + 4 * nk * u; /* the bound's own sums round too */
		int bad = 0;
		if (!isfinite(bound)) {
			out->decided = 0;
			break;
		}
		for (size_t v = 0; v < kk; v++) {
			double e = fabs(cx[i * kk + v] - abx[i * kk + v]);
			if (!isfinite(e)) {
				out->decided = 0;
				break;
			}
			if (e > out->max_abs_err)
				out->max_abs_err = e;
			if (e / bound > out->worst_ratio)
				out->worst_ratio = e / bound;
			if (e > bound)
				bad = 1;
		}
		if (!out->decided)
			break;
		if (bound < out->bound_min)
			out->bound_min = bound;
		if (bound > out->bound_max)
			out->bound_max = bound;
		if (bad && out->n_bad++ == 0)
			out->first_bad = i;
	}
	free(buf);
	out->ok = out->decided && out->n_bad == 0;
	return 0;
}
