/* check_lesson_claims: every shipped lesson says only what its runs do.
 * A lesson states a figure through a placeholder (lesson.h: {sent},
 * {train_sent}, {held}, {B}, {rows}, {cols}), which the program fills from
 * the engine's model ({tp_sent} too); here each part's settings are run by the engine
 * itself, and the numbers each placeholder's words state (parsed back out
 * of "on average 2/3 of B (ranks 0-1 3/4, rank 2 1/2)", "32.0 KiB", "3, 2
 * and 2") are held to what the run sent, held and split, rank by rank.
 * So that no figure escapes this, a lesson may not write one out: a
 * fraction, a byte count, a list of part sizes or a share over {n} in a
 * caption's own words fails.  And a caption for any step of a kind names
 * no one step ("the first transfer"), since it shows at every one. */
#include <check.h>
#include <dirent.h>
#include <inttypes.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "practice/lesson.h"
#include <distmm/ccl.h>
#include <distmm/cost.h>
#include <distmm/hw.h>
#include <distmm/model.h>
#include <distmm/schedule.h>
#include "testutil.h"

#define MAXN 64

static struct lesson les; /* large: not on the stack */

/* A part's run: the program's defaults (FSDP, 4 devices, A 8x6, B 6x4),
 * then every set: up to the part (the parser keeps them cumulative). */
struct part_run {
	int mode, n, train;
	size_t M, K, N;
	int collective, algo; /* a collective's part (collective >= 0) */
	uint64_t bytes;
	struct dm_hw hw;
};

static void part_run_of(const struct lesson_set *st, struct part_run *pr)
{
	*pr = (struct part_run){ .mode = DM_FSDP, .n = 4, .M = 8, .K = 6, .N = 4, .collective = -1,
				 .algo = CCL_RING };
	hw_default(&pr->hw); /* the interface's model without hw= */
	if (st->has & LESSON_SET_MODE) pr->mode = st->mode;
	if (st->has & LESSON_SET_DEVICES) pr->n = st->devices;
	if (st->has & LESSON_SET_TRAIN) pr->train = st->train;
	if (st->has & LESSON_SET_M) pr->M = st->M;
	if (st->has & LESSON_SET_K) pr->K = st->K;
	if (st->has & LESSON_SET_N) pr->N = st->N;
	if (st->has & LESSON_SET_COLLECTIVE) pr->collective = st->collective;
	if (st->has & LESSON_SET_ALGO) pr->algo = st->algo;
	if (st->has & LESSON_SET_HW) ck_assert_int_eq(hw_preset_find(st->hw, &pr->hw, NULL), 0);
	/* the session's size: the lesson's, else two values a chunk */
	pr->bytes = st->has & LESSON_SET_BYTES ? st->bytes : 16u * (uint64_t)pr->n;
}

/* A part's plan: tp-mlp's with the interface's defaults (relu, P = K), as
 * the session makes it. */
static struct dm_plan *part_plan(const struct part_run *pr, int mode, enum dm_pass pass)
{
	struct dm_plan *p = tu_plan(mode, pr->n, pass);
	if (mode == DM_TP_MLP)
		ck_assert_int_eq(plan_set_tp_mlp(p, DM_ACT_RELU, pr->K, NULL), 0);
	return p;
}

/* What the engine did on a part's settings (the correct ring, no bug). */
struct measured {
	uint64_t fwd_ring[MAXN];   /* bytes each rank sent before the gather, forward */
	uint64_t train_ring[MAXN]; /* the same in the training step */
	uint64_t all_sent[MAXN];   /* every byte each rank sent in the forward */
	uint64_t held_b[MAXN];     /* FSDP's forward: the most of B held at once */
	uint64_t rows[MAXN], cols[MAXN]; /* A's rows and B's columns each rank owns */
	uint64_t b_bytes;
	double ccl_s[CCL_ALGO_COUNT]; /* a collective's part: each algorithm's run, timed */
};

/* A collective's part run by the engine with algo, timed from its own
 * events by the model (what the interface's clock line adds up). */
