/* check_ccl: the collectives family's arithmetic (engine/core/ccl.c), held
 * to a symbolic run the test makes itself: every rank keeps, chunk by
 * chunk, the set of ranks whose parts its copy holds (a bit each), and the
 * schedule's transfers move those sets.  For every kind and algorithm that
 * applies, n = 1 to 16, buffers split evenly, unevenly and with empty
 * chunks:
 *  - every send has its receive in the same phase, from and to the right
 *    ranks, with the same range of chunks, and the reverse;
 *  - a rank never sends what it does not hold, never adds a part twice,
 *    never adds into the range it sends in that phase;
 *  - at the end every rank holds exactly what its kind says (every rank's
 *    parts, or rank c's own chunk, or rank 0's buffer) on its output;
 *  - the bytes each rank sends, summed over the phases, equal
 *    ccl_sent_bytes, and with even chunks the textbook's (n-1)/n S and
 *    2(n-1)/n S;
 *  - the phase count is the closed form's latency count, no phase idle. */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include <distmm/ccl.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "testutil.h"

#define MAXN 16

static int levels(int n) /* ceil(log2 n), written again */
{
	int l = 0;
	while ((1 << l) < n)
		l++;
	return l;
}

/* The phases the closed forms count: their alpha terms. */
static int want_phases(int kind, int algo, int n)
{
	int L = levels(n);
	if (n == 1)
		return 0;
	if (algo == CCL_RING)
		return kind == CCL_ALLGATHER || kind == CCL_REDUCESCATTER ? n - 1 : 2 * (n - 1);
	if (algo == CCL_TREE)
		return kind == CCL_REDUCE || kind == CCL_BROADCAST ? L : 2 * L;
	return kind == CCL_ALLREDUCE ? 2 * L : L;
}

struct sym {
	int kind, algo, n;
	size_t count;
	uint32_t held[MAXN][MAXN]; /* held[r][c]: the ranks whose parts rank r's chunk c holds */
	uint64_t sent[MAXN];
};

static void sym_start(struct sym *s)
{
	memset(s->held, 0, sizeof s->held);
	memset(s->sent, 0, sizeof s->sent);
	for (int r = 0; r < s->n; r++) {
		int c0, c1;
		ccl_input_chunks(s->kind, s->n, r, &c0, &c1);
		for (int c = c0; c < c1; c++)
			s->held[r][c] = 1u << r;
	}
}

/* One phase: every rank's transfer checked against its peer's, the sets
 * moved all at once (what is sent is what was held before the phase). */
static void sym_phase(struct sym *s, int ph)
{
	struct ccl_xfer x[MAXN];
	uint32_t before[MAXN][MAXN];
	int n = s->n, busy = 0;
	memcpy(before, s->held, sizeof before);
	for (int r = 0; r < n; r++)
		ccl_rank_phase(s->kind, s->algo, n, ph, r, &x[r]);
	for (int r = 0; r < n; r++) {
		const struct ccl_xfer *a = &x[r];
		if (a->send_to >= 0) {
			busy = 1;
			ck_assert_msg(a->send_to < n && a->send_to != r, "phase %d rank %d sends to %d",
				      ph, r, a->send_to);
			const struct ccl_xfer *b = &x[a->send_to];
			ck_assert_msg(b->recv_from == r && b->recv_c0 == a->send_c0 &&
					      b->recv_c1 == a->send_c1,
				      "phase %d: rank %d sends [%d,%d) to %d, which receives [%d,%d) from %d",
				      ph, r, a->send_c0, a->send_c1, a->send_to, b->recv_c0, b->recv_c1,
				      b->recv_from);
			ck_assert(a->send_c0 >= 0 && a->send_c0 < a->send_c1 && a->send_c1 <= n);
			s->sent[r] += ccl_range_bytes(s->count, n, a->send_c0, a->send_c1);
			ck_assert_int_eq(a->send_first, a->recv_from < 0 || a->send_to > r);
		}
		if (a->recv_from >= 0) {
			ck_assert(a->recv_from < n && x[a->recv_from].send_to == r);
			int overlap = a->send_to >= 0 && a->reduce && a->recv_c0 < a->send_c1 &&
				      a->send_c0 < a->recv_c1;
			ck_assert_msg(!overlap, "phase %d: rank %d adds into the range it sends", ph, r);
		}
	}
	ck_assert_msg(busy, "%s %s n=%d: phase %d moves nothing", ccl_kind_name(s->kind),
		      ccl_algo_name(s->algo), n, ph);
	for (int r = 0; r < n; r++) {
		const struct ccl_xfer *a = &x[r];
		if (a->recv_from < 0)
			continue;
		for (int c = a->recv_c0; c < a->recv_c1; c++) {
			uint32_t got = before[a->recv_from][c];
			ck_assert_msg(got, "phase %d: rank %d sends chunk %d, which it does not hold",
				      ph, a->recv_from, c);
			if (a->reduce) {
				ck_assert_msg(!(s->held[r][c] & got), "phase %d: rank %d adds a part "
					      "twice into chunk %d", ph, r, c);
				s->held[r][c] |= got;
			} else {
				s->held[r][c] = got;
			}
		}
	}
}

