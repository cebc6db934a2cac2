/* headless: --export, the interface without a terminal (see headless.h).  The session starts as the
 * interface starts it (session.h), draw_screen draws every frame into a
 * curses screen whose terminal is /dev/null, and record.h reads each frame
 * back.  Time is virtual: each frame is drawn at the time the view says it
 * wants the next one (view_wake_at), so the file's times follow the playing
 * speed while a whole run exports as fast as it can be drawn.  It lives with
 * the interface it draws (draw.h, session.h); app/export/ holds only the
 * file formats, so the layers go one way: tui/ uses export/, never back. */
#include "headless.h"

#include <curses.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <distmm/outfile.h>

#include "draw.h"
#include "layout.h"
#include "record.h"
#include "batch/report.h"
#include "session.h"
#include "cli/status.h"
#include "export/manifest.h"
#include "export/svg.h"
#include "theme.h"

#define HEADLESS_T0 1000000000ull         /* the clock's origin: any, but not 0 (view: "never") */
#define HEADLESS_HOLD_NS 1600000000ull    /* a lesson's part ends on screen this long at 1x */
#define HEADLESS_MAX_FRAMES 2000000       /* a view that never ends is a bug, not a hang */

enum { HEADLESS_CAST = 1, HEADLESS_SVG };

static int headless_kind(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *dot = strrchr(slash ? slash + 1 : path, '.');
	if (dot && strcasecmp(dot, ".cast") == 0)
		return HEADLESS_CAST;
	if (dot && strcasecmp(dot, ".svg") == 0)
		return HEADLESS_SVG;
	return 0;
}

int headless_check_path(const char *path, int record)
{
	struct dm_err err;
	int kind = headless_kind(path);
	if (record && kind != HEADLESS_CAST) {
		status_error("%s: --record writes an asciicast (use a .cast name)", path);
		return STATUS_USAGE;
	}
	if (!kind) {
		status_error("%s: unknown export type (use .cast or .svg)", path);
		return STATUS_USAGE;
	}
	if (report_check_output(path, 0, &err)) {
		status_error("%s", err.msg);
		return STATUS_USAGE;
	}
	return STATUS_OK;
}

/* The SVG stills: FILE-000.svg, FILE-001.svg, ... written to temporary
 * files as the phases come, renamed together at the end with FILE.svg,
 * which lists them (manifest.h): the next export of FILE.svg removes the
 * ones it does not write again, if they are still as this one wrote them. */
struct headless_svgs {
	char *base; /* the path without ".svg" */
	struct manifest_entry *old; /* what the FILE.svg in place says it wrote */
	int n_old;
	struct outfile *f;
	int n, cap;
	int failed;
	struct dm_err err;
	struct palette pal; /* the theme's own colours */
};

/* The name of the stills without their folder: what the manifest names. */
static const char *headless_base_name(const struct headless_svgs *s)
{
	const char *slash = strrchr(s->base, '/');
	return slash ? slash + 1 : s->base;
}

/* The final still's manifest: each still written so far, by its bytes. */
static int headless_manifest(struct headless_svgs *s, FILE *fp)
{
	struct manifest_entry *e = calloc((size_t)s->n + 1, sizeof *e);
	if (!e)
		return dm_err_set(&s->err, DM_ENOMEM, "out of memory writing the stills");
	for (int i = 0; i < s->n; i++) {
		e[i].index = i;
		if (manifest_sum(s->f[i].tmp ? s->f[i].tmp : s->f[i].path, &e[i].size, &e[i].hash))
			e[i].size = -1; /* written in place, not a file: never removed */
	}
	manifest_write(fp, headless_base_name(s), e, s->n);
	free(e);
	return 0;
}

/* After the new series is in place: the stills the one before wrote that
 * this one did not write again, each only if it is still the very file
 * written then (its size and hash), never through a link. */
static void headless_remove_stale(const struct headless_svgs *s)
{
	char path[4200];
	for (int i = 0; i < s->n_old; i++) {
		const struct manifest_entry *o = &s->old[i];
		long long size;
		uint64_t hash;
		if (o->index < s->n - 1) /* s->n counts the final still too */
			continue;
		snprintf(path, sizeof path, "%s-%03d.svg", s->base, o->index);
		if (!manifest_sum(path, &size, &hash) && size == o->size && hash == o->hash)
			unlink(path);
	}
}

static int headless_svg_file(struct headless_svgs *s, const char *path, const struct grid *g,
			   const char *title, int final)
{
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 64;
		struct outfile *f = realloc(s->f, (size_t)cap * sizeof *f);
		if (!f) {
			dm_err_set(&s->err, DM_ENOMEM, "out of memory writing %s", path);
			return -1;
		}
		s->f = f;
		s->cap = cap;
	}
	struct outfile *f = &s->f[s->n];
	if (outfile_open(f, path, &s->err))
		return -1;
	svg_write(f->fp, g, title, &s->pal);
	if (final && headless_manifest(s, f->fp)) {
		outfile_abort(f);
		return -1;
	}
	if (outfile_finish(f, &s->err))
		return -1;
	s->n++;
	return 0;
}

