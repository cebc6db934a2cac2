/* tui_interview: --interview FILE.py, the loop (docs/interview.md).  One
 * thread owns curses (this one); the judge runs in a thread of its own
 * (app/interview/iv_judge.c) and says it is done through a pipe.  The loop
 * blocks in poll() on the keyboard, the watch on FILE (inotify) and that
 * pipe, with a timeout that is the next second of the countdown (none
 * while paused): nothing is polled, nothing spins.  A save while a judge
 * runs cancels it; the next starts once it is collected.  o opens the
 * failing case in the judged view (tui.c's own loop) and q there comes
 * back.  The state file beside FILE is written at every change, so q (or
 * a signal) and a new start resume where the candidate was. */
#include "tui_interview.h"

#include <curses.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/status.h"
#include "draw.h"
#include "interview/interview.h"
#include "interview/iv_judge.h"
#include "interview/iv_questions.h"
#include "interview/iv_report.h"
#include "modes/interview.h"
#include "session.h"
#include "theme.h"
#include "tui.h"
#include "view.h"

#define IV_LINES_MAX 128

struct iv_loop {
	struct iv_screen s;
	struct iv_judge w;
	const struct cli_opts *o;
	char state_path[1024];
	uint64_t tick;        /* the last time the clock was moved on, ms */
	int again;            /* FILE changed while a judge ran: judge it again */
};

static uint64_t iv_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void iv_save(struct iv_loop *l)
{
	char msg[512];
	if (iv_state_save(&l->s.st, l->state_path, msg, sizeof msg))
		snprintf(l->s.msg, sizeof l->s.msg, "%.250s", msg);
}

/* The part's clock moves on by the time since the last tick (not while
 * paused, and only the timed parts'). */
static void iv_tick(struct iv_loop *l, uint64_t now)
{
	struct iv_state *st = &l->s.st;
	if (!st->paused && st->part < IV_TIMED)
		st->used_ms[st->part] += now - l->tick;
	l->tick = now;
}

static void iv_judge_start(struct iv_loop *l)
{
	struct dm_err err;
	l->again = 0;
	if (ivj_start(&l->w, &err)) {
		snprintf(l->s.error, sizeof l->s.error, "%s", err.msg);
		return;
	}
	l->s.judging = 1;
}

/* The part is over: the next one's screen. */
static void iv_part_over(struct iv_loop *l, int part)
{
	struct iv_screen *s = &l->s;
	s->hint = 0;
	snprintf(s->msg, sizeof s->msg, "%s passed at save %d: %s", part == IV_PART_DP ? "DP" : "FSDP",
		 s->st.pass_save[part], s->st.part == IV_PART_FSDP ? "on to FSDP, in the same file"
		 : "on to the follow-up round");
}

/* Writes the report (end of the session). */
static void iv_finish(struct iv_loop *l)
{
	char msg[512];
	l->s.st.part = IV_PART_DONE;
	if (iv_report_write(&l->s.st, l->s.file, l->s.report, sizeof l->s.report, msg, sizeof msg))
		snprintf(l->s.msg, sizeof l->s.msg, "%.250s", msg);
	iv_save(l);
}

static int iv_collect(struct iv_loop *l)
{
	struct judge j;
	struct dm_err err;
	struct iv_screen *s = &l->s;
	int rc = ivj_collect(&l->w, &j, &err);
	s->judging = 0;
	s->msg[0] = '\0'; /* the word before it is older than this verdict */
	if (j.signal) {
		judge_free(&j);
		return j.signal;
	}
	if (j.cancelled || l->again) {
		judge_free(&j);
		iv_judge_start(l);
		return 0;
	}
	if (rc) {
		snprintf(s->error, sizeof s->error, "%s", err.msg);
		judge_free(&j);
		return 0;
	}
	s->error[0] = '\0';
	if (s->has_last)
		judge_free(&s->last);
	s->last = j;
	s->has_last = 1;
	s->last_part = s->st.part;
	if (s->st.part < IV_TIMED) {
		int part = s->st.part;
		if (s->hint && mode_interview_verdict(s) != s->hint_verdict)
			s->hint = 0; /* another verdict: its own hints */
		if (iv_state_judged(&s->st, &j)) {
			iv_part_over(l, part);
			/* the file may pass the next part already */
			if (s->st.part == IV_PART_FSDP && iv_state_judged(&s->st, &j))
				iv_part_over(l, IV_PART_FSDP);
			s->last_part = s->st.part < IV_TIMED ? s->st.part : IV_PART_FSDP;
		}
	}
	iv_save(l);
	return 0;
}

