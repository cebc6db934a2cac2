/* check_matfiles: unit tests for matio's file level (engine/io matio,
 * slurp, atomic files): the format chosen by extension, matio_write then
 * matio_read giving back every bit in both formats (inf and NaN too), read
 * errors (missing, a directory, an unknown type, the size limit), and
 * writes that fail or replace a file leaving nothing half-written behind.
 * The formats' own parsers are check_npy's, check_npy_header's and
 * check_csv's. */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <distmm/matio.h>
#include "matio_util.h"
#include "testutil.h"

/* Writes m to path, reads it back and checks every bit. */
static void roundtrip(const char *path, const struct mat *m)
{
	struct mat r;
	struct dm_err e;
	dm_err_clear(&e);
	ck_assert_msg(matio_write(path, m, &e) == 0, "write %s: %s", path, e.msg);
	ck_assert_msg(matio_read(path, &r, 0, &e) == 0, "read %s: %s", path, e.msg);
	ck_assert_uint_eq(r.rows, m->rows);
	ck_assert_uint_eq(r.cols, m->cols);
	for (size_t i = 0; i < m->rows * m->cols; i++)
		ck_assert_msg(mt_bits(r.data[i]) == mt_bits(m->data[i]), "%s[%zu]: %.17g became %.17g",
			      path, i, m->data[i], r.data[i]);
	mat_free(&r);
}

/* Files in mt_tmpdir, so a test can see that nothing was left behind. */
static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

/* ---- matio_kind_of ---- */

START_TEST(test_kind_of)
{
	ck_assert_int_eq(matio_kind_of("a.npy"), MATIO_NPY);
	ck_assert_int_eq(matio_kind_of("dir/A.NPY"), MATIO_NPY);
	ck_assert_int_eq(matio_kind_of("x.Csv"), MATIO_CSV);
	ck_assert_int_eq(matio_kind_of("/p.q/r.csv"), MATIO_CSV);
	ck_assert_int_eq(matio_kind_of("x.txt"), MATIO_UNKNOWN);
	ck_assert_int_eq(matio_kind_of("npy"), MATIO_UNKNOWN);
	ck_assert_int_eq(matio_kind_of("x.npy.gz"), MATIO_UNKNOWN);
	ck_assert_int_eq(matio_kind_of("x.npyy"), MATIO_UNKNOWN);
	ck_assert_int_eq(matio_kind_of("d.npy/x"), MATIO_UNKNOWN);
	ck_assert_int_eq(matio_kind_of("x."), MATIO_UNKNOWN);
	ck_assert_int_eq(matio_kind_of(""), MATIO_UNKNOWN);
	ck_assert_int_eq(matio_kind_of(NULL), MATIO_UNKNOWN);
}
END_TEST

/* ---- round trips ---- */

static const double tricky[] = {
	0.1, -0.0, 0.0, 1e-300, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
	-1.7976931348623157e308, 3.141592653589793, -1.0 / 3.0, 1e22, 123456789012345678.0,
	0.30000000000000004, 9007199254740993.0, 1e-5, -7.0, 1e300, 2.5e-10,
};
#define N_TRICKY (sizeof tricky / sizeof tricky[0])

static void tricky_mat(struct mat *m, size_t rows)
{
	size_t cols = N_TRICKY / rows;
	ck_assert_int_eq(mat_alloc(m, rows, cols, NULL), 0);
	memcpy(m->data, tricky, rows * cols * sizeof(double));
}

START_TEST(test_roundtrip_npy)
{
	struct mat m;
	tricky_mat(&m, 3);
	roundtrip(mt_path(0, "a.npy"), &m);
	mat_free(&m);
	tricky_mat(&m, 1);
	roundtrip(mt_path(0, "row.NPY"), &m);
	mat_free(&m);
	ck_assert_int_eq(mat_alloc(&m, N_TRICKY, 1, NULL), 0);
	memcpy(m.data, tricky, sizeof tricky);
	roundtrip(mt_path(0, "col.npy"), &m);
	mat_free(&m);
	ck_assert_int_eq(mat_alloc(&m, 37, 129, NULL), 0);
	mat_fill(&m, MAT_VALUES_FLOATS, 42, 0);
	roundtrip(mt_path(0, "big.npy"), &m);
	mat_free(&m);
}
END_TEST

