/* check_train: the training step through the engine.  C, dA and dB against
 * independent loops (long double, not BLAS) over the product table and
 * random shapes with uneven and empty splits on 1 to 8 devices, both
 * modes, stepped and free, capacities 0 and unbounded; one device bit for
 * bit the plain products; every event against the schedule's formulas; the
 * ring's bytes against the closed forms written out here (not the app's
 * model); the held bytes against the model (engine/model/, a second
 * derivation of the same accounting) at the peak, after the forward (the
 * gathered shard let go) and at the end; the snapshot's fields for the
 * interface; the backward's bugs; and what a training step refuses. */
#include <check.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/order.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "testutil.h"
#include <distmm/model.h>

/* The gradients by the textbook loops: dA = dC @ Bᵀ, dB = Aᵀ @ dC. */
static void ref_grads(struct mat *da, struct mat *db, const struct mat *a, const struct mat *b,
		      const struct mat *dc)
{
	struct dm_err err;
	ck_assert_int_eq(mat_alloc(da, a->rows, a->cols, &err), 0);
	ck_assert_int_eq(mat_alloc(db, b->rows, b->cols, &err), 0);
	for (size_t i = 0; i < a->rows; i++)
		for (size_t k = 0; k < a->cols; k++) {
			long double acc = 0;
			for (size_t j = 0; j < b->cols; j++)
				acc += (long double)MAT_AT(dc, i, j) * MAT_AT(b, k, j);
			MAT_AT(da, i, k) = (double)acc;
		}
	for (size_t k = 0; k < b->rows; k++)
		for (size_t j = 0; j < b->cols; j++) {
			long double acc = 0;
			for (size_t i = 0; i < a->rows; i++)
				acc += (long double)MAT_AT(a, i, k) * MAT_AT(dc, i, j);
			MAT_AT(db, k, j) = (double)acc;
		}
}

/* A training step's inputs from a seed: A, B and dC (streams 0, 1, 2). */
struct tcase_in {
	struct mat a, b, dc;
};

static void in_make(struct tcase_in *in, size_t M, size_t K, size_t N, int floats, uint64_t seed)
{
	tu_matrix(&in->a, M, K, floats, seed, 0);
	tu_matrix(&in->b, K, N, floats, seed, 1);
	tu_matrix(&in->dc, M, N, floats, seed, 2);
}

static void in_free(struct tcase_in *in)
{
	mat_free(&in->a);
	mat_free(&in->b);
	mat_free(&in->dc);
}

static struct run *train_new(const struct tcase_in *in, int mode, int n, size_t capacity, int bug)
{
	struct run_config cfg;
	struct dm_plan *p = tu_plan_run(mode, n, DM_TRAIN, ORDER_PARITY, bug, capacity);
	struct run *r = NULL;
	struct dm_err err;
	run_config_default(&cfg);
	cfg.dc = &in->dc;
	ck_assert_msg(run_new(&r, p, &cfg, &in->a, &in->b, &err) == 0, "run_new: %s", err.msg);
	plan_free(p);
	return r;
}

/* Runs c as a training step in mode and checks C, dA and dB. */
static void check_train_case(int mode, const struct tu_case *c, const char *what)
{
	struct tcase_in in;
	struct mat ref, rda, rdb;
	char name[200];
	tu_case_name(mode, c, name, sizeof name);
	in_make(&in, c->M, c->K, c->N, c->floats, c->seed);
	struct run *r = train_new(&in, mode, c->n, c->capacity, 0);
	tu_run_all(r, c->step);
	struct dm_plan *plan = tu_plan(mode, c->n, DM_TRAIN);
	ck_assert_int_eq(run_phase_count(r), sched_phase_count(plan));
	plan_free(plan);
	if (c->exact) { /* one device: the plain products, bit for bit */
		struct dm_err err;
		ck_assert_int_eq(mat_matmul(&ref, &in.a, &in.b, &err), 0);
		ck_assert_int_eq(mat_matmul_nt(&rda, &in.dc, &in.b, &err), 0);
		ck_assert_int_eq(mat_matmul_tn(&rdb, &in.a, &in.dc, &err), 0);
		ck_assert_msg(!memcmp(run_result(r)->data, ref.data, c->M * c->N * 8), "%s: C", name);
		ck_assert_msg(!memcmp(run_result_da(r)->data, rda.data, c->M * c->K * 8), "%s: dA",
			      name);
		ck_assert_msg(!memcmp(run_result_db(r)->data, rdb.data, c->K * c->N * 8), "%s: dB",
			      name);
	} else {
		tu_reference(&ref, &in.a, &in.b);
		ref_grads(&rda, &rdb, &in.a, &in.b, &in.dc);
		ck_assert_msg(tu_allclose(run_result(r), &ref), "%s (%s): C", what, name);
		ck_assert_msg(tu_allclose(run_result_da(r), &rda), "%s (%s): dA", what, name);
		ck_assert_msg(tu_allclose(run_result_db(r), &rdb), "%s (%s): dB", what, name);
	}
	mat_free(&ref);
	mat_free(&rda);
	mat_free(&rdb);
	run_free(r);
	in_free(&in);
}