/* A key in the follow-up round. */
static void iv_follow_key(struct iv_loop *l, int ch)
{
	struct iv_screen *s = &l->s;
	struct iv_state *st = &s->st;
	int q = st->q_cur;
	if (q >= ivq_count())
		return;
	if (s->answered) {
		if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
			st->q_cur++;
			s->answered = 0;
			s->len = 0;
			s->input[0] = '\0';
			s->feedback[0] = '\0';
			if (st->q_cur >= ivq_count())
				iv_finish(l);
			iv_save(l);
		}
		return;
	}
	if (ch == '\t') {
		st->q_outcome[q] = IV_Q_SHOWN;
		s->answered = 1;
		s->fb_ok = 0;
		snprintf(s->feedback, sizeof s->feedback, "shown (counted as missed):");
		iv_save(l);
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		if (!s->len)
			return;
		char msg[400];
		int v = ivq_check(q, s->input, msg, sizeof msg);
		s->fb_ok = v == IVQ_RIGHT;
		if (v == IVQ_RIGHT) {
			st->q_outcome[q] = IV_Q_RIGHT;
			s->answered = 1;
			snprintf(s->feedback, sizeof s->feedback, "right.");
		} else {
			st->q_wrong[q] += v == IVQ_WRONG;
			snprintf(s->feedback, sizeof s->feedback, "%s%s", v == IVQ_WRONG ? "not yet: " : "",
				 msg);
		}
		iv_save(l);
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (s->len)
			s->input[--s->len] = '\0';
	} else if (ch >= ' ' && ch < 127 && s->len < IV_INPUT_MAX) {
		s->input[s->len++] = (char)ch;
		s->input[s->len] = '\0';
	}
}

/* o: the failing case in the judged view, until q there. */
static int iv_open_case(struct iv_loop *l)
{
	struct session t;
	struct dm_err err;
	const struct judge_case *c = mode_interview_case(&l->s);
	struct cli_opts o = *l->o;
	if (!c) {
		snprintf(l->s.msg, sizeof l->s.msg, "o: no failing case to open");
		return 0;
	}
	o.judge_file = l->s.file;
	if (session_judge_lend(&t, &o, &l->s.last, c)) {
		session_close(&t);
		snprintf(l->s.msg, sizeof l->s.msg, "o: the case cannot be shown");
		return 0;
	}
	if (session_start(&t, iv_now_ms() * 1000000u, &err)) {
		session_close(&t);
		snprintf(l->s.msg, sizeof l->s.msg, "o: %.200s", err.msg);
		return 0;
	}
	t.v.utf8 = theme_utf8();
	view_mode_push(&t.v, &mode_interview, NULL);
	int rc = tui_view_loop(&t, &err);
	session_stop(&t);
	session_close(&t);
	if (rc)
		snprintf(l->s.msg, sizeof l->s.msg, "o: %.200s", err.msg);
	clearok(curscr, TRUE);
	return 0;
}

/* A key; returns 1 to quit. */
static int iv_key(struct iv_loop *l, int ch)
{
	struct iv_screen *s = &l->s;
	struct iv_state *st = &s->st;
	if (ch == KEY_RESIZE || ch == ERR)
		return 0;
	s->msg[0] = '\0';
	if (st->part == IV_PART_FOLLOW) {
		if (ch == 27) /* Esc: nothing to close */
			return 0;
		if (ch == 'q' && !s->len)
			return 1;
		iv_follow_key(l, ch);
		return 0;
	}
	switch (ch) {
	case 'q':
		return 1;
	case 'p':
		if (st->part < IV_TIMED) {
			st->paused = !st->paused;
			iv_save(l);
		}
		break;
	case 'h': {
		if (st->part >= IV_TIMED)
			break;
		int v = mode_interview_verdict(s);
		int *lv = &st->hint_level[st->part][v < 0 ? JUDGE_NOT_RUN : v];
		if (*lv >= IV_HINT_LEVELS && s->hint == IV_HINT_LEVELS && s->hint_verdict == v) {
			snprintf(s->msg, sizeof s->msg, "h: that was the last hint for this verdict");
			break;
		}
		if (*lv < IV_HINT_LEVELS && (s->hint >= *lv || s->hint_verdict != v)) {
			++*lv;
			st->hints[st->part]++;
		}
		s->hint = *lv;
		s->hint_part = st->part;
		s->hint_verdict = v;
		iv_save(l);
		break;
	}
	case 'o':
	case '\n':
	case '\r':
		return iv_open_case(l);
	case 'f':
		if (st->part == IV_PART_FSDP && iv_left_ms(st) < 0) {
			st->part = IV_PART_FOLLOW;
			s->hint = 0;
			iv_save(l);
		} else if (st->part < IV_TIMED) {
			snprintf(s->msg, sizeof s->msg, "f: the follow-up round comes once FSDP passes "
				 "or its time is up");
		}
		break;
	}
	return 0;
}

