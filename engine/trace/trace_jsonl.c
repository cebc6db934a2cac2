/* trace_jsonl: the JSON Lines form of an event log, both ways: the writer
 * (one object a line, as --trace writes it) and the reader (see trace.h),
 * kept together so that the two cannot drift apart.
 *
 * Reader: the text is not NUL-terminated and may be anything.  Each line is
 * [p, end) with end found by memchr, and every read is guarded by `p < end`;
 * strings are copied into fixed buffers with a length (longer ones are
 * marked cut and match no key), integers are accumulated with an overflow
 * check before every multiply-add, and arrays grow by doubling with overflow
 * checks.  A line is parsed into a table of the known keys first and only
 * then interpreted, so the order of keys never matters; a key the reader
 * does not know, or one that belongs to another kind of line, is refused
 * rather than skipped, so a trace is never half understood.  The events keep
 * their line numbers until the summaries are in (ranks are checked against
 * the device count, which only the summaries give). */
#include <distmm/trace.h>

#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/run.h>
#include <distmm/schedule.h>
#include "core/xalloc.h"
#include "io/afile.h"
#include "io/slurp.h"

#define TRACE_STR_MAX 24      /* strings kept: every key and op fits */
#define TRACE_SHOW 32         /* how much of a string a message quotes */

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
			if (k == TK_COUNT)
				return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "unknown key \"%s\"",
						  w->name, w->line, shown);
			if (ln->seen[k])
				return dm_err_set(err, DM_EFORMAT,
						  TRACE_LINE_FMT "key \"%s\" appears twice",
						  w->name, w->line, shown);
			ln->seen[k] = 1;
			ln->v[k] = val;
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

#define TK_BIT(k) (1u << (k))
#define TK_EVENT_KEYS                                                                          \
	(TK_BIT(TK_PHASE) | TK_BIT(TK_STEP) | TK_BIT(TK_OP) | TK_BIT(TK_RANK) | TK_BIT(TK_SHARD) |  \
	 TK_BIT(TK_ROW_BEGIN) | TK_BIT(TK_ROW_END) | TK_BIT(TK_COL_BEGIN) | TK_BIT(TK_COL_END) |     \
	 TK_BIT(TK_BYTES) | TK_BIT(TK_HELD) | TK_BIT(TK_PEAK) | TK_BIT(TK_T_BEGIN) |                \
	 TK_BIT(TK_T_END) | TK_BIT(TK_TRUNCATED))

/* The keys a line of op (EV_*, -1 for a summary) may have: what the writer
 * writes for it, optional ones included. */
static unsigned trace_keys_of(int op)
{
	switch (op) {
	case EV_SEND: return TK_EVENT_KEYS | TK_BIT(TK_DST);
	case EV_RECV:
	case EV_GATHER: return TK_EVENT_KEYS | TK_BIT(TK_SRC);
	case EV_COMPUTE: return TK_EVENT_KEYS;
	}
	return TK_BIT(TK_OP) | TK_BIT(TK_RANK) | TK_BIT(TK_PEAK) | TK_BIT(TK_SENT) | TK_BIT(TK_RECV);
}

/* A known key on a line of another kind ("dst" on a recv) is refused too. */
static int trace_stray_keys(const struct trace_line *ln, int op, const struct trace_where *w,
			    struct dm_err *err)
{
	unsigned ok = trace_keys_of(op);
	for (int k = 0; k < TK_COUNT; k++)
		if (ln->seen[k] && !(ok & TK_BIT(k)))
			return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "key \"%s\" is not part "
					  "of a %s line", w->name, w->line, trace_keys[k],
					  op < 0 ? "summary" : ev_op_name(op));
	return 0;
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
		    !(rc = trace_op(ln, &op, &w, err)) && !(rc = trace_stray_keys(ln, op, &w, err))) {
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

/* The writer: the fixed key order below is the format's, and the reader
 * takes any order. */
int trace_format_event(const struct ev *e, char *buf, size_t size)
{
	char peer[32] = "";
	if (e->op == EV_SEND)
		snprintf(peer, sizeof peer, ",\"dst\":%" PRId32, e->peer);
	else if (e->op == EV_RECV || e->op == EV_GATHER)
		snprintf(peer, sizeof peer, ",\"src\":%" PRId32, e->peer);
	return snprintf(buf, size,
			"{\"phase\":%" PRId32 ",\"step\":%" PRId32 ",\"op\":\"%s\",\"rank\":%" PRId32
			"%s,\"shard\":%" PRId32 ",\"row_begin\":%" PRIu32 ",\"row_end\":%" PRIu32
			",\"col_begin\":%" PRIu32 ",\"col_end\":%" PRIu32 ",\"bytes\":%" PRIu64
			",\"held_bytes\":%" PRIu64 ",\"peak_bytes\":%" PRIu64 "%s"
			",\"t_begin_ns\":%" PRIu64 ",\"t_end_ns\":%" PRIu64 "}",
			e->phase, e->step, ev_op_name(e->op), e->rank, peer, e->shard, e->row_begin,
			e->row_end, e->col_begin, e->col_end, e->bytes, e->held, e->peak,
			(e->flags & EV_FLAG_TRUNCATED) ? ",\"truncated\":true" : "", e->t_begin_ns,
			e->t_end_ns);
}

int trace_format_summary(const struct ev_summary *s, char *buf, size_t size)
{
	return snprintf(buf, size,
			"{\"op\":\"summary\",\"rank\":%d,\"peak_bytes\":%" PRIu64
			",\"sent_bytes\":%" PRIu64 ",\"recv_bytes\":%" PRIu64 "}",
			s->rank, s->peak_bytes, s->sent_bytes, s->recv_bytes);
}

int trace_write_jsonl(const char *path, const struct ev *ev, size_t n_ev,
		      const struct ev_summary *sum, size_t n_sum, struct dm_err *err)
{
	struct afile af;
	char line[512];
	int rc = afile_open(&af, path, err);
	if (rc)
		return rc;
	for (size_t i = 0; i < n_ev; i++) {
		trace_format_event(&ev[i], line, sizeof line);
		fprintf(af.fp, "%s\n", line);
	}
	for (size_t i = 0; i < n_sum; i++) {
		trace_format_summary(&sum[i], line, sizeof line);
		fprintf(af.fp, "%s\n", line);
	}
	return afile_commit(&af, err);
}