START_TEST(product_cases)
{
	size_t count;
	const struct tu_case *c = &tu_product_cases(&count)[_i / 2];
	check_train_case(_i % 2 ? DM_DP : DM_FSDP, c, "product case");
}
END_TEST

/* 1..40 x 1..24 @ 1..40 on 1 to 8 devices (uneven splits, more devices than
 * rows or columns), both modes, ints and floats, capacities 0 and unbounded,
 * stepped and free; the seed printed, DISTMM_TEST_SEED repeats it. */
START_TEST(random_shapes)
{
	uint64_t base = tu_test_seed(0x7a41e5), s = base;
	printf("training step: 240 random shapes from seed %#llx (DISTMM_TEST_SEED=%#llx repeats "
	       "them)\n", (unsigned long long)base, (unsigned long long)base);
	fflush(stdout);
	for (int t = 0; t < 240; t++) {
		struct tu_case c;
		char what[96];
		c.M = tu_range(&s, 1, 40);
		c.K = tu_range(&s, 1, 24);
		c.N = tu_range(&s, 1, 40);
		c.n = (int)tu_range(&s, 1, 8);
		c.capacity = t % 3 == 0 ? 0 : RUN_UNBOUNDED;
		c.floats = t % 2;
		c.step = (t / 2) % 2;
		c.exact = 0;
		c.seed = (uint64_t)t;
		snprintf(what, sizeof what, "random case %d of seed %#llx", t, (unsigned long long)base);
		check_train_case(t % 4 < 2 ? DM_FSDP : DM_DP, &c, what);
	}
}
END_TEST

START_TEST(one_device_is_the_plain_products)
{
	struct tu_case c = { 9, 5, 12, 1, RUN_UNBOUNDED, 1, _i, 1, 6 };
	check_train_case(DM_FSDP, &c, "one device");
	check_train_case(DM_DP, &c, "one device");
}
END_TEST

/* 8·K·|chunk k|, k mod n. */
static uint64_t w8(size_t K, size_t N, int n, long k)
{
	return 8 * (uint64_t)K * split_size(N, n, split_mod(k, n));
}

/* Every event against the schedule: the shard each backward compute
 * holds, the chunks of every ring step, each add after its receive; the
 * ring's bytes against the closed forms; the gather's. */
