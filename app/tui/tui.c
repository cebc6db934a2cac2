/* tui: the main loop.  One thread (this one) owns curses; device threads
 * never touch the screen.  The loop blocks in getch() with a timeout that is
 * the time of the next animation frame or the next phase when playing, and
 * forever when paused, so an idle screen costs no CPU.  Signal handlers only
 * set a flag; the loop restores the terminal, joins the devices, then lets
 * the signal take its usual course. */
#include "tui.h"

#include <curses.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <distmm/bug.h>
#include "draw.h"
#include "inputs.h"
#include "keys.h"
#include "layout.h"
#include "lesson.h"
#include <distmm/run.h>
#include <distmm/schedule.h>
#include "status.h"
#include "theme.h"
#include <distmm/trace.h>
#include "view.h"

static volatile sig_atomic_t tui_signal;

static void tui_on_signal(int sig)
{
	tui_signal = sig;
}

/* For a crash (SIGSEGV, SIGABRT, ...): the terminal's own strings to leave
 * the full-screen mode and show the cursor, and the tty modes from before
 * curses, all saved at start-up so that the handler only calls write() and
 * tcsetattr(), which are safe there.  A best effort: then the signal goes on
 * to kill the process as it would have. */
static char tui_crash_seq[128];
static size_t tui_crash_len;
static struct termios tui_saved_tty;
static int tui_have_tty;

static void tui_on_crash(int sig)
{
	if (tui_crash_len)
		(void)!write(STDOUT_FILENO, tui_crash_seq, tui_crash_len);
	if (tui_have_tty)
		tcsetattr(STDIN_FILENO, TCSANOW, &tui_saved_tty);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void tui_crash_append(const char *cap)
{
	char *s = tigetstr((char *)cap);
	if (!s || s == (char *)-1)
		return;
	size_t len = strlen(s);
	if (tui_crash_len + len < sizeof tui_crash_seq) {
		memcpy(tui_crash_seq + tui_crash_len, s, len);
		tui_crash_len += len;
	}
}

static const int tui_crash_sigs[] = { SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL };

/* Called once curses knows the terminal. */
static void tui_catch_crashes(void)
{
	struct sigaction sa;
	tui_crash_append("sgr0");  /* plain attributes */
	tui_crash_append("cnorm"); /* the cursor back */
	tui_crash_append("rmcup"); /* leave the alternate screen */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = tui_on_crash;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < sizeof tui_crash_sigs / sizeof tui_crash_sigs[0]; i++)
		sigaction(tui_crash_sigs[i], &sa, NULL);
}

/* After endwin: the terminal is as it was, a crash needs no help. */
static void tui_release_crashes(void)
{
	for (size_t i = 0; i < sizeof tui_crash_sigs / sizeof tui_crash_sigs[0]; i++)
		signal(tui_crash_sigs[i], SIG_DFL);
}

static uint64_t tui_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Handlers without SA_RESTART, so a signal also ends a blocking getch(). */
static void tui_catch_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = tui_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static int tui_mono(const struct cli_opts *o)
{
	const char *nc = getenv("NO_COLOR");
	return o->no_color || (nc && *nc);
}

/* What runs: the options in force (a lesson's parts change them), the
 * matrices made from them, and the view over the run. */
struct tui_session {
	struct cli_opts opts;
	const struct lesson *lesson;
	int part;
	const struct trace *trace; /* --replay: the recorded run */
	struct mat a, b;
	struct view v;
};

static void tui_apply_set(struct cli_opts *o, const struct lesson_set *st)
{
	if (st->has & LESSON_SET_MODE) o->mode = st->mode;
	if (st->has & LESSON_SET_DEVICES) o->devices = st->devices;
	if (st->has & LESSON_SET_M) o->M = st->M;
	if (st->has & LESSON_SET_K) o->K = st->K;
	if (st->has & LESSON_SET_N) o->N = st->N;
	if (st->has & LESSON_SET_VALUES) o->values = st->values;
	if (st->has & LESSON_SET_SEED) o->seed = st->seed;
	if (st->has & LESSON_SET_CAPACITY) o->capacity = st->capacity;
	if (st->has & LESSON_SET_NAIVE) o->naive = st->naive;
	if (st->has & LESSON_SET_BUG) o->bug = st->bug;
	if (st->has & LESSON_SET_QUIZ) o->quiz = st->quiz;
}

