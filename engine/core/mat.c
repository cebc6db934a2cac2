/* core/: what every other part of the engine stands on: errors as values (dm_err.c), matrices
 * (mat.c), splits and the schedule as arithmetic, the BLAS product, checked allocation and fault injection.
 *
 * mat: allocation, generation and the sequential reference product.
 * Every size product is checked for overflow before it is used (tmux's
 * xmalloc habit): sizes come from users and files. */
#include <distmm/mat.h>

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/fault.h"
#include "core/gemm.h"
#include "core/xalloc.h"

int mat_size_mul(size_t a, size_t b, size_t *out)
{
	if (a != 0 && b > SIZE_MAX / a)
		return DM_ENOMEM;
	*out = a * b;
	return 0;
}

int mat_size_add(size_t a, size_t b, size_t *out)
{
	if (b > SIZE_MAX - a)
		return DM_ENOMEM;
	*out = a + b;
	return 0;
}

size_t mat_bytes(size_t rows, size_t cols)
{
	size_t n, bytes;
	if (mat_size_mul(rows, cols, &n) || mat_size_mul(n, sizeof(double), &bytes))
		return SIZE_MAX;
	return bytes;
}

static int mat_alloc_as(struct mat *m, size_t rows, size_t cols, int zeroed, struct dm_err *err)
{
	size_t bytes = mat_bytes(rows, cols);
	m->rows = 0;
	m->cols = 0;
	m->data = NULL;
	if (bytes == SIZE_MAX)
		return dm_err_set(err, DM_ENOMEM, "a %zux%zu matrix is too large", rows, cols);
	if (bytes > 0) {
		m->data = zeroed ? xcalloc_matrix(rows * cols, sizeof(double))
				 : xmalloc_matrix(rows * cols, sizeof(double));
		if (!m->data)
			return dm_err_set(err, DM_ENOMEM,
					  "out of memory allocating a %zux%zu matrix", rows, cols);
	}
	m->rows = rows;
	m->cols = cols;
	return 0;
}

int mat_alloc(struct mat *m, size_t rows, size_t cols, struct dm_err *err)
{
	return mat_alloc_as(m, rows, cols, 1, err);
}

int mat_alloc_uninit(struct mat *m, size_t rows, size_t cols, struct dm_err *err)
{
	return mat_alloc_as(m, rows, cols, 0, err);
}

void mat_free(struct mat *m)
{
	free(m->data);
	m->data = NULL;
	m->rows = 0;
	m->cols = 0;
}

int mat_copy_block(struct mat *dst, const struct mat *src, size_t r0, size_t nr,
		   size_t c0, size_t nc, struct dm_err *err)
{
	if (r0 > src->rows || nr > src->rows - r0 || c0 > src->cols || nc > src->cols - c0)
		return dm_err_set(err, DM_EINVAL, "block outside a %zux%zu matrix",
				  src->rows, src->cols);
	int rc = mat_alloc(dst, nr, nc, err);
	if (rc)
		return rc;
	for (size_t i = 0; i < nr && nc > 0; i++)
		memcpy(&MAT_AT(dst, i, 0), &MAT_AT(src, r0 + i, c0), nc * sizeof(double));
	return 0;
}

/* splitmix64: tiny, fast and the same on every platform, so a seed names
 * the same matrices everywhere.  Its state advances by a constant, so the
 * state before draw j is known without making the draws before it: that is
 * what lets chunks of a matrix be generated in parallel, each from its own
 * starting state, with the very values one sequential pass gives. */
#define MAT_RNG_GAMMA 0x9e3779b97f4a7c15ULL

