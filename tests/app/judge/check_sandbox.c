/* check_sandbox: the judge's sandbox as a command line (app/judge/sandbox.c),
 * without running it: every namespace asked for, nothing of the host bound
 * writable, /tmp a tmpfs made before what is bound under it, the solution
 * copied to its own path, a python outside the system bound with its
 * prefix; the limits; which of bwrap's lines mean "no sandbox"; the
 * environment kept; the refusals when there is no bwrap.  judge_test.sh
 * runs the sandbox for real against hostile files. */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "judge/sandbox.h"
#include "testutil.h"

static char sb_dir[64], sb_file[PATH_MAX];

static void sb_setup(void)
{
	snprintf(sb_dir, sizeof sb_dir, "/tmp/check_sandbox.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(sb_dir));
	snprintf(sb_file, sizeof sb_file, "%s/sol.py", sb_dir);
	FILE *f = fopen(sb_file, "w");
	ck_assert_ptr_nonnull(f);
	fputs("def dp_mat_mul(a, b, n):\n    return a @ b\n", f);
	fclose(f);
	/* any executable path: the command is built, never run */
	setenv(SANDBOX_BWRAP_ENV, "/bin/true", 1);
}

static void sb_teardown(void)
{
	unlink(sb_file);
	rmdir(sb_dir);
	unsetenv(SANDBOX_BWRAP_ENV);
}

/* The index of the first argument equal to a (then b, c when given, in a
 * row) at or after from, or -1. */
static int sb_find(char *const *argv, int from, const char *a, const char *b, const char *c)
{
	for (int i = from; argv[i]; i++) {
		if (strcmp(argv[i], a) != 0)
			continue;
		if (b && (!argv[i + 1] || strcmp(argv[i + 1], b) != 0))
			continue;
		if (c && (!argv[i + 2] || strcmp(argv[i + 2], c) != 0))
			continue;
		return i;
	}
	return -1;
}

static char *sb_py_argv[] = { "python", "-c", "BOOT", "distmm-judge", "sol.py", NULL };

START_TEST(every_namespace_and_nothing_writable)
{
	struct sandbox s;
	struct dm_err err;
	const char *path = NULL;
	ck_assert_int_eq(sandbox_open(&s, sb_file, 0, &err), 0);
	ck_assert_int_eq(s.on, 1);
	ck_assert_int_ge(s.file_fd, 0);
	ck_assert_int_eq(sandbox_command(&s, "/usr/bin/python3", sb_py_argv, &path), 0);
	ck_assert_str_eq(path, "/bin/true");
	char *const *v = s.argv;
	static const char *const flags[] = { "--unshare-all", "--unshare-user", "--disable-userns",
					     "--die-with-parent", "--as-pid-1" };
	for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
		ck_assert_msg(sb_find(v, 0, flags[i], NULL, NULL) > 0, "no %s", flags[i]);
	/* the network is never shared, nothing of the host is bound writable */
	ck_assert_int_eq(sb_find(v, 0, "--share-net", NULL, NULL), -1);
	ck_assert_int_eq(sb_find(v, 0, "--bind", NULL, NULL), -1);
	ck_assert_int_eq(sb_find(v, 0, "--dev-bind", NULL, NULL), -1);
	ck_assert_int_gt(sb_find(v, 0, "--ro-bind", "/usr", "/usr"), 0);
	ck_assert_int_gt(sb_find(v, 0, "--ro-bind", "/etc", "/etc"), 0);
	ck_assert_int_gt(sb_find(v, 0, "--remount-ro", "/dev", NULL), 0);
	ck_assert_int_gt(sb_find(v, 0, "--proc", "/proc", NULL), 0);
	/* /tmp a sized tmpfs, then the solution's copy at its own (real) path */
	char real[PATH_MAX];
	ck_assert_ptr_nonnull(realpath(sb_file, real));
	int tmp = sb_find(v, 0, "--tmpfs", "/tmp", NULL);
	int data = sb_find(v, 0, "--ro-bind-data", "3", real);
	ck_assert_int_gt(tmp, 0);
	ck_assert_str_eq(v[tmp - 2], "--size");
	ck_assert_int_gt(data, tmp);
	ck_assert_str_eq(s.inside, real);
	/* the root read-only last, then the python and its arguments */
	int ro = sb_find(v, 0, "--remount-ro", "/", NULL);
	int dash = sb_find(v, 0, "--", "/usr/bin/python3", "-c");
	ck_assert_int_gt(ro, data);
	ck_assert_int_eq(dash, ro + 2);
	ck_assert_str_eq(v[dash + 3], "BOOT");
	ck_assert_str_eq(v[dash + 5], "sol.py");
	ck_assert_ptr_null(v[dash + 6]);
	/* a python in /usr needs no bind of its own */
	ck_assert_int_eq(sb_find(v, dash, "--ro-bind", NULL, NULL), -1);
	sandbox_close(&s);
	ck_assert_int_eq(s.file_fd, -1);
}
END_TEST

START_TEST(a_python_outside_the_system_brings_its_prefix)
{
	struct sandbox s;
	struct dm_err err;
	const char *path;
	ck_assert_int_eq(sandbox_open(&s, sb_file, 0, &err), 0);
	/* a venv: the prefix above bin/ */
	ck_assert_int_eq(sandbox_command(&s, "/opt/venv/bin/python", sb_py_argv, &path), 0);
	ck_assert_int_gt(sb_find(s.argv, 0, "--ro-bind", "/opt/venv", "/opt/venv"), 0);
	ck_assert_int_gt(sb_find(s.argv, 0, "--", "/opt/venv/bin/python", NULL), 0);
	/* under /tmp: bound over the scratch tmpfs, after it */
	ck_assert_int_eq(sandbox_command(&s, "/tmp/x/py3", sb_py_argv, &path), 0);
	int bind = sb_find(s.argv, 0, "--ro-bind", "/tmp/x", "/tmp/x");
	ck_assert_int_gt(bind, sb_find(s.argv, 0, "--tmpfs", "/tmp", NULL));
	/* /tmp itself would hide the scratch: the file alone */
	ck_assert_int_eq(sandbox_command(&s, "/tmp/py3", sb_py_argv, &path), 0);
	ck_assert_int_gt(sb_find(s.argv, 0, "--ro-bind", "/tmp/py3", "/tmp/py3"), 0);
	ck_assert_int_eq(sb_find(s.argv, 0, "--ro-bind", "/tmp", "/tmp"), -1);
	sandbox_close(&s);
}
END_TEST

START_TEST(limits_follow_the_time_limit_and_n)
{
	char buf[160];
	unsigned long long as, cpu, fsize;
	int nproc, nofile;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	ck_assert_int_eq(sandbox_limits(buf, sizeof buf, 3000, 3000, 8), 0);
	ck_assert_int_eq(sscanf(buf, SANDBOX_LIMITS_ENV "=as:%llu,cpu:%llu,nproc:%d,fsize:%llu,nofile:%d",
				&as, &cpu, &nproc, &fsize, &nofile), 5);
	ck_assert_uint_eq(as, (2ull << 30) + 8 * (16ull << 20));
	ck_assert_uint_eq(cpu, 6ull * (unsigned long long)(cpus < 1 ? 1 : cpus) + 1);
	ck_assert_int_eq(nproc, 64 + 4 * 8);
	ck_assert_uint_eq(fsize, 64ull << 20);
	ck_assert_int_eq(nofile, 256);
	/* a fraction of a second counts as a whole one */
	ck_assert_int_eq(sandbox_limits(buf, sizeof buf, 500, 3000, 1), 0);
	ck_assert_int_eq(sscanf(buf, SANDBOX_LIMITS_ENV "=as:%llu,cpu:%llu", &as, &cpu), 2);
	ck_assert_uint_eq(cpu, 4ull * (unsigned long long)(cpus < 1 ? 1 : cpus) + 1);
	ck_assert_int_eq(sandbox_limits(buf, 16, 3000, 3000, 8), -1);
}
END_TEST

START_TEST(bwraps_lines)
{
	ck_assert_int_eq(sandbox_failure("bwrap: execvp /nonexistent: No such file or directory"), 1);
	ck_assert_int_eq(sandbox_failure("bwrap: No permissions to creating new namespace, likely "
					 "because the kernel does not allow non-privileged user "
					 "namespaces."), 2);
	ck_assert_int_eq(sandbox_failure("bwrap: Can't find source path /x: Permission denied"), 2);
	ck_assert_int_eq(sandbox_failure("Traceback (most recent call last):"), 0);
	ck_assert_int_eq(sandbox_failure(""), 0);
}
END_TEST

START_TEST(the_environment_kept)
{
	static const char *const kept[] = { "PATH=/usr/bin", "LANG=C.UTF-8", "LC_ALL=C",
					    "TZ=UTC", "PYTHONPATH=/usr/lib/x", "PYTHONHOME=/usr" };
	static const char *const dropped[] = { "HOME=/root", "AWS_SECRET_ACCESS_KEY=x",
					       "SSH_AUTH_SOCK=/tmp/ssh", "PYTHONSTARTUP=/root/x.py",
					       "PYTHONINSPECT=1", "DISPLAY=:0", "PATHX=1" };
	for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++)
		ck_assert_msg(sandbox_env_keeps(kept[i]), "%s dropped", kept[i]);
	for (size_t i = 0; i < sizeof dropped / sizeof dropped[0]; i++)
		ck_assert_msg(!sandbox_env_keeps(dropped[i]), "%s kept", dropped[i]);
}
END_TEST

