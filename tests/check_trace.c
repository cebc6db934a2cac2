/* check_trace: reading a JSON Lines trace back (the same events and
 * summaries as were written, for both modes), every refusal of the reader
 * with its message, every prefix of a trace, the checker against traces of
 * other shapes and damaged ones, and the Chrome Trace Event Format writer,
 * whose output is parsed back by a small JSON reader here. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <distmm/bug.h>
#include <distmm/evlog.h>
#include "core/fault.h"
#include <distmm/replay.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "testutil.h"
#include <distmm/trace.h>

/* ---- runs and files ---------------------------------------------------- */

struct logged {
	struct mat a, b;
	struct ev *ev;
	size_t n_ev;
	struct ev_summary *sum;
	int mode, n, bug, finished;
	const struct mat *c; /* not kept: compared while the run lives */
};

/* Runs stepped to the end (or to c-mod's stop) and keeps the events. */
static void logged_run(struct logged *l, int mode, int n, int bug, size_t M, size_t K, size_t N,
		       int floats, struct mat *result)
{
	struct run_config cfg;
	struct run *r = NULL;
	struct dm_err err;
	memset(l, 0, sizeof *l);
	tu_matrix(&l->a, M, K, floats, 5, 0);
	tu_matrix(&l->b, K, N, floats, 5, 1);
	run_config_default(&cfg);
	cfg.mode = mode;
	cfg.devices = n;
	cfg.bug = bug;
	ck_assert_int_eq(run_new(&r, &cfg, &l->a, &l->b, &err), 0);
	int rc;
	while ((rc = run_step(r, &err)) == 0)
		;
	/* the bugs that stop a run: c-mod, py-no-mod (where numpy's slice does
	 * not fit), extra-rotation (its stray shard) */
	ck_assert_msg(rc == 1 || ((bug == BUG_C_MOD || bug == BUG_PY_NO_MOD) && n > 1) ||
			      bug == BUG_EXTRA_ROTATION,
		      "run_step: %s", err.msg);
	l->finished = rc == 1;
	const struct ev *ev = run_events(r, &l->n_ev);
	l->ev = malloc((l->n_ev ? l->n_ev : 1) * sizeof *l->ev);
	l->sum = malloc((size_t)n * sizeof *l->sum);
	ck_assert(l->ev && l->sum);
	memcpy(l->ev, ev, l->n_ev * sizeof *ev);
	run_summaries(r, l->sum);
	l->mode = mode;
	l->n = n;
	l->bug = bug;
	if (result) {
		ck_assert(l->finished);
		struct dm_err e2;
		ck_assert_int_eq(mat_copy_block(result, run_result(r), 0, M, 0, N, &e2), 0);
	}
	run_free(r);
}

static void logged_free(struct logged *l)
{
	mat_free(&l->a);
	mat_free(&l->b);
	free(l->ev);
	free(l->sum);
}

static char tmpdir[64];

static void setup_dir(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/check_trace.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void remove_dir(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *de;
	char path[600];
	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.') {
			snprintf(path, sizeof path, "%s/%s", tmpdir, de->d_name);
			unlink(path);
		}
	closedir(d);
	rmdir(tmpdir);
}

static void in_dir(char *path, size_t size, const char *name)
{
	snprintf(path, size, "%s/%s", tmpdir, name);
}

/* The whole file into a NUL-terminated buffer. */
static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	ck_assert_ptr_nonnull(fp);
	fseek(fp, 0, SEEK_END);
	long size = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	char *buf = malloc((size_t)size + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)size, fp), (size_t)size);
	buf[size] = '\0';
	fclose(fp);
	*len = (size_t)size;
	return buf;
}

static void write_text(const char *path, const char *text)
{
	FILE *fp = fopen(path, "wb");
	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	fclose(fp);
}

static int same_ev(const struct ev *x, const struct ev *y)
{
	return x->phase == y->phase && x->step == y->step && x->op == y->op && x->rank == y->rank &&
	       x->peer == y->peer && x->shard == y->shard && x->row_begin == y->row_begin &&
	       x->row_end == y->row_end && x->col_begin == y->col_begin &&
	       x->col_end == y->col_end && x->flags == y->flags && x->bytes == y->bytes &&
	       x->t_begin_ns == y->t_begin_ns && x->t_end_ns == y->t_end_ns &&
	       x->held == y->held && x->peak == y->peak;
}

/* ---- round trip -------------------------------------------------------- */

START_TEST(round_trip)
{
	static const struct { int mode, n, bug; size_t M, K, N; } cs[] = {
		{ DM_FSDP, 1, 0, 3, 2, 4 },  { DM_FSDP, 2, 0, 5, 3, 3 },
		{ DM_FSDP, 4, 0, 8, 6, 4 },  { DM_FSDP, 7, 0, 5, 2, 9 },
		{ DM_FSDP, 5, BUG_R_PLUS_S, 6, 3, 11 }, { DM_FSDP, 4, BUG_SEND_LEFT, 7, 2, 5 },
		{ DM_FSDP, 4, BUG_INT_ACC, 4, 5, 6 }, { DM_FSDP, 5, BUG_SEND_LEFT, 9, 2, 7 },
		{ DM_FSDP, 4, BUG_C_MOD, 4, 3, 4 },  { DM_DP, 1, 0, 2, 2, 2 },
		{ DM_DP, 3, 0, 7, 4, 5 },            { DM_DP, 6, 0, 4, 3, 2 },
	};
	char path[600];
	struct dm_err err;
	setup_dir();
	in_dir(path, sizeof path, "t.jsonl");
	for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++) {
		struct logged l;
		struct trace t;
		struct mat result = { 0, 0, NULL };
		int finishes = cs[k].bug != BUG_C_MOD;
		logged_run(&l, cs[k].mode, cs[k].n, cs[k].bug, cs[k].M, cs[k].K, cs[k].N, 1,
			   finishes ? &result : NULL);
		ck_assert_int_eq(trace_write_jsonl(path, l.ev, l.n_ev, l.sum, (size_t)l.n, &err), 0);
		ck_assert_msg(trace_read(path, &t, 0, &err) == 0, "case %zu: %s", k, err.msg);
		ck_assert_int_eq(t.n, l.n);
		ck_assert_int_eq(t.mode, l.mode);
		ck_assert_uint_eq(t.n_ev, l.n_ev);
		for (size_t i = 0; i < l.n_ev; i++)
			ck_assert_msg(same_ev(&t.ev[i], &l.ev[i]), "case %zu: event %zu differs", k,
				      i);
		for (int r = 0; r < l.n; r++) {
			ck_assert_int_eq(t.sum[r].rank, r);
			ck_assert(t.sum[r].peak_bytes == l.sum[r].peak_bytes);
			ck_assert(t.sum[r].sent_bytes == l.sum[r].sent_bytes);
			ck_assert(t.sum[r].recv_bytes == l.sum[r].recv_bytes);
		}
		/* it fits the matrices it came from, bug or not */
		ck_assert_msg(trace_check(&t, cs[k].M, cs[k].K, cs[k].N, &err) == 0, "case %zu: %s",
			      k, err.msg);
		/* and the events read back rebuild the result bit for bit */
		if (finishes) {
			struct run_snapshot s;
			ck_assert_int_eq(run_snapshot_init(&s, l.n, cs[k].M, cs[k].N, 1, &err), 0);
			int last = sched_phase_count(l.mode, l.n) - 1;
			ck_assert_msg(replay_snapshot(&s, &l.a, &l.b, t.mode, t.n, l.bug, t.ev, t.n_ev,
						      last, &err) == 0, "%s", err.msg);
			ck_assert(memcmp(s.c, result.data, cs[k].M * cs[k].N * sizeof(double)) == 0);
			run_snapshot_free(&s);
		}
		mat_free(&result);
		trace_free(&t);
		ck_assert_ptr_null(t.ev);
		logged_free(&l);
	}
	unlink(path);
	remove_dir();
}
END_TEST

