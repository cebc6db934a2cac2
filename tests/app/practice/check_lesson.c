/* check_lesson: the lesson format.  Every shipped lesson parses; every
 * mistake a teacher can make is an error naming its line; captions pick the
 * step's own line over the general one and fill in {s} and {n}. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "practice/lesson.h"
#include <distmm/schedule.h>
#include <distmm/order.h>
#include "testutil.h"

static struct lesson les; /* large: not on the stack */

static int parse(const char *text, char *err, size_t size)
{
	return lesson_parse(&les, text, strlen(text), "t.lesson", err, size);
}

START_TEST(shipped_lessons_parse)
{
	char err[512], path[512];
	int count = 0;
	DIR *d = opendir("assets/lessons");
	ck_assert_ptr_nonnull(d);
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (len < 8 || strcmp(de->d_name + len - 7, ".lesson") != 0)
			continue;
		snprintf(path, sizeof path, "assets/lessons/%s", de->d_name);
		ck_assert_msg(lesson_load(&les, path, err, sizeof err) == 0, "%s", err);
		ck_assert_msg(les.nparts >= 2, "%s has %d parts", path, les.nparts);
		ck_assert_msg(les.title[0], "%s has no title", path);
		count++;
	}
	closedir(d);
	ck_assert_int_ge(count, 3);
}
END_TEST

START_TEST(settings_are_cumulative)
{
	char err[256];
	ck_assert_int_eq(parse("title: t\npart: one\nset: dp devices=3 M=7 K=2 N=5 values=floats "
			       "seed=9 capacity=0 naive bug=c-mod quiz=2\nready: hi\n"
			       "part: two\nset: fsdp capacity=unbounded ordered\n",
			       err, sizeof err),
			 0);
	ck_assert_int_eq(les.nparts, 2);
	const struct lesson_set *a = &les.part[0].set, *b = &les.part[1].set;
	ck_assert_int_eq(a->mode, DM_DP);
	ck_assert_int_eq(a->devices, 3);
	ck_assert_uint_eq(a->M, 7);
	ck_assert_uint_eq(a->capacity, 0);
	ck_assert_int_eq(a->order, ORDER_SEND_FIRST);
	ck_assert_int_eq(a->quiz, 2);
	ck_assert_int_eq(b->mode, DM_FSDP);
	ck_assert_int_eq(b->devices, 3); /* kept from part one */
	ck_assert_uint_eq(b->N, 5);
	ck_assert(b->capacity == RUN_UNBOUNDED);
	ck_assert_int_eq(b->order, ORDER_PARITY);

	ck_assert(b->has & LESSON_SET_DEVICES);
}
END_TEST

/* order= takes the orders, fix= the fixes; a fix given as an order is an
 * error naming its line. */
START_TEST(orders_and_fixes)
{
	char err[256];
	ck_assert_int_eq(parse("title: t\npart: one\nset: order=recv-first\npart: two\n"
			       "set: fix=sendrecv\npart: three\nset: order=sendrecv\n", err, sizeof err),
			 -1);
	ck_assert_msg(strstr(err, ":7:") && strstr(err, "order=sendrecv"), "%s", err);
	ck_assert_int_eq(parse("title: t\npart: one\nset: order=recv-first\npart: two\n"
			       "set: fix=sendrecv\n", err, sizeof err), 0);
	ck_assert_int_eq(les.part[0].set.order, ORDER_RECV_FIRST);
	ck_assert_int_eq(les.part[1].set.order, ORDER_SENDRECV);
}
END_TEST

/* Part p's caption for `when` at step s of a 4-device run with no model:
 * {s} and {n} filled in, figures left as written. */
static int cap(int p, int when, int s, char *buf, size_t size)
{
	struct lesson_at at = { s, 4, NULL, 0, 0, 0, NULL };
	return lesson_caption(&les, p, when, &at, buf, size);
}

START_TEST(captions_by_step_and_placeholders)
{
	char err[256], buf[256];
	ck_assert_int_eq(parse("part: p\ncompute: any {s} of {n}\ncompute 1: one\ndone: end\n", err,
			       sizeof err),
			 0);
	ck_assert(cap(0, LESSON_COMPUTE, 1, buf, sizeof buf));
	ck_assert_str_eq(buf, "one");
	ck_assert(cap(0, LESSON_COMPUTE, 2, buf, sizeof buf));
	ck_assert_str_eq(buf, "any 2 of 4");
	ck_assert(!cap(0, LESSON_TRANSFER, 0, buf, sizeof buf));
	ck_assert(cap(0, LESSON_DONE, 0, buf, sizeof buf));
	ck_assert(!cap(3, LESSON_DONE, 0, buf, sizeof buf));
	ck_assert(cap(0, LESSON_COMPUTE, 7, buf, 5)); /* cut, terminated */
	ck_assert_uint_eq(strlen(buf), 4);
	/* braces of prose stay; a figure with no run to count stays as written */
	ck_assert_int_eq(parse("part: p\ndone: 2 x (B - w_{r+1}) on {n}: {sent}\n", err, sizeof err),
			 0);
	ck_assert(cap(0, LESSON_DONE, 0, buf, sizeof buf));
	ck_assert_str_eq(buf, "2 x (B - w_{r+1}) on 4: {sent}");
}
END_TEST