START_TEST(no_bwrap_is_refused)
{
	struct sandbox s;
	struct dm_err err;
	setenv(SANDBOX_BWRAP_ENV, "/nonexistent/bwrap", 1);
	ck_assert_int_eq(sandbox_open(&s, sb_file, 0, &err), DM_EIO);
	ck_assert_ptr_nonnull(strstr(err.msg, "DISTMM_BWRAP=/nonexistent/bwrap is not an executable"));
	ck_assert_ptr_nonnull(strstr(err.msg, "--judge-unconfined"));
	sandbox_close(&s);
	unsetenv(SANDBOX_BWRAP_ENV);
	char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	setenv("PATH", sb_dir, 1);
	ck_assert_int_eq(sandbox_open(&s, sb_file, 0, &err), DM_EIO);
	ck_assert_ptr_nonnull(strstr(err.msg, "bwrap is not on PATH: make deps installs it"));
	sandbox_close(&s);
	if (old)
		setenv("PATH", old, 1);
	free(old);
	/* unconfined: nothing is looked for, anything is reached */
	ck_assert_int_eq(sandbox_open(&s, sb_file, 1, &err), 0);
	ck_assert_int_eq(s.on, 0);
	ck_assert_int_eq(s.file_fd, -1);
	ck_assert_int_eq(sandbox_reaches(&s, "/root/.pyenv/shims/python3"), 1);
	sandbox_close(&s);
}
END_TEST

