/* check_schedule: the schedule as arithmetic (engine/core/schedule.c).
 *  - Every phase of FSDP and DP, the forward and the training step, on 1 to
 *    16 devices: its kind and step against the schedule laid out block by
 *    block here, as schedule.h's comment lists it, and the counts against
 *    its closed forms (2n, 2, 5n - 1, 2n + 2); a phase past the last is the
 *    gather's; the order, the bug and the capacity change nothing;
 *    sched_first_phase against a scan of that layout, -1 for a kind the
 *    schedule has not.
 *  - The ring: neighbours, and every rank seeing every shard once.
 *  - The reduce-scatter's and the all-gather's chunks against a ring
 *    simulated message by message: each rank sends what it has, receives
 *    what its left neighbour sent, and the sums end where schedule.h says
 *    (rank r with chunk r, over every rank; then every rank with all).
 *  - The kinds' names. */
#include <check.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/order.h>
#include <distmm/schedule.h>
#include "testutil.h"

#define N_MAX 16
#define PHASES_MAX (5 * N_MAX)

struct phase {
	enum sched_kind kind;
	int step;
};

/* A pass over B: FSDP's ring (compute s, then the transfer of step s, n
 * computes), DP's one compute.  Appends to out at *k. */
static void pass_over_b(enum dm_mode mode, int n, enum sched_kind compute,
			enum sched_kind transfer, struct phase *out, int *k)
{
	for (int s = 0; s < (mode == DM_FSDP ? n : 1); s++) {
		out[(*k)++] = (struct phase){ compute, s };
		if (mode == DM_FSDP && s < n - 1)
			out[(*k)++] = (struct phase){ transfer, s };
	}
}

/* The schedule of mode and pass on n devices, block after block as
 * schedule.h says it.  Returns the count. */
static int layout(enum dm_mode mode, enum dm_pass pass, int n, struct phase *out)
{
	int k = 0;
#define PUT(kd, st) (out[k++] = (struct phase){ (kd), (st) })
	pass_over_b(mode, n, SCHED_COMPUTE, SCHED_TRANSFER, out, &k);
	if (pass == DM_FORWARD) {
		PUT(SCHED_GATHER, mode == DM_FSDP ? n - 1 : 0); /* the last step's */
		return k;
	}
	/* the backward: the second all-gather of B (FSDP), one compute (DP) */
	pass_over_b(mode, n, SCHED_BWD_COMPUTE, SCHED_BWD_TRANSFER, out, &k);
	PUT(SCHED_DB_PARTIAL, 0);
	for (int s = 0; s < n - 1; s++)
		PUT(SCHED_REDUCE_SCATTER, s);
	if (mode == DM_DP)
		for (int s = 0; s < n - 1; s++)
			PUT(SCHED_ALL_GATHER, s);
	PUT(SCHED_GATHER, 0);
#undef PUT
	return k;
}

static int closed_form(enum dm_mode mode, enum dm_pass pass, int n)
{
	if (pass == DM_FORWARD)
		return mode == DM_FSDP ? 2 * n : 2;
	return mode == DM_FSDP ? 5 * n - 1 : 2 * n + 2;
}

/* p's schedule is the layout, phase by phase, and past its end. */
static void same_as_layout(const struct dm_plan *p, const char *what)
{
	struct phase want[PHASES_MAX];
	int n = plan_devices(p), count = layout(plan_mode(p), plan_pass(p), n, want);
	ck_assert_msg(count == closed_form(plan_mode(p), plan_pass(p), n), "%s: layout", what);
	ck_assert_msg(sched_phase_count(p) == count, "%s: %d phases, want %d", what,
		      sched_phase_count(p), count);
	for (int ph = 0; ph < count + 3; ph++) {
		struct phase w = ph < count ? want[ph] : want[count - 1]; /* past it: the gather */
		ck_assert_msg(sched_phase_kind(p, ph) == w.kind, "%s: phase %d is %s, want %s", what,
			      ph, sched_kind_name(sched_phase_kind(p, ph)), sched_kind_name(w.kind));
		ck_assert_msg(sched_phase_step(p, ph) == w.step, "%s: phase %d (%s) step %d, want %d",
			      what, ph, sched_kind_name(w.kind), sched_phase_step(p, ph), w.step);
	}
	for (int kind = SCHED_COMPUTE; kind < SCHED_KIND_COUNT; kind++) {
		int first = -1;
		for (int ph = 0; ph < count && first < 0; ph++)
			if ((int)want[ph].kind == kind)
				first = ph;
		ck_assert_msg(sched_first_phase(p, kind) == first, "%s: first %s at %d, want %d",
			      what, sched_kind_name(kind), sched_first_phase(p, kind), first);
	}
}