/* The training step: set: train and forward, cumulative like the rest;
 * its phases' captions, by step where they have steps. */
START_TEST(the_training_step)
{
	char err[256], buf[256];
	ck_assert_msg(parse("part: one\nset: train dp\nbackward: dA {s}\npartial: P\n"
			    "reduce-scatter 1: RS one\nreduce-scatter: RS {s} of {n}\n"
			    "all-gather: AG\nbackward-transfer 0: BT\npart: two\nset: fsdp\n"
			    "part: three\nset: forward\n", err, sizeof err) == 0, "%s", err);
	ck_assert(les.part[0].set.train && (les.part[0].set.has & LESSON_SET_TRAIN));
	ck_assert(les.part[1].set.train); /* kept */
	ck_assert(!les.part[2].set.train);
	ck_assert(cap(0, LESSON_REDUCE_SCATTER, 1, buf, sizeof buf));
	ck_assert_str_eq(buf, "RS one");
	ck_assert(cap(0, LESSON_REDUCE_SCATTER, 2, buf, sizeof buf));
	ck_assert_str_eq(buf, "RS 2 of 4");
	ck_assert(cap(0, LESSON_PARTIAL, 0, buf, sizeof buf));
	ck_assert_str_eq(buf, "P");
	ck_assert(cap(0, LESSON_BACKWARD_TRANSFER, 0, buf, sizeof buf));
	ck_assert(!cap(0, LESSON_BACKWARD_TRANSFER, 1, buf, sizeof buf));
	ck_assert(cap(0, LESSON_ALL_GATHER, 3, buf, sizeof buf));
	ck_assert(!cap(1, LESSON_ALL_GATHER, 3, buf, sizeof buf));
}
END_TEST

START_TEST(mistakes_name_their_line)
{
	static const struct { const char *text, *want; } bad[] = {
		{ "", "no 'part:'" },
		{ "# only a comment\n", "no 'part:'" },
		{ "ready: too early\n", ":1: 'ready' before the first 'part:'" },
		/* a known key with a bad value: the values it takes, not "unknown" */
		{ "part: p\nset: devices=0\n", ":2: devices must be a whole number from 1 to 64" },
		{ "part: p\nset: devices=100000\n", "devices must be a whole number from 1 to 64 (what "
						  "the interface shows), not '100000'" },
		{ "part: p\nset: M=0\n", "M must be a whole number from 1 to 100000, not '0'" },
		{ "part: p\nset: values=halves\n", "values must be ints or floats, not 'halves'" },
		{ "part: p\nset: seed=-1\n", "seed must be a whole number, not '-1'" },
		{ "part: p\nset: capacity=-1\n", "capacity must be unbounded or a number" },
		{ "part: p\nset: quiz=3\n", "quiz must be 0 (off), 1 or 2, not '3'" },
		{ "part: p\nset: order=sideways\n", "order must be send-first, recv-first or parity" },
		{ "part: p\nset: fix=glue\n", "fix must be parity, recv-thread, sendrecv or buffered" },
		{ "part: p\nset: colour=red\n", "unknown setting 'colour=red'" },
		{ "part: p\nset: bug=sign\n", ":2: unknown bug 'sign' (distmm-tui --bug list names them)" },
		{ "part: p\n\n\nsoon: x\n", ":4: unknown key 'soon'" },
		{ "part: p\nno colon here\n", ":2: expected 'key: value'" },
		{ "part: p\ngather 2: x\n", "a step number goes only after compute, transfer" },
		{ "part: p\npartial 1: x\n", ":2: 'partial 1': a step number goes only after" },
		{ "part: p\nset: train=1\n", "unknown setting 'train=1'" },
		{ "part: p\ncompute x: y\n", "a step number" },
		{ "part: p\ndone:\n", ":2: empty caption" },
		{ "part: p\n\ndone: {sent} and {snet}\n", ":3: unknown placeholder {snet} ({s}, {n}, " },
	};
	char err[256];
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_int_eq(parse(bad[i].text, err, sizeof err), -1);
		ck_assert_msg(strstr(err, bad[i].want), "'%s': got '%s'", bad[i].text, err);
		ck_assert_msg(strncmp(err, "t.lesson:", 9) == 0, "%s", err);
	}
	ck_assert_int_eq(lesson_load(&les, "assets/lessons/none.lesson", err, sizeof err), -1);
	ck_assert_msg(strstr(err, "No such file"), "%s", err);
	char nul[] = "part: p\nready: a\0b\n";
	ck_assert_int_eq(lesson_parse(&les, nul, sizeof nul - 1, "n", err, sizeof err), -1);
	ck_assert_msg(strstr(err, "NUL"), "%s", err);
}
END_TEST

