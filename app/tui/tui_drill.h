/* tui_drill: --quiz=clock and --quiz=tp, the follow-up questions in a
 * screen of their own (docs/practice.md).  The state, its keys and its
 * lines are pure (drill_* below, tested without a terminal); the loop
 * draws them and blocks on the keyboard. */
#ifndef APP_TUI_TUI_DRILL_H
#define APP_TUI_TUI_DRILL_H

#include "cli/cli.h"
#include "modes/interview.h" /* struct iv_line: a line and its tone */
#include "practice/drills.h"

#define DRILL_INPUT_MAX 60

enum drill_outcome { DRILL_PENDING = 0, DRILL_RIGHT, DRILL_SHOWN };

struct drill {
	int set;               /* enum drill_set */
	struct qbank_ctx ctx;  /* the hardware and the ranks its timed questions name */
	int cur;               /* the question asked; drill_count(set) once done */
	int outcome[DRILL_MAX];
	int wrong[DRILL_MAX];  /* wrong answers before the outcome */
	char input[DRILL_INPUT_MAX + 1];
	int len;
	int answered;          /* the current question has its outcome: Enter goes on */
	int fb_ok;
	char feedback[512];
};

void drill_init(struct drill *d, int set, const struct qbank_ctx *ctx);

/* A key: 1 when it ends the drill (q), else 0. */
int drill_key(struct drill *d, int ch);

/* The screen's lines for width x height (at most max), the key bar last. */
int drill_lines(const struct drill *d, int width, int height, struct iv_line *out, int max);

/* "clock: 4 of 6 right; missed: ..." for the end. */
void drill_summary(const struct drill *d, char *buf, size_t size);

/* The drill in the interface until q or a signal. */
int tui_drill_main(const struct cli_opts *o);

#endif
