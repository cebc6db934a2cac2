/* check_trace_read: the JSON Lines trace read back (engine/trace): the same
 * events and summaries as were written, for both modes and for bugs, and
 * the result rebuilt from them bit for bit; every refusal of the reader and
 * its lexer with its message, what it leniently takes, file errors, every
 * prefix of a trace, and every allocation of the reader, the checker and
 * the Chrome writer failed in turn.  The checker's refusals are
 * check_trace_check's, the Chrome file check_trace_chrome's. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <distmm/bug.h>
#include <distmm/evlog.h>
#include "core/fault.h"
#include <distmm/replay.h>
#include <distmm/schedule.h>
#include "testutil.h"
#include <distmm/trace.h>
#include "trace_util.h"

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
	tt_setup_dir();
	tt_in_dir(path, sizeof path, "t.jsonl");
	for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++) {
		struct tt_logged l;
		struct trace t;
		struct mat result = { 0, 0, NULL };
		int finishes = cs[k].bug != BUG_C_MOD;
		tt_logged_run(&l, cs[k].mode, cs[k].n, cs[k].bug, cs[k].M, cs[k].K, cs[k].N, 1,
			      finishes ? &result : NULL);
		ck_assert_int_eq(trace_write_jsonl(path, l.plan, l.ev, l.n_ev, l.sum, &err), 0);
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
			ck_assert_int_eq(run_snapshot_init(&s, l.plan, cs[k].M, cs[k].K, cs[k].N, 1, &err),
					 0);
			int last = sched_phase_count(l.plan) - 1;
			ck_assert_msg(replay_snapshot(&s, l.plan, &l.a, &l.b, NULL, t.ev, t.n_ev, last,
						      &err) == 0, "%s", err.msg);
			ck_assert(memcmp(s.c, result.data, cs[k].M * cs[k].N * sizeof(double)) == 0);
			run_snapshot_free(&s);
		}
		mat_free(&result);
		trace_free(&t);
		ck_assert_ptr_null(t.ev);
		tt_logged_free(&l);
	}
	unlink(path);
	tt_remove_dir();
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
	tt_setup_dir();
	tt_in_dir(path, sizeof path, "missing.jsonl");
	ck_assert_int_eq(trace_read(path, &t, 0, &err), DM_EIO);
	ck_assert(strstr(err.msg, "missing.jsonl"));
	ck_assert_int_eq(trace_read(tt_tmpdir, &t, 0, &err), DM_EIO);
	ck_assert(strstr(err.msg, "is a directory"));
	tt_in_dir(path, sizeof path, "t.jsonl");
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
	tt_remove_dir();
}
END_TEST

/* Every prefix of a small trace: refused cleanly unless the cut is after
 * the last '}' (then it is the whole trace).  A cut at a line boundary inside
 * the summaries leaves fewer summaries than the ranks in the events. */
START_TEST(every_prefix)
{
	char path[600];
	struct dm_err err;
	tt_setup_dir();
	tt_in_dir(path, sizeof path, "t.jsonl");
	for (int mode = 0; mode < 2; mode++) {
		struct tt_logged l;
		tt_logged_run(&l, mode, 3, 0, 4, 2, 5, 0, NULL);
		ck_assert_int_eq(trace_write_jsonl(path, l.plan, l.ev, l.n_ev, l.sum, &err), 0);
		size_t len;
		char *text = tt_slurp(path, &len);
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
		tt_logged_free(&l);
	}
	unlink(path);
	tt_remove_dir();
}
END_TEST

/* Every allocation of the reader, the checker and the writer, failed in
 * turn: DM_ENOMEM, nothing half made, nothing leaked. */
START_TEST(allocation_failures)
{
	char path[600], out[600];
	struct dm_err err;
	struct tt_logged l;
	tt_setup_dir();
	tt_in_dir(path, sizeof path, "t.jsonl");
	tt_in_dir(out, sizeof out, "t.json");
	tt_logged_run(&l, DM_FSDP, 4, 0, 6, 3, 5, 0, NULL);
	ck_assert_int_eq(trace_write_jsonl(path, l.plan, l.ev, l.n_ev, l.sum, &err), 0);
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
				rc = trace_write_chrome(out, l.plan, l.ev, l.n_ev, &err);
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
	tt_logged_free(&l);
	tt_remove_dir();
}
END_TEST

static Suite *trace_read_suite(void)
{
	Suite *s = suite_create("trace_read");
	TCase *tc = tcase_create("round trip");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, round_trip);
	suite_add_tcase(s, tc);
	tc = tcase_create("reader");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, reader_refusals);
	tcase_add_test(tc, reader_leniency);
	tcase_add_test(tc, read_errors);
	tcase_add_test(tc, every_prefix);
	tcase_add_test(tc, allocation_failures);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(trace_read_suite());
}
