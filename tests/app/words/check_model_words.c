/* check_model_words: the memory model (engine/model/, which check_model holds to
 * the engine phase by phase) and what batch mode and the interface print of
 * it.  For even and uneven splits, empty shards and d = 1: batch mode's
 * tables (report_summary, report_compare, captured from stdout) print the
 * model's figures, the same with the other mode modelled as with it run
 * (--compare); the interface's memory
 * line at every stop says the measured peak beside the other mode's model
 * figure, like with like (the gathered C in both, said so, or in neither);
 * one bar scale for the whole run; the saving line at n = 1 and n = 2.
 * In a training step the line compares against the training model's other
 * mode through the same stage (the same reduce-scatter step); its ring
 * bytes are written out as batch mode prints them. */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <distmm/model.h>
#include "batch/report.h"
#include "testutil.h"
#include "tui/view.h"
#include "words/model_words.h"
#include <distmm/schedule.h>
#include <distmm/split.h>

/* Runs fn with stdout going to a file, and returns what it printed. */
static char *capture(void (*fn)(void *), void *arg)
{
	static char buf[1 << 16];
	char path[] = "/tmp/check_model_words.XXXXXX";
	int fd = mkstemp(path), saved = dup(1);
	ck_assert(fd >= 0 && saved >= 0);
	fflush(stdout);
	dup2(fd, 1);
	fn(arg);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	lseek(fd, 0, SEEK_SET);
	ssize_t got = read(fd, buf, sizeof buf - 1);
	buf[got > 0 ? got : 0] = '\0';
	close(fd);
	unlink(path);
	return buf;
}

struct batch_job {
	const struct mat *a, *b;
	struct dm_plan *plan;
	struct run_config cfg;
	struct ev_summary sum[16];
	int run_other; /* --compare: the other mode run, not modelled */
};

static void batch_print(void *arg)
{
	struct batch_job *j = arg;
	report_summary(j->sum, j->plan, j->a->rows, j->a->cols, j->b->cols);
	report_compare(j->a, j->b, j->plan, &j->cfg, j->sum, j->run_other);
}

START_TEST(batch_prints_the_model)
{
	const int *sh = tu_model_shape(_i);
	int n = sh[0], M = sh[1], K = sh[2], N = sh[3];
	struct mat a, b;
	struct batch_job j;
	struct dm_err err;
	struct run *r;
	struct dm_plan *fsdp = tu_plan(DM_FSDP, n, DM_FORWARD), *dp = tu_plan(DM_DP, n, DM_FORWARD);
	tu_model_mats(&a, &b, M, K, N);
	j.a = &a;
	j.b = &b;
	run_config_default(&j.cfg);
	j.plan = fsdp;
	ck_assert_int_eq(run_new(&r, j.plan, &j.cfg, &a, &b, &err), 0);
	ck_assert_int_eq(run_finish(r, &err), 0);
	run_summaries(r, j.sum);
	run_free(r);
	/* from the model, then with --compare from a real run: the same figures */
	for (j.run_other = 0; j.run_other < 2; j.run_other++) {
		char *out = capture(batch_print, &j);
		for (int i = 0; i < n; i++) {
			struct model_fwd f, d;
			model_fwd_rank(fsdp, i, (size_t)M, (size_t)K, (size_t)N, &f);
			model_fwd_rank(dp, i, (size_t)M, (size_t)K, (size_t)N, &d);
			char want[160];
			/* the summary: FSDP's peak, DP's like with like */
			snprintf(want, sizeof want, "  rank %-3d %12" PRIu64 " %14" PRIu64 " %12" PRIu64,
				 i, f.peak, d.peak, f.sent);
			ck_assert_msg(strstr(out, want), "d=%d %dx%dx%d: no '%s' in\n%s", n, M, K, N, want,
				      out);
			/* the DP-vs-FSDP table: model and peak, both modes, and the sends */
			snprintf(want, sizeof want,
				 "  rank %-3d %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64
				 " %12" PRIu64 " %12" PRIu64,
				 i, d.peak, d.peak, f.peak, f.peak, d.sent, f.sent);
			ck_assert_msg(strstr(out, want), "d=%d: no '%s' in\n%s", n, want, out);
		}
		ck_assert(strstr(out, "rank 0's figures include the gathered C"));
		ck_assert(strstr(out, j.run_other ? "DP peaks and sends: measured in a run made for "
						    "this table (--compare)"
						  : "DP peaks and sends: from the model"));
		ck_assert(strstr(out, "FSDP peaks and sends: measured in this run"));
		if (n == 1)
			ck_assert(strstr(out, "one device") && !strstr(out, "2/1"));
		if (n == 2)
			ck_assert(strstr(out, "2*B/2 = B"));
		if (!model_even(fsdp, (size_t)N) && n > 1)
			ck_assert(strstr(out, "does not split evenly"));
	}
	plan_free(fsdp);
	plan_free(dp);
	mat_free(&a);
	mat_free(&b);
}
END_TEST

