/* derive: the practice's questions, their checks and the flow (see
 * derive.h).  The shard, the transfers and the holder are checked by
 * expr_check over every r, s (or k, s) and n up to 8.  The bytes and the
 * peak have fractions or sizes in them, so they are checked here over a
 * list of cases with the truth as an exact fraction (expr_eval gives the
 * answer's value as one, whole or not): the bytes where n divides N (what
 * the exercise asks for), the peak from n = 2 (one device holds all of B,
 * a case of its own). */
#include "derive.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *const derive_n[] = { "n" };
static const char *const derive_kn[] = { "K", "N", "n" };
static const char *const derive_ksn[] = { "k", "s", "n" };

/* Each question: its words, one right form, and the right answer said the
 * program's way once it is found (or shown). */
static const struct derive_row {
	const char *name, *text, *answer, *why;
} derive_rows[DERIVE_COUNT] = {
	[DERIVE_SHARD] = { "the shard",
			   "at step s, which shard does rank r hold? Write it in r, s and n",
			   "(r - s) % n",
			   "at step s rank r holds shard (r - s) mod n. Every step each shard moves "
			   "one rank on, so after s steps rank r holds the one that started s ranks "
			   "before it, at r - s; mod n wraps that round the ring (Python's % is never "
			   "negative; in C add n first: (r - s + n) % n)." },
	[DERIVE_TRANSFERS] = { "the transfers",
			       "how many times does a rank pass its shard on in a run? Write it in n",
			       "n - 1",
			       "n - 1 transfers: a rank computes at n steps and passes its shard "
			       "on between them, never after the last (on one device, none)." },
	[DERIVE_BYTES] = { "the bytes sent",
			   "how many bytes does a rank send in all? B is K x N float64s (8 bytes "
			   "each) and n divides N; write it in K, N and n",
			   "8 * K * N * (n - 1) / n",
			   "8*K*N*(n - 1)/n bytes: n - 1 shards of K x N/n float64s, (n - 1)/n of "
			   "B, whatever the ring's size; DP sends no B at all, only its rows of C." },
	[DERIVE_PEAK] = { "the most of B held",
			  "for n >= 2, what is the most of B a rank holds at once, as a fraction "
			  "of B? Write it in n",
			  "2 / n",
			  "2/n of B: during a transfer a rank holds the shard it sends and the one "
			  "arriving (at n = 2 that is all of B, as DP holds; the buffered fix's "
			  "send buffer is a third)." },
	[DERIVE_HOLDER] = { "who holds shard k",
			    "at step s, which rank holds shard k? Write it in k, s and n",
			    "(k + s) % n",
			    "rank (k + s) mod n: shard k starts on rank k and moves one rank on "
			    "each step; it is k = (r - s) mod n solved for r." },
};

void derive_init(struct derive *d, int enabled)
{
	memset(d, 0, sizeof *d);
	d->enabled = d->on = enabled;
}

void derive_new_run(struct derive *d, int n)
{
	d->run_n = n;
	memset(d->seen, 0, sizeof d->seen);
	d->asked_run = 0;
}

int derive_saw_compute(struct derive *d, int s)
{
	int n = d->run_n;
	if (s < 0 || s >= n || n > DERIVE_MAX_STEPS)
		return 0;
	d->seen[s] = 1;
	if (s != n - 1)
		return 0;
	for (int i = 0; i < n; i++)
		if (!d->seen[i])
			return 0;
	return 1;
}

int derive_unseen(const struct derive *d, char *buf, size_t size)
{
	int count = 0;
	size_t len = 0;
	buf[0] = '\0';
	for (int s = 0; s < d->run_n && s < DERIVE_MAX_STEPS; s++) {
		if (d->seen[s])
			continue;
		if (len < size)
			len += (size_t)snprintf(buf + len, size - len, "%ss=%d", count ? ", " : "", s);
		count++;
	}
	return count;
}

int derive_hiding(const struct derive *d)
{
	return d->enabled && d->on && !d->revealed;
}

int derive_pending(const struct derive *d)
{
	return d->enabled && d->cur < DERIVE_COUNT;
}

