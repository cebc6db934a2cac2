/* tui_drill: --quiz=clock, --quiz=tp (see tui_drill.h).  The questions and
 * their checks are the bank's (app/practice/drills.c), asked as the
 * interview's follow-up round asks: type, Enter checks, Tab shows (counted
 * as missed), the worked answer follows.  Nothing runs but the checks, so
 * the loop is a blocking getch: no timer, no thread.  q leaves, and the
 * score is printed once the terminal is back, for the candidate's notes. */
#include "tui_drill.h"

#include <curses.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/inputs.h"
#include "cli/status.h"
#include "draw.h"
#include "layout.h"
#include "theme.h"
#include "tui.h"

void drill_init(struct drill *d, int set, const struct qbank_ctx *ctx)
{
	memset(d, 0, sizeof *d);
	d->set = set;
	d->ctx = *ctx;
}

int drill_key(struct drill *d, int ch)
{
	int n = drill_count(d->set);
	if (ch == 'q')
		return 1;
	if (d->cur >= n)
		return 0;
	if (d->answered) {
		if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
			d->cur++;
			d->answered = 0;
			d->len = 0;
			d->input[0] = '\0';
			d->feedback[0] = '\0';
		}
		return 0;
	}
	if (ch == '\t') {
		d->outcome[d->cur] = DRILL_SHOWN;
		d->answered = 1;
		d->fb_ok = 0;
		snprintf(d->feedback, sizeof d->feedback, "shown (counted as missed):");
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		if (!d->len)
			return 0;
		char msg[400];
		int v = qbank_check(drill_row(d->set, d->cur), &d->ctx, d->input, msg, sizeof msg);
		d->fb_ok = v == QBANK_RIGHT;
		if (v == QBANK_RIGHT) {
			d->outcome[d->cur] = DRILL_RIGHT;
			d->answered = 1;
			snprintf(d->feedback, sizeof d->feedback, "right.");
		} else {
			d->wrong[d->cur] += v == QBANK_WRONG;
			snprintf(d->feedback, sizeof d->feedback, "%s%s",
				 v == QBANK_WRONG ? "not yet: " : "", msg);
		}
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (d->len)
			d->input[--d->len] = '\0';
	} else if (ch >= ' ' && ch < 127 && d->len < DRILL_INPUT_MAX) {
		d->input[d->len++] = (char)ch;
		d->input[d->len] = '\0';
	}
	return 0;
}

struct drill_out {
	struct iv_line *line;
	int n, max, width;
};

static void drill_add(struct drill_out *o, int how, int rule, const char *text)
{
	if (o->n >= o->max)
		return;
	struct iv_line *l = &o->line[o->n++];
	l->how = how;
	l->rule = rule;
	size_t len = strlen(text); /* ASCII: a byte a column, cut at the screen's edge */
	if (len > (size_t)(o->width > 0 ? o->width : 0))
		len = (size_t)(o->width > 0 ? o->width : 0);
	if (len >= sizeof l->text)
		len = sizeof l->text - 1;
	memcpy(l->text, text, len);
	l->text[len] = '\0';
}

/* text wrapped to the width, indented by indent after its first line */
static void drill_wrap(struct drill_out *o, int how, const char *text, int indent)
{
	int start[32], len[32];
	int w = o->width - indent > 10 ? o->width - indent : 10;
	int n = layout_wrap(text, w, start, len, 32);
	for (int i = 0; i < n && i < 32; i++) {
		char buf[320];
		snprintf(buf, sizeof buf, "%*s%.*s", i ? indent : 0, "", len[i], text + start[i]);
		drill_add(o, how, 0, buf);
	}
}

static int drill_right(const struct drill *d)
{
	int right = 0;
	for (int q = 0; q < drill_count(d->set); q++)
		right += d->outcome[q] == DRILL_RIGHT;
	return right;
}

void drill_summary(const struct drill *d, char *buf, size_t size)
{
	int n = drill_count(d->set);
	size_t o = (size_t)snprintf(buf, size, "--quiz=%s: %d of %d right", drill_set_name(d->set),
				    drill_right(d), n);
	int missed = 0;
	for (int q = 0; q < n && o < size; q++) {
		if (d->outcome[q] == DRILL_RIGHT)
			continue;
		o += (size_t)snprintf(buf + o, size - o, "%s%s%s", missed ? "; " : "; to practise: ",
				      drill_row(d->set, q)->name,
				      d->outcome[q] == DRILL_SHOWN ? " (shown)"
				      : q < d->cur		   ? ""
								   : " (not reached)");
		missed++;
	}
}

