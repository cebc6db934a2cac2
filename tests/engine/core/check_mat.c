/* check_mat: the generator gives the values it always gave.  A seed names
 * matrices that tests, the README, lessons and users' saved commands rely
 * on, so the parallel generator is compared bit for bit with the sequential
 * one it replaced (copied below as it was), over many seeds and shapes,
 * chunk boundaries and odd counts included, and with its threads refused. */
#include <check.h>

#include <math.h>

#include "core/fault.h"
#include <distmm/mat.h>
#include "testutil.h"

/* The generator before it went parallel, verbatim. */
static uint64_t old_rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double old_rng_unit(uint64_t *state)
{
	return ((double)(old_rng_next(state) >> 11) + 1.0) * 0x1.0p-53;
}

static void old_fill(struct mat *m, enum mat_values kind, uint64_t seed, uint64_t stream)
{
	uint64_t state = seed ^ (stream * 0xd1b54a32d192ed03ULL + 0x8bb84b93962eacc9ULL);
	size_t n = m->rows * m->cols;
	size_t i = 0;

	if (kind == MAT_VALUES_INTS) {
		for (; i < n; i++)
			m->data[i] = (double)(int)(old_rng_next(&state) % 10) - 4.0;
		return;
	}
	while (i < n) {
		double u1 = old_rng_unit(&state), u2 = old_rng_unit(&state);
		double r = sqrt(-2.0 * log(u1)), t = 6.283185307179586 * u2;
		m->data[i++] = r * cos(t);
		if (i < n)
			m->data[i++] = r * sin(t);
	}
}

/* mat_fill's values against old_fill's, bit for bit. */
static void same_as_before(size_t rows, size_t cols, enum mat_values kind, uint64_t seed,
			   uint64_t stream)
{
	struct mat now, was;
	struct dm_err err;
	ck_assert_int_eq(mat_alloc_uninit(&now, rows, cols, &err), 0);
	ck_assert_int_eq(mat_alloc(&was, rows, cols, &err), 0);
	mat_fill(&now, kind, seed, stream);
	old_fill(&was, kind, seed, stream);
	for (size_t i = 0; i < rows * cols; i++)
		if (memcmp(&now.data[i], &was.data[i], sizeof(double)) != 0)
			ck_abort_msg("%zux%zu %s seed %llu stream %llu: element %zu is %.17g, was %.17g",
				     rows, cols, kind == MAT_VALUES_INTS ? "ints" : "floats",
				     (unsigned long long)seed, (unsigned long long)stream, i,
				     now.data[i], was.data[i]);
	mat_free(&now);
	mat_free(&was);
}

/* Shapes around the chunk sizes the parallel generator picks (2^17
 * elements a chunk and more), odd counts (a Box-Muller pair cut short) and
 * a few made in parallel chunks. */
static const size_t shapes[][2] = {
	{ 1, 1 },     { 8, 6 },       { 6, 4 },     { 1, 7 },       { 13, 5 },
	{ 512, 256 }, { 512, 257 },   { 511, 513 }, { 1024, 256 },  { 1023, 257 },
	{ 1, 262145 }, { 3, 131071 }, { 641, 613 }, { 1023, 1025 },
};

START_TEST(generator_matches_the_sequential_one)
{
	for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
		for (int kind = MAT_VALUES_INTS; kind <= MAT_VALUES_FLOATS; kind++)
			for (uint64_t stream = 0; stream < 2; stream++) {
				/* the small ones with many seeds; the big ones (made in
				 * parallel chunks) once, each with one kind and stream
				 * in turn: valgrind runs this suite too */
				int big = shapes[s][0] * shapes[s][1] > 100000;
				if (big && (kind != (int)(s % 2) || stream != (s / 2) % 2))
					continue;
				uint64_t seeds = big ? 1 : 100;
				for (uint64_t seed = 0; seed < seeds; seed++)
					same_as_before(shapes[s][0], shapes[s][1], kind,
						       seed * 0x9e3779b97f4a7c15ULL + 1, stream);
			}
	/* the seeds a user types, and the extremes */
	static const uint64_t typed[] = { 1, 2, 7, 42, 12345, UINT64_MAX, 1ull << 63 };
	for (size_t t = 0; t < sizeof typed / sizeof typed[0]; t++) {
		same_as_before(8, 6, MAT_VALUES_INTS, typed[t], 0);
		same_as_before(256, 1024, MAT_VALUES_FLOATS, typed[t], 1);
	}
}
END_TEST