/* Every bug kind on a few device counts: the checker takes them all.
 * no-wrap has its own test (_i = 1), so that a sanitizer report from its
 * run names it. */
START_TEST(every_bug_fits)
{
	struct dm_err err;
	for (int bug = 0; bug < BUG_COUNT; bug++)
		for (int n = 1; n <= 6; n++) {
			if ((bug == BUG_NO_WRAP) != (_i == 1))
				continue;
			struct logged l;
			struct trace t = { 0 };
			logged_run(&l, DM_FSDP, n, bug, 2 + (size_t)n, 3, 3 * (size_t)n - 1, 0, NULL);
			t.ev = l.ev;
			t.n_ev = l.n_ev;
			t.sum = l.sum;
			t.n = n;
			t.mode = DM_FSDP;
			ck_assert_msg(trace_check(&t, 2 + (size_t)n, 3, 3 * (size_t)n - 1, &err) == 0,
				      "bug %s, n %d: %s", bug_name(bug), n, err.msg);
			logged_free(&l);
		}
	/* DP's one bug: the gather stacked in arrival order */
	for (int n = 1; n <= 6 && _i == 0; n++) {
		struct logged l;
		struct trace t = { 0 };
		logged_run(&l, DM_DP, n, BUG_ARRIVAL_ORDER, 2 + (size_t)n, 3, 5, 0, NULL);
		t.ev = l.ev;
		t.n_ev = l.n_ev;
		t.sum = l.sum;
		t.n = n;
		t.mode = DM_DP;
		ck_assert_msg(trace_check(&t, 2 + (size_t)n, 3, 5, &err) == 0, "DP arrival-order, n %d: %s",
			      n, err.msg);
		logged_free(&l);
	}
}
END_TEST

/* ---- the reader's refusals ---------------------------------------------- */

#define EV_COMPUTE_LINE(rank, shard)                                                           \
	"{\"phase\":0,\"step\":0,\"op\":\"compute\",\"rank\":" #rank ",\"shard\":" #shard          \
	",\"row_begin\":0,\"row_end\":1,\"col_begin\":0,\"col_end\":1,\"bytes\":8}\n"
#define SUM_LINE(rank)                                                                         \
	"{\"op\":\"summary\",\"rank\":" #rank ",\"peak_bytes\":1,\"sent_bytes\":0,"               \
	"\"recv_bytes\":0}\n"
#define SUMS2 SUM_LINE(0) SUM_LINE(1)
#define SUMS4 SUM_LINE(0) SUM_LINE(1) SUM_LINE(2) SUM_LINE(3)

static void parse_fails(const char *text, size_t len, int code, const char *want)
{
	struct trace t;
	struct dm_err err;
	/* an exact-size copy, so the sanitizer sees any read past len */
	char *buf = malloc(len ? len : 1);
	ck_assert_ptr_nonnull(buf);
	memcpy(buf, text, len);
	dm_err_clear(&err);
	int rc = trace_parse(&t, buf, len, "t.jsonl", &err);
	ck_assert_msg(rc == code, "want %d \"%s\", got %d \"%s\" for: %.*s", code, want, rc, err.msg,
		      (int)(len > 200 ? 200 : len), text);
	ck_assert_msg(strstr(err.msg, want), "message \"%s\" lacks \"%s\"", err.msg, want);
	ck_assert_ptr_null(t.ev);
	ck_assert_ptr_null(t.sum);
	free(buf);
}

static void refuse(const char *text, const char *want)
{
	parse_fails(text, strlen(text), DM_EFORMAT, want);
}

static void accept(const char *text, int n, size_t n_ev)
{
	struct trace t;
	struct dm_err err;
	size_t len = strlen(text);
	char *buf = malloc(len ? len : 1);
	ck_assert_ptr_nonnull(buf);
	memcpy(buf, text, len);
	int rc = trace_parse(&t, buf, len, "t.jsonl", &err);
	ck_assert_msg(rc == 0, "%s for: %s", err.msg, text);
	ck_assert_int_eq(t.n, n);
	ck_assert_uint_eq(t.n_ev, n_ev);
	trace_free(&t);
	free(buf);
}

