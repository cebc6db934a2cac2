/* trace: the JSON Lines reader, the checker and the Chrome writer (see
 * trace.h).
 *
 * Reader: the text is not NUL-terminated and may be anything.  Each line is
 * [p, end) with end found by memchr, and every read is guarded by `p < end`;
 * strings are copied into fixed buffers with a length (longer ones are
 * marked cut and match no key), integers are accumulated with an overflow
 * check before every multiply-add, and arrays grow by doubling with overflow
 * checks.  A line is parsed into a table of the known keys first and only
 * then interpreted, so the order of keys never matters.  The events keep
 * their line numbers until the summaries are in (ranks are checked against
 * the device count, which only the summaries give).
 *
 * Checker: per event, then per phase (counts and pairs, through per-rank
 * tables), then against the shards a run would hold, for the correct ring
 * and for each deliberate bug at once: a bug that disagrees with the trace
 * drops out; the trace fits while one is left.  The message given is the
 * correct ring's first disagreement.  What a bug changes comes from bug.h's
 * rules (bug_place, bug_forwards, bug_gather_row0...), the ones the devices
 * follow, so the checker never keeps a copy of them. */
#include <distmm/trace.h>

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/afile.h"
#include <distmm/bug.h>
#include <distmm/mat.h>
#include <distmm/run.h>
#include <distmm/schedule.h>
#include "io/slurp.h"
#include <distmm/split.h>
#include "core/xalloc.h"

#define TRACE_STR_MAX 24      /* strings kept: every key and op fits */
#define TRACE_SHOW 32         /* how much of a string a message quotes */
#define TRACE_READ_CHUNK 65536

/* ---- reading ---------------------------------------------------------- */

enum trace_key {
	TK_PHASE, TK_STEP, TK_OP, TK_RANK, TK_DST, TK_SRC, TK_SHARD, TK_ROW_BEGIN, TK_ROW_END,
	TK_COL_BEGIN, TK_COL_END, TK_BYTES, TK_HELD, TK_PEAK, TK_T_BEGIN, TK_T_END, TK_TRUNCATED,
	TK_SENT, TK_RECV, TK_COUNT
};

static const char *const trace_keys[TK_COUNT] = {
	[TK_PHASE] = "phase",         [TK_STEP] = "step",           [TK_OP] = "op",
	[TK_RANK] = "rank",           [TK_DST] = "dst",             [TK_SRC] = "src",
	[TK_SHARD] = "shard",         [TK_ROW_BEGIN] = "row_begin", [TK_ROW_END] = "row_end",
	[TK_COL_BEGIN] = "col_begin", [TK_COL_END] = "col_end",     [TK_BYTES] = "bytes",
	[TK_HELD] = "held_bytes",     [TK_PEAK] = "peak_bytes",     [TK_T_BEGIN] = "t_begin_ns",
	[TK_T_END] = "t_end_ns",      [TK_TRUNCATED] = "truncated", [TK_SENT] = "sent_bytes",
	[TK_RECV] = "recv_bytes",
};

enum trace_kind { TV_INT, TV_STR, TV_BOOL, TV_OTHER };

struct trace_val {
	int kind;                    /* enum trace_kind */
	int neg, big;                /* TV_INT: a minus sign; more than UINT64_MAX */
	uint64_t u;                  /* TV_INT: the magnitude; TV_BOOL: 1 for true */
	char s[TRACE_STR_MAX];       /* TV_STR: the first bytes, unescaped */
	size_t slen;
	int cut;                     /* TV_STR: longer than s */
};

struct trace_line {
	struct trace_val v[TK_COUNT];
	unsigned char seen[TK_COUNT];
};

/* The part of a line not read yet. */
struct trace_lex {
	const char *p, *end;
};

/* Where the messages point. */
struct trace_where {
	const char *name;
	size_t line;
};

#define TRACE_LINE_FMT "%s:%zu: "

static const char *trace_name(const char *name)
{
	return name ? name : "(trace)";
}

/* A string for a message: non-printing bytes become '?', long ones are cut. */
static void trace_show(char *dst, size_t cap, const char *s, size_t n, int cut)
{
	size_t i, o = 0;
	for (i = 0; i < n && o + 4 < cap; i++) {
		unsigned char c = (unsigned char)s[i];
		dst[o++] = (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') ? (char)c : '?';
	}
	if (i < n || cut) {
		memcpy(dst + o, "...", 3);
		o += 3;
	}
	dst[o] = '\0';
}

static int trace_is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static void trace_skip_ws(struct trace_lex *lx)
{
	while (lx->p < lx->end && trace_is_ws(*lx->p))
		lx->p++;
}

static int trace_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A JSON string at lx->p (on its '"'): its first TRACE_STR_MAX bytes,
 * unescaped, into v.  A \u escape outside ASCII becomes byte 0x80, which no
 * key or op contains.  Returns NULL, or why it is not JSON. */
static const char *trace_string(struct trace_lex *lx, struct trace_val *v)
{
	v->kind = TV_STR;
	v->slen = 0;
	v->cut = 0;
	lx->p++;
	for (;;) {
		if (lx->p >= lx->end)
			return "a string does not end";
		unsigned char c = (unsigned char)*lx->p++;
		if (c == '"')
			return NULL;
		if (c < 0x20)
			return "a control character in a string";
		if (c == '\\') {
			if (lx->p >= lx->end)
				return "a string does not end";
			char e = *lx->p++;
			switch (e) {
			case '"': c = '"'; break;
			case '\\': c = '\\'; break;
			case '/': c = '/'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			case 't': c = '\t'; break;
			case 'u': {
				unsigned code = 0;
				if (lx->end - lx->p < 4)
					return "a bad \\u escape";
				for (int k = 0; k < 4; k++) {
					int h = trace_hex(lx->p[k]);
					if (h < 0)
						return "a bad \\u escape";
					code = code * 16 + (unsigned)h;
				}
				lx->p += 4;
				c = code < 0x80 ? (unsigned char)code : 0x80;
				break;
			}
			default:
				return "a bad escape in a string";
			}
		}
		if (v->slen < sizeof v->s)
			v->s[v->slen++] = (char)c;
		else
			v->cut = 1;
	}
}

static int trace_is_digit(const struct trace_lex *lx)
{
	return lx->p < lx->end && *lx->p >= '0' && *lx->p <= '9';
}

/* A JSON number at lx->p.  An integer goes into v (TV_INT, its magnitude
 * saturating into `big`); one with a fraction or exponent is TV_OTHER. */
static const char *trace_number(struct trace_lex *lx, struct trace_val *v)
{
	v->kind = TV_INT;
	v->neg = 0;
	v->big = 0;
	v->u = 0;
	if (*lx->p == '-') {
		v->neg = 1;
		lx->p++;
	}
	if (!trace_is_digit(lx))
		return "a bad number";
	if (*lx->p == '0' && lx->p + 1 < lx->end && lx->p[1] >= '0' && lx->p[1] <= '9')
		return "a number with a leading zero";
	while (trace_is_digit(lx)) {
		unsigned d = (unsigned)(*lx->p++ - '0');
		if (v->u > (UINT64_MAX - d) / 10)
			v->big = 1;
		else if (!v->big)
			v->u = v->u * 10 + d;
	}
	if (lx->p < lx->end && *lx->p == '.') {
		lx->p++;
		if (!trace_is_digit(lx))
			return "a bad number";
		while (trace_is_digit(lx))
			lx->p++;
		v->kind = TV_OTHER;
	}
	if (lx->p < lx->end && (*lx->p == 'e' || *lx->p == 'E')) {
		lx->p++;
		if (lx->p < lx->end && (*lx->p == '+' || *lx->p == '-'))
			lx->p++;
		if (!trace_is_digit(lx))
			return "a bad number";
		while (trace_is_digit(lx))
			lx->p++;
		v->kind = TV_OTHER;
	}
	return NULL;
}

static int trace_literal(struct trace_lex *lx, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(lx->end - lx->p) < n || memcmp(lx->p, word, n) != 0)
		return 0;
	lx->p += n;
	return 1;
}

