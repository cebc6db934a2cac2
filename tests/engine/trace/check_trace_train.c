/* check_trace_train: a training step's event log as a trace file.
 * Written as JSON Lines and read back (the same events, the header's train
 * flag), checked against the matrices for both modes, 1 to 8 devices and
 * the backward's bugs; the text of its lines, and the lines refused where
 * they do not belong; the Chrome trace naming the backward's events.  The
 * rules a training log follows are check_evrules_train's, its replay
 * check_replay_train's. */
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
#include "trace_util.h"

/* The file: written, read back, the same events; checked against the
 * matrices, for every mode, device count and bug. */
START_TEST(every_training_trace_fits)
{
	static const int bugs[] = { BUG_NONE, BUG_RS_OFF_BY_ONE, BUG_NO_SUM };
	char path[] = "/tmp/check_trace_train.XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	for (int mode = 0; mode < 2; mode++)
		for (int b = 0; b < 3; b++)
			for (int n = 1; n <= 8; n++) {
				struct tt_train_log l;
				struct trace t;
				struct dm_err err;
				tt_train_log_make(&l, mode, n, bugs[b], 2 + (size_t)n, 3,
						  3 * (size_t)n - 1, 1, 5, RUN_UNBOUNDED, 0);
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
				tt_train_log_free(&l);
			}
	unlink(path);
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
	struct dm_plan *tp = tu_plan(DM_FSDP, 2, DM_TRAIN);
	trace_format_header(tp, line, sizeof line);
	plan_free(tp);
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
	struct tt_train_log l;
	struct dm_err err;
	char path[] = "/tmp/check_train_chrome.XXXXXX", buf[1 << 16];
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	tt_train_log_make(&l, DM_FSDP, 3, BUG_NO_SUM, 6, 4, 5, 0, 3, RUN_UNBOUNDED, 0);
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
	tt_train_log_free(&l);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("trace_train");
	TCase *tc = tcase_create("file");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, every_training_trace_fits);
	tcase_add_test(tc, the_format);
	tcase_add_test(tc, chrome_names_the_backward);
	suite_add_tcase(s, tc);
	return tu_main(s);
}