START_TEST(reader_refusals)
{
	/* syntax */
	refuse("{\"phase\":0,\n" SUMS2, "t.jsonl:1: not JSON: a key (a string) is missing");
	refuse(SUMS2 "{\"op\":\"summary\",\"rank\":2", "t.jsonl:3: not JSON: ',' or '}'");
	refuse("[1,2]\n", "t.jsonl:1: not JSON: a line must be one object");
	refuse("{\"op\" \"compute\"}\n", "not JSON: ':' is missing");
	refuse("{\"op\":}\n", "not JSON: a value is missing");
	refuse("{\"op\":\"summary\"} x\n", "t.jsonl:1: not JSON: text after the object");
	refuse("{\"op\":\"summ\x01\"}\n", "not JSON: a control character in a string");
	refuse("{\"op\":\"a\\qb\"}\n", "not JSON: a bad escape");
	refuse("{\"op\":\"\\u12g4\"}\n", "not JSON: a bad \\u escape");
	refuse("{\"op\":\"\\u12\"}\n", "not JSON: a bad \\u escape");
	refuse("{\"op\":\"compute\n", "t.jsonl:1: not JSON: a string does not end");
	refuse("{\"rank\":01}\n", "a number with a leading zero");
	refuse("{\"rank\":-}\n", "not JSON: a bad number");
	refuse("{\"rank\":1.}\n", "not JSON: a bad number");
	refuse("{\"rank\":1e}\n", "not JSON: a bad number");
	refuse("{\"rank\":tru}\n", "not JSON: a value is missing");
	refuse("{\"x\":{\"y\":1}}\n", "nested objects and arrays");
	refuse("{\"x\":[1]}\n", "nested objects and arrays");
	refuse("{\"x\":1.5}\n", "t.jsonl:1: \"x\": only strings, integers, true and false");
	refuse("{\"x\":1e3}\n", "\"x\": only strings");
	refuse("{\"x\":null}\n", "\"x\": only strings");
	refuse("{\"op\":\"summary\",\"rank\":0,\"rank\":1}\n",
	       "t.jsonl:1: key \"rank\" appears twice");
	parse_fails("{\"op\":\"sum\0mary\"}\n", 18, DM_EFORMAT, "a control character in a string");
	parse_fails("{\0}\n", 4, DM_EFORMAT, "not JSON");
	/* keys and values */
	refuse("{\"phase\":0}\n" SUMS2, "t.jsonl:1: missing key \"op\"");
	refuse("{\"op\":3}\n", "t.jsonl:1: \"op\" must be a string");
	refuse("{\"op\":\"foo\"}\n", "t.jsonl:1: unknown op \"foo\"");
	refuse("{\"op\":\"computecomputecomputecomputecompute\"}\n", "unknown op \"computecompute");
	refuse("{\"op\":\"\\u00e9\"}\n", "unknown op \"?\"");
	refuse("{\"op\":\"compute\",\"phase\":0,\"step\":0,\"shard\":0,\"row_begin\":0,\"row_end\":1,"
	       "\"col_begin\":0,\"col_end\":1,\"bytes\":8}\n" SUMS2,
	       "t.jsonl:1: missing key \"rank\"");
	refuse("{\"op\":\"send\",\"phase\":1,\"step\":0,\"rank\":0,\"shard\":0,\"row_begin\":0,"
	       "\"row_end\":1,\"col_begin\":0,\"col_end\":1,\"bytes\":8}\n" SUMS2,
	       "missing key \"dst\"");
	refuse("{\"op\":\"recv\",\"phase\":1,\"step\":0,\"rank\":0,\"shard\":0,\"row_begin\":0,"
	       "\"row_end\":1,\"col_begin\":0,\"col_end\":1,\"bytes\":8}\n" SUMS2,
	       "missing key \"src\"");
	/* unknown keys, and keys of another kind of line, are refused by name */
	refuse("{\"op\":\"recv\",\"phase\":1,\"step\":0,\"rank\":0,\"shard\":0,\"row_begin\":0,"
	       "\"row_end\":1,\"col_begin\":0,\"col_end\":1,\"bytes\":8,\"dst\":1}\n" SUMS2,
	       "t.jsonl:1: key \"dst\" is not part of a recv line");
	refuse("{\"op\":\"send\",\"phase\":1,\"step\":0,\"rank\":0,\"dst\":1,\"src\":1,"
	       "\"shard\":0,\"row_begin\":0,\"row_end\":1,\"col_begin\":0,\"col_end\":1,"
	       "\"bytes\":8}\n" SUMS2, "key \"src\" is not part of a send line");
	refuse(EV_COMPUTE_LINE(0, 0) "{\"op\":\"summary\",\"rank\":0,\"peak_bytes\":1,\"sent_bytes\":0,"
	       "\"recv_bytes\":0,\"phase\":0}\n", "t.jsonl:2: key \"phase\" is not part of a summary line");
	refuse("{\"phase\":0,\"step\":0,\"op\":\"compute\",\"rank\":0,\"shard\":0,\"row_begin\":0,"
	       "\"row_end\":1,\"col_begin\":0,\"col_end\":1,\"bytes\":8,\"sent_bytes\":0}\n" SUMS2,
	       "key \"sent_bytes\" is not part of a compute line");
	refuse("{\"phase\":0,\"step\":0,\"op\":\"compute\",\"rank\":0,\"shard\":0,\"row_begin\":0,"
	       "\"row_end\":1,\"col_begin\":0,\"col_end\":1,\"bytes\":8,\"dst\":1}\n" SUMS2,
	       "key \"dst\" is not part of a compute line");
	refuse(EV_COMPUTE_LINE(0, 0) "{\"op\":\"summary\",\"rank\":0,\"peak_bytes\":1,\"sent_bytes\":0,"
	       "\"recv_bytes\":0,\"note\":\"x\"}\n", "t.jsonl:2: unknown key \"note\"");
	refuse("{\"note\":1,\"op\":\"summary\"}\n", "t.jsonl:1: unknown key \"note\"");
	refuse("{\"Rank\":0}\n", "unknown key \"Rank\"");
	refuse("{\"rank_\":0}\n", "unknown key \"rank_\"");
	refuse("{\"\":0}\n", "unknown key \"\"");
	refuse("{\"a_very_long_key_that_is_cut_when_kept_and_shown\":0}\n",
	       "unknown key \"a_very_long_key_that_is_...\"");
	refuse("{\"ph\\u0061se_\":0}\n", "unknown key \"phase_\"");
	refuse("{\"op\":\"gather\",\"phase\":1,\"step\":0,\"rank\":0,\"shard\":-1,\"row_begin\":0,"
	       "\"row_end\":1,\"col_begin\":0,\"col_end\":1,\"bytes\":8}\n" SUMS2,
	       "missing key \"src\"");
	refuse("{\"op\":\"summary\",\"rank\":0,\"peak_bytes\":1,\"sent_bytes\":0}\n",
	       "t.jsonl:1: missing key \"recv_bytes\"");
	refuse("{\"op\":\"summary\",\"rank\":\"0\",\"peak_bytes\":1,\"sent_bytes\":0,"
	       "\"recv_bytes\":0}\n", "\"rank\" must be an integer");
	refuse("{\"op\":\"summary\",\"rank\":-1,\"peak_bytes\":1,\"sent_bytes\":0,"
	       "\"recv_bytes\":0}\n", "t.jsonl:1: \"rank\" must not be negative");
	refuse("{\"op\":\"summary\",\"rank\":-0,\"peak_bytes\":1,\"sent_bytes\":0,"
	       "\"recv_bytes\":0}\n", "\"rank\" must not be negative");
	refuse("{\"op\":\"summary\",\"rank\":2147483648,\"peak_bytes\":1,\"sent_bytes\":0,"
	       "\"recv_bytes\":0}\n", "\"rank\" is 2147483648, more than 2147483647");
	refuse("{\"op\":\"summary\",\"rank\":0,\"peak_bytes\":18446744073709551616,"
	       "\"sent_bytes\":0,\"recv_bytes\":0}\n", "\"peak_bytes\" does not fit in 64 bits");
	refuse("{\"op\":\"summary\",\"rank\":0,\"peak_bytes\":99999999999999999999999999999,"
	       "\"sent_bytes\":0,\"recv_bytes\":0}\n", "does not fit in 64 bits");
	refuse("{\"phase\":0,\"step\":0,\"op\":\"compute\",\"rank\":0,\"shard\":-2,\"row_begin\":0,"
	       "\"row_end\":1,\"col_begin\":0,\"col_end\":1,\"bytes\":8}\n" SUMS2,
	       "\"shard\" must not be negative (but for -1)");
	refuse("{\"phase\":-1,\"step\":0,\"op\":\"compute\",\"rank\":0,\"shard\":0,\"row_begin\":0,"
	       "\"row_end\":1,\"col_begin\":0,\"col_end\":1,\"bytes\":8}\n" SUMS2,
	       "\"phase\" must not be negative");
	refuse("{\"phase\":0,\"step\":0,\"op\":\"compute\",\"rank\":0,\"shard\":0,\"row_begin\":0,"
	       "\"row_end\":4294967296,\"col_begin\":0,\"col_end\":1,\"bytes\":8}\n" SUMS2,
	       "\"row_end\" is 4294967296, more than 4294967295");
	refuse("{\"phase\":0,\"step\":0,\"op\":\"compute\",\"rank\":0,\"shard\":0,\"row_begin\":5,"
	       "\"row_end\":3,\"col_begin\":0,\"col_end\":1,\"bytes\":8}\n" SUMS2,
	       "t.jsonl:1: row_end 3 is before row_begin 5");
	refuse("{\"phase\":0,\"step\":0,\"op\":\"compute\",\"rank\":0,\"shard\":0,\"row_begin\":0,"
	       "\"row_end\":1,\"col_begin\":2,\"col_end\":1,\"bytes\":8}\n" SUMS2,
	       "col_end 1 is before col_begin 2");
	refuse("{\"phase\":0,\"step\":0,\"op\":\"compute\",\"rank\":0,\"shard\":0,\"row_begin\":0,"
	       "\"row_end\":1,\"col_begin\":0,\"col_end\":1,\"bytes\":8,\"truncated\":1}\n" SUMS2,
	       "\"truncated\" must be true or false");
	/* the whole */
	refuse("", "t.jsonl: no summary lines: not a distmm-tui trace");
	refuse("\n\n  \n", "t.jsonl: no summary lines: not a distmm-tui trace");
	refuse(EV_COMPUTE_LINE(0, 0) EV_COMPUTE_LINE(1, 1),
	       "t.jsonl: no summary lines: not a distmm-tui trace");
	refuse(EV_COMPUTE_LINE(7, 0) SUMS4, "t.jsonl:1: rank 7 but the trace has 4 devices");
	refuse(EV_COMPUTE_LINE(0, 9) SUMS4, "t.jsonl:1: shard 9 but the trace has 4 devices");
	refuse("{\"phase\":1,\"step\":0,\"op\":\"send\",\"rank\":0,\"dst\":9,\"shard\":0,"
	       "\"row_begin\":0,\"row_end\":1,\"col_begin\":0,\"col_end\":1,\"bytes\":8}\n" SUMS4,
	       "t.jsonl:1: dst 9 but the trace has 4 devices");
	refuse("{\"phase\":1,\"step\":0,\"op\":\"recv\",\"rank\":0,\"src\":4,\"shard\":0,"
	       "\"row_begin\":0,\"row_end\":1,\"col_begin\":0,\"col_end\":1,\"bytes\":8}\n" SUMS4,
	       "src 4 but the trace has 4 devices");
	refuse(EV_COMPUTE_LINE(0, 0) SUM_LINE(0) EV_COMPUTE_LINE(1, 1) SUM_LINE(1),
	       "t.jsonl:3: an event after the summaries (line 2)");
	refuse(EV_COMPUTE_LINE(0, 0) SUM_LINE(0) SUM_LINE(0), "t.jsonl:3: a second summary for "
	       "rank 0");
	refuse(EV_COMPUTE_LINE(0, 0) SUM_LINE(0) SUM_LINE(5),
	       "t.jsonl:3: a summary for rank 5, but the trace has 2 devices");
	refuse(EV_COMPUTE_LINE(0, 0) EV_COMPUTE_LINE(1, -1) SUMS2,
	       "t.jsonl:2: a compute with all of B, but line 1's uses a shard: DP and FSDP mixed");
	refuse(EV_COMPUTE_LINE(0, -1) EV_COMPUTE_LINE(1, 1) SUMS2, "DP and FSDP mixed");
	/* more summaries than devices can be */
	size_t cap = 4200 * 100, len = 0;
	char *big = malloc(cap);
	ck_assert_ptr_nonnull(big);
	for (int r = 0; r <= RUN_MAX_DEVICES; r++)
		len += (size_t)snprintf(big + len, cap - len, "{\"op\":\"summary\",\"rank\":%d,"
					"\"peak_bytes\":1,\"sent_bytes\":0,\"recv_bytes\":0}\n", r);
	parse_fails(big, len, DM_EFORMAT, "t.jsonl:4097: more than 4096 summary lines");
	free(big);
	/* a name is optional */
	struct trace t;
	struct dm_err err;
	ck_assert_int_eq(trace_parse(&t, "x", 1, NULL, &err), DM_EFORMAT);
	ck_assert(strstr(err.msg, "(trace):1: not JSON"));
}
END_TEST