/* Any JSON value but an object or array (those are refused as such); the
 * kinds a trace does not use come back as TV_OTHER. */
static const char *trace_value(struct trace_lex *lx, struct trace_val *v)
{
	if (lx->p >= lx->end)
		return "a value is missing";
	char c = *lx->p;
	if (c == '"')
		return trace_string(lx, v);
	if (c == '-' || (c >= '0' && c <= '9'))
		return trace_number(lx, v);
	if (trace_literal(lx, "true") || trace_literal(lx, "false")) {
		v->kind = TV_BOOL;
		v->u = c == 't';
		return NULL;
	}
	if (trace_literal(lx, "null")) {
		v->kind = TV_OTHER;
		return NULL;
	}
	if (c == '{' || c == '[')
		return "nested objects and arrays are not part of a trace";
	return "a value is missing";
}

/* The key's index, or TK_COUNT for one this reader does not know. */
static int trace_key_index(const struct trace_val *k)
{
	if (k->cut)
		return TK_COUNT;
	for (int i = 0; i < TK_COUNT; i++)
		if (strlen(trace_keys[i]) == k->slen && memcmp(trace_keys[i], k->s, k->slen) == 0)
			return i;
	return TK_COUNT;
}

static int trace_syntax(const struct trace_where *w, const char *why, struct dm_err *err)
{
	return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "not JSON: %s", w->name, w->line, why);
}

/* One line, [p, end), into ln: syntax, flat values, no key twice. */
static int trace_parse_object(struct trace_line *ln, const char *p, const char *end,
			      const struct trace_where *w, struct dm_err *err)
{
	struct trace_lex lx = { p, end };
	struct trace_val key, val;
	const char *why;
	char shown[TRACE_SHOW + 4];

	memset(ln->seen, 0, sizeof ln->seen);
	trace_skip_ws(&lx);
	if (lx.p >= lx.end || *lx.p != '{')
		return trace_syntax(w, "a line must be one object, starting with '{'", err);
	lx.p++;
	trace_skip_ws(&lx);
	if (lx.p < lx.end && *lx.p == '}') {
		lx.p++;
	} else {
		for (;;) {
			trace_skip_ws(&lx);
			if (lx.p >= lx.end || *lx.p != '"')
				return trace_syntax(w, "a key (a string) is missing", err);
			if ((why = trace_string(&lx, &key)))
				return trace_syntax(w, why, err);
			trace_skip_ws(&lx);
			if (lx.p >= lx.end || *lx.p != ':')
				return trace_syntax(w, "':' is missing after a key", err);
			lx.p++;
			trace_skip_ws(&lx);
			if ((why = trace_value(&lx, &val)))
				return trace_syntax(w, why, err);
			trace_show(shown, sizeof shown, key.s, key.slen, key.cut);
			if (val.kind == TV_OTHER)
				return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "\"%s\": only "
						  "strings, integers, true and false are part of a "
						  "trace", w->name, w->line, shown);
			int k = trace_key_index(&key);
			if (k < TK_COUNT) {
				if (ln->seen[k])
					return dm_err_set(err, DM_EFORMAT,
							  TRACE_LINE_FMT "key \"%s\" appears twice",
							  w->name, w->line, shown);
				ln->seen[k] = 1;
				ln->v[k] = val;
			}
			trace_skip_ws(&lx);
			if (lx.p < lx.end && *lx.p == ',') {
				lx.p++;
				continue;
			}
			if (lx.p < lx.end && *lx.p == '}') {
				lx.p++;
				break;
			}
			return trace_syntax(w, "',' or '}' is missing after a value", err);
		}
	}
	trace_skip_ws(&lx);
	if (lx.p < lx.end)
		return trace_syntax(w, "text after the object", err);
	return 0;
}

/* Key k as an integer in [lo, hi] (lo is 0 or -1), into *out.  A missing key
 * is an error when `need`, else 0. */
static int trace_int(const struct trace_line *ln, int k, int need, int64_t lo, uint64_t hi,
		     int64_t *out_s, uint64_t *out_u, const struct trace_where *w,
		     struct dm_err *err)
{
	const struct trace_val *v = &ln->v[k];
	if (out_s)
		*out_s = 0;
	if (out_u)
		*out_u = 0;
	if (!ln->seen[k]) {
		if (!need)
			return 0;
		return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "missing key \"%s\"", w->name,
				  w->line, trace_keys[k]);
	}
	if (v->kind != TV_INT)
		return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "\"%s\" must be an integer",
				  w->name, w->line, trace_keys[k]);
	if (v->neg && !(lo < 0 && v->u == 1 && !v->big))
		return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "\"%s\" must not be negative%s",
				  w->name, w->line, trace_keys[k], lo < 0 ? " (but for -1)" : "");
	if (v->big)
		return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "\"%s\" does not fit in 64 bits",
				  w->name, w->line, trace_keys[k]);
	if (!v->neg && v->u > hi)
		return dm_err_set(err, DM_EFORMAT,
				  TRACE_LINE_FMT "\"%s\" is %" PRIu64 ", more than %" PRIu64, w->name,
				  w->line, trace_keys[k], v->u, hi);
	if (out_s)
		*out_s = v->neg ? -(int64_t)v->u : (int64_t)v->u;
	if (out_u)
		*out_u = v->u;
	return 0;
}

