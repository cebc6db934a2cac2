/* expr: the parser, the exact evaluator and the checker (see expr.h).
 *
 * The parser is recursive descent over Python's precedence (unary signs bind
 * tighter than * / // % mod, which bind tighter than + -) and writes postfix
 * nodes, so an evaluation is one loop over a stack of at most EXPR_MAX_NODES
 * values.  Depth is bounded (EXPR_MAX_DEPTH), so no input can exhaust the C
 * stack.  Values are fractions of int64_t in lowest terms, every product and
 * sum checked with the compiler's overflow builtins: exact where Python's
 * floats are exact, and never undefined behaviour. */
#include "expr.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum expr_op {
	EXPR_NUM = 1, /* val: the literal */
	EXPR_VAR,     /* val: the variable's index */
	EXPR_NEG,
	EXPR_ADD,
	EXPR_SUB,
	EXPR_MUL,
	EXPR_DIV,      /* true division, exact */
	EXPR_FLOORDIV, /* // */
	EXPR_MOD,      /* % or mod, Python's: the sign of the divisor */
};

struct expr_parser {
	const char *text;
	size_t pos, len;
	const char *const *names;
	int count, depth;
	struct expr *out;
	int err_pos;
	char *msg;
	size_t msg_size;
	int failed;
};

static int expr_fail_at(struct expr_parser *p, size_t pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int expr_fail_at(struct expr_parser *p, size_t pos, const char *fmt, ...)
{
	if (p->failed)
		return -1; /* the first problem is the one to show */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->msg, p->msg_size, fmt, ap);
	va_end(ap);
	p->err_pos = (int)pos;
	p->failed = 1;
	return -1;
}

static void expr_skip_space(struct expr_parser *p)
{
	while (p->pos < p->len && (p->text[p->pos] == ' ' || p->text[p->pos] == '\t'))
		p->pos++;
}

static int expr_emit(struct expr_parser *p, int op, int64_t val)
{
	if (p->out->count >= EXPR_MAX_NODES)
		return expr_fail_at(p, p->pos, "too long: at most %d numbers, names and operators",
				    EXPR_MAX_NODES);
	p->out->node[p->out->count++] = (struct expr_node){ op, val };
	return 0;
}

/* The variables' names for a message: "r, s and n". */
static void expr_name_list(const struct expr_parser *p, char *buf, size_t size)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int i = 0; i < p->count && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					i == 0 ? "" : i == p->count - 1 ? " and " : ", ", p->names[i]);
}

/* A word of letters (and digits after the first) at p->pos; its length. */
static size_t expr_word(const struct expr_parser *p)
{
	size_t n = 0;
	while (p->pos + n < p->len &&
	       (isalpha((unsigned char)p->text[p->pos + n]) || p->text[p->pos + n] == '_' ||
		(n > 0 && isdigit((unsigned char)p->text[p->pos + n]))))
		n++;
	return n;
}

static int expr_sum(struct expr_parser *p);

/* After a whole value, something that cannot follow one. */
static int expr_unexpected(struct expr_parser *p)
{
	char c = p->text[p->pos];
	if (c == ')')
		return expr_fail_at(p, p->pos, "the ')' at column %zu has no '(' before it",
				    p->pos + 1);
	if (isalnum((unsigned char)c) || c == '_' || c == '(')
		return expr_fail_at(p, p->pos, "an operator is missing before column %zu (write "
				    "2 * r, not 2r)", p->pos + 1);
	return expr_fail_at(p, p->pos, "'%c' at column %zu is not part of an expression (use "
			    "+ - * / // %% mod and parentheses)",
			    isprint((unsigned char)c) ? c : '?', p->pos + 1);
}

static int expr_number(struct expr_parser *p)
{
	size_t start = p->pos;
	uint64_t v = 0;
	while (p->pos < p->len && isdigit((unsigned char)p->text[p->pos])) {
		unsigned d = (unsigned)(p->text[p->pos] - '0');
		if (v > ((uint64_t)INT64_MAX - d) / 10)
			return expr_fail_at(p, start, "the number at column %zu is too large",
					    start + 1);
		v = v * 10 + d;
		p->pos++;
	}
	if (p->pos - start > 1 && p->text[start] == '0')
		return expr_fail_at(p, start, "a number cannot start with 0 in Python (column %zu)",
				    start + 1);
	return expr_emit(p, EXPR_NUM, (int64_t)v);
}

