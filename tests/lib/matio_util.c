/* matio_util: the matio suites' shared helpers (see matio_util.h).  Each
 * test gets an empty directory of its own, so no test sees another's files
 * and a test can count what a failed write left behind. */
#include "matio_util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

char mt_tmpdir[64];
static char pathbuf[2][256];

static void tmp_setup(void)
{
	strcpy(mt_tmpdir, "/tmp/matio_test.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(mt_tmpdir));
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
	rm_tree(mt_tmpdir);
}

TCase *mt_tcase(const char *name, int tmp)
{
	TCase *tc = tcase_create(name);
	tcase_set_timeout(tc, 10);
	if (tmp)
		tcase_add_checked_fixture(tc, tmp_setup, tmp_teardown);
	return tc;
}

const char *mt_path(int slot, const char *name)
{
	snprintf(pathbuf[slot], sizeof pathbuf[slot], "%s/%s", mt_tmpdir, name);
	return pathbuf[slot];
}

void mt_put_file(const char *path, const void *b, size_t n)
{
	FILE *fp = fopen(path, "wb");
	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fwrite(b, 1, n, fp), n);
	ck_assert_int_eq(fclose(fp), 0);
}

unsigned char *mt_get_file(const char *path, size_t *n)
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

int mt_npy_exact(struct mat *m, const void *b, size_t n, struct dm_err *err)
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

unsigned char *mt_make_npy(int major, const char *hdr, size_t nvals, size_t *len)
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

void mt_expect_read_fails(const char *path, int code, const char *sub)
{
	struct mat m;
	struct dm_err e;
	dm_err_clear(&e);
	ck_assert_int_eq(matio_read(path, &m, 0, &e), code);
	ck_assert_int_eq(e.code, code);
	ck_assert_msg_has(e, sub);
	ck_assert_mat_empty(m);
}
