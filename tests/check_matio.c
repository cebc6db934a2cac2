/* check_matio: unit tests for engine/matio (.npy and .csv in and out).
 * Run from the repository root: the numpy-made fixtures are read from
 * tests/data/ (tests/data/gen_fixtures.py made them).  Bad inputs are built
 * here, in memory or in a fresh mkdtemp() directory per test, and every
 * in-memory input is parsed from a malloc'd copy of exactly its length so
 * that a sanitizer build catches any read past the end. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <distmm/matio.h>

#define DATA "tests/data/"

static char tmpdir[64];
static char pathbuf[2][256];

/* Each test gets an empty directory of its own. */
static void tmp_setup(void)
{
	strcpy(tmpdir, "/tmp/check_matio.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

/* Removes the test directory, one level of subdirectories deep (the
 * deepest any test goes). */
static void rm_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char p[512];
	struct stat st;
	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			rm_tree(p);
		else
			unlink(p);
	}
	closedir(d);
	rmdir(dir);
}

static void tmp_teardown(void)
{
	rm_tree(tmpdir);
}

/* tmpdir/name; two slots so a test can hold two paths at once. */
static const char *tpath(int slot, const char *name)
{
	snprintf(pathbuf[slot], sizeof pathbuf[slot], "%s/%s", tmpdir, name);
	return pathbuf[slot];
}

static void put_file(const char *path, const void *b, size_t n)
{
	FILE *fp = fopen(path, "wb");
	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fwrite(b, 1, n, fp), n);
	ck_assert_int_eq(fclose(fp), 0);
}

/* Reads a whole file (a fixture) into a malloc'd buffer of its exact size. */
static unsigned char *get_file(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *b;
	long sz;
	ck_assert_msg(fp != NULL, "cannot open %s (run from the repository root)", path);
	ck_assert_int_eq(fseek(fp, 0, SEEK_END), 0);
	sz = ftell(fp);
	ck_assert_int_ge(sz, 0);
	rewind(fp);
	b = malloc(sz > 0 ? (size_t)sz : 1);
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(fread(b, 1, (size_t)sz, fp), (size_t)sz);
	fclose(fp);
	*n = (size_t)sz;
	return b;
}

/* Parses from an exact-size heap copy, so ASan sees any over-read. */
static int npy_exact(struct mat *m, const void *b, size_t n, struct dm_err *err)
{
	void *c = malloc(n ? n : 1);
	int rc;
	ck_assert_ptr_nonnull(c);
	if (n)
		memcpy(c, b, n);
	rc = npy_parse(m, c, n, "t.npy", err);
	free(c);
	return rc;
}

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

#define ck_assert_msg_has(err, sub)                                                       \
	ck_assert_msg(strstr((err).msg, (sub)) != NULL, "message \"%s\" lacks \"%s\"",     \
		      (err).msg, (sub))

/* A failure must leave an empty matrix, so callers can mat_free() or not. */
#define ck_assert_mat_empty(m)                                                            \
	do {                                                                               \
		ck_assert_ptr_null((m).data);                                              \
		ck_assert_uint_eq((m).rows, 0);                                            \
		ck_assert_uint_eq((m).cols, 0);                                            \
	} while (0)

static uint64_t bits(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof u);
	return u;
}

/* A .npy image with the given version and header text (padded with spaces
 * and '\n' to a multiple of 64 as numpy does), followed by ndata bytes of
 * data 0, 1, 2, ... as float64. */
static unsigned char *make_npy(int major, const char *hdr, size_t nvals, size_t *len)
{
	size_t lsize = major == 1 ? 2 : 4, pre = 8 + lsize;
	size_t hl = strlen(hdr) + 1, total, hlen;
	unsigned char *b;
	hl += (64 - (pre + hl) % 64) % 64;
	hlen = hl;
	total = pre + hlen + nvals * 8;
	b = malloc(total);
	ck_assert_ptr_nonnull(b);
	memcpy(b, "\x93NUMPY", 6);
	b[6] = (unsigned char)major;
	b[7] = 0;
	for (size_t i = 0; i < lsize; i++)
		b[8 + i] = (unsigned char)(hlen >> (8 * i));
	memset(b + pre, ' ', hlen);
	memcpy(b + pre, hdr, strlen(hdr));
	b[pre + hlen - 1] = '\n';
	for (size_t i = 0; i < nvals; i++) {
		double d = (double)i;
		memcpy(b + pre + hlen + 8 * i, &d, 8); /* this host is little-endian */
	}
	*len = total;
	return b;
}