/* What kind leaves in rank r's chunk c of its output. */
static uint32_t want_held(int kind, int n, int c)
{
	uint32_t all = n == 32 ? ~0u : (1u << n) - 1;
	if (kind == CCL_ALLGATHER)
		return 1u << c;
	if (kind == CCL_BROADCAST)
		return 1u;
	return all;
}

static void sym_check(int kind, int algo, int n, size_t count)
{
	struct sym s = { kind, algo, n, count, { { 0 } }, { 0 } };
	int phases = ccl_phase_count(kind, algo, n);
	ck_assert_int_eq(phases, want_phases(kind, algo, n));
	sym_start(&s);
	for (int ph = 0; ph < phases; ph++)
		sym_phase(&s, ph);
	for (int r = 0; r < n; r++) {
		int c0, c1;
		ccl_output_chunks(kind, n, r, &c0, &c1);
		for (int c = c0; c < c1; c++)
			ck_assert_msg(s.held[r][c] == want_held(kind, n, c),
				      "%s %s n=%d: rank %d's chunk %d holds %#x, want %#x",
				      ccl_kind_name(kind), ccl_algo_name(algo), n, r, c, s.held[r][c],
				      want_held(kind, n, c));
		ck_assert_msg(s.sent[r] == ccl_sent_bytes(kind, algo, n, count, r),
			      "%s %s n=%d count %zu: rank %d sends %llu, closed form %llu",
			      ccl_kind_name(kind), ccl_algo_name(algo), n, count, r,
			      (unsigned long long)s.sent[r],
			      (unsigned long long)ccl_sent_bytes(kind, algo, n, count, r));
	}
}

START_TEST(every_algorithm_delivers_its_kind)
{
	static const size_t counts[] = { 1, 3, 7, 16, 48, 101, 240 };
	for (int kind = 0; kind < CCL_KIND_COUNT; kind++)
		for (int algo = 0; algo < CCL_ALGO_COUNT; algo++)
			for (int n = 1; n <= MAXN; n++) {
				if (!ccl_applies(kind, algo, n))
					continue;
				for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
					sym_check(kind, algo, n, counts[i]);
			}
}
END_TEST