static int expr_name(struct expr_parser *p)
{
	size_t start = p->pos, n = expr_word(p);
	for (int i = 0; i < p->count; i++)
		if (strlen(p->names[i]) == n && memcmp(p->names[i], p->text + start, n) == 0) {
			p->pos += n;
			return expr_emit(p, EXPR_VAR, i);
		}
	char names[64];
	expr_name_list(p, names, sizeof names);
	if (n == 3 && memcmp(p->text + start, "mod", 3) == 0)
		return expr_fail_at(p, start, "'mod' at column %zu needs a value before it",
				    start + 1);
	return expr_fail_at(p, start, "unknown name '%.*s' at column %zu (use %s)",
			    (int)(n > 20 ? 20 : n), p->text + start, start + 1, names);
}

/* A number, a name, a parenthesised expression, or a signed one of those. */
static int expr_unary(struct expr_parser *p)
{
	expr_skip_space(p);
	if (p->pos >= p->len)
		return expr_fail_at(p, p->pos, "the expression ends too soon: a number, a name or "
				    "'(' is missing at column %zu", p->pos + 1);
	char c = p->text[p->pos];
	if (++p->depth > EXPR_MAX_DEPTH)
		return expr_fail_at(p, p->pos, "nested too deeply at column %zu", p->pos + 1);
	int rc;
	if (c == '-' || c == '+') {
		p->pos++;
		rc = expr_unary(p);
		if (!rc && c == '-')
			rc = expr_emit(p, EXPR_NEG, 0);
	} else if (c == '(') {
		size_t open = p->pos++;
		rc = expr_sum(p);
		expr_skip_space(p);
		if (!rc && p->pos >= p->len)
			rc = expr_fail_at(p, open, "the '(' at column %zu is never closed", open + 1);
		else if (!rc && p->text[p->pos] != ')')
			rc = expr_unexpected(p);
		else if (!rc)
			p->pos++;
	} else if (isdigit((unsigned char)c)) {
		rc = expr_number(p);
	} else if (isalpha((unsigned char)c) || c == '_') {
		rc = expr_name(p);
	} else if (c == ')') {
		rc = expr_fail_at(p, p->pos, "a value is missing before the ')' at column %zu",
				  p->pos + 1);
	} else if (c == '*' || c == '/' || c == '%') {
		rc = expr_fail_at(p, p->pos, "'%c' at column %zu needs a value before it", c,
				  p->pos + 1);
	} else {
		rc = expr_fail_at(p, p->pos, "'%c' at column %zu is not part of an expression "
				  "(use + - * / // %% mod and parentheses)",
				  isprint((unsigned char)c) ? c : '?', p->pos + 1);
	}
	p->depth--;
	return rc;
}

/* The multiplicative operator at p->pos, or 0; *width gets its length. */
static int expr_mul_op(const struct expr_parser *p, size_t *width)
{
	const char *s = p->text + p->pos;
	size_t left = p->len - p->pos;
	if (left >= 2 && s[0] == '*' && s[1] == '*')
		return -1; /* power: refused by the caller */
	if (left >= 2 && s[0] == '/' && s[1] == '/')
		return *width = 2, EXPR_FLOORDIV;
	if (left >= 1 && s[0] == '*')
		return *width = 1, EXPR_MUL;
	if (left >= 1 && s[0] == '/')
		return *width = 1, EXPR_DIV;
	if (left >= 1 && s[0] == '%')
		return *width = 1, EXPR_MOD;
	if (left >= 3 && memcmp(s, "mod", 3) == 0 &&
	    (left == 3 || !(isalnum((unsigned char)s[3]) || s[3] == '_')))
		return *width = 3, EXPR_MOD;
	return 0;
}

