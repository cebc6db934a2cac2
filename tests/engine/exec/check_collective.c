/* check_collective: the ring steps over dB's chunks (engine/exec/
 * collective.c), the reduce-scatter and DP's all-gather, through real
 * training runs stepped phase by phase.  After every phase from the
 * partial on, each rank's dB as the snapshot shows it (its K x N buffer,
 * or in FSDP once the ring is over the chunk it keeps) and how many ranks'
 * parts each column holds are held to what the test works out itself:
 *  - the partials P_r = A_rᵀ @ dC_r by the textbook loop (small integers,
 *    so every sum is exact whatever its order);
 *  - after reduce-scatter step s, the chunk rank r received holds the parts
 *    of r and of the s + 1 ranks to its left (the correct ring: chunk
 *    (r - s - 2) mod n; rs-off-by-one: (r - s - 1) mod n, the same parts in
 *    the wrong chunk), or with no-sum only what the first of them sent;
 *  - the all-gather's step s stores in rank r the chunk (r - s - 1) mod n
 *    its left neighbour holds;
 *  - FSDP keeps chunk r once the ring is over, the rest let go.
 * Both modes, 1 to 8 devices, even and uneven chunks and empty ones, every
 * capacity the ring completes with; and what each step says it moved. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "testutil.h"

struct ring {
	int mode, n, bug;
	size_t M, K, N;
	struct mat a, b, dc;
	double *part; /* n * K * N: P_r */
	double *want; /* n * K * N: each rank's dB as it should be */
	int *fill;    /* n * N: parts each column holds */
};

static double *at(double *m, const struct ring *g, int r, size_t i, size_t j)
{
	return &m[((size_t)r * g->K + i) * g->N + j];
}

/* (x mod n), never negative. */
static int mod(int x, int n)
{
	return ((x % n) + n) % n;
}

static void partials(struct ring *g)
{
	for (int r = 0; r < g->n; r++) {
		size_t r0 = split_offset(g->M, g->n, r), r1 = r0 + split_size(g->M, g->n, r);
		for (size_t i = 0; i < g->K; i++)
			for (size_t j = 0; j < g->N; j++) {
				double acc = 0;
				for (size_t m = r0; m < r1; m++)
					acc += MAT_AT(&g->a, m, i) * MAT_AT(&g->dc, m, j);
				*at(g->part, g, r, i, j) = acc;
			}
	}
}

/* The chunk rank r receives at reduce-scatter step s, by the test's own
 * reading of the ring (and of the bug). */
static int rs_chunk(const struct ring *g, int r, int s)
{
	return mod(r - s - (g->bug == BUG_RS_OFF_BY_ONE ? 1 : 2), g->n);
}

/* Reduce-scatter step s: every rank's received chunk from the closed form. */
static void after_rs(struct ring *g, int s)
{
	int n = g->n;
	for (int r = 0; r < n; r++) {
		int c = rs_chunk(g, r, s);
		size_t c0 = split_offset(g->N, n, c), c1 = c0 + split_size(g->N, n, c);
		for (size_t j = c0; j < c1; j++) {
			g->fill[r * (int)g->N + (int)j] = g->bug == BUG_NO_SUM ? 1 : s + 2;
			for (size_t i = 0; i < g->K; i++) {
				double sum = 0;
				if (g->bug == BUG_NO_SUM) /* stored at every hop: the first sender's */
					sum = *at(g->part, g, mod(r - s - 1, n), i, j);
				else
					for (int k = 0; k <= s + 1; k++)
						sum += *at(g->part, g, mod(r - k, n), i, j);
				*at(g->want, g, r, i, j) = sum;
			}
		}
	}
}

