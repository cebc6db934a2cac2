/* afile: all-or-nothing file output (see afile.h). */
#include "io/afile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/xalloc.h"

int afile_open(struct afile *af, const char *path, struct dm_err *err)
{
	struct stat st;
	af->fp = NULL;
	af->path = NULL;
	af->tmp = NULL;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return dm_err_set(err, DM_EIO, "cannot write %s: it is a directory", path);
	/* lstat: a symbolic link is written through, not renamed over */
	int in_place = lstat(path, &st) == 0 && !S_ISREG(st.st_mode);
	size_t len = strlen(path);
	af->path = xmalloc(len + 1);
	af->tmp = in_place ? NULL : xmalloc(len + 16);
	if (af->path)
		memcpy(af->path, path, len + 1);
	if (in_place && af->path) {
		af->fp = fopen(path, "wb");
		if (!af->fp) {
			int e = errno;
			afile_abort(af);
			return dm_err_set(err, DM_EIO, "cannot write %s: %s", path, strerror(e));
		}
		return 0;
	}
	if (!af->path || !af->tmp) {
		/* no temporary file yet: nothing to remove (tmp holds no name) */
		free(af->path);
		free(af->tmp);
		af->path = af->tmp = NULL;
		return dm_err_set(err, DM_ENOMEM, "out of memory writing %s", path);
	}
	memcpy(af->tmp, path, len);
	memcpy(af->tmp + len, ".tmp.XXXXXX", 12);
	int fd = mkstemp(af->tmp);
	if (fd < 0) {
		int e = errno;
		free(af->tmp);
		af->tmp = NULL;
		afile_abort(af);
		return dm_err_set(err, DM_EIO, "cannot write %s: %s", path, strerror(e));
	}
	fchmod(fd, 0644);
	af->fp = fdopen(fd, "wb");
	if (!af->fp) {
		int e = errno;
		close(fd);
		afile_abort(af);
		return dm_err_set(err, DM_EIO, "cannot write %s: %s", path, strerror(e));
	}
	return 0;
}

int afile_commit(struct afile *af, struct dm_err *err)
{
	int bad = ferror(af->fp);
	int e = errno;
	if (fclose(af->fp) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	af->fp = NULL;
	/* written in place (af->tmp NULL): nothing to rename, nor to remove */
	if (!bad && af->tmp && rename(af->tmp, af->path) != 0) {
		bad = 1;
		e = errno;
	}
	if (bad) {
		dm_err_set(err, DM_EIO, "cannot write %s: %s", af->path, strerror(e));
		afile_abort(af);
		return DM_EIO;
	}
	free(af->tmp);
	free(af->path);
	af->tmp = NULL;
	af->path = NULL;
	return 0;
}

void afile_abort(struct afile *af)
{
	if (af->fp)
		fclose(af->fp);
	if (af->tmp)
		unlink(af->tmp);
	free(af->tmp);
	free(af->path);
	af->fp = NULL;
	af->tmp = NULL;
	af->path = NULL;
}