/* Loads or makes the matrices and starts the view for t->opts. */
static int tui_session_start(struct tui_session *t, struct dm_err *err)
{
	const struct cli_opts *o = &t->opts;
	int rc;
	if ((rc = inputs_load(o, &t->a, &t->b, err)))
		return rc;
	if (t->trace) {
		const struct trace *tr = t->trace;
		if ((rc = trace_check(tr, t->a.rows, t->a.cols, t->b.cols, err)) ||
		    (rc = view_init_replay(&t->v, &t->a, &t->b, tr->ev, tr->n_ev, tr->mode, tr->n,
					   o->bug, tui_now(), err))) {
			mat_free(&t->a);
			mat_free(&t->b);
			return rc;
		}
		t->v.playing = o->play;
		return 0;
	}
	struct view_config cfg = { o->mode, o->devices, o->capacity, o->naive, o->bug };
	if ((rc = view_init(&t->v, &t->a, &t->b, &cfg, o->play, tui_now(), err))) {
		mat_free(&t->a);
		mat_free(&t->b);
		return rc;
	}
	if (o->quiz)
		quiz_init(&t->v.quiz, 1, o->quiz, o->seed);
	t->v.lesson = t->lesson;
	t->v.part = t->part;
	t->v.utf8 = theme_utf8(); /* 0 until the terminal is set up: tui_main sets it then */
	return 0;
}

static void tui_session_stop(struct tui_session *t)
{
	view_free(&t->v); /* joins every device thread */
	mat_free(&t->a);
	mat_free(&t->b);
}

/* At the end of a lesson's part, n goes on to the next part. */
static int tui_next_part(struct tui_session *t, struct dm_err *err)
{
	struct view *v = &t->v;
	if (!t->lesson || t->part + 1 >= t->lesson->nparts || !(v->finished || v->failed))
		return 0;
	tui_session_stop(t);
	t->part++;
	tui_apply_set(&t->opts, &t->lesson->part[t->part].set);
	t->opts.play = 0;
	return tui_session_start(t, err) ? -1 : 1;
}

/* The stop --start-at names for this run, or -2 when the run has no such
 * stop (with why in msg). */
static int tui_start_stop(const struct cli_opts *o, const struct view *v, char *msg, size_t size)
{
	int n = v->cfg.devices, fsdp = v->cfg.mode == DM_FSDP, s = o->start_step;
	switch (o->start_kind) {
	case CLI_START_READY: return -1;
	case CLI_START_GATHER: return v->phase_count - 1;
	case CLI_START_VERIFY: return v->phase_count;
	case CLI_START_COMPUTE:
		if (s < (fsdp ? n : 1))
			return fsdp ? 2 * s : 0;
		snprintf(msg, size, "--start-at %d: the run's steps are s=0 to s=%d", s, fsdp ? n - 1 : 0);
		return -2;
	default:
		if (fsdp && s + 1 < n)
			return 2 * s + 1;
		snprintf(msg, size, "--start-at %dt: %s", s,
			 fsdp ? "the transfers follow steps 0 to n-2" : "DP has no ring transfer");
		return -2;
	}
}

/* A word of the command line, quoted for a shell when it needs it. */
static size_t tui_arg(char *buf, size_t size, size_t len, const char *word)
{
	int plain = *word != '\0';
	for (const char *c = word; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
		      strchr("-_./=:+,@%", *c)))
			plain = 0;
	if (len >= size)
		return len;
	if (plain)
		return len + (size_t)snprintf(buf + len, size - len, " %s", word);
	len += (size_t)snprintf(buf + len, size - len, " '");
	for (const char *c = word; *c && len < size; c++)
		len += (size_t)snprintf(buf + len, size - len, *c == '\'' ? "'\\''" : "%c", *c);
	return len < size ? len + (size_t)snprintf(buf + len, size - len, "'") : len;
}

/* s: the command line that opens this view again: the run's settings as
 * they are now (after m, [ ], f or a lesson's part) and --start-at for the
 * stop on screen. */