int drill_lines(const struct drill *d, int width, int height, struct iv_line *out, int max)
{
	struct drill_out o = { out, 0, max < height - 1 ? max : height - 1, width };
	if (o.max < 0)
		o.max = 0;
	int n = drill_count(d->set);
	char buf[QBANK_TEXT_MAX + 64], text[QBANK_TEXT_MAX];
	if (d->set == DRILL_CLOCK)
		snprintf(buf, sizeof buf, "the clock's follow-ups, on %s, n = %d", d->ctx.hw.name,
			 d->ctx.n);
	else
		snprintf(buf, sizeof buf, "tensor parallel's follow-ups");
	drill_add(&o, VIEW_TONE_TITLE, 0, buf);
	drill_add(&o, VIEW_TONE_NORMAL, 1, "");
	if (d->cur >= n) {
		drill_summary(d, text, sizeof text);
		drill_wrap(&o, VIEW_TONE_TITLE, text + strlen("--quiz=") + strlen(drill_set_name(d->set)) + 2,
			   2);
	} else {
		const struct qbank_row *r = drill_row(d->set, d->cur);
		snprintf(buf, sizeof buf, "question %d of %d (%d right so far)", d->cur + 1, n,
			 drill_right(d));
		drill_add(&o, VIEW_TONE_TITLE, 0, buf);
		drill_wrap(&o, VIEW_TONE_NORMAL, qbank_text(r, &d->ctx, text, sizeof text), 0);
		snprintf(buf, sizeof buf, "> %s%s", d->input, d->answered ? "" : "_");
		drill_add(&o, VIEW_TONE_KEY, 0, buf);
		if (d->feedback[0])
			drill_wrap(&o, d->fb_ok ? VIEW_TONE_OK : VIEW_TONE_BAD, d->feedback, 2);
		if (d->answered)
			drill_wrap(&o, VIEW_TONE_NORMAL, qbank_worked(r, &d->ctx, text, sizeof text), 2);
	}
	o.max = max < height ? max : height; /* the key bar, always on the last line */
	if (o.n < o.max)
		drill_add(&o, VIEW_TONE_KEY, 0,
			  d->cur >= n	  ? "q quit"
			  : d->answered ? "Enter next question  q quit"
					: "type the answer, Enter check  Tab show it  q quit");
	return o.n;
}

#define DRILL_LINES_MAX 96

static void drill_draw(const struct drill *d)
{
	static struct iv_line lines[DRILL_LINES_MAX];
	int rows, cols;
	getmaxyx(stdscr, rows, cols);
	draw_line_screen(lines, drill_lines(d, cols, rows, lines, DRILL_LINES_MAX));
}

int tui_drill_main(const struct cli_opts *o)
{
	struct qbank_ctx ctx = { .n = o->given & CLI_GIVEN_DEVICES ? o->devices : DRILL_RANKS };
	struct dm_err err;
	if (inputs_hw(o, &ctx.hw, &err)) {
		status_error("%s", err.msg);
		return STATUS_USAGE;
	}
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		status_error("--quiz=%s needs a terminal on stdin and stdout", drill_set_name(o->drill));
		return STATUS_USAGE;
	}
	struct drill d;
	drill_init(&d, o->drill, &ctx);
	SCREEN *scr = tui_screen_open();
	if (!scr)
		return STATUS_USAGE;
	tui_screen_modes(o);
	/* nothing runs between keys: block until one (or a signal) comes */
	int done = 0;
	while (!done && !tui_signalled()) {
		drill_draw(&d);
		struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
		if (poll(&p, 1, -1) < 0 && errno != EINTR)
			break;
		nodelay(stdscr, TRUE);
		for (int ch; !done && !tui_signalled() && (ch = getch()) != ERR;)
			done = ch != KEY_RESIZE && drill_key(&d, ch);
	}
	tui_screen_close(scr);
	int sig = tui_signalled();
	if (!sig) {
		char line[1024];
		drill_summary(&d, line, sizeof line);
		printf("%s\n", line);
	}
	tui_end_signal();
	return STATUS_OK;
}
