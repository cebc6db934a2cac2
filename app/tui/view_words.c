/* view_words: the interface's words that no mode owns (see view.h): the
 * position, a bug's words, warnings, each rank's memory line, the worked
 * cell, and how numbers are written.  Pure formatting of the view's state:
 * no curses, nothing changed.  What a stop means (captions, formulas, the
 * verification) is the modes' (app/tui/modes/, asked through view_mode.c). */
#include "view.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "words/bug_words.h"
#include "words/model_words.h"

const char *view_phase_name(const struct view *v)
{
	if (v->failed)
		return v->fail.code == DM_EDEADLOCK ? "deadlock" : "failed";
	if (v->kind == VIEW_READY)
		return "ready";
	if (v->kind == VIEW_VERIFY)
		return "verify";
	return sched_kind_name(v->kind);
}

void view_position(const struct view *v, int shortform, char *buf, size_t size)
{
	int kind = v->kind, step = v->step, n = v->cfg.devices;
	const char *tail = "";
	if (v->failed && v->fail_phase >= 0 && v->fail_phase < v->phase_count) {
		/* the phase that failed, not the last one that worked */
		kind = view_phase_kind(v, v->fail_phase);
		step = view_phase_step(v, v->fail_phase);
		tail = v->fail.code == DM_EDEADLOCK ? " deadlock" : " failed";
	} else if (v->failed) {
		snprintf(buf, size, "%s", view_phase_name(v));
		return;
	}
	int ring = kind == SCHED_REDUCE_SCATTER || kind == SCHED_ALL_GATHER ||
		   kind == SCHED_CCL_RING_RS || kind == SCHED_CCL_RING_AG;
	int bwd = kind == SCHED_BWD_COMPUTE || kind == SCHED_BWD_TRANSFER;
	/* steps s: FSDP's ring, and a ring over chunks (n - 1 of them) */
	if (kind == VIEW_READY || kind == VIEW_VERIFY || kind == SCHED_GATHER ||
	    kind == SCHED_DB_PARTIAL || kind == SCHED_DISTRIBUTE ||
	    (v->cfg.mode != DM_FSDP && !ring)) {
		snprintf(buf, size, "%s%s", kind == VIEW_READY	  ? "ready"
					    : kind == VIEW_VERIFY ? "verify"
								  : sched_kind_name(kind),
			 tail);
		return;
	}
	/* a ring of dB's chunks has n - 1 steps; the backward's steps are t */
	int steps = ring ? n - 1 : n;
	const char *letter = bwd ? "t" : "s";
	if (shortform)
		snprintf(buf, size, "%s=%d %d/%d %s%s", letter, step, step + 1, steps,
			 sched_kind_name(kind), tail);
	else
		snprintf(buf, size, "step %s=%d (%d of %d)  %s%s", letter, step, step + 1, steps,
			 sched_kind_name(kind), tail);
}

int view_bug_caption(const struct view *v, int bug, char *buf, size_t size)
{
	if (bug == BUG_NONE || !(v->kind == VIEW_READY || v->finished))
		return 0;
	if (!buf)
		return 1;
	/* where the mistake cannot show (r-plus-s on two devices...), say so */
	const char *note = bugw_note(bug, v->snap.n);
	if (note && v->finished)
		snprintf(buf, size, "The run has the bug %s, but %s.", bug_name(bug), note);
	else
		snprintf(buf, size, "%s the run has a bug: spot it from where each rank "
				    "writes%s",
			 v->finished ? "Found it?" : "Spot the bug:",
			 v->finished ? ". The cells marked ! differ from A @ B (--bug list "
				       "tells)."
				     : ", before the verification fails.");
	return 1;
}

/* "ranks 5..7" or "rank 7". */
static void view_range(const char *what, int a, int b, char *buf, size_t size)
{
	if (a == b)
		snprintf(buf, size, "%s %d", what, a);
	else
		snprintf(buf, size, "%ss %d..%d", what, a, b);
}

void view_empty_warning(const struct view *v, char *buf, size_t size)
{
	int n = v->cfg.devices;
	size_t M = v->a->rows, N = view_cols(v);
	char who[48];
	size_t len = 0;
	buf[0] = '\0';
	if (M < (size_t)n) {
		view_range("rank", (int)M, n - 1, who, sizeof who);
		len += (size_t)snprintf(buf, size, "warning: %zu rows of A on %d devices: %s own no rows "
						   "and compute nothing.",
					M, n, who);
	}
	if (v->cfg.mode == DM_FSDP && N < (size_t)n && len < size) {
		view_range("shard", (int)N, n - 1, who, sizeof who);
		snprintf(buf + len, size - len, "%s%s%zu columns of B on %d devices: %s %s empty: a "
						"step that holds one writes no column.",
			 len ? " " : "", len ? "" : "warning: ", N, n, who, n - (int)N == 1 ? "is" : "are");
	}
}

