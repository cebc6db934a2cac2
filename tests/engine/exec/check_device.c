/* check_device: a device's memory and accounting (engine/exec/device.c),
 * on devices set up by hand, with no run, no thread and no transport.
 *  - Setup, FSDP and DP, forward and training step, 1 to 9 devices, even,
 *    uneven and empty splits: its rows per numpy.array_split, A a view of
 *    the caller's rows, B a view only where it is all of B and never moves
 *    (else a copy of the right columns), the shard it starts with, nothing
 *    computed yet; the bytes it holds from the start against the model
 *    (<distmm/model.h>: A_r + C_r + the B it starts with, + dC_r in a
 *    training step); the bug kept only where it applies.
 *  - Without the caller's matrices (an MPI rank): buffers of its own.
 *  - Held and peak: the peak never falls, a drop never goes below zero, and
 *    every event logged is stamped with both.
 *  - The buffer cache: small buffers are never kept; a big one let go is
 *    taken again by the next allocation that fits (zeroed when asked),
 *    never by one much smaller; the smallest that fits is chosen; a full
 *    cache gives up its smallest for a bigger one; release frees them all
 *    (ASan and memcheck hold it to that).
 *  - Every allocation of a setup failing in turn: DM_ENOMEM, and release
 *    frees what was made. */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/model.h>
#include <distmm/split.h>
#include "core/xalloc.h"
#include "exec/device.h"
#include "fault_util.h"
#include "testutil.h"

static void setup(struct device *d, int rank, int n, int mode, int train, int bug,
		  const struct mat *a, const struct mat *b, size_t M, size_t K, size_t N)
{
	struct dm_err err;
	memset(d, 0, sizeof *d);
	int rc = train ? device_setup_train(d, rank, n, mode, bug, M, K, N, a, b, &err)
		       : device_setup(d, rank, n, mode, bug, M, K, N, a, b, &err);
	ck_assert_msg(rc == 0, "setup: %s", err.msg);
}

/* One device of each rank of mode on n devices, M x K @ K x N. */
static void check_setup(int mode, int n, int train, size_t M, size_t K, size_t N)
{
	struct mat a, b;
	char what[80];
	tu_matrix(&a, M, K, 1, 7, 0);
	tu_matrix(&b, K, N, 1, 7, 1);
	struct dm_plan *p = tu_plan(mode, n, train ? DM_TRAIN : DM_FORWARD);
	for (int r = 0; r < n; r++) {
		struct device d;
		struct model_fwd m;
		snprintf(what, sizeof what, "%s n=%d%s rank %d, %zux%zux%zu", plan_mode_name(mode), n,
			 train ? " training" : "", r, M, K, N);
		setup(&d, r, n, mode, train, BUG_NONE, &a, &b, M, K, N);
		size_t r0 = split_offset(M, n, r), rows = split_size(M, n, r);
		ck_assert_msg(d.row_begin == r0 && d.row_end == r0 + rows, "%s: rows", what);
		ck_assert_uint_eq(d.M, M);
		/* A: the caller's rows, in place */
		ck_assert_msg(d.a_view && d.a.rows == rows && d.a.cols == K, "%s: A", what);
		if (rows && K)
			ck_assert_ptr_eq(d.a.data, &MAT_AT(&a, r0, 0));
		/* B: all of it in DP (rank 0's the caller's own), the rank's own
		 * shard in FSDP (the caller's own only on one device) */
		size_t c0 = mode == DM_DP ? 0 : split_offset(N, n, r);
		size_t w = mode == DM_DP ? N : split_size(N, n, r);
		ck_assert_msg(d.b.rows == K && d.b.cols == w, "%s: B %zux%zu", what, d.b.rows,
			      d.b.cols);
		ck_assert_int_eq(d.b_view, (mode == DM_DP && r == 0) || (mode == DM_FSDP && n == 1));
		for (size_t i = 0; i < K; i++)
			for (size_t j = 0; j < w; j++)
				ck_assert_msg(MAT_AT(&d.b, i, j) == MAT_AT(&b, i, c0 + j),
					      "%s: B[%zu][%zu]", what, i, j);
		ck_assert_int_eq(d.shard, mode == DM_DP ? -1 : r);
		/* nothing computed, nothing moved */
		ck_assert(d.c.rows == rows && d.c.cols == N);
		for (size_t j = 0; j < N; j++)
			ck_assert_int_eq(d.col_fill[j], DEVICE_FILL_NONE);
		for (size_t k = 0; k < rows * N; k++)
			ck_assert(d.c.data[k] == 0);
		ck_assert(d.sent_shard == -1 && d.sent_to == -1 && d.recv_shard == -1 &&
			  d.recv_from == -1);
		ck_assert_uint_eq(d.sent, 0);
		ck_assert_uint_eq(d.recvd, 0);
		/* held from the start: the model's A_r + C_r + the B it starts
		 * with, and in a training step dC_r (zeroed, its fills none) */
		model_fwd_rank(p, r, M, K, N, &m);
		uint64_t held = m.a + m.c + m.b_start + (train ? 8 * (uint64_t)rows * N : 0);
		ck_assert_msg(d.held == held && d.peak == held, "%s: held %llu peak %llu, the model "
			      "%llu", what, (unsigned long long)d.held, (unsigned long long)d.peak,
			      (unsigned long long)held);
		ck_assert_int_eq(d.train, train);
		if (train) {
			ck_assert(d.dc.rows == rows && d.dc.cols == N);
			for (size_t j = 0; j < N; j++)
				ck_assert_int_eq(d.db_fill[j], 0);
			ck_assert(d.db_sent == -1 && d.db_recv == -1 && d.db_added == -1);
			ck_assert_int_eq(d.spare_chunk, -1);
		}
		device_release(&d);
	}
	plan_free(p);
	mat_free(&a);
	mat_free(&b);
}

