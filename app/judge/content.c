/* content: arrays named by their values (see content.h).  The blocks are
 * views into A, B and A @ B, compared in place: no copy is made, and a
 * mismatch usually shows at the first element, so naming a message costs
 * little even when many blocks share its shape. */
#include "judge/content.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <distmm/split.h>

/* Products larger than this many multiply-adds are not made: the result
 * is then checked by Freivalds (verify.h) and its blocks go unnamed. */
#define CONTENT_P_MAX ((double)(1ull << 31))
#define CONTENT_TOL 1e-7

struct content_view {
	const struct mat *m;
	size_t r0, rows, c0, cols;
};

static size_t ct_off(size_t len, int n, int i)
{
	return split_offset(len, n, i);
}

static size_t ct_size(size_t len, int n, int i)
{
	return split_size(len, n, i);
}

int content_init(struct content *ct, const struct mat *a, const struct mat *b, int n,
		 struct dm_err *err)
{
	memset(ct, 0, sizeof *ct);
	ct->a = a;
	ct->b = b;
	ct->n = n;
	ct->M = a->rows;
	ct->K = a->cols;
	ct->N = b->cols;
	if ((double)ct->M * ct->K * ct->N > CONTENT_P_MAX)
		return 0;
	int rc = mat_matmul(&ct->p, a, b, err);
	ct->has_p = rc == 0;
	return rc;
}

void content_free(struct content *ct)
{
	mat_free(&ct->p);
}

/* x (rows x cols, rows ld apart) is close to the view: max |x - y| <=
 * tol * (1 + max |y|), stopping at the first element past the bound. */
static int ct_close(const double *x, size_t ld, const struct content_view *v)
{
	double ymax = 0;
	for (size_t i = 0; i < v->rows; i++)
		for (size_t j = 0; j < v->cols; j++)
			ymax = fmax(ymax, fabs(MAT_AT(v->m, v->r0 + i, v->c0 + j)));
	double tol = CONTENT_TOL * (1.0 + ymax);
	for (size_t i = 0; i < v->rows; i++)
		for (size_t j = 0; j < v->cols; j++) {
			double d = fabs(x[i * ld + j] - MAT_AT(v->m, v->r0 + i, v->c0 + j));
			if (!(d <= tol))
				return 0;
		}
	return 1;
}

/* The families of blocks, in the order they are tried (a block found
 * first wins): of A, of B, or of A @ B; rows and columns each whole or cut
 * in n by numpy.array_split's rule. */
static const struct ct_family {
	int kind;
	char mat;            /* 'A', 'B', 'P' (A @ B) */
	int split_rows, split_cols;
} ct_families[] = {
	{ CT_A, 'A', 1, 0 },     { CT_A_ALL, 'A', 0, 0 }, { CT_B, 'B', 0, 1 },
	{ CT_B_ALL, 'B', 0, 0 }, { CT_BROWS, 'B', 1, 0 }, { CT_C, 'P', 1, 0 },
	{ CT_P, 'P', 1, 1 },     { CT_C_ALL, 'P', 0, 0 },
};

/* Block idx of them all, its label and its view; 0 past the last. */
static int ct_view(const struct content *ct, int idx, struct content_label *l,
		   struct content_view *v)
{
	int n = ct->n;
	for (size_t f = 0; f < sizeof ct_families / sizeof ct_families[0]; f++) {
		const struct ct_family *fa = &ct_families[f];
		int nr = fa->split_rows ? n : 1, nc = fa->split_cols ? n : 1;
		if (fa->mat == 'P' && !ct->has_p)
			return 0;
		if (idx >= nr * nc) {
			idx -= nr * nc;
			continue;
		}
		int i = idx / nc, k = idx % nc;
		const struct mat *m = fa->mat == 'A' ? ct->a : fa->mat == 'B' ? ct->b : &ct->p;
		/* a row chunk's index is its rank (A, C) or its part of K (B's rows) */
		*l = (struct content_label){ .kind = fa->kind, .i = i, .k = fa->split_cols ? k : i };
		*v = (struct content_view){ m, fa->split_rows ? ct_off(m->rows, n, i) : 0,
					    fa->split_rows ? ct_size(m->rows, n, i) : m->rows,
					    fa->split_cols ? ct_off(m->cols, n, k) : 0,
					    fa->split_cols ? ct_size(m->cols, n, k) : m->cols };
		return 1;
	}
	return 0;
}

