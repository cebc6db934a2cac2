/* bench_clock: the sweep's figure for `make bench`, one JSON object on
 * stdout as bench_engine prints its own (tests/bench/run.sh collects it).
 * Nothing is asserted: it measures and prints.
 *
 *   bench_clock sweep N REPS   the model of an all-reduce on N ranks at the
 *                              sweep's 28 sizes by every algorithm that
 *                              applies (cost_sweep), REPS times: the median
 *                              and the fastest time of one whole sweep
 *
 * The whole command (./distmm-tui -b --sweep allreduce -d 8 --json, exec
 * to exit) is timed by bench_engine exec beside it: issue 26's target,
 * under 50 ms for 28 sizes x 3 algorithms, is the user's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <distmm/ccl.h>
#include <distmm/cost.h>
#include <distmm/hw.h>

static double bc_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int bc_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int bc_sweep(int n, int reps)
{
	struct dm_hw hw;
	struct cost_point pts[CCL_ALGO_COUNT][COST_SWEEP_SIZES];
	double *t = malloc((size_t)reps * sizeof *t), sink = 0;
	int algos = 0;
	if (!t) {
		fprintf(stderr, "bench_clock: out of memory\n");
		return 1;
	}
	hw_default(&hw);
	for (int i = 0; i < reps; i++) {
		double t0 = bc_now();
		algos = 0;
		for (int a = 0; a < CCL_ALGO_COUNT; a++)
			if (ccl_applies(CCL_ALLREDUCE, a, n)) {
				cost_sweep(&hw, CCL_ALLREDUCE, a, n, pts[algos]);
				algos++;
			}
		t[i] = bc_now() - t0;
		for (int a = 0; a < algos; a++) /* read what was computed: nothing is left out */
			sink += pts[a][COST_SWEEP_SIZES - 1].time_s;
	}
	qsort(t, (size_t)reps, sizeof *t, bc_cmp);
	printf("{\"bench\":\"sweep_model\",\"collective\":\"allreduce\",\"n\":%d,\"sizes\":%d,"
	       "\"algos\":%d,\"reps\":%d,\"median_s\":%.9f,\"min_s\":%.9f,\"check\":%.6g}\n",
	       n, COST_SWEEP_SIZES, algos, reps, t[reps / 2], t[0], sink / reps);
	free(t);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "sweep") == 0) {
		int n = atoi(argv[2]), reps = atoi(argv[3]);
		if (n >= 1 && n <= 1024 && reps >= 1 && reps <= 1000000)
			return bc_sweep(n, reps);
	}
	fprintf(stderr, "usage: bench_clock sweep N REPS\n");
	return 2;
}