/* The fields of an event line into e. */
static int trace_event_fields(const struct trace_line *ln, int op, struct ev *e,
			      const struct trace_where *w, struct dm_err *err)
{
	static const int i32_keys[] = { TK_PHASE, TK_STEP, TK_RANK };
	static const int u32_keys[] = { TK_ROW_BEGIN, TK_ROW_END, TK_COL_BEGIN, TK_COL_END };
	int64_t s[3], shard, peer = -1;
	uint64_t u[4];
	int rc;

	memset(e, 0, sizeof *e);
	for (int i = 0; i < 3; i++)
		if ((rc = trace_int(ln, i32_keys[i], 1, 0, INT32_MAX, &s[i], NULL, w, err)))
			return rc;
	if ((rc = trace_int(ln, TK_SHARD, 1, -1, INT32_MAX, &shard, NULL, w, err)))
		return rc;
	for (int i = 0; i < 4; i++)
		if ((rc = trace_int(ln, u32_keys[i], 1, 0, UINT32_MAX, NULL, &u[i], w, err)))
			return rc;
	if ((rc = trace_int(ln, TK_BYTES, 1, 0, UINT64_MAX, NULL, &e->bytes, w, err)) ||
	    (rc = trace_int(ln, TK_HELD, 0, 0, UINT64_MAX, NULL, &e->held, w, err)) ||
	    (rc = trace_int(ln, TK_PEAK, 0, 0, UINT64_MAX, NULL, &e->peak, w, err)) ||
	    (rc = trace_int(ln, TK_T_BEGIN, 0, 0, UINT64_MAX, NULL, &e->t_begin_ns, w, err)) ||
	    (rc = trace_int(ln, TK_T_END, 0, 0, UINT64_MAX, NULL, &e->t_end_ns, w, err)))
		return rc;
	if (op == EV_SEND)
		rc = trace_int(ln, TK_DST, 1, 0, INT32_MAX, &peer, NULL, w, err);
	else if (op == EV_RECV || op == EV_GATHER)
		rc = trace_int(ln, TK_SRC, 1, 0, INT32_MAX, &peer, NULL, w, err);
	if (rc)
		return rc;
	if (ln->seen[TK_TRUNCATED]) {
		if (ln->v[TK_TRUNCATED].kind != TV_BOOL)
			return dm_err_set(err, DM_EFORMAT,
					  TRACE_LINE_FMT "\"truncated\" must be true or false",
					  w->name, w->line);
		if (ln->v[TK_TRUNCATED].u)
			e->flags |= EV_FLAG_TRUNCATED;
	}
	e->phase = (int32_t)s[0];
	e->step = (int32_t)s[1];
	e->op = op;
	e->rank = (int32_t)s[2];
	e->peer = (int32_t)peer;
	e->shard = (int32_t)shard;
	e->row_begin = (uint32_t)u[0];
	e->row_end = (uint32_t)u[1];
	e->col_begin = (uint32_t)u[2];
	e->col_end = (uint32_t)u[3];
	if (e->row_end < e->row_begin)
		return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "row_end %u is before row_begin %u",
				  w->name, w->line, e->row_end, e->row_begin);
	if (e->col_end < e->col_begin)
		return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "col_end %u is before col_begin %u",
				  w->name, w->line, e->col_end, e->col_begin);
	return 0;
}

static int trace_summary_fields(const struct trace_line *ln, struct ev_summary *s,
				const struct trace_where *w, struct dm_err *err)
{
	int64_t rank;
	int rc;
	if ((rc = trace_int(ln, TK_RANK, 1, 0, INT32_MAX, &rank, NULL, w, err)) ||
	    (rc = trace_int(ln, TK_PEAK, 1, 0, UINT64_MAX, NULL, &s->peak_bytes, w, err)) ||
	    (rc = trace_int(ln, TK_SENT, 1, 0, UINT64_MAX, NULL, &s->sent_bytes, w, err)) ||
	    (rc = trace_int(ln, TK_RECV, 1, 0, UINT64_MAX, NULL, &s->recv_bytes, w, err)))
		return rc;
	s->rank = (int)rank;
	return 0;
}

/* The op of a line: EV_*, or -1 for a summary. */
static int trace_op(const struct trace_line *ln, int *op, const struct trace_where *w,
		    struct dm_err *err)
{
	static const char *const ops[] = { "compute", "send", "recv", "gather", "summary" };
	const struct trace_val *v = &ln->v[TK_OP];
	char shown[TRACE_SHOW + 4];
	if (!ln->seen[TK_OP])
		return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "missing key \"op\"", w->name,
				  w->line);
	if (v->kind != TV_STR)
		return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "\"op\" must be a string", w->name,
				  w->line);
	for (int i = 0; i < 5; i++)
		if (!v->cut && strlen(ops[i]) == v->slen && memcmp(ops[i], v->s, v->slen) == 0) {
			*op = i < 4 ? i : -1;
			return 0;
		}
	trace_show(shown, sizeof shown, v->s, v->slen, v->cut);
	return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "unknown op \"%s\"", w->name, w->line,
			  shown);
}

/* What the reader collects before the device count is known. */
struct trace_acc {
	struct ev *ev;
	size_t *ev_line, n_ev, ev_cap;
	struct ev_summary *sum;
	size_t *sum_line, n_sum, sum_cap;
};

static void trace_acc_free(struct trace_acc *a)
{
	free(a->ev);
	free(a->ev_line);
	free(a->sum);
	free(a->sum_line);
	memset(a, 0, sizeof *a);
}

/* Makes room for one more item in a pair of parallel arrays. */
static int trace_grow(void **items, size_t item_size, size_t **lines, size_t len, size_t *cap)
{
	if (len < *cap)
		return 0;
	if (*cap > SIZE_MAX / 2)
		return DM_ENOMEM;
	size_t ncap = *cap ? *cap * 2 : 64;
	if (ncap > SIZE_MAX / item_size || ncap > SIZE_MAX / sizeof **lines)
		return DM_ENOMEM;
	void *ni = xrealloc(*items, ncap * item_size);
	if (!ni)
		return DM_ENOMEM;
	*items = ni;
	size_t *nl = xrealloc(*lines, ncap * sizeof **lines);
	if (!nl)
		return DM_ENOMEM;
	*lines = nl;
	*cap = ncap;
	return 0;
}

static int trace_blank(const char *p, const char *end)
{
	for (; p < end; p++)
		if (!trace_is_ws(*p))
			return 0;
	return 1;
}