START_TEST(reader_leniency)
{
	/* whitespace, CRLF, blank lines, keys in any order, escapes in keys,
	 * no final newline, "-1" for a shard */
	accept("\r\n  {  \"shard\" : 0 , \"op\":\"compute\",\"rank\":0,\"phase\":0,\"step\":0,"
	       "\"row_begin\":0,\"row_end\":1,\"col_\\u0062egin\":0,\"col_end\":1,\"bytes\":8,"
	       "\"truncated\":false}\r\n\n"
	       "{\"op\":\"summary\",\"peak_bytes\":1,\"sent_bytes\":0,\"recv_bytes\":0,"
	       "\"\\u0072ank\":0}\t",
	       1, 1);
	accept(EV_COMPUTE_LINE(0, -1) EV_COMPUTE_LINE(1, -1) SUMS2, 2, 2);
	accept(SUMS2, 2, 0);
	struct trace t;
	struct dm_err err;
	const char *text = EV_COMPUTE_LINE(1, -1) SUM_LINE(1) SUM_LINE(0);
	ck_assert_int_eq(trace_parse(&t, text, strlen(text), "t", &err), 0);
	ck_assert_int_eq(t.mode, DM_DP);
	ck_assert_int_eq(t.sum[0].rank, 0);
	ck_assert_int_eq(t.sum[1].rank, 1);
	ck_assert_int_eq(t.ev[0].peer, -1);
	ck_assert_int_eq(t.ev[0].shard, -1);
	ck_assert(t.ev[0].held == 0 && t.ev[0].peak == 0 && t.ev[0].t_end_ns == 0);
	trace_free(&t);
	trace_free(&t); /* twice is harmless */
	text = "{\"phase\":0,\"step\":0,\"op\":\"compute\",\"rank\":0,\"shard\":0,\"row_begin\":0,"
	       "\"row_end\":1,\"col_begin\":0,\"col_end\":1,\"bytes\":8,\"truncated\":true,"
	       "\"held_bytes\":18446744073709551615}\n" SUM_LINE(0);
	ck_assert_int_eq(trace_parse(&t, text, strlen(text), "t", &err), 0);
	ck_assert_int_eq(t.mode, DM_FSDP);
	ck_assert_uint_eq(t.ev[0].flags, EV_FLAG_TRUNCATED);
	ck_assert(t.ev[0].held == UINT64_MAX);
	trace_free(&t);
}
END_TEST

