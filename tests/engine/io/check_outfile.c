/* check_outfile: the all-or-nothing writer (engine/io/outfile.c,
 * <distmm/outfile.h>): nothing under the target's name until the rename,
 * no temporary file left by a commit, an abort or a failure, in-place
 * writes for what a rename would replace, and the registry of temporary
 * files that outfile_unlink_pending() empties: from a real signal handler,
 * beyond its capacity, and with threads claiming slots at once.  matio's
 * and the traces' use of it are check_matfiles' and check_trace_*'s. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <distmm/outfile.h>
#include "core/fault.h"
#include "matio_util.h"
#include "testutil.h"

/* The entries of mt_tmpdir, names joined by spaces, and how many. */
static int listing(char *buf, size_t size)
{
	DIR *d = opendir(mt_tmpdir);
	struct dirent *de;
	int n = 0;
	ck_assert_ptr_nonnull(d);
	buf[0] = '\0';
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		n++;
		strncat(buf, de->d_name, size - strlen(buf) - 2);
		strcat(buf, " ");
	}
	closedir(d);
	return n;
}

static int entries(void)
{
	char buf[4096];
	return listing(buf, sizeof buf);
}

static int exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

static void put(struct outfile *f, const char *text)
{
	ck_assert_int_ge(fputs(text, f->fp), 0);
}

/* The whole of a small file, or "" when it is missing. */
static const char *contents(const char *path)
{
	static char buf[256];
	FILE *fp = fopen(path, "r");
	size_t n = 0;
	if (fp) {
		n = fread(buf, 1, sizeof buf - 1, fp);
		fclose(fp);
	}
	buf[n] = '\0';
	return buf;
}

/* ---- the life of one file ---- */

START_TEST(test_commit)
{
	struct outfile f;
	struct dm_err e;
	char names[4096];
	const char *path = mt_path(0, "c.txt");
	mode_t old = umask(027);
	ck_assert_int_eq(outfile_open(&f, path, &e), 0);
	umask(old);
	ck_assert_ptr_nonnull(f.tmp);
	ck_assert_int_ge(f.slot, 0);
	put(&f, "one\n");
	/* only the hidden temporary file beside the target so far */
	ck_assert_int_eq(listing(names, sizeof names), 1);
	ck_assert_msg(strncmp(names, ".c.txt.", 7) == 0, "temporary file %s", names);
	ck_assert(!exists(path));
	ck_assert_int_eq(outfile_commit(&f, &e), 0);
	ck_assert_str_eq(contents(path), "one\n");
	ck_assert_int_eq(entries(), 1);
	ck_assert_ptr_null(f.tmp);
	ck_assert_int_eq(f.slot, -1);
	struct stat st;
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0640); /* what fopen under umask 027 gives */
	outfile_abort(&f); /* harmless once committed */
	ck_assert_str_eq(contents(path), "one\n");
}
END_TEST

/* Written over an existing file: the old one stays whole until the rename,
 * and stays as it was after an abort. */
START_TEST(test_replace_and_abort)
{
	struct outfile f;
	struct dm_err e;
	const char *path = mt_path(0, "r.txt");
	mt_put_file(path, "old\n", 4);
	ck_assert_int_eq(outfile_open(&f, path, &e), 0);
	put(&f, "new\n");
	ck_assert_int_eq(outfile_finish(&f, &e), 0);
	ck_assert_ptr_null(f.fp);
	ck_assert_str_eq(contents(path), "old\n");
	ck_assert_int_eq(entries(), 2);
	ck_assert_int_eq(outfile_rename(&f, &e), 0);
	ck_assert_str_eq(contents(path), "new\n");
	ck_assert_int_eq(entries(), 1);

	ck_assert_int_eq(outfile_open(&f, path, &e), 0);
	put(&f, "lost\n");
	outfile_abort(&f);
	ck_assert_str_eq(contents(path), "new\n");
	ck_assert_int_eq(entries(), 1);
	outfile_abort(&f); /* twice: nothing more */
	ck_assert_int_eq(entries(), 1);
}
END_TEST

/* A symbolic link is written through (it stays a link), a directory and a
 * missing folder are refused, and nothing is made beside them. */
