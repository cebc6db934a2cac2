/* judge: one judging session (see judge.h): find a python with numpy, start
 * the harness, feed it the job and read its records, all in one poll() loop
 * with a deadline, and end its process group on every path.
 *
 * The harness enforces each run's time limit itself (it forks a process a
 * run and kills it); the deadlines here are the net under it: a harness that
 * stops answering is killed, and its case says so.  Python is tried in
 * order: $DISTMM_PYTHON alone when set, else python3 on PATH, then
 * /usr/bin/python3; one without numpy says so and the next is tried.  Each
 * session runs in the sandbox (sandbox.c) unless --judge-unconfined; a
 * python the sandbox's uid cannot reach is passed over (DISTMM_PYTHON: said). */
#include "judge/judge.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "judge/battery.h"
#include "judge/child.h"
#include "judge/harness.h"
#include "judge/proto.h"
#include "judge/sandbox.h"
#include "cli/status.h"
#include <distmm/mat.h>
#include <distmm/run.h>

extern char **environ;

#define JUDGE_LINE_MAX (1u << 20)  /* a longer record is not the harness's */
#define JUDGE_ERR_TAIL 2048        /* what is kept of the child's stderr */
#define JUDGE_START_MS 30000u      /* python, numpy, and loading the file */
#define JUDGE_BETWEEN_MS 10000u    /* from one case to the next */
#define JUDGE_RUN_SLACK_MS 5000u   /* a run's answer after its limit (harness: 3 s) */
#define JUDGE_HARNESS_GRACE_MS 3000u /* jd_main.py's ANSWER_GRACE, for the CPU limit */
#define JUDGE_RUNS 3               /* schedules a case may run under */

static uint64_t judge_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

int judge_prepare(struct judge *j, const struct cli_opts *o, struct dm_err *err)
{
	struct stat st;
	memset(j, 0, sizeof *j);
	j->cancel_fd = -1;
	j->path = j->inside = o->judge_file;
	j->timeout_ms = o->judge_ms;
	j->schedule = (o->given & CLI_GIVEN_JUDGE_SCHEDULE) ? (int)o->judge_schedule : -1;
	j->unconfined = o->judge_unconfined;
	if (strpbrk(j->path, "\t\n\r"))
		return dm_err_set(err, DM_EINVAL, "--judge: the file name has a tab or a line break");
	int fd = open(j->path, O_RDONLY);
	if (fd < 0)
		return dm_err_set(err, DM_EIO, "cannot read %s: %s", j->path, strerror(errno));
	int rc = fstat(fd, &st);
	close(fd);
	if (rc == 0 && S_ISDIR(st.st_mode))
		return dm_err_set(err, DM_EIO, "cannot read %s: it is a directory", j->path);
	rc = battery_build(o, &j->cases, &j->n_cases, err);
	/* said before the interface's "judging..." line, which it would break */
	if (!rc && j->unconfined)
		status_error("warning: --judge-unconfined: %s runs with all of your rights (your "
			     "files, the network, your processes) and no limits", j->path);
	return rc;
}

int judge_has(const struct judge *j, int mode)
{
	int k = judge_fn_index(mode);
	return k >= 0 && j->has[k];
}

int judge_defines(const struct judge *j, const struct judge_case *c)
{
	return judge_has(j, c->mode);
}

const struct judge_case *judge_pick(const struct judge *j)
{
	const struct judge_case *first = NULL, *driver = NULL;
	for (size_t i = 0; i < j->n_cases; i++) {
		const struct judge_case *c = &j->cases[i];
		if (!judge_defines(j, c) || !c->has_trace)
			continue;
		if (c->verdict != JUDGE_PASS)
			return c;
		if (!first)
			first = c;
		if (c->n == 2 && c->M == CLI_DEFAULT_M && c->K == CLI_DEFAULT_K &&
		    c->N == CLI_DEFAULT_N && c->values == MAT_VALUES_INTS &&
		    (!driver || (c->mode == DM_FSDP && driver->mode != DM_FSDP)))
			driver = c;
	}
	return driver ? driver : first;
}