void derive_open(struct derive *d)
{
	if (d->on && d->unlocked && derive_pending(d))
		d->open = 1;
}

void derive_close(struct derive *d)
{
	d->open = 0;
}

void derive_type(struct derive *d, int ch)
{
	if (!d->open || d->answered || ch < ' ' || ch > '~' || d->len >= DERIVE_INPUT_MAX)
		return;
	d->input[d->len++] = (char)ch;
	d->input[d->len] = '\0';
	if (d->verdict == DERIVE_V_SYNTAX)
		d->verdict = DERIVE_V_NONE; /* the caret marked the old text */
}

void derive_backspace(struct derive *d)
{
	if (!d->open || d->answered || d->len == 0)
		return;
	d->input[--d->len] = '\0';
	if (d->verdict == DERIVE_V_SYNTAX)
		d->verdict = DERIVE_V_NONE;
}

const char *derive_question_text(int q)
{
	return q >= 0 && q < DERIVE_COUNT ? derive_rows[q].text : "";
}

const char *derive_question_name(int q)
{
	return q >= 0 && q < DERIVE_COUNT ? derive_rows[q].name : "";
}

const char *derive_answer(int q)
{
	return q >= 0 && q < DERIVE_COUNT ? derive_rows[q].answer : "";
}

/* ---- the truths ---------------------------------------------------------- */

static int64_t derive_pymod(int64_t a, int64_t n)
{
	int64_t m = a % n;
	return m < 0 ? m + n : m;
}

static int64_t derive_transfers(const int64_t *v, void *ctx)
{
	(void)ctx;
	return v[0] - 1;
}

static int64_t derive_holder(const int64_t *v, void *ctx)
{
	(void)ctx;
	return derive_pymod(v[0] + v[1], v[2]);
}

/* The cases of the bytes question, in order: n = 1..8, then K = 1..3, then
 * N = n, 2n, 3n; v = {K, N, n}, and what a rank sends there. */
static int derive_bytes_case(int i, int64_t *v, int64_t *num, int64_t *den)
{
	if (i < 0 || i >= 8 * 3 * 3)
		return 0;
	int64_t n = i / 9 + 1, K = (i / 3) % 3 + 1, N = (i % 3 + 1) * n;
	v[0] = K;
	v[1] = N;
	v[2] = n;
	*num = 8 * K * (N / n) * (n - 1);
	*den = 1;
	return 1;
}

/* The peak's cases: n = 2..8, the truth 2/n in lowest terms. */
static int derive_peak_case(int i, int64_t *v, int64_t *num, int64_t *den)
{
	if (i < 0 || i >= 7)
		return 0;
	int64_t n = i + 2;
	v[0] = n;
	*num = n % 2 ? 2 : 1;
	*den = n % 2 ? n : n / 2;
	return 1;
}

/* "3" or "2/3". */
static void derive_frac(int64_t num, int64_t den, char *buf, size_t size)
{
	if (den == 1)
		snprintf(buf, size, "%" PRId64, num);
	else
		snprintf(buf, size, "%" PRId64 "/%" PRId64, num, den);
}

/* x1/y1 == x2/y2, in 128 bits (products of 64-bit values). */
static int derive_frac_eq(__int128 x1, __int128 y1, __int128 x2, __int128 y2)
{
	return x1 * y2 == x2 * y1;
}

/* Which subset of the factors (a bit each) the answer is off by at every
 * case whose truth is not 0: the smallest such, missing (*extra 0: the
 * answer times them is the truth) or extra (the truth times them is the
 * answer); 0 when none explains it. */