static void iv_draw(const struct iv_loop *l)
{
	static struct iv_line lines[IV_LINES_MAX];
	int rows, cols;
	getmaxyx(stdscr, rows, cols);
	draw_line_screen(lines, mode_interview_lines(&l->s, cols, rows, lines, IV_LINES_MAX));
}

/* The next wake-up: the next second of the countdown, or never. */
static int iv_timeout(const struct iv_loop *l)
{
	const struct iv_state *st = &l->s.st;
	if (st->paused || st->part >= IV_TIMED)
		return -1;
	int64_t left = iv_left_ms(st);
	int64_t into = left >= 0 ? left % 1000 : 1000 - (-left) % 1000;
	return (int)(into ? into : 1000);
}

static int iv_loop_run(struct iv_loop *l)
{
	for (;;) {
		if (tui_signalled())
			return 0;
		iv_tick(l, iv_now_ms());
		iv_draw(l);
		struct pollfd p[3] = {
			{ .fd = STDIN_FILENO, .events = POLLIN },
			{ .fd = ivj_watch_fd(&l->w), .events = POLLIN },
			{ .fd = ivj_done_fd(&l->w), .events = POLLIN },
		};
		if (poll(p, 3, iv_timeout(l)) < 0 && errno != EINTR)
			return 0;
		if (tui_signalled())
			return 0;
		iv_tick(l, iv_now_ms());
		if (p[1].revents & POLLIN && ivj_changed(&l->w)) {
			if (l->s.judging) {
				l->again = 1;
				ivj_cancel(&l->w);
			} else {
				iv_judge_start(l);
			}
		}
		if (p[2].revents & POLLIN && l->w.running) {
			int sig = iv_collect(l);
			if (sig)
				return sig;
		}
		/* every key curses has, without waiting (poll said when); the
		 * judged view a key opens sets its own delay, so it is set again */
		for (;;) {
			nodelay(stdscr, TRUE);
			int ch = getch();
			if (ch == ERR)
				break;
			if (iv_key(l, ch))
				return 0;
		}
	}
}

int tui_interview_main(const struct cli_opts *o)
{
	struct iv_loop l;
	char msg[1024];
	memset(&l, 0, sizeof l);
	l.o = o;
	l.s.file = o->interview_file;
	iv_state_init(&l.s.st, o->interview_ms[0], o->interview_ms[1]);
	if (iv_path_state(o->interview_file, l.state_path, sizeof l.state_path)) {
		status_error("--interview: the file name is too long");
		return STATUS_USAGE;
	}
	int wrote = iv_starter_write(o->interview_file, msg, sizeof msg);
	if (wrote < 0) {
		status_error("%s", msg);
		return STATUS_USAGE;
	}
	if (!o->interview_restart && iv_state_load(&l.s.st, l.state_path, msg, sizeof msg) < 0) {
		status_error("%s", msg);
		return STATUS_USAGE;
	}
	/* a question answered before q: its worked answer, Enter goes on */
	if (l.s.st.part == IV_PART_FOLLOW && l.s.st.q_cur < ivq_count() &&
	    l.s.st.q_outcome[l.s.st.q_cur] != IV_Q_PENDING)
		l.s.answered = 1;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		status_error("--interview needs a terminal on stdin and stdout");
		return STATUS_USAGE;
	}
	if (ivj_open(&l.w, o, msg, sizeof msg)) {
		status_error("%s", msg);
		return STATUS_USAGE;
	}
	SCREEN *scr = tui_screen_open();
	if (!scr) {
		ivj_close(&l.w);
		return STATUS_USAGE;
	}
	tui_screen_modes(o);
	if (wrote == 0)
		snprintf(l.s.msg, sizeof l.s.msg, "%.150s: the exercise's starter, written; edit it in "
			 "your editor and save", o->interview_file);
	else if (l.s.st.part < IV_TIMED)
		iv_judge_start(&l); /* the file as it is now */
	l.tick = iv_now_ms();
	iv_save(&l);
	int sig = iv_loop_run(&l);
	iv_tick(&l, iv_now_ms());
	tui_screen_close(scr);
	ivj_close(&l.w); /* the judge's processes are gone after this */
	iv_save(&l);
	if (l.s.has_last)
		judge_free(&l.s.last);
	if (l.s.msg[0] && strncmp(l.s.msg, "--interview", 11) == 0)
		status_error("%s", l.s.msg);
	if (sig) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	tui_end_signal();
	return STATUS_OK;
}
