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

#include <distmm/outfile.h>
#include <distmm/run.h>
#include <distmm/schedule.h>
#include "core/xalloc.h"
#include "io/slurp.h"
#include "trace/trace_lex.h"

#define TRACE_SHOW 32         /* how much of a string a message quotes */

enum trace_key {
	TK_PHASE, TK_STEP, TK_OP, TK_RANK, TK_DST, TK_SRC, TK_SHARD, TK_ROW_BEGIN, TK_ROW_END,
	TK_COL_BEGIN, TK_COL_END, TK_BYTES, TK_HELD, TK_PEAK, TK_T_BEGIN, TK_T_END, TK_TRUNCATED,
	TK_SENT, TK_RECV, TK_TENSOR, TK_OVERWRITE, TK_TRAIN, TK_MODE, TK_RS, TK_COUNT
};

static const char *const trace_keys[TK_COUNT] = {
	[TK_PHASE] = "phase",         [TK_STEP] = "step",           [TK_OP] = "op",
	[TK_RANK] = "rank",           [TK_DST] = "dst",             [TK_SRC] = "src",
	[TK_SHARD] = "shard",         [TK_ROW_BEGIN] = "row_begin", [TK_ROW_END] = "row_end",
	[TK_COL_BEGIN] = "col_begin", [TK_COL_END] = "col_end",     [TK_BYTES] = "bytes",
	[TK_HELD] = "held_bytes",     [TK_PEAK] = "peak_bytes",     [TK_T_BEGIN] = "t_begin_ns",
	[TK_T_END] = "t_end_ns",      [TK_TRUNCATED] = "truncated", [TK_SENT] = "sent_bytes",
	[TK_RECV] = "recv_bytes",     [TK_TENSOR] = "tensor",       [TK_OVERWRITE] = "overwrite",
	[TK_TRAIN] = "train",         [TK_MODE] = "mode",           [TK_RS] = "reduce_scatter",
};

/* The ops of a line besides EV_*: the summaries after the events, and the
 * header a training step's trace starts with. */
enum { TRACE_OP_SUMMARY = -1, TRACE_OP_RUN = -2 };