static int expr_product(struct expr_parser *p)
{
	if (expr_unary(p))
		return -1;
	for (;;) {
		expr_skip_space(p);
		size_t width = 0, at = p->pos;
		int op = expr_mul_op(p, &width);
		if (op < 0)
			return expr_fail_at(p, at, "'**' at column %zu: powers are not part of the "
					    "answer (use + - * / // %% mod)", at + 1);
		if (op == 0)
			return 0;
		p->pos += width;
		if (expr_unary(p) || expr_emit(p, op, 0))
			return -1;
	}
}

static int expr_sum(struct expr_parser *p)
{
	if (expr_product(p))
		return -1;
	for (;;) {
		expr_skip_space(p);
		if (p->pos >= p->len || (p->text[p->pos] != '+' && p->text[p->pos] != '-'))
			return 0;
		int op = p->text[p->pos++] == '+' ? EXPR_ADD : EXPR_SUB;
		if (expr_product(p) || expr_emit(p, op, 0))
			return -1;
	}
}

int expr_parse(const char *text, const char *const *names, int count, struct expr *out,
	       int *pos, char *msg, size_t msg_size)
{
	struct expr_parser p = { .text = text, .len = strlen(text), .names = names,
				 .count = count, .out = out, .msg = msg, .msg_size = msg_size };
	out->count = 0;
	*pos = 0;
	msg[0] = '\0';
	if (count < 0 || count > EXPR_MAX_VARS) {
		expr_fail_at(&p, 0, "at most %d variables", EXPR_MAX_VARS);
	} else if (p.len > EXPR_MAX_TEXT) {
		expr_fail_at(&p, EXPR_MAX_TEXT, "too long: at most %d characters", EXPR_MAX_TEXT);
	} else {
		expr_skip_space(&p);
		if (p.pos == p.len) {
			char list[64];
			expr_name_list(&p, list, sizeof list);
			expr_fail_at(&p, 0, "type an expression in %s", list);
		} else if (!expr_sum(&p)) {
			expr_skip_space(&p);
			if (p.pos < p.len)
				expr_unexpected(&p);
		}
	}
	if (p.failed) {
		*pos = p.err_pos;
		out->count = 0;
		return -1;
	}
	return 0;
}

/* ---- exact fractions ---------------------------------------------------- */

static uint64_t expr_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static uint64_t expr_abs(int64_t x)
{
	return x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
}

static struct expr_value expr_failed(int why)
{
	return (struct expr_value){ why, 0, 1 };
}

/* num/den in lowest terms with den > 0.  INT64_MIN is kept out of every
 * value, so that negation never overflows. */
static struct expr_value expr_make(int64_t num, int64_t den)
{
	if (den == 0)
		return expr_failed(EXPR_DIV_ZERO);
	if (num == INT64_MIN || den == INT64_MIN)
		return expr_failed(EXPR_OVERFLOW);
	if (den < 0) {
		num = -num;
		den = -den;
	}
	uint64_t g = expr_gcd(expr_abs(num), (uint64_t)den);
	if (g > 1) {
		num /= (int64_t)g;
		den /= (int64_t)g;
	}
	return (struct expr_value){ EXPR_OK, num, den };
}

static struct expr_value expr_add(struct expr_value a, struct expr_value b, int sign)
{
	int64_t x, y, num, den;
	if (__builtin_mul_overflow(a.num, b.den, &x) || __builtin_mul_overflow(b.num, a.den, &y) ||
	    __builtin_mul_overflow(a.den, b.den, &den) ||
	    (sign > 0 ? __builtin_add_overflow(x, y, &num) : __builtin_sub_overflow(x, y, &num)))
		return expr_failed(EXPR_OVERFLOW);
	return expr_make(num, den);
}

static struct expr_value expr_mul(struct expr_value a, struct expr_value b)
{
	/* cross-cancel first: the product of lowest terms overflows less often */
	int64_t g1 = (int64_t)expr_gcd(expr_abs(a.num), (uint64_t)b.den);
	int64_t g2 = (int64_t)expr_gcd(expr_abs(b.num), (uint64_t)a.den);
	if (g1 == 0)
		g1 = 1;
	if (g2 == 0)
		g2 = 1;
	int64_t num, den;
	if (__builtin_mul_overflow(a.num / g1, b.num / g2, &num) ||
	    __builtin_mul_overflow(a.den / g2, b.den / g1, &den))
		return expr_failed(EXPR_OVERFLOW);
	return expr_make(num, den);
}

