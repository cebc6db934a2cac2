/* interview: --interview's screen (docs/interview.md).  Two things, both
 * without curses: mode_interview, pushed on the judged view of the
 * failing case the interview opens (its status bar says q goes back), and
 * the interview's own screen as lines (mode_interview_lines), from the
 * session's state and the judge's latest verdict, which the loop
 * (app/tui/tui_interview.c) draws. */
#ifndef TUI_MODES_INTERVIEW_H
#define TUI_MODES_INTERVIEW_H

#include <stddef.h>

#include "interview/interview.h"
#include "judge/judge.h"
#include "tui/mode.h"

extern const struct view_mode mode_interview;

#define IV_INPUT_MAX 60

/* What the screen shows: the session, the latest verdict, what is asked. */
struct iv_screen {
	const char *file;
	struct iv_state st;
	struct judge last;     /* the latest judge that finished (has_last) */
	int has_last;
	int last_part;         /* the part it was judged for */
	int judging;           /* a judge runs in the background */
	int hint;              /* the hint shown now: its level (0: none) */
	int hint_part, hint_verdict;
	char msg[256];         /* a word, until the next key */
	char error[512];       /* the judge could not run: its one line */
	/* the follow-up round */
	char input[IV_INPUT_MAX + 1];
	int len;
	int answered;          /* the question has its outcome: Enter goes on */
	char feedback[512];
	int fb_ok;             /* the feedback is a right answer's */
	char report[1024];     /* the report's path once written */
};

struct iv_line {
	int how;               /* enum view_tone */
	int rule;              /* a horizontal rule, no text */
	char text[320];
};

/* The screen's lines for width x height (at most max), the key bar last.
 * Returns how many. */
int mode_interview_lines(const struct iv_screen *s, int width, int height, struct iv_line *out,
			 int max);

/* The verdict the hint key is about now: the part's first failing case's,
 * -1 when the file did not load, JUDGE_PASS for none (the part's own). */
int mode_interview_verdict(const struct iv_screen *s);

/* The failing case the o key opens, or NULL. */
const struct judge_case *mode_interview_case(const struct iv_screen *s);

#endif