START_TEST(setup_of_every_rank)
{
	static const size_t shapes[][3] = { { 8, 6, 4 }, { 7, 5, 10 }, { 3, 2, 2 }, { 1, 1, 1 },
					    { 13, 4, 9 } };
	int mode = _i / 2, train = _i % 2;
	for (int n = 1; n <= 9; n++)
		for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++)
			check_setup(mode, n, train, shapes[sh][0], shapes[sh][1], shapes[sh][2]);
}
END_TEST

/* A bug is kept only where it changes the run (bug_applies): the ring's in
 * an FSDP forward, the gather's in DP too, the backward's in a training
 * step alone; and a bug that moves B even on one device takes a copy. */
START_TEST(the_bug_kept_where_it_applies)
{
	static const struct {
		int mode, train, bug, kept;
	} cs[] = {
		{ DM_FSDP, 0, BUG_SEND_LEFT, 1 },     { DM_DP, 0, BUG_SEND_LEFT, 0 },
		{ DM_DP, 0, BUG_ARRIVAL_ORDER, 1 },   { DM_FSDP, 0, BUG_NO_SUM, 0 },
		{ DM_FSDP, 1, BUG_NO_SUM, 1 },        { DM_DP, 1, BUG_RS_OFF_BY_ONE, 1 },
		{ DM_FSDP, 1, BUG_R_PLUS_S, 0 },      { DM_DP, 1, BUG_ARRIVAL_ORDER, 0 },
	};
	struct mat a, b;
	tu_matrix(&a, 6, 3, 0, 1, 0);
	tu_matrix(&b, 3, 4, 0, 1, 1);
	for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
		struct device d;
		setup(&d, 1, 3, cs[i].mode, cs[i].train, cs[i].bug, &a, &b, 6, 3, 4);
		ck_assert_msg(d.bug == (cs[i].kept ? cs[i].bug : BUG_NONE), "case %zu: bug %d", i,
			      d.bug);
		device_release(&d);
	}
	/* one FSDP device: its shard is all of B, the caller's, unless a bug
	 * may send it (extra-rotation's send too many) */
	struct device d;
	setup(&d, 0, 1, DM_FSDP, 0, BUG_NONE, &a, &b, 6, 3, 4);
	ck_assert(d.b_view && d.b.data == b.data);
	device_release(&d);
	setup(&d, 0, 1, DM_FSDP, 0, BUG_EXTRA_ROTATION, &a, &b, 6, 3, 4);
	ck_assert(!d.b_view && d.b.data != b.data);
	ck_assert(memcmp(d.b.data, b.data, 3 * 4 * sizeof(double)) == 0);
	device_release(&d);
	mat_free(&a);
	mat_free(&b);
}
END_TEST

