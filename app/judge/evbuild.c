/* evbuild: the event log of a candidate's run (see evbuild.h). */
#include "judge/evbuild.h"

#include <stdlib.h>
#include <string.h>

#include <distmm/plan.h>
#include <distmm/run.h>
#include <distmm/schedule.h>
#include <distmm/split.h>

#define EVB_US 1000u   /* a clock tick, written as a microsecond */

struct evb {
	struct evbuild *b;
	const struct facts *f;
	struct dm_plan *plan; /* the run's schedule: a step's phases */
	int n, last;       /* devices; the gather's phase */
	size_t M, K, N;
	int *seq;          /* per event: the order it was made in (a stable sort) */
	int failed;
};

static size_t evb_r0(const struct evb *x, int r)
{
	return split_offset(x->M, x->n, r);
}

static size_t evb_r1(const struct evb *x, int r)
{
	return split_offset(x->M, x->n, r) + split_size(x->M, x->n, r);
}

static size_t evb_c0(const struct evb *x, int k)
{
	return split_offset(x->N, x->n, k);
}

static size_t evb_c1(const struct evb *x, int k)
{
	return split_offset(x->N, x->n, k) + split_size(x->N, x->n, k);
}

static uint64_t evb_time(long t)
{
	return t > 0 ? (uint64_t)t * EVB_US : 0;
}

/* Appends an event; its keys and message after. */
static struct ev *evb_push(struct evb *x, int phase, int op, int rank, int peer, int shard,
			   size_t r0, size_t r1, size_t c0, size_t c1, uint64_t bytes, long t0,
			   long t1, int kind, long a, long c)
{
	struct evbuild *b = x->b;
	if (x->failed)
		return NULL;
	if (b->n_ev == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 64;
		struct ev *e = realloc(b->ev, cap * sizeof *e);
		if (e)
			b->ev = e;
		void *k = realloc(b->keys, cap * sizeof *b->keys);
		if (k)
			b->keys = k;
		long *m = realloc(b->msg, cap * sizeof *m);
		if (m)
			b->msg = m;
		int *s = realloc(x->seq, cap * sizeof *s);
		if (s)
			x->seq = s;
		if (!e || !k || !m || !s) {
			x->failed = 1;
			return NULL;
		}
		b->cap = cap;
	}
	size_t i = b->n_ev++;
	struct ev *e = &b->ev[i];
	memset(e, 0, sizeof *e);
	e->phase = phase;
	e->step = sched_phase_step(x->plan, phase);
	e->op = op;
	e->rank = rank;
	e->peer = peer;
	e->shard = shard;
	e->row_begin = (uint32_t)r0;
	e->row_end = (uint32_t)r1;
	e->col_begin = (uint32_t)c0;
	e->col_end = (uint32_t)c1;
	e->bytes = bytes;
	e->t_begin_ns = evb_time(t0);
	e->t_end_ns = evb_time(t1 > t0 ? t1 : t0);
	b->keys[i][0] = (struct evbuild_key){ kind, a, c };
	b->keys[i][1] = (struct evbuild_key){ KEY_NONE, 0, 0 };
	b->msg[i] = -1;
	x->seq[i] = (int)i;
	return e;
}

static void evb_msg_key(struct evb *x, int kind, long id)
{
	if (x->failed)
		return;
	size_t i = x->b->n_ev - 1;
	x->b->keys[i][1] = (struct evbuild_key){ kind, id, 0 };
	x->b->msg[i] = id;
}

/* FSDP: each rank's computes (the shard it held, where its product went)
 * and its transfers. */