static struct expr_value expr_div(struct expr_value a, struct expr_value b)
{
	if (b.num == 0)
		return expr_failed(EXPR_DIV_ZERO);
	return expr_mul(a, expr_make(b.den, b.num));
}

/* floor(num / den) for den > 0, as Python's // does. */
static int64_t expr_floor(int64_t num, int64_t den)
{
	int64_t q = num / den;
	if (num % den != 0 && num < 0)
		q--;
	return q;
}

static struct expr_value expr_floordiv(struct expr_value a, struct expr_value b)
{
	struct expr_value q = expr_div(a, b);
	if (q.fail)
		return q;
	return expr_make(expr_floor(q.num, q.den), 1);
}

/* a - b * floor(a / b): Python's %, whose result has the sign of b. */
static struct expr_value expr_mod(struct expr_value a, struct expr_value b)
{
	struct expr_value q = expr_floordiv(a, b);
	if (q.fail)
		return q;
	struct expr_value bq = expr_mul(b, q);
	if (bq.fail)
		return bq;
	return expr_add(a, bq, -1);
}

struct expr_value expr_eval(const struct expr *e, const int64_t *v)
{
	struct expr_value st[EXPR_MAX_NODES];
	int top = 0;
	for (int i = 0; i < e->count; i++) {
		const struct expr_node *nd = &e->node[i];
		struct expr_value r;
		switch (nd->op) {
		case EXPR_NUM: r = expr_make(nd->val, 1); break;
		case EXPR_VAR: r = expr_make(v[nd->val], 1); break;
		case EXPR_NEG:
			if (top < 1)
				return expr_failed(EXPR_OVERFLOW); /* not a parsed expression */
			r = expr_make(-st[top - 1].num, st[top - 1].den);
			top--;
			break;
		default: {
			if (top < 2)
				return expr_failed(EXPR_OVERFLOW);
			struct expr_value a = st[top - 2], b = st[top - 1];
			top -= 2;
			switch (nd->op) {
			case EXPR_ADD: r = expr_add(a, b, 1); break;
			case EXPR_SUB: r = expr_add(a, b, -1); break;
			case EXPR_MUL: r = expr_mul(a, b); break;
			case EXPR_DIV: r = expr_div(a, b); break;
			case EXPR_FLOORDIV: r = expr_floordiv(a, b); break;
			default: r = expr_mod(a, b); break;
			}
		}
		}
		if (r.fail)
			return r;
		st[top++] = r;
	}
	if (top != 1)
		return expr_failed(EXPR_OVERFLOW);
	if (st[0].den != 1)
		st[0].fail = EXPR_FRACTION;
	return st[0];
}

/* ---- checking against the truth ----------------------------------------- */

/* "r = 0, s = 1, n = 3" */
static size_t expr_values_text(const struct expr_spec *spec, const int64_t *v, char *buf,
			       size_t size)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int i = 0; i < spec->count && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s = %" PRId64, i ? ", " : "",
					spec->names[i], v[i]);
	return len < size ? len : size - 1;
}