/* Parses a version-1 image with header hdr and 6 float64 values. */
static int npy_hdr(struct mat *m, const char *hdr, struct dm_err *err)
{
	size_t n;
	unsigned char *b = make_npy(1, hdr, 6, &n);
	int rc = npy_exact(m, b, n, err);
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
		ck_assert_msg(bits(m.data[i]) == bits(fix_f64[i]), "%s[%zu] = %.17g", path, i,
			      m.data[i]);
	mat_free(&m);
}

static void expect_read_fails(const char *path, int code, const char *sub)
{
	struct mat m;
	struct dm_err e;
	dm_err_clear(&e);
	ck_assert_int_eq(matio_read(path, &m, 0, &e), code);
	ck_assert_int_eq(e.code, code);
	ck_assert_msg_has(e, sub);
	ck_assert_mat_empty(m);
}

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
		ck_assert_msg(bits(r.data[i]) == bits(m->data[i]), "%s[%zu]: %.17g became %.17g",
			      path, i, m->data[i], r.data[i]);
	mat_free(&r);
}

/* Files in tmpdir, so a test can see that nothing was left behind. */
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
	roundtrip(tpath(0, "a.npy"), &m);
	mat_free(&m);
	tricky_mat(&m, 1);
	roundtrip(tpath(0, "row.NPY"), &m);
	mat_free(&m);
	ck_assert_int_eq(mat_alloc(&m, N_TRICKY, 1, NULL), 0);
	memcpy(m.data, tricky, sizeof tricky);
	roundtrip(tpath(0, "col.npy"), &m);
	mat_free(&m);
	ck_assert_int_eq(mat_alloc(&m, 37, 129, NULL), 0);
	mat_fill(&m, MAT_VALUES_FLOATS, 42, 0);
	roundtrip(tpath(0, "big.npy"), &m);
	mat_free(&m);
}
END_TEST

START_TEST(test_roundtrip_csv)
{
	struct mat m;
	tricky_mat(&m, 3);
	roundtrip(tpath(0, "a.csv"), &m);
	mat_free(&m);
	tricky_mat(&m, 2);
	roundtrip(tpath(0, "b.CSV"), &m);
	mat_free(&m);
	ck_assert_int_eq(mat_alloc(&m, 37, 129, NULL), 0);
	mat_fill(&m, MAT_VALUES_FLOATS, 7, 1);
	roundtrip(tpath(0, "big.csv"), &m);
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
	roundtrip(tpath(0, "n.npy"), &m);
	ck_assert_int_eq(matio_write(tpath(0, "n.csv"), &m, &e), 0);
	ck_assert_int_eq(matio_read(tpath(0, "n.csv"), &r, 0, &e), 0);
	ck_assert(isinf(r.data[0]) && r.data[0] > 0);
	ck_assert(isinf(r.data[1]) && r.data[1] < 0);
	ck_assert(isnan(r.data[2]));
	mat_free(&r);
	mat_free(&m);
}
END_TEST

