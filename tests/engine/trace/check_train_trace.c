/* check_train_trace: a training step's event log as a trace.  Written as
 * JSON Lines and read back (the same events, the header's train flag); the
 * checker accepts every training trace the engine writes (both modes, 1 to
 * 8 devices, uneven and empty splits, the backward's bugs), and refuses a
 * corrupted one, each corruption with its reason, as the replay does; the
 * replay rebuilds every field of the live snapshot after every phase, C, dA
 * and every rank's dB bit for bit; the Chrome trace names the backward's
 * events. */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <distmm/bug.h>
#include <distmm/replay.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include <distmm/trace.h>
#include "testutil.h"

/* A training step run to the end, stepped, with a snapshot after every
 * phase (live[p + 1] after phase p), its log and totals. */
struct tlog {
	int mode, n, bug, phases;
	struct mat a, b, dc;
	struct ev *ev, *copy;
	size_t n_ev;
	struct ev_summary *sum;
	struct run_snapshot *live;
	struct dm_plan *plan; /* the run's: a training step */
};

static void tlog_make(struct tlog *l, int mode, int n, int bug, size_t M, size_t K, size_t N,
		      int floats, uint64_t seed, size_t capacity)
{
	struct run_config cfg;
	struct run *r;
	struct dm_err err;
	memset(l, 0, sizeof *l);
	l->mode = mode;
	l->n = n;
	l->bug = bug;
	tu_matrix(&l->a, M, K, floats, seed, 0);
	tu_matrix(&l->b, K, N, floats, seed, 1);
	tu_matrix(&l->dc, M, N, floats, seed, 2);
	l->plan = tu_plan_run(mode, n, DM_TRAIN, ORDER_PARITY, bug, capacity);
	run_config_default(&cfg);
	cfg.dc = &l->dc;
	ck_assert_msg(run_new(&r, l->plan, &cfg, &l->a, &l->b, &err) == 0, "%s", err.msg);
	l->phases = run_phase_count(r);
	l->live = calloc((size_t)l->phases + 1, sizeof *l->live);
	ck_assert_ptr_nonnull(l->live);
	for (int p = 0; p <= l->phases; p++)
		ck_assert_int_eq(run_snapshot_init(&l->live[p], l->plan, M, K, N, 1, &err), 0);
	run_snapshot_take(r, &l->live[0]);
	int rc, p = 0;
	while ((rc = run_step(r, &err)) >= 0) {
		run_snapshot_take(r, &l->live[++p]);
		if (rc == 1)
			break;
	}
	ck_assert_msg(rc == 1, "%s", err.msg);
	const struct ev *ev = run_events(r, &l->n_ev);
	l->ev = malloc(l->n_ev * sizeof *l->ev);
	l->copy = malloc(l->n_ev * sizeof *l->copy);
	l->sum = calloc((size_t)n, sizeof *l->sum);
	ck_assert(l->ev && l->copy && l->sum);
	memcpy(l->ev, ev, l->n_ev * sizeof *ev);
	memcpy(l->copy, ev, l->n_ev * sizeof *ev);
	run_summaries(r, l->sum);
	run_free(r);
}

static void tlog_free(struct tlog *l)
{
	for (int p = 0; l->live && p <= l->phases; p++)
		run_snapshot_free(&l->live[p]);
	free(l->live);
	free(l->ev);
	free(l->copy);
	free(l->sum);
	mat_free(&l->a);
	mat_free(&l->b);
	mat_free(&l->dc);
	plan_free(l->plan);
}

static int tlog_check(const struct tlog *l, struct dm_err *err)
{
	struct trace t = { l->copy, l->n_ev, l->sum, l->n, l->mode, 1 };
	return trace_check(&t, l->a.rows, l->a.cols, l->b.cols, err);
}

static int tlog_replay(const struct tlog *l, struct run_snapshot *s, int upto, struct dm_err *err)
{
	return replay_snapshot(s, l->plan, &l->a, &l->b, &l->dc, l->copy, l->n_ev, upto, err);
}