static void tui_share(const struct tui_session *t, char *buf, size_t size)
{
	const struct cli_opts *o = &t->opts;
	const struct view *v = &t->v;
	char num[64];
	size_t len = (size_t)snprintf(buf, size, "share: ./distmm-tui");
#define ARG(w) (len = tui_arg(buf, size, len, (w)))
#define ARGF(...) (snprintf(num, sizeof num, __VA_ARGS__), ARG(num))
	if (t->trace)
		ARG("--replay"), ARG(o->replay_file);
	if (!t->trace && v->cfg.mode == DM_DP)
		ARG("-m"), ARG("dp");
	if (!t->trace)
		ARGF("-d"), ARGF("%d", v->cfg.devices);
	if (o->a_file)
		ARG("-A"), ARG(o->a_file);
	if (o->b_file)
		ARG("-B"), ARG(o->b_file);
	if (!o->a_file)
		ARG("-M"), ARGF("%zu", v->a->rows);
	if (!(o->a_file || o->b_file))
		ARG("-K"), ARGF("%zu", v->a->cols);
	if (!o->b_file)
		ARG("-N"), ARGF("%zu", v->b->cols);
	if (!(o->a_file && o->b_file)) {
		ARG("--values"), ARG(o->values == MAT_VALUES_INTS ? "ints" : "floats");
		ARG("--seed"), ARGF("%llu", (unsigned long long)o->seed);
	}
	if (!t->trace && v->cfg.naive)
		ARG("--naive");
	if (!t->trace && v->cfg.capacity != RUN_UNBOUNDED)
		ARG("--capacity"), ARGF("%zu", v->cfg.capacity);
	if (v->cfg.bug)
		ARG("--bug"), ARG(bug_name(v->cfg.bug));
	if (!t->trace && v->quiz.on)
		ARGF("--quiz=%d", v->quiz.level);
	if (theme_projector())
		ARG("--theme"), ARG("projector");
	if (o->ascii)
		ARG("--ascii");
	if (o->no_color)
		ARG("--no-color");
	int stop = v->failed ? v->live_phase : v->stop;
	if (stop >= v->phase_count)
		ARG("--start-at"), ARG("verify");
	else if (stop >= 0 && sched_phase_kind(v->cfg.mode, v->cfg.devices, stop) == SCHED_GATHER)
		ARG("--start-at"), ARG("gather");
	else if (stop >= 0)
		ARG("--start-at"), ARGF("%d%s", sched_phase_step(v->cfg.mode, v->cfg.devices, stop),
					sched_phase_kind(v->cfg.mode, v->cfg.devices, stop) ==
							SCHED_TRANSFER
						? "t"
						: "");
#undef ARG
#undef ARGF
}