START_TEST(read_errors)
{
	char path[600];
	struct trace t;
	struct dm_err err;
	setup_dir();
	in_dir(path, sizeof path, "missing.jsonl");
	ck_assert_int_eq(trace_read(path, &t, 0, &err), DM_EIO);
	ck_assert(strstr(err.msg, "missing.jsonl"));
	ck_assert_int_eq(trace_read(tmpdir, &t, 0, &err), DM_EIO);
	ck_assert(strstr(err.msg, "is a directory"));
	in_dir(path, sizeof path, "t.jsonl");
	write_text(path, EV_COMPUTE_LINE(0, 0) SUM_LINE(0));
	ck_assert_int_eq(trace_read(path, &t, 10, &err), DM_ENOMEM);
	ck_assert(strstr(err.msg, "limit"));
	ck_assert_int_eq(trace_read(path, &t, 0, &err), 0);
	trace_free(&t);
	write_text(path, EV_COMPUTE_LINE(0, 0) "{\"op\":\"x\"}\n");
	ck_assert_int_eq(trace_read(path, &t, 0, &err), DM_EFORMAT);
	ck_assert_msg(strstr(err.msg, "t.jsonl:2: unknown op \"x\""), "%s", err.msg);
	if (geteuid() != 0) { /* root reads anything */
		chmod(path, 0);
		ck_assert_int_eq(trace_read(path, &t, 0, &err), DM_EIO);
	}
	unlink(path);
	remove_dir();
}
END_TEST

/* Every prefix of a small trace: refused cleanly unless the cut is after
 * the last '}' (then it is the whole trace).  A cut at a line boundary inside
 * the summaries leaves fewer summaries than the ranks in the events. */
START_TEST(every_prefix)
{
	char path[600];
	struct dm_err err;
	setup_dir();
	in_dir(path, sizeof path, "t.jsonl");
	for (int mode = 0; mode < 2; mode++) {
		struct logged l;
		logged_run(&l, mode, 3, 0, 4, 2, 5, 0, NULL);
		ck_assert_int_eq(trace_write_jsonl(path, l.ev, l.n_ev, l.sum, 3, &err), 0);
		size_t len;
		char *text = slurp(path, &len);
		ck_assert(len > 2 && text[len - 1] == '\n' && text[len - 2] == '}');
		for (size_t cut = 0; cut <= len; cut++) {
			struct trace t;
			char *buf = malloc(cut ? cut : 1);
			ck_assert_ptr_nonnull(buf);
			memcpy(buf, text, cut);
			int rc = trace_parse(&t, buf, cut, "t.jsonl", &err);
			if (cut >= len - 1) {
				ck_assert_msg(rc == 0, "cut %zu: %s", cut, err.msg);
				ck_assert_uint_eq(t.n_ev, l.n_ev);
				ck_assert_int_eq(trace_check(&t, 4, 2, 5, &err), 0);
			} else {
				ck_assert_msg(rc == DM_EFORMAT, "cut %zu of %zu: %d", cut, len, rc);
				ck_assert_ptr_null(t.ev);
				ck_assert(strncmp(err.msg, "t.jsonl", 7) == 0);
			}
			trace_free(&t);
			free(buf);
		}
		free(text);
		logged_free(&l);
	}
	unlink(path);
	remove_dir();
}
END_TEST

/* ---- the checker --------------------------------------------------------- */

/* A trace over a copy of a run's events, to damage. */
struct held_trace {
	struct logged l;
	struct trace t;
	struct ev *ev;
	struct ev_summary *sum;
};

static void ht_make(struct held_trace *h, int mode, int n, size_t M, size_t K, size_t N)
{
	logged_run(&h->l, mode, n, 0, M, K, N, 0, NULL);
	h->ev = malloc(h->l.n_ev * sizeof *h->ev);
	h->sum = malloc((size_t)n * sizeof *h->sum);
	ck_assert(h->ev && h->sum);
}

/* Resets the copy to the run's events. */
static struct trace *ht_reset(struct held_trace *h)
{
	memcpy(h->ev, h->l.ev, h->l.n_ev * sizeof *h->ev);
	memcpy(h->sum, h->l.sum, (size_t)h->l.n * sizeof *h->sum);
	h->t = (struct trace){ h->ev, h->l.n_ev, h->sum, h->l.n, h->l.mode, 0 };
	return &h->t;
}

static void ht_free(struct held_trace *h)
{
	free(h->ev);
	free(h->sum);
	logged_free(&h->l);
}

static size_t ht_find(const struct held_trace *h, int op, int rank, int phase)
{
	for (size_t i = 0; i < h->l.n_ev; i++)
		if (h->ev[i].op == op && h->ev[i].rank == rank && h->ev[i].phase == phase)
			return i;
	ck_abort_msg("no %s by rank %d in phase %d", ev_op_name(op), rank, phase);
	return 0;
}

/* Removes event i (the order stays). */
static void ht_remove(struct held_trace *h, size_t i)
{
	memmove(&h->ev[i], &h->ev[i + 1], (h->t.n_ev - i - 1) * sizeof *h->ev);
	h->t.n_ev--;
}

static void check_fails(const struct trace *t, size_t M, size_t K, size_t N, int code,
			const char *want)
{
	struct dm_err err;
	dm_err_clear(&err);
	int rc = trace_check(t, M, K, N, &err);
	ck_assert_msg(rc == code, "want %d \"%s\", got %d \"%s\"", code, want, rc, err.msg);
	ck_assert_msg(strstr(err.msg, want), "message \"%s\" lacks \"%s\"", err.msg, want);
}