static void evb_fsdp(struct evb *x)
{
	const struct facts *f = x->f;
	int n = x->n;
	struct facts_write *w = malloc((x->N ? x->N : 1) * sizeof *w);
	if (!w) {
		x->failed = 1;
		return;
	}
	for (int r = 0; r < n; r++) {
		int reached = facts_steps_reached(f, r), steps = f->complete ? n : reached;
		if (steps > n)
			steps = n;
		const struct facts_list *q = &f->recvs[r], *s = &f->sends[r];
		for (int st = 0; st < steps; st++) {
			int k = facts_held_at(f, r, st);
			if (k < 0)
				k = split_mod((long)r - st, n);
			size_t m = facts_placed_at(f, r, st, k, w), c0 = x->N, c1 = 0;
			int cut = 0;
			for (size_t i = 0; i < m; i++) {
				c0 = w[i].col < c0 ? w[i].col : c0;
				c1 = w[i].col + 1 > c1 ? w[i].col + 1 : c1;
				cut |= w[i].cut;
			}
			if (!m) {
				c0 = evb_c0(x, k);
				c1 = f->R ? c0 : evb_c1(x, k);
			}
			long t0 = st > 0 && (size_t)st <= q->n ? facts_at(f, q, (size_t)st - 1)->m->t_recv1 : 0;
			long t1 = (size_t)st < s->n ? facts_at(f, s, (size_t)st)->m->t_send : t0;
			struct ev *e = evb_push(x, 2 * st, EV_COMPUTE, r, -1, k, evb_r0(x, r), evb_r1(x, r),
						c0, c1, (evb_r1(x, r) - evb_r0(x, r)) * (c1 - c0) * 8,
						t0, t1, KEY_COMPUTE, r, st);
			if (e && cut)
				e->flags |= EV_FLAG_TRUNCATED;
		}
		for (int op = EV_SEND; op <= EV_RECV; op++) {
			const struct facts_list *l = op == EV_SEND ? s : q;
			for (size_t i = 0; i < l->n; i++) {
				const struct facts_msg *m = facts_at(f, l, i);
				int peer = op == EV_SEND ? m->dst : m->src;
				long t0 = op == EV_SEND ? m->m->t_send : m->m->t_recv0;
				long t1 = op == EV_SEND ? m->m->t_sent : m->m->t_recv1;
				if ((op == EV_SEND && m->m->sent != 1) || peer < 0 || peer >= n)
					continue;
				int shard = -1;
				size_t r1 = 0, c0 = 0, c1 = 0;
				uint64_t bytes = m->bytes;
				if (m->label.kind == CT_B || m->label.kind == CT_B_ALL) {
					shard = m->label.kind == CT_B ? m->label.k : -1;
					r1 = x->K;
					c0 = shard >= 0 ? evb_c0(x, shard) : 0;
					c1 = shard >= 0 ? evb_c1(x, shard) : x->N;
					bytes = x->K * (c1 - c0) * 8;
				}
				int phase = i + 1 < (size_t)n ? 2 * (int)i + 1 : x->last;
				evb_push(x, phase, op, r, peer, shard, 0, r1, c0, c1, bytes, t0, t1,
					 op == EV_SEND ? KEY_SEND : KEY_RECV, r, (long)i);
				evb_msg_key(x, op == EV_SEND ? KEY_SEND_MSG : KEY_RECV_MSG, (long)m->id);
			}
		}
	}
	free(w);
}

/* Where rank j's rows are in the result, or its own rows. */
static void evb_placement(const struct evb *x, const struct facts_block *bl, size_t nb, int j,
			  size_t *p0, size_t *p1)
{
	size_t b = evb_r0(x, j), e = evb_r1(x, j);
	*p0 = b;
	*p1 = e;
	for (size_t i = 0; i < nb && e > b; i++)
		if (bl[i].q0 == (long)b) {
			*p0 = bl[i].p0;
			*p1 = bl[i].p1 < bl[i].p0 + e - b ? bl[i].p1 : bl[i].p0 + e - b;
			return;
		}
}

