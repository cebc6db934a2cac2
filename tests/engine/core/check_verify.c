/* check_verify: the two checks of C = A @ B.  Freivalds' check must accept
 * every correct product and everything the exact path accepts, and catch a
 * C with one wrong element at every size used here (the seed is fixed, so
 * each case is the same every run): a wrong element as a bug makes it, and
 * one off by a little more, or a little less, than its row's bound.  The
 * exact path still runs, and the two share one rule for values that are
 * not finite: allclose with equal_nan, decided by the exact path. */
#include <check.h>

#include <float.h>
#include <math.h>

#include <distmm/verify.h>
#include "testutil.h"

#define SEED 20240611u

/* Shapes from the exercise's to a few hundred, uneven ones included; then
 * the two that tests/app/batch/batch_test.sh checks by Freivalds when batch picks it
 * (just above M*K*N = 2^24, and 300^3), for the wrong element alone (their
 * products are most of this suite's time under valgrind). */
static const size_t shapes[][3] = {
	{ 8, 6, 4 },     { 13, 5, 7 },     { 1, 9, 1 },      { 64, 64, 64 },
	{ 200, 150, 170 }, { 96, 256, 300 }, { 301, 97, 403 }, { 512, 40, 520 }, /* C on two threads */
	{ 257, 256, 256 }, { 300, 300, 300 },
};
#define N_ALL_SHAPES (sizeof shapes / sizeof shapes[0])
#define N_SHAPES (N_ALL_SHAPES - 2)

struct problem {
	struct mat a, b, c;
};

static void problem_make(struct problem *p, size_t s, int floats)
{
	struct dm_err err;
	tu_matrix(&p->a, shapes[s][0], shapes[s][1], floats, SEED + s, 0);
	tu_matrix(&p->b, shapes[s][1], shapes[s][2], floats, SEED + s, 1);
	ck_assert_int_eq(mat_matmul(&p->c, &p->a, &p->b, &err), 0);
}

static void problem_free(struct problem *p)
{
	mat_free(&p->a);
	mat_free(&p->b);
	mat_free(&p->c);
}

/* The bound of row i as verify.h states it, worked out here again (the
 * rounding term left out: it is 10^-11 of the rest). */
static double row_bound(const struct mat *c, size_t i)
{
	double s = 0;
	for (size_t j = 0; j < c->cols; j++)
		s += fabs(MAT_AT(c, i, j));
	return (1e-8 * (double)c->cols + 1e-5 * s) / (1 - 1e-5);
}

static struct verify_result freivalds(const struct problem *p)
{
	struct verify_result v;
	struct dm_err err;
	ck_assert_int_eq(verify_freivalds(&p->a, &p->b, &p->c, VERIFY_VECTORS, 7, &v, &err), 0);
	ck_assert_int_eq(v.method, VERIFY_FREIVALDS);
	ck_assert_int_eq(v.vectors, VERIFY_VECTORS);
	return v;
}

START_TEST(correct_products_pass)
{
	for (size_t s = 0; s < N_SHAPES; s++)
		for (int floats = 0; floats < 2; floats++) {
			struct problem p;
			problem_make(&p, s, floats);
			struct verify_result v = freivalds(&p);
			ck_assert_msg(v.decided && v.ok && v.n_bad == 0,
				      "%zux%zux%zu: a correct C failed (worst %.3g of its bound)",
				      shapes[s][0], shapes[s][1], shapes[s][2], v.worst_ratio);
			ck_assert_uint_eq(v.checked, shapes[s][0]);
			ck_assert(v.worst_ratio < 1e-3); /* rounding is far below the bound */
			ck_assert(v.bound_min > 0 && v.bound_min <= v.bound_max);
			/* the distributed C, not the sequential one: the same verdict */
			struct run *r = tu_run_new(DM_FSDP, 3, RUN_UNBOUNDED, &p.a, &p.b);
			tu_run_all(r, 0);
			struct verify_result w;
			struct dm_err err;
			ck_assert_int_eq(verify_freivalds(&p.a, &p.b, run_result(r), 4, 1, &w, &err), 0);
			ck_assert(w.ok);
			run_free(r);
			problem_free(&p);
		}
}
END_TEST

