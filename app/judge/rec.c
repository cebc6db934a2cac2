/* rec: a run's records into facts (see rec.h; the format is proto.c's).
 *
 * A record is a header line, "TAG INT... LEN...\n", then as many bytes as
 * its LEN fields say, one string each; how many INTs and LENs a tag has is
 * a row of rec_tags.  An array record follows the record that announces it
 * (a message, the result, A or B, a kept local), never alone.  Everything
 * is checked before it is used: a tag, a count, a length, a number out of
 * its range, or a record out of its place ends the parse with one line. */
#include "judge/rec.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define REC_HEAD_MAX 1024
#define REC_INTS_MAX 12
#define REC_STRS_MAX 5
#define REC_ARRS_MAX 64          /* arrays in one message */
#define REC_ITEMS_MAX 4096       /* items of a returned list (one a rank) */
#define REC_THREADS_MAX 65536
#define REC_QUEUES_MAX (1 << 20)
#define REC_STR_MAX (64u << 20)

static const struct rec_tag {
	const char *tag;
	int ints, strs;
} rec_tags[] = {
	{ "hi", 1, 0 },   { "thr", 4, 1 },  { "snd", 11, 0 }, { "sent", 3, 0 }, { "rcv", 9, 0 },
	{ "fin", 3, 0 },  { "arr", 6, 2 },  { "exc", 3, 5 },  { "wait", 7, 3 }, { "live", 2, 0 },
	{ "ret", 4, 1 },  { "inp", 1, 0 },  { "hold", 1, 0 }, { "out", 1, 1 },  { "end", 2, 0 },
	{ "item", 1, 0 },
};
#define REC_TAGS (sizeof rec_tags / sizeof rec_tags[0])

struct rec_line {
	const char *tag;
	long long v[REC_INTS_MAX];
	const char *s[REC_STRS_MAX];
	size_t len[REC_STRS_MAX];
};

struct rec_parser {
	const char *p, *end;
	size_t index;            /* records read, for the messages */
	struct rec_run *r;
	int n;
	int *seen;               /* per queue: the rank seen receiving from it, -1 */
	size_t n_seen;
	struct dm_err *err;
};

static int rec_bad(struct rec_parser *ps, const char *what)
{
	return dm_err_set(ps->err, DM_EFORMAT, "record %zu: %s", ps->index, what);
}

/* The next record's header and strings into l. */
static int rec_next(struct rec_parser *ps, struct rec_line *l)
{
	const char *nl = memchr(ps->p, '\n', (size_t)(ps->end - ps->p));
	if (!nl || nl - ps->p > REC_HEAD_MAX)
		return rec_bad(ps, "a header without its end");
	char head[REC_HEAD_MAX + 1], *save = NULL;
	memcpy(head, ps->p, (size_t)(nl - ps->p));
	head[nl - ps->p] = '\0';
	ps->p = nl + 1;
	char *tok = strtok_r(head, " ", &save);
	const struct rec_tag *t = NULL;
	for (size_t i = 0; tok && i < REC_TAGS && !t; i++)
		if (strcmp(tok, rec_tags[i].tag) == 0)
			t = &rec_tags[i];
	if (!t)
		return rec_bad(ps, "an unknown tag");
	l->tag = t->tag;
	long long lens[REC_STRS_MAX];
	for (int i = 0; i < t->ints + t->strs; i++) {
		char *e;
		tok = strtok_r(NULL, " ", &save);
		if (!tok)
			return rec_bad(ps, "a field missing");
		errno = 0;
		long long v = strtoll(tok, &e, 10);
		if (*e || e == tok || errno)
			return rec_bad(ps, "a field that is not a number");
		if (i < t->ints)
			l->v[i] = v;
		else if (v < 0 || (unsigned long long)v > REC_STR_MAX)
			return rec_bad(ps, "a length out of range");
		else
			lens[i - t->ints] = v;
	}
	if (strtok_r(NULL, " ", &save))
		return rec_bad(ps, "a field too many");
	for (int i = 0; i < t->strs; i++) {
		if ((size_t)lens[i] > (size_t)(ps->end - ps->p))
			return rec_bad(ps, "a string cut short");
		l->s[i] = ps->p;
		l->len[i] = (size_t)lens[i];
		ps->p += lens[i];
	}
	ps->index++;
	return 0;
}