/* Even chunks: the bytes the textbook says, exactly (count = 6n: S = 48n). */
START_TEST(even_chunks_send_the_textbook_bytes)
{
	for (int n = 1; n <= MAXN; n++) {
		size_t count = 6 * (size_t)n;
		uint64_t S = 8 * count, w = S / (uint64_t)n, ring = (uint64_t)(n - 1) * w;
		int L = levels(n);
		for (int r = 0; r < n; r++) {
			ck_assert_uint_eq(ccl_sent_bytes(CCL_ALLREDUCE, CCL_RING, n, count, r), 2 * ring);
			ck_assert_uint_eq(ccl_sent_bytes(CCL_ALLGATHER, CCL_RING, n, count, r), ring);
			ck_assert_uint_eq(ccl_sent_bytes(CCL_REDUCESCATTER, CCL_RING, n, count, r), ring);
			ck_assert_uint_eq(ccl_sent_bytes(CCL_BROADCAST, CCL_RING, n, count, r),
					  r < n - 1 ? S : 0);
			ck_assert_uint_eq(ccl_sent_bytes(CCL_REDUCE, CCL_RING, n, count, r),
					  r > 0 ? S : 0);
			ck_assert_uint_eq(ccl_sent_bytes(CCL_REDUCE, CCL_TREE, n, count, r),
					  r > 0 ? S : 0);
			if ((n & (n - 1)) == 0) {
				/* rhd moves the ring's bytes in log2 n steps */
				ck_assert_uint_eq(ccl_sent_bytes(CCL_ALLREDUCE, CCL_RHD, n, count, r),
						  2 * ring);
				ck_assert_uint_eq(ccl_sent_bytes(CCL_ALLGATHER, CCL_RHD, n, count, r),
						  ring);
				ck_assert_uint_eq(ccl_sent_bytes(CCL_REDUCESCATTER, CCL_RHD, n, count, r),
						  ring);
			}
		}
		/* the tree's broadcast sends S down each of its n - 1 edges */
		uint64_t down = 0;
		for (int r = 0; r < n; r++)
			down += ccl_sent_bytes(CCL_BROADCAST, CCL_TREE, n, count, r);
		ck_assert_uint_eq(down, (uint64_t)(n - 1) * S);
		ck_assert_int_eq(ccl_levels(n), L);
	}
}
END_TEST

/* A ring all-reduce is a reduce-scatter then an all-gather: the same
 * phases, the same bytes. */
START_TEST(ring_allreduce_is_reduce_scatter_then_all_gather)
{
	for (int n = 1; n <= MAXN; n++) {
		int rs = ccl_phase_count(CCL_REDUCESCATTER, CCL_RING, n);
		ck_assert_int_eq(ccl_phase_count(CCL_ALLREDUCE, CCL_RING, n),
				 rs + ccl_phase_count(CCL_ALLGATHER, CCL_RING, n));
		for (int r = 0; r < n; r++) {
			for (int ph = 0; ph < 2 * rs; ph++) {
				struct ccl_xfer a, b;
				ccl_rank_phase(CCL_ALLREDUCE, CCL_RING, n, ph, r, &a);
				ccl_rank_phase(ph < rs ? CCL_REDUCESCATTER : CCL_ALLGATHER, CCL_RING, n,
					       ph < rs ? ph : ph - rs, r, &b);
				ck_assert(memcmp(&a, &b, sizeof a) == 0);
			}
			ck_assert_uint_eq(ccl_sent_bytes(CCL_ALLREDUCE, CCL_RING, n, 101, r),
					  ccl_sent_bytes(CCL_REDUCESCATTER, CCL_RING, n, 101, r) +
						  ccl_sent_bytes(CCL_ALLGATHER, CCL_RING, n, 101, r));
		}
	}
}
END_TEST