void judge_free(struct judge *j)
{
	for (size_t i = 0; i < j->n_cases; i++)
		proto_case_free(&j->cases[i]);
	free(j->cases);
	j->cases = NULL;
	j->n_cases = 0;
}

/* The child's environment: ours (confined: what Python needs of it, and
 * the sandbox's /tmp as home, with the rlimits), and one BLAS thread (a
 * device is a thread already; also what makes runs repeat), no .pyc files,
 * a fixed hash seed. */
static char **judge_env(const struct sandbox *sb, const char *limits)
{
	const char *const set[] = { "OPENBLAS_NUM_THREADS=1", "OMP_NUM_THREADS=1",
				    "MKL_NUM_THREADS=1", "PYTHONDONTWRITEBYTECODE=1",
				    "PYTHONHASHSEED=0", "HOME=/tmp", "TMPDIR=/tmp", limits };
	const size_t n_set = sizeof set / sizeof set[0] - (sb->on ? 0 : 3);
	size_t n = 0, k = 0;
	while (environ && environ[n])
		n++;
	char **env = calloc(n + n_set + 1, sizeof *env);
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		int ours = 0;
		for (size_t s = 0; s < n_set; s++) {
			size_t klen = (size_t)(strchr(set[s], '=') - set[s]) + 1;
			ours |= strncmp(environ[i], set[s], klen) == 0;
		}
		if (!ours && (!sb->on || sandbox_env_keeps(environ[i])))
			env[k++] = environ[i];
	}
	for (size_t s = 0; s < n_set; s++)
		env[k++] = (char *)set[s];
	return env;
}

enum { JS_DONE, JS_NEXT_PYTHON, JS_FAILED };

struct judge_io {
	char *line;           /* what came on stdout, not yet a whole line */
	size_t len, cap;
	char tail[JUDGE_ERR_TAIL]; /* the end of its stderr */
	size_t tail_len;
	int booted, hello, loaded, done, bad;
	size_t current;       /* the case running */
	int in_case;
	int in_frame;         /* a run's frame header was read: its bytes are awaited */
	struct proto_frame frame;
	struct proto_session ps;
	uint64_t deadline;
	struct dm_err err;
};

static void judge_tail(struct judge_io *io, const char *p, size_t n)
{
	if (n >= sizeof io->tail) {
		p += n - (sizeof io->tail - 1);
		n = sizeof io->tail - 1;
	}
	if (io->tail_len + n >= sizeof io->tail) {
		size_t drop = io->tail_len + n - (sizeof io->tail - 1);
		memmove(io->tail, io->tail + drop, io->tail_len - drop);
		io->tail_len -= drop;
	}
	memcpy(io->tail + io->tail_len, p, n);
	io->tail_len += n;
	io->tail[io->tail_len] = '\0';
}

/* The last line of the child's stderr, for a message. */
static const char *judge_tail_line(struct judge_io *io)
{
	while (io->tail_len && (io->tail[io->tail_len - 1] == '\n' || io->tail[io->tail_len - 1] == ' '))
		io->tail[--io->tail_len] = '\0';
	char *nl = strrchr(io->tail, '\n');
	return nl ? nl + 1 : io->tail;
}

static uint64_t judge_case_ms(const struct judge *j)
{
	return (uint64_t)JUDGE_RUNS * (j->timeout_ms + JUDGE_RUN_SLACK_MS) + 5000u;
}

/* The whole records in io->line: lines, and a run's frame once all its
 * bytes are in. */
static int judge_lines(struct judge *j, struct judge_io *io)
{
	size_t start = 0;
	if (!io->line)
		return JS_DONE;  /* nothing came yet */
	for (;;) {
		if (io->in_frame) {
			if (io->len - start < io->frame.len)
				break;
			int rc = proto_run(j, &io->ps, &io->frame, io->line + start, &io->err);
			start += io->frame.len;
			io->in_frame = 0;
			if (rc) {
				io->bad = 1;
				return JS_FAILED;
			}
			continue;
		}
		char *nl = memchr(io->line + start, '\n', io->len - start);
		if (!nl)
			break;
		*nl = '\0';
		size_t idx = 0;
		int r = proto_record(j, io->line + start, (size_t)(nl - (io->line + start)), &idx,
				     &io->frame, &io->err);
		start = (size_t)(nl - io->line) + 1;
		switch (r) {
		case PROTO_BOOT: io->booted = 1; break;
		case PROTO_HELLO: io->hello = 1; break;
		case PROTO_NONUMPY: return JS_NEXT_PYTHON;
		case PROTO_LOADED:
			io->loaded = 1;
			io->deadline = judge_now_ms() + JUDGE_BETWEEN_MS;
			break;
		case PROTO_BEGIN:
			io->current = idx;
			io->in_case = 1;
			io->deadline = judge_now_ms() + judge_case_ms(j);
			break;
		case PROTO_RUN:
			if (!io->in_case || idx != io->current) {
				io->bad = 1;
				dm_err_set(&io->err, DM_EFORMAT, "the judge's harness sent a run out of its "
					   "case");
				return JS_FAILED;
			}
			io->in_frame = 1;
			break;
		case PROTO_CASE:
			io->in_case = 0;
			proto_session_end(&io->ps);
			io->deadline = judge_now_ms() + JUDGE_BETWEEN_MS;
			break;
		case PROTO_DONE: io->done = 1; break;
		case PROTO_BAD: io->bad = 1; return JS_FAILED;
		default: break;
		}
	}
	if (start > 0) {
		memmove(io->line, io->line + start, io->len - start);
		io->len -= start;
	}
	if (!io->in_frame && io->len >= JUDGE_LINE_MAX) {
		io->bad = 1;
		dm_err_set(&io->err, DM_EFORMAT, "the judge's harness sent a line that never ends");
		return JS_FAILED;
	}
	return JS_DONE;
}

/* Reads what fd has; 1 at its end, 0 otherwise, -1 on failure. */
static int judge_read(int fd, struct judge_io *io, int to_tail)
{
	char buf[65536];
	for (;;) {
		ssize_t got = read(fd, buf, sizeof buf);
		if (got == 0)
			return 1;
		if (got < 0)
			return errno == EAGAIN || errno == EINTR ? 0 : 1;
		if (to_tail) {
			judge_tail(io, buf, (size_t)got);
			continue;
		}
		if (io->len + (size_t)got + 1 > io->cap) {
			size_t cap = io->cap ? io->cap : 65536;
			while (cap < io->len + (size_t)got + 1)
				cap *= 2;
			char *d = realloc(io->line, cap);
			if (!d)
				return -1;
			io->line = d;
			io->cap = cap;
		}
		memcpy(io->line + io->len, buf, (size_t)got);
		io->len += (size_t)got;
	}
}

/* The harness's case, or the session, ended without an answer. */
static void judge_lost(struct judge *j, struct judge_io *io, const char *why)
{
	const char *tail = judge_tail_line(io);
	snprintf(j->failure, sizeof j->failure, "%.200s%s%.300s", why, *tail ? ": " : "", tail);
	if (io->in_case && io->current < j->n_cases) {
		struct judge_case *c = &j->cases[io->current];
		c->verdict = JUDGE_TIMEOUT;
		free(c->headline);
		c->headline = strdup(j->failure);
	}
}

/* The session ended before python said "boot": bwrap's own line, when it
 * is one, says whether the sandbox could not be made (then nothing runs:
 * never unconfined) or python could not run in it (the next is tried). */
static int judge_unbooted(struct judge_io *io, const struct sandbox *sb, struct dm_err *err)
{
	const char *line = judge_tail_line(io);
	int f = sb->on ? sandbox_failure(line) : 0;
	if (f == 2)
		dm_err_set(err, DM_EIO, "--judge: cannot confine your file's code: %.300s (make deps "
			   "installs bubblewrap; --judge-unconfined runs it with all of your rights)",
			   line);
	return JS_NEXT_PYTHON;
}