/* Every line into acc. */
static int trace_read_lines(struct trace_acc *acc, const char *text, size_t len,
			    const char *nm, struct dm_err *err)
{
	struct trace_line *ln = xmalloc(sizeof *ln);
	const char *p = text, *end = text + len;
	struct trace_where w = { nm, 0 };
	int rc = 0;
	if (!ln)
		return dm_err_set(err, DM_ENOMEM, "%s: out of memory", nm);
	while (p < end && rc == 0) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		int op = 0;
		w.line++;
		if (!trace_blank(p, le) && !(rc = trace_parse_object(ln, p, le, &w, err)) &&
		    !(rc = trace_op(ln, &op, &w, err))) {
			if (op < 0) {
				if (acc->n_sum >= RUN_MAX_DEVICES) {
					rc = dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "more than %d "
							"summary lines (devices)", nm, w.line,
							RUN_MAX_DEVICES);
				} else if (trace_grow((void **)&acc->sum, sizeof *acc->sum,
						      &acc->sum_line, acc->n_sum, &acc->sum_cap)) {
					rc = dm_err_set(err, DM_ENOMEM, "%s: out of memory", nm);
				} else if (!(rc = trace_summary_fields(ln, &acc->sum[acc->n_sum], &w,
								       err))) {
					acc->sum_line[acc->n_sum++] = w.line;
				}
			} else if (acc->n_sum > 0) {
				rc = dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "an event after the "
						"summaries (line %zu)", nm, w.line, acc->sum_line[0]);
			} else if (trace_grow((void **)&acc->ev, sizeof *acc->ev, &acc->ev_line,
					      acc->n_ev, &acc->ev_cap)) {
				rc = dm_err_set(err, DM_ENOMEM, "%s: out of memory", nm);
			} else if (!(rc = trace_event_fields(ln, op, &acc->ev[acc->n_ev], &w, err))) {
				acc->ev_line[acc->n_ev++] = w.line;
			}
		}
		p = nl ? nl + 1 : end;
	}
	free(ln);
	return rc;
}

/* With the device count known: the summaries by rank, the events' ranks. */
static int trace_finish(struct trace *t, struct trace_acc *acc, const char *nm,
			struct dm_err *err)
{
	int n = (int)acc->n_sum;
	size_t first_dp = 0, first_fsdp = 0; /* lines of the first compute of each kind */
	if (n == 0)
		return dm_err_set(err, DM_EFORMAT, "%s: no summary lines: not a distmm-tui trace", nm);
	t->sum = xcalloc((size_t)n, sizeof *t->sum);
	if (!t->sum)
		return dm_err_set(err, DM_ENOMEM, "%s: out of memory", nm);
	for (int i = 0; i < n; i++)
		t->sum[i].rank = -1;
	for (size_t i = 0; i < acc->n_sum; i++) {
		const struct ev_summary *s = &acc->sum[i];
		if (s->rank >= n)
			return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "a summary for rank %d, but "
					  "the trace has %d devices (summaries)", nm,
					  acc->sum_line[i], s->rank, n);
		if (t->sum[s->rank].rank >= 0)
			return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "a second summary for "
					  "rank %d", nm, acc->sum_line[i], s->rank);
		t->sum[s->rank] = *s;
	}
	for (size_t i = 0; i < acc->n_ev; i++) {
		const struct ev *e = &acc->ev[i];
		size_t line = acc->ev_line[i];
		if (e->rank >= n)
			return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "rank %d but the trace "
					  "has %d devices", nm, line, e->rank, n);
		if (e->peer >= n)
			return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "%s %d but the trace has %d "
					  "devices", nm, line, e->op == EV_SEND ? "dst" : "src",
					  e->peer, n);
		if (e->shard >= n)
			return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "shard %d but the trace has "
					  "%d devices", nm, line, e->shard, n);
		if (e->op != EV_COMPUTE)
			continue;
		if (e->shard < 0 && !first_dp)
			first_dp = line;
		if (e->shard >= 0 && !first_fsdp)
			first_fsdp = line;
		if (first_dp && first_fsdp)
			return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "a compute with %s, but "
					  "line %zu's uses %s: DP and FSDP mixed", nm, line,
					  e->shard < 0 ? "all of B" : "a shard",
					  e->shard < 0 ? first_fsdp : first_dp,
					  e->shard < 0 ? "a shard" : "all of B");
	}
	t->n = n;
	t->mode = first_dp ? DM_DP : DM_FSDP;
	t->ev = acc->ev;
	t->n_ev = acc->n_ev;
	acc->ev = NULL;
	return 0;
}

void trace_free(struct trace *t)
{
	if (!t)
		return;
	free(t->ev);
	free(t->sum);
	memset(t, 0, sizeof *t);
}

int trace_parse(struct trace *t, const char *text, size_t len, const char *name,
		struct dm_err *err)
{
	struct trace_acc acc;
	const char *nm = trace_name(name);
	memset(t, 0, sizeof *t);
	memset(&acc, 0, sizeof acc);
	if (!text && len > 0)
		return dm_err_set(err, DM_EINVAL, "%s: no text", nm);
	int rc = trace_read_lines(&acc, text, len, nm, err);
	if (!rc)
		rc = trace_finish(t, &acc, nm, err);
	if (rc) {
		free(t->sum);
		memset(t, 0, sizeof *t);
	}
	trace_acc_free(&acc);
	return rc;
}

int trace_read(const char *path, struct trace *t, size_t max_bytes, struct dm_err *err)
{
	char *buf = NULL;
	size_t len = 0;
	int rc;
	memset(t, 0, sizeof *t);
	if (!path)
		return dm_err_set(err, DM_EINVAL, "no trace file named");
	if ((rc = slurp_file(path, max_bytes, &buf, &len, err)))
		return rc;
	rc = trace_parse(t, buf, len, path, err);
	free(buf);
	return rc;
}

/* ---- checking --------------------------------------------------------- */

/* The check's working state: per-rank tables for the phase at hand, and the
 * shards each candidate run (the correct ring, each bug) would hold. */
struct trace_chk {
	const struct trace *t;
	size_t M, K, N;
	int n, mode, phases;
	size_t *compute_of, *send_of, *recv_of, *gather_of; /* n: event index + 1, 0 none */
	int *held;   /* BUG_COUNT * n: candidate b's shards at [b * n + r] */
	int *next;   /* n: scratch for a transfer */
	uint64_t *sent, *recvd, *peak; /* n: sums for the summaries */
	int alive[BUG_COUNT];
	struct dm_err first; /* the correct ring's first disagreement */
};

static size_t trace_row0(const struct trace_chk *c, int rank)
{
	return split_offset(c->M, c->n, rank);
}

static size_t trace_row1(const struct trace_chk *c, int rank)
{
	return split_offset(c->M, c->n, rank) + split_size(c->M, c->n, rank);
}

static uint64_t trace_bytes(uint64_t rows, uint64_t cols)
{
	return rows * cols * sizeof(double); /* rows, cols < 2^32: no overflow */
}

/* The shapes the events imply, against M, K and N. */
static int trace_check_shapes(const struct trace_chk *c, struct dm_err *err)
{
	const struct trace *t = c->t;
	uint64_t rows = 0, cols = 0, krows = 0;
	int moved = 0;
	for (size_t i = 0; i < t->n_ev; i++) {
		const struct ev *e = &t->ev[i];
		if (e->col_end > cols)
			cols = e->col_end;
		if ((e->op == EV_SEND || e->op == EV_RECV) && e->shard >= 0) {
			moved = 1;
			if (e->row_end > krows)
				krows = e->row_end;
		} else if (e->row_end > rows) {
			rows = e->row_end;
		}
	}
	if (rows != c->M)
		return dm_err_set(err, DM_EFORMAT, "the trace is for %" PRIu64 " rows, A has %zu",
				  rows, c->M);
	if (cols != c->N)
		return dm_err_set(err, DM_EFORMAT, "the trace is for %" PRIu64 " columns, B has %zu",
				  cols, c->N);
	if (moved && krows != c->K)
		return dm_err_set(err, DM_EFORMAT, "the trace's shards of B have %" PRIu64 " rows, A "
				  "has %zu columns", krows, c->K);
	return 0;
}