/* The writer's bytes are np.save's bytes for the same array. */
START_TEST(test_write_matches_numpy)
{
	struct mat m;
	struct dm_err e;
	size_t na, nb;
	unsigned char *a, *b;
	ck_assert_int_eq(mat_alloc(&m, 3, 2, NULL), 0);
	memcpy(m.data, fix_f64, sizeof fix_f64);
	ck_assert_int_eq(matio_write(tpath(0, "w.npy"), &m, &e), 0);
	a = get_file(tpath(0, "w.npy"), &na);
	b = get_file(DATA "f64.npy", &nb);
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
		ck_assert_int_eq(matio_write(tpath(0, "s.npy"), &m, &e), 0);
		b = get_file(tpath(0, "s.npy"), &n);
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
	ck_assert_int_eq(matio_write(tpath(0, "t.csv"), &m, &e), 0);
	t = (char *)get_file(tpath(0, "t.csv"), &n);
	ck_assert_uint_eq(n, sizeof want - 1);
	ck_assert(memcmp(t, want, n) == 0);
	free(t);
	mat_free(&m);
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
	unsigned char *b = get_file(DATA "v2.npy", &n);
	ck_assert_int_eq(b[6], 2);
	free(b);
	b = get_file(DATA "v3.npy", &n);
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
		ck_assert(bits(m.data[i]) == bits((double)want[i]));
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

START_TEST(test_fixture_refusals)
{
	expect_read_fails(DATA "fortran.npy", DM_EFORMAT, "Fortran order is not supported");
	expect_read_fails(DATA "bigendian.npy", DM_EFORMAT, "big-endian data is not supported");
	expect_read_fails(DATA "1d.npy", DM_EFORMAT, "a 1-d array: a matrix must be 2-d");
	expect_read_fails(DATA "3d.npy", DM_EFORMAT, "a 3-d array: a matrix must be 2-d");
	expect_read_fails(DATA "complex.npy", DM_EFORMAT,
			  "dtype '<c16' is not supported (float64, float32, int64 or int32)");
	expect_read_fails(DATA "bool.npy", DM_EFORMAT, "dtype '|b1' is not supported");
	expect_read_fails(DATA "3d.npy", DM_EFORMAT, "tests/data/3d.npy: ");
}
END_TEST

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
		b = make_npy(v, H_OK, 6, &n);
		ck_assert_msg(npy_exact(&m, b, n, &e) == 0, "%s", e.msg);
		ck_assert_uint_eq(m.rows * m.cols, 6);
		mat_free(&m);
		free(b);
	}
	/* 3.0 headers have no Python 2 heritage. */
	b = make_npy(3, "{'descr': '<f8', 'fortran_order': False, 'shape': (3L, 2), }", 6, &n);
	ck_assert_int_eq(npy_exact(&m, b, n, &e), DM_EFORMAT);
	ck_assert_msg_has(e, "malformed header");
	free(b);
	b = make_npy(1, H_OK, 6, &n);
	b[6] = 4;
	ck_assert_int_eq(npy_exact(&m, b, n, &e), DM_EFORMAT);
	ck_assert_msg_has(e, "unsupported .npy format version 4.0");
	b[6] = 1;
	b[7] = 1;
	ck_assert_int_eq(npy_exact(&m, b, n, &e), DM_EFORMAT);
	ck_assert_msg_has(e, "version 1.1");
	b[7] = 0;
	b[0] = 'X';
	ck_assert_int_eq(npy_exact(&m, b, n, &e), DM_EFORMAT);
	ck_assert_msg_has(e, "not a .npy file (bad magic)");
	ck_assert_int_eq(npy_exact(&m, "abc", 3, &e), DM_EFORMAT);
	ck_assert_msg_has(e, "not a .npy file (bad magic)");
	ck_assert_int_eq(npy_exact(&m, "", 0, &e), DM_EFORMAT);
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
	unsigned char *b = make_npy(1, H_OK, 6, &n);
	b[10 + 3] = '\0'; /* inside the 'descr' key */
	ck_assert_int_eq(npy_exact(&m, b, n, &e), DM_EFORMAT);
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
	expect_hdr_bad("{'descr': '<f8', 'fortran_order': True, 'shape': (3, 2)}",
		       "Fortran order is not supported");
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
	unsigned char *b = make_npy(1, H_OK, 0, &n);
	b[8] = 0xff;
	b[9] = 0xff;
	ck_assert_int_eq(npy_exact(&m, b, n, &e), DM_EFORMAT);
	ck_assert_msg_has(e, "header is truncated");
	free(b);
	b = make_npy(2, H_OK, 0, &n);
	b[8] = b[9] = b[10] = b[11] = 0xff;
	ck_assert_int_eq(npy_exact(&m, b, n, &e), DM_EFORMAT);
	ck_assert_msg_has(e, "header is truncated");
	/* A length of 0: an empty header, which is no dictionary. */
	b[8] = b[9] = b[10] = b[11] = 0;
	ck_assert_int_eq(npy_exact(&m, b, n, &e), DM_EFORMAT);
	ck_assert_msg_has(e, "malformed header: not a dictionary");
	free(b);
}
END_TEST

/* ---- truncation and damage ---- */