static double ccl_run_time(const struct part_run *pr, int algo)
{
	struct dm_plan *plan;
	struct run *r;
	struct dm_err err;
	struct mat in;
	struct cost_run c;
	size_t count = (size_t)(pr->bytes / 8), n_ev;
	tu_matrix(&in, (size_t)pr->n, count, 0, 1, 3);
	ck_assert_int_eq(plan_make_collective(&plan, pr->collective, algo, pr->n, count, &err), 0);
	ck_assert_msg(run_new(&r, plan, NULL, &in, NULL, &err) == 0, "run_new: %s", err.msg);
	int rc;
	while ((rc = run_step(r, &err)) == 0)
		;
	ck_assert_msg(rc == 1, "run_step: %s", err.msg);
	const struct ev *ev = run_events(r, &n_ev);
	ck_assert_int_eq(cost_of_events(&c, plan, &pr->hw, 0, ev, n_ev, &err), 0);
	double t = c.total_s;
	cost_run_free(&c);
	run_free(r);
	plan_free(plan);
	mat_free(&in);
	return t;
}

/* Runs plan to its end; each rank's sends before the gather into ring[]. */
static struct run *run_through(const struct dm_plan *plan, const struct mat *a, const struct mat *b,
			       const struct mat *dc, const struct mat *e, uint64_t *ring,
			       uint64_t *all)
{
	struct run_config cfg;
	struct run *r;
	struct dm_err err;
	run_config_default(&cfg);
	cfg.dc = dc;
	cfg.e = e;
	ck_assert_msg(run_new(&r, plan, &cfg, a, b, &err) == 0, "run_new: %s", err.msg);
	int rc;
	while ((rc = run_step(r, &err)) == 0)
		;
	ck_assert_msg(rc == 1, "run_step: %s", err.msg);
	size_t count;
	const struct ev *ev = run_events(r, &count);
	for (size_t i = 0; i < count; i++)
		if (ev[i].op == EV_SEND) {
			if (sched_phase_kind(plan, ev[i].phase) != SCHED_GATHER)
				ring[ev[i].rank] += ev[i].bytes;
			if (all)
				all[ev[i].rank] += ev[i].bytes;
		}
	return r;
}

static void measure(const struct part_run *pr, struct measured *m)
{
	struct mat a, b, dc, e;
	struct dm_err err;
	int n = pr->n;
	memset(m, 0, sizeof *m);
	if (pr->collective >= 0) { /* no matrices: the collective, by each algorithm */
		for (int algo = 0; algo < CCL_ALGO_COUNT; algo++)
			if (ccl_applies(pr->collective, algo, n))
				m->ccl_s[algo] = ccl_run_time(pr, algo);
		return;
	}
	tu_matrix(&a, pr->M, pr->K, 0, 1, 0);
	tu_matrix(&b, pr->K, pr->N, 0, 1, 1);
	tu_matrix(&dc, pr->M, pr->N, 0, 1, 2);
	tu_matrix(&e, pr->N, pr->K, 0, 1, 4); /* tp-mlp's second weight, N x P = K */
	m->b_bytes = (uint64_t)(b.rows * b.cols * sizeof b.data[0]);
	struct dm_plan *plan = part_plan(pr, pr->mode, DM_FORWARD);
	run_free(run_through(plan, &a, &b, NULL, &e, m->fwd_ring, m->all_sent));
	plan_free(plan);
	if (!plan_mode_tp(pr->mode)) { /* tensor parallel's lessons show the forward */
		plan = tu_plan(pr->mode, n, DM_TRAIN);
		run_free(run_through(plan, &a, &b, &dc, NULL, m->train_ring, NULL));
		plan_free(plan);
	}
	/* FSDP's forward, phase by phase to its last compute: the peaks less A's
	 * and C's rows are the most of B each rank held; step 0's computes name
	 * each rank's own shard's columns */
	struct run_snapshot s;
	struct run *r;
	plan = tu_plan(DM_FSDP, n, DM_FORWARD);
	ck_assert_int_eq(run_new(&r, plan, NULL, &a, &b, &err), 0);
	ck_assert_int_eq(run_snapshot_init(&s, plan, pr->M, pr->K, pr->N, 0, &err), 0);
	for (int ph = 0; ph + 1 < sched_phase_count(plan); ph++)
		ck_assert_int_ge(run_step(r, &err), 0);
	run_snapshot_take(r, &s);
	for (int i = 0; i < n; i++) {
		m->rows[i] = s.dev[i].row_end - s.dev[i].row_begin;
		m->held_b[i] = s.dev[i].peak_bytes - 8 * m->rows[i] * (pr->K + pr->N);
	}
	size_t count;
	const struct ev *ev = run_events(r, &count);
	for (size_t i = 0; i < count; i++)
		if (ev[i].op == EV_COMPUTE && ev[i].step == 0)
			m->cols[ev[i].rank] = ev[i].col_end - ev[i].col_begin;
	run_snapshot_free(&s);
	run_free(r);
	plan_free(plan);
	mat_free(&a);
	mat_free(&b);
	mat_free(&dc);
	mat_free(&e);
}