static int trace_check_rows(const struct trace_chk *c, size_t i, const struct ev *e, int rank,
			    const char *what, struct dm_err *err)
{
	size_t r0 = trace_row0(c, rank), r1 = trace_row1(c, rank);
	if (e->row_begin != r0 || e->row_end != r1)
		return dm_err_set(err, DM_EFORMAT, "event %zu: %s rows %u:%u, but numpy.array_split "
				  "gives rank %d rows %zu:%zu", i, what, e->row_begin, e->row_end,
				  rank, r0, r1);
	return 0;
}

static int trace_check_bytes(size_t i, const struct ev *e, uint64_t want, struct dm_err *err)
{
	if (e->bytes != want)
		return dm_err_set(err, DM_EFORMAT, "event %zu: %" PRIu64 " bytes, but the block is %"
				  PRIu64, i, e->bytes, want);
	return 0;
}

/* A block of C in the gather: shard -1, all columns, its rows' bytes. */
static int trace_check_block(const struct trace_chk *c, size_t i, const struct ev *e,
			     int owner, struct dm_err *err)
{
	/* rank 0 may have stacked the block elsewhere (arrival-order): the
	 * candidates' check of the gather says whether that fits */
	size_t at = bug_gather_row0(BUG_ARRIVAL_ORDER, c->M, c->n, owner);
	int placed = e->op == EV_GATHER && e->row_begin == at &&
		     e->row_end == at + split_size(c->M, c->n, owner);
	int rc = placed ? 0 : trace_check_rows(c, i, e, owner, e->op == EV_SEND ? "sends" : "gathers",
					       err);
	if (rc)
		return rc;
	if (e->shard != -1 || e->col_begin != 0 || e->col_end != c->N)
		return dm_err_set(err, DM_EFORMAT, "event %zu: a block of C is shard -1, columns "
				  "0:%zu, not shard %d, columns %u:%u", i, c->N, e->shard,
				  e->col_begin, e->col_end);
	uint64_t want = e->op == EV_GATHER && owner == 0
				? 0 : trace_bytes(e->row_end - e->row_begin, c->N);
	return trace_check_bytes(i, e, want, err);
}

/* One event on its own: schedule, op, ranges, bytes. */
static int trace_check_event(const struct trace_chk *c, size_t i, struct dm_err *err)
{
	const struct ev *e = &c->t->ev[i];
	int rc;
	/* what trace_parse guarantees, again: a trace may be built by hand */
	if (e->rank < 0 || e->rank >= c->n || e->shard < -1 || e->shard >= c->n ||
	    (e->op != EV_COMPUTE && (e->peer < 0 || e->peer >= c->n)) ||
	    e->op < EV_COMPUTE || e->op > EV_GATHER || e->row_end < e->row_begin ||
	    e->col_end < e->col_begin || e->phase < 0)
		return dm_err_set(err, DM_EFORMAT, "event %zu: rank, peer, shard, op, phase or a "
				  "range out of bounds", i);
	if (e->phase >= c->phases)
		return dm_err_set(err, DM_EFORMAT, "event %zu: phase %d, but a %s run on %d devices "
				  "has %d phases (0 to %d)", i, e->phase, sched_mode_name(c->mode),
				  c->n, c->phases, c->phases - 1);
	if (i > 0 && e->phase < c->t->ev[i - 1].phase)
		return dm_err_set(err, DM_EFORMAT, "event %zu: phase %d after phase %d: the events "
				  "are not in phase order", i, e->phase, c->t->ev[i - 1].phase);
	int step = sched_phase_step(c->mode, c->n, e->phase);
	if (e->step != step)
		return dm_err_set(err, DM_EFORMAT, "event %zu: phase %d belongs to step %d, not %d",
				  i, e->phase, step, e->step);
	int kind = sched_phase_kind(c->mode, c->n, e->phase);
	/* a shard sent in the last compute phase: extra-rotation's send too many */
	int extra = e->op == EV_SEND && kind == SCHED_COMPUTE && c->mode == DM_FSDP &&
		    e->phase == c->phases - 2;
	if (!((e->op == EV_COMPUTE && kind == SCHED_COMPUTE) || extra ||
	      (e->op == EV_SEND && kind != SCHED_COMPUTE) ||
	      (e->op == EV_RECV && kind == SCHED_TRANSFER) ||
	      (e->op == EV_GATHER && kind == SCHED_GATHER)))
		return dm_err_set(err, DM_EFORMAT, "event %zu: a %s in phase %d, which is a %s phase",
				  i, ev_op_name(e->op), e->phase, sched_kind_name(kind));
	if (e->col_end > c->N)
		return dm_err_set(err, DM_EFORMAT, "event %zu: columns %u:%u, but B has %zu", i,
				  e->col_begin, e->col_end, c->N);
	if ((e->flags & EV_FLAG_TRUNCATED) && (e->op != EV_COMPUTE || c->mode == DM_DP))
		return dm_err_set(err, DM_EFORMAT, "event %zu: only an FSDP compute is truncated",
				  i);
	if (e->held > e->peak)
		return dm_err_set(err, DM_EFORMAT, "event %zu: %" PRIu64 " bytes held, more than "
				  "the peak %" PRIu64, i, e->held, e->peak);
	uint64_t w = e->col_end - e->col_begin;
	switch (e->op) {
	case EV_COMPUTE:
		if ((rc = trace_check_rows(c, i, e, e->rank, "computes", err)))
			return rc;
		if (c->mode == DM_DP) {
			if (e->col_begin != 0 || e->col_end != c->N)
				return dm_err_set(err, DM_EFORMAT, "event %zu: a DP compute writes "
						  "columns 0:%zu, not %u:%u", i, c->N,
						  e->col_begin, e->col_end);
		} else if (w > split_size(c->N, c->n, e->shard)) {
			return dm_err_set(err, DM_EFORMAT, "event %zu: %" PRIu64 " columns from shard "
					  "%d, which has %zu", i, w, e->shard,
					  split_size(c->N, c->n, e->shard));
		}
		return trace_check_bytes(i, e, trace_bytes(e->row_end - e->row_begin, w), err);
	case EV_SEND:
	case EV_RECV:
		if (kind == SCHED_GATHER) {
			if (e->rank == 0 || e->peer != 0)
				return dm_err_set(err, DM_EFORMAT, "event %zu: in the gather rank %d "
						  "sends to rank %d; ranks other than 0 send to 0", i,
						  e->rank, e->peer);
			return trace_check_block(c, i, e, e->rank, err);
		}
		if (e->shard < 0)
			return dm_err_set(err, DM_EFORMAT, "event %zu: a %s in a transfer without a "
					  "shard", i, ev_op_name(e->op));
		if (e->peer == e->rank && c->n > 1)
			return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d %s itself", i, e->rank,
					  e->op == EV_SEND ? "sends to" : "receives from");
		if (e->row_begin != 0 || e->row_end != c->K)
			return dm_err_set(err, DM_EFORMAT, "event %zu: a shard has B's rows 0:%zu, "
					  "not %u:%u", i, c->K, e->row_begin, e->row_end);
		size_t c0 = split_offset(c->N, c->n, e->shard);
		size_t c1 = c0 + split_size(c->N, c->n, e->shard);
		if (e->col_begin != c0 || e->col_end != c1)
			return dm_err_set(err, DM_EFORMAT, "event %zu: shard %d's columns are "
					  "%zu:%zu, not %u:%u", i, e->shard, c0, c1, e->col_begin,
					  e->col_end);
		return trace_check_bytes(i, e, trace_bytes(c->K, w), err);
	default: /* EV_GATHER */
		if (e->rank != 0)
			return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d gathers; only rank 0 "
					  "does", i, e->rank);
		return trace_check_block(c, i, e, e->peer, err);
	}
}

