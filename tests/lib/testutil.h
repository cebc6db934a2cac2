/* testutil: helpers shared by the Check suites: an independent reference
 * product (a plain loop, not BLAS), a deterministic generator for shapes,
 * a one-call run, and the product cases every mode runs (a table of fixed
 * ones and random ones from a seed).  Header-only, static inline; the table
 * lives in a function because a static array here would be an unused
 * variable in every suite that does not run it. */
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/mat.h>
#include <distmm/run.h>
#include <distmm/schedule.h>

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

/* A plan of mode on n devices for pass; the test fails where it cannot be
 * made.  plan_free it. */
static inline struct dm_plan *tu_plan(enum dm_mode mode, int n, enum dm_pass pass)
{
	struct dm_plan *p = NULL;
	struct dm_err err;
	int rc = plan_make(&p, mode, n, pass, &err);
	ck_assert_msg(rc == 0, "plan_make: %s", err.msg);
	return p;
}

/* The same with every setting of a run (plan_make_run). */
static inline struct dm_plan *tu_plan_run(enum dm_mode mode, int n, enum dm_pass pass,
					  enum dm_order order, enum dm_bug bug, size_t capacity)
{
	struct dm_plan *p = NULL;
	struct dm_err err;
	int rc = plan_make_run(&p, mode, n, pass, order, bug, capacity, &err);
	ck_assert_msg(rc == 0, "plan_make_run: %s", err.msg);
	return p;
}

/* A forward run of mode on n devices with that capacity, order and bug;
 * the test fails if it does not start. */
static inline struct run *tu_run_with(int mode, int n, size_t capacity, int order, int bug,
				      const struct mat *a, const struct mat *b)
{
	struct dm_plan *p = tu_plan_run(mode, n, DM_FORWARD, order, bug, capacity);
	struct run *r = NULL;
	struct dm_err err;
	int rc = run_new(&r, p, NULL, a, b, &err);
	plan_free(p);
	ck_assert_msg(rc == 0, "run_new: %s", err.msg);
	return r;
}

