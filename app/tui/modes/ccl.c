/* ccl: one collective in the interface (see mode.h, docs/clock.md):
 * --collective KIND --algo ALGO stepped phase by phase on the devices,
 * each rank's buffer drawn as its n chunks, a chunk a row.
 *
 * What a rank holds comes from the snapshot (the engine's copy of every
 * buffer and of how many ranks' parts each chunk holds); whose parts they
 * are is the engine's schedule walked to the stop shown (ccl_rank_phase,
 * the one home of that arithmetic), never a formula of its own.  The times
 * are the engine's model (cost.c, on the run's own events and on its
 * schedule), the check ccl_verify, as batch mode's report uses them.  A
 * stop seen before is the engine's run again to that phase, as tensor
 * parallel's: the replay knows the matrices' runs alone, and a collective
 * is the same bit for bit every time. */
#include "ccl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/ccl.h>
#include <distmm/cost.h>
#include <distmm/schedule.h>
#include <distmm/split.h>

#include "cli/cli.h"
#include "tui/keys.h"
#include "tui/layout.h"
#include "tui/view.h"
#include "words/clock_words.h"

#define CCLV_RANKS LAYOUT_MAX_DEVICES /* a mask of ranks is 64 bits */

struct cclv_state {
	struct view_ccl c;
	double total_s;     /* the model's time of the whole schedule (cost_of_schedule) */
	struct view_format fval, fpart;
	uint64_t mask[CCLV_RANKS * CCLV_RANKS]; /* [r*n + c]: whose parts rank r's chunk c holds */
	double *parts;  /* n * n * n: the same as 0/1, rank r's a row a chunk, for its block */
	size_t bad[CCLV_RANKS], checked;       /* at the end: elements that differ, per rank */
	double worst;
};

static void cclv_free(void *data)
{
	struct cclv_state *st = data;
	if (st)
		free(st->parts);
	free(st);
}

static int cclv_n(const struct view *v)
{
	return v->cfg.devices;
}

static enum ccl_kind cclv_kind_of(const struct cclv_state *st)
{
	return (enum ccl_kind)st->c.kind;
}

static enum ccl_algo cclv_algo_of(const struct cclv_state *st)
{
	return (enum ccl_algo)st->c.algo;
}

static void cclv_xfer_at(const struct view *v, const struct cclv_state *st, int phase, int r,
			struct ccl_xfer *x)
{
	ccl_rank_phase(cclv_kind_of(st), cclv_algo_of(st), cclv_n(v), phase, r, x);
}

static void cclv_configure(const struct view *v, const void *data, struct dm_plan *plan,
			  struct run_config *run)
{
	const struct cclv_state *st = data;
	(void)v, (void)run;
	plan_set_collective(plan, cclv_kind_of(st), cclv_algo_of(st), st->c.count, NULL);
}

/* The values' format: as wide as the sum of every rank's |buffer|, which
 * bounds every partial sum; the time of the whole schedule. */
static int cclv_prepare(struct view *v, void *data, struct dm_err *err)
{
	struct cclv_state *st = data;
	struct mat bound = { 0, 0, NULL };
	struct cost_run c;
	int rc, neg = 0;
	if ((rc = mat_alloc(&bound, 1, v->a->cols, err)))
		return rc;
	for (size_t q = 0; q < v->a->rows; q++)
		for (size_t j = 0; j < v->a->cols; j++) {
			bound.data[j] += fabs(MAT_AT(v->a, q, j));
			neg |= MAT_AT(v->a, q, j) < 0;
		}
	for (size_t j = 0; neg && j < bound.cols; j++)
		bound.data[j] = -bound.data[j];
	view_format_measure(&bound, &st->fval);
	mat_free(&bound);
	memset(&st->fpart, 0, sizeof st->fpart);
	st->fpart.ints = 1;
	st->fpart.min_w = st->fpart.ideal_w = 1;
	if ((rc = cost_of_schedule(&c, v->plan, &st->c.hw, err)))
		return rc;
	st->total_s = c.total_s;
	cost_run_free(&c);
	return 0;
}

/* The engine's run again, to phase (see above). */
static int cclv_rebuild(struct view *v, const void *data, int phase, struct dm_err *err)
{
	(void)data;
	return view_rerun_to(v, phase, err);
}