static void expr_counter_text(const struct expr_spec *spec, struct expr_result *res,
			      const char *lead, int n_index)
{
	char at[96], yours[96];
	const char *who = spec->truth_name ? spec->truth_name : "the answer";
	expr_values_text(spec, res->v, at, sizeof at);
	switch (res->theirs.fail) {
	case EXPR_DIV_ZERO:
		snprintf(yours, sizeof yours, "yours divides by zero");
		break;
	case EXPR_OVERFLOW:
		snprintf(yours, sizeof yours, "yours is too large to compute");
		break;
	case EXPR_FRACTION:
		snprintf(yours, sizeof yours, "yours gives %" PRId64 "/%" PRId64 ", not a whole "
			 "number (// divides rounding down)", res->theirs.num, res->theirs.den);
		break;
	default:
		snprintf(yours, sizeof yours, "yours gives %" PRId64, res->theirs.num);
	}
	const char *hint = "";
	int64_t n = n_index >= 0 ? res->v[n_index] : 0, diff;
	if (spec->residue && !res->theirs.fail && n > 1 &&
	    !__builtin_sub_overflow(res->theirs.num, res->truth, &diff) && diff % n == 0)
		hint = " (off by a multiple of n: reduce it with % n)";
	snprintf(res->msg, sizeof res->msg, "%s%s: %s, %s gives %" PRId64 "%s", lead, at, yours,
		 who, res->truth, hint);
}

int expr_check(const char *text, const struct expr_spec *spec, struct expr_result *res)
{
	struct expr e;
	memset(res, 0, sizeof *res);
	if (expr_parse(text, spec->names, spec->count, &e, &res->pos, res->msg, sizeof res->msg))
		return res->verdict = EXPR_SYNTAX;
	int n_index = -1;
	for (int i = 0; i < spec->count; i++)
		if (strcmp(spec->names[i], "n") == 0)
			n_index = i;

	/* "only for n = 2": right at every case of n = 2, wrong at some case of
	 * every larger n (an answer right up to n = 4 is just wrong) */
	int found = 0, wrong_at_2 = 0, any_2 = 0, wrong_past_2 = 1;
	int64_t first_v[EXPR_MAX_VARS] = { 0 }, first_truth = 0;
	struct expr_value first_theirs = { 0, 0, 1 };
	int n_lo = n_index >= 0 ? 1 : 0, n_hi = n_index >= 0 ? spec->n_max : 0;
	for (int n = n_lo; n <= n_hi; n++) {
		int64_t v[EXPR_MAX_VARS] = { 0 };
		int wrong_here = 0;
		if (n_index >= 0)
			v[n_index] = n;
		/* an odometer over the other variables, the last named fastest */
		for (;;) {
			struct expr_value got = expr_eval(&e, v);
			int64_t want = spec->truth(v, spec->ctx);
			int bad = got.fail || got.num != want;
			any_2 |= n == 2;
			if (bad && n == 2)
				wrong_at_2 = 1;
			wrong_here |= bad;
			if (bad && !found) {
				memcpy(first_v, v, sizeof first_v);
				first_theirs = got;
				first_truth = want;
				found = 1;
			}
			int i = spec->count - 1;
			for (; i >= 0; i--) {
				if (i == n_index)
					continue;
				if (++v[i] < (n_index >= 0 ? n : 1))
					break;
				v[i] = 0;
			}
			if (i < 0)
				break;
		}
		if (n > 2 && !wrong_here)
			wrong_past_2 = 0;
	}
	if (!found) {
		res->verdict = EXPR_RIGHT;
		snprintf(res->msg, sizeof res->msg, "right: it equals %s for every case up to n = %d",
			 spec->truth_name ? spec->truth_name : "the answer", spec->n_max);
		return res->verdict;
	}
	memcpy(res->v, first_v, sizeof res->v);
	res->theirs = first_theirs;
	res->truth = first_truth;
	if (any_2 && !wrong_at_2 && wrong_past_2 && n_hi > 2) {
		res->verdict = EXPR_ONLY_N2;
		expr_counter_text(spec, res, "works only for n = 2: at ", n_index);
	} else {
		res->verdict = EXPR_WRONG;
		expr_counter_text(spec, res, "", n_index);
	}
	return res->verdict;
}

static int64_t expr_ring_shard(const int64_t *v, void *ctx)
{
	(void)ctx;
	int64_t r = v[0], s = v[1], n = v[2];
	return ((r - s) % n + n) % n;
}

int expr_check_shard(const char *text, struct expr_result *res)
{
	static const char *const names[] = { "r", "s", "n" };
	const struct expr_spec spec = { names, 3, 8, expr_ring_shard, NULL, "the ring", 1 };
	return expr_check(text, &spec, res);
}
