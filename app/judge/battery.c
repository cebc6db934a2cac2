/* battery: the judge's cases and their matrices (see battery.h).
 *
 * The battery is the exercise's driver case, n = 1, 3, 4 and a larger n on
 * shapes n divides, float inputs (where an integer accumulator shows), and,
 * beyond the exercise's contract, uneven splits and a rank with an empty
 * shard: n = 2 alone hides (r + s) against (r - s). */
#include "judge/battery.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/judge.h"
#include <distmm/run.h>
#include <distmm/schedule.h>
#include <distmm/split.h>

struct battery_shape {
	int n;
	size_t M, K, N;
	int values;
	const char *what, *what_dp; /* why the battery has it, for FSDP and for DP */
};

static const struct battery_shape battery_shapes[] = {
	{ 2, 8, 6, 4, MAT_VALUES_INTS, "the exercise's driver", "the exercise's driver" },
	{ 1, 8, 6, 4, MAT_VALUES_INTS, "one device: plain A @ B", "one device: plain A @ B" },
	{ 3, 9, 5, 6, MAT_VALUES_INTS, "n = 3: (r + s) and (r - s) differ",
	  "n = 3: a gather of two blocks" },
	{ 4, 8, 6, 4, MAT_VALUES_INTS, "n = 4, one column a shard", "n = 4: two rows a rank" },
	{ 8, 16, 5, 8, MAT_VALUES_INTS, "a larger n", "a larger n" },
	{ 2, 8, 6, 4, MAT_VALUES_FLOATS, "the driver with floats", "the driver with floats" },
	{ 4, 12, 7, 8, MAT_VALUES_FLOATS, "floats, n = 4", "floats, n = 4" },
	{ 3, 10, 5, 7, MAT_VALUES_INTS, "uneven rows and columns", "uneven rows" },
	{ 4, 7, 3, 5, MAT_VALUES_FLOATS, "uneven, floats", "uneven, floats" },
	{ 5, 6, 4, 3, MAT_VALUES_INTS, "more ranks than columns: empty shards",
	  "more ranks than columns" },
};

/* Tensor parallel's own: tp-col splits N, tp-row K, so within the contract
 * n divides both (and M, which DP and FSDP split, is free). */
static const struct battery_shape battery_shapes_tp[] = {
	{ 2, 8, 6, 4, MAT_VALUES_INTS, "the exercise's driver", NULL },
	{ 1, 8, 6, 4, MAT_VALUES_INTS, "one device: plain A @ B", NULL },
	{ 3, 6, 9, 6, MAT_VALUES_INTS, "n = 3: three blocks, three partials", NULL },
	{ 4, 8, 8, 4, MAT_VALUES_INTS, "n = 4, one column a shard", NULL },
	{ 8, 8, 16, 8, MAT_VALUES_INTS, "a larger n", NULL },
	{ 2, 8, 6, 4, MAT_VALUES_FLOATS, "the driver with floats", NULL },
	{ 4, 6, 8, 8, MAT_VALUES_FLOATS, "floats, n = 4", NULL },
	{ 3, 7, 5, 7, MAT_VALUES_INTS, "uneven splits of K and N", NULL },
	{ 4, 5, 7, 6, MAT_VALUES_FLOATS, "uneven, floats", NULL },
	{ 5, 4, 3, 3, MAT_VALUES_INTS, "more ranks than K and N: empty shards", NULL },
};

#define BATTERY_SHAPES (sizeof battery_shapes / sizeof battery_shapes[0])
_Static_assert(sizeof battery_shapes_tp / sizeof battery_shapes_tp[0] == BATTERY_SHAPES,
	       "every mode has as many cases");
#define BATTERY_SEED_TRIES 64
/* the identifiability check's work bound (columns squared times rows) */
#define BATTERY_CHECK_MAX 50000000.0

static void battery_case(struct judge_case *c, int id, int mode, int n, size_t M, size_t K,
			 size_t N, int values, uint64_t seed, size_t capacity, const char *what)
{
	memset(c, 0, sizeof *c);
	c->id = id;
	c->mode = mode;
	c->n = n;
	c->M = M;
	c->K = K;
	c->N = N;
	c->values = values;
	c->seed = seed;
	c->capacity = capacity;
	c->what = what;
	/* the dimensions the mode splits: tp-col N, tp-row K, DP and FSDP M and N */
	if (mode == DM_TP_COL)
		c->beyond = N % (size_t)n != 0;
	else if (mode == DM_TP_ROW)
		c->beyond = K % (size_t)n != 0;
	else
		c->beyond = M % (size_t)n != 0 || N % (size_t)n != 0;
	c->counts = 1;
	c->verdict = JUDGE_NOT_RUN;
	c->first_wrong = -1;
}