static void evb_gather(struct evb *x, const struct facts_block *bl, size_t nb)
{
	const struct facts *f = x->f;
	int n = x->n;
	long t_end = 0;
	for (size_t i = 0; i < x->b->n_ev; i++)
		if ((long)(x->b->ev[i].t_end_ns / EVB_US) > t_end)
			t_end = (long)(x->b->ev[i].t_end_ns / EVB_US);
	for (int r = 1; r < n; r++)
		for (size_t i = 0; i < f->gsends[r].n; i++) {
			const struct facts_msg *m = facts_at(f, &f->gsends[r], i);
			if (m->m->sent != 1 || m->dst < 0 || m->dst >= n)
				continue;
			int j = m->label.kind == CT_C ? m->label.i : r;
			evb_push(x, x->last, EV_SEND, r, m->dst, -1, evb_r0(x, j), evb_r1(x, j), 0, x->N,
				 m->bytes, m->m->t_send, m->m->t_sent, KEY_GSEND, r, 0);
			evb_msg_key(x, KEY_SEND_MSG, (long)m->id);
		}
	char *got = calloc((size_t)n, 1);
	if (!got) {
		x->failed = 1;
		return;
	}
	int any = 0;
	for (size_t i = 0; i < f->gathered.n; i++) {
		const struct facts_msg *m = facts_at(f, &f->gathered, i);
		if (m->src < 0 || m->src >= n)
			continue;
		int j = m->label.kind == CT_C ? m->label.i : m->src;
		size_t p0, p1;
		evb_placement(x, bl, nb, j, &p0, &p1);
		got[m->src] = 1;
		any = 1;
		evb_push(x, x->last, EV_GATHER, 0, m->src, -1, p0, p1, 0, x->N,
			 m->src == 0 ? 0 : m->bytes, m->m->t_recv0, m->m->t_recv1, KEY_GATHER, j, 0);
		evb_msg_key(x, KEY_RECV_MSG, (long)m->id);
	}
	const struct rec_run *run = f->run;
	if (!any && f->complete && !f->R) {
		/* the result is not C: rank 0 placed its own rows at most (DP without
		 * the gather returns them) */
		size_t b = evb_r0(x, 0), e = evb_r1(x, 0);
		if (run->has_ret_arr && run->ret.ndim == 2 && run->ret.dim[0] == e - b &&
		    run->ret.dim[1] == x->N && e > b)
			evb_push(x, x->last, EV_GATHER, 0, 0, -1, b, e, 0, x->N, 0, t_end, t_end,
				 KEY_GATHER, 0, 0);
	} else if (any || f->complete) {
		/* rank 0's own rows, and (shared memory) everyone's when no message
		 * carried them; in the order they were placed */
		for (int pass = 0; pass < n; pass++) {
			int r = -1;
			size_t best = (size_t)-1, p0, p1;
			for (int k = 0; k < n; k++) {
				if (got[k] || (any && k != 0))
					continue;
				evb_placement(x, bl, nb, k, &p0, &p1);
				if (p0 < best || r < 0) {
					best = p0;
					r = k;
				}
			}
			if (r < 0)
				break;
			got[r] = 1;
			evb_placement(x, bl, nb, r, &p0, &p1);
			if (r)
				evb_push(x, x->last, EV_SEND, r, 0, -1, evb_r0(x, r), evb_r1(x, r), 0, x->N,
					 (p1 - p0) * x->N * 8, t_end, t_end, KEY_GSEND, r, 0);
			evb_push(x, x->last, EV_GATHER, 0, r, -1, p0, p1, 0, x->N,
				 r == 0 ? 0 : (p1 - p0) * x->N * 8, t_end, t_end, KEY_GATHER, r, 0);
		}
	}
	free(got);
}

/* Phase, then rank, then a rank's calls (its compute first: the harness
 * sees no compute's time), then time, then rows; else the order made. */
static int evb_before(const struct evb *x, size_t i, size_t j)
{
	static const int order[EV_OP_COUNT] = { 0, 1, 1, 3, 4, 5 };
	const struct ev *a = &x->b->ev[i], *b = &x->b->ev[j];
	if (a->phase != b->phase)
		return a->phase < b->phase;
	if (a->rank != b->rank)
		return a->rank < b->rank;
	if (order[a->op] != order[b->op])
		return order[a->op] < order[b->op];
	if (a->t_begin_ns != b->t_begin_ns)
		return a->t_begin_ns < b->t_begin_ns;
	if (a->row_begin != b->row_begin)
		return a->row_begin < b->row_begin;
	return x->seq[i] < x->seq[j];
}

static void evb_sort(struct evb *x)
{
	struct evbuild *b = x->b;
	for (size_t i = 1; i < b->n_ev; i++)
		for (size_t j = i; j > 0 && evb_before(x, j, j - 1); j--) {
			struct ev e = b->ev[j];
			b->ev[j] = b->ev[j - 1];
			b->ev[j - 1] = e;
			struct evbuild_key k[2];
			memcpy(k, b->keys[j], sizeof k);
			memcpy(b->keys[j], b->keys[j - 1], sizeof k);
			memcpy(b->keys[j - 1], k, sizeof k);
			long m = b->msg[j];
			b->msg[j] = b->msg[j - 1];
			b->msg[j - 1] = m;
			int s = x->seq[j];
			x->seq[j] = x->seq[j - 1];
			x->seq[j - 1] = s;
		}
}

/* Held and peak bytes by the engine's accounting model (device.c), and
 * each rank's summary. */