static unsigned derive_off_by(const struct expr *e, const struct derive_factor *f, int nf,
			      derive_case_fn at, int *extra)
{
	for (int bits = 1; bits <= nf; bits++) { /* the smaller sets first */
		for (unsigned set = 1; set < (1u << nf); set++) {
			if (__builtin_popcount(set) != bits)
				continue;
			for (int way = 0; way < 2; way++) {
				int64_t v[EXPR_MAX_VARS] = { 0 }, num, den;
				int ok = 1, seen = 0;
				for (int i = 0; ok && at(i, v, &num, &den); i++) {
					if (num == 0)
						continue;
					struct expr_value got = expr_eval(e, v);
					if (got.fail != EXPR_OK && got.fail != EXPR_FRACTION) {
						ok = 0;
						break;
					}
					__int128 fn = 1, fd = 1;
					for (int k = 0; k < nf; k++)
						if (set & (1u << k)) {
							int64_t a, b;
							f[k].at(v, &a, &b);
							fn *= a;
							fd *= b;
						}
					seen = 1;
					ok = way == 0 ? derive_frac_eq((__int128)got.num * fn,
								       (__int128)got.den * fd, num, den)
						      : derive_frac_eq(got.num, got.den,
								       (__int128)num * fn,
								       (__int128)den * fd);
				}
				if (ok && seen) {
					*extra = way;
					return set;
				}
			}
		}
	}
	return 0;
}

/* Whether every factor of set is other than 1 at v: where it shows. */
static int derive_factors_show(const struct derive_factor *f, int nf, unsigned set,
			       const int64_t *v)
{
	for (int k = 0; k < nf; k++) {
		int64_t a, b;
		if (!(set & (1u << k)))
			continue;
		f[k].at(v, &a, &b);
		if (a == b)
			return 0;
	}
	return 1;
}

int derive_check_list(const char *text, const char *const *names, int count, derive_case_fn at,
		      const char *pre, const char *post, const struct derive_factor *factors,
		      int n_factors, int *pos, char *msg, size_t size)
{
	struct expr e;
	char why[EXPR_MSG_MAX];
	*pos = 0;
	if (expr_parse(text, names, count, &e, pos, why, sizeof why)) {
		snprintf(msg, size, "%s", why);
		return DERIVE_V_SYNTAX;
	}
	int extra = 0;
	unsigned off = 0;
	/* the counterexample: the first case that differs, preferring one
	 * whose truth is not 0 and, when a factor explains the difference,
	 * where every such factor is other than 1 (where it shows) */
	int64_t v[EXPR_MAX_VARS] = { 0 }, num, den, bv[EXPR_MAX_VARS] = { 0 }, bnum = 0, bden = 1;
	int best = 0, found = 0;
	for (int pass = 0; pass < 2 && !found; pass++) {
		if (pass == 1) {
			if (!best)
				break;
			off = derive_off_by(&e, factors, n_factors, at, &extra);
			best = 0; /* chosen again, the factors known */
		}
		for (int i = 0; at(i, v, &num, &den); i++) {
			struct expr_value got = expr_eval(&e, v);
			if ((got.fail == EXPR_OK || got.fail == EXPR_FRACTION) && got.num == num &&
			    got.den == den)
				continue;
			int rank = 1 + (num != 0) + (num != 0 && (!off || derive_factors_show(
								       factors, n_factors, off, v)));
			if (rank > best) {
				best = rank;
				memcpy(bv, v, sizeof bv);
				bnum = num;
				bden = den;
			}
			if (pass == 1 && rank == 3) {
				found = 1;
				break;
			}
		}
	}
	if (!best)
		return DERIVE_V_RIGHT;
	struct expr_value got = expr_eval(&e, bv);
	char where[96], yours[64], truth[32], named[160] = "";
	size_t len = 0;
	where[0] = '\0';
	for (int k = 0; k < count && len < sizeof where; k++)
		len += (size_t)snprintf(where + len, sizeof where - len, "%s%s = %" PRId64,
					k ? ", " : "", names[k], bv[k]);
	if (got.fail == EXPR_DIV_ZERO)
		snprintf(yours, sizeof yours, "yours divides by zero");
	else if (got.fail == EXPR_OVERFLOW)
		snprintf(yours, sizeof yours, "yours is too large to compute");
	else {
		char fr[40];
		derive_frac(got.num, got.den, fr, sizeof fr);
		snprintf(yours, sizeof yours, "yours gives %s", fr);
	}
	derive_frac(bnum, bden, truth, sizeof truth);
	/* a size in values where bytes are asked for */
	int64_t x8;
	int values = got.fail == EXPR_OK && got.den == 1 && bden == 1 && bnum != 0 &&
		     !__builtin_mul_overflow(got.num, 8, &x8) && x8 == bnum && strstr(post, "bytes");
	if (off) {
		int bits = __builtin_popcount(off), said = 0;
		size_t nl = (size_t)snprintf(named, sizeof named, "; yours %s factor%s ",
					     extra ? "has the extra" : "lacks the", bits > 1 ? "s" : "");
		for (int k = 0; k < n_factors && nl < sizeof named; k++)
			if (off & (1u << k)) {
				said++;
				nl += (size_t)snprintf(named + nl, sizeof named - nl, "%s%s",
						       said == 1 ? "" : said == bits ? " and " : ", ",
						       factors[k].name);
			}
	}
	snprintf(msg, size, "%s: %s, %s%s%s%s%s", where, yours, pre, truth, post,
		 values ? " (that is in float64s: each is 8 bytes)" : "", named);
	return DERIVE_V_WRONG;
}

