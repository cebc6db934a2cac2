/* facts: a run's records, read (see facts.h). */
#include "judge/facts.h"

#include <stdlib.h>
#include <string.h>

#include <distmm/run.h>
#include <distmm/split.h>
#include <distmm/verify.h>

/* Beyond this many element comparisons the result is not mapped column by
 * column (the verdict then names less). */
#define FACTS_MAP_MAX 4e8

static int facts_nomem(struct dm_err *err)
{
	return dm_err_set(err, DM_ENOMEM, "out of memory judging the run");
}

static int facts_push(struct facts_list *l, size_t ix)
{
	size_t *d = realloc(l->ix, (l->n + 1) * sizeof *d);
	if (!d)
		return -1;
	d[l->n++] = ix;
	l->ix = d;
	return 0;
}

const struct facts_msg *facts_at(const struct facts *f, const struct facts_list *l, size_t i)
{
	return &f->msg[l->ix[i]];
}

static int facts_kind(const struct facts *f, const struct content_label *l)
{
	switch (l->kind) {
	case CT_NONE: return FK_OTHER;
	case CT_A:
	case CT_A_ALL: return FK_INPUT;
	case CT_C:
	case CT_P:
	case CT_CPART:
	case CT_C_ALL: return FK_GATHER;
	default: break;
	}
	if (f->mode == DM_DP)
		return l->kind == CT_B || l->kind == CT_B_ALL || l->kind == CT_BROWS ? FK_INPUT
										 : FK_GATHER;
	if (l->kind == CT_UNKNOWN && l->ndim == 2 && l->dim[1] == f->ct->N && l->dim[0] != f->ct->K)
		return FK_GATHER;
	return FK_TRANSFER;
}

static int facts_ok(int r, int n)
{
	return r >= 0 && r < n;
}

/* The messages named, and each rank's lists (sends in the order they were
 * made, receives in the order they came). */
static int facts_messages(struct facts *f)
{
	const struct rec_run *run = f->run;
	int n = f->n;
	f->msg = calloc(run->n_msg ? run->n_msg : 1, sizeof *f->msg);
	if (!f->msg)
		return -1;
	f->n_msg = run->n_msg;
	for (size_t i = 0; i < run->n_msg; i++) {
		struct facts_msg *x = &f->msg[i];
		const struct rec_msg *m = &run->msg[i];
		x->m = m;
		x->id = i;
		content_payload(f->ct, m->arr, m->n_arr, &x->label, &x->owner, &x->bytes);
		if (x->owner < 0 && m->first >= 0 && m->ctx_src < 0 && x->label.kind == CT_B &&
		    !run->th[m->stid].caller)
			x->owner = m->first;
		x->kind = facts_kind(f, &x->label);
		x->src = m->src;
		x->dst = m->received ? m->rank : m->dst;
		int o;
		uint64_t b;
		x->rlabel = x->label;
		if (m->received && m->crc_recv != m->crc_send) {
			x->mutated = 1;
			content_payload(f->ct, m->rarr, m->n_rarr, &x->rlabel, &o, &b);
		}
		if (m->changed_end) {
			x->late = 1;
			content_payload(f->ct, m->earr, m->n_earr, &x->elabel, &o, &b);
		}
		if (x->kind == FK_TRANSFER && facts_ok(x->src, n) && facts_push(&f->sends[x->src], i))
			return -1;
		if (x->kind == FK_GATHER && facts_ok(x->src, n) && facts_push(&f->gsends[x->src], i))
			return -1;
	}
	/* receives in the order they came: by the clock at their get */
	size_t *order = malloc((run->n_msg ? run->n_msg : 1) * sizeof *order), k = 0;
	if (!order)
		return -1;
	for (size_t i = 0; i < run->n_msg; i++)
		if (run->msg[i].received)
			order[k++] = i;
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j > 0 && run->msg[order[j - 1]].t_recv0 > run->msg[order[j]].t_recv0;
		     j--) {
			size_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	int rc = 0;
	for (size_t i = 0; i < k && !rc; i++) {
		const struct facts_msg *x = &f->msg[order[i]];
		int dst = x->m->rank;
		if (x->kind == FK_TRANSFER && facts_ok(dst, n))
			rc = facts_push(&f->recvs[dst], order[i]);
		else if (x->kind == FK_GATHER)
			rc = facts_push(&f->gathered, order[i]);
	}
	free(order);
	return rc;
}

