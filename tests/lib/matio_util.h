/* matio_util: what the .npy, CSV and file-level matio suites share: a fresh
 * mkdtemp() directory per test (a checked fixture), whole files in and out,
 * exact-size heap copies to parse (so a sanitizer build catches any read
 * past the end), .npy images made in memory, and a refused read.  The
 * helpers that assert are in matio_util.c; the one-liners are inline here. */
#ifndef MATIO_UTIL_H
#define MATIO_UTIL_H

#include <check.h>
#include <stdint.h>
#include <string.h>

#include <distmm/matio.h>

/* The numpy-made fixtures (tests/data/gen_fixtures.py made them); the suites
 * run from the repository root. */
#define DATA "tests/data/"

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

/* The test's directory while mt_tmp_setup's fixture holds. */
extern char mt_tmpdir[64];

/* A test case with a 10 s timeout and, when tmp is set, a directory of its
 * own (made before each test, removed with its contents after). */
TCase *mt_tcase(const char *name, int tmp);

/* mt_tmpdir/name; two slots so a test can hold two paths at once. */
const char *mt_path(int slot, const char *name);

void mt_put_file(const char *path, const void *b, size_t n);

/* Reads a whole file (a fixture) into a malloc'd buffer of its exact size. */
unsigned char *mt_get_file(const char *path, size_t *n);

/* npy_parse of b[0..n) named "t.npy", from an exact-size heap copy. */
int mt_npy_exact(struct mat *m, const void *b, size_t n, struct dm_err *err);

/* A .npy image with the given version and header text (padded with spaces
 * and '\n' to a multiple of 64 as numpy does), followed by nvals float64
 * values 0, 1, 2, ... */
unsigned char *mt_make_npy(int major, const char *hdr, size_t nvals, size_t *len);

/* matio_read of path fails with code, a message holding sub and an empty
 * matrix. */
void mt_expect_read_fails(const char *path, int code, const char *sub);

static inline uint64_t mt_bits(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof u);
	return u;
}

#endif