/* The factors a rank's bytes are made of, for naming what an answer lacks. */
static void derive_f8(const int64_t *v, int64_t *num, int64_t *den)
{
	(void)v;
	*num = 8;
	*den = 1;
}

static void derive_fn1(const int64_t *v, int64_t *num, int64_t *den)
{
	*num = v[2] - 1;
	*den = 1;
}

static void derive_f1n(const int64_t *v, int64_t *num, int64_t *den)
{
	*num = 1;
	*den = v[2];
}

static const struct derive_factor derive_bytes_factors[] = {
	{ "8 (the bytes of a float64)", derive_f8 },
	{ "(n - 1) (the transfers)", derive_fn1 },
	{ "1/n (a shard is N/n columns)", derive_f1n },
};

/* expr_check for one of the questions over r, s, n-like variables. */
static int derive_check_expr(int q, const char *text, int *pos, char *msg, size_t size)
{
	struct expr_result res;
	int v;
	if (q == DERIVE_SHARD) {
		v = expr_check_shard(text, &res);
	} else {
		const struct expr_spec spec =
			q == DERIVE_TRANSFERS
				? (struct expr_spec){ derive_n, 1, 8, derive_transfers, NULL, "the ring", 0 }
				: (struct expr_spec){ derive_ksn, 3, 8, derive_holder, NULL, "the ring", 1 };
		v = expr_check(text, &spec, &res);
	}
	*pos = res.pos;
	snprintf(msg, size, "%s", res.msg);
	switch (v) {
	case EXPR_RIGHT: return DERIVE_V_RIGHT;
	case EXPR_ONLY_N2: return DERIVE_V_ONLY_N2;
	case EXPR_SYNTAX: return DERIVE_V_SYNTAX;
	default: return DERIVE_V_WRONG;
	}
}

int derive_check(int q, const char *text, int *pos, char *msg, size_t size)
{
	*pos = 0;
	switch (q) {
	case DERIVE_SHARD:
	case DERIVE_TRANSFERS:
	case DERIVE_HOLDER:
		return derive_check_expr(q, text, pos, msg, size);
	case DERIVE_BYTES:
		return derive_check_list(text, derive_kn, 3, derive_bytes_case, "a rank sends ",
					 " bytes", derive_bytes_factors, 3, pos, msg, size);
	case DERIVE_PEAK:
		return derive_check_list(text, derive_n, 1, derive_peak_case,
					 "a rank holds at most ", " of B", NULL, 0, pos, msg, size);
	}
	snprintf(msg, size, "no such question");
	return DERIVE_V_SYNTAX;
}

/* ---- the flow ------------------------------------------------------------ */

/* The question has its outcome: say so and, for the shard, show everything. */
static void derive_settle(struct derive *d, int outcome)
{
	d->outcome[d->cur] = outcome;
	d->answered = 1;
	if (d->cur == DERIVE_SHARD)
		d->revealed = 1;
}