struct trace_line {
	struct trace_val v[TK_COUNT];
	unsigned char seen[TK_COUNT];
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
	trace_lex_skip_ws(&lx);
	if (lx.p >= lx.end || *lx.p != '{')
		return trace_syntax(w, "a line must be one object, starting with '{'", err);
	lx.p++;
	trace_lex_skip_ws(&lx);
	if (lx.p < lx.end && *lx.p == '}') {
		lx.p++;
	} else {
		for (;;) {
			trace_lex_skip_ws(&lx);
			if (lx.p >= lx.end || *lx.p != '"')
				return trace_syntax(w, "a key (a string) is missing", err);
			if ((why = trace_lex_string(&lx, &key)))
				return trace_syntax(w, why, err);
			trace_lex_skip_ws(&lx);
			if (lx.p >= lx.end || *lx.p != ':')
				return trace_syntax(w, "':' is missing after a key", err);
			lx.p++;
			trace_lex_skip_ws(&lx);
			if ((why = trace_lex_value(&lx, &val)))
				return trace_syntax(w, why, err);
			trace_lex_show(shown, sizeof shown, key.s, key.slen, key.cut);
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
			trace_lex_skip_ws(&lx);
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
	trace_lex_skip_ws(&lx);
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

/* A true-or-false key: flag set in e when true. */
static int trace_flag(const struct trace_line *ln, int k, uint32_t flag, struct ev *e,
		      const struct trace_where *w, struct dm_err *err)
{
	if (!ln->seen[k])
		return 0;
	if (ln->v[k].kind != TV_BOOL)
		return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "\"%s\" must be true or false",
				  w->name, w->line, trace_keys[k]);
	if (ln->v[k].u)
		e->flags |= flag;
	return 0;
}

/* "tensor": "dA" or "dB" (a gradient's event); without it, the forward's. */
static int trace_tensor(const struct trace_line *ln, struct ev *e, const struct trace_where *w,
			struct dm_err *err)
{
	const struct trace_val *v = &ln->v[TK_TENSOR];
	char shown[TRACE_SHOW + 4];
	if (!ln->seen[TK_TENSOR])
		return 0;
	for (int t = EV_TENSOR_DA; t <= EV_TENSOR_DB; t++) /* a collective's are not written yet */
		if (v->kind == TV_STR && !v->cut && v->slen == strlen(ev_tensor_name(t)) &&
		    memcmp(v->s, ev_tensor_name(t), v->slen) == 0) {
			e->tensor = t;
			return 0;
		}
	if (v->kind != TV_STR)
		return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "\"tensor\" must be a string",
				  w->name, w->line);
	trace_lex_show(shown, sizeof shown, v->s, v->slen, v->cut);
	return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "unknown tensor \"%s\" (dA or dB)",
			  w->name, w->line, shown);
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
	if ((rc = trace_flag(ln, TK_TRUNCATED, EV_FLAG_TRUNCATED, e, w, err)) ||
	    (rc = trace_flag(ln, TK_OVERWRITE, EV_FLAG_OVERWRITE, e, w, err)) ||
	    (rc = trace_tensor(ln, e, w, err)))
		return rc;
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

/* The op of a line: EV_*, TRACE_OP_SUMMARY or TRACE_OP_RUN. */
static int trace_op(const struct trace_line *ln, int *op, const struct trace_where *w,
		    struct dm_err *err)
{
	static const char *const ops[] = { "compute", "send", "recv", "gather", "add", "free",
					   "summary", "run" };
	const struct trace_val *v = &ln->v[TK_OP];
	char shown[TRACE_SHOW + 4];
	if (!ln->seen[TK_OP])
		return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "missing key \"op\"", w->name,
				  w->line);
	if (v->kind != TV_STR)
		return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "\"op\" must be a string", w->name,
				  w->line);
	for (int i = 0; i < EV_OP_COUNT + 2; i++)
		if (!v->cut && strlen(ops[i]) == v->slen && memcmp(ops[i], v->s, v->slen) == 0) {
			*op = i < EV_OP_COUNT ? i : i == EV_OP_COUNT ? TRACE_OP_SUMMARY : TRACE_OP_RUN;
			return 0;
		}
	trace_lex_show(shown, sizeof shown, v->s, v->slen, v->cut);
	return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "unknown op \"%s\"", w->name, w->line,
			  shown);
}

#define TK_BIT(k) (1u << (k))
#define TK_EVENT_KEYS                                                                          \
	(TK_BIT(TK_PHASE) | TK_BIT(TK_STEP) | TK_BIT(TK_OP) | TK_BIT(TK_RANK) | TK_BIT(TK_SHARD) |  \
	 TK_BIT(TK_ROW_BEGIN) | TK_BIT(TK_ROW_END) | TK_BIT(TK_COL_BEGIN) | TK_BIT(TK_COL_END) |     \
	 TK_BIT(TK_BYTES) | TK_BIT(TK_HELD) | TK_BIT(TK_PEAK) | TK_BIT(TK_T_BEGIN) |                \
	 TK_BIT(TK_T_END) | TK_BIT(TK_TRUNCATED) | TK_BIT(TK_TENSOR))

/* The keys a line of op (EV_*, TRACE_OP_*) may have: what the writer
 * writes for it, optional ones included. */
static unsigned trace_keys_of(int op)
{
	switch (op) {
	case EV_SEND: return TK_EVENT_KEYS | TK_BIT(TK_DST);
	case EV_RECV:
	case EV_GATHER: return TK_EVENT_KEYS | TK_BIT(TK_SRC);
	case EV_COMPUTE:
	case EV_FREE: return TK_EVENT_KEYS;
	case EV_ADD: return TK_EVENT_KEYS | TK_BIT(TK_OVERWRITE);
	case TRACE_OP_RUN: return TK_BIT(TK_OP) | TK_BIT(TK_TRAIN) | TK_BIT(TK_MODE) | TK_BIT(TK_RS);
	}
	return TK_BIT(TK_OP) | TK_BIT(TK_RANK) | TK_BIT(TK_PEAK) | TK_BIT(TK_SENT) | TK_BIT(TK_RECV);
}

static const char *trace_line_kind(int op)
{
	return op == TRACE_OP_SUMMARY ? "summary" : op == TRACE_OP_RUN ? "run" : ev_op_name(op);
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
					  trace_line_kind(op));
	return 0;
}