/* Every field the interface reads, the values bit for bit. */
static void snap_same(const struct run_snapshot *x, const struct run_snapshot *y, int with_values,
		      const char *what)
{
	size_t M = x->M, K = x->K, N = x->N;
	int n = x->n;
	ck_assert_msg(x->phase == y->phase && x->kind == y->kind && x->pass == y->pass &&
			      x->finished == y->finished && x->event_count == y->event_count &&
			      x->phase_count == y->phase_count,
		      "%s: phase %d/%d kind %d/%d finished %d/%d events %zu/%zu", what, x->phase,
		      y->phase, x->kind, y->kind, x->finished, y->finished, x->event_count,
		      y->event_count);
	for (int i = 0; i < n; i++) {
		const struct run_dev_view *u = &x->dev[i], *v = &y->dev[i];
#define SAME(f)                                                                              \
	ck_assert_msg(u->f == v->f, "%s: rank %d: " #f " %lld vs %lld", what, i, (long long)u->f, \
		      (long long)v->f)
		SAME(row_begin);
		SAME(row_end);
		SAME(shard);
		SAME(shard_col_begin);
		SAME(shard_col_end);
		SAME(holds_full_b);
		SAME(held_bytes);
		SAME(peak_bytes);
		SAME(sent_bytes);
		SAME(recv_bytes);
		SAME(dp_bytes);
		SAME(sent_shard);
		SAME(sent_to);
		SAME(recv_shard);
		SAME(recv_from);
		SAME(da_parts);
		SAME(db_sent);
		SAME(db_recv);
		SAME(db_added);
		SAME(db_chunk);
#undef SAME
	}
	ck_assert_msg(!memcmp(x->col_fill, y->col_fill, (size_t)n * N * sizeof(int)), "%s: col_fill",
		      what);
	ck_assert_msg(!memcmp(x->db_fill, y->db_fill, (size_t)n * N * sizeof(int)), "%s: db_fill",
		      what);
	if (!with_values)
		return;
	ck_assert_msg(!memcmp(x->c, y->c, M * N * 8), "%s: C", what);
	ck_assert_msg(!memcmp(x->da, y->da, M * K * 8), "%s: dA", what);
	ck_assert_msg(!memcmp(x->db, y->db, (size_t)n * K * N * 8), "%s: every rank's dB", what);
	ck_assert_msg(!memcmp(x->db_result, y->db_result, K * N * 8), "%s: the gathered dB", what);
}

/* After every phase, with values and without. */
static void check_replay(const struct tlog *l, const char *name)
{
	struct run_snapshot rep, novals;
	struct dm_err err;
	char what[160];
	size_t M = l->a.rows, K = l->a.cols, N = l->b.cols;
	ck_assert_int_eq(run_snapshot_init(&rep, l->plan, M, K, N, 1, &err), 0);
	ck_assert_int_eq(run_snapshot_init(&novals, l->plan, M, K, N, 0, &err), 0);
	for (int p = -1; p < l->phases; p++) {
		if (p >= 0 && !tu_phase_sampled(p, l->phases - 1))
			continue;
		snprintf(what, sizeof what, "%s, after phase %d", name, p);
		ck_assert_msg(tlog_replay(l, &rep, p, &err) == 0, "%s: %s", what, err.msg);
		snap_same(&l->live[p + 1], &rep, 1, what);
		ck_assert_msg(tlog_replay(l, &novals, p, &err) == 0, "%s: %s", what, err.msg);
		snap_same(&l->live[p + 1], &novals, 0, what);
	}
	run_snapshot_free(&rep);
	run_snapshot_free(&novals);
}

/* n = _i + 1: both modes, no bug and the backward's, ints and floats,
 * capacities 0 and unbounded, even, uneven and empty splits. */
START_TEST(replay_matches_live)
{
	static const int bugs[] = { BUG_NONE, BUG_RS_OFF_BY_ONE, BUG_NO_SUM };
	static const size_t shapes[][3] = { { 8, 6, 4 }, { 13, 5, 7 }, { 3, 2, 2 }, { 17, 9, 23 } };
	int n = _i + 1, k = 0;
	for (int mode = 0; mode < 2; mode++)
		for (int b = 0; b < 3; b++)
			for (size_t sh = 0; sh < 4; sh++, k++) {
				struct tlog l;
				char name[120];
				snprintf(name, sizeof name, "%s n=%d bug %s %zux%zux%zu",
					 plan_mode_name(mode), n, bug_name(bugs[b]), shapes[sh][0],
					 shapes[sh][1], shapes[sh][2]);
				tlog_make(&l, mode, n, bugs[b], shapes[sh][0], shapes[sh][1],
					  shapes[sh][2], k % 2, (uint64_t)k, k % 3 ? RUN_UNBOUNDED : 0);
				check_replay(&l, name);
				tlog_free(&l);
			}
}
END_TEST