/* An MPI rank has no caller's matrices: A and B its own, to fill. */
START_TEST(without_the_callers_matrices)
{
	struct device d;
	setup(&d, 2, 4, DM_FSDP, 1, BUG_NONE, NULL, NULL, 10, 3, 9);
	ck_assert(!d.a_view && !d.b_view);
	ck_assert(d.a.rows == 2 && d.a.cols == 3 && d.a.data);
	ck_assert(d.b.rows == 3 && d.b.cols == 2 && d.b.data);
	d.a.data[0] = d.b.data[0] = 1; /* its own to write */
	device_release(&d);
}
END_TEST

START_TEST(held_and_peak)
{
	struct device d;
	memset(&d, 0, sizeof d);
	device_hold(&d, 100);
	device_hold(&d, 50);
	device_drop(&d, 120);
	ck_assert(d.held == 30 && d.peak == 150);
	device_hold(&d, 100);
	ck_assert(d.held == 130 && d.peak == 150); /* below the peak: it stays */
	device_hold(&d, 40);
	ck_assert(d.held == 170 && d.peak == 170);
	device_drop(&d, 1000); /* never below zero */
	ck_assert(d.held == 0 && d.peak == 170);
	/* every event logged carries both */
	struct ev e = { .op = EV_COMPUTE, .held = 1, .peak = 2 };
	device_hold(&d, 64);
	ck_assert_int_eq(device_log(&d, &e), 0);
	ck_assert_uint_eq(d.log.len, 1);
	ck_assert(d.log.ev[0].held == 64 && d.log.ev[0].peak == 170);
	evlog_free(&d.log);
}
END_TEST

#define BIG (XALLOC_HUGE / sizeof(double)) /* doubles in the smallest buffer kept */

/* A buffer let go is taken again by the next allocation that fits. */
START_TEST(the_cache_keeps_big_buffers)
{
	struct device d;
	struct mat m, small;
	memset(&d, 0, sizeof d);
	/* small buffers are not worth keeping */
	ck_assert_int_eq(device_mat_alloc(&d, &small, 10, 10, 1), 0);
	device_mat_free(&d, &small);
	ck_assert_ptr_null(small.data);
	for (int i = 0; i < DEVICE_CACHE; i++)
		ck_assert_ptr_null(d.cache[i].data);
	/* a big one is, and comes back zeroed when asked */
	ck_assert_int_eq(device_mat_alloc(&d, &m, 2, BIG, 0), 0);
	double *was = m.data;
	memset(m.data, 0xff, 2 * BIG * sizeof(double));
	device_mat_free(&d, &m);
	ck_assert_ptr_null(m.data);
	ck_assert_int_eq(device_mat_alloc(&d, &m, BIG, 2, 1), 0); /* the same bytes, reshaped */
	ck_assert_ptr_eq(m.data, was);
	size_t nonzero = 0;
	for (size_t k = 0; k < 2 * BIG; k++)
		nonzero += m.data[k] != 0;
	ck_assert_uint_eq(nonzero, 0);
	device_mat_free(&d, &m);
	/* not for a matrix much smaller than it (over half as big again) */
	ck_assert_int_eq(device_mat_alloc(&d, &small, 1, BIG + BIG / 4, 0), 0);
	ck_assert_ptr_ne(small.data, was);
	device_mat_free(&d, &small);
	device_release(&d);
	ck_assert_ptr_null(d.cache[0].data);
	/* the smallest that fits: 1.4 and 1.25 kept, 1.2 asked for */
	struct mat x, y;
	ck_assert_int_eq(device_mat_alloc(&d, &x, 1, BIG + 2 * BIG / 5, 0), 0);
	ck_assert_int_eq(device_mat_alloc(&d, &y, 1, BIG + BIG / 4, 0), 0);
	double *want = y.data;
	device_mat_free(&d, &x);
	device_mat_free(&d, &y);
	ck_assert_int_eq(device_mat_alloc(&d, &m, 1, BIG + BIG / 5, 0), 0);
	ck_assert_ptr_eq(m.data, want);
	device_mat_free(&d, &m);
	device_release(&d);
}
END_TEST

/* Full, the cache gives up its smallest for a bigger buffer, and keeps
 * what it has for a smaller one. */
