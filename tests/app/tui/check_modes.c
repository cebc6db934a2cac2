/* check_modes: the interface's mode table (app/tui/mode.h, view_mode.c,
 * app/tui/modes/), without a terminal.  The registry's promises (every mode
 * named, the base run alone at the bottom); composition (modes answer in
 * layer order whatever order they came in, the top one's words first, a
 * hook that says nothing lets the next speak, a mode pushed again replaces
 * itself); the keys (every key a mode refuses gives its one line, with the
 * key's name, and does nothing else; a key only an absent mode takes says
 * so; the key bar's conditions follow the modes); and real views, whose
 * requested modes stack in order and whose d takes the training step off. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "practice/lesson.h"
#include "tui/keys.h"
#include "tui/mode.h"
#include "tui/modes/judged.h"
#include "tui/modes/lab.h"
#include "tui/modes/lessons.h"
#include "tui/modes/modes.h"
#include "tui/modes/practice.h"
#include "tui/modes/replay.h"
#include "tui/modes/run.h"
#include "tui/modes/train.h"
#include "tui/view.h"

/* --- two modes of the test's own, to watch the dispatch */

static int freed; /* how many times a test mode's state was freed */

static void tm_free(void *data)
{
	(void)data;
	freed++;
}

static int tm_top_caption(const struct view *v, const void *data, char *buf, size_t size)
{
	(void)v;
	if (data && !*(const int *)data)
		return 0; /* nothing to say: the next mode speaks */
	snprintf(buf, size, "top");
	return 1;
}

static int tm_low_caption(const struct view *v, const void *data, char *buf, size_t size)
{
	(void)v, (void)data;
	snprintf(buf, size, "low");
	return 1;
}

static const char *tm_refuse(const struct view *v, const void *data, int action)
{
	(void)v, (void)data;
	return action == ACT_SHOW ? "the test mode shows one way" : NULL;
}

static const struct view_mode tm_top = { .name = "the top test mode", .layer = 5,
					 .free = tm_free, .caption = tm_top_caption,
					 .refuse = tm_refuse };
static const struct view_mode tm_low = { .name = "the low test mode", .layer = 90,
					 .caption = tm_low_caption };

START_TEST(modes_answer_in_layer_order_whatever_order_they_came_in)
{
	struct view v;
	char buf[64];
	int says = 1;
	memset(&v, 0, sizeof v);
	ck_assert_int_eq(view_mode_push(&v, &tm_low, NULL), 0);
	ck_assert_int_eq(view_mode_push(&v, &mode_run, NULL), 0);
	ck_assert_int_eq(view_mode_push(&v, &tm_top, &says), 0);
	ck_assert_int_eq(v.n_modes, 3);
	ck_assert_ptr_eq(v.modes[0].mode, &tm_top);
	ck_assert_ptr_eq(v.modes[1].mode, &tm_low);
	ck_assert_ptr_eq(v.modes[2].mode, &mode_run); /* the base run, last */
	view_caption(&v, buf, sizeof buf);
	ck_assert_str_eq(buf, "top");
	says = 0; /* the top mode has nothing to say: the next one speaks */
	view_caption(&v, buf, sizeof buf);
	ck_assert_str_eq(buf, "low");
	freed = 0;
	view_mode_pop(&v, &tm_top);
	ck_assert_int_eq(freed, 1);
	ck_assert(!view_mode_on(&v, &tm_top));
	ck_assert(view_mode_on(&v, &mode_run));
	view_mode_pop(&v, &tm_top); /* not on: nothing */
	ck_assert_int_eq(v.n_modes, 2);
	view_mode_clear(&v);
	ck_assert_int_eq(v.n_modes, 0);
}
END_TEST

