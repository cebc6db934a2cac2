/* record: frames to an asciicast, a marker per phase (see record.h).
 * A phase's marker goes where its screen has settled (its motion over), the
 * moment a talk pauses on; a phase left before it settled (n pressed during
 * the motion) gets its marker at its last frame, so every phase shown has
 * exactly one. */
#include "record.h"

#include <stdio.h>
#include <string.h>

#include <distmm/schedule.h>

void record_command(int argc, char *const argv[], char *buf, size_t size)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789_./=:,+@%-";
	size_t len = 0;
	buf[0] = '\0';
	for (int i = 0; i < argc && len + 1 < size; i++) {
		const char *a = argv[i], *slash = i == 0 ? strrchr(a, '/') : NULL;
		if (slash && slash[1])
			a = slash + 1; /* the program's name, not where this machine keeps it */
		int plain = *a && strspn(a, safe) == strlen(a);
		if (i)
			buf[len++] = ' ';
		if (!plain && len + 1 < size)
			buf[len++] = '\'';
		for (; *a && len + 5 < size; a++) {
			if (*a == '\'' && !plain) {
				memcpy(buf + len, "'\\''", 4); /* end the quote, a quote, quote again */
				len += 4;
			} else {
				buf[len++] = *a;
			}
		}
		if (!plain && len + 1 < size)
			buf[len++] = '\'';
		buf[len] = '\0';
	}
}

void record_title(const struct view *v, const char *lesson_title, char *buf, size_t size)
{
	if (lesson_title && *lesson_title) {
		snprintf(buf, size, "distmm-tui: %s", lesson_title);
		return;
	}
	/* a judged run is the candidate's, not the engine's nor a trace's: the
	 * modes' word, as the status bar's */
	snprintf(buf, size, "distmm-tui%s: %s, %d device%s, A %zux%zu, B %zux%zu",
		 view_tag(v), plan_mode_name(v->cfg.mode), v->cfg.devices,
		 v->cfg.devices == 1 ? "" : "s", v->a->rows, v->a->cols, v->b->rows, v->b->cols);
}

int record_open(struct record *r, const char *path, const char *title, const char *command,
		const struct palette *pal, record_still_fn still, void *ctx, struct dm_err *err)
{
	int rc;
	memset(r, 0, sizeof *r);
	r->still = still;
	r->still_ctx = ctx;
	if (path) {
		if ((rc = cast_open(&r->cast, path, title, command, pal, err)))
			return rc;
		r->has_cast = 1;
	}
	return 0;
}

static void record_fail(struct record *r, const struct dm_err *err)
{
	if (!r->failed)
		r->err = *err;
	r->failed = 1;
}

static void record_marker(struct record *r, uint64_t t, const struct grid *g)
{
	struct dm_err err;
	r->marked = 1;
	if (r->has_cast)
		cast_marker(&r->cast, t, r->caption);
	if (r->still && !r->failed && r->still(r->still_ctx, g, r->caption)) {
		dm_err_set(&err, DM_EIO, "cannot write a still of the export");
		record_fail(r, &err);
	}
}

void record_frame(struct record *r, const struct view *v, uint64_t now)
{
	struct dm_err err;
	int key[6] = { view_chapter(v), v->snap.phase, v->failed, v->finished, v->cfg.mode,
			v->cfg.devices };
	if (r->failed)
		return;
	if (grid_capture(&r->now, r->win ? r->win : stdscr)) {
		dm_err_set(&err, DM_ENOMEM, "out of memory recording the screen");
		record_fail(r, &err);
		return;
	}
	int changed = !r->have_key || memcmp(key, r->key, sizeof key) != 0;
	if (changed && r->have_key && !r->marked && r->have_last)
		record_marker(r, r->last_t, &r->last); /* left before it settled */
	if (changed) {
		memcpy(r->key, key, sizeof key);
		r->have_key = 1;
		r->marked = 0;
		view_caption(v, r->caption, sizeof r->caption);
	}
	if (r->has_cast)
		cast_frame(&r->cast, now, &r->now);
	if (!r->marked && !v->animating)
		record_marker(r, now, &r->now);
	/* copied, not swapped: r->now keeps its capture cache for the next frame */
	if (grid_copy(&r->last, &r->now)) {
		dm_err_set(&err, DM_ENOMEM, "out of memory recording the screen");
		record_fail(r, &err);
		return;
	}
	r->have_last = 1;
	r->last_t = now;
}

int record_close(struct record *r, struct dm_err *err)
{
	int rc = 0;
	if (r->have_key && !r->marked && r->have_last)
		record_marker(r, r->last_t, &r->last);
	grid_free(&r->now);
	if (r->failed) {
		*err = r->err;
		record_free(r);
		return r->err.code ? r->err.code : DM_EIO;
	}
	if (r->has_cast) {
		rc = cast_close(&r->cast, err);
		r->has_cast = 0;
	}
	return rc;
}

void record_free(struct record *r)
{
	if (r->has_cast)
		cast_abort(&r->cast);
	r->has_cast = 0;
	grid_free(&r->now);
	grid_free(&r->last);
	r->have_last = 0;
}

const struct grid *record_last_grid(const struct record *r)
{
	return r->have_last ? &r->last : NULL;
}
