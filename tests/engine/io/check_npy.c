/* check_npy: unit tests for the .npy reader and writer (engine/io npy):
 * numpy's own files (tests/data/, made by tests/data/gen_fixtures.py; run
 * from the repository root) read bit for bit or refused by name, every
 * prefix and damaged header byte of them refused cleanly, a file read the
 * same as its bytes parsed (big ones too, each type widened in place), and
 * the writer's bytes against np.save's.  The header grammar is
 * check_npy_header's. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/matio.h>
#include "matio_util.h"
#include "testutil.h"

/* The values in tests/data/f64.npy, v2.npy and v3.npy. */
static const double fix_f64[6] = { 0.1, -2.5, 1e-300, 3.0, -0.0, 1.7976931348623157e308 };

static void expect_f64_fixture(const char *path)
{
	struct mat m;
	struct dm_err e;
	dm_err_clear(&e);
	ck_assert_msg(matio_read(path, &m, 0, &e) == 0, "%s: %s", path, e.msg);
	ck_assert_uint_eq(m.rows, 3);
	ck_assert_uint_eq(m.cols, 2);
	for (size_t i = 0; i < 6; i++)
		ck_assert_msg(mt_bits(m.data[i]) == mt_bits(fix_f64[i]), "%s[%zu] = %.17g", path, i,
			      m.data[i]);
	mat_free(&m);
}

/* The writer's bytes are np.save's bytes for the same array. */
START_TEST(test_write_matches_numpy)
{
	struct mat m;
	struct dm_err e;
	size_t na, nb;
	unsigned char *a, *b;
	ck_assert_int_eq(mat_alloc(&m, 3, 2, NULL), 0);
	memcpy(m.data, fix_f64, sizeof fix_f64);
	ck_assert_int_eq(matio_write(mt_path(0, "w.npy"), &m, &e), 0);
	a = mt_get_file(mt_path(0, "w.npy"), &na);
	b = mt_get_file(DATA "f64.npy", &nb);
	ck_assert_uint_eq(na, nb);
	ck_assert(memcmp(a, b, na) == 0);
	free(a);
	free(b);
	mat_free(&m);
}
END_TEST

/* Data starts on a multiple of 64 for every shape, and the header ends with
 * "\n". */
START_TEST(test_write_npy_alignment)
{
	static const size_t shapes[][2] = { { 1, 1 }, { 1, 10 }, { 1, 100 }, { 1, 1000 },
					    { 1, 10000 }, { 12345, 1 }, { 2, 3 } };
	for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
		struct mat m;
		struct dm_err e;
		size_t n, hl;
		unsigned char *b;
		ck_assert_int_eq(mat_alloc(&m, shapes[s][0], shapes[s][1], NULL), 0);
		ck_assert_int_eq(matio_write(mt_path(0, "s.npy"), &m, &e), 0);
		b = mt_get_file(mt_path(0, "s.npy"), &n);
		hl = (size_t)b[8] | (size_t)b[9] << 8;
		ck_assert_uint_eq((10 + hl) % 64, 0);
		ck_assert_uint_eq(n, 10 + hl + 8 * shapes[s][0] * shapes[s][1]);
		ck_assert_int_eq(b[10 + hl - 1], '\n');
		ck_assert_int_eq(b[6], 1);
		free(b);
		mat_free(&m);
	}
}
END_TEST

/* ---- numpy's own files ---- */

START_TEST(test_fixture_f64)
{
	expect_f64_fixture(DATA "f64.npy");
}
END_TEST

START_TEST(test_fixture_v2_v3)
{
	size_t n;
	unsigned char *b = mt_get_file(DATA "v2.npy", &n);
	ck_assert_int_eq(b[6], 2);
	free(b);
	b = mt_get_file(DATA "v3.npy", &n);
	ck_assert_int_eq(b[6], 3);
	free(b);
	expect_f64_fixture(DATA "v2.npy");
	expect_f64_fixture(DATA "v3.npy");
}
END_TEST

