/* slurp: whole files into memory (see slurp.h). */
#include "io/slurp.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <distmm/mat.h>
#include "core/xalloc.h"

/* The first buffer for a file whose size stat() does not tell (a pipe). */
#define SLURP_CHUNK 65536

/* Reads all of fd into a new buffer.  Reads until EOF rather than trusting
 * st_size, which a file being written can outgrow, and which a pipe lacks. */
int slurp_fd(int fd, const struct stat *st, const char *path, size_t max_bytes, char **out,
	     size_t *out_len, struct dm_err *err)
{
	size_t cap = SLURP_CHUNK, len = 0;
	char *buf;

	if (S_ISREG(st->st_mode)) {
		if (st->st_size < 0 || (uintmax_t)st->st_size >= SIZE_MAX)
			return dm_err_set(err, DM_ENOMEM, "cannot read %s: %jd bytes is too large",
					  path, (intmax_t)st->st_size);
		/* One spare byte so that EOF is seen without growing. */
		cap = (size_t)st->st_size + 1;
	}
	buf = xmalloc(cap);
	if (!buf)
		return dm_err_set(err, DM_ENOMEM, "cannot read %s: out of memory", path);
	for (;;) {
		ssize_t n;
		if (len == cap) {
			size_t ncap;
			char *nb;
			if (mat_size_mul(cap, 2, &ncap)) {
				free(buf);
				return dm_err_set(err, DM_ENOMEM, "cannot read %s: too large", path);
			}
			nb = xrealloc(buf, ncap);
			if (!nb) {
				free(buf);
				return dm_err_set(err, DM_ENOMEM, "cannot read %s: out of memory",
						  path);
			}
			buf = nb;
			cap = ncap;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0) {
			int e = errno;
			if (e == EINTR)
				continue;
			free(buf);
			return dm_err_set(err, DM_EIO, "cannot read %s: %s", path, strerror(e));
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (max_bytes && len > max_bytes) {
			free(buf);
			return dm_err_set(err, DM_ENOMEM,
					  "cannot read %s: more than the limit of %zu bytes", path,
					  max_bytes);
		}
	}
	*out = buf;
	*out_len = len;
	return 0;
}

int slurp_open(const char *path, size_t max_bytes, int *fd, struct stat *st, struct dm_err *err)
{
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return dm_err_set(err, DM_EIO, "cannot read %s: %s", path, strerror(errno));
	const char *why = NULL;
	int e = 0;
	if (fstat(*fd, st) != 0)
		e = errno;
	else if (S_ISDIR(st->st_mode))
		why = "is a directory";
	if (e || why) {
		close(*fd);
		*fd = -1;
		return dm_err_set(err, DM_EIO, "cannot read %s: %s", path, why ? why : strerror(e));
	}
	if (S_ISREG(st->st_mode) && max_bytes && (uintmax_t)st->st_size > max_bytes) {
		close(*fd);
		*fd = -1;
		return dm_err_set(err, DM_ENOMEM,
				  "cannot read %s: %jd bytes is more than the limit of %zu", path,
				  (intmax_t)st->st_size, max_bytes);
	}
	return 0;
}

int slurp_read_full(int fd, void *buf, size_t n, size_t *got, const char *path,
		    struct dm_err *err)
{
	size_t done = 0;
	while (done < n) {
		/* a read moves at most 2^31 - 4096 bytes on Linux: loop */
		ssize_t r = read(fd, (char *)buf + done, n - done);
		if (r < 0) {
			int e = errno;
			if (e == EINTR)
				continue;
			*got = done;
			return dm_err_set(err, DM_EIO, "cannot read %s: %s", path, strerror(e));
		}
		if (r == 0)
			break;
		done += (size_t)r;
	}
	*got = done;
	return 0;
}

int slurp_file(const char *path, size_t max_bytes, char **out, size_t *len, struct dm_err *err)
{
	struct stat st;
	int fd, rc;
	*out = NULL;
	*len = 0;
	if ((rc = slurp_open(path, max_bytes, &fd, &st, err)))
		return rc;
	rc = slurp_fd(fd, &st, path, max_bytes, out, len, err);
	close(fd);
	return rc;
}