/* A share as the words write it: "3/4", "all", "none", or a whole
 * multiple ("2", "2 x"); into num/den.  Returns the characters read, 0
 * when s starts none. */
static int parse_share(const char *s, uint64_t *num, uint64_t *den)
{
	unsigned long long a, b;
	int used = 0;
	if (strncmp(s, "all", 3) == 0)
		return *num = 1, *den = 1, 3;
	if (strncmp(s, "none", 4) == 0)
		return *num = 0, *den = 1, 4;
	if (sscanf(s, "%llu/%llu%n", &a, &b, &used) == 2 && used > 0 && b > 0)
		return *num = a, *den = b, used;
	if (sscanf(s, "%llu%n", &a, &used) == 1 && used > 0)
		return *num = a, *den = 1, used + (strncmp(s + used, " x", 2) == 0 ? 2 : 0);
	return 0;
}

/* The shares a phrase states for n ranks: "F of X", or "on average F of X
 * (ranks a-b F, rank c F)".  Fills num[r], den[r]; the average into
 * avg_num/avg_den.  Returns 0, or -1 when the phrase does not read. */
static int parse_shares(const char *s, int n, uint64_t *num, uint64_t *den, uint64_t *avg_num,
			uint64_t *avg_den)
{
	int avg = strncmp(s, "on average ", 11) == 0, used;
	if (avg)
		s += 11;
	if (!(used = parse_share(s, avg_num, avg_den)))
		return -1;
	for (int r = 0; r < n; r++)
		num[r] = *avg_num, den[r] = *avg_den;
	if (!avg)
		return strchr(s, '(') ? -1 : 0;
	const char *p = strchr(s + used, '(');
	if (!p)
		return -1;
	int seen = 0;
	for (p++; *p && *p != ')';) {
		int a, b, k = 0;
		if (sscanf(p, "ranks %d-%d %n", &a, &b, &k) == 2 && k > 0)
			;
		else if (sscanf(p, "rank %d %n", &a, &k) == 1 && k > 0)
			b = a;
		else
			return -1;
		p += k;
		uint64_t x, y;
		if (a < 0 || b >= n || a > b || !(k = parse_share(p, &x, &y)))
			return -1;
		for (int r = a; r <= b; r++)
			num[r] = x, den[r] = y;
		seen += b - a + 1;
		p += k;
		if (strncmp(p, ", ", 2) == 0)
			p += 2;
	}
	return *p == ')' && seen == n ? 0 : -1;
}

/* "32.0 KiB", "192 B": within the rounding of its one decimal. */
static int bytes_match(const char *s, uint64_t want)
{
	double v;
	char unit[8];
	if (sscanf(s, "%lf %7[A-Za-z]", &v, unit) != 2)
		return 0;
	double scale = strcmp(unit, "B") == 0 ? 1 : strcmp(unit, "KiB") == 0 ? 1024.0
		     : strcmp(unit, "MiB") == 0 ? 1048576.0 : 0;
	return scale > 0 && v * scale - 0.05 * scale <= (double)want &&
	       (double)want <= v * scale + 0.05 * scale;
}

/* "3, 2 and 2" against n parts. */
static int parts_match(const char *s, int n, const uint64_t *want)
{
	for (int i = 0; i < n; i++) {
		unsigned long long v;
		int used = 0;
		if (sscanf(s, "%llu%n", &v, &used) != 1 || v != want[i])
			return 0;
		s += used;
		const char *sep = i == n - 1 ? "" : i == n - 2 ? " and " : ", ";
		if (strncmp(s, sep, strlen(sep)) != 0)
			return 0;
		s += strlen(sep);
	}
	return *s == '\0';
}

/* The figures checked, by placeholder: the test must have met each. */
static int checked[10];

/* "20.4 us": a time to its three digits, against seconds. */
static int us_match(const char *s, double want_s)
{
	double v;
	return sscanf(s, "%lf us", &v) == 1 && fabs(v - want_s * 1e6) <= 5e-3 * want_s * 1e6;
}

