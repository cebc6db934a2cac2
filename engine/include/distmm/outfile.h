/* outfile: a file written all or nothing, for the engine's writers (matio,
 * the traces) and app/'s (the exports, --record) alike.  The bytes go to a
 * temporary file beside the target, ".NAME.XXXXXX" (hidden, and on the same
 * file system, so that rename() is atomic), renamed over the target only
 * once every byte is written and flushed: an error, a crash or a kill never
 * leaves half a result under the target's name.  A target that exists and
 * is not a regular file (/dev/null, a FIFO) or is a symbolic link
 * (/dev/stdout) is written in place: a rename would replace the device node
 * or the link (as root, /dev/null itself).
 *
 * Every temporary file is in a process-wide registry from its creation
 * until it is renamed or removed, so that a signal handler can remove them
 * all with outfile_unlink_pending() before the signal ends the process. */
#ifndef DM_OUTFILE_H
#define DM_OUTFILE_H

#include <stdio.h>

#include "dm_err.h"

/* Callers write to fp and may read path; the rest is the writer's. */
struct outfile {
	FILE *fp;   /* open between outfile_open and outfile_finish */
	char *path; /* the target */
	char *tmp;  /* the temporary file, or NULL when written in place */
	int slot;   /* its place in the registry, or -1 */
};

/* Opens a temporary file beside path (or path itself, in place).  Returns
 * 0, DM_EIO (a directory, a folder that cannot be written) or DM_ENOMEM,
 * with err naming path; on failure nothing is left to abort. */
int outfile_open(struct outfile *f, const char *path, struct dm_err *err);

/* Flushes and closes the temporary file, still under its temporary name
 * (so that several outputs can be renamed together once all are written).
 * Returns 0, or DM_EIO after removing it. */
int outfile_finish(struct outfile *f, struct dm_err *err);

/* Renames a finished file into place.  Returns 0, or DM_EIO after removing
 * the temporary file. */
int outfile_rename(struct outfile *f, struct dm_err *err);

/* outfile_finish then outfile_rename.  Returns as they do. */
int outfile_commit(struct outfile *f, struct dm_err *err);

/* Closes and removes the temporary file (what was written in place stays).
 * Harmless on an outfile already committed or aborted. */
void outfile_abort(struct outfile *f);

/* Removes every temporary file the process has open or finished and not
 * yet renamed.  Async-signal-safe (unlink alone: no lock, no allocation),
 * for a handler of SIGINT, SIGTERM or SIGHUP that then lets the signal end
 * the process: the writers' own bookkeeping is left as it is, and a rename
 * after it fails.  A temporary file is registered from a moment after its
 * creation (signals are blocked in the opening thread between the two); at
 * most OUTFILE_PENDING_MAX at once are, the rest written as usual but not
 * removed by it. */
void outfile_unlink_pending(void);

#define OUTFILE_PENDING_MAX 32

#endif