/* A rank's rows of C with some shards filled in and the others zero. */
static int ct_part(const struct content *ct, const struct mat *x, struct content_label *l)
{
	int n = ct->n;
	for (int r = 0; r < n && ct->has_p; r++) {
		size_t b = ct_off(ct->M, n, r), rows = ct_size(ct->M, n, r);
		if (rows == 0 || x->rows != rows || x->cols != ct->N)
			continue;
		int ok = 1, filled = 0;
		l->n_parts = 0;
		for (int k = 0; k < n && ok; k++) {
			size_t c0 = ct_off(ct->N, n, k), w = ct_size(ct->N, n, k);
			if (!w)
				continue;
			struct content_view v = { &ct->p, b, rows, c0, w };
			int zero = 1;
			for (size_t i = 0; i < rows; i++)
				for (size_t j = 0; j < w; j++)
					zero &= MAT_AT(x, i, c0 + j) == 0;
			if (ct_close(&x->data[c0], x->cols, &v)) {
				if (l->n_parts < CONTENT_PARTS)
					l->parts[l->n_parts++] = k;
				filled = 1;
			} else if (!zero) {
				ok = 0;
			}
		}
		if (ok && filled) {
			l->kind = CT_CPART;
			l->i = r;
			return 1;
		}
	}
	return 0;
}

void content_identify(const struct content *ct, const struct rec_arr *x, struct content_label *l)
{
	memset(l, 0, sizeof *l);
	l->ndim = x->ndim;
	l->dim[0] = x->dim[0];
	l->dim[1] = x->dim[1];
	l->kind = CT_UNKNOWN;
	if (x->ndim != 2)
		return;
	if (x->dim[0] == 0 || x->dim[1] == 0) {
		l->kind = CT_EMPTY;
		return;
	}
	if (!x->has_data)
		return;
	struct content_label cand;
	struct content_view v;
	for (int idx = 0; ct_view(ct, idx, &cand, &v); idx++) {
		if (v.rows != x->dim[0] || v.cols != x->dim[1] || v.rows * v.cols == 0)
			continue;
		if (ct_close(x->m.data, v.cols, &v)) {
			cand.ndim = 2;
			cand.dim[0] = x->dim[0];
			cand.dim[1] = x->dim[1];
			*l = cand;
			return;
		}
	}
	struct content_label part = *l;
	if (ct_part(ct, &x->m, &part))
		*l = part;
}

void content_payload(const struct content *ct, const struct rec_arr *arr, size_t n_arr,
		     struct content_label *l, int *owner, uint64_t *bytes)
{
	memset(l, 0, sizeof *l);
	l->kind = CT_NONE;
	*owner = -1;
	*bytes = 0;
	for (size_t i = 0; i < n_arr; i++) {
		struct content_label x;
		const struct rec_arr *a = &arr[i];
		content_identify(ct, a, &x);
		if (a->ndim == 2)
			*bytes += a->dim[0] * a->dim[1] * 8;
		/* an empty shard said by its owner is that shard */
		if (x.kind == CT_EMPTY && a->tag >= 0 && a->tag < ct->n &&
		    a->dim[0] == ct->K && a->dim[1] == ct_size(ct->N, ct->n, a->tag)) {
			x.kind = CT_B;
			x.k = a->tag;
		}
		if (x.kind < l->kind) {
			*l = x;
			*owner = a->tag;
		}
	}
}

void content_block(char *buf, size_t size, size_t r0, size_t r1, size_t c0, size_t c1)
{
	snprintf(buf, size, "C[%zu:%zu, %zu:%zu]", r0, r1, c0, c1);
}

int content_shard_of(const struct content *ct, size_t j)
{
	return j < ct->N ? split_part_of(ct->N, ct->n, j) : -1;
}

void content_cols_words(const struct content *ct, size_t c0, size_t c1, char *buf, size_t size)
{
	int k0 = content_shard_of(ct, c0), k1 = content_shard_of(ct, c1 - 1);
	if (c1 <= c0 || k0 < 0 || k1 < 0) {
		snprintf(buf, size, "no column");
		return;
	}
	int whole = c0 == ct_off(ct->N, ct->n, k0) &&
		    c1 == ct_off(ct->N, ct->n, k1) + ct_size(ct->N, ct->n, k1);
	const char *part = whole ? "" : "part";
	if (k0 == k1)
		snprintf(buf, size, whole ? "shard %d" : "part of shard %d's columns", k0);
	else if (k1 == k0 + 1)
		snprintf(buf, size, "%s%sshards %d and %d%s", part, whole ? "" : " of ", k0, k1,
			 whole ? "" : "'s columns");
	else
		snprintf(buf, size, "%s%sshards %d to %d%s", part, whole ? "" : " of ", k0, k1,
			 whole ? "" : "'s columns");
}