/* C with element (i, j) set to `value`: must fail, in row i alone.  With
 * +-1 vectors an element off by d moves (C x)_i by exactly |d| whatever the
 * signs, so this cannot pass by luck; the seed matters only where errors
 * could cancel. */
static void one_wrong(struct problem *p, size_t i, size_t j, double value, const char *how)
{
	double was = MAT_AT(&p->c, i, j);
	MAT_AT(&p->c, i, j) = value;
	struct verify_result v = freivalds(p);
	ck_assert_msg(v.decided && !v.ok && v.n_bad == 1 && v.first_bad == i,
		      "%zux%zux%zu: C[%zu, %zu] %s (%.17g for %.17g) passed: ok %d, %zu bad rows",
		      p->a.rows, p->a.cols, p->b.cols, i, j, how, value, was, v.ok, v.n_bad);
	MAT_AT(&p->c, i, j) = was;
}

START_TEST(one_wrong_element_fails)
{
	for (size_t s = 0; s < N_ALL_SHAPES; s++)
		for (int floats = 0; floats < 2; floats++) {
			struct problem p;
			problem_make(&p, s, floats);
			size_t M = p.c.rows, N = p.c.cols;
			size_t where[][2] = { { 0, 0 }, { M - 1, N - 1 }, { M / 2, N / 3 } };
			for (size_t w = 0; w < 3; w++) {
				size_t i = where[w][0], j = where[w][1];
				double x = MAT_AT(&p.c, i, j), bound = row_bound(&p.c, i);
				/* what bugs leave: a block never computed, a partial sum
				 * lost, a sign, a product put one place off */
				if (fabs(x) > 2 * bound)
					one_wrong(&p, i, j, 0.0, "left at zero");
				one_wrong(&p, i, j, x + 2 * bound + 1, "too large");
				one_wrong(&p, i, j, x - 2 * bound - 1, "too small");
				if (fabs(x) > bound)
					one_wrong(&p, i, j, -x, "negated");
				/* at the boundary: just beyond it fails */
				one_wrong(&p, i, j, x + 1.05 * bound, "just over the bound");
				one_wrong(&p, i, j, x - 1.05 * bound, "just under minus the bound");
				/* just within it passes: the check is no stricter than its bound */
				MAT_AT(&p.c, i, j) = x + 0.9 * bound;
				struct verify_result v = freivalds(&p);
				ck_assert_msg(v.ok, "%zux%zux%zu: C[%zu, %zu] within 0.9 of its bound failed",
					      M, p.a.cols, N, i, j);
				MAT_AT(&p.c, i, j) = x;
			}
			problem_free(&p);
		}
}
END_TEST

START_TEST(accepts_what_allclose_accepts)
{
	/* every element off by 0.999 of allclose's tolerance, all one way (the
	 * worst case for the projection): exact accepts, so must Freivalds */
	for (size_t s = 0; s < N_SHAPES; s++) {
		struct problem p;
		problem_make(&p, s, 1);
		struct mat ref;
		struct dm_err err;
		ck_assert_int_eq(mat_matmul(&ref, &p.a, &p.b, &err), 0);
		for (int sign = -1; sign <= 1; sign += 2) {
			for (size_t e = 0; e < p.c.rows * p.c.cols; e++)
				p.c.data[e] = ref.data[e] +
					      sign * 0.999 * (1e-8 + 1e-5 * fabs(ref.data[e]));
			struct verify_result x, v = freivalds(&p);
			ck_assert_int_eq(verify_exact(&p.a, &p.b, &p.c, &x, &err), 0);
			ck_assert(x.ok);
			ck_assert_msg(v.ok, "%zux%zux%zu: allclose accepts, Freivalds rejects (%.3g)",
				      shapes[s][0], shapes[s][1], shapes[s][2], v.worst_ratio);
		}
		mat_free(&ref);
		problem_free(&p);
	}
}
END_TEST

