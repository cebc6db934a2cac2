/* Why bubblewrap: it is Flatpak's sandbox, kept and reviewed for exactly this (namespaces, uid
 * maps, no capabilities, no_new_privs); redoing it with unshare(2) is where the mistakes would be.
 *
 * sandbox: the confinement of the candidate's code (see sandbox.h).  The command is
 *
 *   bwrap --unshare-all --unshare-user --disable-userns --die-with-parent --as-pid-1
 *         --ro-bind /usr /usr --symlink usr/bin /bin ... --ro-bind /etc /etc
 *         --proc /proc --dev /dev --remount-ro /dev --size 134217728 --tmpfs /tmp
 *         [--ro-bind DIR DIR: a python outside the system, its directory or prefix]
 *         --ro-bind-data 3 SOLUTION --chdir /tmp --remount-ro / -- PYTHON -c BOOT ...
 *
 * (/bin, /sbin, /lib, /lib32, /lib64, /libx32: a link again where the host
 * has a link, a read-only bind where it has a directory.)
 *
 * - namespaces: user (no further ones inside), PID, network (a loopback
 *   alone: no connection leaves, no name resolves), IPC, UTS, cgroup;
 * - processes: the harness is the PID namespace's init (--as-pid-1), which
 *   the candidate's processes can neither see beyond nor signal (init gets no
 *   signal it has no handler for); after each run the harness kills every
 *   other process of the namespace and reaps them (jd_main.py), daemons
 *   included; when it dies the kernel kills the rest.  distmm-tui starts
 *   bwrap in a session of its own (child.c) whose group holds the harness
 *   too, so child_end's SIGKILL to the group ends it all; --die-with-parent
 *   and PR_SET_PDEATHSIG cover distmm-tui's own death;
 * - files: / is bwrap's empty tmpfs, read-only at the end; the system's
 *   directories are bound read-only; /tmp is a fresh tmpfs of 128 MiB, the
 *   only writable place, gone with the namespace (nothing to clean up on
 *   disk, and its size is bounded); the solution's bytes are copied by bwrap
 *   from a descriptor opened here into a read-only file at the solution's
 *   own absolute path, so its directory shows nothing else, and a path only
 *   root may enter still works; home directories, /work, /run, /var and the
 *   host's /tmp are not there at all;
 * - as root, the child drops to SANDBOX_UID before bwrap runs (child.c), so
 *   that bwrap is unprivileged: with the user namespace of a root bwrap the
 *   code would be uid 0 outside, able to read /etc/shadow as its owner;
 * - rlimits (sandbox_limits): set by the harness in each run's process
 *   before the candidate's code: inside the user namespace RLIMIT_NPROC
 *   counts only the sandbox's processes, and CPU time is a process's own.
 *
 * No seccomp filter: with no capabilities, no network, no controlling
 * terminal (TIOCSTI) and a harness that cannot be signalled or traced,
 * what a filter would add is a smaller kernel surface, at the price of an
 * architecture's BPF program kept here; bwrap's --seccomp can take one later.
 *
 * What it does not give: the candidate's code can still read the world-
 * readable system files, use CPU and memory up to the limits, and write
 * records of its own into its run's pipe: the evidence of what it did,
 * never a verdict (distmm-tui decides those, proto.c and decide.c). */
#include "judge/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "judge/child.h"

#define SANDBOX_TMP_BYTES (128u << 20)   /* the writable /tmp */
#define SANDBOX_AS_BYTES (2ull << 30)    /* what numpy cases need, with room */
#define SANDBOX_AS_PER_RANK (16ull << 20) /* a thread's stack and its malloc arena */
#define SANDBOX_FSIZE_BYTES (64ull << 20)
#define SANDBOX_NOFILE 256
#define SANDBOX_NPROC_BASE 64            /* the harness, the run, the watchdog, margin */
#define SANDBOX_NPROC_PER_RANK 4         /* a rank's thread, a receiving thread, ... */

