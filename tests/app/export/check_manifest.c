/* check_manifest: the list of stills an SVG export keeps in its final
 * still.  Written then read back the same; a manifest of another name, a
 * damaged one or none reads as empty (so nothing is removed); the sum is
 * of the file's bytes, and a link or a folder has none. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/manifest.h"

static char dir[] = "/tmp/check_manifest.XXXXXX";

static void put(const char *name, const char *text)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	fclose(fp);
}

/* name in the test's folder; two at once (symlink's two arguments) */
static char *at(const char *name)
{
	static char path[2][256];
	static int k;
	k ^= 1;
	snprintf(path[k], sizeof path[k], "%s/%s", dir, name);
	return path[k];
}

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
	strcpy(dir, "/tmp/check_manifest.XXXXXX");
}

/* A final still with the manifest of e[0..n-1] for base. */
static void final_still(const char *name, const char *base, const struct manifest_entry *e, int n)
{
	FILE *fp = fopen(at(name), "w");
	ck_assert_ptr_nonnull(fp);
	fputs("<?xml version=\"1.0\"?>\n<svg><title>t</title></svg>\n", fp);
	manifest_write(fp, base, e, n);
	fclose(fp);
}

START_TEST(written_then_read_the_same)
{
	struct manifest_entry e[3] = { { 0, 10, 0x1234 }, { 1, 0, 0xffffffffffffffffull },
				       { 2, 123456789, 7 } }, *r;
	int n;
	final_still("my -- talk.svg", "my -- talk", e, 3);
	ck_assert_int_eq(manifest_read(at("my -- talk.svg"), "my -- talk", &r, &n), 0);
	ck_assert_int_eq(n, 3);
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(r[i].index, e[i].index);
		ck_assert_int_eq(r[i].size, e[i].size);
		ck_assert_uint_eq(r[i].hash, e[i].hash);
	}
	free(r);
	/* "--" never inside the comment: the name is written %2d */
	char buf[4096];
	FILE *fp = fopen(at("my -- talk.svg"), "r");
	size_t len = fread(buf, 1, sizeof buf - 1, fp);
	fclose(fp);
	buf[len] = '\0';
	char *c = strstr(buf, "<!--");
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_eq(strstr(c + 4, "--"), strstr(c + 4, "-->"));
}
END_TEST

START_TEST(another_name_a_damaged_list_or_none_reads_empty)
{
	struct manifest_entry e[1] = { { 0, 10, 0x1234 } }, *r;
	int n;
	final_still("a.svg", "a", e, 1);
	ck_assert_int_eq(manifest_read(at("a.svg"), "b", &r, &n), 0); /* renamed: not b's */
	ck_assert_int_eq(n, 0);
	ck_assert_int_eq(manifest_read(at("a.svg"), "a", &r, &n), 0);
	ck_assert_int_eq(n, 1);
	free(r);
	put("none.svg", "<svg/>\n");
	ck_assert_int_eq(manifest_read(at("none.svg"), "none", &r, &n), 0);
	ck_assert_int_eq(n, 0);
	put("bad.svg", "<svg/>\n<!-- distmm-tui stills\nbase bad\n000 10 1234\n001 x 12\n-->\n");
	ck_assert_int_eq(manifest_read(at("bad.svg"), "bad", &r, &n), 0);
	ck_assert_int_eq(n, 0);
	put("cut.svg", "<svg/>\n<!-- distmm-tui stills\nbase cut\n000 10 1234\n");
	ck_assert_int_eq(manifest_read(at("cut.svg"), "cut", &r, &n), 0);
	ck_assert_int_eq(n, 0);
	ck_assert_int_eq(manifest_read(at("missing.svg"), "missing", &r, &n), 0);
	ck_assert_int_eq(n, 0);
	ck_assert_int_eq(symlink(at("a.svg"), at("link.svg")), 0);
	ck_assert_int_eq(manifest_read(at("link.svg"), "a", &r, &n), 0); /* never through a link */
	ck_assert_int_eq(n, 0);
}
END_TEST

START_TEST(the_sum_is_of_the_bytes_of_a_regular_file)
{
	long long s1, s2;
	uint64_t h1, h2;
	put("x", "hello");
	ck_assert_int_eq(manifest_sum(at("x"), &s1, &h1), 0);
	ck_assert_int_eq(s1, 5);
	ck_assert_uint_eq(h1, 0xa430d84680aabd0bull); /* FNV-1a 64 of "hello" */
	put("x", "hellp");
	ck_assert_int_eq(manifest_sum(at("x"), &s2, &h2), 0);
	ck_assert_uint_ne(h1, h2);
	ck_assert_int_eq(symlink(at("x"), at("y")), 0);
	ck_assert_int_eq(manifest_sum(at("y"), &s2, &h2), -1);
	ck_assert_int_eq(manifest_sum(dir, &s2, &h2), -1);
	ck_assert_int_eq(manifest_sum("/dev/null", &s2, &h2), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("manifest");
	TCase *tc = tcase_create("manifest");
	tcase_set_timeout(tc, 30);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, written_then_read_the_same);
	tcase_add_test(tc, another_name_a_damaged_list_or_none_reads_empty);
	tcase_add_test(tc, the_sum_is_of_the_bytes_of_a_regular_file);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