void view_mem_text(const struct view *v, int r, int width, char *buf, size_t size)
{
	char held[24], other[24];
	const char *name = v->cfg.mode == DM_FSDP ? "DP" : "FSDP";
	int with_c = r == 0 && v->stop >= v->phase_count - 1;
	struct view_other o;
	view_bytes(v->snap.dev[r].peak_bytes, held, sizeof held);
	if (!v->b) { /* a collective: no other layout of a product to hold it to */
		snprintf(buf, size, "%s", held);
		return;
	}
	view_mode_other(v, r, &o);
	view_bytes(o.bytes, other, sizeof other);
	for (int form = 0; form < 4; form++) {
		if (form == 0 && with_c)
			snprintf(buf, size, "%s vs %s %s, both with %s", held, name, other, o.with);
		else if (form == 0 && o.by[0])
			snprintf(buf, size, "%s vs %s %s by %s", held, name, other, o.by);
		else if (form <= 1)
			snprintf(buf, size, "%s vs %s %s", held, name, other);
		else if (form == 2)
			snprintf(buf, size, "%s, %s %s", held, name, other);
		else
			snprintf(buf, size, "%s", held);
		if ((int)strlen(buf) <= width)
			return;
	}
}

/* A value in parentheses when negative, so that a sum of terms reads. */
static void view_term(const struct view_format *f, double x, char *buf, size_t size)
{
	char t[32];
	view_value(f, x, f->ideal_w, t, sizeof t);
	if (x < 0)
		snprintf(buf, size, "(%s)", t);
	else
		snprintf(buf, size, "%s", t);
}

double view_cell_value(const struct view *v)
{
	double s = 0;
	size_t K = v->a->cols;
	for (size_t k = 0; k < K; k++)
		s += MAT_AT(v->a, v->cell_i, k) * MAT_AT(v->b, k, v->cell_j);
	return s;
}

void view_cell_text(const struct view *v, char *buf, size_t size)
{
	size_t i = v->cell_i, j = v->cell_j, K = v->a->cols, len = 0;
	int n = v->cfg.devices, r = split_part_of(v->a->rows, n, i);
	const char *dot = v->utf8 ? "\xc2\xb7" : ".";
	char term[96], a[40], b[40];
	if (size < 64) {
		buf[0] = '\0';
		return;
	}
	len = (size_t)snprintf(buf, size, "C[%zu,%zu] = A[%zu,:] %s B[:,%zu] = ", i, j, i, dot, j);
	/* the tail is kept room for: the sum and who computes it */
	size_t budget = size > 200 ? size - 160 : size / 2;
	for (size_t k = 0; k < K; k++) {
		view_term(&v->fa, MAT_AT(v->a, i, k), a, sizeof a);
		view_term(&v->fb, MAT_AT(v->b, k, j), b, sizeof b);
		snprintf(term, sizeof term, "%s%s*%s", k ? " + " : "", a, b);
		if (len + strlen(term) > budget && k + 1 < K) {
			len += (size_t)snprintf(buf + len, size - len, " + ... (%zu terms in all)", K);
			break;
		}
		len += (size_t)snprintf(buf + len, size - len, "%s", term);
		if (len >= size)
			return;
	}
	char sum[40];
	double s = view_cell_value(v);
	if (v->fc.ints && fabs(s) < 1e15)
		snprintf(sum, sizeof sum, "%.0f", s);
	else
		snprintf(sum, sizeof sum, "%.6g", s);
	if (v->cfg.mode == DM_DP)
		len += (size_t)snprintf(buf + len, size - len, " = %s. Rank %d computes it, with its own "
							       "copy of B, at the compute.",
					sum, r);
	else if (view_hides_all(v)) {
		/* the step would be the rule's answer, solved for s */
		len += (size_t)snprintf(buf + len, size - len, " = %s. Rank %d computes it at the step "
							       "when the shard with column %zu reaches it: "
							       "which step?",
					sum, r, j);
	} else {
		int k = split_part_of(v->b->cols, n, j), s_at = split_mod((long)r - k, n);
		len += (size_t)snprintf(buf + len, size - len, " = %s. Rank %d computes it at step s=%d, "
							       "when shard B[%d] arrives: (%d - %d) mod %d = %d.",
					sum, r, s_at, k, r, s_at, n, k);
	}
	if (len < size && v->snap.c && v->stop >= 0 &&
	    v->snap.col_fill[(size_t)r * v->snap.N + j] != RUN_FILL_NONE) {
		double got = v->snap.c[i * v->snap.N + j];
		if (got != s && !(isnan(got) && isnan(s))) {
			view_value(&v->fc, got, v->fc.ideal_w, sum, sizeof sum);
			snprintf(buf + len, size - len, " The run wrote %s there%s.", sum,
				 view_cell_wrong(v, i, j) ? ": wrong" : " (rounding)");
		}
	}
}

