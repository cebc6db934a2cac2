/* decide: one run's verdict (see decide.h): the order of the checks, the
 * result's shape, payloads and inputs changed in place, the ring's
 * structure when the numbers are right, messages left, and the notes of a
 * pass.  A run that did not return a result is stuck.c's; a wrong result's
 * words are wrong.c's. */
#include "judge/decide.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/plan.h>
#include <distmm/replay.h>
#include <distmm/run.h>
#include <distmm/schedule.h>
#include <distmm/split.h>

#include "cli/status.h"
#include "judge/evbuild.h"

void decide_note(struct decide_out *o, const char *fmt, ...)
{
	char line[DECIDE_HEAD];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	char **d = realloc(o->notes, (o->n_notes + 1) * sizeof *d);
	if (!d || !(d[o->n_notes] = strdup(line))) {
		o->notes = d ? d : o->notes;
		o->oom = 1;
		return;
	}
	o->notes = d;
	o->n_notes++;
}

void decide_head(struct decide_out *o, int verdict, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(o->head, sizeof o->head, fmt, ap);
	va_end(ap);
	o->verdict = verdict;
}

void decide_esc(char *out, size_t size, const char *s, size_t max)
{
	char cut[4096];
	size_t len = strlen(s ? s : "");
	if (max > sizeof cut - 4)
		max = sizeof cut - 4;
	snprintf(cut, sizeof cut, "%.*s%s", (int)(len > max ? max - 3 : len), s ? s : "",
		 len > max ? "..." : "");
	status_escape(cut, out, size);
}

void decide_thread(const struct rec_run *r, int tid, char *buf, size_t size)
{
	int rank = rec_rank(r, tid);
	if (tid >= 0 && (size_t)tid < r->n_th && r->th[tid].caller) {
		snprintf(buf, size, "the caller");
	} else if (rank >= 0) {
		snprintf(buf, size, "rank %d's thread", rank);
	} else {
		char name[128];
		decide_esc(name, sizeof name, tid >= 0 && (size_t)tid < r->n_th ? r->th[tid].name : "?",
			   60);
		snprintf(buf, size, "thread %s", name);
	}
}

void decide_where(const char *path, const struct rec_where *w, char *buf, size_t size)
{
	char func[160], src[400], shown[1024];
	buf[0] = '\0';
	if (w->line <= 0)
		return;
	decide_esc(func, sizeof func, w->func, 60);
	decide_esc(src, sizeof src, w->src, 120);
	decide_esc(shown, sizeof shown, path, 400);
	snprintf(buf, size, " at %s:%ld in %s()%s%s%s", shown, w->line, func, *src ? ": `" : "", src,
		 *src ? "`" : "");
}

/* ---- the result's shape ---------------------------------------------------- */

/* The rows of the ranks present in a k x N result that is fewer rows than
 * C, and the ranks missing, in words; 0 when its rows are not whole
 * blocks of ranks. */
static int decide_rows(const struct decide_in *in, const struct mat *x, char *have, size_t hs,
		       char *missing, size_t ms, int *only)
{
	const struct content *ct = in->ct;
	int n = ct->n, nhave = 0, nmiss = 0;
	long *map = malloc((x->rows ? x->rows : 1) * sizeof *map);
	char *present = calloc((size_t)n, 1);
	if (!map || !present || content_row_map(ct, x, map)) {
		free(map);
		free(present);
		return 0;
	}
	int ok = 1;
	for (size_t p = 0; p < x->rows && ok; p++)
		ok = map[p] >= 0;
	for (int r = 0; r < n && ok; r++) {
		size_t b = split_offset(ct->M, n, r), e = b + split_size(ct->M, n, r), got = 0;
		for (size_t p = 0; p < x->rows; p++)
			got += (size_t)map[p] >= b && (size_t)map[p] < e;
		present[r] = e > b && got == e - b;
		ok = got == 0 || got == e - b;
	}
	size_t hl = 0, ml = 0;
	have[0] = missing[0] = '\0';
	for (int r = 0; r < n && ok; r++) {
		size_t b = split_offset(ct->M, n, r), e = b + split_size(ct->M, n, r);
		if (e == b)
			continue;
		if (present[r] && hl < hs - 40) {
			hl += (size_t)snprintf(have + hl, hs - hl, "%s%d", nhave ? ", " : "", r);
			*only = r;
			nhave++;
		} else if (!present[r] && ml < ms - 60) {
			ml += (size_t)snprintf(missing + ml, ms - ml, "%srank %d's C[%zu:%zu]",
					       nmiss ? ", " : "", r, b, e);
			nmiss++;
		}
	}
	free(map);
	free(present);
	if (nhave != 1)
		*only = -1;
	return ok && nmiss > 0;
}