/* A number of l within [lo, hi], else -2 (after rec_bad). */
static int rec_int(struct rec_parser *ps, const struct rec_line *l, int i, long long lo,
		   long long hi, long long *out)
{
	*out = lo;
	if (l->v[i] < lo || l->v[i] > hi)
		return rec_bad(ps, "a number out of its range");
	*out = l->v[i];
	return 0;
}

static char *rec_str(const struct rec_line *l, int i)
{
	char *s = malloc(l->len[i] + 1);
	if (s) {
		memcpy(s, l->s[i], l->len[i]);
		s[l->len[i]] = '\0';
	}
	return s;
}

static int rec_nomem(struct rec_parser *ps)
{
	return dm_err_set(ps->err, DM_ENOMEM, "out of memory reading the judged run");
}

/* Grows *a (of *n elements of size sz) by one zeroed element. */
static void *rec_grow(void *a, size_t *n, size_t sz, void **out)
{
	if (*n >= SIZE_MAX / sz - 1)
		return NULL;
	char *d = realloc(a, (*n + 1) * sz);
	if (!d)
		return NULL;
	memset(d + *n * sz, 0, sz);
	*out = d + *n * sz;
	(*n)++;
	return d;
}

#define REC_PUSH(arr, count, slot) \
	((arr) = rec_grow((arr), &(count), sizeof *(arr), (void **)&(slot)))

/* One array record into a. */
static int rec_array(struct rec_parser *ps, struct rec_arr *a)
{
	struct rec_line l;
	long long v;
	int rc = rec_next(ps, &l);
	if (rc)
		return rc;
	if (strcmp(l.tag, "arr") != 0)
		return rec_bad(ps, "an array missing");
	if ((rc = rec_int(ps, &l, 0, -1, INT32_MAX, &v)))
		return rc;
	a->tag = (int)v;
	if ((rc = rec_int(ps, &l, 1, 0, 64, &v)))
		return rc;
	a->ndim = (int)v;
	for (int i = 0; i < 4; i++) {
		if ((rc = rec_int(ps, &l, 2 + i, 0, INT64_MAX, &v)))
			return rc;
		a->dim[i] = (uint64_t)v;
	}
	if (l.len[0] == 0 || l.len[0] >= REC_DTYPE_MAX)
		return rec_bad(ps, "a dtype out of range");
	for (size_t i = 0; i < l.len[0]; i++)
		if (l.s[0][i] <= ' ' || l.s[0][i] > '~')
			return rec_bad(ps, "a dtype that is not printable");
	memcpy(a->dtype, l.s[0], l.len[0]);
	a->dtype[l.len[0]] = '\0';
	if (l.len[1] == 0)
		return 0;
	size_t elems;
	if (a->ndim != 2 || mat_size_mul(a->dim[0], a->dim[1], &elems) ||
	    elems > SIZE_MAX / 8 || l.len[1] != elems * 8)
		return rec_bad(ps, "an array whose bytes are not its shape's");
	struct dm_err e;
	if (mat_alloc_uninit(&a->m, a->dim[0], a->dim[1], &e))
		return rec_nomem(ps);
	const unsigned char *b = (const unsigned char *)l.s[1];
	for (size_t i = 0; i < elems; i++) {
		uint64_t u = 0;
		for (int k = 7; k >= 0; k--)
			u = u << 8 | b[8 * i + (size_t)k];
		memcpy(&a->m.data[i], &u, sizeof u);
	}
	a->has_data = 1;
	return 0;
}

static int rec_arrays(struct rec_parser *ps, long long count, struct rec_arr **arr, size_t *n)
{
	if (count < 0 || count > REC_ARRS_MAX)
		return rec_bad(ps, "too many arrays");
	*arr = calloc(count ? (size_t)count : 1, sizeof **arr);
	if (!*arr)
		return rec_nomem(ps);
	*n = (size_t)count;
	for (long long i = 0; i < count; i++) {
		int rc = rec_array(ps, &(*arr)[i]);
		if (rc)
			return rc;
	}
	return 0;
}