/* The file: written, read back, the same events; checked against the
 * matrices, for every mode, device count and bug. */
START_TEST(every_training_trace_fits)
{
	static const int bugs[] = { BUG_NONE, BUG_RS_OFF_BY_ONE, BUG_NO_SUM };
	char path[] = "/tmp/check_train_trace.XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	for (int mode = 0; mode < 2; mode++)
		for (int b = 0; b < 3; b++)
			for (int n = 1; n <= 8; n++) {
				struct tlog l;
				struct trace t;
				struct dm_err err;
				tlog_make(&l, mode, n, bugs[b], 2 + (size_t)n, 3, 3 * (size_t)n - 1, 1, 5,
					  RUN_UNBOUNDED);
				ck_assert_int_eq(trace_write_jsonl(path, l.plan, l.ev, l.n_ev, l.sum, &err),
						 0);
				ck_assert_msg(trace_read(path, &t, 0, &err) == 0, "%s", err.msg);
				ck_assert(t.pass == DM_TRAIN);
				ck_assert_int_eq(t.mode, mode);
				ck_assert_int_eq(t.n, n);
				ck_assert_uint_eq(t.n_ev, l.n_ev);
				ck_assert(!memcmp(t.ev, l.ev, l.n_ev * sizeof *l.ev));
				ck_assert_msg(trace_check(&t, l.a.rows, l.a.cols, l.b.cols, &err) == 0,
					      "%s n=%d %s: %s", plan_mode_name(mode), n,
					      bug_name(bugs[b]), err.msg);
				ck_assert(replay_finished(l.plan, t.ev, t.n_ev));
				trace_free(&t);
				tlog_free(&l);
			}
	unlink(path);
}
END_TEST

/* Both must refuse the corrupted log: the checker with its reason, the
 * replay too (it holds a log to the same rules but for whole phases). */
static void refused(struct tlog *l, const char *want, int replay_too, const char *what)
{
	struct dm_err err;
	struct run_snapshot s;
	int rc = tlog_check(l, &err);
	ck_assert_msg(rc == DM_EFORMAT && strstr(err.msg, want), "%s: check: want \"%s\", got %d "
		      "\"%s\"", what, want, rc, err.msg);
	if (replay_too) {
		ck_assert_int_eq(run_snapshot_init(&s, l->plan, l->a.rows, l->a.cols, l->b.cols, 1,
						   &err), 0);
		rc = tlog_replay(l, &s, l->phases - 1, &err);
		ck_assert_msg(rc == DM_EFORMAT, "%s: replay accepted it", what);
		run_snapshot_free(&s);
	}
	memcpy(l->copy, l->ev, l->n_ev * sizeof *l->ev); /* for the next one */
}

/* The copy's first event of op on tensor by rank in a phase of kind. */
static struct ev *find(struct tlog *l, int op, int tensor, int rank, int kind)
{
	for (size_t i = 0; i < l->n_ev; i++) {
		struct ev *e = &l->copy[i];
		if (e->op == op && e->tensor == tensor && e->rank == rank &&
		    (int)sched_phase_kind(l->plan, e->phase) == kind)
			return e;
	}
	ck_abort_msg("no %s by rank %d", ev_op_name(op), rank);
	return NULL;
}

