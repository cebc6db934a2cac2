/* expr: the candidate's own formula, parsed, evaluated and checked against
 * the ring.  Pure (no curses, no engine): the quiz asks for an expression in
 * r, s and n and this module says whether it is the ring's, with the first
 * counterexample when it is not.
 *
 * The language is Python's integer arithmetic: + - * / // % (and `mod` for
 * %), unary minus and plus, parentheses, whole-number literals, and the
 * variables the question names.  % and // floor as Python's do ((-1) % 4 is
 * 3, (-1) // 4 is -1).  / is Python 3's true division, computed exactly (as
 * fractions, not floats): (r - s + n) / 1 is fine, and an answer that comes
 * out as a fraction is wrong where it does ("yours gives 3/2").  Values are
 * exact 64-bit fractions with every operation checked: an expression that
 * leaves that range says so instead of wrapping. */
#ifndef APP_EXPR_H
#define APP_EXPR_H

#include <stddef.h>
#include <stdint.h>

#define EXPR_MAX_TEXT 200  /* characters of an answer */
#define EXPR_MAX_NODES 128 /* numbers, names and operators in it */
#define EXPR_MAX_DEPTH 32  /* parentheses and unary signs nested */
#define EXPR_MAX_VARS 4
#define EXPR_MSG_MAX 200

/* A parsed expression: nodes in postfix order (each operator after its
 * operands), so evaluation is one pass over a small stack. */
struct expr {
	int count;
	struct expr_node {
		int op;      /* enum expr_op (expr.c) */
		int64_t val; /* a literal's value, or a variable's index */
	} node[EXPR_MAX_NODES];
};

/* Why an evaluation has no whole-number value. */
enum expr_fail {
	EXPR_OK = 0,
	EXPR_DIV_ZERO,  /* / // or % by zero */
	EXPR_OVERFLOW,  /* beyond 64-bit fractions */
	EXPR_FRACTION,  /* the value is not a whole number (num/den in the result) */
};

/* The value of an expression: a whole number, or why there is none. */
struct expr_value {
	int fail;         /* enum expr_fail */
	int64_t num, den; /* the value num/den in lowest terms, den > 0 (den 1: whole) */
};

/* Parses text with the variables names[0..count) (count <= EXPR_MAX_VARS,
 * single words of letters).  Returns 0, or -1 with *pos the 0-based offset
 * of the problem in text and msg one line saying what is wrong there. */
int expr_parse(const char *text, const char *const *names, int count, struct expr *out,
	       int *pos, char *msg, size_t msg_size);

/* Evaluates e with the variables' values v (in the order of the names it was
 * parsed with). */
struct expr_value expr_eval(const struct expr *e, const int64_t *v);

/* What an answer is checked against.  The variable called "n" is the device
 * count and runs 1..n_max; every other runs 0..n-1 (a rank, a step, a
 * shard; without an n, only 0).  truth(v, ctx) is the right answer for
 * those values. */
struct expr_spec {
	const char *const *names;
	int count;
	int n_max;
	int64_t (*truth)(const int64_t *v, void *ctx);
	void *ctx;
	const char *truth_name; /* "the ring": the counterexample's words */
	int residue;            /* the truth is taken mod n: say so when an answer is off by n */
};

enum expr_verdict {
	EXPR_RIGHT = 0, /* equal to the truth everywhere */
	EXPR_WRONG,     /* a counterexample (or a failure) in v, theirs, truth */
	EXPR_ONLY_N2,   /* right for every case with n = 2, wrong for every n > 2 */
	EXPR_SYNTAX,    /* not an expression: pos and msg */
};

struct expr_result {
	int verdict;               /* enum expr_verdict */
	int pos;                   /* EXPR_SYNTAX: 0-based offset of the problem */
	int64_t v[EXPR_MAX_VARS];  /* the first counterexample's values */
	struct expr_value theirs;  /* what the answer gives there */
	int64_t truth;             /* what the truth is there */
	char msg[EXPR_MSG_MAX];    /* one line, ready for the screen */
};

/* The first counterexample is the first case in this order: n from 1 up,
 * then the other variables with the first named varying slowest (for r, s,
 * n: n, then r, then s).  Returns res->verdict. */
int expr_check(const char *text, const struct expr_spec *spec, struct expr_result *res);

/* The ring's shard question, ready made: (r - s) mod n over r, s, n, with
 * n = 1..8. */
int expr_check_shard(const char *text, struct expr_result *res);

#endif
