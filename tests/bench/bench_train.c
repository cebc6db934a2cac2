/* bench_train: the training step's figures for `make bench`, one JSON object
 * a line on stdout, as bench_engine prints its own (tests/bench/run.sh
 * collects both).  Nothing is asserted: it measures and prints.
 *
 *   bench_train compute SIZE REPS D[,D...] [steady|cold]
 *                                  the training step against its three
 *                                  sequential dgemms on the same cores
 *   bench_train memory fsdp|dp SIZE D       peak RSS against the model
 *
 * The baseline is what the step computes, done by OpenBLAS alone on
 * min(d, cores) threads: C = A @ B, dA = dC @ Bᵀ and dB = Aᵀ @ dC, one
 * cblas_dgemm each.  The step's time is run_finish(): every phase of the
 * forward and the backward, the messages and the gather of C, dA and dB
 * into rank 0 (run_new's copies, the scatter, are not in it, as in
 * bench_engine's compute).
 *
 * Two regimes, because a freed page costs its next user more than a kept
 * one: on a virtual machine that reports free pages to its host (this one
 * does, at once), memory glibc gives back to the kernel faults in the host
 * when touched again, 10 to 25 ms for 4 MiB.  steady (the target): the
 * process keeps what it frees (mallopt: no trimming, no mmap below 32 MiB),
 * as a training loop's caching allocator keeps one step's buffers for the
 * next, and the dgemms write into buffers touched before: each side runs on
 * memory it has had, the best the machine does.  cold: glibc's defaults,
 * and the dgemms' results in new pages every time (mapped and unmapped
 * around each round, as a process's first product gets them): every side
 * pays for its fresh memory, as a single run of either does. */
#define _GNU_SOURCE /* cblas.h's cpu_set_t */
#include <cblas.h>
#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <distmm/mat.h>
#include <distmm/model.h>
#include <distmm/run.h>
#include <distmm/schedule.h>

static double bt_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int bt_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double bt_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, bt_cmp);
	return v[n / 2];
}

static void bt_die(const char *what, const struct dm_err *err)
{
	fprintf(stderr, "bench_train: %s: %s\n", what, err ? err->msg : strerror(errno));
	exit(1);
}

static void bt_make(struct mat *m, size_t rows, size_t cols, uint64_t stream)
{
	struct dm_err err;
	if (mat_alloc(m, rows, cols, &err))
		bt_die("allocating a matrix", &err);
	mat_fill(m, MAT_VALUES_FLOATS, 1, stream);
}

/* The settle pause after a multithreaded dgemm: OpenBLAS's idle workers spin
 * a while before they sleep (a measurement's hygiene, not synchronisation). */
static void bt_settle(void)
{
	struct timespec ts = { 0, 300 * 1000000L };
	nanosleep(&ts, NULL);
}

/* A rows x cols matrix in pages the kernel maps for it now (huge ones where
 * it can, as the engine asks for), for bt_unmap once done. */
static struct mat bt_map(size_t rows, size_t cols)
{
	size_t bytes = rows * cols * sizeof(double);
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		bt_die("mapping a result", NULL);
	madvise(p, bytes, MADV_HUGEPAGE);
	return (struct mat){ rows, cols, p };
}

static void bt_unmap(struct mat *m)
{
	munmap(m->data, m->rows * m->cols * sizeof(double));
}

/* The three products on `threads` threads, into c, da and db, or (fresh)
 * each into new pages, unmapped after: what the step's gather into rank
 * 0's new C, dA and dB gets in a process's first run. */
static double bt_three(const struct mat *a, const struct mat *b, const struct mat *dc,
		       struct mat *c, struct mat *da, struct mat *db, int threads, int fresh)
{
	int M = (int)a->rows, K = (int)a->cols, N = (int)b->cols;
	struct mat out[3];
	openblas_set_num_threads(threads);
	double t0 = bt_now();
	if (fresh) {
		out[0] = bt_map((size_t)M, (size_t)N);
		out[1] = bt_map((size_t)M, (size_t)K);
		out[2] = bt_map((size_t)K, (size_t)N);
		c = &out[0];
		da = &out[1];
		db = &out[2];
	}
	cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0, a->data, K, b->data, N,
		    0.0, c->data, N);
	cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, M, K, N, 1.0, dc->data, N, b->data, N,
		    0.0, da->data, K);
	cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, K, N, M, 1.0, a->data, K, dc->data, N,
		    0.0, db->data, N);
	double t = bt_now() - t0; /* what the step's results cost to let go is not in its time either */
	if (fresh)
		for (int i = 0; i < 3; i++)
			bt_unmap(&out[i]);
	return t;
}

static struct run *bt_run_new(int mode, int d, const struct mat *a, const struct mat *b,
			      const struct mat *dc)
{
	struct run_config cfg;
	struct dm_plan *p;
	struct run *r;
	struct dm_err err;
	if (plan_make(&p, mode, d, DM_TRAIN, &err))
		bt_die("plan_make", &err);
	run_config_default(&cfg);
	cfg.dc = dc;
	openblas_set_num_threads(1); /* what gemm_init sets, once: the baseline changed it */
	if (run_new(&r, p, &cfg, a, b, &err))
		bt_die("run_new", &err);
	plan_free(p);
	return r;
}

