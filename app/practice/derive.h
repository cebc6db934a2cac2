/* derive: the practice (--quiz=derive).  The candidate watches a ring of
 * n >= 3 devices with every formula hidden, then writes its rules as
 * expressions: the shard rank r holds at step s, then the follow-ups (the
 * transfers, the bytes a rank sends, the most of B it holds, the rank that
 * holds shard k).  Each answer is checked by app/practice/expr.c over every case up
 * to n = 8, so a wrong one gets its first counterexample and equivalent
 * forms all pass.  Pure: no curses, no engine; the view says when a run
 * was watched and asks what the screen must hide. */
#ifndef TUI_DERIVE_H
#define TUI_DERIVE_H

#include <stddef.h>
#include <stdint.h>

#include "expr.h"

#define DERIVE_INPUT_MAX 60  /* an answer fits an 80-column line beside "> " */
#define DERIVE_MAX_STEPS 64  /* the interface's most devices: one compute each */
#define DERIVE_MSG_MAX 400

/* The questions, in the order they are asked.  The training step (not
 * built yet) adds its reduce-scatter's, which chunk rank r sends at step
 * s: an entry here and a row in derive.c's table. */
enum derive_question {
	DERIVE_SHARD,     /* at step s, which shard does rank r hold?  (r - s) mod n */
	DERIVE_TRANSFERS, /* how many transfers does a rank make?  n - 1 */
	DERIVE_BYTES,     /* how many bytes does a rank send in all?  8*K*N*(n - 1)/n */
	DERIVE_PEAK,      /* the most of B a rank holds at once?  2/n */
	DERIVE_HOLDER,    /* at step s, which rank holds shard k?  (k + s) mod n */
	DERIVE_COUNT
};

enum derive_outcome {
	DERIVE_PENDING = 0,
	DERIVE_RIGHT,
	DERIVE_SKIPPED, /* Tab: the answer was shown, the question counts as missed */
};

/* What the last Enter (or Tab) found. */
enum derive_verdict {
	DERIVE_V_NONE = 0,
	DERIVE_V_RIGHT,
	DERIVE_V_WRONG,   /* msg: the first counterexample */
	DERIVE_V_ONLY_N2, /* right at n = 2 only: msg says so, with a case n > 2 */
	DERIVE_V_SYNTAX,  /* not an expression: pos is where, msg what */
	DERIVE_V_SKIPPED,
};

struct derive {
	int enabled;  /* the session practises (--quiz=derive) */
	int on;       /* practising now: x turns it off and on */
	int revealed; /* the shard's rule found or shown: nothing is hidden any more */
	int unlocked; /* an n >= 3 run was watched to its last compute */
	int cur;      /* the question asked; DERIVE_COUNT once every one is done */
	int open;     /* the answer line is on screen and takes the keys */
	int answered; /* the current question has its outcome: Enter goes on */
	char input[DERIVE_INPUT_MAX + 1];
	int len;
	int outcome[DERIVE_COUNT];
	int wrong[DERIVE_COUNT]; /* wrong answers before the outcome */
	char right_as[DERIVE_COUNT][DERIVE_INPUT_MAX + 1]; /* the expression that was right */
	int verdict;  /* enum derive_verdict */
	int pos;      /* DERIVE_V_SYNTAX: the offset of the problem in the answer */
	char msg[DERIVE_MSG_MAX];
	/* the run being watched */
	int run_n;
	unsigned char seen[DERIVE_MAX_STEPS]; /* its computes shown so far */
	int asked_run; /* its questions opened by themselves once: Esc is not undone */
};

/* Everything cleared; enabled and on as given. */
void derive_init(struct derive *d, int enabled);

/* A new run on n devices: nothing of it watched yet. */
void derive_new_run(struct derive *d, int n);

/* The compute of step s is on screen.  Returns 1 when the run has now been
 * watched whole (every step's compute seen) and s is its last step: the
 * moment to ask, on n >= 3. */
int derive_saw_compute(struct derive *d, int s);

/* The run's steps not seen yet, "s=0, s=1" (at most size characters);
 * returns how many. */
int derive_unseen(const struct derive *d, char *buf, size_t size);

/* Whether the screen must hide every formula and answer: practising and
 * the shard's rule not yet found. */
int derive_hiding(const struct derive *d);

/* Whether questions are left to ask. */
int derive_pending(const struct derive *d);

/* Opens the answer line on the current question (once unlocked); closes it
 * (Esc: the question waits, a opens it again). */
void derive_open(struct derive *d);
void derive_close(struct derive *d);

/* Typing: any printable character, up to DERIVE_INPUT_MAX; backspace. */
void derive_type(struct derive *d, int ch);
void derive_backspace(struct derive *d);

/* Enter: checks the answer, or after an outcome goes on to the next
 * question (closing the line after the last). */
void derive_enter(struct derive *d);

/* Tab: shows the answer; the question counts as missed. */
void derive_skip(struct derive *d);

/* The question q in words, with what to write it in. */
const char *derive_question_text(int q);

/* A short name for q in the summary ("the shard"). */
const char *derive_question_name(int q);

/* One of the answers the program knows to be right, "(r - s) % n". */
const char *derive_answer(int q);

/* Checks text as the answer to q: the verdict (enum derive_verdict), with
 * pos and msg as for the screen (msg at least EXPR_MSG_MAX). */
int derive_check(int q, const char *text, int *pos, char *msg, size_t size);

/* A question checked over a list of cases whose truth is a fraction (the
 * bytes, the peak, the interview's follow-ups): case i's values into v and
 * its truth num/den, 0 past the last. */
typedef int (*derive_case_fn)(int i, int64_t *v, int64_t *num, int64_t *den);

/* A factor the truth is made of, for naming the one an answer lacks:
 * "(n - 1)", and its value at v. */
struct derive_factor {
	const char *name;
	void (*at)(const int64_t *v, int64_t *num, int64_t *den);
};

/* Checks text (in names[0..count)) over the cases of at: DERIVE_V_RIGHT,
 * _WRONG or _SYNTAX, with pos and msg as derive_check's.  The truth is said
 * between pre and post ("a rank sends ", " bytes").  A wrong answer's
 * counterexample is the first case that differs whose truth is not 0;
 * when the answer is off by some of the factors at every case (the
 * fewest that explain it), they are named ("yours lacks the factor 8") and
 * the case is the first where each of them is other than 1. */
int derive_check_list(const char *text, const char *const *names, int count, derive_case_fn at,
		      const char *pre, const char *post, const struct derive_factor *factors,
		      int n_factors, int *pos, char *msg, size_t size);

/* x: the practice turned off shows every formula and the memory table, so
 * each question without an outcome counts as shown (as after Tab) and the
 * practice is over: peeking cannot be scored right.  Returns how many. */
int derive_stop(struct derive *d);

/* The score so far: right answers, and questions with an outcome. */
void derive_score(const struct derive *d, int *right, int *done);

/* Once every question has its outcome: the summary, one paragraph. */
void derive_summary(const struct derive *d, char *buf, size_t size);

#endif