static int rec_where(struct rec_parser *ps, const struct rec_line *l, int si, long long line,
		     struct rec_where *w)
{
	w->line = line < 0 ? 0 : (long)line;
	w->file = rec_str(l, si);
	w->func = rec_str(l, si + 1);
	w->src = rec_str(l, si + 2);
	return w->file && w->func && w->src ? 0 : rec_nomem(ps);
}

static int rec_in(int x, int n)
{
	return x >= 0 && x < n;
}

/* The rank seen receiving from queue qid (-1), growing the table. */
static int *rec_seen(struct rec_parser *ps, int qid)
{
	if ((size_t)qid >= ps->n_seen) {
		size_t n = (size_t)qid + 16;
		int *d = realloc(ps->seen, n * sizeof *d);
		if (!d)
			return NULL;
		for (size_t i = ps->n_seen; i < n; i++)
			d[i] = -1;
		ps->seen = d;
		ps->n_seen = n;
	}
	return &ps->seen[qid];
}

/* Whom a put is from and for, as the harness saw it then (jd_queue.py). */
static int rec_resolve_send(struct rec_parser *ps, struct rec_msg *m)
{
	struct rec_thread *t = &ps->r->th[m->stid];
	int *seen = rec_seen(ps, m->qid);
	if (!seen)
		return rec_nomem(ps);
	m->src = m->ctx_src;
	m->dst = m->ctx_dst >= 0 ? m->ctx_dst : m->qidx >= 0 ? m->qidx : *seen;
	if (m->src < 0) {
		int mine = t->hint >= 0 ? t->hint : t->rank;
		m->src = mine >= 0 && !t->caller ? mine : m->first >= 0 ? m->first : mine;
	}
	if (m->src >= 0 && t->rank < 0)
		t->rank = m->src;
	return 0;
}

static int rec_resolve_recv(struct rec_parser *ps, struct rec_msg *m)
{
	struct rec_thread *t = &ps->r->th[m->rtid];
	int *seen = rec_seen(ps, m->qid);
	if (!seen)
		return rec_nomem(ps);
	if (m->rqidx >= 0)
		t->rank = m->rqidx;
	int rank = m->rqidx >= 0 ? m->rqidx : m->rctx >= 0 ? m->rctx
		   : t->rank >= 0 ? t->rank : t->hint;
	if (t->rank < 0)
		t->rank = rank;
	if (*seen < 0)
		*seen = rank;
	m->rank = rank;
	return 0;
}

static int rec_msg_rec(struct rec_parser *ps, const struct rec_line *l)
{
	struct rec_run *r = ps->r;
	long long v[11];
	static const long long lo[11] = { 0, 0, 0, -1, -1, -1, 0, -1, -1, 0, 0 };
	static const long long hi[11] = { INT32_MAX, INT32_MAX, INT64_MAX, INT32_MAX, INT32_MAX,
					  INT32_MAX, REC_QUEUES_MAX - 1, INT32_MAX, INT32_MAX,
					  UINT32_MAX, REC_ARRS_MAX };
	for (int i = 0; i < 11; i++)
		if (rec_int(ps, l, i, lo[i], hi[i], &v[i]))
			return DM_EFORMAT;
	if ((size_t)v[0] != r->n_msg || !rec_in((int)v[1], (int)r->n_th))
		return rec_bad(ps, "a message out of its place");
	struct rec_msg *m;
	if (!REC_PUSH(r->msg, r->n_msg, m))
		return rec_nomem(ps);
	m->stid = (int)v[1];
	m->t_send = (long)v[2];
	m->t_sent = -1;
	m->ctx_src = (int)v[3];
	m->ctx_dst = (int)v[4];
	m->first = (int)v[5];
	m->qid = (int)v[6];
	m->qidx = (int)v[7];
	m->cap = (int)v[8];
	m->crc_send = (uint32_t)v[9];
	m->src = m->dst = m->rank = m->rtid = -1;
	int rc = rec_arrays(ps, v[10], &m->arr, &m->n_arr);
	return rc ? rc : rec_resolve_send(ps, m);
}