void decide_shape(struct decide_out *o, const struct decide_in *in)
{
	const struct rec_run *r = in->run;
	const struct content *ct = in->ct;
	char want[64], kind[160], words[256], have[256], missing[512];
	int dp = in->c->mode == DM_DP, only = -1;
	snprintf(want, sizeof want, "C = A @ B is %zux%zu", ct->M, ct->N);
	decide_esc(kind, sizeof kind, r->ret_type ? r->ret_type : "?", 60);
	o->verdict = JUDGE_WRONG_SHAPE;
	if (!r->has_ret || r->ret_kind == REC_RET_NONE) {
		if (dp)
			decide_head(o, JUDGE_WRONG_SHAPE, "returned None: rank 0 never assembled C (the "
				    "gather to rank 0 is missing: it must receive every rank's rows and "
				    "stack them, and result[0] must be set)");
		else
			decide_head(o, JUDGE_WRONG_SHAPE, "returned None; %s", want);
		return;
	}
	const struct rec_arr *x = &r->ret;
	if (r->ret_kind != REC_RET_ARRAY) {
		if (r->ret_kind == REC_RET_SEQ && r->ret_allarr)
			decide_head(o, JUDGE_WRONG_SHAPE, "returned a %s of %ld arrays, not one array: "
				    "stack them (np.vstack)", kind, r->ret_items);
		else if (r->has_ret_arr && x->ndim == 2 && x->dim[0] == ct->M && x->dim[1] == ct->N)
			decide_head(o, JUDGE_WRONG_SHAPE, "returned a %s, not a numpy array (%s)", kind,
				    want);
		else
			decide_head(o, JUDGE_WRONG_SHAPE, "returned a %s; %s", kind, want);
		return;
	}
	char shape[64] = "";
	for (int d = 0; d < x->ndim && d < 4; d++) {
		size_t l = strlen(shape);
		snprintf(shape + l, sizeof shape - l, "%s%llu", d ? "x" : "",
			 (unsigned long long)x->dim[d]);
	}
	if (x->ndim == 2 && x->dim[0] == ct->M && x->dim[1] == ct->N && !x->has_data) {
		decide_esc(kind, sizeof kind, x->dtype, 15);
		decide_head(o, JUDGE_WRONG_SHAPE, "returned a %s array of dtype %s, not numbers", shape,
			    kind);
		return;
	}
	struct content_label l;
	content_identify(ct, x, &l);
	if (l.kind == CT_C) {
		size_t b = split_offset(ct->M, ct->n, l.i), e = b + split_size(ct->M, ct->n, l.i);
		if (l.i == 0)
			decide_head(o, JUDGE_WRONG_SHAPE, "returned only rank 0's rows (%s = C[%zu:%zu]); %s: "
				    "the gather to rank 0 is missing", shape, b, e, want);
		else
			decide_head(o, JUDGE_WRONG_SHAPE, "returned only rank %d's rows (%s = C[%zu:%zu]); "
				    "%s: rank 0's own rows (C[0:%zu]) are missing: it stacked what it "
				    "received, not its own block", l.i, shape, b, e, want,
				    split_size(ct->M, ct->n, 0));
		return;
	}
	if (l.kind == CT_B || l.kind == CT_P || l.kind == CT_CPART || l.kind == CT_A ||
	    l.kind == CT_B_ALL) {
		content_words(ct, &l, -1, words, sizeof words);
		decide_head(o, JUDGE_WRONG_SHAPE, "returned %s (%s); %s", words, shape, want);
		return;
	}
	if (x->has_data && x->dim[1] == ct->N && x->dim[0] < ct->M &&
	    decide_rows(in, &x->m, have, sizeof have, missing, sizeof missing, &only)) {
		if (strcmp(missing, "rank 0's C[0:") == 0 || strncmp(missing, "rank 0's C[", 11) == 0)
			decide_head(o, JUDGE_WRONG_SHAPE, "returned %s, the rows of ranks %s; %s: rank 0's "
				    "own rows (%s) are missing: it stacked what it received, not its own "
				    "block", shape, have, want, missing + 9);
		else
			decide_head(o, JUDGE_WRONG_SHAPE, "returned %s, the rows of ranks %s; %s: missing "
				    "%s", shape, have, want, missing);
		return;
	}
	decide_head(o, JUDGE_WRONG_SHAPE, "returned a %s array; %s", shape, want);
}

/* ---- changed in place -------------------------------------------------- */

