/* cast: an asciicast v2 writer (asciinema's format: a JSON header line, then
 * one JSON array an event).  Frames come in as cell grids; the first (and
 * the first after a resize) is written whole, each later one as the cells
 * that changed, so that the output played into a terminal of the grid's
 * size ends on exactly the last grid.  Events are written as they come to a
 * temporary file renamed into place by cast_close (<distmm/outfile.h>). */
#ifndef EXPORT_CAST_H
#define EXPORT_CAST_H

#include <stdint.h>
#include <time.h>

#include <distmm/dm_err.h>
#include <distmm/outfile.h>

#include "grid.h"
#include "palette.h"

struct cast {
	struct outfile out;
	char *title, *command;
	struct palette pal; /* the header's fg and bg */
	time_t timestamp;
	int started;        /* the header is written (it needs the first grid's size) */
	uint64_t t0, last;  /* the first event's time and the last one's, ns */
	struct grid shown;  /* what a terminal playing the cast shows now */
	char *buf;          /* the text of the frame being built */
	size_t len, cap;
	int nomem;          /* memory ran out: the cast is lost (cast_close says so) */
};

/* Opens path (checked by the caller for its folder) for a cast titled title,
 * recording command, whose header's theme says pal's fg and bg; the header
 * follows the first frame.  Returns 0 or an error with err filled. */
int cast_open(struct cast *c, const char *path, const char *title, const char *command,
	      const struct palette *pal, struct dm_err *err);

/* The screen at time now (ns, any origin: times are from the first event):
 * a resize event when g's size differs from the last frame's, and an output
 * event with what changed (none when nothing did).  Times never go back. */
void cast_frame(struct cast *c, uint64_t now, const struct grid *g);

/* A marker at time now, labelled (asciinema-player stops at one with
 * pauseOnMarkers). */
void cast_marker(struct cast *c, uint64_t now, const char *label);

/* Writes the rest, flushes and renames into place.  Returns 0 or an error
 * (a failed write, no frame at all, memory) with nothing left behind. */
int cast_close(struct cast *c, struct dm_err *err);

/* Removes what was written. */
void cast_abort(struct cast *c);

#endif
