/* check_npy_header: unit tests for the .npy header parser (engine/io npy):
 * the dictionary numpy writes in every spelling it accepts, format versions
 * 1 to 3, and each refusal with its message.  Every image is made in memory
 * (mt_make_npy) and parsed from an exact-size heap copy, so that a sanitizer
 * build catches any read past the end.  The fixture files, damage and the
 * writer are check_npy's. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/matio.h>
#include "matio_util.h"
#include "testutil.h"

/* Parses a version-1 image with header hdr and 6 float64 values. */
static int npy_hdr(struct mat *m, const char *hdr, struct dm_err *err)
{
	size_t n;
	unsigned char *b = mt_make_npy(1, hdr, 6, &n);
	int rc = mt_npy_exact(m, b, n, err);
	free(b);
	return rc;
}

#define H_OK "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }"

/* Expects the header to parse as the 3x2 matrix 0..5. */
static void expect_hdr_ok(const char *hdr)
{
	struct mat m;
	struct dm_err e;
	dm_err_clear(&e);
	ck_assert_msg(npy_hdr(&m, hdr, &e) == 0, "header %s refused: %s", hdr, e.msg);
	ck_assert_uint_eq(m.rows, 3);
	ck_assert_uint_eq(m.cols, 2);
	for (size_t i = 0; i < 6; i++)
		ck_assert(m.data[i] == (double)i);
	mat_free(&m);
}

static void expect_hdr_bad(const char *hdr, const char *sub)
{
	struct mat m;
	struct dm_err e;
	dm_err_clear(&e);
	ck_assert_msg(npy_hdr(&m, hdr, &e) == DM_EFORMAT, "header %s accepted", hdr);
	ck_assert_int_eq(e.code, DM_EFORMAT);
	ck_assert_msg_has(e, sub);
	ck_assert_msg_has(e, "t.npy: ");
	ck_assert_mat_empty(m);
}

/* ---- .npy headers ---- */

START_TEST(test_hdr_accepts)
{
	expect_hdr_ok(H_OK);
	expect_hdr_ok("{'shape': (3, 2), 'descr': '<f8', 'fortran_order': False}");
	expect_hdr_ok("{'fortran_order': False, 'shape': (3,2,), 'descr': '<f8',}");
	expect_hdr_ok("{\"descr\": \"<f8\", \"fortran_order\": False, \"shape\": (3, 2)}");
	expect_hdr_ok("  \t{ 'descr' :'<f8' ,\n'fortran_order':False,'shape':( 3 , 2 ) , }\r\n");
	expect_hdr_ok("{'descr': '|f8', 'fortran_order': False, 'shape': (3, 2), }");
	expect_hdr_ok("{'descr': '=f8', 'fortran_order': False, 'shape': (3, 2), }");
	expect_hdr_ok("{'descr': 'f8', 'fortran_order': False, 'shape': (3, 2), }");
	/* Python 2 wrote longs as 3L; numpy still reads those in 1.0 files. */
	expect_hdr_ok("{'descr': '<f8', 'fortran_order': False, 'shape': (3L, 2L), }");
}
END_TEST

START_TEST(test_hdr_versions)
{
	struct mat m;
	struct dm_err e;
	size_t n;
	unsigned char *b;

	for (int v = 2; v <= 3; v++) {
		b = mt_make_npy(v, H_OK, 6, &n);
		ck_assert_msg(mt_npy_exact(&m, b, n, &e) == 0, "%s", e.msg);
		ck_assert_uint_eq(m.rows * m.cols, 6);
		mat_free(&m);
		free(b);
	}
	/* 3.0 headers have no Python 2 heritage. */
	b = mt_make_npy(3, "{'descr': '<f8', 'fortran_order': False, 'shape': (3L, 2), }", 6, &n);
	ck_assert_int_eq(mt_npy_exact(&m, b, n, &e), DM_EFORMAT);
	ck_assert_msg_has(e, "malformed header");
	free(b);
	b = mt_make_npy(1, H_OK, 6, &n);
	b[6] = 4;
	ck_assert_int_eq(mt_npy_exact(&m, b, n, &e), DM_EFORMAT);
	ck_assert_msg_has(e, "unsupported .npy format version 4.0");
	b[6] = 1;
	b[7] = 1;
	ck_assert_int_eq(mt_npy_exact(&m, b, n, &e), DM_EFORMAT);
	ck_assert_msg_has(e, "version 1.1");
	b[7] = 0;
	b[0] = 'X';
	ck_assert_int_eq(mt_npy_exact(&m, b, n, &e), DM_EFORMAT);
	ck_assert_msg_has(e, "not a .npy file (bad magic)");
	ck_assert_int_eq(mt_npy_exact(&m, "abc", 3, &e), DM_EFORMAT);
	ck_assert_msg_has(e, "not a .npy file (bad magic)");
	ck_assert_int_eq(mt_npy_exact(&m, "", 0, &e), DM_EFORMAT);
	ck_assert_msg_has(e, "empty file");
	ck_assert_mat_empty(m);
	free(b);
}
END_TEST