/* _i: mode * 2 + pass; every n from 1 to 16. */
START_TEST(every_phase_of_every_schedule)
{
	enum dm_mode mode = _i / 2;
	enum dm_pass pass = _i % 2;
	char what[64];
	for (int n = 1; n <= N_MAX; n++) {
		struct dm_plan *p = tu_plan(mode, n, pass);
		snprintf(what, sizeof what, "%s %s n=%d", plan_mode_name(mode),
			 pass == DM_TRAIN ? "training step" : "forward", n);
		same_as_layout(p, what);
		plan_free(p);
	}
}
END_TEST

/* "the order, the bug and the capacity change none of them" */
START_TEST(only_mode_devices_and_pass_count)
{
	static const enum dm_order orders[] = { ORDER_PARITY, ORDER_SEND_FIRST, ORDER_RECV_FIRST };
	static const enum dm_bug bugs[] = { BUG_NONE, BUG_C_MOD, BUG_NO_WRAP, BUG_EXTRA_ROTATION,
					    BUG_RS_OFF_BY_ONE, BUG_NO_SUM };
	static const size_t caps[] = { 0, 1, RUN_UNBOUNDED };
	for (int mode = 0; mode < 2; mode++)
		for (int n = 1; n <= 6; n++)
			for (size_t o = 0; o < 3; o++)
				for (size_t b = 0; b < sizeof bugs / sizeof bugs[0]; b++) {
					struct dm_plan *p = tu_plan_run(mode, n, DM_FORWARD, orders[o],
									bugs[b], caps[(o + b) % 3]);
					same_as_layout(p, "forward, any order, bug and capacity");
					plan_free(p);
				}
	/* a plan's pass changed in place changes its schedule */
	struct dm_plan *p = tu_plan(DM_FSDP, 5, DM_TRAIN);
	ck_assert_int_eq(sched_phase_count(p), 24);
	ck_assert_int_eq(plan_set_pass(p, DM_FORWARD, NULL), 0);
	ck_assert_int_eq(sched_phase_count(p), 10);
	same_as_layout(p, "the pass set back");
	plan_free(p);
}
END_TEST

START_TEST(the_ring)
{
	for (int n = 1; n <= 64; n++)
		for (int r = 0; r < n; r++) {
			ck_assert_int_eq(sched_right(n, r), (r + 1) % n);
			ck_assert_int_eq(sched_left(n, sched_right(n, r)), r);
			/* over n steps every rank holds every shard once, and what it
			 * holds at s + 1 is what its left neighbour held at s */
			unsigned long long seen = 0;
			for (int s = 0; s < n; s++) {
				int k = sched_shard(n, r, s);
				ck_assert(k >= 0 && k < n);
				seen |= 1ULL << k;
				if (s + 1 < n)
					ck_assert_int_eq(sched_shard(n, r, s + 1),
							 sched_shard(n, sched_left(n, r), s));
			}
			ck_assert(seen == (n == 64 ? ~0ULL : (1ULL << n) - 1));
			ck_assert_int_eq(sched_shard(n, r, 0), r); /* its own first */
		}
	ck_assert_int_eq(sched_shard(4, 0, 1), 3);
	ck_assert_int_eq(sched_shard(4, 1, 3), 2);
}
END_TEST

/* dB's chunks over a ring of n ranks, message by message: sum[r][c] is the
 * set of ranks whose part of chunk c rank r's buffer holds (a bit each).
 * At each step every rank sends one chunk's buffer to the right and the
 * receiver adds its own part in (reduce-scatter) or stores it (all-gather);
 * the schedule's formulas pick the chunks, and the simulation checks that
 * each receiver names the chunk its left neighbour sent. */