static void check_events(int mode, int n, size_t M, size_t K, size_t N)
{
	struct tcase_in in;
	struct dm_plan *plan = tu_plan(mode, n, DM_TRAIN);
	in_make(&in, M, K, N, 0, 7);
	struct run *r = train_new(&in, mode, n, RUN_UNBOUNDED, 0);
	tu_run_all(r, 0);
	size_t count;
	const struct ev *ev = run_events(r, &count);
	uint64_t sent[8] = { 0 }, recv[8] = { 0 }, gsent[8] = { 0 }, grecv = 0;
	int adds[8] = { 0 }, got_rs[8], bwd[8] = { 0 };
	uint64_t B = 8 * (uint64_t)K * N;
	for (int i = 0; i < n; i++)
		got_rs[i] = -1;
	for (size_t i = 0; i < count; i++) {
		const struct ev *e = &ev[i];
		int kind = sched_phase_kind(plan, e->phase), rk = e->rank;
		ck_assert_int_eq(e->step, sched_phase_step(plan, e->phase));
		switch (kind) {
		case SCHED_BWD_COMPUTE:
			if (e->op == EV_FREE)
				break;
			ck_assert_int_eq(e->tensor, EV_TENSOR_DA);
			ck_assert_int_eq(e->shard, mode == DM_FSDP ? sched_shard(n, rk, e->step) : -1);
			bwd[rk]++;
			break;
		case SCHED_REDUCE_SCATTER:
		case SCHED_ALL_GATHER: {
			int rs = kind == SCHED_REDUCE_SCATTER, s = e->step;
			if (e->op == EV_SEND) {
				ck_assert_int_eq(e->peer, (rk + 1) % n);
				ck_assert_int_eq(e->shard, rs ? ((rk - s - 1) % n + n) % n
							      : ((rk - s) % n + n) % n);
			} else if (e->op == EV_RECV) {
				ck_assert_int_eq(e->peer, (rk + n - 1) % n);
				ck_assert_int_eq(e->shard, rs ? ((rk - s - 2) % n + 2 * n) % n
							      : ((rk - s - 1) % n + n) % n);
				got_rs[rk] = e->shard;
			} else if (e->op == EV_ADD) {
				ck_assert_int_eq(e->shard, got_rs[rk]); /* what it just received */
				ck_assert_uint_eq(e->flags, 0);
				adds[rk]++;
			}
			break;
		}
		default:
			break;
		}
		if (e->op == EV_SEND && kind == SCHED_GATHER)
			gsent[rk] += e->bytes;
		else if (e->op == EV_SEND)
			sent[rk] += e->bytes;
		else if (e->op == EV_RECV)
			recv[rk] += e->bytes;
		else if (e->op == EV_GATHER)
			grecv += e->bytes;
	}
	uint64_t all_gather = 0;
	for (int rk = 0; rk < n; rk++) {
		uint64_t want_s = 0, want_r = 0, rows = split_size(M, n, rk);
		if (n > 1 && mode == DM_FSDP) { /* 2(n-1) B shards and (n-1) dB chunks */
			want_s = 2 * (B - w8(K, N, n, rk + 1)) + (B - w8(K, N, n, rk));
			want_r = 2 * (B - w8(K, N, n, rk)) + (B - w8(K, N, n, rk - 1));
		} else if (n > 1) { /* 2(n-1) dB chunks */
			want_s = (B - w8(K, N, n, rk)) + (B - w8(K, N, n, rk + 1));
			want_r = (B - w8(K, N, n, rk - 1)) + (B - w8(K, N, n, rk));
		}
		ck_assert_msg(sent[rk] == want_s, "%s n=%d rank %d: ring sent %llu, closed form %llu",
			      plan_mode_name(mode), n, rk, (unsigned long long)sent[rk],
			      (unsigned long long)want_s);
		ck_assert_uint_eq(recv[rk], want_r);
		uint64_t piece = 8 * rows * (N + K) + (mode == DM_FSDP ? w8(K, N, n, rk) : 0);
		ck_assert_uint_eq(gsent[rk], rk ? piece : 0);
		all_gather += rk ? piece : 0;
		ck_assert_int_eq(adds[rk], n - 1);
		ck_assert_int_eq(bwd[rk], mode == DM_FSDP ? n : 1);
	}
	ck_assert_uint_eq(grecv, all_gather);
	/* the summaries say the same: ring and gather together */
	struct ev_summary sum[8];
	run_summaries(r, sum);
	for (int rk = 0; rk < n; rk++)
		ck_assert_uint_eq(sum[rk].sent_bytes, sent[rk] + gsent[rk]);
	plan_free(plan);
	run_free(r);
	in_free(&in);
}

START_TEST(formulas_and_traffic_on_every_event)
{
	for (int n = 1; n <= 8; n++)
		for (int mode = 0; mode < 2; mode++) {
			check_events(mode, n, 17, 3, 23);
			check_events(mode, n, 8, 6, 4);
			check_events(mode, n, 2, 2, 3); /* empty rows and chunks */
		}
}
END_TEST

/* Held bytes: the peaks and the end the model's; after the forward an
 * FSDP rank holds its own shard only (the gathered one let go), and the
 * backward's all-gather raises that again. */