/* "96 B each", "rank 0 1.1 KiB, the others 64 B each", "rank 0 X, rank 1
 * Y, ...": the bytes each rank sent, rank by rank. */
static void check_tp_sent(const char *where, const char *fig, int n, const uint64_t *sent)
{
	const char *p = fig;
	if (strncmp(p, "rank 0 ", 7) != 0) {
		for (int r = 0; r < n; r++)
			ck_assert_msg(bytes_match(p, sent[r]) && strstr(p, " each"),
				      "%s: {tp_sent} is '%s', rank %d sent %" PRIu64, where, fig, r,
				      sent[r]);
		return;
	}
	ck_assert_msg(bytes_match(p + 7, sent[0]), "%s: {tp_sent} is '%s', rank 0 sent %" PRIu64,
		      where, fig, sent[0]);
	const char *others = strstr(p, ", the others ");
	for (int r = 1; r < n; r++) {
		char key[32];
		snprintf(key, sizeof key, ", rank %d ", r);
		const char *at = others ? others + 13 : strstr(p, key);
		ck_assert_msg(at && bytes_match(others ? at : at + strlen(key), sent[r]),
			      "%s: {tp_sent} is '%s', rank %d sent %" PRIu64, where, fig, r, sent[r]);
	}
}

/* Whether the shares a phrase states are x[r] of whole, rank by rank. */
static void check_shares(const char *where, const char *phrase, int n, const uint64_t *x,
			 uint64_t whole)
{
	uint64_t num[MAXN], den[MAXN], an, ad, sum = 0;
	ck_assert_msg(parse_shares(phrase, n, num, den, &an, &ad) == 0, "%s: '%s' does not read",
		      where, phrase);
	for (int r = 0; r < n; r++) {
		ck_assert_msg(num[r] * whole == x[r] * den[r],
			      "%s: '%s' says rank %d's is %" PRIu64 "/%" PRIu64 "; the run: %" PRIu64
			      " of %" PRIu64 " bytes", where, phrase, r, num[r], den[r], x[r], whole);
		sum += x[r];
	}
	ck_assert_msg(an * whole * (uint64_t)n == sum * ad, "%s: '%s': the run's average is %" PRIu64
		      " of %d x %" PRIu64, where, phrase, sum, n, whole);
}

/* Placeholder name[0..len) of a caption of part pr, held to the run. */
static void check_figure(const char *where, const char *name, size_t len,
			 const struct part_run *pr, const struct measured *m)
{
	char fig[LESSON_TEXT_MAX];
	struct dm_plan *plan = part_plan(pr, pr->mode, pr->train ? DM_TRAIN : DM_FORWARD);
	if (pr->collective >= 0) {
		plan_free(plan);
		ck_assert_int_eq(plan_make_collective(&plan, pr->collective, pr->algo, pr->n,
						      (size_t)(pr->bytes / 8), NULL), 0);
	}
	struct lesson_at at = { 0, pr->n, plan, pr->M, pr->K, pr->N, &pr->hw };
	ck_assert_int_eq(lesson_figure(name, len, &at, fig, sizeof fig), 0);
	plan_free(plan);
	int n = pr->n;
	if (len == 4 && !memcmp(name, "sent", 4)) {
		check_shares(where, fig, n, m->fwd_ring, m->b_bytes);
		checked[0]++;
	} else if (len == 10 && !memcmp(name, "train_sent", 10)) {
		check_shares(where, fig, n, m->train_ring, m->b_bytes);
		checked[1]++;
	} else if (len == 4 && !memcmp(name, "held", 4)) {
		check_shares(where, fig, n, m->held_b, m->b_bytes);
		checked[2]++;
	} else if (len == 1 && name[0] == 'B') {
		ck_assert_msg(bytes_match(fig, m->b_bytes), "%s: {B} is '%s', B is %" PRIu64 " bytes",
			      where, fig, m->b_bytes);
		checked[3]++;
	} else if (len == 4 && !memcmp(name, "rows", 4)) {
		ck_assert_msg(parts_match(fig, n, m->rows), "%s: {rows} is '%s'", where, fig);
		checked[4]++;
	} else if (len == 4 && !memcmp(name, "cols", 4)) {
		ck_assert_msg(parts_match(fig, n, m->cols), "%s: {cols} is '%s'", where, fig);
		checked[5]++;
	} else if (len == 7 && !memcmp(name, "tp_sent", 7)) {
		check_tp_sent(where, fig, n, m->all_sent);
		checked[6]++;
	} else if (len == 8 && !memcmp(name, "ccl_time", 8)) {
		ck_assert_msg(us_match(fig, m->ccl_s[pr->algo]), "%s: {ccl_time} is '%s', the run "
			      "took %g us", where, fig, m->ccl_s[pr->algo] * 1e6);
		checked[7]++;
	} else if (len == 12 && !memcmp(name, "ring_vs_tree", 12)) {
		const char *tree = strstr(fig, ", tree ");
		ck_assert_msg(!strncmp(fig, "ring ", 5) && us_match(fig + 5, m->ccl_s[CCL_RING]) &&
				      tree && us_match(tree + 7, m->ccl_s[CCL_TREE]),
			      "%s: {ring_vs_tree} is '%s', the runs took %g and %g us", where, fig,
			      m->ccl_s[CCL_RING] * 1e6, m->ccl_s[CCL_TREE] * 1e6);
		checked[8]++;
	} else if (len == 5 && !memcmp(name, "busbw", 5)) {
		double t = m->ccl_s[pr->algo], bw;
		double want = cost_busbw(pr->collective, n, (double)pr->bytes, t) / 1e9;
		ck_assert_msg(sscanf(fig, "%lf GB/s", &bw) == 1 && fabs(bw - want) <= 5e-3 * want,
			      "%s: {busbw} is '%s', the run's is %g GB/s", where, fig, want);
		checked[9]++;
	}
}