/* Records event i in a per-rank table; twice is an error. */
static int trace_slot(size_t *table, int rank, size_t i, int phase, const char *what,
		      struct dm_err *err)
{
	if (table[rank])
		return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d %s twice in phase %d", i, rank,
				  what, phase);
	table[rank] = i + 1;
	return 0;
}

/* The events of one phase, [lo, hi): counts and pairs. */
static int trace_check_phase(struct trace_chk *c, int phase, size_t lo, size_t hi,
			     struct dm_err *err)
{
	const struct ev *ev = c->t->ev;
	int n = c->n, kind = sched_phase_kind(c->mode, n, phase), rc = 0;
	if (lo == hi)
		return dm_err_set(err, DM_EFORMAT, "phase %d has no events", phase);
	for (int r = 0; r < n; r++)
		c->compute_of[r] = c->send_of[r] = c->recv_of[r] = c->gather_of[r] = 0;
	for (size_t i = lo; i < hi && !rc; i++) {
		const struct ev *e = &ev[i];
		if (e->op == EV_COMPUTE)
			rc = trace_slot(c->compute_of, e->rank, i, phase, "computes", err);
		else if (e->op == EV_SEND)
			rc = trace_slot(c->send_of, e->rank, i, phase, "sends", err);
		else if (e->op == EV_RECV)
			rc = trace_slot(c->recv_of, e->rank, i, phase, "receives", err);
		else
			rc = trace_slot(c->gather_of, e->peer, i, phase, "is gathered", err);
	}
	if (rc)
		return rc;
	for (int r = 0; r < n; r++) {
		if (kind == SCHED_COMPUTE && !c->compute_of[r])
			return dm_err_set(err, DM_EFORMAT, "phase %d: rank %d does not compute", phase,
					  r);
		if (kind == SCHED_GATHER && !c->gather_of[r])
			return dm_err_set(err, DM_EFORMAT, "phase %d: rank 0 does not gather the rows "
					  "of rank %d", phase, r);
		if (kind == SCHED_GATHER && r > 0 && !c->send_of[r])
			return dm_err_set(err, DM_EFORMAT, "phase %d: rank %d does not send its rows",
					  phase, r);
		if (kind != SCHED_TRANSFER)
			continue;
		size_t s = c->send_of[r];
		if (s) {
			const struct ev *e = &ev[s - 1];
			size_t q = c->recv_of[e->peer];
			if (!q || ev[q - 1].peer != r || ev[q - 1].shard != e->shard)
				return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d sends shard %d "
						  "to rank %d, which does not receive it", s - 1, r,
						  e->shard, e->peer);
		}
		size_t q = c->recv_of[r];
		if (q) {
			const struct ev *e = &ev[q - 1];
			size_t s2 = c->send_of[e->peer];
			if (!s2 || ev[s2 - 1].peer != r)
				return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d receives "
						  "shard %d from rank %d, which does not send to it",
						  q - 1, r, e->shard, e->peer);
		}
	}
	return 0;
}

/* Candidate bug b disagrees; the correct ring's first reason is kept. */
static void trace_drop(struct trace_chk *c, int b, const char *fmt, ...) DM_PRINTF(3, 4);

static void trace_drop(struct trace_chk *c, int b, const char *fmt, ...)
{
	c->alive[b] = 0;
	if (b != BUG_NONE)
		return;
	va_list ap;
	va_start(ap, fmt);
	c->first.code = DM_EFORMAT;
	vsnprintf(c->first.msg, sizeof c->first.msg, fmt, ap);
	va_end(ap);
}

/* A compute phase at step s against candidate b. */
static void trace_sim_compute(struct trace_chk *c, int b, int step)
{
	int *held = &c->held[(size_t)b * (size_t)c->n];
	for (int r = 0; r < c->n && c->alive[b]; r++) {
		size_t i = c->compute_of[r] - 1, c0, w;
		const struct ev *e = &c->t->ev[i];
		char why[8];
		size_t hw = held[r] < 0 ? 0 : split_size(c->N, c->n, held[r]);
		if (held[r] < 0 ||
		    bug_place(b, c->n, c->N, r, step, held[r], hw, &c0, &w, why, sizeof why)) {
			/* c-mod, py-no-mod: the run stops at this phase */
			trace_drop(c, b, "event %zu: the run stops before it", i);
			return;
		}
		int trunc = (e->flags & EV_FLAG_TRUNCATED) != 0;
		if (e->shard != held[r] || e->col_begin != c0 || e->col_end != c0 + w ||
		    trunc != (b == BUG_INT_ACC))
			trace_drop(c, b, "event %zu: rank %d computes with shard %d into columns "
				   "%u:%u%s; the ring has it compute with shard %d into columns "
				   "%zu:%zu", i, r, e->shard, e->col_begin, e->col_end,
				   trunc ? ", truncated" : "", held[r], c0, c0 + w);
		/* a send after the compute: only extra-rotation's, after the last
		 * (absent where the run stopped in it: a send that never ended) */
		size_t s = c->send_of[r];
		if (!s || !c->alive[b])
			continue;
		const struct ev *x = &c->t->ev[s - 1];
		if (!bug_extra_send(b) || step != c->n - 1)
			trace_drop(c, b, "event %zu: rank %d sends in a compute phase; the ring sends "
				   "only in transfers and the gather", s - 1, r);
		else if (x->shard != held[r] || x->peer != bug_send_to(b, c->n, r))
			trace_drop(c, b, "event %zu: rank %d sends shard %d to rank %d after its last "
				   "step; it holds shard %d", s - 1, r, x->shard, x->peer, held[r]);
		else
			held[r] = -1;
	}
}