START_TEST(test_roundtrip_csv)
{
	struct mat m;
	tricky_mat(&m, 3);
	roundtrip(mt_path(0, "a.csv"), &m);
	mat_free(&m);
	tricky_mat(&m, 2);
	roundtrip(mt_path(0, "b.CSV"), &m);
	mat_free(&m);
	ck_assert_int_eq(mat_alloc(&m, 37, 129, NULL), 0);
	mat_fill(&m, MAT_VALUES_FLOATS, 7, 1);
	roundtrip(mt_path(0, "big.csv"), &m);
	mat_free(&m);
}
END_TEST

/* inf survives both formats exactly; NaN keeps every bit in .npy and stays
 * NaN in .csv (the text "nan" has no payload). */
START_TEST(test_roundtrip_nonfinite)
{
	struct mat m, r;
	struct dm_err e;
	ck_assert_int_eq(mat_alloc(&m, 1, 3, NULL), 0);
	m.data[0] = INFINITY;
	m.data[1] = -INFINITY;
	m.data[2] = NAN;
	roundtrip(mt_path(0, "n.npy"), &m);
	ck_assert_int_eq(matio_write(mt_path(0, "n.csv"), &m, &e), 0);
	ck_assert_int_eq(matio_read(mt_path(0, "n.csv"), &r, 0, &e), 0);
	ck_assert(isinf(r.data[0]) && r.data[0] > 0);
	ck_assert(isinf(r.data[1]) && r.data[1] < 0);
	ck_assert(isnan(r.data[2]));
	mat_free(&r);
	mat_free(&m);
}
END_TEST

/* ---- files ---- */

START_TEST(test_read_missing_and_dir)
{
	struct mat m;
	struct dm_err e;
	mt_expect_read_fails(mt_path(0, "a.npy"), DM_EIO, "a.npy: No such file or directory");
	ck_assert_int_eq(mkdir(mt_path(0, "dir.npy"), 0755), 0);
	mt_expect_read_fails(mt_path(0, "dir.npy"), DM_EIO, "dir.npy: is a directory");
	ck_assert_int_eq(mkdir(mt_path(0, "dir.csv"), 0755), 0);
	ck_assert_int_eq(matio_read(mt_path(0, "dir.csv"), &m, 0, &e), DM_EIO);
	ck_assert_msg_has(e, "cannot read ");
	mt_expect_read_fails(mt_path(0, "nodir/x.csv"), DM_EIO, "cannot read");
}
END_TEST

START_TEST(test_read_unknown_ext)
{
	static const char t[] = "1,2\n";
	mt_put_file(mt_path(0, "x.txt"), t, sizeof t - 1);
	mt_expect_read_fails(mt_path(0, "x.txt"), DM_EFORMAT,
			  "x.txt: unknown file type (use .npy or .csv)");
	/* Checked before the file is looked at. */
	mt_expect_read_fails("no/such/x.dat", DM_EFORMAT, "unknown file type");
}
END_TEST

START_TEST(test_read_by_extension)
{
	static const char t[] = "1,2\n3,4\n";
	struct mat m;
	struct dm_err e;
	mt_put_file(mt_path(0, "A.CSV"), t, sizeof t - 1);
	ck_assert_int_eq(matio_read(mt_path(0, "A.CSV"), &m, 0, &e), 0);
	ck_assert(m.rows == 2 && m.cols == 2 && m.data[3] == 4.0);
	mat_free(&m);
	/* CSV text in a .npy: the extension decides, and the parser refuses. */
	mt_put_file(mt_path(0, "b.npy"), t, sizeof t - 1);
	mt_expect_read_fails(mt_path(0, "b.npy"), DM_EFORMAT, "b.npy: not a .npy file (bad magic)");
	mt_put_file(mt_path(0, "e.npy"), "", 0);
	mt_expect_read_fails(mt_path(0, "e.npy"), DM_EFORMAT, "empty file");
	mt_put_file(mt_path(0, "e.csv"), "", 0);
	mt_expect_read_fails(mt_path(0, "e.csv"), DM_EFORMAT, "e.csv: no data");
}
END_TEST