/* One training step of `mode` on d devices: run_finish()'s time, and on
 * `check` whether C, dA and dB agree with the three dgemms' results. */
static double bt_step(int mode, int d, const struct mat *a, const struct mat *b,
		      const struct mat *dc, const struct mat *ref[3], int *ok)
{
	struct dm_err err;
	struct run *r = bt_run_new(mode, d, a, b, dc);
	double t0 = bt_now();
	if (run_finish(r, &err))
		bt_die("run_finish", &err);
	double t = bt_now() - t0;
	if (ok) {
		double e;
		size_t bad;
		*ok = mat_allclose(run_result(r), ref[0], &e, &bad, NULL) &&
		      mat_allclose(run_result_da(r), ref[1], &e, &bad, NULL) &&
		      mat_allclose(run_result_db(r), ref[2], &e, &bad, NULL);
	}
	run_free(r);
	return t;
}

/* The rounds alternate the three jobs (the dgemms, FSDP's step, DP's
 * step), in an order that turns each round, so a machine whose speed
 * drifts (other load, the clock) moves them alike.  A ratio is the median
 * of each round's step over that round's dgemms: paired, not a median over
 * a median. */
enum { BT_FSDP = DM_FSDP, BT_DP = DM_DP, BT_BLAS, BT_JOBS };

static void bt_print(int mode, const char *regime, size_t S, int d, int th, int reps,
		     double *t[BT_JOBS], double *ratio, int ok)
{
	double m = bt_median(t[mode], reps), mmin = t[mode][0]; /* sorted by bt_median */
	double bm = bt_median(t[BT_BLAS], reps), bmin = t[BT_BLAS][0];
	printf("{\"bench\":\"train_compute\",\"regime\":\"%s\",\"mode\":\"%s\",\"size\":%zu,"
	       "\"d\":%d,\"cores\":%d,\"reps\":%d,\"step_s\":%.6f,\"step_min_s\":%.6f,"
	       "\"three_dgemms_s\":%.6f,\"three_dgemms_min_s\":%.6f,\"ratio\":%.4f,"
	       "\"ratio_min\":%.4f,\"gflops\":%.2f,\"verified\":%s}\n",
	       regime, plan_mode_name(mode), S, d, th, reps, m, mmin, bm, bmin,
	       bt_median(ratio, reps), mmin / bmin,
	       6.0 * (double)S * (double)S * (double)S / m * 1e-9, ok ? "true" : "false");
}

static int bt_compute(int argc, char **argv)
{
	if (argc < 3 || (argc > 3 && strcmp(argv[3], "steady") != 0 &&
			 strcmp(argv[3], "cold") != 0)) {
		fprintf(stderr, "usage: bench_train compute SIZE REPS D[,D...] [steady|cold]\n");
		return 2;
	}
	size_t S = strtoul(argv[0], NULL, 10);
	int reps = atoi(argv[1]), cold = argc > 3 && strcmp(argv[3], "cold") == 0;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (S == 0 || reps < 1)
		return 2;
	/* steady: nothing freed goes back to the kernel (glibc's mmap threshold
	 * at its most, 32 MiB: a larger matrix would still be mapped afresh) */
	if (!cold && (!mallopt(M_MMAP_THRESHOLD, 32 << 20) || !mallopt(M_TRIM_THRESHOLD, INT_MAX)))
		bt_die("mallopt", NULL);
	if (!cold && S * S * sizeof(double) > (32u << 20))
		fprintf(stderr, "bench_train: %zu^2 matrices are over 32 MiB: glibc maps them "
			"afresh even in the steady regime\n", S);
	struct mat a, b, dc, c, da, db;
	struct dm_err err;
	bt_make(&a, S, S, 0);
	bt_make(&b, S, S, 1);
	bt_make(&dc, S, S, 2);
	if (mat_alloc(&c, S, S, &err) || mat_alloc(&da, S, S, &err) || mat_alloc(&db, S, S, &err))
		bt_die("allocating the results", &err);
	const struct mat *ref[3] = { &c, &da, &db };
	for (const char *s = argv[2]; *s;) {
		char *end;
		int d = (int)strtol(s, &end, 10);
		if (end == s || d < 1)
			break;
		s = *end == ',' ? end + 1 : end;
		int th = (int)(d < cpus ? d : cpus), ok[2];
		double *t[BT_JOBS], *ratio[2];
		for (int j = 0; j < BT_JOBS; j++)
			t[j] = calloc((size_t)reps, sizeof *t[j]);
		for (int j = 0; j < 2; j++)
			ratio[j] = calloc((size_t)reps, sizeof(double));
		bt_three(&a, &b, &dc, &c, &da, &db, th, 0); /* warm: pages, the pool; the reference */
		bt_settle();
		for (int mode = DM_FSDP; mode <= DM_DP; mode++) /* warm, and checked */
			bt_step(mode, d, &a, &b, &dc, ref, &ok[mode]);
		for (int k = 0; k < reps; k++) {
			for (int i = 0; i < BT_JOBS; i++) {
				int job = (k + i) % BT_JOBS;
				if (job == BT_BLAS) {
					t[job][k] = bt_three(&a, &b, &dc, &c, &da, &db, th, cold);
					bt_settle();
				} else {
					t[job][k] = bt_step(job, d, &a, &b, &dc, ref, NULL);
				}
			}
			for (int mode = DM_FSDP; mode <= DM_DP; mode++)
				ratio[mode][k] = t[mode][k] / t[BT_BLAS][k];
		}
		for (int mode = DM_FSDP; mode <= DM_DP; mode++)
			bt_print(mode, cold ? "cold" : "steady", S, d, th, reps, t, ratio[mode],
				 ok[mode]);
		fflush(stdout);
		for (int j = 0; j < BT_JOBS; j++)
			free(t[j]);
		for (int j = 0; j < 2; j++)
			free(ratio[j]);
	}
	mat_free(&a);
	mat_free(&b);
	mat_free(&dc);
	mat_free(&c);
	mat_free(&da);
	mat_free(&db);
	return 0;
}

