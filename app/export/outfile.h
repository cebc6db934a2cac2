/* outfile: an output written all or nothing, for app/ (the engine's afile is
 * internal to it).  The bytes go to a temporary file beside the target,
 * renamed over it only once all are written and flushed, so a failed write,
 * a crash or a kill never leaves half a recording under the target's name.
 * A target that exists and is not a regular file (/dev/null, a FIFO) or is
 * a symbolic link is written in place, as afile does: a rename would
 * replace the device node or the link. */
#ifndef EXPORT_OUTFILE_H
#define EXPORT_OUTFILE_H

#include <stdio.h>

#include <distmm/dm_err.h>

struct outfile {
	FILE *fp;
	char *path;
	char *tmp; /* the temporary file, or NULL when written in place */
};

/* Opens a temporary file beside path.  Returns 0 or DM_EIO / DM_ENOMEM
 * with err naming path. */
int outfile_open(struct outfile *f, const char *path, struct dm_err *err);

/* Flushes and closes the temporary file, still under its temporary name
 * (so that several outputs can be renamed together, once all are written).
 * Returns 0, or DM_EIO after removing it. */
int outfile_finish(struct outfile *f, struct dm_err *err);

/* Renames a finished file into place.  Returns 0 or DM_EIO (the temporary
 * file is then removed). */
int outfile_rename(struct outfile *f, struct dm_err *err);

/* outfile_finish then outfile_rename. */
int outfile_commit(struct outfile *f, struct dm_err *err);

/* Closes and removes the temporary file (anything written in place stays). */
void outfile_abort(struct outfile *f);

#endif