static inline struct run *tu_run_new(int mode, int n, size_t capacity, const struct mat *a,
				     const struct mat *b)
{
	return tu_run_with(mode, n, capacity, ORDER_PARITY, BUG_NONE, a, b);
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

/* One product case: A (M x K) and B (K x N) generated from seed, ints or
 * floats, on n devices with that channel capacity, stepped phase by phase or
 * run free.  `exact`: compared bit for bit with mat_matmul (d = 1 is plain
 * A @ B), else with the loop under allclose. */
struct tu_case {
	size_t M, K, N;
	int n;
	size_t capacity;
	int floats, step, exact;
	uint64_t seed;
};

static inline void tu_case_name(int mode, const struct tu_case *c, char *buf, size_t size)
{
	char cap[24];
	if (c->capacity == RUN_UNBOUNDED)
		snprintf(cap, sizeof cap, "unbounded");
	else
		snprintf(cap, sizeof cap, "%zu", c->capacity);
	snprintf(buf, size, "%s, %d devices, %zux%zu @ %zux%zu, %s from seed %llu, capacity %s, %s",
		 plan_mode_name(mode), c->n, c->M, c->K, c->K, c->N, c->floats ? "floats" : "ints",
		 (unsigned long long)c->seed, cap, c->step ? "stepped" : "free");
}

/* Runs case c in mode; `what` says where it came from in a failure. */
static inline void tu_check_case(int mode, const struct tu_case *c, const char *what)
{
	struct mat a, b, ref;
	struct dm_err err;
	char name[200];
	int rc;
	tu_case_name(mode, c, name, sizeof name);
	tu_matrix(&a, c->M, c->K, c->floats, c->seed, 0);
	tu_matrix(&b, c->K, c->N, c->floats, c->seed, 1);
	struct run *r = tu_run_new(mode, c->n, c->capacity, &a, &b);
	if (c->step) {
		while ((rc = run_step(r, &err)) == 0)
			;
		rc = rc == 1 ? 0 : rc;
	} else {
		rc = run_finish(r, &err);
	}
	ck_assert_msg(rc == 0, "%s (%s): %s", what, name, err.msg);
	if (c->exact) {
		ck_assert_int_eq(mat_matmul(&ref, &a, &b, &err), 0);
		ck_assert_msg(memcmp(run_result(r)->data, ref.data, c->M * c->N * sizeof(double)) == 0,
			      "%s (%s): not bit for bit A @ B", what, name);
	} else {
		tu_reference(&ref, &a, &b);
		ck_assert_msg(tu_allclose(run_result(r), &ref), "%s (%s): differs from the reference",
			      what, name);
	}
	mat_free(&ref);
	run_free(r);
	mat_free(&a);
	mat_free(&b);
}

/* The fixed cases both modes run (tcase_add_loop_test over 0..*count). */
static inline const struct tu_case *tu_product_cases(size_t *count)
{
#define TU_INF RUN_UNBOUNDED
	static const struct tu_case cases[] = {
		/* M, K, N, devices, capacity, floats, step, exact, seed */
		/* the exercise: 8x6 @ 6x4 on 1, 2 and 4 devices */
		{ 8, 6, 4, 1, TU_INF, 0, 1, 0, 1 }, { 8, 6, 4, 1, TU_INF, 0, 0, 0, 1 },
		{ 8, 6, 4, 1, 0, 0, 0, 0, 1 },      { 8, 6, 4, 2, TU_INF, 0, 1, 0, 1 },
		{ 8, 6, 4, 2, TU_INF, 0, 0, 0, 1 }, { 8, 6, 4, 2, 0, 0, 0, 0, 1 },
		{ 8, 6, 4, 4, TU_INF, 0, 1, 0, 1 }, { 8, 6, 4, 4, TU_INF, 0, 0, 0, 1 },
		{ 8, 6, 4, 4, 0, 0, 0, 0, 1 },
		/* one device is plain A @ B, bit for bit */
		{ 9, 5, 12, 1, TU_INF, 1, 1, 1, 6 }, { 13, 7, 11, 1, TU_INF, 1, 1, 1, 5 },
		/* uneven splits, and more devices than rows or columns (empty parts) */
		{ 7, 5, 3, 3, TU_INF, 1, 1, 0, 0 },    { 7, 5, 3, 3, 0, 1, 0, 0, 0 },
		{ 5, 3, 2, 4, TU_INF, 1, 1, 0, 1 },    { 5, 3, 2, 4, 0, 1, 0, 0, 1 },
		{ 2, 3, 1, 5, TU_INF, 1, 1, 0, 2 },    { 2, 3, 1, 5, 0, 1, 0, 0, 2 },
		{ 1, 1, 1, 8, TU_INF, 1, 1, 0, 3 },    { 1, 1, 1, 8, 0, 1, 0, 0, 3 },
		{ 10, 4, 7, 4, TU_INF, 1, 1, 0, 4 },   { 10, 4, 7, 4, 0, 1, 0, 0, 4 },
		{ 3, 9, 17, 16, TU_INF, 1, 1, 0, 5 },  { 3, 9, 17, 16, 0, 1, 0, 0, 5 },
		{ 64, 2, 1, 64, TU_INF, 1, 1, 0, 6 },  { 64, 2, 1, 64, 0, 1, 0, 0, 6 },
		{ 1, 30, 64, 64, TU_INF, 1, 1, 0, 7 }, { 1, 30, 64, 64, 0, 1, 0, 0, 7 },
	};
#undef TU_INF
	*count = sizeof cases / sizeof cases[0];
	return cases;
}

/* Every capacity a correct order completes with (rendezvous, bounded,
 * unbounded) on 1 to 16 devices, stepped and free in turn. */
static inline void tu_check_capacities(int mode)
{
	static const size_t caps[] = { 0, 1, 2, RUN_UNBOUNDED };
	for (int n = 1; n <= 16; n++)
		for (int i = 0; i < 4; i++) {
			struct tu_case c = { 9, 4, 11, n, caps[i], 0, (n + i) % 2, 0, 3 };
			tu_check_case(mode, &c, "capacity sweep");
		}
}

static inline size_t tu_product_count(void)
{
	size_t count;
	tu_product_cases(&count);
	return count;
}

/* The seed random cases start from: DISTMM_TEST_SEED (decimal or 0x hex)
 * when set, else the suite's own, so that a plain run always repeats. */
static inline uint64_t tu_test_seed(uint64_t fallback)
{
	const char *s = getenv("DISTMM_TEST_SEED");
	char *end;
	if (!s || !*s)
		return fallback;
	uint64_t seed = strtoull(s, &end, 0);
	ck_assert_msg(*end == '\0' && seed != 0, "DISTMM_TEST_SEED=%s is not a non-zero number", s);
	return seed;
}

/* `count` random cases in mode, drawn one after the other from the seed
 * (printed, with how to repeat it): 1..40 x 1..24 @ 1..40 on 1 to 64 devices,
 * ints and floats, capacities 0 and unbounded, stepped and free in turn. */
static inline void tu_check_random(int mode, uint64_t fallback, int count)
{
	uint64_t base = tu_test_seed(fallback), s = base;
	char what[96];
	printf("%s: %d random shapes from seed %#llx (DISTMM_TEST_SEED=%#llx repeats them)\n",
	       plan_mode_name(mode), count, (unsigned long long)base, (unsigned long long)base);
	fflush(stdout);
	for (int t = 0; t < count; t++) {
		struct tu_case c;
		c.M = tu_range(&s, 1, 40);
		c.K = tu_range(&s, 1, 24);
		c.N = tu_range(&s, 1, 40);
		c.n = (int)tu_range(&s, 1, 64);
		c.capacity = t % 3 == 0 ? 0 : RUN_UNBOUNDED;
		c.floats = t % 2;
		c.step = t % 2;
		c.exact = 0;
		c.seed = (uint64_t)t;
		snprintf(what, sizeof what, "random case %d of seed %#llx", t, (unsigned long long)base);
		tu_check_case(mode, &c, what);
	}
}

/* Runs the suite in fork mode (Check's default) and returns the exit status. */
/* Every field, C by memcmp (bit for bit: -0.0 and NaN payloads too). */
static inline void tu_snap_same(const struct run_snapshot *x, const struct run_snapshot *y,
		      const char *what)
{
	ck_assert_msg(x->mode == y->mode, "%s: mode %d vs %d", what, x->mode, y->mode);
	ck_assert_msg(x->n == y->n, "%s: n", what);
	ck_assert_msg(x->bug == y->bug, "%s: bug %d vs %d", what, x->bug, y->bug);
	ck_assert_msg(x->M == y->M && x->K == y->K && x->N == y->N, "%s: shape", what);
	ck_assert_msg(x->phase == y->phase, "%s: phase %d vs %d", what, x->phase, y->phase);
	ck_assert_msg(x->phase_count == y->phase_count, "%s: phase_count", what);
	ck_assert_msg(x->finished == y->finished, "%s: finished %d vs %d", what, x->finished,
		      y->finished);
	ck_assert_msg(x->event_count == y->event_count, "%s: event_count %zu vs %zu", what,
		      x->event_count, y->event_count);
	for (int i = 0; i < x->n; i++) {
		const struct run_dev_view *u = &x->dev[i], *v = &y->dev[i];
#define SAME(f, fmt, type)                                                                  \
	ck_assert_msg(u->f == v->f, "%s: rank %d: " #f " " fmt " vs " fmt, what, i, (type)u->f,     \
		      (type)v->f)
#define SAMEU(f) SAME(f, "%llu", unsigned long long)
		SAME(row_begin, "%zu", size_t);
		SAME(row_end, "%zu", size_t);
		SAME(shard, "%d", int);
		SAME(shard_col_begin, "%zu", size_t);
		SAME(shard_col_end, "%zu", size_t);
		SAME(holds_full_b, "%d", int);
		SAMEU(held_bytes);
		SAMEU(peak_bytes);
		SAMEU(sent_bytes);
		SAMEU(recv_bytes);
		SAMEU(dp_bytes);
		SAME(sent_shard, "%d", int);
		SAME(sent_to, "%d", int);
		SAME(recv_shard, "%d", int);
		SAME(recv_from, "%d", int);
		SAME(wait_state, "%d", int);
		SAME(wait_peer, "%d", int);
		SAME(failed, "%d", int);
#undef SAMEU
#undef SAME
	}
	for (size_t k = 0; k < (size_t)x->n * x->N; k++)
		ck_assert_msg(x->col_fill[k] == y->col_fill[k], "%s: col_fill[rank %zu][%zu] %d vs %d",
			      what, k / x->N, k % x->N, x->col_fill[k], y->col_fill[k]);
	ck_assert_msg((x->c == NULL) == (y->c == NULL), "%s: values", what);
	if (x->c)
		for (size_t k = 0; k < x->M * x->N; k++)
			ck_assert_msg(memcmp(&x->c[k], &y->c[k], sizeof(double)) == 0,
				      "%s: C[%zu][%zu] %.17g vs %.17g", what, k / x->N, k % x->N,
				      x->c[k], y->c[k]);
}

/* How much of the heaviest sweeps a build runs: TU_SAMPLE unset or 0, all
 * of them (the plain build, CI's first stage); 1, the stepped runs' rebuilds
 * held at sampled phases (the sanitizers: their findings are in the live
 * runs, which run whole, and in code every sampled phase reaches); 2, under
 * memcheck (fifty times slower), fewer runs too, as each suite says on
 * stderr. */
static inline int tu_sampling(void)
{
	const char *e = getenv("TU_SAMPLE");
	return e && *e >= '0' && *e <= '9' ? atoi(e) : 0;
}

/* Which phases a stepped run's rebuild is held to.  Each rebuild redoes the
 * log from the start, so holding every phase is quadratic in the phases:
 * every one up to 40 phases (n up to 16 in FSDP), else the first three, the
 * last four and about eight evenly between; under TU_SAMPLE, every one up to
 * 12 phases only. */
static inline int tu_phase_sampled(int p, int last)
{
	int all = tu_sampling() ? 12 : 40;
	int stride = (last + 2) / 8;
	return last < all || p < 3 || p > last - 4 || (p + 1) % stride == 0;
}

/* The memory model's shapes, {devices, M, K, N}: uneven rows and columns,
 * empty shards, one device (check_model holds the model to the engine on
 * them, check_model_words to what batch mode and the screen print). */
#define TU_MODEL_SHAPES 10
static inline const int *tu_model_shape(int i)
{
	static const int shapes[TU_MODEL_SHAPES][4] = {
		{ 1, 8, 6, 4 }, { 1, 1, 1, 1 }, { 2, 8, 6, 4 }, { 3, 7, 5, 5 }, { 4, 8, 6, 4 },
		{ 4, 9, 3, 7 }, { 5, 11, 4, 7 }, { 8, 8, 6, 4 }, { 6, 3, 2, 2 }, { 16, 8, 6, 4 },
	};
	return shapes[i];
}

/* A (M x K) and B (K x N) for them: small integers from seed 3. */
static inline void tu_model_mats(struct mat *a, struct mat *b, int M, int K, int N)
{
	struct dm_err err;
	ck_assert_int_eq(mat_alloc(a, (size_t)M, (size_t)K, &err), 0);
	ck_assert_int_eq(mat_alloc(b, (size_t)K, (size_t)N, &err), 0);
	mat_fill(a, MAT_VALUES_INTS, 3, 0);
	mat_fill(b, MAT_VALUES_INTS, 3, 1);
}

static inline int tu_main(Suite *s)
{
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif
