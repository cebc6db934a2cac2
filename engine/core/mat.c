/* core/: what every other part of the engine stands on: errors as values (dm_err.c), matrices
 * (mat.c), splits and the schedule as arithmetic, the BLAS product, checked allocation and fault injection.
 *
 * mat: allocation, generation and the sequential reference product.
 * Every size product is checked for overflow before it is used (tmux's
 * xmalloc habit): sizes come from users and files. */
#include <distmm/mat.h>

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

int mat_alloc(struct mat *m, size_t rows, size_t cols, struct dm_err *err)
{
	size_t bytes = mat_bytes(rows, cols);
	m->rows = 0;
	m->cols = 0;
	m->data = NULL;
	if (bytes == SIZE_MAX)
		return dm_err_set(err, DM_ENOMEM, "a %zux%zu matrix is too large", rows, cols);
	if (bytes > 0) {
		m->data = xcalloc_matrix(rows * cols, sizeof(double));
		if (!m->data)
			return dm_err_set(err, DM_ENOMEM,
					  "out of memory allocating a %zux%zu matrix", rows, cols);
	}
	m->rows = rows;
	m->cols = cols;
	return 0;
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
 * the same matrices everywhere. */
static uint64_t mat_rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A double in (0, 1]: 53 random bits, never 0 so log() below is finite. */
static double mat_rng_unit(uint64_t *state)
{
	return ((double)(mat_rng_next(state) >> 11) + 1.0) * 0x1.0p-53;
}

void mat_fill(struct mat *m, enum mat_values kind, uint64_t seed, uint64_t stream)
{
	uint64_t state = seed ^ (stream * 0xd1b54a32d192ed03ULL + 0x8bb84b93962eacc9ULL);
	size_t n = m->rows * m->cols;
	size_t i = 0;

	if (kind == MAT_VALUES_INTS) {
		for (; i < n; i++)
			m->data[i] = (double)(int)(mat_rng_next(&state) % 10) - 4.0;
		return;
	}
	/* Box-Muller gives normals in pairs. */
	while (i < n) {
		double u1 = mat_rng_unit(&state), u2 = mat_rng_unit(&state);
		double r = sqrt(-2.0 * log(u1)), t = 6.283185307179586 * u2;
		m->data[i++] = r * cos(t);
		if (i < n)
			m->data[i++] = r * sin(t);
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

int mat_allclose(const struct mat *x, const struct mat *y, double *max_abs_err, size_t *n_bad)
{
	double worst = 0.0;
	size_t bad = 0;
	int saw_nan = 0;

	if (x->rows != y->rows || x->cols != y->cols) {
		if (max_abs_err)
			*max_abs_err = INFINITY;
		if (n_bad)
			*n_bad = SIZE_MAX;
		return 0;
	}
	for (size_t i = 0; i < x->rows * x->cols; i++) {
		double d = fabs(x->data[i] - y->data[i]);
		if (!(d <= 1e-8 + 1e-5 * fabs(y->data[i])))
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
	return bad == 0;
}