/* " at the transfer after step s" when m is rank src's s-th transfer. */
static void decide_step(const struct facts *f, const struct facts_msg *m, char *buf, size_t size)
{
	buf[0] = '\0';
	if (m->kind != FK_TRANSFER || m->src < 0 || m->src >= f->n)
		return;
	for (size_t s = 0; s < f->sends[m->src].n; s++)
		if (f->sends[m->src].ix[s] == m->id)
			snprintf(buf, size, " at the transfer after step %zu", s);
}

/* What changed in an input: "rows 0:4, columns 2:3 differ from what was
 * passed", "its shape changed"; "" when nothing did. */
static void decide_input(const struct rec_arr *x, const struct mat *want, char *buf, size_t size)
{
	buf[0] = '\0';
	if (x->ndim != 2 || x->dim[0] != want->rows || x->dim[1] != want->cols || !x->has_data) {
		snprintf(buf, size, "its shape changed");
		return;
	}
	size_t r0 = SIZE_MAX, r1 = 0, c0 = SIZE_MAX, c1 = 0;
	for (size_t i = 0; i < want->rows; i++)
		for (size_t j = 0; j < want->cols; j++) {
			double a = MAT_AT(&x->m, i, j), b = MAT_AT(want, i, j);
			if (a == b || (a != a && b != b))
				continue;
			r0 = i < r0 ? i : r0;
			r1 = i + 1 > r1 ? i + 1 : r1;
			c0 = j < c0 ? j : c0;
			c1 = j + 1 > c1 ? j + 1 : c1;
		}
	if (r1)
		snprintf(buf, size, "rows %zu:%zu, columns %zu:%zu differ from what was passed", r0, r1,
			 c0, c1);
}

/* The first change in place, as the headline (into o when none was given
 * yet); returns whether there was one. */
int decide_mutation(struct decide_out *o, const struct decide_in *in, const struct facts *f)
{
	char what[256], then[256], step[64], region[128];
	for (size_t i = 0; i < f->n_msg; i++) {
		const struct facts_msg *m = &f->msg[i];
		if (!m->mutated && !m->late)
			continue;
		content_words(in->ct, &m->label, m->owner, what, sizeof what);
		decide_step(f, m, step, sizeof step);
		if (m->mutated) {
			content_words(in->ct, &m->rlabel, -1, then, sizeof then);
			decide_head(o, JUDGE_MUTATED_PAYLOAD, "rank %d sent %s to rank %d%s, then changed "
				    "that array before rank %d received it (it then held %s): a queue "
				    "passes a reference, so send a copy or a new array, and do not reuse "
				    "the buffer", m->src, what, m->dst, step, m->dst, then);
		} else {
			content_words(in->ct, &m->elabel, -1, then, sizeof then);
			decide_head(o, JUDGE_MUTATED_PAYLOAD, "rank %d sent %s to rank %d%s, and that array "
				    "changed after it was sent (it ended as %s): the receiver holds the "
				    "very array the sender went on to reuse (a queue passes a reference); "
				    "send a copy or a new array", m->src, what, m->dst, step, then);
		}
		o->first_wrong = (long)i;  /* a message: its send event, made an index later */
		return 1;
	}
	const struct rec_run *r = in->run;
	for (int k = 0; k < 2; k++) {
		const struct mat *want = k ? in->ct->b : in->ct->a;
		if (!r->has_inp[k])
			continue;
		decide_input(&r->inp[k], want, region, sizeof region);
		if (!region[0])
			continue;
		decide_head(o, JUDGE_MUTATED_INPUT, "%s was changed in place (%s): np.array_split gives "
			    "views, so writing into a chunk or a shard writes into %s; receive into a "
			    "new array", k ? "B" : "A", region, k ? "B" : "A");
		o->first_wrong = -1;
		return 1;
	}
	return 0;
}

/* ---- the ring, when the numbers are right -------------------------------- */