/* All-gather step s: what each left neighbour held, stored. */
static void after_ag(struct ring *g, int s)
{
	int n = g->n;
	size_t cells = (size_t)n * g->K * g->N;
	double *before = malloc(cells * sizeof *before);
	int *fill_before = malloc((size_t)n * g->N * sizeof *fill_before);
	ck_assert(before && fill_before);
	memcpy(before, g->want, cells * sizeof *before);
	memcpy(fill_before, g->fill, (size_t)n * g->N * sizeof *fill_before);
	for (int r = 0; r < n; r++) {
		int c = mod(r - s - 1, n), from = mod(r - 1, n);
		size_t c0 = split_offset(g->N, n, c), c1 = c0 + split_size(g->N, n, c);
		for (size_t j = c0; j < c1; j++) {
			g->fill[r * (int)g->N + (int)j] = fill_before[from * (int)g->N + (int)j];
			for (size_t i = 0; i < g->K; i++)
				*at(g->want, g, r, i, j) = *at(before, g, from, i, j);
		}
	}
	free(before);
	free(fill_before);
}

/* FSDP once the ring is over: rank r keeps chunk r, lets the rest go
 * (nothing there, no parts). */
static void fsdp_keeps(struct ring *g)
{
	for (int r = 0; r < g->n; r++) {
		size_t c0 = split_offset(g->N, g->n, r), c1 = c0 + split_size(g->N, g->n, r);
		for (size_t j = 0; j < g->N; j++) {
			if (j >= c0 && j < c1)
				continue;
			g->fill[r * (int)g->N + (int)j] = 0;
			for (size_t i = 0; i < g->K; i++)
				*at(g->want, g, r, i, j) = 0;
		}
	}
}

static void same(const struct ring *g, const struct run_snapshot *s, int phase, const char *what)
{
	for (int r = 0; r < g->n; r++)
		for (size_t j = 0; j < g->N; j++) {
			ck_assert_msg(s->db_fill[(size_t)r * g->N + j] == g->fill[r * (int)g->N + (int)j],
				      "%s, after phase %d (%s): rank %d column %zu holds %d parts, want %d",
				      what, phase, sched_kind_name(s->kind),
				      r, j, s->db_fill[(size_t)r * g->N + j], g->fill[r * (int)g->N + (int)j]);
			for (size_t i = 0; i < g->K; i++) {
				double got = s->db[((size_t)r * g->K + i) * g->N + j];
				double want = *at((double *)g->want, g, r, i, j);
				ck_assert_msg(got == want, "%s, after phase %d: rank %d dB[%zu][%zu] = %g, "
					      "want %g", what, phase, r, i, j, got, want);
			}
		}
}

/* One training step of mode on n devices with bug, stepped; held to the
 * test's sums after every phase from the partial to the gather. */