START_TEST(a_mode_pushed_again_replaces_itself)
{
	struct view v;
	int a = 1, b = 1;
	memset(&v, 0, sizeof v);
	freed = 0;
	ck_assert_int_eq(view_mode_push(&v, &tm_top, &a), 0);
	ck_assert_int_eq(view_mode_push(&v, &tm_top, &b), 0);
	ck_assert_int_eq(v.n_modes, 1);
	ck_assert_int_eq(freed, 1); /* the first one's state */
	ck_assert_ptr_eq(view_mode_data(&v, &tm_top), &b);
	view_mode_clear(&v);
	ck_assert_int_eq(freed, 2);
}
END_TEST

START_TEST(a_full_list_refuses_and_frees)
{
	static struct view_mode many[VIEW_MODES_MAX + 1];
	struct view v;
	memset(&v, 0, sizeof v);
	freed = 0;
	for (int i = 0; i <= VIEW_MODES_MAX; i++) {
		many[i] = tm_top;
		many[i].layer = i;
		ck_assert_int_eq(view_mode_push(&v, &many[i], NULL), i < VIEW_MODES_MAX ? 0 : -1);
	}
	ck_assert_int_eq(freed, 1); /* the one that did not fit */
	view_mode_clear(&v);
}
END_TEST

/* --- the registry */

START_TEST(every_mode_is_named_and_the_run_is_the_base)
{
	int base = 0;
	ck_assert_int_ge(modes_count(), 8);
	for (int i = 0; i < modes_count(); i++) {
		const struct view_mode *m = modes_all[i];
		ck_assert_ptr_nonnull(m);
		ck_assert(m->name && *m->name);
		ck_assert_int_gt(m->layer, 0);
		ck_assert_int_le(m->layer, VIEW_LAYER_BASE);
		base += m->layer == VIEW_LAYER_BASE;
		for (int j = 0; j < i; j++)
			ck_assert_ptr_ne(modes_all[j], m);
	}
	ck_assert_int_eq(base, 1);
	ck_assert_int_eq(mode_run.layer, VIEW_LAYER_BASE);
}
END_TEST

/* A view of mode m over the base run (and its state, where its hooks read
 * it), without a run: what the keys' dispatch needs. */
static struct lesson lesson;
static struct mode_judged judged;

static void with_mode(struct view *v, const struct view_mode *m)
{
	struct dm_err err;
	memset(v, 0, sizeof *v);
	v->cfg.devices = 3;
	ck_assert_int_eq(view_mode_push(v, &mode_run, NULL), 0);
	if (m == &mode_train)
		ck_assert_int_eq(mode_train_push(v, &err), 0);
	else if (m == &mode_practice)
		ck_assert_int_eq(mode_practice_push(v, &err), 0);
	else if (m == &mode_lessons)
		ck_assert_int_eq(mode_lessons_push(v, &lesson, 0, &err), 0);
	else if (m != &mode_run)
		ck_assert_int_eq(view_mode_push(v, m, m == &mode_judged || m == &mode_judged_ring
							  ? &judged : NULL), 0);
}

/* The key that asks for action, as the help lists it. */
static int key_of(int action)
{
	const struct keys_binding *b = keys_find(action);
	for (int k = 0; b && k < KEYS_MAX_CODES && b->key[k].action != ACT_NONE; k++)
		if (b->key[k].action == action)
			return b->key[k].code;
	return 0;
}

START_TEST(every_key_a_mode_refuses_says_why_in_a_line)
{
	const struct view_mode *m = modes_all[_i];
	struct view v;
	with_mode(&v, m);
	for (int i = 0; i < keys_count(); i++) {
		const struct keys_binding *b = keys_binding(i);
		for (int k = 0; k < KEYS_MAX_CODES && b->key[k].action != ACT_NONE; k++) {
			int action = b->key[k].action, code = b->key[k].code;
			const struct view_mode *who = NULL;
			const char *why = view_refusal(&v, action, &who);
			if (!why)
				continue;
			ck_assert_ptr_eq(who, m); /* the base run refuses nothing */
			ck_assert_msg(*why && !strchr(why, '\n') && strlen(why) < 240,
				      "%s: '%s'", m->name, why);
			char want[300];
			snprintf(want, sizeof want, "%c: %s", code, why);
			v.msg[0] = '\0';
			ck_assert_int_eq(view_mode_key(&v, action, code, 0), VIEW_KEY_DONE);
			ck_assert_str_eq(v.msg, want);
		}
	}
	view_mode_clear(&v);
}
END_TEST