static void check_memory(int mode, int n, size_t M, size_t K, size_t N)
{
	struct tcase_in in;
	struct run_snapshot s;
	struct dm_err err;
	struct dm_plan *p = tu_plan(mode, n, DM_TRAIN);
	in_make(&in, M, K, N, 1, 3);
	struct run *r = train_new(&in, mode, n, RUN_UNBOUNDED, 0);
	ck_assert_int_eq(run_snapshot_init(&s, p, M, K, N, 0, &err), 0);
	int last_fwd = mode == DM_FSDP ? 2 * n - 2 : 0, rc, count = run_phase_count(r);
	uint64_t after_fwd[8] = { 0 }, bwd_max[8] = { 0 }, most[8][64], held[8][64];
	for (int rk = 0; rk < n; rk++)
		ck_assert_int_eq(model_train_phases(p, M, K, N, rk, most[rk], held[rk]), count);
	uint64_t peak[8] = { 0 };
	while ((rc = run_step(r, &err)) >= 0) {
		run_snapshot_take(r, &s);
		for (int rk = 0; rk < n; rk++) {
			const struct run_dev_view *v = &s.dev[rk];
			if (s.phase == last_fwd)
				after_fwd[rk] = v->held_bytes;
			if (s.kind == SCHED_BWD_TRANSFER && v->held_bytes > bwd_max[rk])
				bwd_max[rk] = v->held_bytes;
			/* phase by phase: what is left, and the peak so far */
			peak[rk] = most[rk][s.phase] > peak[rk] ? most[rk][s.phase] : peak[rk];
			ck_assert_msg(v->held_bytes == held[rk][s.phase] &&
					      v->peak_bytes == peak[rk],
				      "%s n=%d rank %d after phase %d (%s): held %llu peak %llu, the "
				      "model %llu and %llu", plan_mode_name(mode), n, rk, s.phase,
				      sched_kind_name(s.kind), (unsigned long long)v->held_bytes,
				      (unsigned long long)v->peak_bytes,
				      (unsigned long long)held[rk][s.phase],
				      (unsigned long long)peak[rk]);
		}
		if (rc == 1)
			break;
	}
	ck_assert_msg(rc == 1, "%s", err.msg);
	for (int rk = 0; rk < n; rk++) {
		struct model_train m;
		uint64_t rows = split_size(M, n, rk);
		model_train_rank(p, M, K, N, rk, &m);
		ck_assert_msg(s.dev[rk].peak_bytes == m.peak, "%s n=%d %zux%zux%zu rank %d: peak %llu, "
			      "the model %llu", plan_mode_name(mode), n, M, K, N, rk,
			      (unsigned long long)s.dev[rk].peak_bytes, (unsigned long long)m.peak);
		ck_assert_uint_eq(s.dev[rk].held_bytes, m.end_held);
		uint64_t own = 8 * rows * (K + 2 * N) + (mode == DM_FSDP ? w8(K, N, n, rk) : 8 * K * N);
		ck_assert_msg(after_fwd[rk] == own, "rank %d after the forward holds %llu, not %llu", rk,
			      (unsigned long long)after_fwd[rk], (unsigned long long)own);
		if (mode == DM_FSDP && n > 1 && w8(K, N, n, rk - 1) > 0)
			ck_assert(bwd_max[rk] > own); /* the second all-gather */
	}
	plan_free(p);
	run_snapshot_free(&s);
	run_free(r);
	in_free(&in);
}

START_TEST(memory_follows_the_model)
{
	for (int mode = 0; mode < 2; mode++) {
		check_memory(mode, 1, 8, 6, 4);
		check_memory(mode, 2, 8, 6, 4);
		check_memory(mode, 4, 8, 6, 4);
		check_memory(mode, 3, 7, 5, 10);
		check_memory(mode, 8, 5, 3, 3);
		check_memory(mode, 5, 9, 3, 7);
		check_memory(mode, 8, 64, 32, 64);
	}
}
END_TEST

/* The snapshot's fields for the interface: the kind of each phase, the
 * chunks moved, the parts summed in every column, dA's shards. */
