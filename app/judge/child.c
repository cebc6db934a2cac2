/* child: spawning, killing and reaping the judge's process group, and the
 * signals that stop the judge (see child.h).
 *
 * Between fork and exec the child only makes async-signal-safe calls; an
 * exec that fails says its errno on a close-on-exec pipe, which reads empty
 * when the exec worked.  A signal handler writes one byte to a self-pipe
 * that the judge's poll() watches, so a signal is seen without a race. */
#include "judge/child.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef PR_SET_CHILD_SUBREAPER
#define PR_SET_CHILD_SUBREAPER 36
#endif

static int child_sig_pipe[2] = { -1, -1 };
static struct sigaction child_old[4];
static const int child_sigs[4] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };

int child_which(const char *name, char *buf, size_t size)
{
	if (strchr(name, '/')) {
		if (access(name, X_OK) != 0 || strlen(name) >= size)
			return -1;
		strcpy(buf, name);
		return 0;
	}
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		const char *colon = strchr(path, ':');
		size_t len = colon ? (size_t)(colon - path) : strlen(path);
		struct stat st;
		if (len > 0 && len + 1 + strlen(name) < size) {
			memcpy(buf, path, len);
			buf[len] = '/';
			strcpy(buf + len + 1, name);
			if (stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0)
				return 0;
		}
		path += len;
		if (*path == ':')
			path++;
	}
	return -1;
}

static int child_cloexec(int fd)
{
	int fl = fcntl(fd, F_GETFD);
	return fl < 0 ? -1 : fcntl(fd, F_SETFD, fl | FD_CLOEXEC);
}

static int child_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static void child_close(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* The child's side, after fork: async-signal-safe calls only.  A session
 * of its own: its group is the one child_end kills, and without a
 * controlling terminal nothing it starts can write to or inject into the
 * user's (TIOCSTI).  The uid drops before the death signal is set, because
 * a change of credentials clears it. */
static void child_exec(const char *path, char *const argv[], char *const envp[], int in_r,
		       int out_w, int err_w, int report_w, pid_t parent, long max_fd,
		       const struct child_setup *setup)
{
	sigset_t none;
	int keep = setup ? setup->keep_fd : -1;
	if (setsid() < 0)
		goto fail;
	if (setup && setup->drop &&
	    (setgroups(0, NULL) != 0 || setgid(setup->gid) != 0 || setuid(setup->uid) != 0))
		goto fail;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	for (int s = 0; s < 4; s++)
		signal(child_sigs[s], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (dup2(in_r, 0) < 0 || dup2(out_w, 1) < 0 || dup2(err_w, 2) < 0)
		goto fail;
	if (keep >= 0) {
		/* descriptor 3 is the kept one's: the report pipe moves out of its way */
		if (report_w == 3 && (report_w = fcntl(3, F_DUPFD_CLOEXEC, 4)) < 0)
			goto fail;
		if (keep == 3 ? fcntl(3, F_SETFD, 0) < 0 : dup2(keep, 3) < 0)
			goto fail;
	}
	for (long fd = 3; fd < max_fd; fd++)
		if (fd != report_w && !(keep >= 0 && fd == 3))
			close((int)fd);
	execve(path, argv, envp);
fail:;
	int e = errno;
	ssize_t w = write(report_w, &e, sizeof e);
	(void)w;
	_exit(127);
}

int child_spawn(struct child *c, const char *path, char *const argv[], char *const envp[],
		const struct child_setup *setup, int *exec_errno, struct dm_err *err)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, er[2] = { -1, -1 }, rep[2] = { -1, -1 };
	long max_fd = sysconf(_SC_OPEN_MAX);
	if (max_fd < 0 || max_fd > 4096)
		max_fd = 4096;
	c->pid = 0;
	c->in_fd = c->out_fd = c->err_fd = -1;
	*exec_errno = 0;
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (pipe(in) || pipe(out) || pipe(er) || pipe(rep) || child_cloexec(in[1]) ||
	    child_cloexec(out[0]) || child_cloexec(er[0]) || child_cloexec(rep[0]) ||
	    child_cloexec(rep[1])) {
		int e = errno;
		for (int i = 0; i < 2; i++) {
			child_close(&in[i]);
			child_close(&out[i]);
			child_close(&er[i]);
			child_close(&rep[i]);
		}
		return dm_err_set(err, DM_EIO, "--judge: cannot make a pipe: %s", strerror(e));
	}
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0)
		child_exec(path, argv, envp, in[0], out[1], er[1], rep[1], parent, max_fd, setup);
	int fork_errno = errno;
	child_close(&in[0]);
	child_close(&out[1]);
	child_close(&er[1]);
	child_close(&rep[1]);
	if (pid < 0) {
		child_close(&in[1]);
		child_close(&out[0]);
		child_close(&er[0]);
		child_close(&rep[0]);
		return dm_err_set(err, DM_ETHREAD, "--judge: cannot start python: %s",
				  strerror(fork_errno));
	}
	/* its session (and group) exists once the exec is reported below: the
	 * child makes it first thing; setpgid here would make its setsid fail */
	c->pid = pid;
	c->in_fd = in[1];
	c->out_fd = out[0];
	c->err_fd = er[0];
	int e = 0;
	ssize_t got;
	do
		got = read(rep[0], &e, sizeof e);
	while (got < 0 && errno == EINTR);
	child_close(&rep[0]);
	if (got == (ssize_t)sizeof e) {
		*exec_errno = e ? e : ENOEXEC;
		child_end(c);
		return -1;
	}
	child_nonblock(c->in_fd);
	child_nonblock(c->out_fd);
	child_nonblock(c->err_fd);
	return 0;
}