START_TEST(test_read_max_bytes)
{
	static const char t[] = "1,2\n3,4\n"; /* 8 bytes */
	struct mat m;
	struct dm_err e;
	mt_put_file(mt_path(0, "m.csv"), t, sizeof t - 1);
	ck_assert_int_eq(matio_read(mt_path(0, "m.csv"), &m, 7, &e), DM_ENOMEM);
	ck_assert_msg_has(e, "m.csv: 8 bytes is more than the limit of 7");
	ck_assert_mat_empty(m);
	ck_assert_int_eq(matio_read(mt_path(0, "m.csv"), &m, 8, &e), 0);
	mat_free(&m);
	ck_assert_int_eq(matio_read(DATA "f64.npy", &m, 175, &e), DM_ENOMEM);
	ck_assert_int_eq(matio_read(DATA "f64.npy", &m, 176, &e), 0);
	mat_free(&m);
}
END_TEST

START_TEST(test_write_failures)
{
	struct mat m;
	struct dm_err e;
	ck_assert_int_eq(mat_alloc(&m, 2, 2, NULL), 0);

	ck_assert_int_eq(mkdir(mt_path(0, "d.npy"), 0755), 0);
	dm_err_clear(&e);
	ck_assert_int_eq(matio_write(mt_path(0, "d.npy"), &m, &e), DM_EIO);
	ck_assert_int_eq(e.code, DM_EIO);
	ck_assert_int_eq(count_entries(mt_tmpdir), 1);
	ck_assert_int_eq(count_entries(mt_path(0, "d.npy")), 0);

	ck_assert_int_eq(matio_write(mt_path(0, "nodir/x.csv"), &m, &e), DM_EIO);
	ck_assert_msg_has(e, "nodir/x.csv");
	ck_assert_int_eq(matio_write(mt_path(0, "nodir/x.npy"), &m, &e), DM_EIO);
	ck_assert_int_eq(count_entries(mt_tmpdir), 1);

	ck_assert_int_eq(matio_write(mt_path(0, "c.txt"), &m, &e), DM_EINVAL);
	ck_assert_msg_has(e, "c.txt: unknown file type (use .npy or .csv)");
	ck_assert_int_eq(count_entries(mt_tmpdir), 1);
	mat_free(&m);

	ck_assert_int_eq(matio_write(mt_path(0, "z.npy"), &m, &e), DM_EINVAL);
	ck_assert_msg_has(e, "empty matrix (0x0)");
	ck_assert_int_eq(count_entries(mt_tmpdir), 1);
}
END_TEST

/* Writing over an existing file replaces it whole and leaves no temp. */
START_TEST(test_write_replaces)
{
	struct mat m, r;
	struct dm_err e;
	mt_put_file(mt_path(0, "o.csv"), "garbage", 7);
	ck_assert_int_eq(mat_alloc(&m, 1, 2, NULL), 0);
	m.data[0] = 1.0;
	m.data[1] = 2.0;
	ck_assert_int_eq(matio_write(mt_path(0, "o.csv"), &m, &e), 0);
	ck_assert_int_eq(matio_read(mt_path(0, "o.csv"), &r, 0, &e), 0);
	ck_assert(r.rows == 1 && r.cols == 2 && r.data[1] == 2.0);
	ck_assert_int_eq(count_entries(mt_tmpdir), 1);
	mat_free(&r);
	mat_free(&m);
}
END_TEST

static Suite *matfiles_suite(void)
{
	Suite *s = suite_create("matfiles");
	TCase *tc;

	tc = mt_tcase("kind", 0);
	tcase_add_test(tc, test_kind_of);
	suite_add_tcase(s, tc);

	tc = mt_tcase("roundtrip", 1);
	tcase_add_test(tc, test_roundtrip_npy);
	tcase_add_test(tc, test_roundtrip_csv);
	tcase_add_test(tc, test_roundtrip_nonfinite);
	suite_add_tcase(s, tc);

	tc = mt_tcase("files", 1);
	tcase_add_test(tc, test_read_missing_and_dir);
	tcase_add_test(tc, test_read_unknown_ext);
	tcase_add_test(tc, test_read_by_extension);
	tcase_add_test(tc, test_read_max_bytes);
	tcase_add_test(tc, test_write_failures);
	tcase_add_test(tc, test_write_replaces);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(matfiles_suite());
}