START_TEST(corrupted_traces_are_refused)
{
	struct tlog l;
	struct dm_err err;
	tlog_make(&l, DM_FSDP, 4, BUG_NONE, 8, 6, 4, 0, 1, RUN_UNBOUNDED);
	ck_assert_msg(tlog_check(&l, &err) == 0, "%s", err.msg);
	/* the reduce-scatter's index off by one: no candidate run sends that */
	struct ev *e = find(&l, EV_SEND, EV_TENSOR_DB, 1, SCHED_REDUCE_SCATTER);
	int was = e->shard;
	e->shard = (was + 1) % 4;
	e->col_begin = (uint32_t)e->shard;
	e->col_end = e->col_begin + 1;
	refused(&l, "chunk", 1, "a send of the wrong chunk");
	/* an add that stored: only the no-sum run does, and its other adds add */
	find(&l, EV_ADD, EV_TENSOR_DB, 2, SCHED_REDUCE_SCATTER)->flags = EV_FLAG_OVERWRITE;
	refused(&l, "stores", 1, "one add overwriting");
	/* dA from the wrong shard */
	e = find(&l, EV_COMPUTE, EV_TENSOR_DA, 3, SCHED_BWD_COMPUTE);
	e->shard = 0;
	e->col_begin = 0;
	e->col_end = 1;
	refused(&l, "shard", 1, "dA with a shard not held");
	/* a byte count that is not the chunk's */
	find(&l, EV_RECV, EV_TENSOR_DB, 0, SCHED_REDUCE_SCATTER)->bytes += 8;
	refused(&l, "bytes", 1, "a chunk's bytes");
	/* the gathered shard not let go: the forward's free dropped */
	e = find(&l, EV_FREE, EV_TENSOR_FWD, 2, SCHED_COMPUTE);
	memmove(e, e + 1, (size_t)(&l.copy[l.n_ev] - (e + 1)) * sizeof *e);
	l.n_ev--;
	refused(&l, "does not free the gathered shard", 0, "a free left out");
	l.n_ev++;
	/* an add before its receive */
	for (size_t i = 0; i + 1 < l.n_ev; i++)
		if (l.copy[i].op == EV_RECV && l.copy[i].tensor == EV_TENSOR_DB &&
		    l.copy[i + 1].op == EV_ADD) {
			struct ev t = l.copy[i];
			l.copy[i] = l.copy[i + 1];
			l.copy[i + 1] = t;
			break;
		}
	refused(&l, "not after receiving it", 0, "an add before its receive");
	/* a training step's events in a trace that does not say it is one */
	struct trace t = { l.copy, l.n_ev, l.sum, l.n, l.mode, 0 };
	ck_assert_int_eq(trace_check(&t, 8, 6, 4, &err), DM_EFORMAT);
	ck_assert_msg(strstr(err.msg, "training step"), "%s", err.msg);
	/* a summary that is not the events' sums */
	l.sum[1].sent_bytes += 1;
	refused(&l, "summary", 0, "a summary");
	l.sum[1].sent_bytes -= 1;
	tlog_free(&l);

	/* DP: an all-gather step's chunk, and a gather of dB DP does not make */
	tlog_make(&l, DM_DP, 3, BUG_NONE, 7, 5, 8, 1, 2, 0);
	ck_assert_msg(tlog_check(&l, &err) == 0, "%s", err.msg);
	e = find(&l, EV_RECV, EV_TENSOR_DB, 1, SCHED_ALL_GATHER);
	e->shard = (e->shard + 1) % 3;
	e->col_begin = (uint32_t)split_offset(8, 3, e->shard);
	e->col_end = (uint32_t)split_offset(8, 3, e->shard + 1);
	refused(&l, "the ring's is chunk", 1, "an all-gather's chunk");
	e = find(&l, EV_SEND, EV_TENSOR_DA, 2, SCHED_GATHER);
	*e = (struct ev){ .phase = e->phase, .step = 0, .op = EV_SEND, .rank = 2, .peer = 0,
			  .shard = 2, .tensor = EV_TENSOR_DB, .row_end = 5,
			  .col_begin = (uint32_t)split_offset(8, 3, 2), .col_end = 8,
			  .bytes = 8 * 5 * split_size(8, 3, 2), .held = e->held, .peak = e->peak };
	refused(&l, "DP gathers no dB", 1, "DP gathering dB");
	tlog_free(&l);
}
END_TEST

/* The text: the header first, tensors and ops as the reader knows them;
 * a header anywhere else, a bad tensor, are refused with their line. */