static int rec_recv_rec(struct rec_parser *ps, const struct rec_line *l)
{
	struct rec_run *r = ps->r;
	long long v[9];
	static const long long lo[9] = { 0, 0, 0, 0, -1, 0, -1, 0, 0 };
	static const long long hi[9] = { INT32_MAX, INT32_MAX, INT64_MAX, INT64_MAX, INT32_MAX,
					 REC_QUEUES_MAX - 1, INT32_MAX, UINT32_MAX, REC_ARRS_MAX };
	for (int i = 0; i < 9; i++)
		if (rec_int(ps, l, i, lo[i], hi[i], &v[i]))
			return DM_EFORMAT;
	if ((size_t)v[0] >= r->n_msg || r->msg[v[0]].received || !rec_in((int)v[1], (int)r->n_th) ||
	    r->msg[v[0]].qid != (int)v[5])
		return rec_bad(ps, "a receive out of its place");
	struct rec_msg *m = &r->msg[v[0]];
	m->received = 1;
	m->rtid = (int)v[1];
	m->t_recv0 = (long)v[2];
	m->t_recv1 = (long)v[3];
	m->rctx = (int)v[4];
	m->rqidx = (int)v[6];
	m->crc_recv = (uint32_t)v[7];
	int rc = rec_arrays(ps, v[8], &m->rarr, &m->n_rarr);
	return rc ? rc : rec_resolve_recv(ps, m);
}

static int rec_small(struct rec_parser *ps, const struct rec_line *l)
{
	struct rec_run *r = ps->r;
	long long a, b, c;
	const char *t = l->tag;
	int nth = (int)r->n_th;
	if (strcmp(t, "sent") == 0) {
		if (rec_int(ps, l, 0, 0, (long long)r->n_msg - 1, &a) ||
		    rec_int(ps, l, 1, 0, INT64_MAX, &b) || rec_int(ps, l, 2, 0, 1, &c))
			return DM_EFORMAT;
		if (r->msg[a].sent)
			return rec_bad(ps, "a send that ended twice");
		r->msg[a].sent = c ? 1 : -1;
		r->msg[a].t_sent = (long)b;
		return 0;
	}
	if (strcmp(t, "fin") == 0) {
		if (rec_int(ps, l, 0, 0, (long long)r->n_msg - 1, &a) ||
		    rec_int(ps, l, 1, 0, UINT32_MAX, &b))
			return DM_EFORMAT;
		struct rec_msg *m = &r->msg[a];
		if (m->changed_end || !m->received)
			return rec_bad(ps, "a message's end out of its place");
		m->changed_end = 1;
		return rec_arrays(ps, l->v[2], &m->earr, &m->n_earr);
	}
	if (strcmp(t, "live") == 0) {
		if (rec_int(ps, l, 0, 0, nth - 1, &a) || rec_int(ps, l, 1, 0, REC_STATES - 1, &b))
			return DM_EFORMAT;
		size_t k = r->n_live, k2 = r->n_live;
		int *x, *y;
		if (!REC_PUSH(r->live_tid, k, x) || !REC_PUSH(r->live_state, k2, y))
			return rec_nomem(ps);
		r->n_live = k;
		*x = (int)a;
		*y = (int)b;
		return 0;
	}
	if (strcmp(t, "inp") == 0 || strcmp(t, "hold") == 0) {
		if (t[0] == 'i') {
			if (rec_int(ps, l, 0, 0, 1, &a) || r->has_inp[a])
				return rec_bad(ps, "an input out of its place");
			r->has_inp[a] = 1;
			return rec_array(ps, &r->inp[a]);
		}
		if (rec_int(ps, l, 0, 0, nth - 1, &a))
			return DM_EFORMAT;
		size_t k = r->n_held, k2 = r->n_held;
		int *x;
		struct rec_arr *h;
		if (!REC_PUSH(r->held_tid, k, x) || !REC_PUSH(r->held, k2, h))
			return rec_nomem(ps);
		r->n_held = k;
		*x = (int)a;
		return rec_array(ps, h);
	}
	return rec_bad(ps, "an unknown record");
}

