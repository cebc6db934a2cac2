/* check_csv: unit tests for the CSV reader and writer (engine/io csv): what
 * it accepts (CRLF, blanks, a BOM, strtod's spellings, inf and nan), every
 * refusal with its line and field, NUL bytes, tame messages for hostile
 * fields, big and long inputs, every prefix, the writer's exact text, and a
 * decimal-comma locale changing nothing.  In-memory inputs are parsed from
 * exact-size heap copies, so that a sanitizer build catches any over-read. */
#include <check.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/matio.h>
#include "matio_util.h"
#include "testutil.h"

static int csv_exact(struct mat *m, const char *t, size_t n, struct dm_err *err)
{
	char *c = malloc(n ? n : 1);
	int rc;
	ck_assert_ptr_nonnull(c);
	if (n)
		memcpy(c, t, n);
	rc = csv_parse(m, c, n, "t.csv", err);
	free(c);
	return rc;
}

static int csv_str(struct mat *m, const char *t, struct dm_err *err)
{
	return csv_exact(m, t, strlen(t), err);
}

static void expect_csv_bad(const char *text, size_t len, const char *sub)
{
	struct mat m;
	struct dm_err e;
	dm_err_clear(&e);
	ck_assert_msg(csv_exact(&m, text, len, &e) == DM_EFORMAT, "csv accepted");
	ck_assert_msg_has(e, sub);
	ck_assert_msg_has(e, "t.csv: ");
	ck_assert_mat_empty(m);
}

#define CSV_BAD(text, sub) expect_csv_bad((text), sizeof(text) - 1, (sub))

START_TEST(test_write_csv_text)
{
	struct mat m;
	struct dm_err e;
	size_t n;
	char *t;
	static const char want[] = "0.10000000000000001,-0\n1,-2.5\n";
	ck_assert_int_eq(mat_alloc(&m, 2, 2, NULL), 0);
	m.data[0] = 0.1;
	m.data[1] = -0.0;
	m.data[2] = 1.0;
	m.data[3] = -2.5;
	ck_assert_int_eq(matio_write(mt_path(0, "t.csv"), &m, &e), 0);
	t = (char *)mt_get_file(mt_path(0, "t.csv"), &n);
	ck_assert_uint_eq(n, sizeof want - 1);
	ck_assert(memcmp(t, want, n) == 0);
	free(t);
	mat_free(&m);
}
END_TEST

/* ---- CSV ---- */

static void expect_csv(const char *text, size_t len, size_t rows, size_t cols,
		       const double *want)
{
	struct mat m;
	struct dm_err e;
	dm_err_clear(&e);
	ck_assert_msg(csv_exact(&m, text, len, &e) == 0, "csv refused: %s", e.msg);
	ck_assert_uint_eq(m.rows, rows);
	ck_assert_uint_eq(m.cols, cols);
	for (size_t i = 0; i < rows * cols; i++)
		ck_assert_msg(mt_bits(m.data[i]) == mt_bits(want[i]), "[%zu] = %.17g, want %.17g", i,
			      m.data[i], want[i]);
	mat_free(&m);
}

#define CSV_OK(text, r, c, ...)                                                          \
	do {                                                                              \
		static const double w_[] = { __VA_ARGS__ };                               \
		expect_csv((text), sizeof(text) - 1, (r), (c), w_);                       \
	} while (0)

START_TEST(test_csv_accepts)
{
	CSV_OK("1,2,3\n4,5,6\n", 2, 3, 1, 2, 3, 4, 5, 6);
	CSV_OK("1,2,3\n4,5,6", 2, 3, 1, 2, 3, 4, 5, 6);
	CSV_OK("1,2,3\r\n4,5,6\r\n", 2, 3, 1, 2, 3, 4, 5, 6);
	CSV_OK("1,2,3\r\n4,5,6\r", 2, 3, 1, 2, 3, 4, 5, 6);
	CSV_OK(" 1 ,\t2\t, 3  \n  4,5 ,6\t\n", 2, 3, 1, 2, 3, 4, 5, 6);
	CSV_OK("1,2\n3,4\n\n\n  \n\t\r\n", 2, 2, 1, 2, 3, 4);
	CSV_OK("7", 1, 1, 7);
	CSV_OK("7\n", 1, 1, 7);
	CSV_OK("\xef\xbb\xbf" "1,2\n", 1, 2, 1, 2);
	CSV_OK("0.1,-0,1e-300\n", 1, 3, 0.1, -0.0, 1e-300);
	CSV_OK("+1.5,.5,5.,1E3,0x10,0x1p-2\n", 1, 6, 1.5, 0.5, 5.0, 1000.0, 16.0, 0.25);
	/* strtod's rules for out-of-range values: overflow is inf, underflow
	 * is 0 (or a subnormal), neither an error. */
	CSV_OK("1e400,-1e400,1e-400\n", 1, 3, INFINITY, -INFINITY, 0.0);
	CSV_OK("inf,-Infinity,INF\n", 1, 3, INFINITY, -INFINITY, INFINITY);
}
END_TEST