/* The host's top-level names the system lives in: a link is made again
 * (merged /usr), a directory bound read-only. */
static const char *const sandbox_system[] = { "/usr", "/etc", "/bin", "/sbin", "/lib",
					       "/lib32", "/lib64", "/libx32" };
#define SANDBOX_SYSTEM (sizeof sandbox_system / sizeof sandbox_system[0])
_Static_assert(SANDBOX_SYSTEM == sizeof((struct sandbox *)0)->link /
		       sizeof((struct sandbox *)0)->link[0], "a link's target for each name");

/* Whether SANDBOX_UID may search (or, for the last name, execute) what st
 * says, from its mode bits (ACLs aside). */
static int sandbox_may(const struct stat *st)
{
	if (st->st_uid == SANDBOX_UID)
		return (st->st_mode & S_IXUSR) != 0;
	if (st->st_gid == SANDBOX_GID)
		return (st->st_mode & S_IXGRP) != 0;
	return (st->st_mode & S_IXOTH) != 0;
}

/* Every directory on the way to path, and path itself, is SANDBOX_UID's to
 * pass (or to execute).  A path that is not there is not refused here: its
 * exec says so, as it would unconfined. */
static int sandbox_walk(const char *path)
{
	char real[PATH_MAX];
	struct stat st;
	if (!realpath(path, real))
		return 1;
	for (char *p = real + 1;; p++) {
		char c = *p;
		if (c != '/' && c != '\0')
			continue;
		*p = '\0';
		int ok = stat(real, &st) == 0 && sandbox_may(&st);
		*p = c;
		if (!ok)
			return 0;
		if (c == '\0')
			return 1;
	}
}

int sandbox_open(struct sandbox *s, const char *file, int unconfined, struct dm_err *err)
{
	memset(s, 0, sizeof *s);
	s->file_fd = -1;
	if (unconfined)
		return 0;
	s->on = 1;
	const char *env = getenv(SANDBOX_BWRAP_ENV);
	if (env && *env) {
		if (child_which(env, s->bwrap, sizeof s->bwrap) != 0 || !strchr(env, '/'))
			return dm_err_set(err, DM_EIO, "--judge: %s=%s is not an executable path "
					  "(bubblewrap's bwrap, which confines your file's code; or "
					  "--judge-unconfined runs it with all of your rights)",
					  SANDBOX_BWRAP_ENV, env);
	} else if (child_which("bwrap", s->bwrap, sizeof s->bwrap) != 0) {
		return dm_err_set(err, DM_EIO, "--judge runs your file's code confined by bubblewrap, "
				  "and bwrap is not on PATH: make deps installs it (Debian: "
				  "bubblewrap); or --judge-unconfined runs it with all of your rights");
	}
	s->drop = geteuid() == 0;
	if (s->drop && !sandbox_walk(s->bwrap))
		return dm_err_set(err, DM_EIO, "--judge: %s: the sandbox starts as uid %d, which "
				  "cannot reach it (install bubblewrap: make deps; or "
				  "--judge-unconfined runs your file with all of your rights)", s->bwrap,
				  SANDBOX_UID);
	if (!realpath(file, s->inside))
		return dm_err_set(err, DM_EIO, "cannot read %s: %s", file, strerror(errno));
	s->file_fd = open(file, O_RDONLY | O_CLOEXEC);
	if (s->file_fd < 0)
		return dm_err_set(err, DM_EIO, "cannot read %s: %s", file, strerror(errno));
	return 0;
}

void sandbox_close(struct sandbox *s)
{
	if (s->file_fd >= 0)
		close(s->file_fd);
	s->file_fd = -1;
}

/* Whether path is in (or is) one of the system's directories bound. */
static int sandbox_in_system(const char *path)
{
	for (size_t i = 0; i < SANDBOX_SYSTEM; i++) {
		size_t n = strlen(sandbox_system[i]);
		if (strncmp(path, sandbox_system[i], n) == 0 && (path[n] == '/' || path[n] == '\0'))
			return 1;
	}
	return 0;
}