/* As root the code runs as SANDBOX_UID: a python only root can reach is
 * not one it can use; not there at all is its exec's to say. */
START_TEST(as_root_a_python_must_be_reachable)
{
	struct sandbox s;
	struct dm_err err;
	char py[PATH_MAX];
	ck_assert_int_eq(sandbox_open(&s, sb_file, 0, &err), 0);
	snprintf(py, sizeof py, "%s/python3", sb_dir);
	ck_assert_int_eq(symlink("/usr/bin/python3", py), 0);
	ck_assert_int_eq(chmod(sb_dir, 0700), 0);
	ck_assert_int_eq(sandbox_reaches(&s, py), !s.drop);
	ck_assert_int_eq(chmod(sb_dir, 0755), 0);
	ck_assert_int_eq(sandbox_reaches(&s, py), 1);
	ck_assert_int_eq(sandbox_reaches(&s, "/nonexistent/python3"), 1);
	ck_assert_int_eq(sandbox_reaches(&s, "/usr/bin/python3"), 1);
	unlink(py);
	sandbox_close(&s);
}
END_TEST

static Suite *sandbox_suite(void)
{
	Suite *s = suite_create("sandbox");
	TCase *tc = tcase_create("command");
	tcase_set_timeout(tc, 30);
	tcase_add_checked_fixture(tc, sb_setup, sb_teardown);
	tcase_add_test(tc, every_namespace_and_nothing_writable);
	tcase_add_test(tc, a_python_outside_the_system_brings_its_prefix);
	tcase_add_test(tc, limits_follow_the_time_limit_and_n);
	tcase_add_test(tc, bwraps_lines);
	tcase_add_test(tc, the_environment_kept);
	tcase_add_test(tc, no_bwrap_is_refused);
	tcase_add_test(tc, as_root_a_python_must_be_reachable);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(sandbox_suite());
}