START_TEST(test_hdr_malformed)
{
	expect_hdr_bad("", "malformed header: not a dictionary");
	expect_hdr_bad("[1, 2]", "malformed header: not a dictionary");
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': False}", "missing key 'shape'");
	expect_hdr_bad("{'shape': (3, 2), 'fortran_order': False}", "missing key 'descr'");
	expect_hdr_bad("{'descr': '<f8', 'shape': (3, 2)}", "missing key 'fortran_order'");
	expect_hdr_bad("{}", "missing key");
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), 'x': 1}",
		       "unexpected key 'x'");
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), 'shape': (3, 2)}",
		       "duplicate key 'shape'");
	expect_hdr_bad(H_OK " x", "unexpected text after the dictionary");
	expect_hdr_bad(H_OK ",", "unexpected text after the dictionary");
	expect_hdr_bad(H_OK " # comment", "unexpected text after the dictionary");
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), ",
		       "malformed header");
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2),, }",
		       "malformed header");
	expect_hdr_bad("{'descr': '<f8' 'fortran_order': False, 'shape': (3, 2)}",
		       "expected ',' or '}'");
	expect_hdr_bad("{'descr' '<f8', 'fortran_order': False, 'shape': (3, 2)}",
		       "expected ':'");
	expect_hdr_bad("{descr: '<f8', 'fortran_order': False, 'shape': (3, 2)}",
		       "a key is not a string");
	expect_hdr_bad("{'descr': '<f8\", 'fortran_order': False, 'shape': (3, 2)}",
		       "malformed header");
	expect_hdr_bad("{'descr': '<\\x66\x38', 'fortran_order': False, 'shape': (3, 2)}",
		       "escapes in strings are not supported");
	expect_hdr_bad("{'descr': '<f8", "unterminated string");
	expect_hdr_bad("{'descr': 8, 'fortran_order': False, 'shape': (3, 2)}",
		       "'descr' is not a string");
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': false, 'shape': (3, 2)}",
		       "'fortran_order' is not True or False");
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': 0, 'shape': (3, 2)}",
		       "'fortran_order' is not True or False");
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': Falsey, 'shape': (3, 2)}",
		       "'fortran_order' is not True or False");
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': False, 'shape': [3, 2]}",
		       "'shape' is not a tuple");
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': False, 'shape': (3 2)}",
		       "'shape' is not a tuple of integers");
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': False, 'shape': (6)}",
		       "'shape' is not a tuple (a 1-tuple needs a comma)");
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': False, 'shape': (3, -2)}",
		       "negative dimension");
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': False, 'shape': (03, 2)}",
		       "leading zeros");
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': False, 'shape': (3.0, 2)}",
		       "not a tuple of integers");
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': False, 'shape': (3x, 2)}",
		       "not a tuple of integers");
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2LL)}",
		       "not a tuple of integers");
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2)",
		       "malformed header");
}
END_TEST

START_TEST(test_hdr_nul_in_header)
{
	struct mat m;
	struct dm_err e;
	size_t n;
	unsigned char *b = mt_make_npy(1, H_OK, 6, &n);
	b[10 + 3] = '\0'; /* inside the 'descr' key */
	ck_assert_int_eq(mt_npy_exact(&m, b, n, &e), DM_EFORMAT);
	ck_assert_msg_has(e, "malformed header");
	ck_assert_mat_empty(m);
	free(b);
}
END_TEST