START_TEST(checker_refusals)
{
	struct held_trace h, d;
	struct dm_err err;
	struct trace *t;
	/* FSDP, 4 devices, 8x6 @ 6x5: rows 2 each; shards 2, 1, 1, 1 columns */
	ht_make(&h, DM_FSDP, 4, 8, 6, 5);
	ht_make(&d, DM_DP, 3, 7, 4, 5);
	t = ht_reset(&h);
	ck_assert_int_eq(trace_check(t, 8, 6, 5, &err), 0);
	/* other shapes */
	check_fails(t, 10, 6, 5, DM_EFORMAT, "the trace is for 8 rows, A has 10");
	check_fails(t, 8, 6, 6, DM_EFORMAT, "the trace is for 5 columns, B has 6");
	check_fails(t, 8, 7, 5, DM_EFORMAT, "the trace's shards of B have 6 rows, A has 7 columns");
	check_fails(t, 0, 6, 5, DM_EINVAL, "empty matrices: A is 0x6");
	/* DP shows no K: any fits; M and N still count */
	ck_assert_int_eq(trace_check(ht_reset(&d), 7, 99, 5, &err), 0);
	check_fails(ht_reset(&d), 6, 4, 5, DM_EFORMAT, "the trace is for 7 rows, A has 6");

	/* damage, one thing at a time */
	int last = 7;
#define DAMAGE(op, rank, phase, stmt, want)                                                    \
	do {                                                                                   \
		t = ht_reset(&h);                                                              \
		struct ev *m = &h.ev[ht_find(&h, op, rank, phase)];                           \
		(void)m;                                                                       \
		stmt;                                                                          \
		check_fails(t, 8, 6, 5, DM_EFORMAT, want);                                     \
	} while (0)
	DAMAGE(EV_COMPUTE, 1, 0, m->row_begin = 3, "computes rows 3:4, but numpy.array_split gives "
	       "rank 1 rows 2:4");
	DAMAGE(EV_COMPUTE, 1, 2, m->step = 0, "phase 2 belongs to step 1, not 0");
	DAMAGE(EV_COMPUTE, 1, 2, m->phase = 9, "phase 9, but a FSDP run on 4 devices has 8 phases");
	DAMAGE(EV_COMPUTE, 1, 2, (m->phase = 3, m->step = 1), "a compute in phase 3, a transfer "
	       "phase");
	DAMAGE(EV_COMPUTE, 1, 2, m->bytes = 7, "7 bytes, but the block is 32");
	DAMAGE(EV_COMPUTE, 1, 2, m->held = m->peak + 1, "bytes held, more than the peak");
	DAMAGE(EV_COMPUTE, 1, 2, m->col_end = 6, "the trace is for 6 columns, B has 5");
	DAMAGE(EV_COMPUTE, 1, 2, (m->col_begin = 2, m->col_end = 3, m->bytes = 16),
	       "rank 1 computes with shard 0 into columns 2:3; the ring has it compute with shard 0 "
	       "into columns 0:2");
	DAMAGE(EV_COMPUTE, 2, 2, (m->shard = 0, m->col_begin = 0, m->col_end = 1, m->bytes = 16),
	       "nor does it fit a run with one of the deliberate bugs");
	DAMAGE(EV_COMPUTE, 2, 2, m->flags = EV_FLAG_TRUNCATED, "truncated; the ring");
	DAMAGE(EV_COMPUTE, 2, 2, ht_remove(&h, (size_t)(m - h.ev)), "phase 2: rank 2 does not "
	       "compute");
	/* rank 2's compute claimed by rank 3: it holds another shard */
	DAMAGE(EV_COMPUTE, 2, 2, (m->rank = 3, m->row_begin = 6, m->row_end = 8),
	       "rank 3 computes with shard 1 but holds shard 2 (nor does it fit");
	/* rank 3's compute twice: the copy fits the ring, the count does not */
	DAMAGE(EV_COMPUTE, 3, 2, m[-1] = m[0], "rank 3 computes twice in phase 2");
	DAMAGE(EV_RECV, 2, 1, ht_remove(&h, (size_t)(m - h.ev)),
	       "rank 1 sends shard 1 to rank 2, which does not receive it");
	DAMAGE(EV_SEND, 1, 1, ht_remove(&h, (size_t)(m - h.ev)),
	       "rank 2 receives shard 1 from rank 1, which does not send to it");
	DAMAGE(EV_RECV, 2, 1, m->row_end = 5, "a shard has B's rows 0:6, not 0:5");
	DAMAGE(EV_RECV, 2, 1, m->col_end = 2, "shard 1's columns are 2:3, not 2:2");
	DAMAGE(EV_RECV, 2, 1, m->shard = -1, "shard -1, but a run on 4 devices has shards 0 to 3");
	DAMAGE(EV_RECV, 2, 1, m->peer = 2, "rank 2 receives from itself");
	DAMAGE(EV_SEND, 2, last, m->peer = 1, "in the gather rank 2 sends to rank 1");
	DAMAGE(EV_SEND, 2, last, m->shard = 1, "a block of C is shard -1, columns 0:5, not shard 1");
	DAMAGE(EV_SEND, 2, last, ht_remove(&h, (size_t)(m - h.ev)), "phase 7: rank 2 does not send "
	       "its rows");
	DAMAGE(EV_GATHER, 0, last, m->rank = 1, "rank 1 gathers; only rank 0 does");
	DAMAGE(EV_GATHER, 0, last, m->bytes = 8, "8 bytes, but the block is 0");
	DAMAGE(EV_GATHER, 0, last, m->peer = 1,
	       "gathers rows 0:2, but numpy.array_split gives rank 1");
	DAMAGE(EV_GATHER, 0, last, m->peer = -1, "peer -1, but the run has 4 devices");
	DAMAGE(EV_COMPUTE, 3, 2, (m->held = 1, m->peak = 1), "rank 3's peak falls");
	/* a phase missing in the middle: its events gone */
	t = ht_reset(&h);
	for (size_t i = h.t.n_ev; i-- > 0;)
		if (h.ev[i].phase == 3)
			ht_remove(&h, i);
	check_fails(t, 8, 6, 5, DM_EFORMAT, "phase 3 has no events");
	/* out of order */
	t = ht_reset(&h);
	struct ev tmp = h.ev[0];
	h.ev[0] = h.ev[5];
	h.ev[5] = tmp;
	check_fails(t, 8, 6, 5, DM_EFORMAT, "not in phase order");
	/* summaries */
	t = ht_reset(&h);
	h.sum[1].sent_bytes++;
	check_fails(t, 8, 6, 5, DM_EFORMAT, "the summary of rank 1 says");
	t = ht_reset(&h);
	h.sum[2].peak_bytes = 1;
	check_fails(t, 8, 6, 5, DM_EFORMAT, "the summary of rank 2 says");
	/* a run stopped after its phases 0..2: fits, and its summaries are not
	 * held to its events */
	t = ht_reset(&h);
	while (h.t.n_ev > 0 && h.ev[h.t.n_ev - 1].phase > 2)
		h.t.n_ev--;
	h.sum[1].sent_bytes = 12345;
	ck_assert_msg(trace_check(t, 8, 6, 5, &err) == 0, "%s", err.msg);
	/* no events */
	t = ht_reset(&h);
	h.t.n_ev = 0;
	check_fails(t, 8, 6, 5, DM_EFORMAT, "the trace has no events");
	t = ht_reset(&h);
	h.t.n = 0;
	check_fails(t, 8, 6, 5, DM_EINVAL, "device count 0 is out of range");

	/* DP */
	t = ht_reset(&d);
	d.ev[1].col_begin = 1;
	d.ev[1].bytes = 2 * 4 * 8;
	check_fails(t, 7, 4, 5, DM_EFORMAT, "a DP compute writes columns 0:5, not 1:5");
	t = ht_reset(&d);
	d.ev[1].flags = EV_FLAG_TRUNCATED;
	check_fails(t, 7, 4, 5, DM_EFORMAT, "only an FSDP compute is truncated");
#undef DAMAGE
	ht_free(&h);
	ht_free(&d);
}
END_TEST

/* ---- a small JSON reader, to check the Chrome file --------------------- */

enum { J_OBJ, J_ARR, J_STR, J_NUM, J_LIT };

struct jv {
	int type;
	char *str;          /* J_STR */
	double num;         /* J_NUM */
	size_t n;           /* J_OBJ, J_ARR */
	char **keys;        /* J_OBJ */
	struct jv *kids;
};

struct jp {
	const char *p, *end;
};

static void jws(struct jp *j)
{
	while (j->p < j->end && *j->p && strchr(" \t\r\n", *j->p))
		j->p++;
}

static int jstring(struct jp *j, char **out)
{
	size_t cap = 16, len = 0;
	char *s = malloc(cap);
	if (j->p >= j->end || *j->p != '"')
		return free(s), -1;
	for (j->p++;; j->p++) {
		if (j->p >= j->end || (unsigned char)*j->p < 0x20)
			return free(s), -1;
		char c = *j->p;
		if (c == '"')
			break;
		if (c == '\\') {
			if (++j->p >= j->end || !*j->p || !strchr("\"\\/bfnrtu", *j->p))
				return free(s), -1;
			if (*j->p == 'u') {
				for (int k = 1; k <= 4; k++)
					if (j->p + k >= j->end ||
					    !j->p[k] || !strchr("0123456789abcdefABCDEF", j->p[k]))
						return free(s), -1;
				j->p += 4;
				c = '?';
			} else {
				c = *j->p;
			}
		}
		if (len + 2 > cap)
			s = realloc(s, cap *= 2);
		s[len++] = c;
	}
	j->p++;
	s[len] = '\0';
	*out = s;
	return 0;
}