/* What the reader collects before the device count is known. */
struct trace_acc {
	struct ev *ev;
	size_t *ev_line, n_ev, ev_cap;
	struct ev_summary *sum;
	size_t *sum_line, n_sum, sum_cap;
	int train;      /* the header said it is a training step */
	int mode;       /* the mode it named (tensor parallel's), -1 none */
	int rs;         /* and tp-row's reduce-scatter */
	size_t lines;   /* lines read that were not blank */
};

/* The header {"op":"run","train":true}: the first line, or none. */
static int trace_header(struct trace_acc *acc, const struct trace_line *ln,
			const struct trace_where *w, struct dm_err *err)
{
	if (acc->lines != 1)
		return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "a \"run\" line is the trace's "
				  "first line, once", w->name, w->line);
	if (!ln->seen[TK_TRAIN] || ln->v[TK_TRAIN].kind != TV_BOOL)
		return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "a \"run\" line says \"train\": "
				  "true or false", w->name, w->line);
	acc->train = (int)ln->v[TK_TRAIN].u;
	if (ln->seen[TK_RS] && ln->v[TK_RS].kind != TV_BOOL)
		return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "\"reduce_scatter\" must be true "
				  "or false", w->name, w->line);
	acc->rs = ln->seen[TK_RS] && ln->v[TK_RS].u;
	if (!ln->seen[TK_MODE]) {
		if (ln->seen[TK_RS])
			return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "\"reduce_scatter\" is "
					  "tp-row's: the line needs \"mode\":\"tp-row\"", w->name,
					  w->line);
		return 0;
	}
	/* the events of FSDP and DP say their mode; tensor parallel's do not */
	const struct trace_val *v = &ln->v[TK_MODE];
	static const int tp_modes[] = { DM_TP_COL, DM_TP_ROW };
	for (int i = 0; i < 2 && v->kind == TV_STR && !v->cut; i++) {
		const char *name = plan_mode_name(tp_modes[i]);
		if (strlen(name) == v->slen && memcmp(name, v->s, v->slen) == 0)
			acc->mode = tp_modes[i];
	}
	if (acc->mode < 0)
		return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "\"mode\" is \"tp-col\" or "
				  "\"tp-row\" (FSDP's and DP's events say their mode)", w->name,
				  w->line);
	if (acc->rs && acc->mode != DM_TP_ROW)
		return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "\"reduce_scatter\" is "
				  "tp-row's, not %s's", w->name, w->line, plan_mode_name(acc->mode));
	return 0;
}

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
		if (!trace_lex_is_ws(*p))
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
		acc->lines += !trace_blank(p, le);
		if (!trace_blank(p, le) && !(rc = trace_parse_object(ln, p, le, &w, err)) &&
		    !(rc = trace_op(ln, &op, &w, err)) && !(rc = trace_stray_keys(ln, op, &w, err))) {
			if (op == TRACE_OP_RUN) {
				rc = trace_header(acc, ln, &w, err);
			} else if (op == TRACE_OP_SUMMARY) {
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
		int tp_add = acc->mode >= 0 && e->op == EV_ADD && e->tensor == EV_TENSOR_FWD;
		if (!acc->train && !tp_add &&
		    (e->tensor != EV_TENSOR_FWD || e->op == EV_ADD || e->op == EV_FREE))
			return dm_err_set(err, DM_EFORMAT, TRACE_LINE_FMT "a training step's event, "
					  "but the trace does not start with {\"op\":\"run\","
					  "\"train\":true}", nm, line);
		/* the mode shows in what B a compute uses: the partial dB uses none
		 * (tensor parallel's header names it) */
		if (acc->mode >= 0 || e->op != EV_COMPUTE || e->tensor == EV_TENSOR_DB)
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
	t->mode = acc->mode >= 0 ? (enum dm_mode)acc->mode : first_dp ? DM_DP : DM_FSDP;
	t->reduce_scatter = acc->rs;
	t->pass = acc->train ? DM_TRAIN : DM_FORWARD;
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

int trace_plan(const struct trace *t, enum dm_bug bug, struct dm_plan **out, struct dm_err *err)
{
	int rc = plan_make(out, t->mode, t->n, t->pass, err);
	if (!rc && t->reduce_scatter)
		rc = plan_set_tp_collective(*out, CCL_REDUCESCATTER, err);
	if (!rc && (rc = plan_set_bug(*out, bug, err))) {
		plan_free(*out);
		*out = NULL;
	}
	return rc;
}

int trace_parse(struct trace *t, const char *text, size_t len, const char *name,
		struct dm_err *err)
{
	struct trace_acc acc;
	const char *nm = trace_name(name);
	memset(t, 0, sizeof *t);
	memset(&acc, 0, sizeof acc);
	acc.mode = -1;
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
	char peer[32] = "", tensor[24] = "";
	if (e->tensor != EV_TENSOR_FWD)
		snprintf(tensor, sizeof tensor, ",\"tensor\":\"%s\"", ev_tensor_name(e->tensor));
	if (e->op == EV_SEND)
		snprintf(peer, sizeof peer, ",\"dst\":%" PRId32, e->peer);
	else if (e->op == EV_RECV || e->op == EV_GATHER)
		snprintf(peer, sizeof peer, ",\"src\":%" PRId32, e->peer);
	return snprintf(buf, size,
			"{\"phase\":%" PRId32 ",\"step\":%" PRId32 ",\"op\":\"%s\",\"rank\":%" PRId32
			"%s%s,\"shard\":%" PRId32 ",\"row_begin\":%" PRIu32 ",\"row_end\":%" PRIu32
			",\"col_begin\":%" PRIu32 ",\"col_end\":%" PRIu32 ",\"bytes\":%" PRIu64
			",\"held_bytes\":%" PRIu64 ",\"peak_bytes\":%" PRIu64 "%s%s"
			",\"t_begin_ns\":%" PRIu64 ",\"t_end_ns\":%" PRIu64 "}",
			e->phase, e->step, ev_op_name(e->op), e->rank, peer, tensor, e->shard,
			e->row_begin, e->row_end, e->col_begin, e->col_end, e->bytes, e->held, e->peak,
			(e->flags & EV_FLAG_TRUNCATED) ? ",\"truncated\":true" : "",
			(e->flags & EV_FLAG_OVERWRITE) ? ",\"overwrite\":true" : "", e->t_begin_ns,
			e->t_end_ns);
}

int trace_format_summary(const struct ev_summary *s, char *buf, size_t size)
{
	return snprintf(buf, size,
			"{\"op\":\"summary\",\"rank\":%d,\"peak_bytes\":%" PRIu64
			",\"sent_bytes\":%" PRIu64 ",\"recv_bytes\":%" PRIu64 "}",
			s->rank, s->peak_bytes, s->sent_bytes, s->recv_bytes);
}

int trace_format_header(const struct dm_plan *p, char *buf, size_t size)
{
	const char *train = plan_pass(p) == DM_TRAIN ? "true" : "false";
	if (plan_mode_tp(plan_mode(p)))
		return snprintf(buf, size, "{\"op\":\"run\",\"mode\":\"%s\",\"reduce_scatter\":%s,"
				"\"train\":%s}", plan_mode_name(plan_mode(p)),
				plan_ccl_kind(p) == CCL_REDUCESCATTER ? "true" : "false", train);
	if (plan_pass(p) != DM_TRAIN) {
		if (size > 0)
			buf[0] = '\0';
		return 0;
	}
	return snprintf(buf, size, "{\"op\":\"run\",\"train\":%s}", train);
}

/* A forward trace has no header, as before there were training steps. */
int trace_write_jsonl(const char *path, const struct dm_plan *p, const struct ev *ev, size_t n_ev,
		      const struct ev_summary *sum, struct dm_err *err)
{
	struct outfile of;
	char line[512];
	size_t n_sum = sum ? (size_t)plan_devices(p) : 0;
	int rc = outfile_open(&of, path, err);
	if (rc)
		return rc;
	if (trace_format_header(p, line, sizeof line) > 0)
		fprintf(of.fp, "%s\n", line);
	for (size_t i = 0; i < n_ev; i++) {
		trace_format_event(&ev[i], line, sizeof line);
		fprintf(of.fp, "%s\n", line);
	}
	for (size_t i = 0; i < n_sum; i++) {
		trace_format_summary(&sum[i], line, sizeof line);
		fprintf(of.fp, "%s\n", line);
	}
	return outfile_commit(&of, err);
}