/* Whose parts each chunk holds at the stop shown: the inputs, then every
 * phase up to it by the schedule (a receive adds the sender's set, or
 * stores it over its own; the sender's as it was before the phase). */
static void cclv_walk(const struct view *v, struct cclv_state *st)
{
	static uint64_t before[CCLV_RANKS * CCLV_RANKS];
	int n = cclv_n(v), last = v->stop < v->phase_count ? v->stop : v->phase_count - 1;
	memset(st->mask, 0, sizeof st->mask);
	for (int r = 0; r < n; r++) {
		int c0, c1;
		ccl_input_chunks(cclv_kind_of(st), n, r, &c0, &c1);
		for (int c = c0; c < c1; c++)
			st->mask[r * n + c] = UINT64_C(1) << r;
	}
	for (int p = 0; p <= last; p++) {
		memcpy(before, st->mask, sizeof before);
		for (int r = 0; r < n; r++) {
			struct ccl_xfer x;
			cclv_xfer_at(v, st, p, r, &x);
			for (int c = x.recv_c0; x.recv_from >= 0 && c < x.recv_c1; c++)
				st->mask[r * n + c] = (x.reduce ? before[r * n + c] : 0) |
						      before[x.recv_from * n + c];
		}
	}
	for (int r = 0; r < n; r++)
		for (int c = 0; c < n; c++)
			for (int q = 0; q < n; q++)
				st->parts[((size_t)r * (size_t)n + (size_t)c) * (size_t)n + (size_t)q] =
					(double)(st->mask[r * n + c] >> q & 1);
}

/* Every rank's buffer against the sequential result (batch's check). */
static void cclv_check(const struct view *v, struct cclv_state *st)
{
	int n = cclv_n(v);
	st->checked = 0;
	st->worst = 0;
	for (int r = 0; r < n; r++) {
		size_t c = 0;
		double e = 0;
		st->bad[r] = v->snap.ccl_buf
				     ? ccl_verify(cclv_kind_of(st), n, st->c.count, v->a->data, r,
						  v->snap.ccl_buf + (size_t)r * st->c.count, &c, &e)
				     : 0;
		st->checked += c;
		st->worst = e > st->worst || e != e ? e : st->worst;
	}
}

static void cclv_derive(struct view *v, void *data)
{
	struct cclv_state *st = data;
	cclv_walk(v, st);
	if (v->kind == VIEW_VERIFY)
		cclv_check(v, st);
}

/* The run is over: its verdict, for what reads the view's. */
static void cclv_verify_run(struct view *v, void *data)
{
	struct cclv_state *st = data;
	size_t bad = 0;
	cclv_check(v, st);
	for (int r = 0; r < cclv_n(v); r++)
		bad += st->bad[r];
	v->n_bad = bad;
	v->max_err = st->worst;
	v->verdict = bad ? VIEW_MISMATCH : VIEW_OK;
}

/* "c2", "c0:2", "none" */
static void cclv_range(int c0, int c1, char *buf, size_t size)
{
	if (c1 <= c0)
		snprintf(buf, size, "none");
	else if (c1 - c0 == 1)
		snprintf(buf, size, "c%d", c0);
	else
		snprintf(buf, size, "c%d:%d", c0, c1);
}

/* "0+1+3", "0..3", "-" */
static void cclv_who(uint64_t m, int n, char *buf, size_t size)
{
	size_t len = 0;
	int first = -1, count = 0;
	buf[0] = '\0';
	for (int q = 0; q < n; q++)
		if (m >> q & 1) {
			first = first < 0 ? q : first;
			count++;
		}
	if (count == 0) {
		snprintf(buf, size, "-");
		return;
	}
	if (count > 2 && (m >> first) == (UINT64_C(1) << count) - 1) {
		snprintf(buf, size, "%d..%d", first, first + count - 1);
		return;
	}
	for (int q = 0; q < n && len < size; q++)
		if (m >> q & 1)
			len += (size_t)snprintf(buf + len, size - len, "%s%d", len ? "+" : "", q);
}