static int jvalue(struct jp *j, struct jv *v, int depth);

static int jcontainer(struct jp *j, struct jv *v, int depth, char close)
{
	size_t cap = 0;
	v->n = 0;
	v->kids = NULL;
	v->keys = NULL;
	j->p++;
	jws(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		return 0;
	}
	for (;;) {
		if (v->n == cap) {
			cap = cap ? cap * 2 : 8;
			v->kids = realloc(v->kids, cap * sizeof *v->kids);
			if (close == '}')
				v->keys = realloc(v->keys, cap * sizeof *v->keys);
		}
		jws(j);
		if (close == '}') {
			if (jstring(j, &v->keys[v->n]))
				return -1;
			jws(j);
			if (j->p >= j->end || *j->p != ':')
				return free(v->keys[v->n]), -1;
			j->p++;
		}
		if (jvalue(j, &v->kids[v->n], depth + 1)) {
			if (close == '}')
				free(v->keys[v->n]);
			return -1;
		}
		v->n++;
		jws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == close) {
			j->p++;
			return 0;
		}
		return -1;
	}
}

static int jvalue(struct jp *j, struct jv *v, int depth)
{
	memset(v, 0, sizeof *v);
	jws(j);
	if (j->p >= j->end || depth > 16)
		return -1;
	char c = *j->p;
	if (c == '{') {
		v->type = J_OBJ;
		return jcontainer(j, v, depth, '}');
	}
	if (c == '[') {
		v->type = J_ARR;
		return jcontainer(j, v, depth, ']');
	}
	if (c == '"') {
		v->type = J_STR;
		return jstring(j, &v->str);
	}
	static const char *const lits[] = { "true", "false", "null" };
	for (int k = 0; k < 3; k++) {
		size_t len = strlen(lits[k]);
		if ((size_t)(j->end - j->p) >= len && memcmp(j->p, lits[k], len) == 0) {
			j->p += len;
			v->type = J_LIT;
			return 0;
		}
	}
	/* a JSON number, strictly */
	const char *s = j->p;
	if (j->p < j->end && *j->p == '-')
		j->p++;
	if (j->p >= j->end || *j->p < '0' || *j->p > '9')
		return -1;
	if (*j->p == '0' && j->p + 1 < j->end && j->p[1] >= '0' && j->p[1] <= '9')
		return -1;
	while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
		j->p++;
	if (j->p < j->end && *j->p == '.') {
		j->p++;
		if (j->p >= j->end || *j->p < '0' || *j->p > '9')
			return -1;
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	v->type = J_NUM;
	v->num = strtod(s, NULL);
	return 0;
}

static void jfree(struct jv *v)
{
	for (size_t i = 0; i < v->n; i++) {
		jfree(&v->kids[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->kids);
	free(v->keys);
	free(v->str);
}

static const struct jv *jget(const struct jv *o, const char *key)
{
	if (o->type != J_OBJ)
		return NULL;
	for (size_t i = 0; i < o->n; i++)
		if (strcmp(o->keys[i], key) == 0)
			return &o->kids[i];
	return NULL;
}

/* Parses the whole file as exactly one JSON value. */
static int jparse_file(const char *text, size_t len, struct jv *root)
{
	struct jp j = { text, text + len };
	if (jvalue(&j, root, 0)) {
		jfree(root);
		return -1;
	}
	jws(&j);
	if (j.p != j.end) {
		jfree(root);
		return -1;
	}
	return 0;
}

START_TEST(json_reader_works)
{
	static const char *const good[] = { "{}", "[]", "{\"a\":[1,-2.5,\"x\\n\",true,null]}",
					    " {\"a\" : {\"b\":0}} \n" };
	static const char *const bad[] = { "{", "{\"a\"}", "{\"a\":1,}", "[1 2]", "01", "{} {}",
					   "\"a\x01\"", "[1.]", "{a:1}" };
	struct jv v;
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		ck_assert_msg(jparse_file(good[i], strlen(good[i]), &v) == 0, "%s", good[i]);
		jfree(&v);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(jparse_file(bad[i], strlen(bad[i]), &v) != 0, "%s", bad[i]);
}
END_TEST

/* ---- the Chrome writer ---------------------------------------------------- */

static void check_chrome(const char *path, const struct logged *l)
{
	size_t len;
	char *text = slurp(path, &len);
	struct jv root;
	ck_assert_msg(jparse_file(text, len, &root) == 0, "not one JSON value: %s", path);
	ck_assert_int_eq(root.type, J_OBJ);
	const struct jv *arr = jget(&root, "traceEvents");
	ck_assert_ptr_nonnull(arr);
	ck_assert_int_eq(arr->type, J_ARR);
	int *names = calloc((size_t)l->n, sizeof *names);
	size_t complete = 0, process = 0;
	ck_assert_ptr_nonnull(names);
	for (size_t i = 0; i < arr->n; i++) {
		const struct jv *e = &arr->kids[i];
		ck_assert_int_eq(e->type, J_OBJ);
		const struct jv *ph = jget(e, "ph"), *ts = jget(e, "ts"), *pid = jget(e, "pid"),
				*tid = jget(e, "tid"), *name = jget(e, "name");
		ck_assert_msg(ph && ts && pid && tid && name, "event %zu lacks ph, ts, pid or tid", i);
		ck_assert(ph->type == J_STR && ts->type == J_NUM && pid->type == J_NUM &&
			  tid->type == J_NUM && name->type == J_STR);
		if (strcmp(ph->str, "M") == 0) {
			const struct jv *args = jget(e, "args");
			ck_assert_ptr_nonnull(args);
			if (strcmp(name->str, "thread_name") == 0) {
				int r = (int)tid->num;
				char want[32];
				ck_assert(r >= 0 && r < l->n);
				names[r]++;
				snprintf(want, sizeof want, "rank %d", r);
				ck_assert_str_eq(jget(args, "name")->str, want);
			} else if (strcmp(name->str, "process_name") == 0) {
				char want[32];
				snprintf(want, sizeof want, "distmm-tui %s", sched_mode_name(l->mode));
				ck_assert_str_eq(jget(args, "name")->str, want);
				process++;
			}
			continue;
		}
		ck_assert_str_eq(ph->str, "X");
		ck_assert(complete < l->n_ev);
		const struct ev *ev = &l->ev[complete++];
		const struct jv *dur = jget(e, "dur"), *cat = jget(e, "cat"), *args = jget(e, "args");
		ck_assert(dur && dur->type == J_NUM && cat && cat->type == J_STR && args);
		ck_assert_str_eq(cat->str, ev_op_name(ev->op));
		ck_assert_int_eq((int)tid->num, ev->rank);
		/* microseconds, to the nanosecond */
		ck_assert(fabs(ts->num * 1000.0 - (double)ev->t_begin_ns) < 0.5);
		ck_assert(fabs(dur->num * 1000.0 - (double)(ev->t_end_ns - ev->t_begin_ns)) < 0.5);
		ck_assert_int_eq((int)jget(args, "phase")->num, ev->phase);
		ck_assert_int_eq((int)jget(args, "step")->num, ev->step);
		ck_assert_int_eq((int)jget(args, "shard")->num, ev->shard);
		ck_assert((uint64_t)jget(args, "bytes")->num == ev->bytes);
		char want[64];
		snprintf(want, sizeof want, "%u:%u", ev->row_begin, ev->row_end);
		ck_assert_str_eq(jget(args, "rows")->str, want);
		snprintf(want, sizeof want, "%u:%u", ev->col_begin, ev->col_end);
		ck_assert_str_eq(jget(args, "cols")->str, want);
		if (ev->op == EV_COMPUTE && ev->shard >= 0)
			snprintf(want, sizeof want, "compute B[%d]", ev->shard);
		else if (ev->op == EV_COMPUTE)
			snprintf(want, sizeof want, "compute B");
		else if (ev->op == EV_SEND && ev->shard >= 0)
			snprintf(want, sizeof want, "send B[%d] -> %d", ev->shard, ev->peer);
		else if (ev->op == EV_SEND)
			snprintf(want, sizeof want, "send rows %u:%u -> %d", ev->row_begin,
				 ev->row_end, ev->peer);
		else if (ev->op == EV_RECV)
			snprintf(want, sizeof want, "recv B[%d] <- %d", ev->shard, ev->peer);
		else
			snprintf(want, sizeof want, "gather rows %u:%u <- %d", ev->row_begin,
				 ev->row_end, ev->peer);
		ck_assert_str_eq(name->str, want);
	}
	ck_assert_uint_eq(complete, l->n_ev);
	ck_assert_uint_eq(process, 1);
	for (int r = 0; r < l->n; r++)
		ck_assert_msg(names[r] == 1, "rank %d has %d thread_name events", r, names[r]);
	free(names);
	jfree(&root);
	free(text);
}

START_TEST(chrome_writer)
{
	static const struct { int mode, n, bug; } cs[] = {
		{ DM_FSDP, 4, 0 }, { DM_FSDP, 1, 0 }, { DM_FSDP, 3, BUG_INT_ACC }, { DM_DP, 3, 0 },
	};
	char path[600];
	struct dm_err err;
	setup_dir();
	in_dir(path, sizeof path, "t.json");
	for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++) {
		struct logged l;
		logged_run(&l, cs[k].mode, cs[k].n, cs[k].bug, 7, 3, 6, 1, NULL);
		ck_assert_msg(trace_write_chrome(path, l.ev, l.n_ev, l.n, l.mode, &err) == 0, "%s",
			      err.msg);
		check_chrome(path, &l);
		if (cs[k].bug == BUG_INT_ACC) {
			size_t len;
			char *text = slurp(path, &len);
			ck_assert(strstr(text, "\"truncated\":true"));
			free(text);
		}
		logged_free(&l);
	}
	/* large times keep every digit */
	struct ev e = { .phase = 0, .op = EV_COMPUTE, .rank = 0, .peer = -1, .shard = 0,
			.row_end = 1, .col_end = 1, .bytes = 8, .t_begin_ns = UINT64_MAX - 5,
			.t_end_ns = UINT64_MAX };
	ck_assert_int_eq(trace_write_chrome(path, &e, 1, 1, DM_FSDP, &err), 0);
	size_t len;
	char *text = slurp(path, &len);
	ck_assert(strstr(text, "\"ts\":18446744073709551.610,\"dur\":0.005"));
	free(text);
	/* no events: still a valid file */
	ck_assert_int_eq(trace_write_chrome(path, NULL, 0, 2, DM_DP, &err), 0);
	struct logged none = { .n = 2, .mode = DM_DP };
	check_chrome(path, &none);
	/* errors: nothing is left behind */
	ck_assert_int_eq(trace_write_chrome(tmpdir, &e, 1, 1, DM_FSDP, &err), DM_EIO);
	char bad[700];
	snprintf(bad, sizeof bad, "%s/missing/t.json", tmpdir);
	ck_assert_int_eq(trace_write_chrome(bad, &e, 1, 1, DM_FSDP, &err), DM_EIO);
	ck_assert_int_eq(trace_write_chrome(path, NULL, 1, 1, DM_FSDP, &err), DM_EINVAL);
	DIR *dir = opendir(tmpdir);
	struct dirent *de;
	int files = 0;
	while ((de = readdir(dir)))
		files += de->d_name[0] != '.';
	closedir(dir);
	ck_assert_int_eq(files, 1);
	remove_dir();
}
END_TEST

/* Every allocation of the reader, the checker and the writer, failed in
 * turn: DM_ENOMEM, nothing half made, nothing leaked. */
START_TEST(allocation_failures)
{
	char path[600], out[600];
	struct dm_err err;
	struct logged l;
	setup_dir();
	in_dir(path, sizeof path, "t.jsonl");
	in_dir(out, sizeof out, "t.json");
	logged_run(&l, DM_FSDP, 4, 0, 6, 3, 5, 0, NULL);
	ck_assert_int_eq(trace_write_jsonl(path, l.ev, l.n_ev, l.sum, 4, &err), 0);
	for (int what = 0; what < 3; what++) {
		long k;
		for (k = 1;; k++) {
			struct trace t;
			int rc;
			if (what == 1)
				ck_assert_int_eq(trace_read(path, &t, 0, &err), 0);
			fault_reset();
			fault_fail_alloc_at(k);
			if (what == 0)
				rc = trace_read(path, &t, 0, &err);
			else if (what == 1)
				rc = trace_check(&t, 6, 3, 5, &err);
			else
				rc = trace_write_chrome(out, l.ev, l.n_ev, 4, DM_FSDP, &err);
			long asked = fault_alloc_count();
			fault_reset();
			if (what < 2 && (what == 1 || rc == 0))
				trace_free(&t);
			if (rc == 0) {
				ck_assert_int_lt(asked, k);
				break;
			}
			ck_assert_msg(rc == DM_ENOMEM, "what %d, k %ld: %d %s", what, k, rc, err.msg);
			if (what == 0)
				ck_assert(t.ev == NULL && t.sum == NULL);
		}
		ck_assert_int_gt(k, 1);
	}
	logged_free(&l);
	remove_dir();
}
END_TEST

static Suite *trace_suite(void)
{
	Suite *s = suite_create("trace");
	TCase *tc = tcase_create("round trip");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, round_trip);
	tcase_add_loop_test(tc, every_bug_fits, 0, 2);
	suite_add_tcase(s, tc);
	tc = tcase_create("reader");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, reader_refusals);
	tcase_add_test(tc, reader_leniency);
	tcase_add_test(tc, read_errors);
	tcase_add_test(tc, every_prefix);
	tcase_add_test(tc, allocation_failures);
	suite_add_tcase(s, tc);
	tc = tcase_create("checker");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, checker_refusals);
	suite_add_tcase(s, tc);
	tc = tcase_create("chrome");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, json_reader_works);
	tcase_add_test(tc, chrome_writer);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(trace_suite());
}
