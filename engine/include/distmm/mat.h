/* mat: a dense row-major matrix of doubles, the value every engine module
 * exchanges.  A plain struct on purpose: callers own it and free it with
 * mat_free(); a 0-row or 0-column matrix is valid and has data == NULL. */
#ifndef DM_MAT_H
#define DM_MAT_H

#include <stddef.h>
#include <stdint.h>

#include "dm_err.h"

struct mat {
	size_t rows, cols;
	double *data; /* rows * cols values, row-major; NULL when empty */
};

/* Element (i, j) of m. */
#define MAT_AT(m, i, j) ((m)->data[(size_t)(i) * (m)->cols + (size_t)(j)])

/* Multiplies a * b into *out; returns 0, or DM_ENOMEM when it overflows. */
int mat_size_mul(size_t a, size_t b, size_t *out);
/* Adds a + b into *out; returns 0, or DM_ENOMEM when it overflows. */
int mat_size_add(size_t a, size_t b, size_t *out);

/* Bytes for a rows x cols matrix of doubles, or SIZE_MAX on overflow. */
size_t mat_bytes(size_t rows, size_t cols);

/* Allocates a zeroed rows x cols matrix.  Returns 0, or DM_ENOMEM (message in
 * err) when the size overflows or the allocation fails. */
int mat_alloc(struct mat *m, size_t rows, size_t cols, struct dm_err *err);

/* As mat_alloc, but the values are undefined: for a matrix the caller fills
 * whole straight away (generated, read from a file, copied), which then
 * touches each fresh page once instead of twice. */
int mat_alloc_uninit(struct mat *m, size_t rows, size_t cols, struct dm_err *err);

/* Frees m's data and leaves it as an empty 0 x 0 matrix. */
void mat_free(struct mat *m);

/* Copies rows [r0, r0+nr) and columns [c0, c0+nc) of src into a new matrix. */
int mat_copy_block(struct mat *dst, const struct mat *src, size_t r0, size_t nr,
		   size_t c0, size_t nc, struct dm_err *err);

/* The kinds of values mat_fill() generates. */
enum mat_values {
	MAT_VALUES_INTS,   /* small integers in [-4, 5]: products a person can check */
	MAT_VALUES_FLOATS, /* standard normal */
};

/* Fills m deterministically from seed; stream tells A (0) from B (1) so both
 * can come from one seed.  The values depend on the seed, the stream and the
 * element's index only (not on the machine or the number of threads): large
 * matrices are generated in parallel chunks with the same result. */
void mat_fill(struct mat *m, enum mat_values kind, uint64_t seed, uint64_t stream);

/* Sequential reference product c = a @ b (c is allocated).  Returns 0,
 * DM_EINVAL when a->cols != b->rows, or DM_ENOMEM. */
int mat_matmul(struct mat *c, const struct mat *a, const struct mat *b, struct dm_err *err);

/* The training step's sequential references: c = a @ bᵀ (dA = dC @ Bᵀ:
 * a's columns must equal b's) and c = aᵀ @ b (dB = Aᵀ @ dC: a's rows must
 * equal b's), c allocated.  Returns 0, DM_EINVAL or DM_ENOMEM. */
int mat_matmul_nt(struct mat *c, const struct mat *a, const struct mat *b, struct dm_err *err);
int mat_matmul_tn(struct mat *c, const struct mat *a, const struct mat *b, struct dm_err *err);

/* The one rule every check of C uses, element by element: numpy's
 * isclose(x, y, equal_nan=True) with y the reference, |x - y| <= atol +
 * rtol*|y| (atol = 1e-8, rtol = 1e-5), or x and y the same value not finite
 * (both NaN, or the same infinity: the product of inputs with a NaN or an
 * infinity has it in the same places whatever the order of its sums).  A
 * NaN or an infinity where the reference has a number, or a number where it
 * has one, fails. */
int mat_close(double x, double y);

/* mat_close on every element; shapes must match.  Fills (each may be NULL)
 * the largest |x - y| over the elements that are not the same non-finite
 * value (NaN when a failing one's difference is NaN), the number of
 * elements that fail, and the number that pass as the same NaN or
 * infinity.  Returns 1 when all pass, 0 otherwise. */
int mat_allclose(const struct mat *x, const struct mat *y, double *max_abs_err,
		 size_t *n_bad, size_t *n_nonfinite);

#endif