static void check_snapshots(int mode, int n, size_t M, size_t K, size_t N)
{
	struct tcase_in in;
	struct run_snapshot s;
	struct dm_err err;
	struct dm_plan *plan = tu_plan(mode, n, DM_TRAIN);
	in_make(&in, M, K, N, 0, 11);
	struct run *r = train_new(&in, mode, n, 0, 0);
	ck_assert_int_eq(run_snapshot_init(&s, plan, M, K, N, 1, &err), 0);
	run_snapshot_take(r, &s);
	ck_assert(s.pass == DM_TRAIN && s.kind == SCHED_NONE);
	int rc;
	while ((rc = run_step(r, &err)) >= 0) {
		run_snapshot_take(r, &s);
		ck_assert_int_eq(s.kind, sched_phase_kind(plan, s.phase));
		int st = sched_phase_step(plan, s.phase);
		for (int rk = 0; rk < n; rk++) {
			const struct run_dev_view *v = &s.dev[rk];
			const int *fill = &s.db_fill[(size_t)rk * N];
			if (s.kind == SCHED_REDUCE_SCATTER) {
				int c = ((rk - st - 2) % n + 2 * n) % n;
				ck_assert_int_eq(v->db_sent, ((rk - st - 1) % n + n) % n);
				ck_assert_int_eq(v->db_recv, c);
				ck_assert_int_eq(v->db_added, 1);
				for (size_t j = split_offset(N, n, c); j < split_offset(N, n, c + 1); j++)
					ck_assert_int_eq(fill[j], st + 2);
			} else if (s.kind == SCHED_ALL_GATHER) {
				ck_assert_int_eq(v->db_sent, ((rk - st) % n + n) % n);
				ck_assert_int_eq(v->db_added, -1);
			} else if (s.kind != SCHED_GATHER) {
				ck_assert_int_eq(v->db_sent, -1);
				ck_assert_int_eq(v->db_recv, -1);
			}
			if (s.kind == SCHED_BWD_COMPUTE)
				ck_assert_int_eq(v->da_parts, mode == DM_FSDP ? st + 1 : n);
			if (s.kind == SCHED_DB_PARTIAL)
				for (size_t j = 0; j < N; j++)
					ck_assert_int_eq(fill[j], 1);
		}
		if (rc == 1)
			break;
	}
	ck_assert_int_eq(rc, 1);
	/* the end: FSDP's chunk r summed on rank r (rank 0 keeps its own; the
	 * others sent theirs), DP all of dB everywhere */
	for (int rk = 0; rk < n; rk++) {
		const int *fill = &s.db_fill[(size_t)rk * N];
		size_t c0 = split_offset(N, n, rk), c1 = split_offset(N, n, rk + 1);
		for (size_t j = 0; j < N; j++) {
			int mine = j >= c0 && j < c1;
			int want = mode == DM_DP ? n : (mine && rk == 0) || (n == 1) ? n : 0;
			ck_assert_msg(fill[j] == want, "%s n=%d rank %d column %zu: %d parts, not %d",
				      plan_mode_name(mode), n, rk, j, fill[j], want);
		}
		int chunk = s.dev[rk].db_chunk;
		ck_assert_int_eq(chunk, mode == DM_DP || n == 1 ? -2 : rk == 0 ? 0 : -1);
	}
	ck_assert(!memcmp(s.da, run_result_da(r)->data, M * K * 8));
	ck_assert(!memcmp(s.db_result, run_result_db(r)->data, K * N * 8));
	run_snapshot_free(&s);
	plan_free(plan);
	run_free(r);
	in_free(&in);
}

START_TEST(snapshots_for_the_interface)
{
	for (int n = 1; n <= 6; n++)
		for (int mode = 0; mode < 2; mode++) {
			check_snapshots(mode, n, 8, 6, 4);
			check_snapshots(mode, n, 7, 3, 11);
		}
}
END_TEST

/* The backward's bugs fail dB alone, from two devices on; one device has
 * no reduce-scatter. */
START_TEST(backward_bugs_fail_db)
{
	static const int bugs[] = { BUG_RS_OFF_BY_ONE, BUG_NO_SUM };
	for (int k = 0; k < 2; k++)
		for (int mode = 0; mode < 2; mode++)
			for (int n = 1; n <= 6; n++) {
				struct tcase_in in;
				struct mat ref, rda, rdb;
				in_make(&in, 12, 5, 9, 1, 4);
				struct run *r = train_new(&in, mode, n, RUN_UNBOUNDED, bugs[k]);
				tu_run_all(r, n % 2);
				tu_reference(&ref, &in.a, &in.b);
				ref_grads(&rda, &rdb, &in.a, &in.b, &in.dc);
				ck_assert(tu_allclose(run_result(r), &ref));
				ck_assert(tu_allclose(run_result_da(r), &rda));
				ck_assert_msg(tu_allclose(run_result_db(r), &rdb) == (n == 1),
					      "%s %s n=%d: dB %s", bug_name(bugs[k]),
					      plan_mode_name(mode), n, n == 1 ? "wrong" : "right");
				mat_free(&ref);
				mat_free(&rda);
				mat_free(&rdb);
				run_free(r);
				in_free(&in);
			}
}
END_TEST

