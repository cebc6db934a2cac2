/* verify: the exact check and Freivalds' check of C = A @ B (see verify.h).
 * Freivalds' k vectors go through as the columns of one N x k matrix X, so
 * each of B X, A (B X) and C X is one dgemm reading its big matrix once;
 * |x| = 1 everywhere, so the bound's |C||x| is a row's sum of |C| and needs
 * no product.  C's side and A's and B's run on two threads.  Either
 * operand may be used transposed (verify_op): BLAS reads it so, and its
 * rows' sums of |x| for the bound are its columns' then. */
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

enum verify_method verify_auto_method(size_t M, size_t K, size_t N)
{
	uint64_t work = (uint64_t)M;
	if ((K && work > UINT64_MAX / K) || (work *= K, N && work > UINT64_MAX / N))
		return VERIFY_FREIVALDS;
	work *= N;
	return work > VERIFY_AUTO_MIN ? VERIFY_FREIVALDS : VERIFY_EXACT;
}

/* op(x)'s shape */
static size_t verify_rows(struct verify_op x)
{
	return x.trans ? x.m->cols : x.m->rows;
}

static size_t verify_cols(struct verify_op x)
{
	return x.trans ? x.m->rows : x.m->cols;
}

static int verify_shapes(struct verify_op a, struct verify_op b, const struct mat *c,
			 struct dm_err *err)
{
	if (verify_cols(a) != verify_rows(b) || c->rows != verify_rows(a) ||
	    c->cols != verify_cols(b))
		return dm_err_set(err, DM_EINVAL,
				  "cannot check a %zux%zu C against %sA %zux%zu @ %sB %zux%zu", c->rows,
				  c->cols, a.trans ? "the transpose of " : "", a.m->rows, a.m->cols,
				  b.trans ? "the transpose of " : "", b.m->rows, b.m->cols);
	return 0;
}

int verify_exact_op(struct verify_op a, struct verify_op b, const struct mat *c,
		    struct verify_result *out, struct dm_err *err)
{
	struct mat ref = { 0, 0, NULL };
	int rc;
	memset(out, 0, sizeof *out);
	out->method = VERIFY_EXACT;
	out->decided = 1;
	if ((rc = verify_shapes(a, b, c, err)) ||
	    (rc = mat_alloc(&ref, verify_rows(a), verify_cols(b), err)))
		return rc;
	gemm_acc_op(a.trans, b.trans, ref.rows, ref.cols, verify_cols(a), a.m->data, a.m->cols,
		    b.m->data, b.m->cols, ref.data, ref.cols);
	out->ok = mat_allclose(c, &ref, &out->max_abs_err, &out->n_bad, &out->n_nonfinite);
	out->checked = c->rows * c->cols;
	mat_free(&ref);
	return 0;
}

int verify_exact(const struct mat *a, const struct mat *b, const struct mat *c,
		 struct verify_result *out, struct dm_err *err)
{
	return verify_exact_op((struct verify_op){ a, 0 }, (struct verify_op){ b, 0 }, c, out, err);
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

/* sum |row i of op(x)| for every row of op(x), into out[0..rows) */
static void verify_row_abs_sums(struct verify_op x, double *out)
{
	size_t R = x.m->rows, C = x.m->cols;
	if (!x.trans) {
		for (size_t i = 0; i < R; i++)
			out[i] = verify_abs_sum(&x.m->data[i * C], C);
		return;
	}
	/* a row of xᵀ is a column of x: summed down x's rows, in order */
	for (size_t j = 0; j < C; j++)
		out[j] = 0;
	for (size_t i = 0; i < R; i++)
		for (size_t j = 0; j < C; j++)
			out[j] += fabs(x.m->data[i * C + j]);
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

int verify_freivalds_op(struct verify_op a, struct verify_op b, const struct mat *c, int k,
			uint64_t seed, struct verify_result *out, struct dm_err *err)
{
	size_t M = verify_rows(a), K = verify_cols(a), N = verify_cols(b), cells;
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
	/* X (N x k), then B X (K x k), A (B X) and C X (M x k each), |C| 1 (M),
	 * op(A)'s rows' sums of || (M) and op(B)'s (K) */
	if (mat_size_add(N, K, &cells) || mat_size_add(cells, M, &cells) ||
	    mat_size_add(cells, M, &cells) || mat_size_mul(cells, kk, &cells) ||
	    mat_size_add(cells, M, &cells) || mat_size_add(cells, M, &cells) ||
	    mat_size_add(cells, K, &cells))
		return dm_err_set(err, DM_ENOMEM, "Freivalds' check of a %zux%zu C is too large", M, N);
	double *buf = xcalloc(cells, sizeof *buf);
	if (!buf)
		return dm_err_set(err, DM_ENOMEM, "out of memory for Freivalds' check");
	double *x = buf, *bx = x + N * kk, *abx = bx + K * kk, *cx = abx + M * kk;
	double *cabs = cx + M * kk, *aabs = cabs + M, *babs = aabs + M;
	struct mat xm = { N, kk, x };
	mat_fill(&xm, MAT_VALUES_INTS, seed, VERIFY_STREAM);
	for (size_t i = 0; i < N * kk; i++)
		x[i] = x[i] >= 1.0 ? 1.0 : -1.0;

	/* C's side (C X and the rows' sums of |C|) on a thread of its own while
	 * this one does A's and B's: two passes over C beside two over each of
	 * A and B, on two cores */
	struct verify_cside cs = { c, x, kk, cx, cabs };
	pthread_t th;
	int threaded = M * N >= VERIFY_THREAD_MIN && !fault_thread_fails() &&
		       verify_start(&th, &cs) == 0;
	if (!threaded)
		verify_cside_main(&cs);
	gemm_acc_op(b.trans, 0, K, kk, N, b.m->data, b.m->cols, x, kk, bx, kk);
	gemm_acc_op(a.trans, 0, M, kk, K, a.m->data, a.m->cols, bx, kk, abx, kk);

	/* the rounding term's |A||B||x| <= ||A_i||_1 * max_k (|B| 1)_k */
	verify_row_abs_sums(a, aabs);
	verify_row_abs_sums(b, babs);
	double bmax = 0;
	for (size_t r = 0; r < K; r++)
		bmax = !(babs[r] <= bmax) ? babs[r] : bmax; /* NaN sticks */
	if (threaded)
		pthread_join(th, NULL);
	const double u = DBL_EPSILON / 2, nk = (double)N + (double)K;
	out->bound_min = INFINITY;
	for (size_t i = 0; i < M; i++) {
		double bound = (VERIFY_ATOL * (double)N + VERIFY_RTOL * cabs[i]) / (1 - VERIFY_RTOL) +
			       2 * nk * u * (cabs[i] + 2 * aabs[i] * bmax);
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

int verify_freivalds(const struct mat *a, const struct mat *b, const struct mat *c, int k,
		     uint64_t seed, struct verify_result *out, struct dm_err *err)
{
	return verify_freivalds_op((struct verify_op){ a, 0 }, (struct verify_op){ b, 0 }, c, k,
				   seed, out, err);
}