START_TEST(test_in_place_and_refused)
{
	struct outfile f;
	struct dm_err e;
	const char *target = mt_path(0, "t.txt"), *link = mt_path(1, "l.txt");
	mt_put_file(target, "", 0);
	ck_assert_int_eq(symlink(target, link), 0);
	ck_assert_int_eq(outfile_open(&f, link, &e), 0);
	ck_assert_ptr_null(f.tmp);
	ck_assert_int_eq(f.slot, -1);
	put(&f, "through\n");
	ck_assert_int_eq(outfile_commit(&f, &e), 0);
	struct stat st;
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	ck_assert_str_eq(contents(target), "through\n");
	ck_assert_int_eq(entries(), 2);

	ck_assert_int_eq(outfile_open(&f, mt_tmpdir, &e), DM_EIO);
	ck_assert_msg_has(e, "it is a directory");
	ck_assert_int_eq(outfile_open(&f, mt_path(0, "no/such.txt"), &e), DM_EIO);
	ck_assert_msg_has(e, "No such file or directory");
	ck_assert_msg_has(e, "no/such.txt");
	ck_assert_ptr_null(f.path);
	ck_assert_int_eq(entries(), 2);
}
END_TEST

/* A write that fails (the device is full) is found at the finish, says
 * why, and removes its temporary file. */
START_TEST(test_full_device)
{
	struct outfile f;
	struct dm_err e;
	const char *link = mt_path(0, "full.txt");
	ck_assert_int_eq(symlink("/dev/full", link), 0);
	ck_assert_int_eq(outfile_open(&f, link, &e), 0);
	for (int i = 0; i < 2000; i++)
		fputs("a line that fills the buffer\n", f.fp);
	ck_assert_int_eq(outfile_commit(&f, &e), DM_EIO);
	ck_assert_msg_has(e, "No space left on device");
	ck_assert_int_eq(entries(), 1);
}
END_TEST

/* Every allocation that fails is DM_ENOMEM, with nothing left behind. */
START_TEST(test_out_of_memory)
{
	struct outfile f;
	struct dm_err e;
	int failed = 0;
	for (long k = 1; k < 10; k++) {
		fault_reset();
		fault_fail_alloc_at(k);
		int rc = outfile_open(&f, mt_path(0, "m.txt"), &e);
		long asked = fault_alloc_count();
		fault_reset();
		if (rc == 0) {
			ck_assert_int_lt(asked, k); /* it did not get that far */
			outfile_abort(&f);
			break;
		}
		failed++;
		ck_assert_int_eq(rc, DM_ENOMEM);
		ck_assert_msg_has(e, "out of memory writing");
		ck_assert_int_eq(entries(), 0);
	}
	ck_assert_int_eq(failed, 2); /* the target's name and the temporary's */
	ck_assert_int_eq(entries(), 0);
}
END_TEST

/* ---- the registry ---- */

/* Open, finished and committed files: the first two are removed, the
 * committed one stays, and their owners' rename then fails. */
START_TEST(test_unlink_pending)
{
	struct outfile open_f, done_f, kept_f;
	struct dm_err e;
	ck_assert_int_eq(outfile_open(&kept_f, mt_path(0, "kept.txt"), &e), 0);
	put(&kept_f, "kept\n");
	ck_assert_int_eq(outfile_commit(&kept_f, &e), 0);
	ck_assert_int_eq(outfile_open(&open_f, mt_path(0, "open.txt"), &e), 0);
	ck_assert_int_eq(outfile_open(&done_f, mt_path(1, "done.txt"), &e), 0);
	put(&done_f, "done\n");
	ck_assert_int_eq(outfile_finish(&done_f, &e), 0);
	ck_assert_int_eq(entries(), 3);
	outfile_unlink_pending();
	ck_assert_int_eq(entries(), 1);
	ck_assert_str_eq(contents(mt_path(0, "kept.txt")), "kept\n");
	ck_assert_int_eq(outfile_rename(&done_f, &e), DM_EIO);
	ck_assert(!exists(mt_path(1, "done.txt")));
	outfile_abort(&open_f);
	ck_assert_int_eq(entries(), 1);
}
END_TEST

/* Past OUTFILE_PENDING_MAX the files are written as usual but not
 * registered; slots freed are taken again. */
