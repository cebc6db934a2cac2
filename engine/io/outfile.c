/* outfile: a temporary file, then a rename (see outfile.h), and the
 * registry of the temporary files not yet renamed that a signal handler
 * removes.
 *
 * The registry is a fixed array of slots, each with the path inline (a
 * handler can neither allocate nor follow a pointer that another thread may
 * free) and a tag: a generation number and a state (free, being filled,
 * armed).  A writer fills a slot it has claimed, then arms it; releasing
 * it bumps nothing but the state, and the next claim bumps the generation.
 * The handler copies an armed slot's path and unlinks the copy only if the
 * tag is the same after the copy: a slot released and claimed again by
 * another thread meanwhile is a file that handler does not know. */
#include <distmm/outfile.h>

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/xalloc.h"

/* A handler may use only lock-free atomics. */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the registry's tags must be lock-free");

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

enum { OUTFILE_FREE = 0, OUTFILE_FILLING = 1, OUTFILE_ARMED = 2, OUTFILE_STATE = 3 };

struct outfile_slot {
	atomic_uint tag; /* generation << 2 | state */
	char path[PATH_MAX];
};

static struct outfile_slot outfile_slots[OUTFILE_PENDING_MAX];

/* Claims a free slot and arms it with tmp.  Returns its index, or -1 when
 * every slot is taken or the name does not fit (the file is then written as
 * usual, without a signal's clean-up). */
static int outfile_register(const char *tmp)
{
	size_t len = strlen(tmp);
	if (len >= PATH_MAX)
		return -1;
	for (int i = 0; i < OUTFILE_PENDING_MAX; i++) {
		struct outfile_slot *s = &outfile_slots[i];
		unsigned t = atomic_load(&s->tag);
		if ((t & OUTFILE_STATE) != OUTFILE_FREE)
			continue;
		unsigned gen = (t >> 2) + 1;
		if (!atomic_compare_exchange_strong(&s->tag, &t, gen << 2 | OUTFILE_FILLING))
			continue;
		memcpy(s->path, tmp, len + 1);
		atomic_store_explicit(&s->tag, gen << 2 | OUTFILE_ARMED, memory_order_release);
		return i;
	}
	return -1;
}

static void outfile_unregister(struct outfile *f)
{
	if (f->slot < 0)
		return;
	struct outfile_slot *s = &outfile_slots[f->slot];
	unsigned t = atomic_load(&s->tag);
	atomic_store_explicit(&s->tag, (t & ~(unsigned)OUTFILE_STATE) | OUTFILE_FREE,
			      memory_order_release);
	f->slot = -1;
}

void outfile_unlink_pending(void)
{
	int saved = errno;
	char path[PATH_MAX];
	for (int i = 0; i < OUTFILE_PENDING_MAX; i++) {
		struct outfile_slot *s = &outfile_slots[i];
		unsigned before = atomic_load_explicit(&s->tag, memory_order_acquire);
		if ((before & OUTFILE_STATE) != OUTFILE_ARMED)
			continue;
		size_t k = 0;
		while (k < PATH_MAX - 1 && s->path[k])
			k++;
		memcpy(path, s->path, k);
		path[k] = '\0';
		atomic_thread_fence(memory_order_acquire);
		if (atomic_load_explicit(&s->tag, memory_order_relaxed) == before)
			unlink(path);
	}
	errno = saved;
}

static void outfile_clear(struct outfile *f)
{
	outfile_unregister(f);
	free(f->path);
	free(f->tmp);
	f->fp = NULL;
	f->path = f->tmp = NULL;
}

static int outfile_fail(struct outfile *f, int e, struct dm_err *err)
{
	int rc = dm_err_set(err, DM_EIO, "cannot write %s: %s", f->path, strerror(e));
	outfile_clear(f);
	return rc;
}

/* mkstemp makes 0600; an output gets what fopen would give it. */
static void outfile_mode(int fd)
{
	mode_t mask = umask(022);
	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
}

/* mkstemp, and the registry told of the file, with signals blocked in this
 * thread between the two: a handler here could not know it yet. */
static int outfile_make_temp(struct outfile *f)
{
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	int fd = mkstemp(f->tmp);
	int e = errno;
	if (fd >= 0)
		f->slot = outfile_register(f->tmp);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return fd;
}

int outfile_open(struct outfile *f, const char *path, struct dm_err *err)
{
	struct stat st;
	memset(f, 0, sizeof *f);
	f->slot = -1;
	size_t plen = strlen(path);
	f->path = xmalloc(plen + 1);
	if (!f->path)
		return dm_err_set(err, DM_ENOMEM, "out of memory writing %s", path);
	memcpy(f->path, path, plen + 1);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		int rc = dm_err_set(err, DM_EIO, "cannot write %s: it is a directory", path);
		outfile_clear(f);
		return rc;
	}
	/* lstat: a symbolic link is written through, not renamed over */
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		f->fp = fopen(path, "wb");
		return f->fp ? 0 : outfile_fail(f, errno, err);
	}
	const char *slash = strrchr(path, '/');
	size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
	size_t len = plen + 9; /* "." and ".XXXXXX" and the NUL */
	f->tmp = xmalloc(len);
	if (!f->tmp) {
		outfile_clear(f);
		return dm_err_set(err, DM_ENOMEM, "out of memory writing %s", path);
	}
	memcpy(f->tmp, path, dir_len);
	snprintf(f->tmp + dir_len, len - dir_len, ".%s.XXXXXX", path + dir_len);
	int fd = outfile_make_temp(f);
	if (fd < 0) {
		int e = errno;
		free(f->tmp); /* nothing was made: nothing to remove */
		f->tmp = NULL;
		return outfile_fail(f, e, err);
	}
	outfile_mode(fd);
	f->fp = fdopen(fd, "wb");
	if (!f->fp) {
		int e = errno;
		close(fd);
		unlink(f->tmp);
		return outfile_fail(f, e, err);
	}
	return 0;
}

int outfile_finish(struct outfile *f, struct dm_err *err)
{
	/* a write that failed before says no more than that it failed; the
	 * flush of what is left in the buffer says why */
	int bad = ferror(f->fp), e = EIO;
	if (fflush(f->fp) != 0) {
		bad = 1;
		e = errno;
	}
	if (fclose(f->fp) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	f->fp = NULL;
	if (bad) {
		if (f->tmp)
			unlink(f->tmp);
		return outfile_fail(f, e, err);
	}
	return 0;
}

int outfile_rename(struct outfile *f, struct dm_err *err)
{
	if (f->tmp && rename(f->tmp, f->path) != 0) {
		int e = errno;
		unlink(f->tmp);
		return outfile_fail(f, e, err);
	}
	outfile_clear(f);
	return 0;
}

int outfile_commit(struct outfile *f, struct dm_err *err)
{
	int rc = outfile_finish(f, err);
	return rc ? rc : outfile_rename(f, err);
}

void outfile_abort(struct outfile *f)
{
	if (f->fp)
		fclose(f->fp);
	if (f->tmp)
		unlink(f->tmp);
	outfile_clear(f);
}