START_TEST(a_full_cache_keeps_the_biggest)
{
	struct device d;
	struct mat m[DEVICE_CACHE + 2];
	memset(&d, 0, sizeof d);
	/* 1, 1.125, 1.25 ... BIG: each kept, each bigger than the last */
	for (int i = 0; i < DEVICE_CACHE + 2; i++)
		ck_assert_int_eq(device_mat_alloc(&d, &m[i], 1, BIG + (size_t)i * BIG / 8, 0), 0);
	double *smallest = m[1].data, *biggest = m[DEVICE_CACHE + 1].data;
	/* let go in order 1 .. DEVICE_CACHE: the cache is full, m[1] its smallest */
	for (int i = 1; i <= DEVICE_CACHE; i++)
		device_mat_free(&d, &m[i]);
	int kept = 0;
	for (int i = 0; i < DEVICE_CACHE; i++)
		kept += d.cache[i].data == smallest;
	ck_assert_int_eq(kept, 1);
	device_mat_free(&d, &m[0]); /* smaller than all: not kept */
	ck_assert_ptr_null(m[0].data);
	device_mat_free(&d, &m[DEVICE_CACHE + 1]); /* bigger: the smallest goes */
	kept = 0;
	int has_biggest = 0;
	for (int i = 0; i < DEVICE_CACHE; i++) {
		kept += d.cache[i].data == smallest;
		has_biggest += d.cache[i].data == biggest;
	}
	ck_assert_int_eq(kept, 0);
	ck_assert_int_eq(has_biggest, 1);
	device_release(&d); /* frees the cache: leak checkers watch */
}
END_TEST

/* The block and the columns of a matrix copied where they belong. */
START_TEST(copies)
{
	struct device d;
	struct mat src, dst, cols;
	struct dm_err err;
	memset(&d, 0, sizeof d);
	tu_matrix(&src, 5, 7, 1, 3, 0);
	ck_assert_int_eq(mat_alloc(&dst, 2, 3, &err), 0);
	device_copy_block(&dst, &src, 2, 4);
	for (size_t i = 0; i < 2; i++)
		for (size_t j = 0; j < 3; j++)
			ck_assert(MAT_AT(&dst, i, j) == MAT_AT(&src, 2 + i, 4 + j));
	ck_assert_int_eq(device_copy_cols(&d, src.data, 5, 7, 3, 2, &cols), 0);
	ck_assert(cols.rows == 5 && cols.cols == 2);
	for (size_t i = 0; i < 5; i++)
		for (size_t j = 0; j < 2; j++)
			ck_assert(MAT_AT(&cols, i, j) == MAT_AT(&src, i, 3 + j));
	device_mat_free(&d, &cols);
	device_release(&d);
	mat_free(&dst);
	mat_free(&src);
}
END_TEST

/* Every allocation of a training step's setup failing in turn. */
struct setup_try {
	struct device d;
	struct mat a, b;
};

static int setup_train(void *ctx, struct dm_err *err)
{
	struct setup_try *t = ctx;
	memset(&t->d, 0, sizeof t->d);
	return device_setup_train(&t->d, 1, 4, DM_FSDP, BUG_NONE, 8, 6, 4, &t->a, &t->b, err);
}

static void setup_undo(void *ctx)
{
	device_release(&((struct setup_try *)ctx)->d);
}

START_TEST(allocation_failures)
{
	static struct setup_try t;
	tu_matrix(&t.a, 8, 6, 0, 2, 0);
	tu_matrix(&t.b, 6, 4, 0, 2, 1);
	/* C, its fills, B's copy, dC, dB's fills */
	ck_assert_int_ge(fu_each_alloc_fails(setup_train, setup_undo, &t, "setup"), 4);
	mat_free(&t.a);
	mat_free(&t.b);
}
END_TEST

static Suite *device_suite(void)
{
	Suite *s = suite_create("device");
	TCase *tc = tcase_create("setup");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, setup_of_every_rank, 0, 4);
	tcase_add_test(tc, the_bug_kept_where_it_applies);
	tcase_add_test(tc, without_the_callers_matrices);
	tcase_add_test(tc, allocation_failures);
	suite_add_tcase(s, tc);
	tc = tcase_create("memory");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, held_and_peak);
	tcase_add_test(tc, the_cache_keeps_big_buffers);
	tcase_add_test(tc, a_full_cache_keeps_the_biggest);
	tcase_add_test(tc, copies);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(device_suite());
}