START_TEST(generator_without_threads_gives_the_same)
{
	/* every thread it asks for refused: the calling thread does it all */
	for (long k = 1; k <= 2; k++) {
		fault_reset();
		fault_fail_thread_at(k);
		same_as_before(700, 701, MAT_VALUES_FLOATS, 5, 1);
		same_as_before(513, 1025, MAT_VALUES_INTS, 5, 0);
	}
	fault_reset();
}
END_TEST

START_TEST(known_values)
{
	/* worked out apart from C (splitmix64 and Box-Muller in Python, with
	 * the same libm): seed 1's A of ints, and B of floats, begin so */
	static const double ints[] = { -4, -4, 0, 1, -3, 4, 5, 0, -3, 5, -4, -2 };
	static const double floats[] = { 1.7098793325647947, -0.72281890416108174,
					 -0.32326566722991928, 0.1919827969693213 };
	struct mat a, b;
	struct dm_err err;
	ck_assert_int_eq(mat_alloc(&a, 8, 6, &err), 0);
	ck_assert_int_eq(mat_alloc(&b, 512, 1024, &err), 0); /* big: made in parallel */
	mat_fill(&a, MAT_VALUES_INTS, 1, 0);
	mat_fill(&b, MAT_VALUES_FLOATS, 1, 1);
	ck_assert_mem_eq(a.data, ints, sizeof ints);
	ck_assert_mem_eq(b.data, floats, sizeof floats);
	mat_free(&a);
	mat_free(&b);
}
END_TEST

START_TEST(allocations_are_zero_or_filled)
{
	/* zeroed below and above the huge-page size, and undefined-but-usable */
	static const size_t sizes[][2] = { { 3, 5 }, { 256, 256 }, { 1024, 1024 }, { 1031, 1029 } };
	for (size_t s = 0; s < 4; s++) {
		struct mat m;
		struct dm_err err;
		ck_assert_int_eq(mat_alloc(&m, sizes[s][0], sizes[s][1], &err), 0);
		size_t nonzero = 0; /* counted, then one assertion: Check logs each */
		for (size_t i = 0; i < m.rows * m.cols; i++)
			nonzero += m.data[i] != 0.0;
		ck_assert_uint_eq(nonzero, 0);
		mat_free(&m);
		ck_assert_int_eq(mat_alloc_uninit(&m, sizes[s][0], sizes[s][1], &err), 0);
		for (size_t i = 0; i < m.rows * m.cols; i++)
			m.data[i] = (double)i;
		ck_assert(m.data[m.rows * m.cols - 1] == (double)(m.rows * m.cols - 1));
		mat_free(&m);
	}
	struct mat e;
	struct dm_err err;
	ck_assert_int_eq(mat_alloc_uninit(&e, 0, 5, &err), 0);
	ck_assert_ptr_null(e.data);
	ck_assert_int_eq(mat_alloc_uninit(&e, SIZE_MAX / 4, 4, &err), DM_ENOMEM);
	fault_fail_alloc_at(1);
	ck_assert_int_eq(mat_alloc_uninit(&e, 1024, 1024, &err), DM_ENOMEM);
	fault_reset();
}
END_TEST

static Suite *mat_suite(void)
{
	Suite *s = suite_create("mat");
	TCase *tc = tcase_create("generation");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, generator_matches_the_sequential_one);
	tcase_add_test(tc, generator_without_threads_gives_the_same);
	tcase_add_test(tc, known_values);
	suite_add_tcase(s, tc);
	tc = tcase_create("allocation");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, allocations_are_zero_or_filled);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(mat_suite());
}