static int decide_ring(struct decide_out *o, const struct facts *f)
{
	int n = f->n, any = 0;
	for (size_t i = 0; i < f->n_msg; i++) {
		const struct facts_msg *m = &f->msg[i];
		if (m->kind != FK_TRANSFER)
			continue;
		any = 1;
		if (m->label.kind == CT_B_ALL) {
			decide_head(o, JUDGE_NOT_A_RING, "not a ring: rank %d sent all of B to rank %d (FSDP "
				    "moves one shard a step)", m->src, m->dst);
			return 1;
		}
	}
	if (!any) {
		decide_head(o, JUDGE_NOT_A_RING, "not a ring: no rank sent a shard of B, so every rank "
			    "used all of B (FSDP holds one shard at a time and passes it round the ring)");
		return 1;
	}
	int *succ = malloc((size_t)n * sizeof *succ);
	if (!succ) {
		o->oom = 1;
		return 0;
	}
	for (int r = 0; r < n; r++) {
		char peers[256] = "";
		size_t len = 0, np = 0;
		succ[r] = -1;
		for (size_t i = 0; i < f->sends[r].n; i++) {
			int dst = facts_at(f, &f->sends[r], i)->dst, seen = 0;
			for (size_t k = 0; k < i; k++)
				seen |= facts_at(f, &f->sends[r], k)->dst == dst;
			if (seen || dst < 0)
				continue;
			if (len < sizeof peers - 16)
				len += (size_t)snprintf(peers + len, sizeof peers - len, "%s%d",
							np ? ", " : "", dst);
			np++;
			succ[r] = dst;
		}
		if (np > 1) {
			decide_head(o, JUDGE_NOT_A_RING, "not a ring: rank %d sent shards to ranks %s (in a "
				    "ring each rank passes to one neighbour)", r, peers);
			free(succ);
			return 1;
		}
		if (f->recvs[r].n + 1 < (size_t)n) {
			decide_head(o, JUDGE_NOT_A_RING, "not a ring: rank %d received %zu of the n - 1 = %d "
				    "shards and took the others from B directly", r, f->recvs[r].n, n - 1);
			free(succ);
			return 1;
		}
	}
	char path[512] = "";
	size_t len = 0;
	int r = 0, steps = 0;
	char *seen = calloc((size_t)n, 1);
	while (seen && r >= 0 && r < n && !seen[r] && len < sizeof path - 16) {
		seen[r] = 1;
		len += (size_t)snprintf(path + len, sizeof path - len, "%d -> ", r);
		r = succ[r];
		steps++;
	}
	free(seen);
	free(succ);
	if (steps != n || r != 0) {
		decide_head(o, JUDGE_NOT_A_RING, "not a ring: the shards go round %s%d, not through all "
			    "%d ranks", path, r, n);
		return 1;
	}
	return 0;
}

/* Messages sent and never received, in the order of the queues. */
int decide_left(struct decide_out *o, const struct decide_in *in, const struct facts *f)
{
	size_t left = 0, said = 0;
	char what[256], first[600] = "";
	for (int q = 0, more = 1; more; q++) {
		more = 0;
		for (size_t i = 0; i < f->n_msg; i++) {
			const struct rec_msg *m = f->msg[i].m;
			more |= m->qid > q;
			if (m->qid != q || m->received || m->sent != 1 || f->msg[i].kind == FK_OTHER)
				continue;
			left++;
			int owner = m->qidx >= 0 ? m->qidx : m->dst;
			content_words(in->ct, &f->msg[i].label, f->msg[i].owner, what, sizeof what);
			char line[600];
			snprintf(line, sizeof line, "rank %d's inbox still holds %s from rank %d", owner, what,
				 m->src);
			if (!first[0])
				memcpy(first, line, sizeof first);
			else if (said++ < 3)
				decide_note(o, "%s", line);
		}
	}
	if (!left)
		return 0;
	decide_head(o, JUDGE_LEFT_MESSAGES, "the result is right, but %zu message%s sent never "
		    "received: %s (an extra send at the end?)", left, left == 1 ? " was" : "s were",
		    first);
	return 1;
}

/* Whether every rank kept all of B as a local of its function (an
 * all-gather, then one product). */
static int decide_held_all(const struct decide_in *in, const struct facts *f)
{
	const struct rec_run *r = in->run;
	int ranks = 0;
	for (int k = 0; k < f->n; k++) {
		int held = 0;
		for (size_t i = 0; i < r->n_held; i++) {
			struct content_label l;
			content_identify(in->ct, &r->held[i], &l);
			held |= rec_rank(r, r->held_tid[i]) == k && l.kind == CT_B_ALL;
		}
		ranks += held;
	}
	return f->n > 1 && ranks == f->n;
}

static void decide_pass(struct decide_out *o, const struct decide_in *in, const struct facts *f)
{
	int n = f->n;
	decide_head(o, JUDGE_PASS, "pass");
	if (f->mode != DM_FSDP || n < 2)
		return;
	int left = n > 2;
	size_t most = 0;
	for (int r = 0; r < n; r++) {
		left &= f->sends[r].n && facts_at(f, &f->sends[r], 0)->dst == sched_left(n, r);
		most = f->sends[r].n > most ? f->sends[r].n : most;
	}
	if (left)
		decide_note(o, "the shards travel left, to (r - 1) mod n, and every rank places each by "
			    "what it holds: correct; the exercise passes them right");
	if (most + 1 > (size_t)n)
		decide_note(o, "each rank made %zu transfers; the ring needs n - 1 = %d", most, n - 1);
	if ((o->held_all_b = decide_held_all(in, f)))
		decide_note(o, "every rank held all of B at once (it gathered every shard, then "
			    "multiplied once): the result is right, but FSDP's point is that a rank "
			    "holds one shard, 1/n of B, at a time: multiply by each shard as it comes, "
			    "then pass it on");
}