/* Applies one action (ch: the key, for typing); returns 1 to quit. */
static int tui_apply(struct tui_session *t, int action, int ch, uint64_t now)
{
	struct view *v = &t->v;
	struct dm_err err;
	if (action != ACT_RESIZE && action != ACT_REDRAW && action != ACT_NONE)
		v->msg[0] = '\0'; /* a word lasts until the next key */
	if (v->typing_goto && action != ACT_GOTO_TYPE && action != ACT_GOTO_BACK &&
	    action != ACT_ENTER && action != ACT_RESIZE && action != ACT_REDRAW)
		v->typing_goto = 0; /* any other key: no step to go to */
	switch (action) {
	case ACT_QUIZ:
		if (!v->replaying)
			view_toggle_quiz(v);
		break;
	case ACT_MEMORY:
		view_open_memory(v);
		break;
	case ACT_QUIZ_TYPE:
		quiz_type(&v->quiz, ch);
		break;
	case ACT_QUIZ_BACK:
		quiz_backspace(&v->quiz);
		break;
	case ACT_GOTO:
		view_goto_start(v);
		break;
	case ACT_GOTO_TYPE:
		view_goto_type(v, ch);
		break;
	case ACT_GOTO_BACK:
		view_goto_type(v, '\b');
		break;
	case ACT_ENTER:
		if (v->typing_goto)
			view_goto_submit(v, now);
		else if (quiz_waiting(&v->quiz))
			quiz_submit(&v->quiz);
		else
			view_next(v, now);
		break;
	case ACT_NEXT:
		view_next(v, now);
		break;
	case ACT_BACK:
		view_back(v);
		break;
	case ACT_HOME:
		view_goto(v, -1, now);
		break;
	case ACT_END:
		view_goto(v, v->phase_count, now);
		break;
	case ACT_PLAY:
		view_toggle_play(v, now);
		break;
	case ACT_MODE:
		if (v->replaying)
			break; /* a recorded run is what it is */
		v->cfg.mode = v->cfg.mode == DM_FSDP ? DM_DP : DM_FSDP;
		view_restart(v, now, &err);
		break;
	case ACT_RESTART:
		view_restart(v, now, &err);
		break;
	case ACT_FASTER:
		view_speed(v, +1);
		break;
	case ACT_SLOWER:
		view_speed(v, -1);
		break;
	case ACT_FEWER:
	case ACT_MORE: {
		if (v->replaying)
			break;
		int n = v->cfg.devices + (action == ACT_MORE ? 1 : -1);
		if (n >= 1 && n <= LAYOUT_MAX_DEVICES) {
			v->cfg.devices = n;
			view_restart(v, now, &err);
		}
		break;
	}
	case ACT_FOCUS_NEXT:
	case ACT_FOCUS_PREV:
		view_focus_next(v, action == ACT_FOCUS_NEXT ? 1 : -1);
		break;
	case ACT_FOCUS_DIGIT:
		if (ch - '0' < v->cfg.devices)
			view_focus(v, ch - '0');
		else
			snprintf(v->msg, sizeof v->msg, "there is no rank %d (ranks 0 to %d; Tab goes "
							"through them all)",
				 ch - '0', v->cfg.devices - 1);
		break;
	case ACT_SHOW:
		view_cycle_show(v);
		break;
	case ACT_CELL:
		view_cell_toggle(v);
		break;
	case ACT_CELL_UP: view_cell_move(v, -1, 0); break;
	case ACT_CELL_DOWN: view_cell_move(v, 1, 0); break;
	case ACT_CELL_LEFT: view_cell_move(v, 0, -1); break;
	case ACT_CELL_RIGHT: view_cell_move(v, 0, 1); break;
	case ACT_TABLE:
		if (draw_table_fits(v))
			v->table = !v->table;
		else
			view_open_overlay(v, VIEW_OV_TABLE);
		break;
	case ACT_HELP:
		view_open_overlay(v, VIEW_OV_HELP);
		break;
	case ACT_CLOSE_OVERLAY:
		view_close_overlay(v, now);
		break;
	case ACT_ESCAPE:
		view_escape(v);
		break;
	case ACT_FIX:
		if (v->cfg.naive && v->failed && v->fail.code == DM_EDEADLOCK) {
			v->cfg.naive = 0; /* even ranks send first, odd ranks receive first */
			v->fixed = 1;
			view_restart(v, now, &err);
			view_toggle_play(v, now);
			snprintf(v->msg, sizeof v->msg, "f: the fixed order runs now: even ranks send "
							"first, odd ranks receive first.");
		}
		break;
	case ACT_SHARE:
		tui_share(t, v->msg, sizeof v->msg);
		break;
	case ACT_THEME:
		theme_set_projector(!theme_projector());
		clearok(curscr, TRUE);
		break;
	case ACT_REDRAW:
		clearok(curscr, TRUE);
		break;
	case ACT_QUIT:
		return 1;
	}
	return 0;
}

/* Returns 0 when the person quits (or a signal came), or an error that
 * stopped a lesson from going on to its next part. */
static int tui_loop(struct tui_session *t, struct dm_err *err)
{
	for (;;) {
		struct view *v = &t->v;
		uint64_t now = tui_now();
		if (tui_signal)
			return 0;
		view_tick(v, now);
		int fits = draw_screen(v, now);

		uint64_t wake = fits ? view_wake_at(v, now) : 0;
		if (wake == 0)
			timeout(-1);
		else
			timeout(wake > now ? (int)((wake - now + 999999) / 1000000) : 0);
		int ch = getch();
		if (tui_signal)
			return 0;
		struct keys_ctx ctx = { v->overlay != VIEW_OV_NONE, quiz_waiting(&v->quiz),
					v->typing_goto, v->cell_on };
		int action = keys_action(ch, &ctx);
		if (!fits && action != ACT_QUIT && action != ACT_RESIZE && action != ACT_REDRAW)
			continue; /* too small: only q (and resizing) do anything */
		if ((action == ACT_NEXT || (action == ACT_ENTER && !quiz_waiting(&v->quiz) &&
					    !v->typing_goto)) &&
		    t->lesson) {
			int next = tui_next_part(t, err);
			if (next < 0)
				return err->code;
			if (next > 0)
				continue;
		}
		if (tui_apply(t, action, ch, tui_now()))
			return 0;
	}
}