static int rec_record(struct rec_parser *ps, const struct rec_line *l)
{
	struct rec_run *r = ps->r;
	long long a, b, c, d;
	const char *t = l->tag;
	int nth = (int)r->n_th;
	if (strcmp(t, "thr") == 0) {
		struct rec_thread *th;
		if (r->n_th >= REC_THREADS_MAX || rec_int(ps, l, 0, nth, nth, &a) ||
		    rec_int(ps, l, 1, -1, nth - 1, &b) || rec_int(ps, l, 2, -1, INT32_MAX, &c) ||
		    rec_int(ps, l, 3, 0, 1, &d))
			return rec_bad(ps, "a thread out of its place");
		if (!REC_PUSH(r->th, r->n_th, th) || !(th->name = rec_str(l, 0)))
			return rec_nomem(ps);
		th->tid = (int)a;
		th->parent = (int)b;
		th->hint = c < ps->n ? (int)c : -1;
		th->caller = (int)d;
		th->rank = th->hint;
		return 0;
	}
	if (strcmp(t, "snd") == 0)
		return rec_msg_rec(ps, l);
	if (strcmp(t, "rcv") == 0)
		return rec_recv_rec(ps, l);
	if (strcmp(t, "exc") == 0) {
		struct rec_exc *e;
		if (rec_int(ps, l, 0, 0, nth - 1, &a) || rec_int(ps, l, 1, 0, INT32_MAX, &b) ||
		    rec_int(ps, l, 2, 0, 1, &c))
			return DM_EFORMAT;
		if (!REC_PUSH(r->exc, r->n_exc, e) || !(e->type = rec_str(l, 0)) ||
		    !(e->msg = rec_str(l, 1)))
			return rec_nomem(ps);
		e->tid = (int)a;
		e->load = (int)c;
		return rec_where(ps, l, 2, b, &e->at);
	}
	if (strcmp(t, "wait") == 0) {
		struct rec_wait *w;
		long long v[7];
		static const long long lo[7] = { 0, 0, -1, -1, -1, -1, 0 };
		long long hi[7] = { nth - 1, REC_STATES - 1, (long long)r->n_msg - 1, nth - 1,
				    REC_QUEUES_MAX - 1, INT32_MAX, INT32_MAX };
		for (int i = 0; i < 7; i++)
			if (rec_int(ps, l, i, lo[i], hi[i], &v[i]))
				return DM_EFORMAT;
		if (!REC_PUSH(r->wait, r->n_wait, w))
			return rec_nomem(ps);
		w->tid = (int)v[0];
		w->state = (int)v[1];
		w->mid = (long)v[2];
		w->target = (int)v[3];
		w->qid = (int)v[4];
		w->cap = (int)v[5];
		return rec_where(ps, l, 0, v[6], &w->at);
	}
	if (strcmp(t, "ret") == 0) {
		if (r->has_ret || rec_int(ps, l, 0, 0, 3, &a) || rec_int(ps, l, 1, 0, INT64_MAX, &b) ||
		    rec_int(ps, l, 2, 0, 1, &c) || rec_int(ps, l, 3, 0, 1, &d))
			return rec_bad(ps, "a result out of its place");
		r->has_ret = 1;
		r->ret_kind = (int)a;
		r->ret_items = (long)b;
		r->ret_allarr = (int)c;
		if (!(r->ret_type = rec_str(l, 0)))
			return rec_nomem(ps);
		r->has_ret_arr = (int)d;
		return d ? rec_array(ps, &r->ret) : 0;
	}
	if (strcmp(t, "item") == 0) {
		/* the items of a returned list, in order (tp_row_mat_mul's ranks' C) */
		if (!r->has_ret || r->ret_kind != REC_RET_SEQ ||
		    rec_int(ps, l, 0, (long long)r->n_items, (long long)r->n_items, &a) ||
		    (long long)r->n_items >= r->ret_items || r->n_items >= REC_ITEMS_MAX)
			return rec_bad(ps, "an item out of its place");
		size_t k = r->n_items;
		struct rec_arr *x;
		if (!REC_PUSH(r->items, k, x))
			return rec_nomem(ps);
		r->n_items = k;
		return rec_array(ps, x);
	}
	if (strcmp(t, "out") == 0) {
		if (r->out || rec_int(ps, l, 0, 0, 1, &a))
			return rec_bad(ps, "an output out of its place");
		if (!(r->out = rec_str(l, 0)))
			return rec_nomem(ps);
		r->out_len = l->len[0];
		r->out_cut = (int)a;
		return 0;
	}
	if (strcmp(t, "end") == 0) {
		if (rec_int(ps, l, 0, 0, REC_OUTCOMES - 1, &a) || rec_int(ps, l, 1, 0, INT64_MAX, &b))
			return DM_EFORMAT;
		r->ended = 1;
		r->outcome = (int)a;
		r->clock = (long)b;
		return 0;
	}
	return rec_small(ps, l);
}

