/* quiz: predict, then reveal.  Before a phase runs, the quiz asks what it
 * will do (the shard a rank holds and the columns it writes; whom it sends to
 * and receives from; in DP, a rank's rows and where the gather goes), checks
 * the typed answer and explains it with the real numbers.  Pure: no curses,
 * no engine; the view feeds it the shapes and the phase to come. */
#ifndef TUI_QUIZ_H
#define TUI_QUIZ_H

#include <stddef.h>
#include <stdint.h>

#define QUIZ_MAX_QUESTIONS 130 /* level 2 at 64 devices: two a rank */
#define QUIZ_MAX_RANKS 64
#define QUIZ_INPUT_MAX 16

enum quiz_type {
	QUIZ_SHARD,     /* which shard does rank r hold at step s? */
	QUIZ_COLS,      /* which columns of C will it write? (a:b) */
	QUIZ_SEND_TO,   /* whom does rank r send its shard to? */
	QUIZ_RECV_FROM, /* whom does it receive one from? */
	QUIZ_DP_ROWS,   /* DP: which rows of A does rank r own? (a:b) */
	QUIZ_DP_GATHER, /* DP: which rank gathers the rows? */
	QUIZ_RS_SEND,   /* training step, reduce-scatter step s: which chunk of dB does
			   rank r send? */
	QUIZ_RS_ADD,    /* ... and which chunk does it add its part into? */
};

struct quiz_question {
	int type, rank, step, n;
	size_t M, N;
};

struct quiz {
	int on, level;     /* level 1: one rank a phase; 2: every rank */
	int right, asked;  /* the score */
	int skipped;       /* questions skipped (n): revealed, not counted */
	uint64_t rng;      /* level 1's draws */
	int bag[QUIZ_MAX_RANKS]; /* the ranks not asked about yet, in the order drawn */
	int bag_len, bag_n, last_rank;
	struct quiz_question q[QUIZ_MAX_QUESTIONS];
	int nq, cur;       /* the questions before the next phase, and the one shown */
	int phase;         /* the phase they are about, -2 when none */
	char input[QUIZ_INPUT_MAX];
	int input_len;
	int revealed, correct; /* correct: 1, 0, or -1 for a skipped question */
	char reveal[256];
};

/* Resets the score and the questions; on and level as given, level 1's
 * draws from seed (the same seed asks the same ranks). */
void quiz_init(struct quiz *z, int on, int level, uint64_t seed);

/* Makes the questions for the phase to come: its kind (SCHED_*), its step,
 * its index, the mode, n, M and N.  Level 1 picks one rank at random, never
 * one asked about before every other rank has been (a shuffled bag, and no
 * rank twice in a row across bags); no questions for a gather in FSDP. */
void quiz_prepare(struct quiz *z, int mode, int kind, int step, int phase, int n, size_t M,
		  size_t N);

/* Whether a question is on screen, and whether it waits for an answer. */
int quiz_open(const struct quiz *z);
int quiz_waiting(const struct quiz *z);

/* Typing: a digit, '-' or ':' adds to the answer; backspace removes one. */
void quiz_type(struct quiz *z, int ch);
void quiz_backspace(struct quiz *z);

/* Enter: checks the answer and reveals.  An answer that is not a number
 * (or a:b where one is asked) is not counted: it says what to type. */
void quiz_submit(struct quiz *z);

/* n while a question waits: reveals the answer without counting it. */
void quiz_skip(struct quiz *z);

/* The right answer to q as it would be typed ("3", "4:5"). */
void quiz_answer(const struct quiz_question *q, char *buf, size_t size);

/* After a reveal: the next question; returns 0 when none is left (the
 * phase may run). */
int quiz_advance(struct quiz *z);

/* The current question in words. */
void quiz_text(const struct quiz_question *q, char *buf, size_t size);

/* Checks answer against q: 1 right, 0 wrong, -1 not an answer of the right
 * form.  explain gets the worked formula (and a hint for C's % when the
 * answer was the negative remainder). */
int quiz_check(const struct quiz_question *q, const char *answer, char *explain, size_t size);

/* Whether rank r's panel must hide its formula and shard: while a question
 * waits, or more are to come before the phase runs, every rank's is hidden,
 * the ranks not asked about too (their formula is the asked one's with
 * another r).  Once the last is revealed, none. */
int quiz_hides(const struct quiz *z, int r);

#endif