static void every_prefix(const char *fixture, size_t data_bytes)
{
	size_t n;
	unsigned char *b = get_file(fixture, &n);
	size_t data_at = n - data_bytes;
	for (size_t k = 0; k < n; k++) {
		struct mat m;
		struct dm_err e;
		dm_err_clear(&e);
		ck_assert_msg(npy_exact(&m, b, k, &e) == DM_EFORMAT, "%s prefix %zu accepted",
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
	unsigned char *b = get_file(DATA "f64.npy", &n);
	for (size_t i = 0; i + 48 < n; i++) {
		unsigned char keep = b[i];
		for (size_t p = 0; p < sizeof probes; p++) {
			struct mat m;
			struct dm_err e;
			int rc;
			b[i] = probes[p];
			rc = npy_exact(&m, b, n, &e);
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
	const char *path = tpath(0, "same.npy");
	struct mat f, m;
	struct dm_err ef, em;
	put_file(path, b, n);
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
		unsigned char *b = get_file(path, &n);
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
		unsigned char *b = make_npy(t == 2 ? 2 : 1, hdr, rows * cols, &len);
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
		put_file(tpath(1, "big.npy"), b, n);
		ck_assert_int_eq(matio_read(tpath(1, "big.npy"), &m, 0, &e), 0);
		size_t wrong = 0; /* counted, then one assertion: Check logs each */
		for (size_t i = 0; i < rows * cols; i++)
			wrong += m.data[i] != (double)i * (i % 2 ? -1 : 1);
		ck_assert_uint_eq(wrong, 0);
		mat_free(&m);
		free(b);
	}
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
		ck_assert_msg(bits(m.data[i]) == bits(want[i]), "[%zu] = %.17g, want %.17g", i,
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
	ck_assert_int_eq(matio_write(tpath(0, "l.csv"), &m, &e), 0);
	t = (char *)get_file(tpath(0, "l.csv"), &n);
	ck_assert_uint_eq(n, 9);
	ck_assert(memcmp(t, "0.5,1.25\n", 9) == 0);
	ck_assert_int_eq(matio_read(tpath(0, "l.csv"), &r, 0, &e), 0);
	ck_assert(r.data[1] == 1.25);
	mat_free(&r);
	free(t);
	mat_free(&m);
	setlocale(LC_ALL, "C");
}
END_TEST

/* ---- files ---- */

START_TEST(test_read_missing_and_dir)
{
	struct mat m;
	struct dm_err e;
	expect_read_fails(tpath(0, "a.npy"), DM_EIO, "a.npy: No such file or directory");
	ck_assert_int_eq(mkdir(tpath(0, "dir.npy"), 0755), 0);
	expect_read_fails(tpath(0, "dir.npy"), DM_EIO, "dir.npy: is a directory");
	ck_assert_int_eq(mkdir(tpath(0, "dir.csv"), 0755), 0);
	ck_assert_int_eq(matio_read(tpath(0, "dir.csv"), &m, 0, &e), DM_EIO);
	ck_assert_msg_has(e, "cannot read ");
	expect_read_fails(tpath(0, "nodir/x.csv"), DM_EIO, "cannot read");
}
END_TEST

START_TEST(test_read_unknown_ext)
{
	static const char t[] = "1,2\n";
	put_file(tpath(0, "x.txt"), t, sizeof t - 1);
	expect_read_fails(tpath(0, "x.txt"), DM_EFORMAT,
			  "x.txt: unknown file type (use .npy or .csv)");
	/* Checked before the file is looked at. */
	expect_read_fails("no/such/x.dat", DM_EFORMAT, "unknown file type");
}
END_TEST

START_TEST(test_read_by_extension)
{
	static const char t[] = "1,2\n3,4\n";
	struct mat m;
	struct dm_err e;
	put_file(tpath(0, "A.CSV"), t, sizeof t - 1);
	ck_assert_int_eq(matio_read(tpath(0, "A.CSV"), &m, 0, &e), 0);
	ck_assert(m.rows == 2 && m.cols == 2 && m.data[3] == 4.0);
	mat_free(&m);
	/* CSV text in a .npy: the extension decides, and the parser refuses. */
	put_file(tpath(0, "b.npy"), t, sizeof t - 1);
	expect_read_fails(tpath(0, "b.npy"), DM_EFORMAT, "b.npy: not a .npy file (bad magic)");
	put_file(tpath(0, "e.npy"), "", 0);
	expect_read_fails(tpath(0, "e.npy"), DM_EFORMAT, "empty file");
	put_file(tpath(0, "e.csv"), "", 0);
	expect_read_fails(tpath(0, "e.csv"), DM_EFORMAT, "e.csv: no data");
}
END_TEST

START_TEST(test_read_max_bytes)
{
	static const char t[] = "1,2\n3,4\n"; /* 8 bytes */
	struct mat m;
	struct dm_err e;
	put_file(tpath(0, "m.csv"), t, sizeof t - 1);
	ck_assert_int_eq(matio_read(tpath(0, "m.csv"), &m, 7, &e), DM_ENOMEM);
	ck_assert_msg_has(e, "m.csv: 8 bytes is more than the limit of 7");
	ck_assert_mat_empty(m);
	ck_assert_int_eq(matio_read(tpath(0, "m.csv"), &m, 8, &e), 0);
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

	ck_assert_int_eq(mkdir(tpath(0, "d.npy"), 0755), 0);
	dm_err_clear(&e);
	ck_assert_int_eq(matio_write(tpath(0, "d.npy"), &m, &e), DM_EIO);
	ck_assert_int_eq(e.code, DM_EIO);
	ck_assert_int_eq(count_entries(tmpdir), 1);
	ck_assert_int_eq(count_entries(tpath(0, "d.npy")), 0);

	ck_assert_int_eq(matio_write(tpath(0, "nodir/x.csv"), &m, &e), DM_EIO);
	ck_assert_msg_has(e, "nodir/x.csv");
	ck_assert_int_eq(matio_write(tpath(0, "nodir/x.npy"), &m, &e), DM_EIO);
	ck_assert_int_eq(count_entries(tmpdir), 1);

	ck_assert_int_eq(matio_write(tpath(0, "c.txt"), &m, &e), DM_EINVAL);
	ck_assert_msg_has(e, "c.txt: unknown file type (use .npy or .csv)");
	ck_assert_int_eq(count_entries(tmpdir), 1);
	mat_free(&m);

	ck_assert_int_eq(matio_write(tpath(0, "z.npy"), &m, &e), DM_EINVAL);
	ck_assert_msg_has(e, "empty matrix (0x0)");
	ck_assert_int_eq(count_entries(tmpdir), 1);
}
END_TEST

/* Writing over an existing file replaces it whole and leaves no temp. */
START_TEST(test_write_replaces)
{
	struct mat m, r;
	struct dm_err e;
	put_file(tpath(0, "o.csv"), "garbage", 7);
	ck_assert_int_eq(mat_alloc(&m, 1, 2, NULL), 0);
	m.data[0] = 1.0;
	m.data[1] = 2.0;
	ck_assert_int_eq(matio_write(tpath(0, "o.csv"), &m, &e), 0);
	ck_assert_int_eq(matio_read(tpath(0, "o.csv"), &r, 0, &e), 0);
	ck_assert(r.rows == 1 && r.cols == 2 && r.data[1] == 2.0);
	ck_assert_int_eq(count_entries(tmpdir), 1);
	mat_free(&r);
	mat_free(&m);
}
END_TEST

static TCase *tcase(const char *name, int tmp)
{
	TCase *tc = tcase_create(name);
	tcase_set_timeout(tc, 10);
	if (tmp)
		tcase_add_checked_fixture(tc, tmp_setup, tmp_teardown);
	return tc;
}

static Suite *matio_suite(void)
{
	Suite *s = suite_create("matio");
	TCase *tc;

	tc = tcase("kind", 0);
	tcase_add_test(tc, test_kind_of);
	suite_add_tcase(s, tc);

	tc = tcase("roundtrip", 1);
	tcase_add_test(tc, test_roundtrip_npy);
	tcase_add_test(tc, test_roundtrip_csv);
	tcase_add_test(tc, test_roundtrip_nonfinite);
	tcase_add_test(tc, test_write_matches_numpy);
	tcase_add_test(tc, test_write_npy_alignment);
	tcase_add_test(tc, test_write_csv_text);
	suite_add_tcase(s, tc);

	tc = tcase("npy_fixtures", 0);
	tcase_add_test(tc, test_fixture_f64);
	tcase_add_test(tc, test_fixture_v2_v3);
	tcase_add_test(tc, test_fixture_f32);
	tcase_add_test(tc, test_fixture_i64);
	tcase_add_test(tc, test_fixture_i32);
	tcase_add_test(tc, test_fixture_refusals);
	suite_add_tcase(s, tc);

	tc = tcase("npy_header", 0);
	tcase_add_test(tc, test_hdr_accepts);
	tcase_add_test(tc, test_hdr_versions);
	tcase_add_test(tc, test_hdr_malformed);
	tcase_add_test(tc, test_hdr_nul_in_header);
	tcase_add_test(tc, test_hdr_types);
	tcase_add_test(tc, test_hdr_shapes);
	tcase_add_test(tc, test_hdr_trailing_data);
	tcase_add_test(tc, test_hdr_length_lies);
	suite_add_tcase(s, tc);

	tc = tcase("npy_damage", 0);
	tcase_add_test(tc, test_truncated_everywhere);
	tcase_add_test(tc, test_header_damage);
	suite_add_tcase(s, tc);

	tc = tcase("csv", 1);
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

	tc = tcase("files", 1);
	tcase_add_test(tc, test_read_missing_and_dir);
	tcase_add_test(tc, test_read_unknown_ext);
	tcase_add_test(tc, test_read_by_extension);
	tcase_add_test(tc, test_read_max_bytes);
	tcase_add_test(tc, test_write_failures);
	tcase_add_test(tc, test_write_replaces);
	suite_add_tcase(s, tc);

	tc = tcase("npy_files", 1);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_file_reads_as_bytes);
	tcase_add_test(tc, test_file_big_in_place);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(matio_suite());
	int failed;
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