/* The shard rank r holds at each step it reached: its own at step 0 (or
 * what it sent first, when it sent before it received), then the one it
 * received last (what it got, not what was sent). */
static int facts_held(struct facts *f, int r)
{
	const struct facts_list *q = &f->recvs[r], *s = &f->sends[r];
	f->held[r] = malloc((q->n + 1) * sizeof **f->held);
	if (!f->held[r])
		return -1;
	f->n_held[r] = q->n + 1;
	f->held[r][0] = r;
	if (s->n) {
		const struct facts_msg *s0 = facts_at(f, s, 0);
		if (s0->label.kind == CT_B &&
		    (!q->n || s0->m->t_send <= facts_at(f, q, 0)->m->t_recv0))
			f->held[r][0] = s0->label.k;
	}
	for (size_t i = 0; i < q->n; i++) {
		const struct content_label *l = &facts_at(f, q, i)->rlabel;
		f->held[r][i + 1] = l->kind == CT_B ? l->k : l->kind == CT_B_ALL ? FACTS_ALL_B : -1;
	}
	return 0;
}

/* Is R A @ B?  The engine's rule: allclose (equal_nan), or Freivalds from
 * VERIFY_AUTO_MIN multiply-adds on, as batch mode checks a run. */
int facts_is_c(const struct content *ct, const struct mat *R, uint64_t seed, int *ok,
	       size_t *n_bad, struct dm_err *err)
{
	struct verify_result v;
	if (verify_auto_method(ct->M, ct->K, ct->N) == VERIFY_FREIVALDS) {
		int rc = verify_freivalds(ct->a, ct->b, R, VERIFY_VECTORS, seed, &v, err);
		if (rc)
			return rc;
		if (v.decided) {
			*ok = v.ok;
			*n_bad = v.n_bad;
			return 0;
		}
	}
	if (ct->has_p) {
		*ok = mat_allclose(R, &ct->p, NULL, n_bad, NULL);
		return 0;
	}
	int rc = verify_exact(ct->a, ct->b, R, &v, err);
	*ok = !rc && v.ok;
	*n_bad = v.n_bad;
	return rc;
}

/* Where each product landed: the rows moved back where they belong (a
 * gather in the wrong order moves a rank's rows whole), then each rank's
 * columns. */
static int facts_map(struct facts *f)
{
	const struct content *ct = f->ct;
	size_t M = ct->M, N = ct->N;
	int n = f->n;
	if (!ct->has_p || (double)M * N * (double)(M > N ? M : N) > FACTS_MAP_MAX)
		return 0;
	struct mat own;
	struct dm_err e;
	f->rmap = malloc((M ? M : 1) * sizeof *f->rmap);
	f->cmap = calloc((size_t)n, sizeof *f->cmap);
	if (!f->rmap || !f->cmap || mat_alloc_uninit(&own, M, N, &e))
		return -1;
	content_row_map(ct, f->R, f->rmap);
	if (M && N)
		memcpy(own.data, f->R->data, M * N * sizeof(double));
	for (size_t p = 0; p < M; p++)
		if (f->rmap[p] >= 0 && (size_t)f->rmap[p] != p)
			memcpy(&own.data[(size_t)f->rmap[p] * N], &f->R->data[p * N], N * sizeof(double));
	int rc = 0;
	for (int r = 0; r < n && !rc; r++) {
		if (!split_size(M, n, r))
			continue;
		if (!(f->cmap[r] = malloc((N ? N : 1) * sizeof **f->cmap))) {
			rc = -1;
			break;
		}
		content_col_map(ct, &own, r, f->int_result, f->cmap[r]);
		for (size_t c = 0; c < N && !rc; c++) {
			const struct content_col *x = &f->cmap[r][c];
			if (x->kind != CC_PRODUCT && x->kind != CC_CUT)
				continue;
			struct facts_writes *w = &f->writes[(size_t)r * (size_t)n +
							    (size_t)content_shard_of(ct, x->j)];
			struct facts_write *d = realloc(w->w, (w->n + 1) * sizeof *d);
			if (!d) {
				rc = -1;
				break;
			}
			d[w->n++] = (struct facts_write){ c, x->j, x->kind == CC_CUT };
			w->w = d;
		}
	}
	mat_free(&own);
	return rc;
}