/* The absolute form of a python's path, not resolving links (a pyenv shim
 * or a venv's bin/python is known by its name and place). */
static int sandbox_absolute(const char *python, char *out, size_t size)
{
	char cwd[PATH_MAX];
	if (python[0] == '/')
		return snprintf(out, size, "%s", python) < (int)size ? 0 : -1;
	if (!getcwd(cwd, sizeof cwd))
		return -1;
	return snprintf(out, size, "%s/%s", cwd, python) < (int)size ? 0 : -1;
}

/* What must be bound for a python outside the system: the directory that
 * holds it, or, when that is a bin/, the prefix above it (a venv, a conda or
 * pyenv install: its lib/ is there).  "" when nothing is needed; never / or
 * /tmp (that would hide the scratch directory): then the file alone.  Asked
 * of the path as given and of the file it links to. */
static void sandbox_python_bind(const char *python, char *out, size_t size)
{
	char dir[PATH_MAX];
	out[0] = '\0';
	if (sandbox_in_system(python) || snprintf(dir, sizeof dir, "%s", python) >= (int)sizeof dir)
		return;
	char *slash = strrchr(dir, '/');
	if (!slash)
		return;
	*slash = '\0';
	slash = strrchr(dir, '/');
	if (slash && strcmp(slash, "/bin") == 0 && slash != dir)
		*slash = '\0';
	if (dir[0] == '\0' || strcmp(dir, "/tmp") == 0)
		snprintf(out, size, "%s", python);
	else
		snprintf(out, size, "%s", dir);
}

/* Both binds python needs (sandbox_python_bind), the second "" when the
 * first holds it or it needs none. */
static void sandbox_python_binds(const char *python, char bind[2][PATH_MAX])
{
	char real[PATH_MAX];
	size_t n;
	sandbox_python_bind(python, bind[0], PATH_MAX);
	bind[1][0] = '\0';
	if (!realpath(python, real))
		return;
	sandbox_python_bind(real, bind[1], PATH_MAX);
	n = strlen(bind[0]);
	if (n && strncmp(real, bind[0], n) == 0 && (real[n] == '/' || real[n] == '\0'))
		bind[1][0] = '\0';
}

int sandbox_reaches(const struct sandbox *s, const char *python)
{
	char abs[PATH_MAX], bind[2][PATH_MAX];
	if (!s->on || !s->drop)
		return 1;
	if (sandbox_absolute(python, abs, sizeof abs))
		return 0;
	sandbox_python_binds(abs, bind);
	return sandbox_walk(abs) && (!bind[0][0] || sandbox_walk(bind[0])) &&
	       (!bind[1][0] || sandbox_walk(bind[1]));
}

