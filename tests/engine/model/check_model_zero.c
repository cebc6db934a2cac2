/* check_model_zero: the memory argument at real scale (model_zero in
 * engine/model/model_zero.c) held to the ZeRO paper's own example
 * (Psi = 7.5e9 on 64 devices: 120, 31.4, 16.6 and 1.9 GB), to the issue's
 * 400e9-parameter model (no mode fits 80 GB on 8 devices; ZeRO-3 does on
 * 128, 6400/128 = 50 GB), to the closed forms on every n from 1 to 300
 * for even and uneven splits, and its bytes sent to the ring's all-reduce
 * (cost.h's factor) and ZeRO-3's 1.5 times that. */
#include <check.h>
#include <math.h>

#include <distmm/cost.h>
#include <distmm/model.h>
#include "testutil.h"

static double gb(enum model_zero_stage s, uint64_t psi, int n)
{
	struct model_zero z;
	model_zero(s, psi, n, 80e9, &z);
	return (double)z.bytes / 1e9;
}

START_TEST(the_papers_example)
{
	uint64_t psi = 7500000000u;
	ck_assert(fabs(gb(MODEL_ZERO_DP, psi, 64) - 120.0) < 0.05);
	ck_assert(fabs(gb(MODEL_ZERO_1, psi, 64) - 31.4) < 0.05);
	ck_assert(fabs(gb(MODEL_ZERO_2, psi, 64) - 16.6) < 0.05);
	ck_assert(fabs(gb(MODEL_ZERO_3, psi, 64) - 1.9) < 0.05);
	/* exactly, since 64 divides 7.5e9 */
	struct model_zero z;
	model_zero(MODEL_ZERO_1, psi, 64, 80e9, &z);
	ck_assert_uint_eq(z.bytes, 4 * psi + 12 * psi / 64);
	ck_assert_uint_eq(z.params, 2 * psi);
	ck_assert_uint_eq(z.grads, 2 * psi);
	ck_assert_uint_eq(z.optim, 12 * psi / 64);
}
END_TEST

START_TEST(a_400b_model_on_80_gb)
{
	uint64_t psi = 400000000000u;
	for (int s = 0; s < MODEL_ZERO_COUNT; s++) {
		struct model_zero z;
		model_zero(s, psi, 8, 80e9, &z);
		ck_assert_msg(!z.fits, "stage %d fits 400B on 8 devices", s);
		model_zero(s, psi, 128, 80e9, &z);
		ck_assert_int_eq(z.fits, s == MODEL_ZERO_3);
		if (s == MODEL_ZERO_3)
			ck_assert_uint_eq(z.bytes, 50000000000u);
	}
	struct model_zero z;
	model_zero(MODEL_ZERO_DP, psi, 128, 80e9, &z);
	ck_assert_uint_eq(z.bytes, 6400000000000u);
	/* the memory is the line: exactly 50 GB fits 50 GB, not 49.9 */
	model_zero(MODEL_ZERO_3, psi, 128, 50e9, &z);
	ck_assert(z.fits);
	model_zero(MODEL_ZERO_3, psi, 128, 49.9e9, &z);
	ck_assert(!z.fits);
}
END_TEST

START_TEST(the_closed_forms_on_every_n)
{
	static const uint64_t psis[] = { 1, 7, 1000, 123456789, 70000000000u, 1000000000000000u };
	for (size_t i = 0; i < sizeof psis / sizeof psis[0]; i++)
		for (int n = 1; n <= 300; n++) {
			uint64_t psi = psis[i], shard = (psi + (uint64_t)n - 1) / (uint64_t)n;
			uint64_t want[MODEL_ZERO_COUNT] = { 16 * psi, 4 * psi + 12 * shard,
							    2 * psi + 14 * shard, 16 * shard };
			double ring = 2.0 * (n - 1) / n * 2.0 * (double)psi;
			for (int s = 0; s < MODEL_ZERO_COUNT; s++) {
				struct model_zero z;
				model_zero(s, psi, n, 80e9, &z);
				ck_assert_uint_eq(z.bytes, want[s]);
				ck_assert_uint_eq(z.bytes, z.params + z.grads + z.optim);
				ck_assert(fabs(z.sent - (s == MODEL_ZERO_3 ? 1.5 : 1.0) * ring) <=
					  1e-9 * ring);
				ck_assert_int_eq(z.fits, (double)z.bytes <= 80e9);
				if (n == 1) /* one device: nothing sharded, nothing sent */
					ck_assert(z.bytes == 16 * psi && z.sent == 0);
			}
			/* the stages only ever save */
			for (int s = 1; s < MODEL_ZERO_COUNT; s++) {
				struct model_zero a, b;
				model_zero(s - 1, psi, n, 80e9, &a);
				model_zero(s, psi, n, 80e9, &b);
				ck_assert_uint_le(b.bytes, a.bytes);
			}
		}
}
END_TEST

static Suite *model_zero_suite(void)
{
	Suite *s = suite_create("model_zero");
	TCase *tc = tcase_create("ZeRO's accounting");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, the_papers_example);
	tcase_add_test(tc, a_400b_model_on_80_gb);
	tcase_add_test(tc, the_closed_forms_on_every_n);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(model_zero_suite());
}
