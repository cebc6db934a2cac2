/* check_lanes: the timeline's lane layout (app/timeline/lanes.c), the one
 * batch mode's text and the interface's view both draw, on hand-made
 * cost_runs (no engine run: the layout alone).  Widths 20 to 200, 1 to 16
 * ranks, plain and --prefetch pairs: every column gets a glyph and none is
 * written past the lane, the phases tile the lane in order, the critical
 * rank of a phase never waits in it, the critical path names it; a small
 * run drawn exactly; the window of lanes a short screen shows. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "timeline/lanes.h"
#include "testutil.h"

#define MAX_N 16
#define MAX_PH 40

/* A run of n ranks and phases made as cost_close makes them: each phase as
 * long as its slowest rank (with a pair, the longer of the two phases'
 * lanes), joined phases (odd ones when `pairs`) taking no time of their
 * own.  The figures are varied but fixed, seeded by n and phases. */
struct fake {
	struct cost_run c;
	struct cost_phase phase[MAX_PH];
	struct cost_lane lane[MAX_PH * MAX_N];
};

static void fake_make(struct fake *f, int n, int phases, int pairs, unsigned seed)
{
	memset(f, 0, sizeof *f);
	f->c.n = n;
	f->c.phases = phases;
	f->c.phase = f->phase;
	f->c.lane = f->lane;
	for (int ph = 0; ph < phases; ph++) {
		f->phase[ph].joined = pairs && ph % 2 == 1;
		for (int r = 0; r < n; r++) {
			seed = seed * 1103515245u + 12345u;
			struct cost_lane *l = &f->lane[ph * n + r];
			/* even phases compute (and send, plain), odd ones send */
			l->compute_s = ph % 2 == 0 ? 1e-6 * (1 + (seed >> 16) % 50) : 0;
			l->comm_s = ph % 2 == 1 || !pairs ? 1e-6 * (1 + (seed >> 8) % 30) : 0;
		}
	}
	double at = 0;
	for (int ph = 0; ph < phases; ph++) {
		struct cost_phase *p = &f->phase[ph];
		p->start_s = at;
		p->critical = -1;
		if (p->joined)
		{
			p->start_s = f->phase[ph - 1].start_s;
			continue;
		}
		int pair = ph + 1 < phases && f->phase[ph + 1].joined;
		for (int r = 0; r < n; r++) {
			const struct cost_lane *l = &f->lane[ph * n + r];
			double t = l->compute_s + l->comm_s;
			if (pair) {
				const struct cost_lane *x = &f->lane[(ph + 1) * n + r];
				t = x->compute_s + x->comm_s > t ? x->compute_s + x->comm_s : t;
			}
			if (t > p->time_s) {
				p->time_s = t;
				p->critical = r;
			}
		}
		at += p->time_s;
	}
	f->c.total_s = at;
}

static int glyph_ok(char g)
{
	return g == LANES_COMPUTE || g == LANES_SEND || g == LANES_BOTH || g == LANES_WAIT;
}

START_TEST(lanes_fill_every_column_and_no_more)
{
	static struct fake f;
	char line[256];
	for (int n = 1; n <= MAX_N; n++)
		for (int pairs = 0; pairs < 2; pairs++) {
			fake_make(&f, n, 2 * n + 1, pairs, (unsigned)n);
			for (int w = 20; w <= 200; w++)
				for (int r = -1; r < n; r++) {
					memset(line, '@', sizeof line);
					lanes_fill(&f.c, r, w, line);
					ck_assert_msg(line[w] == '\0' && line[w + 1] == '@',
						      "n %d w %d r %d: wrote past the lane", n, w, r);
					ck_assert_int_eq((int)strlen(line), w);
					for (int j = 0; j < w; j++)
						ck_assert_msg(r < 0 ? (line[j] >= '0' && line[j] <= '9')
								    : glyph_ok(line[j]),
							      "n %d w %d r %d col %d: '%c'", n, w, r, j,
							      line[j]);
				}
		}
}
END_TEST

/* The phases that take time tile [0, width) in order, and a joined phase
 * takes its pair's start and no column of its own. */
START_TEST(phases_tile_the_lane)
{
	static struct fake f;
	for (int n = 1; n <= MAX_N; n++)
		for (int pairs = 0; pairs < 2; pairs++) {
			fake_make(&f, n, 2 * n + 1, pairs, 7u * (unsigned)n);
			for (int w = 20; w <= 200; w++) {
				int at = 0;
				for (int ph = 0; ph < f.c.phases; ph++) {
					int c0, c1;
					lanes_phase_cols(&f.c, ph, w, &c0, &c1);
					if (f.phase[ph].joined) {
						ck_assert_int_eq(c0, c1);
						continue;
					}
					ck_assert_msg(c0 == at, "n %d w %d phase %d starts at %d, not %d",
						      n, w, ph, c0, at);
					ck_assert_int_le(c0, c1);
					at = c1;
				}
				ck_assert_int_eq(at, w);
			}
		}
}
END_TEST

