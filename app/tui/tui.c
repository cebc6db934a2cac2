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

#include "draw.h"
#include "headless.h"
#include "record.h"
#include "keys.h"
#include "layout.h"
#include <distmm/outfile.h>
#include <distmm/run.h>
#include "session.h"
#include "cli/status.h"
#include "theme.h"
#include "view.h"

/* --theme's value is the theme's id */
_Static_assert((int)CLI_THEME_DEFAULT == (int)THEME_DEFAULT &&
		       (int)CLI_THEME_PROJECTOR == (int)THEME_PROJECTOR &&
		       (int)CLI_THEME_LIGHT == (int)THEME_LIGHT && THEME_COUNT == 3,
	       "cli_theme and theme_id name the same themes");

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
	outfile_unlink_pending(); /* --record's temporary file: no half recording */
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

/* Whether the terminal curses found can address its cursor (cup). */
static int tui_addressable(void)
{
	char *cup = tigetstr((char *)"cup");
	return cup && cup != (char *)-1;
}

static uint64_t tui_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Handlers without SA_RESTART, so a signal also ends a blocking getch(). */
/* Every signal whose default ends the program and that can come from
 * outside (Ctrl-C, Ctrl-\\, kill, a closed terminal or pipe, a timer, a
 * limit): the loop restores the terminal, joins the devices and then lets
 * the signal end the program as it would have.  (SIGTSTP and SIGCONT are
 * curses' own; the crash signals are tui_catch_crashes'.) */
static const int tui_end_sigs[] = { SIGINT,  SIGTERM, SIGHUP,	 SIGQUIT, SIGPIPE, SIGALRM,
				    SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF };

static void tui_catch_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = tui_on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof tui_end_sigs / sizeof tui_end_sigs[0]; i++)
		sigaction(tui_end_sigs[i], &sa, NULL);
}

/* Applies one action (ch: the key, for typing); returns 1 to quit, -1 when
 * the view could not be made again (the judge's j: nothing left to draw).
 * The modes on screen come first (view_mode_key): a key one of them refuses
 * or takes is theirs; the rest are the interface's own. */