int rec_parse(struct rec_run *r, const char *data, size_t len, int n, struct dm_err *err)
{
	struct rec_parser ps = { data, data + len, 0, r, n, NULL, 0, err };
	struct rec_line l;
	int rc = 0;
	memset(r, 0, sizeof *r);
	if (len == 0)
		return 0;                 /* a run that said nothing (its process died) */
	if ((rc = rec_next(&ps, &l)))
		return rc;
	if (strcmp(l.tag, "hi") != 0 || l.v[0] != 1)
		return rec_bad(&ps, "the first record is not hi 1");
	while (!rc && ps.p < ps.end) {
		if (r->ended)
			rc = rec_bad(&ps, "a record after the end");
		else if (!(rc = rec_next(&ps, &l)))
			rc = strcmp(l.tag, "arr") == 0 || strcmp(l.tag, "hi") == 0
				     ? rec_bad(&ps, "a record out of its place")
				     : rec_record(&ps, &l);
	}
	if (!rc && r->n_th == 0 && r->ended)
		rc = rec_bad(&ps, "a run without its calling thread");
	/* a message put before anyone read its queue, never taken: for the rank
	 * seen reading that queue in the end */
	for (size_t i = 0; !rc && i < r->n_msg; i++) {
		struct rec_msg *m = &r->msg[i];
		if (m->dst < 0 && !m->received && (size_t)m->qid < ps.n_seen)
			m->dst = ps.seen[m->qid];
	}
	free(ps.seen);
	return rc;
}

static void rec_arr_free(struct rec_arr *a, size_t n)
{
	for (size_t i = 0; a && i < n; i++)
		mat_free(&a[i].m);
	free(a);
}

static void rec_where_free(struct rec_where *w)
{
	free(w->file);
	free(w->func);
	free(w->src);
}

void rec_free(struct rec_run *r)
{
	for (size_t i = 0; i < r->n_th; i++)
		free(r->th[i].name);
	for (size_t i = 0; i < r->n_msg; i++) {
		rec_arr_free(r->msg[i].arr, r->msg[i].n_arr);
		rec_arr_free(r->msg[i].rarr, r->msg[i].n_rarr);
		rec_arr_free(r->msg[i].earr, r->msg[i].n_earr);
	}
	for (size_t i = 0; i < r->n_exc; i++) {
		free(r->exc[i].type);
		free(r->exc[i].msg);
		rec_where_free(&r->exc[i].at);
	}
	for (size_t i = 0; i < r->n_wait; i++)
		rec_where_free(&r->wait[i].at);
	rec_arr_free(r->held, r->n_held);
	rec_arr_free(r->items, r->n_items);
	mat_free(&r->ret.m);
	mat_free(&r->inp[0].m);
	mat_free(&r->inp[1].m);
	free(r->th);
	free(r->msg);
	free(r->exc);
	free(r->wait);
	free(r->live_tid);
	free(r->live_state);
	free(r->held_tid);
	free(r->ret_type);
	free(r->out);
	memset(r, 0, sizeof *r);
}

int rec_rank(const struct rec_run *r, int tid)
{
	if (tid < 0 || (size_t)tid >= r->n_th)
		return -1;
	return r->th[tid].rank >= 0 ? r->th[tid].rank : r->th[tid].hint;
}