int tui_main(const struct cli_opts *o)
{
	struct tui_session t;
	struct lesson *lesson = NULL;
	struct trace trace;
	struct dm_err err;
	int rc;

	memset(&t, 0, sizeof t);
	t.opts = *o;
	if (o->devices > LAYOUT_MAX_DEVICES) {
		status_error("the interface shows up to %d devices, not %d (use -b for more)",
			     LAYOUT_MAX_DEVICES, o->devices);
		return STATUS_USAGE;
	}
	if (o->lesson_file) {
		char msg[512];
		lesson = malloc(sizeof *lesson);
		if (!lesson || lesson_load(lesson, o->lesson_file, msg, sizeof msg)) {
			status_error("%s", lesson ? msg : "out of memory");
			free(lesson);
			return STATUS_USAGE;
		}
		/* what its first part sets, the command line cannot */
		if (cli_lesson_check(o, lesson->part[0].set.has, msg, sizeof msg)) {
			status_error("%s", msg);
			free(lesson);
			return STATUS_USAGE;
		}
		t.lesson = lesson;
		tui_apply_set(&t.opts, &lesson->part[0].set);
	}
	memset(&trace, 0, sizeof trace);
	if (o->replay_file) {
		uint64_t avail = inputs_available_bytes();
		if ((rc = trace_read(o->replay_file, &trace, avail > SIZE_MAX ? SIZE_MAX : (size_t)avail,
				     &err))) {
			status_error("%s", err.msg);
			free(lesson);
			return status_of(rc);
		}
		if (trace.n > LAYOUT_MAX_DEVICES) {
			status_error("the trace has %d devices; the interface shows up to %d (use -b)",
				     trace.n, LAYOUT_MAX_DEVICES);
			trace_free(&trace);
			return STATUS_USAGE;
		}
		t.trace = &trace;
	}
	/* inputs first, so that a bad file is named even without a terminal */
	if ((rc = tui_session_start(&t, &err))) {
		status_error("%s", err.msg);
		free(lesson);
		trace_free(&trace);
		return status_of(rc);
	}
	if (o->start_kind != CLI_START_READY) {
		char msg[160];
		int stop = tui_start_stop(o, &t.v, msg, sizeof msg);
		if (stop < -1) {
			status_error("%s", msg);
			tui_session_stop(&t);
			free(lesson);
			trace_free(&trace);
			return STATUS_USAGE;
		}
		view_goto(&t.v, stop, tui_now());
	}
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		status_error("interactive mode needs a terminal on stdin and stdout "
			     "(use -b for batch mode)");
		tui_session_stop(&t);
		free(lesson);
		trace_free(&trace);
		return STATUS_USAGE;
	}

	setlocale(LC_ALL, "");
	tui_catch_signals(); /* before curses, which then leaves them alone */
	tui_have_tty = tcgetattr(STDIN_FILENO, &tui_saved_tty) == 0;
	SCREEN *scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		const char *term = getenv("TERM");
		status_error("cannot use the terminal '%s' (check TERM)", term ? term : "");
		tui_session_stop(&t);
		free(lesson);
		trace_free(&trace);
		return STATUS_USAGE;
	}
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	theme_init(tui_mono(o), o->ascii, o->projector);
	t.v.utf8 = theme_utf8();
	tui_catch_crashes();

	rc = tui_loop(&t, &err);

	endwin();
	delscreen(scr);
	tui_release_crashes();
	if (rc == 0)
		tui_session_stop(&t);
	free(lesson);
	trace_free(&trace);
	if (tui_signal) {
		signal(tui_signal, SIG_DFL);
		raise(tui_signal);
	}
	if (rc) {
		status_error("%s", err.msg);
		return status_of(rc);
	}
	return STATUS_OK;
}
