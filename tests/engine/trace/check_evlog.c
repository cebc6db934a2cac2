/* check_evlog: the event log: its JSON form, its file, that it is the same
 * on every run, and that A, B and the events alone rebuild C. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <distmm/evlog.h>
#include <distmm/schedule.h>
#include <distmm/trace.h>
#include "testutil.h"

START_TEST(json_lines_have_the_documented_keys)
{
	char buf[512];
	struct ev e = { .phase = 2, .step = 1, .op = EV_COMPUTE, .rank = 2, .peer = -1, .shard = 1,
			.row_begin = 4, .row_end = 6, .col_begin = 1, .col_end = 2, .bytes = 16,
			.t_begin_ns = 5, .t_end_ns = 9, .held = 300, .peak = 400 };
	trace_format_event(&e, buf, sizeof buf);
	ck_assert_str_eq(buf, "{\"phase\":2,\"step\":1,\"op\":\"compute\",\"rank\":2,\"shard\":1,"
			      "\"row_begin\":4,\"row_end\":6,\"col_begin\":1,\"col_end\":2,"
			      "\"bytes\":16,\"held_bytes\":300,\"peak_bytes\":400,"
			      "\"t_begin_ns\":5,\"t_end_ns\":9}");
	e.flags = EV_FLAG_TRUNCATED;
	trace_format_event(&e, buf, sizeof buf);
	ck_assert_msg(strstr(buf, "\"peak_bytes\":400,\"truncated\":true,"), "%s", buf);
	e.flags = 0;
	e.op = EV_SEND;
	e.peer = 3;
	trace_format_event(&e, buf, sizeof buf);
	ck_assert_msg(strstr(buf, "\"op\":\"send\",\"rank\":2,\"dst\":3,"), "%s", buf);
	e.op = EV_RECV;
	trace_format_event(&e, buf, sizeof buf);
	ck_assert_msg(strstr(buf, "\"op\":\"recv\",\"rank\":2,\"src\":3,"), "%s", buf);
	e.op = EV_GATHER;
	trace_format_event(&e, buf, sizeof buf);
	ck_assert_msg(strstr(buf, "\"op\":\"gather\",\"rank\":2,\"src\":3,"), "%s", buf);
	struct ev_summary s = { 3, 100, 20, 30 };
	trace_format_summary(&s, buf, sizeof buf);
	ck_assert_str_eq(buf, "{\"op\":\"summary\",\"rank\":3,\"peak_bytes\":100,\"sent_bytes\":20,"
			      "\"recv_bytes\":30}");
}
END_TEST

START_TEST(trace_file_is_written_whole)
{
	char dir[] = "/tmp/check_evlog.XXXXXX", path[600], line[1024];
	struct mat a, b;
	struct dm_err err;
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/t.jsonl", dir);
	tu_matrix(&a, 8, 6, 0, 1, 0);
	tu_matrix(&b, 6, 4, 0, 1, 1);
	struct run *r = tu_run_new(DM_FSDP, 4, RUN_UNBOUNDED, &a, &b);
	tu_run_all(r, 0);
	size_t count;
	const struct ev *ev = run_events(r, &count);
	struct ev_summary sum[4];
	run_summaries(r, sum);
	ck_assert_int_eq(trace_write_jsonl(path, run_plan(r), ev, count, sum, &err), 0);
	FILE *fp = fopen(path, "r");
	ck_assert_ptr_nonnull(fp);
	size_t lines = 0, summaries = 0;
	while (fgets(line, sizeof line, fp)) {
		size_t len = strlen(line);
		ck_assert(len > 2 && line[0] == '{' && line[len - 2] == '}' && line[len - 1] == '\n');
		summaries += strstr(line, "\"op\":\"summary\"") != NULL;
		lines++;
	}
	fclose(fp);
	ck_assert_uint_eq(lines, count + 4);
	ck_assert_uint_eq(summaries, 4);
	/* a directory is refused, and nothing is left behind */
	ck_assert_int_eq(trace_write_jsonl(dir, run_plan(r), ev, count, sum, &err), DM_EIO);
	snprintf(path, sizeof path, "%s/missing/t.jsonl", dir);
	ck_assert_int_eq(trace_write_jsonl(path, run_plan(r), ev, count, sum, &err), DM_EIO);
	DIR *d = opendir(dir);
	struct dirent *de;
	int files = 0;
	while ((de = readdir(d)))
		files += de->d_name[0] != '.';
	closedir(d);
	ck_assert_int_eq(files, 1);
	snprintf(path, sizeof path, "%s/t.jsonl", dir);
	unlink(path);
	rmdir(dir);
	run_free(r);
	mat_free(&a);
	mat_free(&b);
}
END_TEST