int facts_build(struct facts *f, const struct rec_run *r, const struct content *ct, int mode,
		int n, uint64_t seed, struct dm_err *err)
{
	memset(f, 0, sizeof *f);
	f->run = r;
	f->ct = ct;
	f->mode = mode;
	f->n = n;
	size_t un = (size_t)n;
	f->sends = calloc(un, sizeof *f->sends);
	f->recvs = calloc(un, sizeof *f->recvs);
	f->gsends = calloc(un, sizeof *f->gsends);
	f->held = calloc(un, sizeof *f->held);
	f->n_held = calloc(un, sizeof *f->n_held);
	f->writes = calloc(un * un, sizeof *f->writes);
	if (!f->sends || !f->recvs || !f->gsends || !f->held || !f->n_held || !f->writes ||
	    facts_messages(f))
		return facts_nomem(err);
	for (int k = 0; k < n; k++)
		if (facts_held(f, k))
			return facts_nomem(err);
	f->complete = r->ended && r->outcome == REC_RETURNED && !r->n_exc && !r->n_live;
	const struct rec_arr *ret = &r->ret;
	if (r->has_ret && r->ret_kind == REC_RET_ARRAY && r->has_ret_arr && ret->has_data &&
	    ret->dim[0] == ct->M && ret->dim[1] == ct->N) {
		f->R = &ret->m;
		f->int_result = strchr("iub", ret->dtype[1]) != NULL && ret->dtype[1];
		int rc = facts_is_c(ct, f->R, seed, &f->ok, &f->n_bad, err);
		if (rc)
			return rc;
		if (facts_map(f))
			return facts_nomem(err);
	}
	return 0;
}

void facts_free(struct facts *f)
{
	for (int r = 0; r < f->n; r++) {
		if (f->sends)
			free(f->sends[r].ix);
		if (f->recvs)
			free(f->recvs[r].ix);
		if (f->gsends)
			free(f->gsends[r].ix);
		if (f->held)
			free(f->held[r]);
		if (f->cmap)
			free(f->cmap[r]);
	}
	for (size_t i = 0; f->writes && i < (size_t)f->n * (size_t)f->n; i++)
		free(f->writes[i].w);
	free(f->writes);
	free(f->gathered.ix);
	free(f->sends);
	free(f->recvs);
	free(f->gsends);
	free(f->held);
	free(f->n_held);
	free(f->cmap);
	free(f->rmap);
	free(f->msg);
	memset(f, 0, sizeof *f);
}

int facts_held_at(const struct facts *f, int r, int s)
{
	return s >= 0 && (size_t)s < f->n_held[r] ? f->held[r][s] : -1;
}

int facts_steps_reached(const struct facts *f, int r)
{
	int h = (int)f->n_held[r];
	if (f->complete)
		return h > f->n ? h : f->n;
	return h < f->n ? h : f->n;
}

size_t facts_placed_at(const struct facts *f, int r, int s, int k, struct facts_write *out)
{
	const struct facts_writes *w = &f->writes[(size_t)r * (size_t)f->n + (size_t)k];
	int first = -1, second = -1;
	for (int t = 0; t < f->n && (size_t)t < f->n_held[r]; t++)
		if (f->held[r][t] == k) {
			if (first < 0)
				first = t;
			else if (second < 0)
				second = t;
		}
	size_t m = 0;
	for (size_t i = 0; i < w->n; i++) {
		int own = w->w[i].col == w->w[i].pcol;
		if (second < 0 || (s == first && own) || (s == second && !own))
			out[m++] = w->w[i];
	}
	return m;
}

size_t facts_row_blocks(const struct facts *f, struct facts_block *out)
{
	size_t M = f->ct->M, m = 0;
	if (!f->rmap)
		return 0;
	for (size_t p = 0; p < M;) {
		long q = f->rmap[p];
		size_t e = p + 1;
		while (e < M && ((q < 0 && f->rmap[e] < 0) ||
				 (q >= 0 && f->rmap[e] == q + (long)(e - p))))
			e++;
		out[m++] = (struct facts_block){ p, e, q };
		p = e;
	}
	return m;
}

int facts_zero_rows(const struct facts *f, int r)
{
	size_t b = split_offset(f->ct->M, f->n, r), e = b + split_size(f->ct->M, f->n, r);
	if (!f->R || e == b)
		return 0;
	for (size_t i = b * f->ct->N; i < e * f->ct->N; i++)
		if (f->R->data[i] != 0)
			return 0;
	return 1;
}