int sandbox_command(struct sandbox *s, const char *python, char *const py_argv[],
		    const char **path)
{
	static char *const head[] = { "bwrap", "--unshare-all", "--unshare-user", "--disable-userns",
				      "--die-with-parent", "--as-pid-1" };
	static char *const mounts[] = { "--proc", "/proc", "--dev", "/dev", "--remount-ro", "/dev",
					"--size" };
	size_t n = 0;
#define SANDBOX_ARG(x)                                  \
	do {                                            \
		if (n + 1 >= SANDBOX_MAX_ARGS)          \
			return -1;                      \
		s->argv[n++] = (char *)(x);             \
	} while (0)
	if (sandbox_absolute(python, s->python, sizeof s->python))
		return -1;
	for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
		SANDBOX_ARG(head[i]);
	for (size_t i = 0; i < SANDBOX_SYSTEM; i++) {
		const char *d = sandbox_system[i];
		struct stat st;
		ssize_t len;
		if (lstat(d, &st) != 0)
			continue;
		if (S_ISLNK(st.st_mode) &&
		    (len = readlink(d, s->link[i], sizeof s->link[i])) > 0 &&
		    (size_t)len < sizeof s->link[i]) {
			s->link[i][len] = '\0';
			SANDBOX_ARG("--symlink");
			SANDBOX_ARG(s->link[i]);
			SANDBOX_ARG(d);
		} else if (S_ISDIR(st.st_mode) || S_ISLNK(st.st_mode)) {
			SANDBOX_ARG("--ro-bind");
			SANDBOX_ARG(d);
			SANDBOX_ARG(d);
		}
	}
	snprintf(s->tmp_size, sizeof s->tmp_size, "%u", SANDBOX_TMP_BYTES);
	for (size_t i = 0; i < sizeof mounts / sizeof mounts[0]; i++)
		SANDBOX_ARG(mounts[i]);
	SANDBOX_ARG(s->tmp_size);
	SANDBOX_ARG("--tmpfs");
	SANDBOX_ARG("/tmp");
	/* after /tmp: a python under it is bound over the scratch, not under */
	sandbox_python_binds(s->python, s->bind);
	for (int i = 0; i < 2; i++) {
		if (!s->bind[i][0])
			continue;
		SANDBOX_ARG("--ro-bind");
		SANDBOX_ARG(s->bind[i]);
		SANDBOX_ARG(s->bind[i]);
	}
	snprintf(s->fd, sizeof s->fd, "%d", SANDBOX_FILE_FD);
	SANDBOX_ARG("--ro-bind-data");
	SANDBOX_ARG(s->fd);
	SANDBOX_ARG(s->inside);
	SANDBOX_ARG("--chdir");
	SANDBOX_ARG("/tmp");
	SANDBOX_ARG("--remount-ro");
	SANDBOX_ARG("/");
	SANDBOX_ARG("--");
	SANDBOX_ARG(s->python);
	for (size_t i = 1; py_argv[i]; i++)
		SANDBOX_ARG(py_argv[i]);
	s->argv[n] = NULL;
	*path = s->bwrap;
	return 0;
#undef SANDBOX_ARG
}

int sandbox_limits(char *buf, size_t size, unsigned timeout_ms, unsigned grace_ms, int max_n)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (cpus < 1)
		cpus = 1;
	if (max_n < 1)
		max_n = 1;
	/* whole seconds, rounded up, and one more: CPU time is counted in ticks */
	unsigned long long cpu = ((unsigned long long)timeout_ms + grace_ms + 999u) / 1000u *
				 (unsigned long long)cpus + 1u;
	unsigned long long as = SANDBOX_AS_BYTES + SANDBOX_AS_PER_RANK * (unsigned long long)max_n;
	int w = snprintf(buf, size, "%s=as:%llu,cpu:%llu,nproc:%d,fsize:%llu,nofile:%d",
			 SANDBOX_LIMITS_ENV, as, cpu,
			 SANDBOX_NPROC_BASE + SANDBOX_NPROC_PER_RANK * max_n,
			 SANDBOX_FSIZE_BYTES, SANDBOX_NOFILE);
	return w < 0 || (size_t)w >= size ? -1 : 0;
}

int sandbox_env_keeps(const char *var)
{
	static const char *const keep[] = { "PATH=", "LANG=", "LANGUAGE=", "LC_", "TZ=",
					    "PYTHONPATH=", "PYTHONHOME=", "PYTHONIOENCODING=",
					    "PYTHONUTF8=" };
	for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++)
		if (strncmp(var, keep[i], strlen(keep[i])) == 0)
			return 1;
	return 0;
}

int sandbox_failure(const char *line)
{
	if (strncmp(line, "bwrap: ", 7) != 0)
		return 0;
	/* the sandbox was made; python is not there or not a program */
	if (strncmp(line + 7, "execvp ", 7) == 0)
		return 1;
	return 2;
}