static int tui_apply(struct session *t, int action, int ch, uint64_t now)
{
	struct view *v = &t->v;
	struct dm_err err;
	if (action != ACT_RESIZE && action != ACT_REDRAW && action != ACT_NONE)
		v->msg[0] = '\0'; /* a word lasts until the next key */
	if (v->typing_goto && action != ACT_GOTO_TYPE && action != ACT_GOTO_BACK &&
	    action != ACT_ENTER && action != ACT_RESIZE && action != ACT_REDRAW)
		v->typing_goto = 0; /* any other key: no step to go to */
	if (action == ACT_ENTER && v->typing_goto) {
		view_goto_submit(v, now); /* the step typed, before any mode's answer */
		return 0;
	}
	switch (view_mode_key(v, action, ch, now)) {
	case VIEW_KEY_DONE:
		return 0;
	case VIEW_KEY_SESSION:
		/* j: the session makes the view again (the judge's other run) */
		if (session_judge_switch(t, now, &err)) {
			v->fail = err; /* no view is left to show: say why, and stop */
			return -1;
		}
		return 0;
	}
	switch (action) {
	case ACT_QUIZ:
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
		if (quiz_waiting(&v->quiz))
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
	case ACT_RESTART:
		view_restart(v, now, &err);
		break;
	case ACT_FASTER:
		view_speed(v, +1);
		break;
	case ACT_SLOWER:
		view_speed(v, -1);
		break;
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
		v->help_page = 0;
		view_open_overlay(v, VIEW_OV_HELP);
		break;
	case ACT_CLOSE_OVERLAY:
		/* a help too tall for the screen pages: Space, n or the arrows
		 * down go on (the last page closes), any other key closes */
		if (v->overlay == VIEW_OV_HELP &&
		    (ch == ' ' || ch == 'n' || ch == KEY_NPAGE || ch == KEY_DOWN) &&
		    v->help_page + 1 < layout_help_pages(LINES, keys_count())) {
			v->help_page++;
			break;
		}
		/* c's table pages on to the memory argument at real scale */
		if (v->overlay == VIEW_OV_MEMORY && ch == ' ' && v->memory_page == 0) {
			v->memory_page = 1;
			break;
		}
		view_close_overlay(v, now);
		break;
	case ACT_ESCAPE:
		view_escape(v);
		break;
	case ACT_SHARE:
		view_share_line(v, &t->opts,
				theme_current() == THEME_DEFAULT ? NULL : theme_def(theme_current())->name,
				v->msg, sizeof v->msg);
		break;
	case ACT_THEME:
		theme_set((theme_current() + 1) % THEME_COUNT); /* default, projector, light */
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
static int tui_loop(struct session *t, struct record *rec, struct dm_err *err)
{
	for (;;) {
		struct view *v = &t->v;
		uint64_t now = tui_now();
		if (tui_signal)
			return 0;
		view_tick(v, now);
		int fits = draw_screen(v, now);
		if (rec)
			record_frame(rec, v, now); /* what the person sees, as they see it */

		uint64_t wake = fits ? view_wake_at(v, now) : 0;
		if (wake == 0)
			timeout(-1);
		else
			timeout(wake > now ? (int)((wake - now + 999999) / 1000000) : 0);
		int ch = getch();
		if (tui_signal)
			return 0;
		struct keys_ctx ctx = { v->overlay != VIEW_OV_NONE, quiz_waiting(&v->quiz),
					v->typing_goto, v->cell_on, view_typing(v) };
		int action = keys_action(ch, &ctx);
		if (!fits && action != ACT_QUIT && action != ACT_RESIZE && action != ACT_REDRAW)
			continue; /* too small: only q (and resizing) do anything */
		if ((action == ACT_NEXT || (action == ACT_ENTER && !quiz_waiting(&v->quiz) &&
					    !v->typing_goto && !view_typing(v))) &&
		    t->lesson) {
			int next = session_next_part(t, tui_now(), err);
			if (next < 0)
				return err->code;
			if (next > 0)
				continue;
		}
		int quit = tui_apply(t, action, ch, tui_now());
		if (quit < 0) {
			*err = t->v.fail;
			return err->code ? err->code : DM_ENOMEM;
		}
		if (quit)
			return 0;
	}
}

/* --record: opened once curses knows the terminal, checked before. */
static int tui_record_open(struct record *rec, const struct session *t, int argc,
			   char *const argv[], struct dm_err *err)
{
	char title[256], command[2048];
	struct palette pal = theme_palette(t->opts.theme); /* before theme_init */
	record_title(&t->v, t->lesson ? t->lesson->title : NULL, title, sizeof title);
	record_command(argc, argv, command, sizeof command);
	return record_open(rec, t->opts.record_file, title, command, &pal, NULL, NULL, err);
}

SCREEN *tui_screen_open(void)
{
	setlocale(LC_ALL, "");
	tui_catch_signals(); /* before curses, which then leaves them alone */
	tui_have_tty = tcgetattr(STDIN_FILENO, &tui_saved_tty) == 0;
	SCREEN *scr = newterm(NULL, stdout, stdin);
	if (!scr || !tui_addressable()) {
		/* TERM=dumb, or any terminal that cannot move its cursor: a blank
		 * screen would be all it showed */
		const char *term = getenv("TERM");
		if (scr) {
			endwin();
			delscreen(scr);
		}
		status_error("%s '%s' (check TERM, or use -b for batch mode)",
			     scr ? "the interface needs a terminal that can move its cursor, not"
				 : "cannot use the terminal",
			     term ? term : "");
		return NULL;
	}
	return scr;
}

void tui_screen_modes(const struct cli_opts *o)
{
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	theme_init(session_mono(o), o->ascii, o->theme);
	tui_catch_crashes();
}

void tui_screen_close(SCREEN *scr)
{
	endwin();
	delscreen(scr);
	tui_release_crashes();
}

int tui_signalled(void)
{
	return tui_signal;
}

void tui_end_signal(void)
{
	if (tui_signal) {
		signal(tui_signal, SIG_DFL);
		raise(tui_signal);
	}
}

int tui_view_loop(struct session *t, struct dm_err *err)
{
	return tui_loop(t, NULL, err);
}

int tui_main(const struct cli_opts *o, int argc, char *const argv[])
{
	struct session t;
	struct record rec;
	struct dm_err err, rec_err;
	int rc, rec_rc = 0;

	if (o->record_file && (rc = headless_check_path(o->record_file, 1)))
		return rc;
	if ((rc = session_open(&t, o)))
		return rc;
	/* inputs first, so that a bad file is named even without a terminal */
	if ((rc = session_start(&t, tui_now(), &err))) {
		status_error("%s", err.msg);
		session_close(&t);
		return status_of(rc);
	}
	if (o->start_kind != CLI_START_READY) {
		char msg[160];
		if (session_start_at(&t, tui_now(), msg, sizeof msg)) {
			status_error("%s", msg);
			session_stop(&t);
			session_close(&t);
			return STATUS_USAGE;
		}
	}
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		status_error("interactive mode needs a terminal on stdin and stdout "
			     "(use -b for batch mode, or --export to write a recording)");
		session_stop(&t);
		session_close(&t);
		return STATUS_USAGE;
	}

	SCREEN *scr = tui_screen_open();
	if (!scr) {
		session_stop(&t);
		session_close(&t);
		return STATUS_USAGE;
	}
	if (o->record_file && (rec_rc = tui_record_open(&rec, &t, argc, argv, &rec_err))) {
		endwin();
		delscreen(scr);
		status_error("%s", rec_err.msg);
		session_stop(&t);
		session_close(&t);
		return STATUS_USAGE;
	}
	tui_screen_modes(o);
	t.v.utf8 = theme_utf8();

	rc = tui_loop(&t, o->record_file ? &rec : NULL, &err);

	tui_screen_close(scr);
	/* q, Ctrl-C or a hang-up: the recording so far is kept (renamed) */
	if (o->record_file) {
		rec_rc = record_close(&rec, &rec_err);
		record_free(&rec);
	}
	if (rc == 0)
		session_stop(&t);
	session_close(&t);
	if (rec_rc)
		status_error("%s", rec_err.msg);
	tui_end_signal();
	if (rc) {
		status_error("%s", err.msg);
		return status_of(rc);
	}
	return rec_rc ? STATUS_USAGE : STATUS_OK;
}