void derive_enter(struct derive *d)
{
	if (!d->open || !derive_pending(d))
		return;
	if (d->answered) {
		/* on to the next question, or the summary */
		d->cur++;
		d->answered = 0;
		d->len = 0;
		d->input[0] = '\0';
		d->verdict = DERIVE_V_NONE;
		d->msg[0] = '\0';
		if (d->cur >= DERIVE_COUNT)
			d->open = 0;
		return;
	}
	char found[EXPR_MSG_MAX];
	const struct derive_row *row = &derive_rows[d->cur];
	d->verdict = derive_check(d->cur, d->input, &d->pos, found, sizeof found);
	switch (d->verdict) {
	case DERIVE_V_RIGHT:
		snprintf(d->right_as[d->cur], sizeof d->right_as[d->cur], "%s", d->input);
		snprintf(d->msg, sizeof d->msg, "right: %s Enter: the next question.", row->why);
		derive_settle(d, DERIVE_RIGHT);
		break;
	case DERIVE_V_SYNTAX:
		/* not an answer yet: not counted */
		snprintf(d->msg, sizeof d->msg, "%s", found);
		break;
	default:
		d->wrong[d->cur]++;
		snprintf(d->msg, sizeof d->msg, "%s%s. Try again (Tab shows the answer).",
			 d->verdict == DERIVE_V_ONLY_N2 ? "" : "wrong: ", found);
	}
}

void derive_skip(struct derive *d)
{
	if (!d->open || !derive_pending(d) || d->answered)
		return;
	const struct derive_row *row = &derive_rows[d->cur];
	d->verdict = DERIVE_V_SKIPPED;
	snprintf(d->msg, sizeof d->msg, "skipped: the answer is %s: %s Enter: the next question.",
		 row->answer, row->why);
	derive_settle(d, DERIVE_SKIPPED);
}

int derive_stop(struct derive *d)
{
	int count = 0;
	for (int q = d->cur; q < DERIVE_COUNT; q++)
		if (d->outcome[q] == DERIVE_PENDING) {
			d->outcome[q] = DERIVE_SKIPPED;
			count++;
		}
	d->cur = DERIVE_COUNT;
	d->revealed = 1;
	d->open = d->answered = 0;
	d->verdict = DERIVE_V_NONE;
	d->msg[0] = '\0';
	return count;
}

void derive_score(const struct derive *d, int *right, int *done)
{
	*right = *done = 0;
	for (int q = 0; q < DERIVE_COUNT; q++) {
		*right += d->outcome[q] == DERIVE_RIGHT;
		*done += d->outcome[q] != DERIVE_PENDING;
	}
}

void derive_summary(const struct derive *d, char *buf, size_t size)
{
	int right, done, first = 0, skipped = 0, wrong = 0;
	derive_score(d, &right, &done);
	for (int q = 0; q < DERIVE_COUNT; q++) {
		first += d->outcome[q] == DERIVE_RIGHT && d->wrong[q] == 0;
		skipped += d->outcome[q] == DERIVE_SKIPPED;
		wrong += d->wrong[q];
	}
	size_t len = (size_t)snprintf(buf, size, "practice: %d of %d right (%d at the first try), %d "
						 "shown, %d wrong answer%s in all.",
				      right, DERIVE_COUNT, first, skipped, wrong, wrong == 1 ? "" : "s");
	for (int q = 0; q < DERIVE_COUNT && len < size; q++) {
		const char *how = d->outcome[q] == DERIVE_RIGHT	  ? "right"
				  : d->outcome[q] == DERIVE_SKIPPED ? "shown"
								    : "not asked";
		char tries[32] = "";
		if (d->wrong[q])
			snprintf(tries, sizeof tries, " after %d wrong", d->wrong[q]);
		len += (size_t)snprintf(buf + len, size - len, " %s: %s%s, %s%s", derive_rows[q].name,
					how, tries,
					d->outcome[q] == DERIVE_RIGHT ? d->right_as[q] : derive_rows[q].answer,
					q + 1 < DERIVE_COUNT ? ";" : ".");
	}
}