static int same_event(const struct ev *x, const struct ev *y)
{
	return x->phase == y->phase && x->step == y->step && x->op == y->op &&
	       x->rank == y->rank && x->peer == y->peer && x->shard == y->shard &&
	       x->row_begin == y->row_begin && x->row_end == y->row_end &&
	       x->col_begin == y->col_begin && x->col_end == y->col_end && x->bytes == y->bytes;
}

START_TEST(log_is_the_same_every_run)
{
	struct mat a, b;
	tu_matrix(&a, 19, 4, 1, 3, 0);
	tu_matrix(&b, 4, 13, 1, 3, 1);
	for (int mode = 0; mode < 2; mode++) {
		struct run *r1 = tu_run_new(mode, 7, RUN_UNBOUNDED, &a, &b);
		struct run *r2 = tu_run_new(mode, 7, 0, &a, &b);
		tu_run_all(r1, 0);
		tu_run_all(r2, 1);
		size_t n1, n2;
		const struct ev *e1 = run_events(r1, &n1), *e2 = run_events(r2, &n2);
		ck_assert_uint_eq(n1, n2);
		for (size_t i = 0; i < n1; i++)
			ck_assert_msg(same_event(&e1[i], &e2[i]), "event %zu differs", i);
		run_free(r1);
		run_free(r2);
	}
	mat_free(&a);
	mat_free(&b);
}
END_TEST

/* C from A, B and the compute events alone: what stepping back and replay
 * rely on. */
START_TEST(events_rebuild_the_result)
{
	static const int ns[] = { 1, 2, 3, 4, 8, 13 };
	struct mat a, b;
	tu_matrix(&a, 11, 6, 1, 4, 0);
	tu_matrix(&b, 6, 9, 1, 4, 1);
	for (int mode = 0; mode < 2; mode++)
		for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
			struct mat c;
			struct dm_err err;
			struct run *r = tu_run_new(mode, ns[t], RUN_UNBOUNDED, &a, &b);
			tu_run_all(r, 0);
			size_t count;
			const struct ev *ev = run_events(r, &count);
			ck_assert_int_eq(mat_alloc(&c, 11, 9, &err), 0);
			for (size_t i = 0; i < count; i++) {
				if (ev[i].op != EV_COMPUTE)
					continue;
				for (uint32_t row = ev[i].row_begin; row < ev[i].row_end; row++)
					for (uint32_t col = ev[i].col_begin; col < ev[i].col_end; col++)
						for (size_t k = 0; k < 6; k++)
							MAT_AT(&c, row, col) += MAT_AT(&a, row, k) *
										MAT_AT(&b, k, col);
			}
			ck_assert(tu_allclose(&c, run_result(r)));
			mat_free(&c);
			run_free(r);
		}
	mat_free(&a);
	mat_free(&b);
}
END_TEST

static Suite *evlog_suite(void)
{
	Suite *s = suite_create("evlog");
	TCase *tc = tcase_create("format");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, json_lines_have_the_documented_keys);
	tcase_add_test(tc, trace_file_is_written_whole);
	suite_add_tcase(s, tc);
	tc = tcase_create("content");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, log_is_the_same_every_run);
	tcase_add_test(tc, events_rebuild_the_result);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(evlog_suite());
}