START_TEST(chunks_against_a_simulated_ring)
{
	for (int n = 1; n <= N_MAX; n++) {
		unsigned sum[N_MAX][N_MAX], all = (1u << n) - 1;
		for (int r = 0; r < n; r++)
			for (int c = 0; c < n; c++)
				sum[r][c] = 1u << r; /* its own partial: its own part of each */
		for (int s = 0; s + 1 < n; s++) {
			unsigned sent[N_MAX];
			int chunk[N_MAX];
			for (int r = 0; r < n; r++) {
				chunk[r] = sched_rs_send_chunk(n, r, s);
				ck_assert(chunk[r] >= 0 && chunk[r] < n);
				sent[r] = sum[r][chunk[r]];
				/* a running sum of s + 1 ranks' parts: the chunk has come
				 * through s ranks before this one */
				ck_assert_int_eq(__builtin_popcount(sent[r]), s + 1);
			}
			for (int r = 0; r < n; r++) {
				int from = sched_left(n, r), c = sched_rs_recv_chunk(n, r, s);
				ck_assert_msg(c == chunk[from], "n=%d s=%d: rank %d receives chunk %d, rank "
					      "%d sent %d", n, s, r, c, from, chunk[from]);
				ck_assert_msg(!(sent[from] & (1u << r)), "n=%d s=%d: rank %d's part is in "
					      "chunk %d twice", n, s, r, c);
				sum[r][c] = sent[from] | (1u << r);
			}
		}
		/* "after the last step it has received chunk (r - n) mod n = r,
		 * summed over every rank" */
		for (int r = 0; r < n; r++)
			ck_assert_msg(sum[r][r] == all, "n=%d: rank %d's chunk holds %#x", n, r, sum[r][r]);
		/* the all-gather passes the summed chunks until every rank has all */
		unsigned have[N_MAX];
		for (int r = 0; r < n; r++)
			have[r] = 1u << r;
		for (int s = 0; s + 1 < n; s++) {
			int chunk[N_MAX];
			for (int r = 0; r < n; r++) {
				chunk[r] = sched_ag_send_chunk(n, r, s);
				ck_assert_msg(have[r] & (1u << chunk[r]), "n=%d s=%d: rank %d sends chunk "
					      "%d, not summed there yet", n, s, r, chunk[r]);
			}
			for (int r = 0; r < n; r++) {
				int from = sched_left(n, r), c = sched_ag_recv_chunk(n, r, s);
				ck_assert_int_eq(c, chunk[from]);
				ck_assert_msg(!(have[r] & (1u << c)), "n=%d s=%d: rank %d gets chunk %d "
					      "again", n, s, r, c);
				have[r] |= 1u << c;
			}
		}
		for (int r = 0; r < n; r++)
			ck_assert_uint_eq(have[r], all);
	}
	/* schedule.h's words, with C's negative remainders */
	ck_assert_int_eq(sched_rs_send_chunk(4, 0, 0), 3); /* (0 - 0 - 1) mod 4 */
	ck_assert_int_eq(sched_rs_recv_chunk(4, 1, 2), 1); /* (1 - 2 - 2) mod 4 */
	ck_assert_int_eq(sched_ag_send_chunk(4, 1, 3), 2); /* (1 - 3) mod 4 */
	ck_assert_int_eq(sched_ag_recv_chunk(3, 0, 1), 1); /* (0 - 1 - 1) mod 3 */
}
END_TEST

START_TEST(kinds_have_names)
{
	static const char *const names[SCHED_KIND_COUNT] = {
		"compute", "transfer", "gather", "backward", "backward transfer", "partial dB",
		"reduce-scatter", "all-gather",
		/* a collective's primitives */
		"reduce-scatter", "all-gather", "chain broadcast", "chain reduce", "tree reduce",
		"tree broadcast", "tree gather", "tree scatter", "halving", "doubling",
		/* tensor parallel's */
		"distribute A", "activation", "second layer",
	};
	for (int k = 0; k < SCHED_KIND_COUNT; k++)
		ck_assert_str_eq(sched_kind_name(k), names[k]);
	ck_assert_str_eq(sched_kind_name(SCHED_NONE), "?");
	ck_assert_str_eq(sched_kind_name(SCHED_KIND_COUNT), "?");
}
END_TEST

static Suite *schedule_suite(void)
{
	Suite *s = suite_create("schedule");
	TCase *tc = tcase_create("phases");
	tcase_set_timeout(tc, 30);
	tcase_add_loop_test(tc, every_phase_of_every_schedule, 0, 4);
	tcase_add_test(tc, only_mode_devices_and_pass_count);
	tcase_add_test(tc, kinds_have_names);
	suite_add_tcase(s, tc);
	tc = tcase_create("ring");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, the_ring);
	tcase_add_test(tc, chunks_against_a_simulated_ring);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(schedule_suite());
}