START_TEST(test_registry_full)
{
	enum { N = OUTFILE_PENDING_MAX + 3 };
	struct outfile f[N];
	struct dm_err e;
	char name[32];
	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof name, "f%02d.txt", i);
		ck_assert_int_eq(outfile_open(&f[i], mt_path(0, name), &e), 0);
		ck_assert_int_eq(f[i].slot, i < OUTFILE_PENDING_MAX ? i : -1);
	}
	outfile_unlink_pending();
	ck_assert_int_eq(entries(), N - OUTFILE_PENDING_MAX);
	for (int i = 0; i < N; i++)
		outfile_abort(&f[i]);
	ck_assert_int_eq(entries(), 0);
	/* the slots are free again */
	ck_assert_int_eq(outfile_open(&f[0], mt_path(0, "again.txt"), &e), 0);
	ck_assert_int_ge(f[0].slot, 0);
	outfile_unlink_pending();
	ck_assert_int_eq(entries(), 0);
	outfile_abort(&f[0]);
}
END_TEST

static void on_term(int sig)
{
	outfile_unlink_pending();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* A handler that calls it, in a child killed mid-write: the child dies of
 * the signal and leaves no file. */
START_TEST(test_from_a_signal_handler)
{
	int ready[2];
	ck_assert_int_eq(pipe(ready), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct outfile f;
		struct dm_err e;
		signal(SIGTERM, on_term);
		if (outfile_open(&f, mt_path(0, "big.txt"), &e) != 0)
			_exit(3);
		char c = 1;
		if (write(ready[1], &c, 1) != 1)
			_exit(4);
		for (;;)
			fputs("writing, and writing, and writing\n", f.fp);
	}
	char c;
	close(ready[1]);
	ck_assert_int_eq(read(ready[0], &c, 1), 1);
	close(ready[0]);
	ck_assert_int_eq(entries(), 1);
	ck_assert_int_eq(kill(pid, SIGTERM), 0);
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM, "status %#x", st);
	ck_assert_int_eq(entries(), 0);
}
END_TEST

#define THREADS 4
#define PER_THREAD 60

static void *writer(void *arg)
{
	int t = *(int *)arg;
	char path[128]; /* mt_path's buffer is one for all threads */
	struct dm_err e;
	for (int i = 0; i < PER_THREAD; i++) {
		struct outfile f;
		snprintf(path, sizeof path, "%s/t%d-%02d.txt", mt_tmpdir, t, i);
		if (outfile_open(&f, path, &e) != 0)
			return "open";
		fprintf(f.fp, "%d %d\n", t, i);
		if (i % 3 == 2) {
			outfile_abort(&f);
			continue;
		}
		if (outfile_commit(&f, &e) != 0)
			return "commit";
	}
	return NULL;
}

/* Threads claiming and freeing slots at once (TSan watches): every file
 * committed is there, whole, and no temporary file is left. */
START_TEST(test_threads)
{
	pthread_t th[THREADS];
	int id[THREADS];
	for (int t = 0; t < THREADS; t++) {
		id[t] = t;
		ck_assert_int_eq(pthread_create(&th[t], NULL, writer, &id[t]), 0);
	}
	for (int t = 0; t < THREADS; t++) {
		void *res;
		pthread_join(th[t], &res);
		ck_assert_msg(res == NULL, "thread %d: %s failed", t, (const char *)res);
	}
	char name[32], want[32];
	for (int t = 0; t < THREADS; t++)
		for (int i = 0; i < PER_THREAD; i++) {
			snprintf(name, sizeof name, "t%d-%02d.txt", t, i);
			snprintf(want, sizeof want, "%d %d\n", t, i);
			ck_assert_str_eq(contents(mt_path(0, name)), i % 3 == 2 ? "" : want);
		}
	ck_assert_int_eq(entries(), THREADS * (PER_THREAD - PER_THREAD / 3));
	outfile_unlink_pending();
	ck_assert_int_eq(entries(), THREADS * (PER_THREAD - PER_THREAD / 3));
}
END_TEST

static Suite *outfile_suite(void)
{
	Suite *s = suite_create("outfile");
	TCase *tc = mt_tcase("one file", 1);
	tcase_add_test(tc, test_commit);
	tcase_add_test(tc, test_replace_and_abort);
	tcase_add_test(tc, test_in_place_and_refused);
	tcase_add_test(tc, test_full_device);
	tcase_add_test(tc, test_out_of_memory);
	suite_add_tcase(s, tc);
	tc = mt_tcase("the registry", 1);
	tcase_add_test(tc, test_unlink_pending);
	tcase_add_test(tc, test_registry_full);
	tcase_add_test(tc, test_from_a_signal_handler);
	tcase_add_test(tc, test_threads);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(outfile_suite());
}