/* What the phase on screen is and why. */
static void cclv_step_words(const struct view *v, char *buf, size_t size)
{
	int n = cclv_n(v), s = v->step, k = v->kind - SCHED_CCL_FIRST;
	int steps = 0;
	for (int p = 0; p < v->phase_count; p++)
		steps += view_phase_kind(v, p) == v->kind;
	char head[64];
	snprintf(head, sizeof head, "%s %d (%d of %d)", ccl_prim_name((enum ccl_prim)k), s, s + 1,
		 steps);
	switch ((enum ccl_prim)k) {
	case CCL_P_RING_RS:
		snprintf(buf, size, "%s: each step every rank sends one chunk's running sum to its "
				    "neighbour r+1 and adds the chunk from r-1 into its own, so all %d "
				    "links are busy at once, each with S/n.%s",
			 head, n, s == n - 2 ? " Last step: rank r's chunk r now holds all n parts."
					     : " A chunk gains one part a hop.");
		break;
	case CCL_P_RING_AG:
		snprintf(buf, size, "%s: every rank passes a finished chunk to r+1 and stores the one "
				    "from r-1 over its own: all links busy, S/n each, n-1 steps.",
			 head);
		break;
	case CCL_P_CHAIN_BCAST:
		snprintf(buf, size, "%s: rank 0's chunks flow down the chain 0 -> 1 -> ... -> %d, a chunk "
				    "a hop a step, pipelined: hop h passes chunk %d - h.",
			 head, n - 1, s);
		break;
	case CCL_P_CHAIN_REDUCE:
		snprintf(buf, size, "%s: partial sums flow down the chain towards rank 0, a chunk a hop "
				    "a step, each rank adding its part as the chunk passes.",
			 head);
		break;
	case CCL_P_TREE_REDUCE:
		snprintf(buf, size, "%s: up the tree: in each pair the upper rank sends its whole "
				    "partial sum (all S bytes) to the lower, which adds it. log2 n "
				    "levels, but whole-size messages and idle ranks.",
			 head);
		break;
	case CCL_P_TREE_BCAST:
		snprintf(buf, size, "%s: down the tree: in each pair the lower rank copies its whole "
				    "buffer (S bytes) to the upper. log2 n levels of whole-size messages.",
			 head);
		break;
	case CCL_P_TREE_GATHER:
		snprintf(buf, size, "%s: up the tree: the upper rank of each pair sends the chunks of "
				    "its subtree to the lower, which stores them.",
			 head);
		break;
	case CCL_P_TREE_SCATTER:
		snprintf(buf, size, "%s: down the tree: the lower rank of each pair sends the upper "
				    "the summed chunks of the upper's subtree.",
			 head);
		break;
	case CCL_P_HALVING:
		snprintf(buf, size, "%s: partners r xor %d swap halves: each sends the half of its range "
				    "it gives up and adds the partner's into the half it keeps; the "
				    "messages halve each step.",
			 head, n >> (s + 1));
		break;
	case CCL_P_DOUBLING:
		snprintf(buf, size, "%s: partners r xor %d swap what they hold: each sends its block of "
				    "chunks and stores the partner's; the messages double each step.",
			 head, 1 << s);
		break;
	default:
		snprintf(buf, size, "%s", head);
	}
}

static int cclv_caption(const struct view *v, const void *data, char *buf, size_t size)
{
	const struct cclv_state *st = data;
	int n = cclv_n(v);
	char sz[32];
	if (v->failed || v->start_failed)
		return 0;
	clockw_size(8.0 * (double)st->c.count, sz, sizeof sz);
	if (v->kind == VIEW_READY) {
		snprintf(buf, size, "%s by %s on %d rank%s: %s; each rank's buffer (S = %s) cut "
				    "into %d chunks, a chunk a row, each saying whose parts it holds. "
				    "%d steps. Press n.",
			 ccl_kind_title(cclv_kind_of(st)), ccl_algo_name(cclv_algo_of(st)), n,
			 n == 1 ? "" : "s", clockw_algo_how(cclv_kind_of(st), cclv_algo_of(st)), sz, n,
			 v->phase_count);
	} else if (v->kind == VIEW_VERIFY) {
		snprintf(buf, size, "verify: every rank's output against %s, worked out sequentially "
				    "(numpy's allclose rule), as -b --collective checks it.",
			 clockw_expected(cclv_kind_of(st)));
	} else {
		cclv_step_words(v, buf, size);
	}
	return 1;
}

