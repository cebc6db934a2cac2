/* interview: --interview FILE.py, the mock interview's session (docs/interview.md).
 * What it holds is the candidate's progress and nothing of the screen's:
 * the part being worked on (DP, then FSDP, then the follow-up round), the
 * time each part took (the clock runs only while not paused), the judged
 * saves and the verdict of each, the hints asked for, the follow-up's
 * answers.  It is kept in a small state file beside FILE, so that quitting
 * and starting again resumes where the candidate was; the report is written
 * beside it too.  Pure: no curses, no threads (iv_judge.c has the judge's
 * thread), no Python (the judge runs it). */
#ifndef APP_INTERVIEW_INTERVIEW_H
#define APP_INTERVIEW_INTERVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "judge/judge.h"

enum iv_part {
	IV_PART_DP = 0,   /* dp_mat_mul: 10 minutes by default */
	IV_PART_FSDP,     /* fsdp_mat_mul: 20 minutes */
	IV_PART_FOLLOW,   /* the follow-up round: questions, no clock */
	IV_PART_DONE,     /* the report is written */
};
#define IV_TIMED 2        /* the parts with a clock: DP and FSDP */

#define IV_HINT_LEVELS 3  /* a pointer, the idea, the shape of the fix */
#define IV_HISTORY_MAX 200
#define IV_QUESTIONS_MAX 10

/* One judged save: its verdict on the part's function. */
struct iv_judged {
	int part;             /* the part it was judged in */
	int save;             /* 1, 2, ...: the part's judged saves */
	uint64_t at_ms;       /* the part's clock when it came */
	int verdict;          /* the part's first failing verdict, JUDGE_PASS, or -1: it did
			       * not load (a syntax error, no such function) */
	int passed, counted;  /* the part's cases within the contract that passed, of */
};

struct iv_state {
	int part;                          /* enum iv_part */
	uint64_t limit_ms[IV_TIMED];       /* --interview-time */
	uint64_t used_ms[IV_TIMED];        /* each part's clock, pauses left out */
	int paused;
	int saves[IV_TIMED];               /* judged saves, each part's */
	int pass_save[IV_TIMED];           /* the save that passed it, 0 not yet */
	int hint_level[IV_TIMED][JUDGE_VERDICTS]; /* hints shown, per verdict (0..3) */
	int hints[IV_TIMED];               /* hints asked for, each part's */
	struct iv_judged hist[IV_HISTORY_MAX];
	int n_hist;
	/* the follow-up round (iv_questions.c) */
	int q_cur;                         /* the question asked, n_questions once done */
	int q_outcome[IV_QUESTIONS_MAX];   /* enum iv_q_outcome */
	int q_wrong[IV_QUESTIONS_MAX];     /* wrong answers before it */
};

enum iv_q_outcome { IV_Q_PENDING = 0, IV_Q_RIGHT, IV_Q_SHOWN };

/* A fresh session: part DP, clocks at zero, limits in ms. */
void iv_state_init(struct iv_state *s, uint64_t dp_ms, uint64_t fsdp_ms);

/* The files beside FILE: its name without ".py", then ".interview" (the
 * state) or "-report.md".  0, or -1 when it does not fit. */
int iv_path_state(const char *file, char *buf, size_t size);
int iv_path_report(const char *file, char *buf, size_t size);

/* Reads the state file into s (its limits kept as s has them).  0; 1 when
 * there is none (s unchanged); -1 with msg one line when it cannot be read
 * or is not one. */
int iv_state_load(struct iv_state *s, const char *path, char *msg, size_t size);

/* Writes s to path (all or nothing).  0, or -1 with msg one line. */
int iv_state_save(const struct iv_state *s, const char *path, char *msg, size_t size);

/* The starter: writes FILE from the exercise's starter when it does not
 * exist (never over a file).  0 written, 1 there already, -1 with msg. */
int iv_starter_write(const char *file, char *msg, size_t size);

/* A judged save for the part being worked on: its verdict is recorded,
 * and the part is done when its function passed every case within the
 * exercise's contract (then the next part starts; FSDP's leads to the
 * follow-up round).  Returns 1 when the part was passed by this save. */
int iv_state_judged(struct iv_state *s, const struct judge *j);

/* The part's function's first failing case in j within the exercise's
 * contract (cases beyond it are reported, never counted); NULL when every
 * counted case passed, or when the file did not load or defines no such
 * function (*defined 0). */
const struct judge_case *iv_first_failing(const struct judge *j, int part, int *defined);

/* The part's cases in j within the contract: how many passed, of how many. */
void iv_part_score(const struct judge *j, int part, int *passed, int *counted);

/* The part's clock, counting past zero: its limit minus the time used
 * (negative once over). */
int64_t iv_left_ms(const struct iv_state *s);

#endif