START_TEST(the_format)
{
	struct dm_err err;
	struct trace t;
	char line[512];
	struct ev e = { .phase = 3, .step = 1, .op = EV_ADD, .rank = 2, .peer = -1, .shard = 1,
			.tensor = EV_TENSOR_DB, .row_end = 6, .col_begin = 1, .col_end = 2,
			.flags = EV_FLAG_OVERWRITE, .bytes = 48 };
	trace_format_event(&e, line, sizeof line);
	ck_assert_msg(strstr(line, "\"op\":\"add\",\"rank\":2,\"tensor\":\"dB\",\"shard\":1") &&
			      strstr(line, "\"overwrite\":true"), "%s", line);
	trace_format_header(DM_TRAIN, line, sizeof line);
	ck_assert_str_eq(line, "{\"op\":\"run\",\"train\":true}");
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "{\"op\":\"summary\",\"rank\":0,\"peak_bytes\":0,\"sent_bytes\":0,\"recv_bytes\":0}\n"
		  "{\"op\":\"run\",\"train\":true}\n", ":2: a \"run\" line is the trace's first line" },
		{ "{\"op\":\"run\",\"train\":1}\n", ":1: a \"run\" line says \"train\"" },
		{ "{\"op\":\"run\",\"train\":true,\"rank\":0}\n", "\"rank\" is not part of a run line" },
		{ "{\"op\":\"run\",\"train\":true}\n{\"phase\":0,\"step\":0,\"op\":\"compute\",\"rank\":0,"
		  "\"tensor\":\"dX\",\"shard\":0,\"row_begin\":0,\"row_end\":1,\"col_begin\":0,"
		  "\"col_end\":1,\"bytes\":8}\n", ":2: unknown tensor \"dX\"" },
		{ "{\"phase\":0,\"step\":0,\"op\":\"free\",\"rank\":0,\"shard\":0,\"row_begin\":0,"
		  "\"row_end\":1,\"col_begin\":0,\"col_end\":1,\"bytes\":8}\n{\"op\":\"summary\","
		  "\"rank\":0,\"peak_bytes\":0,\"sent_bytes\":0,\"recv_bytes\":0}\n",
		  ":1: a training step's event" },
		{ "{\"phase\":0,\"step\":0,\"op\":\"send\",\"rank\":0,\"dst\":0,\"shard\":0,"
		  "\"row_begin\":0,\"row_end\":1,\"col_begin\":0,\"col_end\":1,\"bytes\":8,"
		  "\"overwrite\":true}\n", "\"overwrite\" is not part of a send line" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int rc = trace_parse(&t, bad[i].text, strlen(bad[i].text), "t", &err);
		ck_assert_msg(rc == DM_EFORMAT && strstr(err.msg, bad[i].want), "%zu: %d \"%s\"", i,
			      rc, err.msg);
	}
}
END_TEST

/* The Chrome trace: the process and the backward's events by name. */
START_TEST(chrome_names_the_backward)
{
	struct tlog l;
	struct dm_err err;
	char path[] = "/tmp/check_train_chrome.XXXXXX", buf[1 << 16];
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	tlog_make(&l, DM_FSDP, 3, BUG_NO_SUM, 6, 4, 5, 0, 3, RUN_UNBOUNDED);
	ck_assert_int_eq(trace_write_chrome(path, l.plan, l.ev, l.n_ev, &err), 0);
	FILE *fp = fopen(path, "r");
	ck_assert_ptr_nonnull(fp);
	size_t len = fread(buf, 1, sizeof buf - 1, fp);
	fclose(fp);
	buf[len] = '\0';
	static const char *const want[] = { "distmm-tui FSDP training step", "compute dA with B[",
					    "compute dB partial", "send dB[", "store over dB[",
					    "free B[", "keep dB[", "gather dA rows",
					    "\"tensor\":\"dB\"", "\"overwrite\":true" };
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		ck_assert_msg(strstr(buf, want[i]), "the Chrome trace lacks %s", want[i]);
	unlink(path);
	tlog_free(&l);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("train_trace");
	TCase *tc = tcase_create("replay");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, replay_matches_live, 0, 8);
	suite_add_tcase(s, tc);
	tc = tcase_create("check");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, every_training_trace_fits);
	tcase_add_test(tc, corrupted_traces_are_refused);
	tcase_add_test(tc, the_format);
	tcase_add_test(tc, chrome_names_the_backward);
	suite_add_tcase(s, tc);
	return tu_main(s);
}