START_TEST(exact_path_runs)
{
	for (size_t s = 0; s < N_SHAPES; s++) {
		struct problem p;
		struct verify_result v;
		struct dm_err err;
		problem_make(&p, s, 0);
		ck_assert_int_eq(verify_exact(&p.a, &p.b, &p.c, &v, &err), 0);
		ck_assert(v.ok && v.method == VERIFY_EXACT && v.max_abs_err == 0);
		ck_assert_uint_eq(v.checked, p.c.rows * p.c.cols);
		MAT_AT(&p.c, 0, 0) += 1;
		ck_assert_int_eq(verify_exact(&p.a, &p.b, &p.c, &v, &err), 0);
		ck_assert(!v.ok && v.n_bad == 1 && v.max_abs_err == 1);
		problem_free(&p);
	}
	/* the automatic choice: exact up to 2^24 multiply-adds */
	ck_assert_int_eq(verify_auto_method(8, 6, 4), VERIFY_EXACT);
	ck_assert_int_eq(verify_auto_method(256, 256, 256), VERIFY_EXACT);
	ck_assert_int_eq(verify_auto_method(256, 256, 257), VERIFY_FREIVALDS);
	ck_assert_int_eq(verify_auto_method(2048, 2048, 2048), VERIFY_FREIVALDS);
	ck_assert_int_eq(verify_auto_method(SIZE_MAX, SIZE_MAX, 2), VERIFY_FREIVALDS);
	ck_assert_int_eq(verify_auto_method(0, 5, 5), VERIFY_EXACT);
}
END_TEST

START_TEST(one_rule_for_values_not_finite)
{
	/* the exact rule is allclose with equal_nan: a NaN or an infinity in
	 * the inputs reaches C exactly where it reaches A @ B, and that passes
	 * (called NaN-equal); one in C alone, or a number in C where A @ B has
	 * NaN, fails.  Freivalds does not decide, so that the caller runs the
	 * exact path. */
	static const double odd[] = { NAN, INFINITY, -INFINITY };
	for (size_t k = 0; k < 3; k++)
		for (int where = 0; where < 4; where++) { /* in C; in A; in B; in A, C cleaned */
			struct problem p;
			struct verify_result v, x;
			struct dm_err err;
			const char *name = where == 0 ? "C" : where == 1 ? "A" : where == 2 ? "B"
										   : "A, C's row cleaned";
			problem_make(&p, 3, 1);
			struct mat *m = where == 0 ? &p.c : where == 2 ? &p.b : &p.a;
			MAT_AT(m, 5, 7) = odd[k];
			if (where > 0) { /* C as the distributed run would make it */
				mat_free(&p.c);
				ck_assert_int_eq(mat_matmul(&p.c, &p.a, &p.b, &err), 0);
			}
			if (where == 3) /* numbers where A @ B has NaN or infinities */
				for (size_t j = 0; j < p.c.cols; j++)
					MAT_AT(&p.c, 5, j) = 0;
			ck_assert_int_eq(verify_freivalds(&p.a, &p.b, &p.c, 4, 3, &v, &err), 0);
			ck_assert_msg(!v.decided && !v.ok, "value %g in %s: Freivalds decided", odd[k],
				      name);
			ck_assert_int_eq(verify_exact(&p.a, &p.b, &p.c, &x, &err), 0);
			if (where == 1 || where == 2) {
				ck_assert_msg(x.ok && x.n_bad == 0 && x.n_nonfinite > 0,
					      "value %g in %s: not NaN-equal (bad %zu, non-finite %zu)",
					      odd[k], name, x.n_bad, x.n_nonfinite);
				ck_assert(isfinite(x.max_abs_err)); /* over the elements that are numbers */
			} else {
				ck_assert_msg(!x.ok && x.n_bad > 0, "value %g in %s passed", odd[k], name);
			}
			problem_free(&p);
		}
	/* the element rule itself, as numpy.isclose(x, y, equal_nan=True) has it */
	ck_assert(mat_close(NAN, NAN));
	ck_assert(mat_close(INFINITY, INFINITY) && mat_close(-INFINITY, -INFINITY));
	ck_assert(!mat_close(INFINITY, -INFINITY) && !mat_close(-INFINITY, INFINITY));
	ck_assert(!mat_close(NAN, 1.0) && !mat_close(1.0, NAN));
	ck_assert(!mat_close(INFINITY, 1e308) && !mat_close(1e308, INFINITY));
	ck_assert(!mat_close(NAN, INFINITY) && !mat_close(INFINITY, NAN));
	ck_assert(mat_close(1.0, 1.0 + 0.9e-5) && !mat_close(1.0, 1.0 + 1.1e-5 + 1e-8));
	/* huge but finite: C's sums overflow; not decided, and exact decides */
	struct problem p;
	struct verify_result v, x;
	struct dm_err err;
	problem_make(&p, 0, 1);
	for (size_t e = 0; e < p.a.rows * p.a.cols; e++)
		p.a.data[e] *= DBL_MAX / 8;
	mat_free(&p.c);
	ck_assert_int_eq(mat_matmul(&p.c, &p.a, &p.b, &err), 0);
	ck_assert_int_eq(verify_freivalds(&p.a, &p.b, &p.c, 4, 3, &v, &err), 0);
	ck_assert_int_eq(verify_exact(&p.a, &p.b, &p.c, &x, &err), 0);
	ck_assert(!v.decided || v.ok == x.ok);
	problem_free(&p);
}
END_TEST

