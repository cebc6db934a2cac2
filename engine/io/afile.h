/* afile: write a file all or nothing.  Output goes to a temporary file in the
 * same directory, renamed over the target only once every byte is written,
 * so an error (or a kill) never leaves a half-written result behind.  A
 * target that exists and is not a regular file (/dev/null, a FIFO) or is a
 * symbolic link (/dev/stdout) is written in place: renaming over it would
 * replace the device node or the link (as root, /dev/null itself). */
#ifndef DM_AFILE_H
#define DM_AFILE_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#include <stdio.h>

#include <distmm/dm_err.h>

struct afile {
	FILE *fp;
	char *path;
	char *tmp; /* NULL when writing in place */
};

/* Opens a temporary file beside path.  Returns 0 or DM_EIO (err names path). */
int afile_open(struct afile *af, const char *path, struct dm_err *err);

/* Flushes, closes and renames into place.  Returns 0, or DM_EIO after
 * removing the temporary file. */
int afile_commit(struct afile *af, struct dm_err *err);

/* Closes and removes the temporary file. */
void afile_abort(struct afile *af);

#endif
