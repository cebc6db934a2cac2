/* testutil: helpers shared by the Check suites: an independent reference
 * product (a plain loop, not BLAS), a deterministic generator for shapes,
 * and a one-call run.  Header-only, static inline. */
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/mat.h>
#include <distmm/run.h>

/* xorshift64*: test shapes from a fixed seed, so failures repeat. */
static inline uint64_t tu_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static inline size_t tu_range(uint64_t *s, size_t lo, size_t hi)
{
	return lo + (size_t)(tu_rand(s) % (hi - lo + 1));
}

/* Fills m with generated values (ints or floats by `floats`). */
static inline void tu_matrix(struct mat *m, size_t rows, size_t cols, int floats, uint64_t seed,
			     uint64_t stream)
{
	struct dm_err err;
	ck_assert_int_eq(mat_alloc(m, rows, cols, &err), 0);
	mat_fill(m, floats ? MAT_VALUES_FLOATS : MAT_VALUES_INTS, seed, stream);
}

/* c = a @ b by the textbook loop, in long double: independent of BLAS. */
static inline void tu_reference(struct mat *c, const struct mat *a, const struct mat *b)
{
	struct dm_err err;
	ck_assert_int_eq(mat_alloc(c, a->rows, b->cols, &err), 0);
	for (size_t i = 0; i < a->rows; i++)
		for (size_t j = 0; j < b->cols; j++) {
			long double acc = 0;
			for (size_t k = 0; k < a->cols; k++)
				acc += (long double)MAT_AT(a, i, k) * MAT_AT(b, k, j);
			MAT_AT(c, i, j) = (double)acc;
		}
}

/* numpy.allclose, written out again here so the test does not trust
 * mat_allclose for its own verdict. */
static inline int tu_allclose(const struct mat *x, const struct mat *y)
{
	if (x->rows != y->rows || x->cols != y->cols)
		return 0;
	for (size_t i = 0; i < x->rows * x->cols; i++)
		if (!(fabs(x->data[i] - y->data[i]) <= 1e-8 + 1e-5 * fabs(y->data[i])))
			return 0;
	return 1;
}

static inline struct run *tu_run_new(int mode, int n, size_t capacity, const struct mat *a,
				     const struct mat *b)
{
	struct run_config cfg;
	struct run *r = NULL;
	struct dm_err err;
	run_config_default(&cfg);
	cfg.mode = mode;
	cfg.devices = n;
	cfg.capacity = capacity;
	int rc = run_new(&r, &cfg, a, b, &err);
	ck_assert_msg(rc == 0, "run_new: %s", err.msg);
	return r;
}

/* Runs to the end, stepping phase by phase when `step` is set. */
static inline void tu_run_all(struct run *r, int step)
{
	struct dm_err err;
	int rc;
	if (step) {
		while ((rc = run_step(r, &err)) == 0)
			;
		ck_assert_msg(rc == 1, "run_step: %s", err.msg);
	} else {
		rc = run_finish(r, &err);
		ck_assert_msg(rc == 0, "run_finish: %s", err.msg);
	}
}

/* Runs a @ b on n devices and checks the result against the loop. */
static inline void tu_check_product(int mode, int n, size_t capacity, const struct mat *a,
				    const struct mat *b, int step)
{
	struct mat ref;
	struct run *r = tu_run_new(mode, n, capacity, a, b);
	tu_run_all(r, step);
	tu_reference(&ref, a, b);
	ck_assert_msg(tu_allclose(run_result(r), &ref),
		      "mode %d, %d devices, %zux%zu @ %zux%zu differs from the reference", mode, n,
		      a->rows, a->cols, b->rows, b->cols);
	mat_free(&ref);
	run_free(r);
}

/* Runs the suite in fork mode (Check's default) and returns the exit status. */
static inline int tu_main(Suite *s)
{
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif
