/* iv_judge: the watch and the background judge (see iv_judge.h).  The
 * thread's one job is judge_run; everything it touches is w->j (which the
 * loop reads only after joining it) and the done pipe. */
#include "interview/iv_judge.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

static void ivj_close_pair(int p[2])
{
	for (int i = 0; i < 2; i++)
		if (p[i] >= 0) {
			close(p[i]);
			p[i] = -1;
		}
}

/* A pipe whose ends are close-on-exec (the judge's children never hold
 * them) and non-blocking. */
static int ivj_pipe(int p[2])
{
	if (pipe(p))
		return -1;
	for (int i = 0; i < 2; i++)
		if (fcntl(p[i], F_SETFD, FD_CLOEXEC) || fcntl(p[i], F_SETFL, O_NONBLOCK))
			return -1;
	return 0;
}

int ivj_open(struct iv_judge *w, const struct cli_opts *o, char *msg, size_t size)
{
	char dir[PATH_MAX];
	memset(w, 0, sizeof *w);
	w->watch_fd = -1;
	w->cancel[0] = w->cancel[1] = w->done[0] = w->done[1] = -1;
	w->opts = *o;
	w->opts.judge_file = o->interview_file;
	const char *file = o->interview_file, *slash = strrchr(file, '/');
	w->name = slash ? slash + 1 : file;
	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else if (slash == file)
		snprintf(dir, sizeof dir, "/");
	else
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - file), file);
	if (ivj_pipe(w->cancel) || ivj_pipe(w->done)) {
		snprintf(msg, size, "--interview: cannot make a pipe: %s", strerror(errno));
		ivj_close(w);
		return -1;
	}
	w->watch_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (w->watch_fd < 0 ||
	    inotify_add_watch(w->watch_fd, dir, IN_CLOSE_WRITE | IN_MOVED_TO) < 0) {
		snprintf(msg, size, "--interview: cannot watch %s for saves: %s", dir,
			 strerror(errno));
		ivj_close(w);
		return -1;
	}
	return 0;
}

void ivj_close(struct iv_judge *w)
{
	if (w->running) {
		struct judge j;
		struct dm_err err;
		ivj_cancel(w);
		ivj_collect(w, &j, &err);
		judge_free(&j);
	}
	if (w->watch_fd >= 0)
		close(w->watch_fd);
	w->watch_fd = -1;
	ivj_close_pair(w->cancel);
	ivj_close_pair(w->done);
}

int ivj_watch_fd(const struct iv_judge *w)
{
	return w->watch_fd;
}

int ivj_done_fd(const struct iv_judge *w)
{
	return w->done[0];
}

int ivj_changed(struct iv_judge *w)
{
	/* aligned as inotify's events are */
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	int hit = 0;
	for (;;) {
		ssize_t len = read(w->watch_fd, buf, sizeof buf);
		if (len < 0 && errno == EINTR)
			continue;
		if (len <= 0)
			break;
		for (char *p = buf; p < buf + len;) {
			const struct inotify_event *ev = (const struct inotify_event *)(void *)p;
			if (ev->len && strcmp(ev->name, w->name) == 0)
				hit = 1;
			p += sizeof *ev + ev->len;
		}
	}
	return hit;
}

static void *ivj_thread(void *arg)
{
	struct iv_judge *w = arg;
	unsigned char b = 1;
	w->rc = judge_run(&w->j, &w->err);
	while (write(w->done[1], &b, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

int ivj_start(struct iv_judge *w, struct dm_err *err)
{
	unsigned char b;
	int rc;
	if (w->running)
		return dm_err_set(err, DM_EINVAL, "a judge is running");
	while (read(w->cancel[0], &b, 1) > 0) /* an old cancel is not this judge's */
		;
	if ((rc = judge_prepare(&w->j, &w->opts, err))) {
		judge_free(&w->j);
		return rc;
	}
	w->j.cancel_fd = w->cancel[0];
	w->rc = 0;
	if ((rc = pthread_create(&w->thread, NULL, ivj_thread, w))) {
		judge_free(&w->j);
		return dm_err_set(err, DM_ETHREAD, "cannot start the judge's thread: %s",
				  strerror(rc));
	}
	w->running = 1;
	return 0;
}

void ivj_cancel(struct iv_judge *w)
{
	unsigned char b = 1;
	if (w->running)
		(void)!write(w->cancel[1], &b, 1);
}

int ivj_collect(struct iv_judge *w, struct judge *out, struct dm_err *err)
{
	unsigned char b;
	memset(out, 0, sizeof *out);
	if (!w->running)
		return dm_err_set(err, DM_EINVAL, "no judge is running");
	pthread_join(w->thread, NULL);
	w->running = 0;
	while (read(w->done[0], &b, 1) > 0)
		;
	*out = w->j;
	out->cancel_fd = -1;
	memset(&w->j, 0, sizeof w->j);
	*err = w->err;
	return w->rc;
}