/* m's transpose, stored */
static void transpose(struct mat *t, const struct mat *m)
{
	struct dm_err err;
	ck_assert_int_eq(mat_alloc(t, m->cols, m->rows, &err), 0);
	for (size_t i = 0; i < m->rows; i++)
		for (size_t j = 0; j < m->cols; j++)
			MAT_AT(t, j, i) = MAT_AT(m, i, j);
}

/* The training step's products use an operand transposed (dA = dC @ Bᵀ,
 * dB = Aᵀ @ dC): the same C checked as op(A) @ op(B) with A, B or both
 * stored transposed gets the same verdicts, a correct C and one wrong
 * element alike, from both checks; the bounds are the same up to the
 * order of the bound's own sums. */
START_TEST(transposed_operands)
{
	for (size_t s = 0; s < N_SHAPES; s++)
		for (int floats = 0; floats < 2; floats++) {
			struct problem p;
			struct mat at, bt;
			struct dm_err err;
			problem_make(&p, s, floats);
			transpose(&at, &p.a);
			transpose(&bt, &p.b);
			struct verify_op ops[3][2] = {
				{ { &at, 1 }, { &p.b, 0 } }, /* Aᵀ stored: dB's form */
				{ { &p.a, 0 }, { &bt, 1 } }, /* Bᵀ stored: dA's form */
				{ { &at, 1 }, { &bt, 1 } },
			};
			struct verify_result plain = freivalds(&p);
			size_t i = p.c.rows / 2, j = p.c.cols / 3;
			for (int o = 0; o < 3; o++) {
				struct verify_result v, x;
				ck_assert_int_eq(verify_freivalds_op(ops[o][0], ops[o][1], &p.c,
								     VERIFY_VECTORS, 7, &v, &err), 0);
				ck_assert_msg(v.decided && v.ok, "%zux%zux%zu, form %d: a correct C failed",
					      shapes[s][0], shapes[s][1], shapes[s][2], o);
				ck_assert(fabs(v.bound_min - plain.bound_min) <= 1e-9 * plain.bound_min);
				ck_assert(fabs(v.bound_max - plain.bound_max) <= 1e-9 * plain.bound_max);
				ck_assert_int_eq(verify_exact_op(ops[o][0], ops[o][1], &p.c, &x, &err), 0);
				ck_assert(x.ok && x.checked == p.c.rows * p.c.cols);
				if (!floats)
					ck_assert(x.max_abs_err == 0);
				double was = MAT_AT(&p.c, i, j);
				MAT_AT(&p.c, i, j) = was + 2 * row_bound(&p.c, i) + 1;
				ck_assert_int_eq(verify_freivalds_op(ops[o][0], ops[o][1], &p.c,
								     VERIFY_VECTORS, 7, &v, &err), 0);
				ck_assert_msg(v.decided && !v.ok && v.n_bad == 1 && v.first_bad == i,
					      "%zux%zux%zu, form %d: a wrong C[%zu, %zu] passed",
					      shapes[s][0], shapes[s][1], shapes[s][2], o, i, j);
				ck_assert_int_eq(verify_exact_op(ops[o][0], ops[o][1], &p.c, &x, &err), 0);
				ck_assert(!x.ok && x.n_bad == 1);
				MAT_AT(&p.c, i, j) = was;
			}
			/* the shapes are op()'s: a stored transpose used as it is fails
			 * (unless it is square) */
			if (p.a.rows != p.a.cols)
				ck_assert_int_eq(verify_exact_op((struct verify_op){ &at, 0 }, ops[0][1],
								 &p.c, &plain, &err), DM_EINVAL);
			if (p.b.rows != p.b.cols)
				ck_assert_int_eq(verify_freivalds_op(ops[1][0],
								     (struct verify_op){ &bt, 0 }, &p.c,
								     4, 1, &plain, &err), DM_EINVAL);
			mat_free(&at);
			mat_free(&bt);
			problem_free(&p);
		}
}
END_TEST