/* A caption tied to a step the part's run does not have is an error with
 * its line, by the engine's schedule: steps 0..n-1 of a compute, 0..n-2 of
 * a transfer, none in DP; the training step's rings have n - 1 steps. */
START_TEST(captions_of_steps_that_exist)
{
	static const struct {
		const char *text;
		int mode, train, n;
		const char *want; /* NULL: the steps exist */
	} cases[] = {
		{ "part: p\ncompute 1: a\ntransfer 0: b\n", DM_FSDP, 0, 2, NULL },
		{ "part: p\nset: fsdp devices=2\n\ncompute 99: a\n", DM_FSDP, 0, 2,
		  ":4: compute 99: part 'p' runs FSDP on 2 devices, whose compute steps are 0 to 1" },
		{ "part: p\ntransfer 1: a\n", DM_FSDP, 0, 2, ":2: transfer 1: part 'p' runs FSDP on 2 "
							   "devices, whose transfer steps are 0 to 0" },
		{ "part: p\ntransfer 0: a\n", DM_DP, 0, 3, "part 'p' runs DP on 3 devices, which has no "
							 "transfer" },
		{ "part: p\ncompute 1: a\n", DM_DP, 0, 3, "compute steps are 0 to 0" },
		{ "part: p\ncompute 0: a\n", DM_FSDP, 0, 1, NULL },
		{ "part: p\nreduce-scatter 1: a\nbackward 2: b\n", DM_FSDP, 1, 3, NULL },
		{ "part: p\nreduce-scatter 2: a\n", DM_FSDP, 1, 3,
		  "runs FSDP's training step on 3 devices, whose reduce-scatter steps are 0 to 1" },
		{ "part: p\nall-gather 0: a\n", DM_FSDP, 1, 3, "which has no all-gather" },
		{ "part: p\nall-gather 1: a\n", DM_DP, 1, 3, NULL },
		{ "part: p\nbackward 0: a\n", DM_FSDP, 0, 3, "which has no backward" },
	};
	char err[256];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ck_assert_int_eq(parse(cases[i].text, err, sizeof err), 0);
		struct dm_plan *plan = tu_plan(cases[i].mode, cases[i].n,
					       cases[i].train ? DM_TRAIN : DM_FORWARD);
		int rc = lesson_check_steps(&les, 0, plan, err, sizeof err);
		plan_free(plan);
		if (!cases[i].want) {
			ck_assert_msg(rc == 0, "case %zu: %s", i, err);
			continue;
		}
		ck_assert_int_eq(rc, -1);
		ck_assert_msg(strstr(err, cases[i].want) && strncmp(err, "t.lesson:", 9) == 0,
			      "case %zu: got '%s'", i, err);
	}
	/* the shipped lessons' captions, with each part's own settings */
	static const char *const shipped[] = { "deadlock", "memory", "spot-the-bug", "the-exercise",
					       "training" };
	for (size_t i = 0; i < sizeof shipped / sizeof shipped[0]; i++) {
		char path[128];
		snprintf(path, sizeof path, "assets/lessons/%s.lesson", shipped[i]);
		ck_assert_msg(lesson_load(&les, path, err, sizeof err) == 0, "%s", err);
		for (int p = 0; p < les.nparts; p++) {
			const struct lesson_set *st = &les.part[p].set;
			int n = st->has & LESSON_SET_DEVICES ? st->devices : 4;
			int mode = st->has & LESSON_SET_MODE ? st->mode : DM_FSDP;
			int train = st->has & LESSON_SET_TRAIN ? st->train : 0;
			struct dm_plan *plan = tu_plan(mode, n, train ? DM_TRAIN : DM_FORWARD);
			ck_assert_msg(lesson_check_steps(&les, p, plan, err, sizeof err) == 0, "%s", err);
			plan_free(plan);
		}
	}
}
END_TEST

/* A shipped lesson is named without its folder, from anywhere. */
START_TEST(shipped_lessons_by_name)
{
	char err[256], path[4096];
	ck_assert_int_eq(lesson_find("the-exercise", path, sizeof path), -1); /* the suite's folder */
	ck_assert_int_eq(lesson_find("../x", path, sizeof path), -1);
	ck_assert_int_eq(lesson_find("", path, sizeof path), -1);
	ck_assert_int_eq(lesson_load(&les, "no-such-lesson", err, sizeof err), -1);
	ck_assert_msg(strstr(err, "cannot read no-such-lesson"), "%s", err);
}
END_TEST

static Suite *lesson_suite(void)
{
	Suite *s = suite_create("lesson");
	TCase *tc = tcase_create("format");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, shipped_lessons_parse);
	tcase_add_test(tc, the_training_step);
	tcase_add_test(tc, settings_are_cumulative);
	tcase_add_test(tc, orders_and_fixes);
	tcase_add_test(tc, captions_by_step_and_placeholders);
	tcase_add_test(tc, mistakes_name_their_line);
	tcase_add_test(tc, captions_of_steps_that_exist);
	tcase_add_test(tc, shipped_lessons_by_name);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(lesson_suite());
}