/* In each phase its slowest rank never waits, and the critical lane holds
 * its last digit over the phase's columns. */
START_TEST(the_critical_rank_never_waits)
{
	static struct fake f;
	char line[256], crit[256];
	for (int n = 1; n <= MAX_N; n++)
		for (int pairs = 0; pairs < 2; pairs++) {
			fake_make(&f, n, 2 * n + 1, pairs, 13u * (unsigned)n);
			for (int w = 20; w <= 200; w += 9) {
				lanes_fill(&f.c, -1, w, crit);
				for (int ph = 0; ph < f.c.phases; ph++) {
					int c0, c1, k = f.phase[ph].critical;
					if (f.phase[ph].joined)
						continue;
					lanes_phase_cols(&f.c, ph, w, &c0, &c1);
					lanes_fill(&f.c, k, w, line);
					for (int j = c0; j < c1; j++) {
						ck_assert_msg(line[j] != LANES_WAIT, "n %d w %d phase %d: "
							      "rank %d waits at %d", n, w, ph, k, j);
						ck_assert_int_eq(crit[j], '0' + k % 10);
					}
				}
			}
		}
}
END_TEST

/* Two ranks, two phases, times chosen so that every end falls on a column:
 * the lanes exactly, plain and as a --prefetch pair. */
START_TEST(a_small_run_drawn_exactly)
{
	static struct fake f;
	char line[64];
	memset(&f, 0, sizeof f);
	f.c = (struct cost_run){ .n = 2, .phases = 2, .phase = f.phase, .lane = f.lane, .total_s = 10 };
	f.phase[0] = (struct cost_phase){ .start_s = 0, .time_s = 6, .critical = 1 };
	f.phase[1] = (struct cost_phase){ .start_s = 6, .time_s = 4, .critical = 0 };
	f.lane[0] = (struct cost_lane){ 2, 2 };
	f.lane[1] = (struct cost_lane){ 4, 2 };
	f.lane[2] = (struct cost_lane){ 0, 4 };
	f.lane[3] = (struct cost_lane){ 0, 3 };
	lanes_fill(&f.c, 0, 10, line);
	ck_assert_str_eq(line, "CC==..====");
	lanes_fill(&f.c, 1, 10, line);
	ck_assert_str_eq(line, "CCCC=====.");
	lanes_fill(&f.c, -1, 10, line);
	ck_assert_str_eq(line, "1111110000");
	/* the same as a pair: compute and send from one start */
	f.c = (struct cost_run){ .n = 2, .phases = 2, .phase = f.phase, .lane = f.lane, .total_s = 5 };
	f.phase[0] = (struct cost_phase){ .start_s = 0, .time_s = 5, .critical = 1 };
	f.phase[1] = (struct cost_phase){ .start_s = 0, .critical = -1, .joined = 1 };
	f.lane[0] = (struct cost_lane){ 2, 0 };
	f.lane[1] = (struct cost_lane){ 4, 0 };
	f.lane[2] = (struct cost_lane){ 0, 5 };
	f.lane[3] = (struct cost_lane){ 0, 3 };
	ck_assert_int_eq(lanes_joined(&f.c), 1);
	lanes_fill(&f.c, 0, 10, line);
	ck_assert_str_eq(line, "####======");
	lanes_fill(&f.c, 1, 10, line);
	ck_assert_str_eq(line, "######CC..");
}
END_TEST

START_TEST(the_window_keeps_the_rank_asked)
{
	int first, count;
	for (int n = 1; n <= MAX_N; n++)
		for (int rows = 0; rows <= 20; rows++)
			for (int keep = -1; keep < n; keep++) {
				lanes_window(n, rows, keep, &first, &count);
				ck_assert_int_eq(count, rows < 1 ? 0 : rows < n ? rows : n);
				ck_assert_int_ge(first, 0);
				ck_assert_int_le(first + count, n);
				if (count > 0 && keep >= 0)
					ck_assert_msg(keep >= first && keep < first + count,
						      "n %d rows %d: rank %d not in %d..%d", n, rows, keep,
						      first, first + count - 1);
				if (keep < 0)
					ck_assert_int_eq(first, 0);
			}
}
END_TEST

static Suite *lanes_suite(void)
{
	Suite *s = suite_create("lanes");
	TCase *tc = tcase_create("layout");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, lanes_fill_every_column_and_no_more);
	tcase_add_test(tc, phases_tile_the_lane);
	tcase_add_test(tc, the_critical_rank_never_waits);
	tcase_add_test(tc, a_small_run_drawn_exactly);
	tcase_add_test(tc, the_window_keeps_the_rank_asked);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(lanes_suite());
}