START_TEST(the_screen_prints_the_model_like_with_like)
{
	const int *sh = tu_model_shape(_i);
	int n = sh[0], M = sh[1], K = sh[2], N = sh[3];
	struct mat a, b;
	struct view v;
	struct dm_err err;
	tu_model_mats(&a, &b, M, K, N);
	for (int mode = 0; mode < 2; mode++) {
		struct view_config cfg = { mode, n, RUN_UNBOUNDED, 0, 0, 0, 0, NULL, 0, 0, 0, NULL };
		int other = mode == DM_FSDP ? DM_DP : DM_FSDP;
		const char *oname = other == DM_DP ? "DP" : "FSDP";
		struct dm_plan *mine_p = tu_plan(mode, n, DM_FORWARD), *other_p = tu_plan(other, n, DM_FORWARD);
		ck_assert_int_eq(view_init(&v, &a, &b, &cfg, 0, 0, &err), 0);
		uint64_t scale = v.mem_scale;
		ck_assert_uint_eq(scale, model_scale(mine_p, (size_t)M, (size_t)K, (size_t)N));
		for (int stop = -1; stop <= v.phase_count; stop++) {
			if (stop >= 0)
				view_next(&v, 0);
			ck_assert_int_eq(v.stop, stop);
			ck_assert_uint_eq(v.mem_scale, scale); /* one scale for the run */
			int gathered = stop >= v.phase_count - 1;
			int olast = sched_phase_count(other_p) - 1;
			for (int i = 0; i < n; i++) {
				char text[128], held[24], oth[24], want[96];
				uint64_t mine = model_fwd_peak_by(mine_p, i, (size_t)M, (size_t)K, (size_t)N,
								  stop < v.phase_count ? stop
										       : v.phase_count - 1);
				/* peaks so far at the same point of the product: before
				 * it, through it whole, gathered */
				uint64_t theirs = model_fwd_peak_by(other_p, i, (size_t)M, (size_t)K,
								    (size_t)N, stop < 0 ? -1
									       : gathered ? olast
											  : olast - 1);
				ck_assert_uint_eq(v.snap.dev[i].peak_bytes, mine);
				ck_assert_uint_eq(view_other_by(&v, i), theirs);
				view_mem_text(&v, i, 80, text, sizeof text);
				view_bytes(mine, held, sizeof held);
				view_bytes(theirs, oth, sizeof oth);
				snprintf(want, sizeof want, "%s vs %s %s%s", held, oname, oth,
					 i == 0 && gathered ? ", both with C" : "");
				ck_assert_msg(strcmp(text, want) == 0, "d=%d stop %d rank %d: '%s', want '%s'",
					      n, stop, i, text, want);
				/* narrower, it drops words, never cuts a unit */
				view_mem_text(&v, i, 12, text, sizeof text);
				ck_assert(strlen(text) <= 12 || strcmp(text, held) == 0);
			}
		}
		view_free(&v);
		plan_free(mine_p);
		plan_free(other_p);
	}
	mat_free(&a);
	mat_free(&b);
}
END_TEST


/* The most of a mode's phases 0..last, from the start's bytes (A_r, C_r,
 * dC_r and B's part). */
static uint64_t peak_through(int mode, int n, int M, int K, int N, int r, int last)
{
	struct dm_plan *plan = tu_plan(mode, n, DM_TRAIN);
	int count = sched_phase_count(plan);
	uint64_t *most = calloc((size_t)count, sizeof *most), peak;
	ck_assert_ptr_nonnull(most);
	model_train_phases(plan, (size_t)M, (size_t)K, (size_t)N, r, most, NULL);
	plan_free(plan);
	peak = 8 * (uint64_t)split_size((size_t)M, n, r) * (uint64_t)(K + 2 * N) +
	       (mode == DM_FSDP ? 8 * (uint64_t)K * split_size((size_t)N, n, r)
				: 8 * (uint64_t)K * (uint64_t)N);
	for (int p = 0; p <= last; p++)
		peak = most[p] > peak ? most[p] : peak;
	free(most);
	return peak;
}

/* The other mode's phase a stop of this one is compared through, by the
 * phase indices of the schedule: the forward's last, the phase before the
 * partial (the backward's dA), the partial, the same reduce-scatter step
 * (DP's all-gather: FSDP's last), the end. */