/* The model's whole time, its closed form and the bandwidths. */
static int cclv_note(const struct view *v, const void *data, char *buf, size_t size)
{
	const struct cclv_state *st = data;
	int n = cclv_n(v);
	double S = 8.0 * (double)st->c.count, t = st->total_s;
	char ts[32], cs[32];
	if (v->failed || v->start_failed)
		return 0;
	if (n == 1) {
		snprintf(buf, size, "one rank: nothing moves, no time (algbw and busbw have no meaning)");
		return 1;
	}
	clockw_time(t, ts, sizeof ts);
	clockw_time(cost_ccl_s(&st->c.hw, cclv_kind_of(st), cclv_algo_of(st), n, S), cs, sizeof cs);
	snprintf(buf, size, "in all %s by the model (closed form %s: %s); algbw = S/t = %.4g GB/s, "
			    "busbw = algbw x %s = %.4g GB/s",
		 ts, clockw_time_formula(cclv_kind_of(st), cclv_algo_of(st)), cs,
		 cost_algbw(S, t) / 1e9, clockw_factor(cclv_kind_of(st)),
		 cost_busbw(cclv_kind_of(st), n, S, t) / 1e9);
	return 1;
}

static int cclv_verify_line(const struct view *v, const void *data, char *buf, size_t size)
{
	const struct cclv_state *st = data;
	size_t bad = 0;
	int first = -1;
	if (v->kind != VIEW_VERIFY)
		return 0;
	for (int r = 0; r < cclv_n(v); r++) {
		bad += st->bad[r];
		if (st->bad[r] && first < 0)
			first = r;
	}
	if (!bad)
		snprintf(buf, size, "verify: every rank's result equals %s (%zu elements, allclose, "
				    "max |err| = %.3g)",
			 clockw_expected(cclv_kind_of(st)), st->checked, st->worst);
	else
		snprintf(buf, size, "verify: MISMATCH, %zu of %zu elements differ, the first on rank %d",
			 bad, st->checked, first);
	return 1;
}

static int cclv_formula(const struct view *v, const void *data, int r, int shortform, char *buf,
		       size_t size)
{
	const struct cclv_state *st = data;
	struct ccl_xfer x;
	char a[16], b[16];
	if (v->stop < 0 || v->kind == VIEW_VERIFY) {
		int c0, c1;
		if (v->stop < 0)
			ccl_input_chunks(cclv_kind_of(st), cclv_n(v), r, &c0, &c1);
		else
			ccl_output_chunks(cclv_kind_of(st), cclv_n(v), r, &c0, &c1);
		cclv_range(c0, c1, a, sizeof a);
		snprintf(buf, size, shortform ? "%s %s" : "%s: %s", v->stop < 0 ? "holds" : "result",
			 a);
		return 1;
	}
	cclv_xfer_at(v, st, v->stop, r, &x);
	cclv_range(x.send_c0, x.send_c1, a, sizeof a);
	cclv_range(x.recv_c0, x.recv_c1, b, sizeof b);
	if (x.send_to < 0 && x.recv_from < 0)
		snprintf(buf, size, "idle");
	else if (shortform)
		snprintf(buf, size, "%s%s%d %s%s", x.send_to >= 0 ? a : "", x.send_to >= 0 ? ">" : "",
			 x.send_to >= 0 ? x.send_to : x.recv_from, x.recv_from >= 0 ? (x.reduce ? "+" : "=") : "",
			 x.recv_from >= 0 ? b : "");
	else if (x.send_to < 0)
		snprintf(buf, size, "%s %s from rank %d", x.reduce ? "adds" : "stores", b, x.recv_from);
	else if (x.recv_from < 0)
		snprintf(buf, size, "sends %s to rank %d", a, x.send_to);
	else
		snprintf(buf, size, "sends %s to %d, %s %s from %d", a, x.send_to,
			 x.reduce ? "adds" : "stores", b, x.recv_from);
	return 1;
}

/* A compact panel's line: every chunk and whose parts it holds. */
static int cclv_panel_lines(const struct view *v, const void *data)
{
	(void)v, (void)data;
	return 1;
}