/* The gather against candidate b: each block where b's rank 0 puts it. */
static void trace_sim_gather(struct trace_chk *c, int b)
{
	for (int r = 0; r < c->n && c->alive[b]; r++) {
		size_t q = c->gather_of[r];
		if (!q)
			continue; /* a run that stopped in the gather */
		const struct ev *e = &c->t->ev[q - 1];
		size_t at = bug_gather_row0(b, c->M, c->n, r);
		if (e->row_begin != at)
			trace_drop(c, b, "event %zu: rank 0 places rank %d's rows at %u:%u; the ring "
				   "places them at %zu:%zu", q - 1, r, e->row_begin, e->row_end, at,
				   at + (e->row_end - e->row_begin));
	}
}

/* The shard rank r of candidate b sends in a transfer: the one it holds,
 * or (a forwarding bug) the one it has just received.  One level is
 * enough: in bug.h's forwarding bugs no forwarding rank receives from
 * another one. */
static int trace_sent_by(const struct trace_chk *c, int b, const int *held, int r)
{
	int forwards = bug_forwards(b, c->n, r) && bug_sends(b, c->n, r) && bug_receives(b, r);
	return forwards ? held[bug_recv_from(b, c->n, r)] : held[r];
}

/* A transfer phase against candidate b; moves b's shards. */
static void trace_sim_transfer(struct trace_chk *c, int b, int phase)
{
	int *held = &c->held[(size_t)b * (size_t)c->n];
	for (int r = 0; r < c->n && c->alive[b]; r++) {
		int sends = bug_sends(b, c->n, r), receives = bug_receives(b, r);
		int to = bug_send_to(b, c->n, r), from = bug_recv_from(b, c->n, r);
		size_t s = c->send_of[r], q = c->recv_of[r];
		if (sends != (s != 0) || receives != (q != 0)) {
			trace_drop(c, b, "phase %d: rank %d %s and %s; in the ring it sends and "
				   "receives", phase, r, s ? "sends" : "does not send",
				   q ? "receives" : "does not receive");
			return;
		}
		int out = trace_sent_by(c, b, held, r);
		if (s && (c->t->ev[s - 1].peer != to || c->t->ev[s - 1].shard != out))
			trace_drop(c, b, "event %zu: rank %d sends shard %d to rank %d; in the "
				   "ring it sends shard %d to rank %d", s - 1, r,
				   c->t->ev[s - 1].shard, c->t->ev[s - 1].peer, out, to);
		c->next[r] = receives ? trace_sent_by(c, b, held, from) : held[r];
	}
	if (c->alive[b])
		memcpy(held, c->next, (size_t)c->n * sizeof *held);
}

/* Each rank's peak never falls; with the whole run, the summaries are the
 * sums of the events.  One pass, with per-rank sums. */
static int trace_check_accounts(const struct trace_chk *c, int finished, struct dm_err *err)
{
	const struct trace *t = c->t;
	for (int r = 0; r < c->n; r++)
		c->sent[r] = c->recvd[r] = c->peak[r] = 0;
	for (size_t i = 0; i < t->n_ev; i++) {
		const struct ev *e = &t->ev[i];
		int r = e->rank;
		if (e->peak < c->peak[r])
			return dm_err_set(err, DM_EFORMAT, "event %zu: rank %d's peak falls from %"
					  PRIu64 " to %" PRIu64, i, r, c->peak[r], e->peak);
		c->peak[r] = e->peak;
		if (e->op == EV_SEND)
			c->sent[r] += e->bytes;
		else if (e->op == EV_RECV || (e->op == EV_GATHER && e->peer != r))
			c->recvd[r] += e->bytes;
	}
	for (int r = 0; r < c->n && finished; r++) {
		const struct ev_summary *s = &t->sum[r];
		if (s->sent_bytes != c->sent[r] || s->recv_bytes != c->recvd[r] ||
		    s->peak_bytes != c->peak[r])
			return dm_err_set(err, DM_EFORMAT, "the summary of rank %d says %" PRIu64
					  " bytes sent, %" PRIu64 " received, peak %" PRIu64 "; its "
					  "events %" PRIu64 ", %" PRIu64 ", %" PRIu64, r, s->sent_bytes,
					  s->recv_bytes, s->peak_bytes, c->sent[r], c->recvd[r],
					  c->peak[r]);
	}
	return 0;
}

/* Whether a shard was sent after the last compute (extra-rotation): rank
 * 0's gather then takes it for a block and the run stops inside the gather,
 * whose phase is then as short as any failed run's last one. */
static int trace_stray_shard(const struct trace_chk *c)
{
	for (size_t i = 0; i < c->t->n_ev; i++) {
		const struct ev *e = &c->t->ev[i];
		if (e->op == EV_SEND && e->shard >= 0 && e->phase == c->phases - 2)
			return 1;
	}
	return 0;
}

static int trace_check_run(struct trace_chk *c, struct dm_err *err)
{
	const struct trace *t = c->t;
	int rc, last = t->ev[t->n_ev - 1].phase;
	for (size_t i = 0; i < t->n_ev; i++)
		if ((rc = trace_check_event(c, i, err)))
			return rc;
	for (int b = 0; b < BUG_COUNT; b++) {
		c->alive[b] = bug_applies(b, c->mode);
		for (int r = 0; r < c->n; r++)
			c->held[(size_t)b * (size_t)c->n + (size_t)r] = r;
	}
	size_t lo = 0;
	for (int p = 0; p <= last; p++) {
		size_t hi = lo;
		while (hi < t->n_ev && t->ev[hi].phase == p)
			hi++;
		/* A failed run's trace stops short of the gather.  From the phase
		 * it failed in on, some ranks stopped while others (free running)
		 * went ahead: those phases are checked event by event above, not
		 * as whole phases. */
		if ((rc = trace_check_phase(c, p, lo, hi, err))) {
			if (last < c->phases - 1 || (p == c->phases - 1 && trace_stray_shard(c)))
				break;
			return rc;
		}
		int kind = sched_phase_kind(c->mode, c->n, p);
		for (int b = 0; b < BUG_COUNT; b++) {
			if (!c->alive[b])
				continue;
			if (kind == SCHED_GATHER)
				trace_sim_gather(c, b);
			else if (c->mode != DM_FSDP)
				continue;
			else if (kind == SCHED_COMPUTE)
				trace_sim_compute(c, b, sched_phase_step(c->mode, c->n, p));
			else
				trace_sim_transfer(c, b, p);
		}
		int any = 0;
		for (int b = 0; b < BUG_COUNT; b++)
			any |= c->alive[b];
		if (!any)
			return dm_err_set(err, DM_EFORMAT, "%s (nor does it fit a run with one of the "
					  "deliberate bugs)", c->first.msg);
		lo = hi;
	}
	return trace_check_accounts(c, last == c->phases - 1, err);
}