START_TEST(bad_arguments)
{
	struct problem p;
	struct verify_result v;
	struct dm_err err;
	problem_make(&p, 1, 0);
	ck_assert_int_eq(verify_freivalds(&p.a, &p.b, &p.c, 0, 1, &v, &err), DM_EINVAL);
	ck_assert_int_eq(verify_freivalds(&p.a, &p.a, &p.c, 4, 1, &v, &err), DM_EINVAL);
	ck_assert_int_eq(verify_exact(&p.a, &p.b, &p.a, &v, &err), DM_EINVAL);
	ck_assert_str_eq(err.msg, "cannot check a 13x5 C against A 13x5 @ B 5x7");
	ck_assert_int_eq(verify_exact_op((struct verify_op){ &p.a, 1 }, (struct verify_op){ &p.b, 0 },
					 &p.c, &v, &err), DM_EINVAL);
	ck_assert_str_eq(err.msg, "cannot check a 13x7 C against the transpose of A 13x5 @ B 5x7");
	/* an empty product is an empty C */
	struct mat ea = { 0, 5, NULL }, eb = { 5, 3, NULL }, ec = { 0, 3, NULL };
	ck_assert_int_eq(verify_freivalds(&ea, &eb, &ec, 4, 1, &v, &err), 0);
	ck_assert(v.ok);
	problem_free(&p);
}
END_TEST

static Suite *verify_suite(void)
{
	Suite *s = suite_create("verify");
	TCase *tc = tcase_create("freivalds");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, correct_products_pass);
	tcase_add_test(tc, one_wrong_element_fails);
	tcase_add_test(tc, accepts_what_allclose_accepts);
	tcase_add_test(tc, transposed_operands);
	suite_add_tcase(s, tc);
	tc = tcase_create("exact and the rule");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, exact_path_runs);
	tcase_add_test(tc, one_rule_for_values_not_finite);
	tcase_add_test(tc, bad_arguments);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(verify_suite());
}