/* Figures a caption's own words may not state: each comes from the model. */
static const char *const literal[] = {
	"[0-9]+/[0-9]+",                                /* a share: "3/4 of B" */
	"/ ?\\{n\\}",                                   /* one over n: "({n}-1)/{n}" */
	"[0-9](\\.[0-9]+)? ?(B|KiB|MiB|GiB)([^A-Za-z_[]|$)", /* a byte count */
	"[0-9]+, [0-9]+(, [0-9]+)*,? (and )?[0-9]+",     /* a list of part sizes */
};

/* What a caption for any step may not say: one step. */
static const char *const one_step = "(first|last) (transfer|step|compute)|\\b[st]=[0-9]|step [0-9]";

static int stepped(int when)
{
	return when == LESSON_COMPUTE || when == LESSON_TRANSFER || when == LESSON_BACKWARD ||
	       when == LESSON_BACKWARD_TRANSFER || when == LESSON_REDUCE_SCATTER ||
	       when == LESSON_ALL_GATHER;
}

/* The caption's words with every placeholder taken out. */
static void words_only(const char *text, char *out, size_t size)
{
	size_t o = 0;
	for (const char *t = text; *t && o + 1 < size; t++) {
		const char *close = t[0] == '{' ? strchr(t, '}') : NULL;
		if (close && lesson_figure_known(t + 1, (size_t)(close - t - 1)))
			t = close;
		else
			out[o++] = *t;
	}
	out[o] = '\0';
}