static int cclv_panel_line(const struct view *v, const void *data, int r, int width, char *buf,
			  size_t size)
{
	const struct cclv_state *st = data;
	int n = cclv_n(v);
	size_t len = 0;
	buf[0] = '\0';
	for (int c = 0; c < n && len < size; c++) {
		char who[160];
		cclv_who(st->mask[r * n + c], n, who, sizeof who);
		len += (size_t)snprintf(buf + len, size - len, "%sc%d:%s", c ? " " : "", c, who);
	}
	for (int form = 1; form < 3 && (int)strlen(buf) > width; form++) {
		/* shorter: "0 1 2+3 3", then "0 1 23 3" where a rank is a digit */
		if (form == 2 && n > 10)
			break;
		len = 0;
		buf[0] = '\0';
		for (int c = 0; c < n && len < size; c++) {
			char who[160], *w = who, *o = who;
			cclv_who(st->mask[r * n + c], n, who, sizeof who);
			for (; form == 2 && *w; w++)
				if (*w != '+')
					*o++ = *w;
			if (form == 2)
				*o = '\0';
			len += (size_t)snprintf(buf + len, size - len, "%s%s", c ? " " : "", who);
		}
	}
	if ((int)strlen(buf) > width) { /* too long: how many parts each holds */
		len = 0;
		for (int c = 0; c < n && len < size; c++)
			len += (size_t)snprintf(buf + len, size - len, "%s%d", c ? " " : "parts ",
						v->snap.ccl_parts ? v->snap.ccl_parts[r * n + c] : 0);
	}
	return 1;
}

static int cclv_panel_title(const struct view *v, const void *data, int r, char *buf, size_t size)
{
	const struct cclv_state *st = data;
	char sz[32];
	(void)r;
	clockw_size(8.0 * (double)st->c.count, sz, sizeof sz);
	snprintf(buf, size, "%s, %d chunks", sz, cclv_n(v));
	return 1;
}

static void cclv_put(struct view_block *b, const char *name, const double *data, size_t ld,
		    size_t rows, size_t cols, const struct view_format *fmt)
{
	memset(b, 0, sizeof *b);
	snprintf(b->name, sizeof b->name, "%s", name);
	b->data = data;
	b->ld = ld;
	b->rows = rows;
	b->cols = cols;
	b->want1 = cols;
	b->fmt = fmt;
	b->shard = -1;
	b->hot_shard = -1;
}

/* Place 0: the buffer now, a chunk a row (even chunks; uneven ones have
 * no rows of one width: their size alone); place 1: whose parts each chunk
 * holds, a row a chunk and a column a rank (1: its part is in); place 2:
 * the rank's input. */
static int cclv_block(const struct view *v, const void *data, int r, int slot,
		     struct view_block *b)
{
	const struct cclv_state *st = data;
	int n = cclv_n(v);
	size_t count = st->c.count, w = count / (size_t)n;
	int even = count % (size_t)n == 0;
	if (!v->snap.dev)
		return 0;
	if (r < 0) {
		if (slot == 1)
			cclv_put(b, "", NULL, 0, (size_t)n, (size_t)n, &st->fpart);
		else
			cclv_put(b, "", NULL, 0, (size_t)n, even ? w : split_max(count, n), &st->fval);
		return 1;
	}
	if (r >= v->snap.n)
		return 0;
	if (slot == 1) {
		const double *row = st->parts + (size_t)r * (size_t)n * (size_t)n;
		cclv_put(b, "parts", row, (size_t)n, (size_t)n, (size_t)n, &st->fpart);
		snprintf(b->label, sizeof b->label, "whose parts: a row a chunk, a column a rank");
		snprintf(b->brief, sizeof b->brief, "parts: chunk x rank");
		return 1;
	}
	const double *buf = slot == 0 ? (v->snap.ccl_buf ? v->snap.ccl_buf + (size_t)r * count : NULL)
				      : v->a->data + (size_t)r * count;
	cclv_put(b, slot == 0 ? "buf" : "input", even ? buf : NULL, w, (size_t)n, even ? w : 0,
		slot == 0 ? &st->fval : &v->fa);
	if (slot == 2) {
		snprintf(b->label, sizeof b->label, "its input, a chunk a row");
		snprintf(b->brief, sizeof b->brief, "input");
	} else if (v->kind == VIEW_VERIFY) {
		snprintf(b->label, sizeof b->label, "buffer, a chunk a row: %s", st->bad[r] ? "differs (!)" : "allclose ok");
		snprintf(b->brief, sizeof b->brief, st->bad[r] ? "buf: differs (!)" : "buf: ok");
	} else {
		struct ccl_xfer x;
		if (v->stop >= 0)
			cclv_xfer_at(v, st, v->stop, r, &x);
		if (v->stop >= 0 && x.recv_from >= 0) {
			char rg[16];
			cclv_range(x.recv_c0, x.recv_c1, rg, sizeof rg);
			snprintf(b->label, sizeof b->label, "buffer, a chunk a row: %s %s rank %d's", rg,
				 x.reduce ? "+=" : "=", x.recv_from);
			b->shard = x.recv_c0;
		} else {
			snprintf(b->label, sizeof b->label, "buffer, a chunk a row");
		}
		snprintf(b->brief, sizeof b->brief, "buffer");
	}
	if (!even) {
		size_t len = strlen(b->label);
		snprintf(b->label + len, sizeof b->label - len, " (uneven chunks: %zu values)", count);
	}
	return 1;
}

