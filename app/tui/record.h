/* record: a session's screens as an asciicast, frame by frame as they are
 * drawn: the grid read back from stdscr after each frame (whatever
 * draw_screen drew, overlays and the too-small screen included), a resize
 * event when the screen's size changes, and one marker per phase shown,
 * labelled with its caption.  The live interface (--record) and the
 * headless export (--export) both record through it; only their clocks
 * differ (real time, or the virtual one the export plays by). */
#ifndef TUI_RECORD_H
#define TUI_RECORD_H

#include <stdint.h>

#include <distmm/dm_err.h>

#include "export/cast.h"
#include "cli/cli.h"
#include "export/grid.h"
#include "view.h"

/* Called at each marker with the screen at that moment and the label (the
 * export writes its SVG stills from it). */
typedef int (*record_still_fn)(void *ctx, const struct grid *g, const char *label);

struct record {
	struct cast cast;
	int has_cast;          /* 0: markers and stills only (an SVG export) */
	struct grid now, last; /* this frame and the one before */
	int have_last;
	uint64_t last_t;
	/* the phase on screen: its key, its caption, and whether it has its marker */
	int key[6], have_key, marked;
	char caption[1024];
	WINDOW *win;           /* the part of the screen --record writes: NULL, stdscr whole */
	record_still_fn still;
	void *still_ctx;
	int failed;            /* a still could not be written, or memory ran out */
	struct dm_err err;
};

/* The command line as one string, arguments quoted for a shell when they
 * need it ("distmm-tui --export 'my run.cast'"), the program by its name
 * as a user types it, without the folder it was run from. */
void record_command(int argc, char *const argv[], char *buf, size_t size);

/* The recording's title: the lesson's, or what runs ("FSDP, 4 devices, A 8x6, B 6x4"). */
void record_title(const struct view *v, const char *lesson_title, char *buf, size_t size);

/* Starts a recording: to path when path is not NULL (an asciicast, written
 * safely, see cast.h, its theme pal), and stills through still when it is
 * not NULL.  Returns 0 or an error with err filled. */
int record_open(struct record *r, const char *path, const char *title, const char *command,
		const struct palette *pal, record_still_fn still, void *ctx, struct dm_err *err);

/* After each frame: reads r->win (stdscr when NULL: set it after
 * record_open to record a part of the screen) back and records it at time
 * now (ns). */
void record_frame(struct record *r, const struct view *v, uint64_t now);

/* Ends the recording: the last phase's marker if it has none yet, then the
 * file renamed into place.  Returns 0 or the first error met (the file is
 * then removed).  The last frame stays readable until record_free. */
int record_close(struct record *r, struct dm_err *err);

/* Frees what is left; a recording not closed is removed, temporary file and all. */
void record_free(struct record *r);

/* The last frame captured (the final screen, after record_close too), or NULL. */
const struct grid *record_last_grid(const struct record *r);

#endif