START_TEST(shipped_lessons_say_what_the_engine_does)
{
	regex_t lit[sizeof literal / sizeof literal[0]], step;
	for (size_t i = 0; i < sizeof literal / sizeof literal[0]; i++)
		ck_assert_int_eq(regcomp(&lit[i], literal[i], REG_EXTENDED | REG_NOSUB), 0);
	ck_assert_int_eq(regcomp(&step, one_step, REG_EXTENDED | REG_NOSUB), 0);
	DIR *d = opendir("assets/lessons");
	ck_assert_ptr_nonnull(d);
	struct dirent *de;
	int lessons = 0;
	static struct measured m;
	while ((de = readdir(d))) {
		char path[512], err[512], where[600], words[LESSON_TEXT_MAX];
		size_t len = strlen(de->d_name);
		if (len < 8 || strcmp(de->d_name + len - 7, ".lesson") != 0)
			continue;
		snprintf(path, sizeof path, "assets/lessons/%s", de->d_name);
		ck_assert_msg(lesson_load(&les, path, err, sizeof err) == 0, "%s", err);
		lessons++;
		for (int p = 0; p < les.nparts; p++) {
			const struct lesson_part *part = &les.part[p];
			struct part_run pr;
			int ran = 0;
			part_run_of(&part->set, &pr);
			for (int c = 0; c < part->ncap; c++) {
				const struct lesson_caption *cap = &part->cap[c];
				snprintf(where, sizeof where, "%s:%d", path, cap->line);
				words_only(cap->text, words, sizeof words);
				for (size_t i = 0; i < sizeof literal / sizeof literal[0]; i++)
					ck_assert_msg(regexec(&lit[i], words, 0, NULL, 0) != 0,
						      "%s: a figure written out (/%s/), not a "
						      "placeholder: %s", where, literal[i], cap->text);
				ck_assert_msg(cap->step >= 0 || !stepped(cap->when) ||
						      regexec(&step, words, 0, NULL, 0) != 0,
					      "%s: a caption for every step names one: %s", where,
					      cap->text);
				for (const char *t = strchr(cap->text, '{'); t; t = strchr(t + 1, '{')) {
					const char *close = strchr(t, '}');
					size_t nl = close ? (size_t)(close - t - 1) : 0;
					if (!close || !lesson_figure_known(t + 1, nl) ||
					    (nl == 1 && (t[1] == 's' || t[1] == 'n')))
						continue; /* prose, or the step and the devices */
					if (!ran)
						measure(&pr, &m);
					ran = 1;
					check_figure(where, t + 1, nl, &pr, &m);
				}
			}
		}
	}
	closedir(d);
	for (size_t i = 0; i < sizeof literal / sizeof literal[0]; i++)
		regfree(&lit[i]);
	regfree(&step);
	ck_assert_int_ge(lessons, 6);
	/* the shipped lessons use every figure: none of these checks is idle */
	for (int i = 0; i < 10; i++)
		ck_assert_msg(checked[i] > 0, "figure %d never checked", i);
}
END_TEST

/* The checks themselves catch what they are for: an untrue share, a
 * figure written out, one step named at every step. */
START_TEST(the_checks_catch_an_untrue_lesson)
{
	uint64_t num[MAXN], den[MAXN], an, ad;
	ck_assert_int_eq(parse_shares("on average 2/3 of B (ranks 0-1 3/4, rank 2 1/2)", 3, num,
				      den, &an, &ad), 0);
	ck_assert(num[0] == 3 && den[0] == 4 && num[2] == 1 && den[2] == 2 && an == 2 && ad == 3);
	ck_assert_int_eq(parse_shares("on average 2/3 of B (ranks 0-1 3/4)", 3, num, den, &an, &ad),
			 -1); /* rank 2 unsaid */
	ck_assert_int_eq(parse_shares("2 x B's size", 3, num, den, &an, &ad), 0);
	ck_assert(num[1] == 2 && den[1] == 1);
	/* the lesson's old words at -d 5, N = 7: 4/5 is no rank's share */
	struct part_run pr = { .mode = DM_FSDP, .n = 5, .M = 9, .K = 3, .N = 7, .collective = -1 };
	static struct measured m;
	measure(&pr, &m);
	ck_assert_int_eq(parse_shares("4/5 of B", 5, num, den, &an, &ad), 0);
	int wrong = 0;
	for (int r = 0; r < 5; r++)
		wrong += num[r] * m.b_bytes != m.fwd_ring[r] * den[r];
	ck_assert_int_eq(wrong, 5);
	ck_assert(bytes_match("32.0 KiB", 32768) && !bytes_match("32.0 KiB", 4096));
	uint64_t rows[3] = { 3, 2, 2 };
	ck_assert(parts_match("3, 2 and 2", 3, rows) && !parts_match("3, 2, 2", 3, rows));
	regex_t re;
	char words[128];
	ck_assert_int_eq(regcomp(&re, literal[0], REG_EXTENDED | REG_NOSUB), 0);
	words_only("During a transfer a device holds {held}.", words, sizeof words);
	ck_assert_int_ne(regexec(&re, words, 0, NULL, 0), 0);
	ck_assert_int_eq(regexec(&re, "two shards: 2/8 of B", 0, NULL, 0), 0);
	regfree(&re);
	ck_assert_int_eq(regcomp(&re, one_step, REG_EXTENDED | REG_NOSUB), 0);
	ck_assert_int_eq(regexec(&re, "During the first transfer it sends its own", 0, NULL, 0), 0);
	regfree(&re);
}
END_TEST

static Suite *claims_suite(void)
{
	Suite *s = suite_create("lesson claims");
	TCase *tc = tcase_create("the shipped lessons");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, shipped_lessons_say_what_the_engine_does);
	tcase_add_test(tc, the_checks_catch_an_untrue_lesson);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(claims_suite());
}