static int judge_session(struct judge *j, const char *python, const struct proto_buf *job,
			 char **env, struct sandbox *sb, int sig_fd, struct dm_err *err)
{
	struct child c;
	struct judge_io io;
	int exec_errno, rc = JS_FAILED;
	char *argv[] = { (char *)python, "-c", HARNESS_BOOT, "distmm-judge", (char *)j->path,
			 NULL };
	const char *path = python;
	struct child_setup setup = { .keep_fd = sb->file_fd, .drop = sb->drop,
				     .uid = SANDBOX_UID, .gid = SANDBOX_GID };
	memset(&io, 0, sizeof io);
	/* a python that is not there fails here as its exec would, unconfined */
	if (sb->on && (access(python, X_OK) != 0 || sandbox_command(sb, python, argv, &path)))
		return JS_NEXT_PYTHON;
	int s = child_spawn(&c, path, sb->on ? sb->argv : argv, env, sb->on ? &setup : NULL,
			    &exec_errno, err);
	if (s < 0 && sb->on) /* bwrap itself: nothing runs, never unconfined */
		dm_err_set(err, DM_EIO, "--judge: cannot run %s: %s (make deps installs bubblewrap; "
			   "--judge-unconfined runs your file with all of your rights)", path,
			   strerror(exec_errno));
	if (s < 0)
		return JS_NEXT_PYTHON;
	if (s > 0)
		return JS_FAILED;
	size_t written = 0;
	int out_open = 1, err_open = 1;
	io.deadline = judge_now_ms() + JUDGE_START_MS + j->timeout_ms;
	while (out_open) {
		struct pollfd p[5];
		nfds_t np = 0;
		p[np++] = (struct pollfd){ .fd = sig_fd, .events = POLLIN };
		p[np++] = (struct pollfd){ .fd = j->cancel_fd, .events = POLLIN }; /* -1: none */
		p[np++] = (struct pollfd){ .fd = c.out_fd, .events = POLLIN };
		if (err_open)
			p[np++] = (struct pollfd){ .fd = c.err_fd, .events = POLLIN };
		if (c.in_fd >= 0)
			p[np++] = (struct pollfd){ .fd = c.in_fd, .events = POLLOUT };
		uint64_t now = judge_now_ms();
		if (now >= io.deadline) {
			judge_lost(j, &io, io.loaded ? "the judge's harness stopped answering and was "
				   "stopped" : "python did not start the judge in time");
			break;
		}
		int left = (int)(io.deadline - now > INT_MAX ? INT_MAX : io.deadline - now);
		if (poll(p, np, left) < 0) {
			if (errno == EINTR)
				continue;
			judge_lost(j, &io, "poll failed");
			break;
		}
		if (p[0].revents & POLLIN) {
			j->signal = child_signal_taken();
			if (j->signal)
				break;
		}
		if (p[1].revents & POLLIN) {
			j->cancelled = 1;
			break;
		}
		for (nfds_t i = 2; i < np; i++) {
			if (!p[i].revents)
				continue;
			if (p[i].fd == c.in_fd) {
				ssize_t w = write(c.in_fd, job->data + written, job->len - written);
				if (w > 0)
					written += (size_t)w;
				if ((w < 0 && errno != EAGAIN && errno != EINTR) || written == job->len)
					child_close_input(&c);
			} else if (p[i].fd == c.err_fd) {
				if (judge_read(c.err_fd, &io, 1))
					err_open = 0;
			} else {
				int end = judge_read(c.out_fd, &io, 0);
				int r = judge_lines(j, &io);
				if (r != JS_DONE) {
					rc = r;
					goto out;
				}
				if (end)
					out_open = 0;
			}
		}
	}
	if (!out_open) {
		if (io.done || (io.loaded && j->load_error[0]))
			rc = JS_DONE;
		else if (!io.booted)
			rc = judge_unbooted(&io, sb, err);  /* not a python 3, or no sandbox */
		else
			judge_lost(j, &io, "the judge's harness ended before it was done");
	}
out:
	if (io.bad)
		snprintf(j->failure, sizeof j->failure, "%s", io.err.msg);
	if (rc == JS_FAILED && !j->failure[0] && !j->signal && !j->cancelled)
		judge_lost(j, &io, "the judge's harness failed");
	child_end(&c);
	proto_session_end(&io.ps);
	free(io.line);
	return rc == JS_FAILED ? JS_DONE : rc;
}