/* What a judged run, its ring and a replay cannot take: the keys that would
 * change a run that is not the engine's to change. */
START_TEST(recorded_runs_refuse_the_keys_that_change_a_run)
{
	static const struct view_mode *const fixed[] = { &mode_judged, &mode_judged_ring,
							 &mode_replay };
	static const int actions[] = { ACT_MODE, ACT_FEWER, ACT_MORE, ACT_QUIZ, ACT_TRAIN };
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
		struct view v;
		with_mode(&v, fixed[i]);
		for (size_t a = 0; a < sizeof actions / sizeof actions[0]; a++) {
			const char *why = view_refusal(&v, actions[a], NULL);
			ck_assert_msg(why, "%s takes action %d", fixed[i]->name, actions[a]);
			/* one line of the info area at 80 columns, with "m: " */
			ck_assert_msg(strlen(why) + 3 <= 78, "'%s' is %zu long", why, strlen(why));
		}
		unsigned have = view_key_needs(&v);
		ck_assert(!(have & KEYS_NEED_LIVE)); /* the key bar offers none of them */
		view_mode_clear(&v);
	}
}
END_TEST

START_TEST(the_help_names_the_mode_that_refuses)
{
	struct view v;
	const struct view_mode *who = NULL;
	with_mode(&v, &mode_judged);
	ck_assert_str_eq(view_refusal(&v, ACT_MODE, &who),
			 "a judged run is your code's, on its case's devices: the mode is the case's");
	ck_assert_ptr_eq(who, &mode_judged);
	ck_assert_ptr_null(view_refusal(&v, ACT_NEXT, NULL));
	ck_assert_ptr_null(view_refusal(&v, ACT_JUDGE, NULL));
	view_mode_clear(&v);
}
END_TEST

START_TEST(a_key_only_an_absent_mode_takes_says_so)
{
	static const int actions[] = { ACT_JUDGE, ACT_DERIVE_OPEN, ACT_FIX };
	struct view v;
	with_mode(&v, &mode_run);
	for (size_t a = 0; a < sizeof actions / sizeof actions[0]; a++) {
		int code = key_of(actions[a]);
		v.msg[0] = '\0';
		ck_assert_int_eq(view_mode_key(&v, actions[a], code, 0), VIEW_KEY_DONE);
		ck_assert_msg(v.msg[0] == code && v.msg[1] == ':' && strlen(v.msg) > 10,
			      "key %c: '%s'", code, v.msg);
	}
	/* what no mode takes is the interface's own, in silence */
	v.msg[0] = '\0';
	ck_assert_int_eq(view_mode_key(&v, ACT_NEXT, 'n', 0), VIEW_KEY_PASS);
	ck_assert_int_eq(view_mode_key(&v, ACT_SHOW, 'v', 0), VIEW_KEY_PASS);
	ck_assert_str_eq(v.msg, "");
	view_mode_clear(&v);
	/* where the mode is on, its key is its own: j asks the session */
	with_mode(&v, &mode_judged);
	ck_assert_int_eq(view_mode_key(&v, ACT_JUDGE, 'j', 0), VIEW_KEY_SESSION);
	ck_assert(view_key_needs(&v) & KEYS_NEED_JUDGE);
	view_mode_clear(&v);
	/* a refusal of a mode of the test's own, over the base */
	with_mode(&v, &mode_run);
	ck_assert(view_key_needs(&v) & KEYS_NEED_LIVE);
	ck_assert_int_eq(view_mode_push(&v, &tm_low, NULL), 0);
	ck_assert_int_eq(view_mode_push(&v, &tm_top, NULL), 0);
	ck_assert_int_eq(view_mode_key(&v, ACT_SHOW, 'v', 0), VIEW_KEY_DONE);
	ck_assert_str_eq(v.msg, "v: the test mode shows one way");
	view_mode_clear(&v);
}
END_TEST