/* A field of /proc/self/status in bytes ("VmRSS:"), 0 if none. */
static uint64_t bt_status(const char *field)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	uint64_t kb = 0;
	size_t len = strlen(field);
	if (!f)
		return 0;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, field, len) == 0) {
			kb = strtoull(line + len, NULL, 10);
			break;
		}
	fclose(f);
	return kb * 1024;
}

/* Resets the peak RSS (VmHWM) to the RSS now; 0 when it cannot. */
static int bt_reset_hwm(void)
{
	FILE *f = fopen("/proc/self/clear_refs", "w");
	if (!f)
		return 0;
	int ok = fputs("5", f) >= 0;
	return fclose(f) == 0 && ok;
}

/* The run's own peak RSS (the inputs the devices copied freed once they
 * have their copies, the ones they view kept) against the model's bytes held by every rank together. */
static int bt_memory(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bench_train memory fsdp|dp SIZE D\n");
		return 2;
	}
	int mode = strcmp(argv[0], "dp") == 0 ? DM_DP : DM_FSDP, d = atoi(argv[2]);
	size_t S = strtoul(argv[1], NULL, 10);
	struct mat a, b, dc;
	struct dm_err err;
	struct run_snapshot snap;
	uint64_t base = bt_status("VmRSS:");
	bt_make(&a, S, S, 0);
	bt_make(&b, S, S, 1);
	bt_make(&dc, S, S, 2);
	struct run *r = bt_run_new(mode, d, &a, &b, &dc);
	/* what the devices copied goes (dC's rows, FSDP's shards of B); what
	 * they view stays, as their own in the model: A's rows, DP rank 0's B */
	mat_free(&dc);
	if (mode == DM_FSDP && d > 1)
		mat_free(&b);
	uint64_t after_setup = bt_status("VmRSS:");
	int hwm = bt_reset_hwm();
	/* the held bytes alone are read: a forward's snapshot, without dB's fill */
	struct dm_plan *fwd;
	if (plan_make(&fwd, mode, d, DM_FORWARD, &err) ||
	    run_snapshot_init(&snap, fwd, S, S, S, 0, &err))
		bt_die("run_snapshot_init", &err);
	plan_free(fwd);
	uint64_t phase_max = 0;
	int rc;
	while ((rc = run_step(r, &err)) == 0 || rc == 1) {
		run_snapshot_take(r, &snap);
		uint64_t held = 0;
		for (int i = 0; i < d; i++)
			held += snap.dev[i].held_bytes;
		phase_max = held > phase_max ? held : phase_max;
		if (rc == 1)
			break;
	}
	if (rc < 0)
		bt_die("run_step", &err);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	uint64_t peak = hwm ? (uint64_t)ru.ru_maxrss * 1024 : 0;
	struct dm_plan *plan;
	if (plan_make(&plan, mode, d, DM_TRAIN, &err))
		bt_die("plan_make", &err);
	uint64_t model = model_train_together(plan, S, S, S);
	plan_free(plan);
	printf("{\"bench\":\"train_memory\",\"mode\":\"%s\",\"size\":%zu,\"d\":%d,"
	       "\"run_peak_rss\":%" PRIu64 ",\"base_rss\":%" PRIu64 ",\"after_setup_rss\":%" PRIu64
	       ",\"model_together\":%" PRIu64 ",\"accounted_phase_max\":%" PRIu64
	       ",\"ratio\":%.4f}\n",
	       plan_mode_name(mode), S, d, peak, base, after_setup, model, phase_max,
	       peak ? (double)(peak - base) / (double)model : 0.0);
	run_snapshot_free(&snap);
	run_free(r);
	mat_free(&a);
	mat_free(&b);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: bench_train compute|memory ...\n");
		return 2;
	}
	if (strcmp(argv[1], "compute") == 0)
		return bt_compute(argc - 2, argv + 2);
	if (strcmp(argv[1], "memory") == 0)
		return bt_memory(argc - 2, argv + 2);
	fprintf(stderr, "bench_train: unknown benchmark %s\n", argv[1]);
	return 2;
}