static uint64_t mat_rng_next(uint64_t *state)
{
	uint64_t z = (*state += MAT_RNG_GAMMA);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A double in (0, 1]: 53 random bits, never 0 so log() below is finite. */
static double mat_rng_unit(uint64_t *state)
{
	return ((double)(mat_rng_next(state) >> 11) + 1.0) * 0x1.0p-53;
}

/* Elements [begin, end) of the matrix whose stream starts at state0; begin
 * is even.  Element i comes from draw i: one draw each for ints, and for
 * floats a Box-Muller pair takes draws i and i + 1 for elements i and i + 1
 * (the last pair of an odd count makes two draws for one element). */
static void mat_fill_range(double *d, size_t begin, size_t end, uint64_t state0,
			   enum mat_values kind)
{
	uint64_t state = state0 + (uint64_t)begin * MAT_RNG_GAMMA;
	size_t i = begin;

	if (kind == MAT_VALUES_INTS) {
		for (; i < end; i++)
			d[i] = (double)(int)(mat_rng_next(&state) % 10) - 4.0;
		return;
	}
	while (i < end) {
		double u1 = mat_rng_unit(&state), u2 = mat_rng_unit(&state);
		double r = sqrt(-2.0 * log(u1)), t = 6.283185307179586 * u2;
		d[i++] = r * cos(t);
		if (i < end)
			d[i++] = r * sin(t);
	}
}

/* Parallel generation: worth a thread from this many elements a chunk on
 * (a thread's start costs about what 10^4 normals do), up to this many. */
#define MAT_FILL_CHUNK (1u << 17)
#define MAT_FILL_THREADS 8

struct mat_fill_job {
	double *d;
	size_t begin, end;
	uint64_t state0;
	enum mat_values kind;
};

static void *mat_fill_main(void *arg)
{
	struct mat_fill_job *j = arg;
	mat_fill_range(j->d, j->begin, j->end, j->state0, j->kind);
	return NULL;
}

void mat_fill(struct mat *m, enum mat_values kind, uint64_t seed, uint64_t stream)
{
	uint64_t state0 = seed ^ (stream * 0xd1b54a32d192ed03ULL + 0x8bb84b93962eacc9ULL);
	size_t n = m->rows * m->cols;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t parts = n / MAT_FILL_CHUNK;

	if (parts > (size_t)(cpus > 1 ? cpus : 1))
		parts = (size_t)(cpus > 1 ? cpus : 1);
	if (parts > MAT_FILL_THREADS)
		parts = MAT_FILL_THREADS;
	if (parts <= 1) {
		mat_fill_range(m->data, 0, n, state0, kind);
		return;
	}
	gemm_init(); /* BLAS's idle workers would spin on the cores these threads need */
	struct mat_fill_job job[MAT_FILL_THREADS];
	pthread_t th[MAT_FILL_THREADS];
	int started[MAT_FILL_THREADS] = { 0 };
	size_t per = (n / parts + 1) & ~(size_t)1; /* even: no pair is cut */
	sigset_t all, old;
	for (size_t p = 0; p < parts; p++) {
		size_t b = p * per < n ? p * per : n;
		job[p] = (struct mat_fill_job){ m->data, b, p + 1 == parts || b + per > n ? n : b + per,
						state0, kind };
	}
	/* signals stay with the threads that handle them, as for the devices */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (size_t p = 1; p < parts; p++)
		started[p] = !fault_thread_fails() &&
			     pthread_create(&th[p], NULL, mat_fill_main, &job[p]) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	mat_fill_main(&job[0]);
	for (size_t p = 1; p < parts; p++) {
		if (started[p])
			pthread_join(th[p], NULL);
		else /* no thread: the same values from this one */
			mat_fill_main(&job[p]);
	}
}

int mat_matmul(struct mat *c, const struct mat *a, const struct mat *b, struct dm_err *err)
{
	if (a->cols != b->rows)
		return dm_err_set(err, DM_EINVAL,
				  "shapes do not match: A is %zux%zu, B is %zux%zu "
				  "(A's columns must equal B's rows)",
				  a->rows, a->cols, b->rows, b->cols);
	int rc = mat_alloc(c, a->rows, b->cols, err);
	if (rc)
		return rc;
	gemm_acc(a->rows, b->cols, a->cols, a->data, a->cols, b->data, b->cols, c->data, c->cols);
	return 0;
}

int mat_matmul_nt(struct mat *c, const struct mat *a, const struct mat *b, struct dm_err *err)
{
	if (a->cols != b->cols)
		return dm_err_set(err, DM_EINVAL, "shapes do not match: %zux%zu @ (%zux%zu)ᵀ",
				  a->rows, a->cols, b->rows, b->cols);
	int rc = mat_alloc(c, a->rows, b->rows, err);
	if (rc)
		return rc;
	gemm_acc_nt(a->rows, b->rows, a->cols, a->data, a->cols, b->data, b->cols, c->data,
		    c->cols);
	return 0;
}

int mat_matmul_tn(struct mat *c, const struct mat *a, const struct mat *b, struct dm_err *err)
{
	if (a->rows != b->rows)
		return dm_err_set(err, DM_EINVAL, "shapes do not match: (%zux%zu)ᵀ @ %zux%zu",
				  a->rows, a->cols, b->rows, b->cols);
	int rc = mat_alloc(c, a->cols, b->cols, err);
	if (rc)
		return rc;
	gemm_acc_tn(a->cols, b->cols, a->rows, a->data, a->cols, b->data, b->cols, c->data,
		    c->cols);
	return 0;
}

/* Both NaN, or the same infinity. */
static int mat_same_nonfinite(double x, double y)
{
	return (isnan(x) && isnan(y)) || (isinf(x) && x == y);
}

int mat_close(double x, double y)
{
	/* as numpy.isclose: the tolerance for numbers only (against an infinite
	 * reference it would be infinite too, and pass any number) */
	if (isfinite(x) && isfinite(y))
		return fabs(x - y) <= 1e-8 + 1e-5 * fabs(y);
	return mat_same_nonfinite(x, y);
}

int mat_allclose(const struct mat *x, const struct mat *y, double *max_abs_err, size_t *n_bad,
		 size_t *n_nonfinite)
{
	double worst = 0.0;
	size_t bad = 0, same = 0;
	int saw_nan = 0;

	if (x->rows != y->rows || x->cols != y->cols) {
		if (max_abs_err)
			*max_abs_err = INFINITY;
		if (n_bad)
			*n_bad = SIZE_MAX;
		if (n_nonfinite)
			*n_nonfinite = 0;
		return 0;
	}
	for (size_t i = 0; i < x->rows * x->cols; i++) {
		double a = x->data[i], b = y->data[i], d = fabs(a - b);
		if (mat_same_nonfinite(a, b)) {
			same++;
			continue;
		}
		if (!mat_close(a, b))
			bad++;
		if (isnan(d))
			saw_nan = 1;
		else if (d > worst)
			worst = d;
	}
	if (max_abs_err)
		*max_abs_err = saw_nan ? NAN : worst;
	if (n_bad)
		*n_bad = bad;
	if (n_nonfinite)
		*n_nonfinite = same;
	return bad == 0;
}
