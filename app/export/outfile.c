/* outfile: temporary file, then rename (see outfile.h).  The temporary name
 * is ".NAME.XXXXXX" in the target's folder: hidden, and on the same file
 * system, so that rename() is atomic. */
#include "outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void outfile_clear(struct outfile *f)
{
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

int outfile_open(struct outfile *f, const char *path, struct dm_err *err)
{
	struct stat st;
	memset(f, 0, sizeof *f);
	f->path = strdup(path);
	if (!f->path)
		return dm_err_set(err, DM_ENOMEM, "out of memory writing %s", path);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		int rc = dm_err_set(err, DM_EIO, "cannot write %s: it is a directory", path);
		outfile_clear(f);
		return rc;
	}
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		f->fp = fopen(path, "w");
		return f->fp ? 0 : outfile_fail(f, errno, err);
	}
	const char *slash = strrchr(path, '/');
	size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
	size_t len = strlen(path) + 9; /* "." and ".XXXXXX" and the NUL */
	f->tmp = malloc(len);
	if (!f->tmp) {
		outfile_clear(f);
		return dm_err_set(err, DM_ENOMEM, "out of memory writing %s", path);
	}
	memcpy(f->tmp, path, dir_len);
	snprintf(f->tmp + dir_len, len - dir_len, ".%s.XXXXXX", path + dir_len);
	int fd = mkstemp(f->tmp);
	if (fd < 0)
		return outfile_fail(f, errno, err);
	outfile_mode(fd);
	f->fp = fdopen(fd, "w");
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