static int headless_still(void *ctx, const struct grid *g, const char *label)
{
	struct headless_svgs *s = ctx;
	char path[4200];
	if (s->failed)
		return -1;
	snprintf(path, sizeof path, "%s-%03d.svg", s->base, s->n);
	if (headless_svg_file(s, path, g, label, 0)) {
		s->failed = 1;
		return -1;
	}
	return 0;
}

/* Removes every still not renamed yet (a renamed one is a cleared outfile). */
static void headless_svgs_abort(struct headless_svgs *s)
{
	for (int i = 0; i < s->n; i++)
		outfile_abort(&s->f[i]);
	s->n = 0;
}

/* Renames every still into place; if one fails, removes them all, the ones
 * renamed before it too: no partial series is left. */
static int headless_svgs_commit(struct headless_svgs *s, struct dm_err *err)
{
	int n = s->n, i, rc = 0;
	char **done = calloc((size_t)n + 1, sizeof *done);
	if (!done)
		rc = dm_err_set(err, DM_ENOMEM, "out of memory writing the stills");
	for (i = 0; !rc && i < n; i++) {
		if (!(done[i] = strdup(s->f[i].path)))
			rc = dm_err_set(err, DM_ENOMEM, "out of memory writing %s", s->f[i].path);
		else
			rc = outfile_rename(&s->f[i], err);
	}
	if (rc) {
		for (int j = 0; done && j < i - 1; j++)
			unlink(done[j]); /* renamed before the one that failed */
		headless_svgs_abort(s);
	}
	for (int j = 0; done && j < n; j++)
		free(done[j]);
	free(done);
	return rc ? -1 : 0;
}

static void headless_svgs_free(struct headless_svgs *s)
{
	free(s->old);
	free(s->f);
	free(s->base);
	memset(s, 0, sizeof *s);
}

static volatile sig_atomic_t headless_signal;

static void headless_on_signal(int sig)
{
	headless_signal = sig;
}