void child_close_input(struct child *c)
{
	child_close(&c->in_fd);
}

int child_end(struct child *c)
{
	int status = -1, st;
	child_close(&c->in_fd);
	child_close(&c->out_fd);
	child_close(&c->err_fd);
	if (c->pid <= 0)
		return -1;
	kill(-c->pid, SIGKILL);
	kill(c->pid, SIGKILL); /* in case it had not made its group yet */
	for (;;) {
		pid_t p = waitpid(-c->pid, &st, 0);
		if (p < 0 && errno == EINTR)
			continue;
		if (p < 0)
			break;
		if (p == c->pid)
			status = st;
	}
	/* before it made its group, the child was in ours */
	if (status == -1) {
		while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR)
			;
		status = st;
	}
	c->pid = 0;
	return status;
}

static void child_on_signal(int sig)
{
	int saved = errno;
	unsigned char b = (unsigned char)sig;
	if (child_sig_pipe[1] >= 0) {
		ssize_t w = write(child_sig_pipe[1], &b, 1);
		(void)w;
	}
	errno = saved;
}

int child_catch_signals(void)
{
	struct sigaction sa;
	if (pipe(child_sig_pipe))
		return -1;
	child_cloexec(child_sig_pipe[0]);
	child_cloexec(child_sig_pipe[1]);
	child_nonblock(child_sig_pipe[0]);
	child_nonblock(child_sig_pipe[1]);
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	for (int s = 0; s < 4; s++) {
		sa.sa_handler = child_sigs[s] == SIGPIPE ? SIG_IGN : child_on_signal;
		sigaction(child_sigs[s], &sa, &child_old[s]);
	}
	return child_sig_pipe[0];
}

int child_signal_taken(void)
{
	unsigned char b;
	if (child_sig_pipe[0] >= 0 && read(child_sig_pipe[0], &b, 1) == 1)
		return b;
	return 0;
}

void child_release_signals(void)
{
	for (int s = 0; s < 4; s++)
		sigaction(child_sigs[s], &child_old[s], NULL);
	child_close(&child_sig_pipe[0]);
	child_close(&child_sig_pipe[1]);
}