/* The log, its first wrong event by the engine's rules, and the trace. */
static int decide_log(const struct decide_in *in, const struct facts *f, struct evbuild *b,
		      struct replay_wrong *w, struct dm_err *err)
{
	const struct judge_case *c = in->c;
	int rc = evbuild_make(b, f, err);
	if (rc)
		return rc;
	int over = in->run->ended && in->run->outcome == REC_RETURNED && !in->run->n_exc;
	struct dm_plan *p;
	if ((rc = plan_make(&p, (enum dm_mode)c->mode, c->n, DM_FORWARD, err)))
		return rc;
	rc = replay_first_wrong(p, b->ev, b->n_ev, c->M, c->K, c->N, over, w, err);
	plan_free(p);
	if (rc == DM_EINVAL) {   /* shapes the engine's rules refuse: no event named */
		w->event = -1;
		w->why[0] = '\0';
		rc = 0;
	}
	return rc;
}

int decide_run(struct decide_out *o, const struct decide_in *in, struct dm_err *err)
{
	struct facts f;
	struct evbuild b;
	struct replay_wrong w = { -1, -1, "" };
	memset(o, 0, sizeof *o);
	memset(&b, 0, sizeof b);
	o->first_wrong = -1;
	if (in->parse_error[0]) {
		char why[1024];
		decide_esc(why, sizeof why, in->parse_error, 300);
		decide_head(o, JUDGE_ERROR, "the run's records could not be read (%s): %s", in->status,
			    why);
		return 0;
	}
	const struct judge_case *c = in->c;
	int rc = facts_build(&f, in->run, in->ct, c->mode, c->n, c->seed ^ 0xf4e1a1d5ULL, err);
	if (!rc && judge_mode_tp(c->mode)) {
		/* no event log: the engine's rules and replay know FSDP and DP alone */
		if (!stuck_decide(o, in, &f))
			rc = decide_tp(o, in, &f, err);
		else
			decide_tp_stuck(o, in);
		facts_free(&f);
		return rc ? rc : o->oom ? dm_err_set(err, DM_ENOMEM, "out of memory judging the run")
				     : 0;
	}
	if (!rc)
		rc = decide_log(in, &f, &b, &w, err);
	if (rc) {
		facts_free(&f);
		evbuild_free(&b);
		return rc;
	}
	int mut = 0;
	if (!stuck_decide(o, in, &f)) {
		if (!f.R) {
			decide_shape(o, in);
			o->first_wrong = w.event;
		} else if (!f.ok) {
			struct decide_out m = { .first_wrong = -1 };
			if ((mut = decide_mutation(&m, in, &f))) {
				wrong_decide(o, in, &f, &b, w.event, w.why);
				decide_note(&m, "the result: %s", o->head);
				decide_out_free(o);
				*o = m;
			} else {
				wrong_decide(o, in, &f, &b, w.event, w.why);
			}
		} else if ((mut = decide_mutation(o, in, &f))) {
		} else if ((c->mode == DM_FSDP && c->n > 1 && decide_ring(o, &f)) ||
			   decide_left(o, in, &f)) {
			o->first_wrong = w.event;
		} else {
			decide_pass(o, in, &f);
		}
	}
	/* a changed payload points at its send */
	if (mut && o->verdict == JUDGE_MUTATED_PAYLOAD)
		o->first_wrong = evbuild_find(&b, KEY_SEND_MSG, o->first_wrong, 0);
	evbuild_take(&b, &o->trace.ev, &o->trace.n_ev, &o->trace.sum);
	o->trace.n = c->n;
	o->trace.mode = c->mode;
	o->has_trace = 1;
	evbuild_free(&b);
	facts_free(&f);
	return o->oom ? dm_err_set(err, DM_ENOMEM, "out of memory judging the run") : 0;
}

void decide_out_free(struct decide_out *o)
{
	for (size_t i = 0; i < o->n_notes; i++)
		free(o->notes[i]);
	free(o->notes);
	free(o->waits);
	if (o->has_trace)
		trace_free(&o->trace);
	memset(o, 0, sizeof *o);
}