int trace_check(const struct trace *t, size_t M, size_t K, size_t N, struct dm_err *err)
{
	struct trace_chk c;
	int rc;
	if (!t || !t->sum || t->n < 1 || t->n > RUN_MAX_DEVICES ||
	    (t->mode != DM_FSDP && t->mode != DM_DP) || (!t->ev && t->n_ev > 0))
		return dm_err_set(err, DM_EINVAL, "not a trace");
	if (M == 0 || K == 0 || N == 0 || M > RUN_MAX_DIM || K > RUN_MAX_DIM || N > RUN_MAX_DIM)
		return dm_err_set(err, DM_EINVAL, "A is %zux%zu, B is %zux%zu: not a run's shapes", M,
				  K, K, N);
	if (t->n_ev == 0)
		return dm_err_set(err, DM_EFORMAT, "the trace has no events");
	memset(&c, 0, sizeof c);
	c.t = t;
	c.M = M;
	c.K = K;
	c.N = N;
	c.n = t->n;
	c.mode = t->mode;
	c.phases = sched_phase_count(t->mode, t->n);
	if ((rc = trace_check_shapes(&c, err)))
		return rc;
	size_t n = (size_t)t->n;
	c.compute_of = xcalloc(n, sizeof *c.compute_of);
	c.send_of = xcalloc(n, sizeof *c.send_of);
	c.recv_of = xcalloc(n, sizeof *c.recv_of);
	c.gather_of = xcalloc(n, sizeof *c.gather_of);
	c.held = xcalloc(n * BUG_COUNT, sizeof *c.held);
	c.next = xcalloc(n, sizeof *c.next);
	c.sent = xcalloc(n, sizeof *c.sent);
	c.recvd = xcalloc(n, sizeof *c.recvd);
	c.peak = xcalloc(n, sizeof *c.peak);
	if (!c.compute_of || !c.send_of || !c.recv_of || !c.gather_of || !c.held || !c.next ||
	    !c.sent || !c.recvd || !c.peak)
		rc = dm_err_set(err, DM_ENOMEM, "out of memory checking the trace");
	else
		rc = trace_check_run(&c, err);
	free(c.compute_of);
	free(c.send_of);
	free(c.recv_of);
	free(c.gather_of);
	free(c.held);
	free(c.next);
	free(c.sent);
	free(c.recvd);
	free(c.peak);
	return rc;
}

/* ---- the Chrome Trace Event Format ------------------------------------ */

/* ns as microseconds with three decimals. */
static int trace_put_us(FILE *fp, uint64_t ns)
{
	return fprintf(fp, "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
}

static void trace_chrome_name(const struct ev *e, char *buf, size_t size)
{
	switch (e->op) {
	case EV_COMPUTE:
		if (e->shard >= 0)
			snprintf(buf, size, "compute B[%d]", e->shard);
		else
			snprintf(buf, size, "compute B");
		break;
	case EV_SEND:
		if (e->shard >= 0)
			snprintf(buf, size, "send B[%d] -> %d", e->shard, e->peer);
		else
			snprintf(buf, size, "send rows %u:%u -> %d", e->row_begin, e->row_end,
				 e->peer);
		break;
	case EV_RECV:
		snprintf(buf, size, "recv B[%d] <- %d", e->shard, e->peer);
		break;
	case EV_GATHER:
		snprintf(buf, size, "gather rows %u:%u <- %d", e->row_begin, e->row_end, e->peer);
		break;
	default:
		snprintf(buf, size, "event %d", e->op);
		break;
	}
}

static int trace_chrome_event(FILE *fp, const struct ev *e)
{
	char name[96];
	uint64_t dur = e->t_end_ns > e->t_begin_ns ? e->t_end_ns - e->t_begin_ns : 0;
	trace_chrome_name(e, name, sizeof name);
	if (fprintf(fp, ",\n{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"ts\":",
		    name, ev_op_name(e->op), e->rank) < 0 ||
	    trace_put_us(fp, e->t_begin_ns) < 0 || fputs(",\"dur\":", fp) == EOF ||
	    trace_put_us(fp, dur) < 0)
		return DM_EIO;
	if (fprintf(fp, ",\"args\":{\"phase\":%d,\"step\":%d,\"shard\":%d,\"rows\":\"%u:%u\","
		    "\"cols\":\"%u:%u\",\"bytes\":%" PRIu64 ",\"held_bytes\":%" PRIu64
		    ",\"peak_bytes\":%" PRIu64, e->phase, e->step, e->shard, e->row_begin,
		    e->row_end, e->col_begin, e->col_end, e->bytes, e->held, e->peak) < 0)
		return DM_EIO;
	if (e->op == EV_SEND && fprintf(fp, ",\"dst\":%d", e->peer) < 0)
		return DM_EIO;
	if ((e->op == EV_RECV || e->op == EV_GATHER) && fprintf(fp, ",\"src\":%d", e->peer) < 0)
		return DM_EIO;
	if ((e->flags & EV_FLAG_TRUNCATED) && fputs(",\"truncated\":true", fp) == EOF)
		return DM_EIO;
	return fputs("}}", fp) == EOF ? DM_EIO : 0;
}

static int trace_chrome_body(FILE *fp, const struct ev *ev, size_t n_ev, int n, int mode)
{
	if (fprintf(fp, "{\"traceEvents\":[\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,"
		    "\"tid\":0,\"ts\":0,\"args\":{\"name\":\"distmm-tui %s\"}}",
		    sched_mode_name(mode)) < 0)
		return DM_EIO;
	for (int r = 0; r < n; r++)
		if (fprintf(fp, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,"
			    "\"ts\":0,\"args\":{\"name\":\"rank %d\"}}"
			    ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,"
			    "\"ts\":0,\"args\":{\"sort_index\":%d}}", r, r, r, r) < 0)
			return DM_EIO;
	for (size_t i = 0; i < n_ev; i++)
		if (trace_chrome_event(fp, &ev[i]))
			return DM_EIO;
	return fputs("\n],\"displayTimeUnit\":\"ns\"}\n", fp) == EOF ? DM_EIO : 0;
}

int trace_write_chrome(const char *path, const struct ev *ev, size_t n_ev, int n, int mode,
		       struct dm_err *err)
{
	struct afile af;
	if (!path || (!ev && n_ev > 0))
		return dm_err_set(err, DM_EINVAL, "trace_write_chrome: missing argument");
	int rc = afile_open(&af, path, err);
	if (rc)
		return rc;
	errno = 0;
	if (trace_chrome_body(af.fp, ev, n_ev, n, mode)) {
		int e = errno;
		afile_abort(&af);
		return dm_err_set(err, DM_EIO, "cannot write %s: %s", path,
				  e ? strerror(e) : "write error");
	}
	return afile_commit(&af, err);
}