int view_cell_wrong(const struct view *v, size_t row, size_t col)
{
	int wrong;
	if (view_mode_wrong(v, row, col, &wrong))
		return wrong;
	if (!v->finished || v->verdict == VIEW_OK || !v->snap.c || row >= v->ref.rows ||
	    col >= v->ref.cols)
		return 0;
	return !mat_close(v->snap.c[row * v->snap.N + col], MAT_AT(&v->ref, row, col));
}

void view_bytes(uint64_t bytes, char *buf, size_t size)
{
	modelw_bytes(bytes, buf, size); /* the lessons' {B} writes bytes the same way */
}

void view_value(const struct view_format *f, double x, int width, char *buf, size_t size)
{
	if (isnan(x)) {
		snprintf(buf, size, "nan");
		return;
	}
	if (isinf(x)) {
		snprintf(buf, size, x < 0 ? "-inf" : "inf");
		return;
	}
	if (f->ints && fabs(x) < 1e15 && x == floor(x)) {
		snprintf(buf, size, "%.0f", x);
		return;
	}
	/* the most decimals that fit, down to none */
	for (int p = f->prec_ideal > 0 ? f->prec_ideal : 2; p >= 0; p--) {
		if (f->sci || fabs(x) >= 1e5)
			snprintf(buf, size, "%.*e", p, x);
		else
			snprintf(buf, size, "%.*f", p, x);
		if ((int)strlen(buf) <= width)
			return;
	}
	snprintf(buf, size, "%.0e", x);
}

int view_table_shard(const struct view *v, int r, int s)
{
	if (v->cfg.mode != DM_FSDP || r < 0 || s < 0 || s >= v->cfg.devices)
		return -1;
	return sched_shard(v->cfg.devices, r, s);
}

int view_train_backward(const struct view *v)
{
	/* the backward's kinds are in a training step's schedule only (a
	 * collective's come after them) */
	return v->kind >= SCHED_BWD_COMPUTE && v->kind <= SCHED_ALL_GATHER;
}

int view_train_chunk_fill(const struct view *v, int r, int c)
{
	const struct run_snapshot *s = &v->snap;
	if (!s->db_fill || c < 0 || c >= s->n || split_size(s->N, s->n, c) == 0)
		return -1;
	return s->db_fill[(size_t)r * s->N + split_offset(s->N, s->n, c)];
}

/* Whether s[i] starts the word "press" (either case) in s. */
static int view_is_press(const char *s, size_t i)
{
	return (s[i] == 'P' || s[i] == 'p') && strncmp(s + i + 1, "ress ", 5) == 0 &&
	       (i == 0 || s[i - 1] == ' ');
}

/* Where the sentence that s[i] is in ends: its full stop, or the end. */
static size_t view_sentence_end(const char *s, size_t i)
{
	for (; s[i]; i++)
		if (s[i] == '.' && (s[i + 1] == ' ' || s[i + 1] == '\0'))
			return i;
	return i;
}

void view_words_unkeyed(char *s)
{
	char *next = strstr(s, "Next (n): ");
	if (next)
		memmove(next + 4, next + 8, strlen(next + 8) + 1);
	for (size_t i = 0; s[i];) {
		if (!view_is_press(s, i)) {
			i++;
			continue;
		}
		size_t end = view_sentence_end(s, i), from = i;
		int starts = i == 0 || (i >= 2 && s[i - 2] == '.');
		if (starts) {
			/* the whole sentence, and the space after it (or before it, at the end) */
			end = s[end] ? end + 1 : end;
			while (s[end] == ' ')
				end++;
			if (!s[end] && from > 0)
				from--;
		} else {
			/* the clause, from its comma, up to the full stop */
			size_t c = i;
			while (c > 0 && s[c] != ',' && !(s[c] == '.' && s[c + 1] == ' '))
				c--;
			from = s[c] == ',' ? c : i - 1;
		}
		memmove(s + from, s + end, strlen(s + end) + 1);
		i = from;
	}
}