/* The memory bar's other figure: none, a collective has no other layout. */
static int cclv_other(const struct view *v, const void *data, int r, struct view_other *o)
{
	(void)v, (void)data, (void)r;
	memset(o, 0, sizeof *o);
	return 1;
}

static int cclv_table(const struct view *v, const void *data)
{
	(void)v, (void)data;
	return VIEW_TABLE_PHASES;
}

static int cclv_links(const struct view *v, const void *data)
{
	(void)data;
	return cclv_n(v) > 1;
}

/* Every pair that ever exchanges a message, sender to receiver, from the
 * schedule: the tree's and rhd's are not the ring's neighbours. */
static int cclv_routes(const struct view *v, const void *data, struct layout_route *out, int max)
{
	const struct cclv_state *st = data;
	int k = 0, n = cclv_n(v);
	for (int p = 0; p < v->phase_count; p++)
		for (int r = 0; r < n; r++) {
			struct ccl_xfer x;
			int seen = 0;
			cclv_xfer_at(v, st, p, r, &x);
			if (x.send_to < 0)
				continue;
			for (int j = 0; j < k && !seen; j++)
				seen = out[j].from == r && out[j].to == x.send_to;
			if (!seen && k < max)
				out[k++] = (struct layout_route){ r, x.send_to };
		}
	return k;
}

static int cclv_token(const struct view *v, const void *data, int r, char *buf, size_t size)
{
	const struct cclv_state *st = data;
	struct ccl_xfer x;
	buf[0] = '\0';
	if (v->stop < 0 || v->stop >= v->phase_count)
		return 1;
	cclv_xfer_at(v, st, v->stop, r, &x);
	if (x.send_to >= 0)
		cclv_range(x.send_c0, x.send_c1, buf, size);
	return 1;
}

/* The table: a column a phase, what each rank sends and receives. */
static int cclv_phase_cell(const struct view *v, const void *data, int p, int r, char *buf,
			  size_t size, int *shard)
{
	const struct cclv_state *st = data;
	struct ccl_xfer x;
	char a[16], b[16];
	*shard = -1;
	if (p < 0) {
		snprintf(buf, size, "%s by %s: what each rank sends > and adds + or stores =",
			 ccl_kind_name(cclv_kind_of(st)), ccl_algo_name(cclv_algo_of(st)));
		return 1;
	}
	if (r < 0) {
		static const char *const tags[] = { "rs", "ag", "cb", "cr", "tr", "tb", "tg", "ts",
						    "h",  "d" };
		int k = view_phase_kind(v, p) - SCHED_CCL_FIRST;
		snprintf(buf, size, "%s%d", k >= 0 && k < CCL_PRIM_COUNT ? tags[k] : "?",
			 view_phase_step(v, p));
		return 1;
	}
	cclv_xfer_at(v, st, p, r, &x);
	cclv_range(x.send_c0, x.send_c1, a, sizeof a);
	cclv_range(x.recv_c0, x.recv_c1, b, sizeof b);
	*shard = x.recv_from >= 0 ? x.recv_c0 : -1;
	if (x.send_to < 0 && x.recv_from < 0)
		snprintf(buf, size, ".");
	else
		snprintf(buf, size, "%s%s%s%s", x.send_to >= 0 ? a : "", x.send_to >= 0 ? ">" : "",
			 x.recv_from >= 0 ? (x.reduce ? "+" : "=") : "", x.recv_from >= 0 ? b : "");
	return 1;
}