START_TEST(test_csv_nan)
{
	struct mat m;
	struct dm_err e;
	ck_assert_int_eq(csv_str(&m, "nan,NaN,-nan,nan(123)\n", &e), 0);
	ck_assert_uint_eq(m.cols, 4);
	for (size_t i = 0; i < 4; i++)
		ck_assert(isnan(m.data[i]));
	mat_free(&m);
}
END_TEST

START_TEST(test_csv_refusals)
{
	CSV_BAD("1,2,3\n4,5,6\n7,8\n", "ragged rows: line 3 has 2 fields, line 1 has 3");
	CSV_BAD("1,2\n3,4,5\n", "ragged rows: line 2 has 3 fields, line 1 has 2");
	CSV_BAD("1,2,3\n4,5,abc\n", "line 2, field 3: 'abc' is not a number");
	CSV_BAD("a,b,c\n1,2,3\n", "line 1, field 1: 'a' is not a number");
	CSV_BAD("1,,3\n", "line 1, field 2: empty field");
	CSV_BAD("1,2,\n", "line 1, field 3: empty field");
	CSV_BAD("1, \t ,3\n", "line 1, field 2: empty field");
	CSV_BAD("", "no data");
	CSV_BAD("\n\n  \n", "no data");
	CSV_BAD("\xef\xbb\xbf", "no data");
	CSV_BAD("1,2\n\n3,4\n", "line 2 is blank (blank lines are allowed only at the end)");
	CSV_BAD("\n1,2\n", "line 1 is blank");
	CSV_BAD("1 2\n", "line 1, field 1: '1 2' is not a number");
	CSV_BAD("1,2\n3;4\n", "ragged rows: line 2 has 1 fields, line 1 has 2");
	CSV_BAD("1\r2\n", "line 1, field 1: '1?2' is not a number");
	CSV_BAD("1,\f2\n", "line 1, field 2: '?2' is not a number");
	CSV_BAD("1,2\n3,4x\n", "line 2, field 2: '4x' is not a number");
	CSV_BAD("1,0x\n", "'0x' is not a number");
	CSV_BAD("1,\"2\"\n", "'\"2\"' is not a number");
	CSV_BAD("1,2\n3,4\n5\n\n", "ragged rows: line 3 has 1 fields, line 1 has 2");
}
END_TEST

START_TEST(test_csv_nul)
{
	CSV_BAD("1,2\n3\0,4\n", "line 2: NUL byte");
	CSV_BAD("\0", "line 1: NUL byte");
	CSV_BAD("1,2\n\0", "line 2: NUL byte");
	CSV_BAD("1,2\n3,4\0", "NUL byte");
}
END_TEST

/* A hostile field is quoted cut short and without control codes. */
START_TEST(test_csv_message_is_tame)
{
	char text[600];
	struct mat m;
	struct dm_err e;
	memset(text, 'x', sizeof text);
	text[3] = '\x1b';
	text[sizeof text - 1] = '\n';
	ck_assert_int_eq(csv_exact(&m, text, sizeof text, &e), DM_EFORMAT);
	ck_assert_msg_has(e, "...' is not a number");
	ck_assert_ptr_null(strchr(e.msg, '\x1b'));
	ck_assert_uint_lt(strlen(e.msg), 120);
}
END_TEST