int battery_build(const struct cli_opts *o, struct judge_case **cases, size_t *n_cases,
		  struct dm_err *err)
{
	const unsigned pick = CLI_GIVEN_DEVICES | CLI_GIVEN_M | CLI_GIVEN_K | CLI_GIVEN_N |
			      CLI_GIVEN_MODE | CLI_GIVEN_VALUES | CLI_GIVEN_SEED | CLI_GIVEN_CAPACITY;
	int one = (o->given & pick) != 0;
	/* tensor parallel's cases in batch mode alone: the judged view replays
	 * DP and FSDP (session_judge.c says so for a file of TP alone) */
	int modes[4] = { DM_DP, DM_FSDP, DM_TP_COL, DM_TP_ROW }, n_modes = o->batch ? 4 : 2;
	if (o->given & CLI_GIVEN_MODE) {
		modes[0] = o->mode;
		n_modes = 1;
	}
	size_t per = one ? 1 : BATTERY_SHAPES, k = 0;
	struct judge_case *cs = calloc(per * (size_t)n_modes, sizeof *cs);
	if (!cs)
		return dm_err_set(err, DM_ENOMEM, "out of memory");
	for (int m = 0; m < n_modes; m++) {
		for (size_t i = 0; i < per; i++, k++) {
			if (!one) {
				int tp = modes[m] == DM_TP_COL || modes[m] == DM_TP_ROW;
				const struct battery_shape *s = tp ? &battery_shapes_tp[i]
								   : &battery_shapes[i];
				battery_case(&cs[k], (int)k + 1, modes[m], s->n, s->M, s->K, s->N,
					     s->values, o->seed, o->capacity,
					     modes[m] == DM_DP ? s->what_dp : s->what);
				/* beyond the contract: reported, not counted */
				cs[k].counts = !cs[k].beyond;
				continue;
			}
			int n = (o->given & CLI_GIVEN_DEVICES) ? o->devices : 2;
			size_t M = o->M ? o->M : CLI_DEFAULT_M, K = o->K ? o->K : CLI_DEFAULT_K;
			size_t N = o->N ? o->N : CLI_DEFAULT_N;
			int values = (o->given & CLI_GIVEN_VALUES) ? o->values : MAT_VALUES_INTS;
			if (n > BATTERY_MAX_DEVICES) {
				free(cs);
				return dm_err_set(err, DM_EINVAL, "--judge runs one Python thread a "
						  "device: -d must be at most %d, not %d",
						  BATTERY_MAX_DEVICES, n);
			}
			if ((double)M * K > BATTERY_MAX_ELEMS || (double)K * N > BATTERY_MAX_ELEMS ||
			    (double)M * N > BATTERY_MAX_ELEMS) {
				free(cs);
				return dm_err_set(err, DM_EINVAL, "--judge takes matrices of up to %u "
						  "elements: A %zux%zu, B %zux%zu is too large",
						  BATTERY_MAX_ELEMS, M, K, K, N);
			}
			battery_case(&cs[k], (int)k + 1, modes[m], n, M, K, N, values, o->seed,
				     o->capacity, "");
		}
	}
	*cases = cs;
	*n_cases = k;
	return 0;
}

/* Columns j0 and j1 of the rows [r0, r1) of m differ by more than rounding. */
static int battery_cols_differ(const struct mat *m, size_t r0, size_t r1, size_t j0,
			       size_t j1)
{
	double d = 0, scale = 0;
	for (size_t i = r0; i < r1; i++) {
		double x = MAT_AT(m, i, j0), y = MAT_AT(m, i, j1);
		d = fmax(d, fabs(x - y));
		scale = fmax(scale, fmax(fabs(x), fabs(y)));
	}
	return d > 1e-6 * (1.0 + scale);
}

static int battery_col_zero(const struct mat *m, size_t r0, size_t r1, size_t j)
{
	for (size_t i = r0; i < r1; i++)
		if (fabs(MAT_AT(m, i, j)) > 1e-9)
			return 0;
	return 1;
}

int battery_identifiable(const struct mat *a, const struct mat *b, int n)
{
	size_t N = b->cols;
	if ((double)N * N * (double)(a->rows + b->rows) > BATTERY_CHECK_MAX)
		return 1; /* too large to check: assumed, the verdict may name less */
	for (size_t j0 = 0; j0 < N; j0++)
		for (size_t j1 = j0 + 1; j1 < N; j1++)
			if (!battery_cols_differ(b, 0, b->rows, j0, j1))
				return 0;
	struct mat c;
	if (mat_matmul(&c, a, b, NULL))
		return 1;
	int ok = 1;
	for (int r = 0; r < n && ok; r++) {
		size_t r0 = split_offset(a->rows, n, r), r1 = r0 + split_size(a->rows, n, r);
		if (r0 == r1)
			continue;
		for (size_t j0 = 0; j0 < N && ok; j0++) {
			if (battery_col_zero(&c, r0, r1, j0))
				ok = 0;
			for (size_t j1 = j0 + 1; j1 < N && ok; j1++)
				if (!battery_cols_differ(&c, r0, r1, j0, j1))
					ok = 0;
		}
	}
	mat_free(&c);
	return ok;
}

int battery_inputs(struct judge_case *c, struct mat *a, struct mat *b, struct dm_err *err)
{
	int rc;
	if ((rc = mat_alloc(a, c->M, c->K, err)))
		return rc;
	if ((rc = mat_alloc(b, c->K, c->N, err))) {
		mat_free(a);
		return rc;
	}
	uint64_t seed = c->seed;
	for (int t = 0; t < BATTERY_SEED_TRIES; t++) {
		mat_fill(a, (enum mat_values)c->values, seed + (uint64_t)t, 0);
		mat_fill(b, (enum mat_values)c->values, seed + (uint64_t)t, 1);
		if (battery_identifiable(a, b, c->n)) {
			c->seed = seed + (uint64_t)t;
			return 0;
		}
	}
	/* none in reach: the asked seed, with fewer blocks named */
	mat_fill(a, (enum mat_values)c->values, seed, 0);
	mat_fill(b, (enum mat_values)c->values, seed, 1);
	return 0;
}