static int evb_account(struct evb *x)
{
	struct evbuild *b = x->b;
	int n = x->n;
	int64_t *hold = calloc((size_t)n, sizeof *hold), *peak = calloc((size_t)n, sizeof *peak);
	int64_t *shard = calloc((size_t)n, sizeof *shard);
	char *gathered = calloc((size_t)n, 1);
	b->sum = calloc((size_t)n, sizeof *b->sum);
	if (!hold || !peak || !shard || !gathered || !b->sum) {
		free(hold);
		free(peak);
		free(shard);
		free(gathered);
		return -1;
	}
	for (int r = 0; r < n; r++) {
		int64_t rows = (int64_t)(evb_r1(x, r) - evb_r0(x, r));
		int64_t w = (int64_t)(x->f->mode == DM_DP ? x->N : evb_c1(x, r) - evb_c0(x, r));
		hold[r] = peak[r] = rows * (int64_t)(x->K + x->N) * 8 + (int64_t)x->K * w * 8;
		shard[r] = (int64_t)x->K * (int64_t)(evb_c1(x, r) - evb_c0(x, r)) * 8;
		b->sum[r].rank = r;
	}
	for (size_t i = 0; i < b->n_ev; i++) {
		struct ev *e = &b->ev[i];
		int r = e->rank;
		int64_t bytes = (int64_t)e->bytes;
		if (e->op == EV_RECV) {
			peak[r] = hold[r] + bytes > peak[r] ? hold[r] + bytes : peak[r];
			hold[r] += bytes - shard[r];
			shard[r] = bytes;
		} else if (e->op == EV_GATHER && !gathered[r]) {
			gathered[r] = 1;
			hold[r] += (int64_t)(x->M * x->N * 8);
		} else if (e->op == EV_SEND && e->shard == -1 && e->row_end > e->row_begin &&
			   e->col_end == x->N && e->phase == x->last) {
			hold[r] = hold[r] - bytes > 0 ? hold[r] - bytes : 0;
		}
		hold[r] = hold[r] > 0 ? hold[r] : 0;
		peak[r] = hold[r] > peak[r] ? hold[r] : peak[r];
		e->held = (uint64_t)hold[r];
		e->peak = (uint64_t)peak[r];
		if (e->op == EV_SEND)
			b->sum[r].sent_bytes += e->bytes;
		else if (e->op == EV_RECV || (e->op == EV_GATHER && e->peer != r))
			b->sum[r].recv_bytes += e->bytes;
		b->sum[r].peak_bytes = e->peak;
	}
	free(hold);
	free(peak);
	free(shard);
	free(gathered);
	return 0;
}

int evbuild_make(struct evbuild *b, const struct facts *f, struct dm_err *err)
{
	struct evb x = { b, f, NULL, f->n, f->mode == DM_FSDP ? 2 * f->n - 1 : 1, f->ct->M,
			 f->ct->K, f->ct->N, NULL, 0 };
	memset(b, 0, sizeof *b);
	b->n = f->n;
	int rc = plan_make(&x.plan, (enum dm_mode)f->mode, f->n, DM_FORWARD, err);
	if (rc)
		return rc;
	struct facts_block *bl = malloc((x.M ? x.M : 1) * sizeof *bl);
	if (!bl) {
		plan_free(x.plan);
		return dm_err_set(err, DM_ENOMEM, "out of memory writing the judged run");
	}
	size_t nb = facts_row_blocks(f, bl);
	if (f->mode == DM_FSDP)
		evb_fsdp(&x);
	else
		for (int r = 0; r < x.n; r++)
			if (f->complete || f->gsends[r].n || r == 0) {
				long t1 = f->gsends[r].n ? facts_at(f, &f->gsends[r], 0)->m->t_send : 0;
				evb_push(&x, 0, EV_COMPUTE, r, -1, -1, evb_r0(&x, r), evb_r1(&x, r), 0, x.N,
					 (evb_r1(&x, r) - evb_r0(&x, r)) * x.N * 8, 0, t1, KEY_COMPUTE, r,
					 0);
			}
	if (!x.failed)
		evb_gather(&x, bl, nb);
	free(bl);
	if (!x.failed)
		evb_sort(&x);
	free(x.seq);
	plan_free(x.plan);
	if (x.failed || evb_account(&x)) {
		evbuild_free(b);
		return dm_err_set(err, DM_ENOMEM, "out of memory writing the judged run");
	}
	return 0;
}

long evbuild_find(const struct evbuild *b, int kind, long a, long c)
{
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < b->n_ev; i++)
			for (int s = 0; s < 2; s++) {
				const struct evbuild_key *k = &b->keys[i][s];
				if (k->kind == kind && k->a == a && (kind == KEY_GATHER || kind == KEY_GSEND ||
								     kind == KEY_SEND_MSG ||
								     kind == KEY_RECV_MSG || k->b == c))
					return (long)i;
			}
		if (kind != KEY_GATHER)
			break;
		kind = KEY_GSEND;   /* no gather event: the send that should have made it */
	}
	return -1;
}

void evbuild_take(struct evbuild *b, struct ev **ev, size_t *n_ev, struct ev_summary **sum)
{
	*ev = b->ev;
	*n_ev = b->n_ev;
	*sum = b->sum;
	b->ev = NULL;
	b->sum = NULL;
	b->n_ev = b->cap = 0;
}

void evbuild_free(struct evbuild *b)
{
	free(b->ev);
	free(b->keys);
	free(b->msg);
	free(b->sum);
	memset(b, 0, sizeof *b);
}
