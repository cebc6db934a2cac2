/* npy (internal): the .npy reader's second way in, for matio_read.  A
 * matrix file is read in two reads, the header and then the data straight
 * into the matrix, instead of the whole file into a buffer and then a copy;
 * the checks and the messages are npy_parse's (matio.h). */
#ifndef DM_NPY_H
#define DM_NPY_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#include <sys/stat.h>

#include <distmm/dm_err.h>
#include <distmm/mat.h>

/* Reads the .npy file open on fd (a regular file, st its fstat, at its
 * start) into *out.  Returns what npy_parse returns for the same bytes, or
 * DM_EIO when a read fails; on failure *out is an empty 0 x 0 matrix. */
int npy_read_fd(struct mat *out, int fd, const struct stat *st, const char *path,
		struct dm_err *err);

#endif
