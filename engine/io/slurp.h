/* slurp: a whole file into memory, for the parsers (matrices, traces), with
 * the refusals they share: a missing or unreadable file or a directory
 * (DM_EIO, with strerror's words), more than a size limit (DM_ENOMEM). */
#ifndef DM_SLURP_H
#define DM_SLURP_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#include <stddef.h>
#include <sys/stat.h>

#include <distmm/dm_err.h>

/* Reads path into a new buffer (*out, *len; free() it).  max_bytes 0: no
 * limit.  Returns 0, DM_EIO or DM_ENOMEM with err naming the file. */
int slurp_file(const char *path, size_t max_bytes, char **out, size_t *len, struct dm_err *err);

/* The pieces of slurp_file, for a reader that puts the bytes where they
 * belong instead (npy.c reads a matrix's data straight into the matrix).
 * slurp_open: opens path with slurp_file's refusals (missing, unreadable, a
 * directory, a regular file over max_bytes); *fd to close(), *st filled.
 * slurp_fd: the rest of the file from fd into a new buffer, as slurp_file.
 * slurp_read_full: up to n bytes into buf, until EOF; *got says how many.
 * Each returns 0, DM_EIO or DM_ENOMEM with err naming the file. */
int slurp_open(const char *path, size_t max_bytes, int *fd, struct stat *st, struct dm_err *err);
int slurp_fd(int fd, const struct stat *st, const char *path, size_t max_bytes, char **out,
	     size_t *len, struct dm_err *err);
int slurp_read_full(int fd, void *buf, size_t n, size_t *got, const char *path,
		    struct dm_err *err);

#endif