/* The schedule names a collective's phases by their primitive. */
START_TEST(the_plan_schedules_a_collective)
{
	struct dm_plan *p;
	struct dm_err err;
	ck_assert_int_eq(plan_make_collective(&p, CCL_ALLREDUCE, CCL_RING, 4, 12, &err), 0);
	ck_assert_int_eq(sched_phase_count(p), 6);
	ck_assert_int_eq(sched_phase_kind(p, 0), SCHED_CCL_RING_RS);
	ck_assert_int_eq(sched_phase_kind(p, 3), SCHED_CCL_RING_AG);
	ck_assert_int_eq(sched_phase_step(p, 4), 1);
	ck_assert_str_eq(sched_kind_name(sched_phase_kind(p, 5)), "all-gather");
	ck_assert_int_eq(sched_first_phase(p, SCHED_CCL_RING_AG), 3);
	ck_assert_int_eq(sched_first_phase(p, SCHED_COMPUTE), -1);
	ck_assert_str_eq(plan_mode_name(plan_mode(p)), "collective");
	plan_free(p);
	ck_assert_int_eq(plan_make_collective(&p, CCL_BROADCAST, CCL_TREE, 5, 1, &err), 0);
	ck_assert_int_eq(sched_phase_count(p), 3);
	ck_assert_str_eq(sched_kind_name(sched_phase_kind(p, 0)), "tree broadcast");
	plan_free(p);
	/* what no run of it can be */
	ck_assert_int_eq(plan_make_collective(&p, CCL_ALLREDUCE, CCL_RHD, 6, 8, &err), DM_EINVAL);
	ck_assert_ptr_null(p);
	ck_assert_str_eq(err.msg, "rhd (recursive halving-doubling) needs a power of two ranks, "
				  "not 6 (use ring or tree)");
	ck_assert_int_eq(plan_make_collective(&p, CCL_BROADCAST, CCL_RHD, 8, 8, &err), DM_EINVAL);
	ck_assert_str_eq(err.msg, "rhd (recursive halving-doubling) runs allreduce, allgather and "
				  "reducescatter, not broadcast (use ring or tree)");
	ck_assert_int_eq(plan_make_collective(&p, CCL_REDUCE, CCL_RING, 3, 0, &err), DM_EINVAL);
	ck_assert_int_eq(plan_make_collective(&p, CCL_REDUCE, CCL_RING, 3, 1, &err), 0);
	ck_assert_int_eq(plan_set_pass(p, DM_TRAIN, &err), 0);
	ck_assert_int_eq(plan_check(p, &err), DM_EINVAL);
	ck_assert_str_eq(err.msg, "a collective has no training step");
	plan_free(p);
}
END_TEST

START_TEST(names_parse_back)
{
	for (int k = 0; k < CCL_KIND_COUNT; k++)
		ck_assert_int_eq(ccl_parse_kind(ccl_kind_name(k)), k);
	for (int a = 0; a < CCL_ALGO_COUNT; a++)
		ck_assert_int_eq(ccl_parse_algo(ccl_algo_name(a)), a);
	ck_assert_int_eq(ccl_parse_kind("all-reduce"), -1);
	ck_assert_int_eq(ccl_parse_kind("allreduc"), -1);
	ck_assert_int_eq(ccl_parse_algo(""), -1);
	ck_assert_int_eq(ccl_parse_algo(NULL), -1);
	ck_assert_str_eq(ccl_kind_title(CCL_REDUCESCATTER), "reduce-scatter");
	ck_assert_str_eq(ccl_kind_name(CCL_KIND_COUNT), "?");
	ck_assert_str_eq(ccl_prim_name(CCL_P_NONE), "?");
	int levels_of[] = { 0, 0, 1, 2, 2, 3, 3, 3, 3, 4 };
	for (int n = 1; n < 10; n++)
		ck_assert_int_eq(ccl_levels(n), levels_of[n]);
}
END_TEST

static Suite *ccl_suite(void)
{
	Suite *s = suite_create("ccl");
	TCase *tc = tcase_create("the schedule, run symbolically");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, every_algorithm_delivers_its_kind);
	tcase_add_test(tc, ring_allreduce_is_reduce_scatter_then_all_gather);
	suite_add_tcase(s, tc);
	tc = tcase_create("closed forms and names");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, even_chunks_send_the_textbook_bytes);
	tcase_add_test(tc, the_plan_schedules_a_collective);
	tcase_add_test(tc, names_parse_back);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(ccl_suite());
}