static void check_ring(int mode, int n, int bug, size_t M, size_t K, size_t N, size_t capacity,
		       uint64_t seed)
{
	struct ring g = { .mode = mode, .n = n, .bug = bug, .M = M, .K = K, .N = N };
	struct run_config cfg;
	struct run_snapshot s;
	struct run *r;
	struct dm_err err;
	char what[96];
	snprintf(what, sizeof what, "%s n=%d %s %zux%zux%zu", plan_mode_name(mode), n, bug_name(bug),
		 M, K, N);
	tu_matrix(&g.a, M, K, 0, seed, 0);
	tu_matrix(&g.b, K, N, 0, seed, 1);
	tu_matrix(&g.dc, M, N, 0, seed, 2);
	size_t cells = (size_t)n * K * N;
	g.part = calloc(cells ? cells : 1, sizeof *g.part);
	g.want = calloc(cells ? cells : 1, sizeof *g.want);
	g.fill = calloc((size_t)n * N + 1, sizeof *g.fill);
	ck_assert(g.part && g.want && g.fill);
	partials(&g);
	struct dm_plan *p = tu_plan_run(mode, n, DM_TRAIN, ORDER_PARITY, bug, capacity);
	run_config_default(&cfg);
	cfg.dc = &g.dc;
	ck_assert_msg(run_new(&r, p, &cfg, &g.a, &g.b, &err) == 0, "%s: %s", what, err.msg);
	ck_assert_int_eq(run_snapshot_init(&s, p, M, K, N, 1, &err), 0);
	int gather = sched_first_phase(p, SCHED_GATHER), rc;
	for (int ph = 0; ph < gather; ph++) {
		rc = run_step(r, &err);
		ck_assert_msg(rc == 0, "%s: phase %d: %d %s", what, ph, rc, err.msg);
		run_snapshot_take(r, &s);
		enum sched_kind kind = sched_phase_kind(p, ph);
		int step = sched_phase_step(p, ph);
		if (kind == SCHED_DB_PARTIAL) {
			memcpy(g.want, g.part, cells * sizeof *g.want);
			for (size_t k = 0; k < (size_t)n * N; k++)
				g.fill[k] = 1;
		} else if (kind == SCHED_REDUCE_SCATTER) {
			after_rs(&g, step);
			for (int rk = 0; rk < n; rk++) {
				ck_assert_int_eq(s.dev[rk].db_recv, rs_chunk(&g, rk, step));
				ck_assert_int_eq(s.dev[rk].db_sent, rs_chunk(&g, mod(rk + 1, n), step));
				ck_assert_int_eq(s.dev[rk].db_added, bug != BUG_NO_SUM);
			}
		} else if (kind == SCHED_ALL_GATHER) {
			after_ag(&g, step);
			for (int rk = 0; rk < n; rk++) {
				ck_assert_int_eq(s.dev[rk].db_recv, mod(rk - step - 1, n));
				ck_assert_int_eq(s.dev[rk].db_sent, mod(rk - step, n));
			}
		}
		if (mode == DM_FSDP && n > 1 && kind == SCHED_REDUCE_SCATTER && step == n - 2)
			fsdp_keeps(&g);
		same(&g, &s, ph, what);
	}
	/* n = 1: the partial is the whole dB, no ring step */
	if (n == 1)
		ck_assert_int_eq(sched_first_phase(p, SCHED_REDUCE_SCATTER), -1);
	tu_run_all(r, 1);
	run_snapshot_free(&s);
	run_free(r);
	plan_free(p);
	free(g.part);
	free(g.want);
	free(g.fill);
	mat_free(&g.a);
	mat_free(&g.b);
	mat_free(&g.dc);
}

/* _i: mode * 3 + the bug (none, rs-off-by-one, no-sum). */
START_TEST(chunk_sums_after_every_step)
{
	static const int bugs[] = { BUG_NONE, BUG_RS_OFF_BY_ONE, BUG_NO_SUM };
	static const size_t shapes[][3] = { { 8, 6, 4 }, { 7, 3, 10 }, { 5, 2, 3 }, { 9, 4, 17 } };
	static const size_t caps[] = { 0, 1, RUN_UNBOUNDED };
	int mode = _i / 3, bug = bugs[_i % 3], top = tu_sampling() > 1 ? 5 : 8;
	for (int n = 1; n <= top; n++)
		for (size_t sh = 0; sh < 4; sh++)
			check_ring(mode, n, bug, shapes[sh][0], shapes[sh][1], shapes[sh][2],
				   caps[(n + sh) % 3], (uint64_t)(n * 10 + (int)sh));
}
END_TEST

/* The bug's chunks, as the devices' own rule gives them: rs-off-by-one
 * sends the all-gather's chunk, (r - s) mod n, and receives what its left
 * neighbour sends; no-sum the ring's chunks. */
START_TEST(the_bugs_chunks)
{
	for (int n = 2; n <= 6; n++)
		for (int r = 0; r < n; r++)
			for (int s = 0; s + 1 < n; s++) {
				ck_assert_int_eq(bug_rs_send_chunk(BUG_RS_OFF_BY_ONE, n, r, s), mod(r - s, n));
				ck_assert_int_eq(bug_rs_recv_chunk(BUG_RS_OFF_BY_ONE, n, r, s),
						 mod(r - s - 1, n));
				ck_assert_int_eq(bug_rs_send_chunk(BUG_NO_SUM, n, r, s),
						 sched_rs_send_chunk(n, r, s));
			}
	ck_assert(bug_rs_adds(BUG_NONE) && bug_rs_adds(BUG_RS_OFF_BY_ONE) && !bug_rs_adds(BUG_NO_SUM));
}
END_TEST

static Suite *collective_suite(void)
{
	Suite *s = suite_create("collective");
	TCase *tc = tcase_create("ring");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, chunk_sums_after_every_step, 0, 6);
	tcase_add_test(tc, the_bugs_chunks);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(collective_suite());
}