/* --- real views */

static void make(struct mat *a, struct mat *b, struct mat *dc)
{
	struct dm_err err;
	ck_assert_int_eq(mat_alloc(a, 6, 4, &err), 0);
	ck_assert_int_eq(mat_alloc(b, 4, 6, &err), 0);
	ck_assert_int_eq(mat_alloc(dc, 6, 6, &err), 0);
	mat_fill(a, MAT_VALUES_INTS, 1, 0);
	mat_fill(b, MAT_VALUES_INTS, 1, 1);
	mat_fill(dc, MAT_VALUES_INTS, 1, 2);
}

START_TEST(a_run_asked_for_the_lab_and_the_training_step_stacks_them)
{
	struct mat a, b, dc;
	struct view v;
	struct dm_err err;
	char buf[512];
	make(&a, &b, &dc);
	struct view_config cfg = { DM_FSDP, 3, RUN_UNBOUNDED, 0, 0, 1, 1, &dc, 0, 0, 0, NULL };
	ck_assert_int_eq(view_init(&v, &a, &b, &cfg, 0, 0, &err), 0);
	ck_assert_int_eq(v.n_modes, 3);
	ck_assert_ptr_eq(v.modes[0].mode, &mode_train);
	ck_assert_ptr_eq(v.modes[1].mode, &mode_lab);
	ck_assert_ptr_eq(v.modes[2].mode, &mode_run);
	ck_assert(plan_train(v.plan)); /* the training step's mode made the plan */
	ck_assert_int_eq(view_table_kind(&v), VIEW_TABLE_TRAIN);
	ck_assert_int_eq(view_panel_lines(&v), 1);
	/* the top mode's words at ready: the training step's, not the ring's */
	view_caption(&v, buf, sizeof buf);
	ck_assert_msg(strncmp(buf, "Ready, a training step", 22) == 0, "'%s'", buf);
	/* the practice comes in between, by its layer */
	ck_assert_int_eq(mode_practice_push(&v, &err), 0);
	ck_assert_ptr_eq(v.modes[1].mode, &mode_practice);
	/* d: the training step off, the forward again */
	ck_assert_int_eq(view_mode_key(&v, ACT_TRAIN, 'd', 0), VIEW_KEY_DONE);
	ck_assert(!view_mode_on(&v, &mode_train));
	ck_assert(!plan_train(v.plan));
	ck_assert_int_eq(view_table_kind(&v), VIEW_TABLE_RING);
	ck_assert_str_eq(v.msg, "d: the forward alone");
	view_free(&v);
	ck_assert_int_eq(v.n_modes, 0);
	mat_free(&a);
	mat_free(&b);
	mat_free(&dc);
}
END_TEST

static Suite *modes_suite(void)
{
	Suite *s = suite_create("modes");
	TCase *tc = tcase_create("composition");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, modes_answer_in_layer_order_whatever_order_they_came_in);
	tcase_add_test(tc, a_mode_pushed_again_replaces_itself);
	tcase_add_test(tc, a_full_list_refuses_and_frees);
	tcase_add_test(tc, every_mode_is_named_and_the_run_is_the_base);
	suite_add_tcase(s, tc);
	tc = tcase_create("keys");
	tcase_set_timeout(tc, 10);
	tcase_add_loop_test(tc, every_key_a_mode_refuses_says_why_in_a_line, 0, modes_count());
	tcase_add_test(tc, recorded_runs_refuse_the_keys_that_change_a_run);
	tcase_add_test(tc, the_help_names_the_mode_that_refuses);
	tcase_add_test(tc, a_key_only_an_absent_mode_takes_says_so);
	suite_add_tcase(s, tc);
	tc = tcase_create("views");
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, a_run_asked_for_the_lab_and_the_training_step_stacks_them);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(modes_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