START_TEST(test_csv_big)
{
	/* One long line (many columns), then many rows. */
	size_t cols = 100000, rows = 30000, n = 0;
	char *t = malloc(cols * 4 + 1);
	struct mat m;
	struct dm_err e;
	ck_assert_ptr_nonnull(t);
	for (size_t j = 0; j < cols; j++)
		n += (size_t)sprintf(t + n, j ? ",%zu" : "%zu", j % 100);
	ck_assert_int_eq(csv_exact(&m, t, n, &e), 0);
	ck_assert_uint_eq(m.rows, 1);
	ck_assert_uint_eq(m.cols, cols);
	ck_assert(m.data[cols - 1] == (double)((cols - 1) % 100));
	mat_free(&m);
	free(t);

	t = malloc(rows * 8);
	ck_assert_ptr_nonnull(t);
	n = 0;
	for (size_t i = 0; i < rows; i++)
		n += (size_t)sprintf(t + n, "%zu,-1\n", i % 1000);
	ck_assert_int_eq(csv_exact(&m, t, n, &e), 0);
	ck_assert_uint_eq(m.rows, rows);
	ck_assert_uint_eq(m.cols, 2);
	ck_assert(MAT_AT(&m, rows - 1, 0) == (double)((rows - 1) % 1000));
	mat_free(&m);
	free(t);
}
END_TEST

/* A field longer than any fixed buffer: 0.000...0001 with 10000 zeros
 * underflows to 0, and 1 followed by 5000 zeros overflows to inf. */
START_TEST(test_csv_long_field)
{
	size_t z = 10000, n;
	char *t = malloc(z + 16);
	struct mat m;
	struct dm_err e;
	ck_assert_ptr_nonnull(t);
	memcpy(t, "0.", 2);
	memset(t + 2, '0', z);
	n = 2 + z;
	memcpy(t + n, "1,1", 3);
	n += 3;
	ck_assert_int_eq(csv_exact(&m, t, n, &e), 0);
	ck_assert(m.data[0] == 0.0 && m.data[1] == 1.0);
	mat_free(&m);
	t[0] = '1';
	memset(t + 1, '0', 5000);
	ck_assert_int_eq(csv_exact(&m, t, 5001, &e), 0);
	ck_assert(isinf(m.data[0]));
	mat_free(&m);
	free(t);
}
END_TEST

START_TEST(test_csv_every_prefix)
{
	static const char text[] = "1.5,-2,3e4\r\n4, 5 ,nan\n  \n";
	for (size_t k = 0; k <= sizeof text - 1; k++) {
		struct mat m;
		struct dm_err e;
		int rc = csv_exact(&m, text, k, &e);
		ck_assert_msg(rc == 0 || rc == DM_EFORMAT, "prefix %zu: rc %d", k, rc);
		if (rc == 0)
			mat_free(&m);
		else
			ck_assert_mat_empty(m);
	}
}
END_TEST

/* A locale with a decimal comma must not change how numbers are read and
 * written.  Skipped (passes) where no such locale is installed. */
START_TEST(test_csv_locale)
{
	static const char *const names[] = { "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8",
					     "fr_FR.utf8" };
	const char *got = NULL;
	struct mat m, r;
	struct dm_err e;
	size_t n;
	char *t;
	for (size_t i = 0; i < sizeof names / sizeof names[0] && !got; i++)
		got = setlocale(LC_ALL, names[i]);
	if (!got)
		return;
	ck_assert_int_eq(csv_str(&m, "0.5,1.25\n", &e), 0);
	ck_assert(m.data[0] == 0.5 && m.data[1] == 1.25);
	ck_assert_int_eq(matio_write(mt_path(0, "l.csv"), &m, &e), 0);
	t = (char *)mt_get_file(mt_path(0, "l.csv"), &n);
	ck_assert_uint_eq(n, 9);
	ck_assert(memcmp(t, "0.5,1.25\n", 9) == 0);
	ck_assert_int_eq(matio_read(mt_path(0, "l.csv"), &r, 0, &e), 0);
	ck_assert(r.data[1] == 1.25);
	mat_free(&r);
	free(t);
	mat_free(&m);
	setlocale(LC_ALL, "C");
}
END_TEST

static Suite *csv_suite(void)
{
	Suite *s = suite_create("csv");
	TCase *tc;

	tc = mt_tcase("csv_writer", 1);
	tcase_add_test(tc, test_write_csv_text);
	suite_add_tcase(s, tc);

	tc = mt_tcase("csv", 1);
	tcase_add_test(tc, test_csv_accepts);
	tcase_add_test(tc, test_csv_nan);
	tcase_add_test(tc, test_csv_refusals);
	tcase_add_test(tc, test_csv_nul);
	tcase_add_test(tc, test_csv_message_is_tame);
	tcase_add_test(tc, test_csv_big);
	tcase_add_test(tc, test_csv_long_field);
	tcase_add_test(tc, test_csv_every_prefix);
	tcase_add_test(tc, test_csv_locale);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(csv_suite());
}