START_TEST(what_a_training_step_refuses)
{
	struct tcase_in in;
	struct run_config cfg;
	struct dm_plan *p = tu_plan(DM_FSDP, 4, DM_TRAIN);
	struct run *r = NULL;
	struct dm_err err;
	struct mat wrong;
	in_make(&in, 8, 6, 4, 0, 1);
	tu_matrix(&wrong, 8, 5, 0, 1, 2);
	run_config_default(&cfg);
	ck_assert_int_eq(run_new(&r, p, &cfg, &in.a, &in.b, &err), DM_EINVAL); /* no dC */
	cfg.dc = &wrong;
	ck_assert_int_eq(run_new(&r, p, &cfg, &in.a, &in.b, &err), DM_EINVAL);
	ck_assert_msg(strstr(err.msg, "dC is 8x5") && strstr(err.msg, "8x4"), "%s", err.msg);
	cfg.dc = &in.dc;
	ck_assert_int_eq(plan_set_bug(p, BUG_R_PLUS_S, &err), 0);
	ck_assert_int_eq(run_new(&r, p, &cfg, &in.a, &in.b, &err), DM_EINVAL);
	ck_assert(strstr(err.msg, "forward"));
	ck_assert_int_eq(plan_set_bug(p, BUG_NONE, &err), 0);
	ck_assert_int_eq(plan_set_order(p, ORDER_SEND_FIRST, &err), 0);
	ck_assert_int_eq(run_new(&r, p, &cfg, &in.a, &in.b, &err), DM_EINVAL);
	ck_assert_ptr_null(r);
	/* a forward run ignores a backward bug, as DP ignores the ring's; a
	 * training step's snapshot takes it, its gradients empty */
	struct dm_plan *fwd = tu_plan_run(DM_FSDP, 4, DM_FORWARD, ORDER_PARITY, BUG_NO_SUM,
					  RUN_UNBOUNDED);
	ck_assert_int_eq(run_new(&r, fwd, &cfg, &in.a, &in.b, &err), 0);
	ck_assert_int_eq(run_finish(r, &err), 0);
	ck_assert_ptr_null(run_result_da(r));
	struct run_snapshot s;
	ck_assert_int_eq(plan_set_order(p, ORDER_PARITY, &err), 0);
	ck_assert_int_eq(run_snapshot_init(&s, p, 8, 6, 4, 1, &err), 0);
	run_snapshot_take(r, &s);
	ck_assert(s.pass == DM_FORWARD && s.kind == SCHED_GATHER && s.db_result[0] == 0.0);
	run_snapshot_free(&s);
	run_free(r);
	plan_free(fwd);
	plan_free(p);
	mat_free(&wrong);
	in_free(&in);
}
END_TEST

/* The model's closed forms, written as the README states them. */
START_TEST(model_closed_forms)
{
	struct model_train m;
	struct dm_plan *fsdp = tu_plan(DM_FSDP, 4, DM_TRAIN), *dp = tu_plan(DM_DP, 4, DM_TRAIN);
	struct dm_plan *one = tu_plan(DM_FSDP, 1, DM_TRAIN);
	/* the exercise: 8x6 @ 6x4 on 4 devices, B = 192 bytes, chunks of 48
	 * (its formula written out: check_model_words, with the app's words) */
	model_train_rank(fsdp, 8, 6, 4, 1, &m);
	ck_assert_uint_eq(m.ring_sent, 3 * 192 * 3 / 4); /* 3 (n-1)/n of B */
	model_train_rank(dp, 8, 6, 4, 1, &m);
	ck_assert_uint_eq(m.ring_sent, 2 * 192 * 3 / 4); /* 2 (n-1)/n of dB */
	model_train_rank(one, 8, 6, 4, 0, &m);
	ck_assert_uint_eq(m.ring_sent, 0);
	ck_assert_uint_eq(m.gather_recv, 0);
	plan_free(fsdp);
	plan_free(dp);
	plan_free(one);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("train");
	TCase *tc = tcase_create("results");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, product_cases, 0, 2 * (int)tu_product_count());
	tcase_add_test(tc, random_shapes);
	tcase_add_loop_test(tc, one_device_is_the_plain_products, 0, 2);
	suite_add_tcase(s, tc);
	tc = tcase_create("schedule and accounting");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, formulas_and_traffic_on_every_event);
	tcase_add_test(tc, memory_follows_the_model);
	tcase_add_test(tc, snapshots_for_the_interface);
	tcase_add_test(tc, model_closed_forms);
	suite_add_tcase(s, tc);
	tc = tcase_create("bugs and refusals");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, backward_bugs_fail_db);
	tcase_add_test(tc, what_a_training_step_refuses);
	suite_add_tcase(s, tc);
	return tu_main(s);
}