/* The pythons to try, in order (see the top of the file). */
static size_t judge_pythons(char list[][PATH_MAX], const struct sandbox *sb)
{
	const char *env = getenv("DISTMM_PYTHON");
	if (env && *env) {
		snprintf(list[0], PATH_MAX, "%s", env);
		return 1;
	}
	size_t n = 0;
	char a[PATH_MAX], b[PATH_MAX];
	if (child_which("python3", list[n], PATH_MAX) == 0 && sandbox_reaches(sb, list[n]))
		n++;
	if (access("/usr/bin/python3", X_OK) == 0) {
		int same = n && realpath(list[0], a) && realpath("/usr/bin/python3", b) &&
			   strcmp(a, b) == 0;
		if (!same)
			snprintf(list[n++], PATH_MAX, "/usr/bin/python3");
	}
	return n;
}

int judge_run(struct judge *j, struct dm_err *err)
{
	struct proto_buf job;
	struct sandbox sb;
	char pythons[2][PATH_MAX], limits[160];
	int max_n = 1;
	int rc = sandbox_open(&sb, j->path, j->unconfined, err);
	if (rc) {
		sandbox_close(&sb);
		return rc;
	}
	const char *py = getenv("DISTMM_PYTHON");
	if (py && *py && !sandbox_reaches(&sb, py)) {
		sandbox_close(&sb);
		return dm_err_set(err, DM_EIO, "--judge: DISTMM_PYTHON=%s: the sandbox runs your file "
				  "as uid %d, which cannot reach it (a directory only root may "
				  "enter?): use a python it can reach, or --judge-unconfined", py,
				  SANDBOX_UID);
	}
	for (size_t i = 0; i < j->n_cases; i++)
		max_n = j->cases[i].n > max_n ? j->cases[i].n : max_n;
	if (sb.on)
		j->inside = sb.inside;
	if (sandbox_limits(limits, sizeof limits, j->timeout_ms, JUDGE_HARNESS_GRACE_MS, max_n) ||
	    (rc = proto_job(&job, j, err))) {
		sandbox_close(&sb);
		return rc ? rc : dm_err_set(err, DM_ENOMEM, "--judge: the limits do not fit");
	}
	char **env = judge_env(&sb, limits);
	if (!env) {
		sandbox_close(&sb);
		proto_buf_free(&job);
		return dm_err_set(err, DM_ENOMEM, "out of memory");
	}
	int sig_fd = child_catch_signals();
	if (sig_fd < 0) {
		sandbox_close(&sb);
		free(env);
		proto_buf_free(&job);
		return dm_err_set(err, DM_EIO, "--judge: cannot make a pipe: %s", strerror(errno));
	}
	size_t n = judge_pythons(pythons, &sb);
	int found = 0;
	rc = 0;
	for (size_t i = 0; i < n && !found && !j->signal && !j->cancelled; i++) {
		err->code = 0;
		int s = judge_session(j, pythons[i], &job, env, &sb, sig_fd, err);
		if (s == JS_DONE) {
			found = 1;
			snprintf(j->python, sizeof j->python, "%.500s", pythons[i]);
		} else if (err->code) {
			rc = err->code;
			break;
		}
	}
	child_release_signals();
	sandbox_close(&sb);
	j->inside = j->path; /* sb's buffer goes */
	free(env);
	proto_buf_free(&job);
	if (!rc && !found && !j->signal && !j->cancelled) {
		/* the one python tried was the user's: name it, and what failed */
		const char *env_py = getenv("DISTMM_PYTHON");
		if (env_py && *env_py && access(env_py, X_OK) != 0)
			rc = dm_err_set(err, DM_EIO, "--judge: DISTMM_PYTHON=%s cannot be run: %s "
					"(unset it to use python3 on PATH)", env_py, strerror(errno));
		else if (env_py && *env_py)
			rc = dm_err_set(err, DM_EIO, "--judge: DISTMM_PYTHON=%s did not run the judge "
					"(is it python3 with numpy? unset it to use python3 on PATH)",
					env_py);
		else
			rc = dm_err_set(err, DM_EIO, JUDGE_NO_PYTHON);
	}
	return rc;
}
