/* bench_tui: the interface's figures for `make bench`, without a terminal.
 * Curses writes to /dev/null through newterm() at a fixed size (LINES and
 * COLUMNS), and each frame is what tui.c's loop does: view_tick and
 * draw_screen (the layout request, layout_compute, the drawing, doupdate).
 * Built from app/'s own objects, unchanged.  One JSON object a line on
 * stdout.  The bar: 300x80 with 16 devices, a median of 2 ms or less.
 *
 *   bench_tui frames D COLS ROWS COUNT [M K N]  frame times while stops animate
 *   bench_tui startup D COLS ROWS               main() to the first frame on screen */
#include <curses.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "tui/draw.h"
#include "cli/inputs.h"
#include "tui/layout.h"
#include "tui/theme.h"
#include "tui/view.h"

static uint64_t bt_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int bt_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

struct bt_session {
	struct cli_opts o;
	struct mat a, b;
	struct view v;
	SCREEN *scr;
	FILE *out, *in;
};

/* What tui_main does before its loop, with /dev/null for the terminal. */
static void bt_start(struct bt_session *s, const char *devices, int cols, int rows,
		     char *const *shape)
{
	char *argv[] = { "distmm-tui", "-d", (char *)devices, "-M", NULL, "-K", NULL, "-N", NULL, NULL };
	char err_line[256], num[16];
	struct dm_err err;
	int argc = 3;
	if (shape) {
		argv[4] = shape[0];
		argv[6] = shape[1];
		argv[8] = shape[2];
		argc = 9;
	}
	if (cli_parse(argc, argv, &s->o, err_line, sizeof err_line) != CLI_RUN) {
		fprintf(stderr, "bench_tui: %s\n", err_line);
		exit(2);
	}
	if (inputs_load(&s->o, &s->a, &s->b, &err)) {
		fprintf(stderr, "bench_tui: %s\n", err.msg);
		exit(1);
	}
	struct view_config cfg = { .mode = s->o.mode, .devices = s->o.devices, .capacity = s->o.capacity,
				   .order = s->o.order, .bug = s->o.bug };
	if (view_init(&s->v, &s->a, &s->b, &cfg, 0, bt_now(), &err)) {
		fprintf(stderr, "bench_tui: %s\n", err.msg);
		exit(1);
	}
	setlocale(LC_ALL, "");
	snprintf(num, sizeof num, "%d", rows);
	setenv("LINES", num, 1);
	snprintf(num, sizeof num, "%d", cols);
	setenv("COLUMNS", num, 1);
	s->out = fopen("/dev/null", "w");
	s->in = fopen("/dev/null", "r");
	s->scr = s->out && s->in ? newterm("xterm-256color", s->out, s->in) : NULL;
	if (!s->scr) {
		fprintf(stderr, "bench_tui: newterm failed\n");
		exit(1);
	}
	if (LINES != rows || COLS != cols)
		resizeterm(rows, cols);
	curs_set(0);
	theme_init(0, 0, 0);
	s->v.utf8 = theme_utf8();
}

static void bt_stop(struct bt_session *s)
{
	endwin();
	delscreen(s->scr);
	fclose(s->out);
	fclose(s->in);
	view_free(&s->v);
	mat_free(&s->a);
	mat_free(&s->b);
}

/* One frame as tui_loop draws it; returns whether the layout fit. */
static int bt_frame(struct view *v, uint64_t now)
{
	view_tick(v, now);
	return draw_screen(v, now);
}

#define BT_FRAMES_PER_PHASE 30

static int bt_frames(const char *devices, int cols, int rows, int count, char *const *shape)
{
	struct bt_session s;
	memset(&s, 0, sizeof s);
	bt_start(&s, devices, cols, rows, shape);
	double *ft = calloc((size_t)count, sizeof *ft);
	uint64_t clock = bt_now();
	int phases = 0;
	/* the first frame draws everything: not counted */
	int ok_layout = bt_frame(&s.v, clock);
	for (int f = 0; f < count; f++) {
		if (f % BT_FRAMES_PER_PHASE == 0) {
			/* the next phase, outside the frame's time: its animation
			 * is what the frames then draw */
			struct dm_err err;
			if (s.v.finished || s.v.failed)
				view_restart(&s.v, clock, &err);
			else
				view_next(&s.v, clock);
			phases++;
		}
		/* the clock moves through the animation as a 30 Hz loop would */
		clock += s.v.anim_dur / BT_FRAMES_PER_PHASE + 1;
		uint64_t t0 = bt_now();
		bt_frame(&s.v, clock);
		ft[f] = (double)(bt_now() - t0) * 1e-6;
	}
	bt_stop(&s);
	qsort(ft, (size_t)count, sizeof *ft, bt_cmp);
	double sum = 0;
	for (int f = 0; f < count; f++)
		sum += ft[f];
	printf("{\"bench\":\"frames\",\"d\":%s,\"cols\":%d,\"rows\":%d,\"frames\":%d,"
	       "\"phases\":%d,\"layout_ok\":%s,\"median_ms\":%.4f,\"p99_ms\":%.4f,"
	       "\"max_ms\":%.4f,\"mean_ms\":%.4f}\n",
	       devices, cols, rows, count, phases, ok_layout ? "true" : "false",
	       ft[count / 2], ft[(size_t)((double)(count - 1) * 0.99)], ft[count - 1],
	       sum / count);
	free(ft);
	return 0;
}

static int bt_startup(const char *devices, int cols, int rows)
{
	uint64_t t0 = bt_now();
	struct bt_session s;
	memset(&s, 0, sizeof s);
	bt_start(&s, devices, cols, rows, NULL);
	bt_frame(&s.v, bt_now());
	uint64_t t1 = bt_now();
	bt_stop(&s);
	/* the teardown (joining the devices, endwin) is in the exec'd wall
	 * time too: printed so that it can be taken out */
	printf("{\"bench\":\"startup\",\"d\":%s,\"main_to_frame_ms\":%.3f,"
	       "\"teardown_ms\":%.3f}\n",
	       devices, (double)(t1 - t0) * 1e-6, (double)(bt_now() - t1) * 1e-6);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 6 && strcmp(argv[1], "frames") == 0)
		return bt_frames(argv[2], atoi(argv[3]), atoi(argv[4]),
				 atoi(argv[5]) > 0 ? atoi(argv[5]) : 1, argc >= 9 ? argv + 6 : NULL);
	if (argc >= 5 && strcmp(argv[1], "startup") == 0)
		return bt_startup(argv[2], atoi(argv[3]), atoi(argv[4]));
	fprintf(stderr, "usage: bench_tui frames D COLS ROWS COUNT [M K N] | startup D COLS ROWS\n");
	return 2;
}