START_TEST(test_fixture_f32)
{
	static const float want[6] = { 0.1f, -2.5f, 1e-30f, 3.0f, -0.0f, 3e38f };
	struct mat m;
	struct dm_err e;
	ck_assert_msg(matio_read(DATA "f32.npy", &m, 0, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(m.rows, 3);
	ck_assert_uint_eq(m.cols, 2);
	for (size_t i = 0; i < 6; i++)
		ck_assert(mt_bits(m.data[i]) == mt_bits((double)want[i]));
	mat_free(&m);
}
END_TEST

START_TEST(test_fixture_i64)
{
	static const double want[6] = { 1, -2, 1099511627777.0, 4, -9007199254740992.0, 6 };
	struct mat m;
	struct dm_err e;
	ck_assert_msg(matio_read(DATA "i64.npy", &m, 0, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(m.rows, 3);
	ck_assert_uint_eq(m.cols, 2);
	for (size_t i = 0; i < 6; i++)
		ck_assert(m.data[i] == want[i]);
	mat_free(&m);
}
END_TEST

START_TEST(test_fixture_i32)
{
	static const double want[6] = { 1, -2, 2147483647.0, 4, -2147483648.0, 6 };
	struct mat m;
	struct dm_err e;
	ck_assert_msg(matio_read(DATA "i32.npy", &m, 0, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(m.rows, 3);
	ck_assert_uint_eq(m.cols, 2);
	for (size_t i = 0; i < 6; i++)
		ck_assert(m.data[i] == want[i]);
	mat_free(&m);
}
END_TEST

/* np.asfortranarray(F) saved: the same matrix as f64.npy, read as numpy
 * reads it, whatever the order its bytes are in (a 1-row or 1-column one
 * is laid out the same both ways). */
START_TEST(test_fixture_fortran)
{
	expect_f64_fixture(DATA "fortran.npy");
	char hdr[128];
	for (int shape = 0; shape < 3; shape++) {
		size_t r = shape == 0 ? 2 : shape == 1 ? 1 : 6, c = 6 / r, n;
		snprintf(hdr, sizeof hdr, "{'descr': '<f8', 'fortran_order': True, 'shape': (%zu, %zu), }",
			 r, c);
		unsigned char *b = mt_make_npy(1, hdr, 6, &n); /* values 0, 1, ..., 5 */
		struct mat m;
		struct dm_err e;
		ck_assert_msg(mt_npy_exact(&m, b, n, &e) == 0, "%s", e.msg);
		for (size_t i = 0; i < r; i++)
			for (size_t j = 0; j < c; j++)
				ck_assert(m.data[i * c + j] == (double)(j * r + i));
		mat_free(&m);
		free(b);
	}
}
END_TEST

START_TEST(test_fixture_refusals)
{
	mt_expect_read_fails(DATA "bigendian.npy", DM_EFORMAT, "big-endian data is not supported");
	mt_expect_read_fails(DATA "1d.npy", DM_EFORMAT, "a 1-d array: a matrix must be 2-d");
	mt_expect_read_fails(DATA "3d.npy", DM_EFORMAT, "a 3-d array: a matrix must be 2-d");
	mt_expect_read_fails(DATA "complex.npy", DM_EFORMAT,
			  "dtype '<c16' is not supported (float64, float32, int64 or int32)");
	mt_expect_read_fails(DATA "bool.npy", DM_EFORMAT, "dtype '|b1' is not supported");
	mt_expect_read_fails(DATA "3d.npy", DM_EFORMAT, "tests/data/3d.npy: ");
}
END_TEST

/* ---- truncation and damage ---- */

static void every_prefix(const char *fixture, size_t data_bytes)
{
	size_t n;
	unsigned char *b = mt_get_file(fixture, &n);
	size_t data_at = n - data_bytes;
	for (size_t k = 0; k < n; k++) {
		struct mat m;
		struct dm_err e;
		dm_err_clear(&e);
		ck_assert_msg(mt_npy_exact(&m, b, k, &e) == DM_EFORMAT, "%s prefix %zu accepted",
			      fixture, k);
		ck_assert_mat_empty(m);
		ck_assert(e.msg[0] != '\0');
		if (k >= data_at) {
			char want[96];
			snprintf(want, sizeof want,
				 "data is shorter than the header declares (%zu of %zu bytes)",
				 k - data_at, data_bytes);
			ck_assert_msg_has(e, want);
		} else if (k >= 6) {
			ck_assert_msg_has(e, "header is truncated");
		}
	}
	free(b);
}

START_TEST(test_truncated_everywhere)
{
	every_prefix(DATA "f64.npy", 48);
	every_prefix(DATA "v2.npy", 48);
	every_prefix(DATA "v3.npy", 48);
	every_prefix(DATA "i32.npy", 24);
}
END_TEST

/* Overwrites each header byte with characters that matter to the parser:
 * every result must be a clean refusal or a sane 2-d matrix. */
START_TEST(test_header_damage)
{
	static const unsigned char probes[] = { 0, 0xff, ' ', '\n', '(', ')', ',', ':', '\'',
						'"', '{', '}', '0', '9', 'L', '-', '\\', '[' };
	size_t n;
	unsigned char *b = mt_get_file(DATA "f64.npy", &n);
	for (size_t i = 0; i + 48 < n; i++) {
		unsigned char keep = b[i];
		for (size_t p = 0; p < sizeof probes; p++) {
			struct mat m;
			struct dm_err e;
			int rc;
			b[i] = probes[p];
			rc = mt_npy_exact(&m, b, n, &e);
			ck_assert_msg(rc == 0 || rc == DM_EFORMAT, "byte %zu = %u: rc %d", i,
				      probes[p], rc);
			if (rc == 0) {
				ck_assert(m.rows >= 1 && m.cols >= 1 && m.rows * m.cols <= 6);
				mat_free(&m);
			} else {
				ck_assert_mat_empty(m);
			}
		}
		b[i] = keep;
	}
	free(b);
}
END_TEST

/* ---- a file reads as its bytes parse ---- */

/* matio_read of a file holding b[0..n) against npy_parse of the same bytes:
 * the same code, the same message, the same values bit for bit (matio_read
 * reads a regular file's header, then its data straight into the matrix). */
static void same_as_bytes(const unsigned char *b, size_t n, const char *what)
{
	const char *path = mt_path(0, "same.npy");
	struct mat f, m;
	struct dm_err ef, em;
	mt_put_file(path, b, n);
	dm_err_clear(&ef);
	dm_err_clear(&em);
	int rf = matio_read(path, &f, 0, &ef);
	void *c = malloc(n ? n : 1);
	ck_assert_ptr_nonnull(c);
	if (n)
		memcpy(c, b, n);
	int rm = npy_parse(&m, c, n, path, &em);
	free(c);
	ck_assert_msg(rf == rm, "%s, %zu bytes: read %d (%s), parse %d (%s)", what, n, rf, ef.msg, rm,
		      em.msg);
	ck_assert_msg(strcmp(ef.msg, em.msg) == 0, "%s, %zu bytes: '%s' against '%s'", what, n,
		      ef.msg, em.msg);
	ck_assert_uint_eq(f.rows, m.rows);
	ck_assert_uint_eq(f.cols, m.cols);
	if (rf == 0)
		ck_assert_msg(memcmp(f.data, m.data, f.rows * f.cols * sizeof(double)) == 0,
			      "%s: values differ", what);
	mat_free(&f);
	mat_free(&m);
}

START_TEST(test_file_reads_as_bytes)
{
	static const char *fixtures[] = { "f64.npy", "f32.npy", "i64.npy", "i32.npy", "v2.npy",
					  "v3.npy", "1d.npy", "3d.npy", "bigendian.npy", "bool.npy",
					  "complex.npy", "fortran.npy" };
	for (size_t f = 0; f < sizeof fixtures / sizeof fixtures[0]; f++) {
		char path[128];
		size_t n;
		snprintf(path, sizeof path, DATA "%s", fixtures[f]);
		unsigned char *b = mt_get_file(path, &n);
		/* every prefix, the whole, and trailing bytes (ignored, as numpy does) */
		for (size_t k = 0; k <= n; k++)
			same_as_bytes(b, k, fixtures[f]);
		unsigned char *more = malloc(n + 7);
		ck_assert_ptr_nonnull(more);
		memcpy(more, b, n);
		memset(more + n, 0x5a, 7);
		same_as_bytes(more, n + 7, fixtures[f]);
		/* a header length that lies, both ways */
		for (int d = -3; d <= 3; d++) {
			memcpy(more, b, n);
			more[8] = (unsigned char)(more[8] + d);
			same_as_bytes(more, n, fixtures[f]);
		}
		free(more);
		free(b);
	}
}
END_TEST

START_TEST(test_file_big_in_place)
{
	/* big enough for many reads and huge pages, each type widened in place */
	static const char *descr[] = { "<f8", "<f4", "<i8", "<i4" };
	for (int t = 0; t < 4; t++) {
		char hdr[128];
		size_t rows = 700, cols = 613, len, item = t % 2 ? 4 : 8;
		snprintf(hdr, sizeof hdr, "{'descr': '%s', 'fortran_order': False, 'shape': (%zu, %zu), }",
			 descr[t], rows, cols);
		unsigned char *b = mt_make_npy(t == 2 ? 2 : 1, hdr, rows * cols, &len);
		/* make_npy wrote float64 0, 1, 2...; put the type's own values there */
		size_t data = len - rows * cols * 8;
		for (size_t i = 0; i < rows * cols; i++) {
			double v = (double)i * (i % 2 ? -1 : 1);
			float fv = (float)v;
			int64_t iv = (int64_t)v;
			int32_t jv = (int32_t)v;
			memcpy(b + data + item * i, t == 0 ? (void *)&v : t == 1 ? (void *)&fv
						     : t == 2 ? (void *)&iv : (void *)&jv, item);
		}
		size_t n = data + rows * cols * item;
		same_as_bytes(b, n, descr[t]);
		same_as_bytes(b, n - 1, descr[t]); /* one byte short */
		struct mat m;
		struct dm_err e;
		mt_put_file(mt_path(1, "big.npy"), b, n);
		ck_assert_int_eq(matio_read(mt_path(1, "big.npy"), &m, 0, &e), 0);
		size_t wrong = 0; /* counted, then one assertion: Check logs each */
		for (size_t i = 0; i < rows * cols; i++)
			wrong += m.data[i] != (double)i * (i % 2 ? -1 : 1);
		ck_assert_uint_eq(wrong, 0);
		mat_free(&m);
		free(b);
	}
}
END_TEST

static Suite *npy_suite(void)
{
	Suite *s = suite_create("npy");
	TCase *tc;

	tc = mt_tcase("npy_writer", 1);
	tcase_add_test(tc, test_write_matches_numpy);
	tcase_add_test(tc, test_write_npy_alignment);
	suite_add_tcase(s, tc);

	tc = mt_tcase("npy_fixtures", 0);
	tcase_add_test(tc, test_fixture_f64);
	tcase_add_test(tc, test_fixture_fortran);
	tcase_add_test(tc, test_fixture_v2_v3);
	tcase_add_test(tc, test_fixture_f32);
	tcase_add_test(tc, test_fixture_i64);
	tcase_add_test(tc, test_fixture_i32);
	tcase_add_test(tc, test_fixture_refusals);
	suite_add_tcase(s, tc);

	tc = mt_tcase("npy_damage", 0);
	tcase_add_test(tc, test_truncated_everywhere);
	tcase_add_test(tc, test_header_damage);
	suite_add_tcase(s, tc);

	tc = mt_tcase("npy_files", 1);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_file_reads_as_bytes);
	tcase_add_test(tc, test_file_big_in_place);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(npy_suite());
}