START_TEST(test_hdr_types)
{
	expect_hdr_bad("{'descr': '<c16', 'fortran_order': False, 'shape': (3, 2)}",
		       "dtype '<c16' is not supported (float64, float32, int64 or int32)");
	expect_hdr_bad("{'descr': '<f2', 'fortran_order': False, 'shape': (3, 2)}",
		       "dtype '<f2' is not supported");
	expect_hdr_bad("{'descr': '<u4', 'fortran_order': False, 'shape': (3, 2)}",
		       "dtype '<u4' is not supported");
	expect_hdr_bad("{'descr': '', 'fortran_order': False, 'shape': (3, 2)}",
		       "dtype '' is not supported");
	expect_hdr_bad("{'descr': '<f8\x01', 'fortran_order': False, 'shape': (3, 2)}",
		       "dtype '<f8?' is not supported");
	expect_hdr_bad("{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (3, 2)}",
		       "a structured dtype is not supported");
	expect_hdr_bad("{'descr': '>f8', 'fortran_order': False, 'shape': (3, 2)}",
		       "big-endian data is not supported");
	expect_hdr_bad("{'descr': '>i4', 'fortran_order': False, 'shape': (3, 2)}",
		       "big-endian data is not supported");
	/* Fortran order is read, column by column (check_npy holds numpy's file) */
	struct mat m;
	struct dm_err e;
	ck_assert_msg(npy_hdr(&m, "{'descr': '<f8', 'fortran_order': True, 'shape': (3, 2)}", &e) == 0,
		      "%s", e.msg);
	for (size_t i = 0; i < 3; i++)
		for (size_t j = 0; j < 2; j++)
			ck_assert(m.data[i * 2 + j] == (double)(j * 3 + i));
	mat_free(&m);
}
END_TEST

START_TEST(test_hdr_shapes)
{
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': False, 'shape': ()}",
		       "a 0-d array: a matrix must be 2-d");
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': False, 'shape': (6,)}",
		       "a 1-d array: a matrix must be 2-d");
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 3, 2)}",
		       "a 3-d array: a matrix must be 2-d");
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': False, 'shape': (0, 3)}",
		       "empty matrix (0x3)");
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 0)}",
		       "empty matrix (3x0)");
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': False, 'shape': (0, 99999999999999999999999)}",
		       "empty matrix");
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': False, 'shape': (2147483648, 1)}",
		       "dimension too large");
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 99999999999999999999999999999)}",
		       "dimension too large");
	/* INT_MAX is allowed as a size, but the data is not there. */
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': False, 'shape': (2147483647, 2147483647)}",
		       "data is shorter than the header declares");
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 3)}",
		       "data is shorter than the header declares (48 of 72 bytes)");
	expect_hdr_bad("{'descr': '<i8', 'fortran_order': False, 'shape': (7, 1)}",
		       "data is shorter than the header declares (48 of 56 bytes)");
}
END_TEST

/* numpy ignores bytes after the data; so do we.  Smaller types read less. */
START_TEST(test_hdr_trailing_data)
{
	struct mat m;
	struct dm_err e;
	expect_hdr_ok(H_OK);
	ck_assert_int_eq(npy_hdr(&m, "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 5)}",
				 &e), 0);
	ck_assert_uint_eq(m.cols, 5);
	ck_assert(m.data[4] == 4.0);
	mat_free(&m);
	ck_assert_int_eq(npy_hdr(&m, "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 2)}",
				 &e), 0);
	ck_assert(m.data[0] == 0.0); /* the low half of 0.0 */
	mat_free(&m);
}
END_TEST

/* The header length field can point past the end of the file. */
START_TEST(test_hdr_length_lies)
{
	struct mat m;
	struct dm_err e;
	size_t n;
	unsigned char *b = mt_make_npy(1, H_OK, 0, &n);
	b[8] = 0xff;
	b[9] = 0xff;
	ck_assert_int_eq(mt_npy_exact(&m, b, n, &e), DM_EFORMAT);
	ck_assert_msg_has(e, "header is truncated");
	free(b);
	b = mt_make_npy(2, H_OK, 0, &n);
	b[8] = b[9] = b[10] = b[11] = 0xff;
	ck_assert_int_eq(mt_npy_exact(&m, b, n, &e), DM_EFORMAT);
	ck_assert_msg_has(e, "header is truncated");
	/* A length of 0: an empty header, which is no dictionary. */
	b[8] = b[9] = b[10] = b[11] = 0;
	ck_assert_int_eq(mt_npy_exact(&m, b, n, &e), DM_EFORMAT);
	ck_assert_msg_has(e, "malformed header: not a dictionary");
	free(b);
}
END_TEST

static Suite *npy_header_suite(void)
{
	Suite *s = suite_create("npy_header");
	TCase *tc;

	tc = mt_tcase("npy_header", 0);
	tcase_add_test(tc, test_hdr_accepts);
	tcase_add_test(tc, test_hdr_versions);
	tcase_add_test(tc, test_hdr_malformed);
	tcase_add_test(tc, test_hdr_nul_in_header);
	tcase_add_test(tc, test_hdr_types);
	tcase_add_test(tc, test_hdr_shapes);
	tcase_add_test(tc, test_hdr_trailing_data);
	tcase_add_test(tc, test_hdr_length_lies);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(npy_header_suite());
}