static int other_through(int other, int n, int kind, int step)
{
	struct dm_plan *plan = tu_plan(other, n, DM_TRAIN);
	int count = sched_phase_count(plan), through;
	int partial = sched_first_phase(plan, SCHED_DB_PARTIAL);
	switch (kind) {
	case VIEW_READY:
	case SCHED_COMPUTE:
	case SCHED_TRANSFER:
		through = sched_first_phase(plan, SCHED_BWD_COMPUTE) - 1;
		break;
	case SCHED_BWD_COMPUTE:
	case SCHED_BWD_TRANSFER:
		through = partial - 1;
		break;
	case SCHED_DB_PARTIAL:
		through = partial;
		break;
	case SCHED_REDUCE_SCATTER:
		through = partial + 1 + step;
		break;
	case SCHED_ALL_GATHER:
		through = other == DM_FSDP ? count - 2 : partial + n + step;
		break;
	default:
		through = count - 1;
	}
	plan_free(plan);
	return through;
}

START_TEST(the_training_line_compares_the_training_model)
{
	const int *sh = tu_model_shape(_i);
	int n = sh[0], M = sh[1], K = sh[2], N = sh[3];
	struct mat a, b, dc;
	struct view v;
	struct dm_err err;
	tu_model_mats(&a, &b, M, K, N);
	ck_assert_int_eq(mat_alloc(&dc, (size_t)M, (size_t)N, &err), 0);
	mat_fill(&dc, MAT_VALUES_INTS, 3, 2);
	for (int mode = 0; mode < 2; mode++) {
		struct view_config cfg = { mode, n, RUN_UNBOUNDED, 0, 0, 0, 1, &dc, 0, 0, 0, NULL };
		int other = mode == DM_FSDP ? DM_DP : DM_FSDP, seen_rs = 0;
		const char *oname = other == DM_DP ? "DP" : "FSDP";
		ck_assert_int_eq(view_init(&v, &a, &b, &cfg, 0, 0, &err), 0);
		for (int stop = -1; stop <= v.phase_count; stop++) {
			if (stop >= 0)
				view_next(&v, 0);
			ck_assert_int_eq(v.stop, stop);
			int through = other_through(other, n, v.kind, v.step);
			for (int i = 0; i < n; i++) {
				char text[128], held[24], oth[24];
				uint64_t mine = peak_through(mode, n, M, K, N, i,
							     stop < v.phase_count ? stop
										  : v.phase_count - 1);
				uint64_t theirs = peak_through(other, n, M, K, N, i, through);
				ck_assert_uint_eq(v.snap.dev[i].peak_bytes, mine);
				ck_assert_msg(view_other_by(&v, i) == theirs,
					      "%s d=%d stop %d (%s) rank %d: other %llu, want %llu",
					      plan_mode_name(mode), n, stop, view_phase_name(&v), i,
					      (unsigned long long)view_other_by(&v, i),
					      (unsigned long long)theirs);
				view_mem_text(&v, i, 80, text, sizeof text);
				view_bytes(mine, held, sizeof held);
				view_bytes(theirs, oth, sizeof oth);
				ck_assert_msg(strncmp(text, held, strlen(held)) == 0 && strstr(text, oname) &&
						      strstr(text, oth),
					      "'%s' (%s %s)", text, held, oth);
				if (v.kind == SCHED_REDUCE_SCATTER) {
					char by[48];
					snprintf(by, sizeof by, " by its reduce-scatter s=%d", v.step);
					ck_assert_msg(strstr(text, by), "'%s' lacks '%s'", text, by);
					seen_rs = 1;
				}
				if (i == 0 && stop >= v.phase_count - 1)
					ck_assert(strstr(text, "both with C, dA, dB"));
			}
		}
		ck_assert_int_eq(seen_rs, n > 1);
		view_free(&v);
	}
	mat_free(&dc);
	mat_free(&a);
	mat_free(&b);
}
END_TEST

/* The training step's ring bytes as batch mode writes them out, the
 * closed form with the model's numbers. */
START_TEST(the_ring_formula_is_written_out)
{
	char f[160];
	struct dm_plan *p = tu_plan(DM_FSDP, 4, DM_TRAIN);
	/* the exercise: 8x6 @ 6x4 on 4 devices, B = 192 bytes, chunks of 48 */
	modelw_ring_formula(p, 6, 4, 0, f, sizeof f);
	ck_assert_str_eq(f, "2*(B - w1) + (B - w0) = 2*(192 - 48) + (192 - 48) = 432");
	plan_free(p);
}
END_TEST

static Suite *model_words_suite(void)
{
	Suite *s = suite_create("model_words");
	TCase *tc = tcase_create("model");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, batch_prints_the_model, 0, TU_MODEL_SHAPES);
	tcase_add_loop_test(tc, the_screen_prints_the_model_like_with_like, 0, TU_MODEL_SHAPES);
	tcase_add_loop_test(tc, the_training_line_compares_the_training_model, 0, TU_MODEL_SHAPES);
	tcase_add_test(tc, the_ring_formula_is_written_out);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(model_words_suite());
}
