/* qbank: a question answered by typing and checked, never free text: an
 * expression checked over every case by the derive practice's checker
 * (derive.h), a number with its unit (a memory size, a message size, a
 * time), or a set of letters.  The interview's follow-up round
 * (app/interview/iv_questions.c) and the drills (drills.c: --quiz=clock,
 * --quiz=tp) are tables of these rows.  A row's truth is never written into
 * it when the engine can say it: a number's range and a text's figures come
 * from functions of the context (the hardware the questions are asked on,
 * the ranks), which call the engine's model.  Pure: no curses. */
#ifndef APP_PRACTICE_QBANK_H
#define APP_PRACTICE_QBANK_H

#include <stddef.h>

#include <distmm/hw.h>

#include "derive.h"

enum qbank_kind { QBANK_DERIVE, QBANK_LIST, QBANK_NUMBER, QBANK_LETTERS };

/* What a number is counted in, and so which units it may be typed with. */
enum qbank_unit {
	QBANK_COUNT = 0, /* a plain number: no unit */
	QBANK_GB,        /* a memory size in GB (10^9 bytes): tb, gb, mb, kb, b */
	QBANK_BYTES,     /* a message size in bytes: b, kb, mb, gb (10^3...), kib, mib, gib */
	QBANK_US,        /* a time in microseconds: ns, us, ms, s */
};

enum qbank_verdict { QBANK_RIGHT = 0, QBANK_WRONG, QBANK_SYNTAX };

/* What the questions are asked on. */
struct qbank_ctx {
	struct dm_hw hw; /* the hardware a timed question names */
	int n;           /* the ranks a timed question names */
};

#define QBANK_TEXT_MAX 600

struct qbank_row {
	int kind; /* enum qbank_kind */
	const char *name;                /* short, for a report ("the bytes a rank sends") */
	const char *text, *worked;       /* the question and the worked answer, or ... */
	void (*say)(const struct qbank_ctx *c, int worked, char *buf, size_t size); /* ... these */
	int derive_q;                    /* QBANK_DERIVE: the derive practice's question */
	const char *const *names;        /* QBANK_LIST: the variables, */
	int count;                       /* how many, */
	derive_case_fn at;               /* the cases and their truths, */
	const char *pre, *post;          /* the truth's words around it, */
	const struct derive_factor *factors; /* the factors it is made of */
	int n_factors;
	double number;                   /* QBANK_NUMBER: the value, in unit, or ... */
	void (*range)(const struct qbank_ctx *c, double *lo, double *hi); /* ... a range of them */
	int unit;                        /* enum qbank_unit */
	const char *letters;             /* QBANK_LETTERS: the set that is right */
};

/* The question's words (buf holds them when the row says them). */
const char *qbank_text(const struct qbank_row *r, const struct qbank_ctx *c, char *buf,
		       size_t size);

/* The worked answer, shown once it is answered right or shown. */
const char *qbank_worked(const struct qbank_row *r, const struct qbank_ctx *c, char *buf,
			 size_t size);

/* Checks text as the answer to r: enum qbank_verdict, msg one line (the
 * counterexample, what is wrong with a number without giving it away, or
 * where the syntax is wrong). */
int qbank_check(const struct qbank_row *r, const struct qbank_ctx *c, const char *text, char *msg,
		size_t size);

/* "32 MiB", "8 B", "1 GiB": bytes as the sweep's sizes are said. */
void qbank_bytes_words(double bytes, char *buf, size_t size);

#endif