/* An interrupted export removes what it wrote, then dies of the signal. */
static void headless_catch_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = headless_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* A curses screen that goes nowhere, of the size asked for.  The terminal
 * type is fixed (Debian's ncurses-base ships xterm-256color) so that the
 * export is the same whatever TERM says, with 256 colours as the
 * interface has in tmux or a modern terminal. */
struct headless_screen {
	SCREEN *scr;
	FILE *out, *in;
};

static int headless_screen_open(struct headless_screen *s, int cols, int rows)
{
	static const char *const terms[] = { "xterm-256color", "xterm", "ansi" };
	memset(s, 0, sizeof *s);
	s->out = fopen("/dev/null", "w");
	s->in = fopen("/dev/null", "r");
	if (!s->out || !s->in)
		goto fail;
	/* UTF-8 for the rendering, whatever the caller's locale: the stills and
	 * the cast are UTF-8, and theme.c draws Unicode lines only in it */
	if (!setlocale(LC_ALL, "C.UTF-8") && !setlocale(LC_ALL, "C.utf8"))
		setlocale(LC_ALL, "");
	for (size_t i = 0; i < sizeof terms / sizeof terms[0] && !s->scr; i++)
		s->scr = newterm(terms[i], s->out, s->in);
	if (!s->scr)
		goto fail;
	if (resizeterm(rows, cols) == ERR) {
		endwin();
		delscreen(s->scr);
		goto fail;
	}
	return 0;
fail:
	if (s->out)
		fclose(s->out);
	if (s->in)
		fclose(s->in);
	memset(s, 0, sizeof *s);
	return -1;
}

static void headless_screen_close(struct headless_screen *s)
{
	endwin();
	delscreen(s->scr);
	fclose(s->out);
	fclose(s->in);
}

/* Rows the screen has beyond --size's: the two bars a bare export leaves out. */
static int headless_extra_rows(const struct view *v)
{
	return v->bare ? 2 : 0;
}

/* Says why the size does not fit the run: the layout knows what it needs. */
static void headless_too_small(const struct cli_opts *o, const struct view *v, uint64_t now)
{
	int nc, nr, n = v->snap.n, extra = headless_extra_rows(v);
	draw_need(v, o->cols, o->rows + extra, now, &nc, &nr);
	nr -= extra;
	status_error("--size %dx%d is too small for %d device%s: the interface needs %dx%d", o->cols,
		     o->rows, n, n == 1 ? "" : "s", nc, nr);
}

/* Plays every part to its end.  Returns 0, or STATUS_USAGE with the line said. */
static int headless_play(struct session *t, struct record *rec, uint64_t now)
{
	struct dm_err err;
	uint64_t hold = (uint64_t)((double)HEADLESS_HOLD_NS / session_speed_factor(t));
	t->v.playing = 1;
	for (long frames = 0;; frames++) {
		struct view *v = &t->v;
		if (headless_signal || frames > HEADLESS_MAX_FRAMES) {
			if (!headless_signal)
				status_error("the animation did not come to an end");
			return STATUS_USAGE;
		}
		view_tick(v, now);
		if (!draw_screen(v, now)) {
			headless_too_small(&t->opts, v, now);
			return STATUS_USAGE;
		}
		record_frame(rec, v, now);
		uint64_t wake = view_wake_at(v, now);
		if (wake) {
			now = wake > now ? wake : now;
			continue;
		}
		/* the end of the run, or of a lesson's part: the next part, if any */
		int next = session_next_part(t, now + hold, &err);
		if (next < 0) {
			status_error("%s", err.msg);
			return status_of(err.code);
		}
		if (next == 0)
			return STATUS_OK;
		now += hold;
		t->v.playing = 1;
	}
}

static int headless_run(struct session *t, const struct cli_opts *o, int kind, const char *command)
{
	struct headless_screen scr;
	struct headless_svgs svgs;
	struct record rec;
	struct dm_err err;
	char title[256];
	int rc, extra = headless_extra_rows(&t->v);
	WINDOW *bare = NULL;

	memset(&svgs, 0, sizeof svgs);
	if (headless_screen_open(&scr, o->cols, o->rows + extra) ||
	    (extra && !(bare = derwin(stdscr, o->rows, o->cols, 1, 0)))) {
		if (scr.scr)
			headless_screen_close(&scr);
		status_error("cannot set up a curses screen of %dx%d for the export", o->cols, o->rows);
		return STATUS_USAGE;
	}
	theme_init(session_mono(o), o->ascii, o->theme);
	t->v.utf8 = theme_utf8();
	svgs.pal = theme_palette(o->theme);
	record_title(&t->v, t->lesson ? t->lesson->title : NULL, title, sizeof title);
	if (kind == HEADLESS_SVG) {
		size_t len = strlen(o->export_file) - 4; /* without ".svg" */
		svgs.base = malloc(len + 1);
		if (svgs.base) {
			memcpy(svgs.base, o->export_file, len);
			svgs.base[len] = '\0';
		}
	}
	if (kind == HEADLESS_SVG && !svgs.base)
		rc = dm_err_set(&err, DM_ENOMEM, "out of memory");
	else
		rc = record_open(&rec, kind == HEADLESS_CAST ? o->export_file : NULL, title, command,
				 &svgs.pal, kind == HEADLESS_SVG ? headless_still : NULL, &svgs, &err);
	if (rc) {
		if (bare)
			delwin(bare);
		headless_screen_close(&scr);
		headless_svgs_free(&svgs);
		status_error("%s", err.msg);
		return STATUS_USAGE;
	}

	rec.win = bare; /* the screen between the two bars */
	int status = headless_play(t, &rec, HEADLESS_T0);
	if (status == STATUS_OK && (rc = record_close(&rec, &err))) {
		status_error("%s", svgs.failed ? svgs.err.msg : err.msg);
		status = STATUS_USAGE;
	}
	if (status == STATUS_OK && kind == HEADLESS_SVG) {
		const struct grid *last = record_last_grid(&rec);
		/* what the export before this one wrote, read before it is replaced */
		int nomem = manifest_read(o->export_file, headless_base_name(&svgs), &svgs.old,
					  &svgs.n_old);
		if (nomem)
			dm_err_set(&svgs.err, DM_ENOMEM, "out of memory reading %s", o->export_file);
		if (!last || nomem ||
		    headless_svg_file(&svgs, o->export_file, last, title, 1) ||
		    headless_svgs_commit(&svgs, &svgs.err)) {
			status_error("%s", last ? svgs.err.msg : "nothing was drawn to export");
			status = STATUS_USAGE;
		} else {
			headless_remove_stale(&svgs);
		}
	}
	if (status != STATUS_OK)
		headless_svgs_abort(&svgs);
	record_free(&rec); /* removes the cast unless it was closed */
	headless_svgs_free(&svgs);
	if (bare)
		delwin(bare);
	headless_screen_close(&scr);
	return status;
}

int headless_main(const struct cli_opts *o, int argc, char *const argv[])
{
	struct session t;
	struct dm_err err;
	char command[2048];
	int kind = headless_kind(o->export_file), status, rc;

	if ((status = headless_check_path(o->export_file, 0)) ||
	    (status = session_open(&t, o)))
		return status;
	t.no_quiz = 1; /* a lesson's quiz= parts play without questions */
	t.for_file = 1;
	t.svg_still = kind == HEADLESS_SVG;
	t.bare = o->export_chrome == CLI_CHROME_NONE ||
		 (o->export_chrome == CLI_CHROME_AUTO && kind == HEADLESS_SVG);
	if ((rc = session_start(&t, HEADLESS_T0, &err))) {
		status_error("%s", err.msg);
		session_close(&t);
		return status_of(rc);
	}
	if (o->start_kind != CLI_START_READY) {
		char msg[160];
		if (session_start_at(&t, HEADLESS_T0, msg, sizeof msg)) {
			status_error("%s", msg);
			session_stop(&t);
			session_close(&t);
			return STATUS_USAGE;
		}
	}
	record_command(argc, argv, command, sizeof command);
	headless_catch_signals();
	status = headless_run(&t, o, kind, command);
	session_stop(&t);
	session_close(&t);
	if (headless_signal) {
		signal(headless_signal, SIG_DFL);
		raise(headless_signal);
	}
	return status;
}