static const struct view_refusal cclv_refusals[] = {
	{ ACT_MODE, "a collective is its own run: --collective names it (no FSDP or DP)" },
	{ ACT_TRAIN, "a collective has no training step: it is one of the step's pieces" },
	{ ACT_FEWER, "the buffers are one a rank: -d sets the ranks of a collective" },
	{ ACT_MORE, "the buffers are one a rank: -d sets the ranks of a collective" },
	{ ACT_QUIZ, "the quiz asks about FSDP's and DP's rings, not the collectives yet" },
	{ ACT_CELL, "the worked cell follows a product's rows of C; a collective has none" },
	{ ACT_MEMORY, "c compares DP and FSDP on matrices; a collective's bytes are in its panels" },
	{ ACT_NONE, NULL },
};

static const char *cclv_refuse(const struct view *v, const void *data, int action)
{
	(void)v, (void)data;
	return view_refusal_find(cclv_refusals, action);
}

/* g s: phase s, a collective's steps being its phases. */
static int cclv_goto_stop(const struct view *v, const void *data, int s, int *stop, char *buf,
			 size_t size)
{
	(void)data;
	if (s < v->phase_count) {
		*stop = s;
		return 1;
	}
	*stop = -2;
	snprintf(buf, size, "there is no step %d: the collective's steps are 0 to %d", s,
		 v->phase_count - 1);
	return 1;
}

static void cclv_share(const struct view *v, const void *data, struct view_share *s)
{
	const struct cclv_state *st = data;
	(void)v;
	view_share_word(s, VIEW_SHARE_SETTING, "--collective");
	view_share_word(s, VIEW_SHARE_SETTING, ccl_kind_name(cclv_kind_of(st)));
	view_share_word(s, VIEW_SHARE_SETTING, "--algo");
	view_share_word(s, VIEW_SHARE_SETTING, ccl_algo_name(cclv_algo_of(st)));
	view_share_wordf(s, VIEW_SHARE_SETTING, "--bytes=%zu", 8 * st->c.count);
	view_share_word(s, VIEW_SHARE_SETTING, "--values");
	view_share_word(s, VIEW_SHARE_SETTING, s->o->values == MAT_VALUES_INTS ? "ints" : "floats");
	view_share_wordf(s, VIEW_SHARE_SETTING, "--seed=%llu", (unsigned long long)s->o->seed);
	s->inputs_fixed = 1; /* no matrices: -M -K -N are not its */
}

const struct view_mode mode_ccl = {
	.name = "a collective",
	.layer = 47,
	.tag = NULL,
	.free = cclv_free,
	.configure = cclv_configure,
	.prepare = cclv_prepare,
	.rebuild = cclv_rebuild,
	.verify = cclv_verify_run,
	.derive = cclv_derive,
	.caption = cclv_caption,
	.formula = cclv_formula,
	.verify_line = cclv_verify_line,
	.note = cclv_note,
	.other = cclv_other,
	.panel_lines = cclv_panel_lines,
	.panel_line = cclv_panel_line,
	.table = cclv_table,
	.links = cclv_links,
	.routes = cclv_routes,
	.block = cclv_block,
	.phase_cell = cclv_phase_cell,
	.panel_title = cclv_panel_title,
	.token = cclv_token,
	.refuse = cclv_refuse,
	.goto_stop = cclv_goto_stop,
	.share = cclv_share,
};

int mode_ccl_push(struct view *v, struct dm_err *err)
{
	struct cclv_state *st = calloc(1, sizeof *st);
	size_t n = (size_t)v->cfg.devices;
	if (st) {
		st->c = *v->cfg.ccl;
		st->parts = calloc(n * n * n, sizeof *st->parts);
	}
	if (st && !st->parts) {
		free(st);
		st = NULL;
	}
	if (!st || view_mode_push(v, &mode_ccl, st))
		return dm_err_set(err, DM_ENOMEM, "out of memory for the collective's mode");
	return 0;
}