void content_words(const struct content *ct, const struct content_label *l, int owner, char *buf,
		   size_t size)
{
	int n = ct->n;
	size_t M = ct->M, K = ct->K, N = ct->N;
	size_t rb = ct_off(M, n, l->i), re = rb + ct_size(M, n, l->i);
	size_t cb = ct_off(N, n, l->k), ce = cb + ct_size(N, n, l->k);
	switch (l->kind) {
	case CT_A:
		snprintf(buf, size, "A's rows %zu:%zu (rank %d's chunk)", rb, re, l->i);
		return;
	case CT_A_ALL: snprintf(buf, size, "all of A"); return;
	case CT_B:
		if (owner >= 0 && owner != l->k)
			snprintf(buf, size, "shard %d (B[:, %zu:%zu]), tagged as shard %d", l->k, cb, ce,
				 owner);
		else
			snprintf(buf, size, "shard %d (B[:, %zu:%zu])", l->k, cb, ce);
		return;
	case CT_B_ALL: snprintf(buf, size, "all of B"); return;
	case CT_BROWS: {
		size_t kb = ct_off(K, n, l->k), ke = kb + ct_size(K, n, l->k);
		snprintf(buf, size, "B's rows %zu:%zu (B split along the wrong axis)", kb, ke);
		return;
	}
	case CT_C: snprintf(buf, size, "rank %d's rows of C (C[%zu:%zu])", l->i, rb, re); return;
	case CT_P:
		snprintf(buf, size, "rank %d's product with shard %d (C[%zu:%zu, %zu:%zu])", l->i, l->k,
			 rb, re, cb, ce);
		return;
	case CT_C_ALL: snprintf(buf, size, "all of C"); return;
	case CT_CPART: {
		char ks[64] = "";
		size_t o = 0;
		for (int p = 0; p < l->n_parts && o < sizeof ks - 8; p++)
			o += (size_t)snprintf(ks + o, sizeof ks - o, "%s%d", p ? ", " : "", l->parts[p]);
		snprintf(buf, size, "rank %d's rows of C (C[%zu:%zu]) with only shard%s %s filled in",
			 l->i, rb, re, l->n_parts == 1 ? "" : "s", ks);
		return;
	}
	case CT_EMPTY:
		snprintf(buf, size, "an empty %" PRIu64 "x%" PRIu64 " array", l->dim[0], l->dim[1]);
		return;
	case CT_NONE: snprintf(buf, size, "something that is not an array"); return;
	default:
		if (l->ndim == 2)
			snprintf(buf, size, "an unknown %" PRIu64 "x%" PRIu64 " array", l->dim[0],
				 l->dim[1]);
		else
			snprintf(buf, size, "an unknown %d-dimensional array", l->ndim);
	}
}

int content_row_map(const struct content *ct, const struct mat *R, long *map)
{
	size_t N = ct->N;
	for (size_t p = 0; p < R->rows; p++) {
		map[p] = -1;
		if (!ct->has_p || R->cols != N)
			continue;
		if (N == 0) {
			map[p] = (long)p;
			continue;
		}
		const double *x = &R->data[p * N];
		if (p < ct->M) {
			struct content_view own = { &ct->p, p, 1, 0, N };
			if (ct_close(x, N, &own)) {
				map[p] = (long)p;
				continue;
			}
		}
		for (size_t q = 0; q < ct->M; q++) {
			struct content_view v = { &ct->p, q, 1, 0, N };
			if (q != p && ct_close(x, N, &v)) {
				map[p] = (long)q;
				break;
			}
		}
	}
	return 0;
}

/* Column j of R's rows b:e against column q of P's (cut: P's truncated). */
static int ct_col_is(const struct content *ct, const struct mat *R, size_t b, size_t e, size_t j,
		     size_t q, int cut)
{
	double pmax = 0, d = 0;
	for (size_t i = b; i < e; i++) {
		double y = MAT_AT(&ct->p, i, q);
		if (cut)
			y = trunc(y);
		pmax = fmax(pmax, fabs(MAT_AT(&ct->p, i, q)));
		d = fmax(d, fabs(MAT_AT(R, i, j) - y));
		if (d != d)
			return 0;
	}
	return cut ? d == 0 : d <= CONTENT_TOL * (1.0 + pmax);
}

void content_col_map(const struct content *ct, const struct mat *R, int r, int prefer_cut,
		     struct content_col *out)
{
	size_t b = ct_off(ct->M, ct->n, r), e = b + ct_size(ct->M, ct->n, r), N = ct->N;
	for (size_t c = 0; c < N; c++) {
		out[c] = (struct content_col){ CC_UNKNOWN, c };
		if (!ct->has_p || e == b)
			continue;
		if (ct_col_is(ct, R, b, e, c, c, 0)) {
			out[c].kind = CC_PRODUCT;
			continue;
		}
		int zero = 1;
		for (size_t i = b; i < e; i++)
			zero &= MAT_AT(R, i, c) == 0;
		int cut_own = ct_col_is(ct, R, b, e, c, c, 1);
		if (prefer_cut && cut_own) {
			out[c].kind = CC_CUT;
			continue;
		}
		size_t q;
		for (q = 0; q < N && !ct_col_is(ct, R, b, e, c, q, 0); q++)
			;
		if (q < N) {
			out[c] = (struct content_col){ CC_PRODUCT, q };
		} else if (zero) {
			out[c].kind = CC_ZERO;
		} else if (cut_own) {
			out[c].kind = CC_CUT;
		} else {
			for (q = 0; q < N && !ct_col_is(ct, R, b, e, c, q, 1); q++)
				;
			if (q < N)
				out[c] = (struct content_col){ CC_CUT, q };
		}
	}
}
