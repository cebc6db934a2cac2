/* bench_engine: the engine's figures for `make bench`, one JSON object a line
 * on stdout (tests/bench/run.sh turns them into the table and the JSON file).
 * Nothing here asserts a time: it measures and prints.
 *
 *   bench_engine compute SIZE REPS D[,D...]  FSDP and DP against one OpenBLAS dgemm
 *   bench_engine barrier PHASES D[,D...]     one phase released and reached by all
 *   bench_engine msgs COUNT                  messages per second through one channel
 *   bench_engine memory fsdp|dp SIZE D       peak RSS against the engine's accounting
 *   bench_engine exec [--quiet] CMD ARGS...  wall time and peak RSS of a child
 *
 * Uses the engine's public API (run.h, barrier.h, comm.h) only. */
#define _GNU_SOURCE /* sched_setaffinity, and cblas.h's cpu_set_t */
#include <cblas.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "comm/comm.h"
#include <distmm/mat.h>
#include <distmm/run.h>
#include <distmm/schedule.h>
#include "exec/barrier.h"

static double bench_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The q-quantile (0..1) of v[0..n), sorting v. */
static double bench_quantile(double *v, size_t n, double q)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof *v, bench_cmp_double);
	size_t i = (size_t)(q * (double)(n - 1) + 0.5);
	return v[i < n ? i : n - 1];
}

static void bench_die(const char *what, const struct dm_err *err)
{
	fprintf(stderr, "bench_engine: %s: %s\n", what, err ? err->msg : strerror(errno));
	exit(1);
}

/* "2,4,8" -> {2, 4, 8}; returns the count. */
static int bench_parse_list(const char *s, int *out, int max)
{
	int n = 0;
	while (*s && n < max) {
		char *end;
		long v = strtol(s, &end, 10);
		if (end == s || v < 1)
			break;
		out[n++] = (int)v;
		s = *end == ',' ? end + 1 : end;
	}
	return n;
}

static long bench_cpus(void)
{
	long c = sysconf(_SC_NPROCESSORS_ONLN);
	return c < 1 ? 1 : c;
}

/* The settle pause after a multithreaded dgemm: OpenBLAS's idle workers spin
 * for a while before they sleep, and would steal a core from what runs next.
 * A measurement's hygiene, not synchronisation. */
static void bench_settle(void)
{
	struct timespec ts = { 0, 300 * 1000000L };
	nanosleep(&ts, NULL);
}

static void bench_make(struct mat *m, size_t rows, size_t cols, int values, uint64_t stream)
{
	struct dm_err err;
	if (mat_alloc(m, rows, cols, &err))
		bench_die("allocating a matrix", &err);
	mat_fill(m, values, 1, stream);
}

/* ---- compute: the distributed multiply against one dgemm ---- */

struct bench_times {
	double multiply, setup, teardown;
	double compute; /* the busiest device's time in dgemm (its compute events) */
	double gather;  /* rank 0's gather, from its first placement to its last */
};

/* The split of a finished run's time, from its event log. */
static void bench_breakdown(const struct run *r, struct bench_times *t)
{
	size_t count;
	const struct ev *ev = run_events(r, &count);
	int n = run_devices(r);
	double *busy = calloc((size_t)n, sizeof *busy);
	uint64_t g0 = UINT64_MAX, g1 = 0;
	for (size_t i = 0; i < count; i++) {
		const struct ev *e = &ev[i];
		if (e->op == EV_COMPUTE && busy)
			busy[e->rank] += (double)(e->t_end_ns - e->t_begin_ns) * 1e-9;
		if (e->op == EV_GATHER) {
			g0 = e->t_begin_ns < g0 ? e->t_begin_ns : g0;
			g1 = e->t_end_ns > g1 ? e->t_end_ns : g1;
		}
	}
	t->compute = 0;
	for (int i = 0; busy && i < n; i++)
		t->compute = busy[i] > t->compute ? busy[i] : t->compute;
	t->gather = g1 > g0 ? (double)(g1 - g0) * 1e-9 : 0;
	free(busy);
}

/* The forward of mode on d devices, or the program stops. */
static struct dm_plan *bench_plan(int mode, int d)
{
	struct dm_plan *p;
	struct dm_err err;
	if (plan_make(&p, mode, d, DM_FORWARD, &err))
		bench_die("plan_make", &err);
	return p;
}

/* One run: run_new (copies, threads), run_finish (the multiply), run_free. */
static void bench_one_run(int mode, int d, const struct mat *a, const struct mat *b,
			  const struct mat *check, struct bench_times *t, int *ok)
{
	struct dm_plan *p = bench_plan(mode, d);
	struct run *r;
	struct dm_err err;
	openblas_set_num_threads(1); /* what gemm_init sets, once: the baseline changed it */
	double t0 = bench_now();
	if (run_new(&r, p, NULL, a, b, &err))
		bench_die("run_new", &err);
	plan_free(p);
	double t1 = bench_now();
	if (run_finish(r, &err))
		bench_die("run_finish", &err);
	double t2 = bench_now();
	bench_breakdown(r, t);
	if (check) {
		double max_err;
		size_t bad;
		*ok = mat_allclose(run_result(r), check, &max_err, &bad, NULL);
	}
	run_free(r);
	double t3 = bench_now();
	t->setup = t1 - t0;
	t->multiply = t2 - t1;
	t->teardown = t3 - t2;
}

/* One dgemm C = A @ B on `threads` OpenBLAS threads into a C touched before. */
static double bench_dgemm(const struct mat *a, const struct mat *b, struct mat *c, int threads)
{
	openblas_set_num_threads(threads);
	double t0 = bench_now();
	cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)a->rows, (int)b->cols,
		    (int)a->cols, 1.0, a->data, (int)a->cols, b->data, (int)b->cols, 0.0, c->data,
		    (int)c->cols);
	return bench_now() - t0;
}

static int bench_compute(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bench_engine compute SIZE REPS D[,D...]\n");
		return 2;
	}
	size_t S = strtoul(argv[0], NULL, 10);
	int reps = atoi(argv[1]), ds[16];
	int nd = bench_parse_list(argv[2], ds, 16);
	if (S == 0 || reps < 1 || nd == 0) {
		fprintf(stderr, "bench_engine compute: bad arguments\n");
		return 2;
	}
	long cpus = bench_cpus();
	/* a diagnostic run of run.sh sets glibc's malloc to ask for transparent
	 * huge pages: the line says so */
	const char *tun = getenv("GLIBC_TUNABLES");
	int thp = tun && strstr(tun, "glibc.malloc.hugetlb=1") != NULL;
	double flops = 2.0 * (double)S * (double)S * (double)S;
	struct mat a, b, c;
	struct dm_err err;
	bench_make(&a, S, S, MAT_VALUES_FLOATS, 0); /* as --values floats */
	bench_make(&b, S, S, MAT_VALUES_FLOATS, 1);
	if (mat_alloc(&c, S, S, &err))
		bench_die("allocating C", &err);

	/* The baselines first, each on the cores the engine will use; the
	 * result of the widest checks every run below. */
	double base[17] = { 0 };
	int threads_done[17] = { 0 };
	for (int i = 0; i < nd; i++) {
		int th = (int)(ds[i] < cpus ? ds[i] : cpus);
		if (th > 16 || threads_done[th])
			continue;
		threads_done[th] = 1;
		double *v = calloc((size_t)reps, sizeof *v);
		bench_dgemm(&a, &b, &c, th); /* warm: pages, pool */
		for (int k = 0; k < reps; k++)
			v[k] = bench_dgemm(&a, &b, &c, th);
		base[th] = bench_quantile(v, (size_t)reps, 0.5);
		free(v);
	}
	openblas_set_num_threads(1);
	bench_settle();

	for (int i = 0; i < nd; i++) {
		int d = ds[i], th = (int)(d < cpus ? d : cpus);
		for (int mode = DM_FSDP; mode <= DM_DP; mode++) {
			double *mul = calloc((size_t)reps, sizeof *mul);
			double *e2e = calloc((size_t)reps, sizeof *e2e);
			double *set = calloc((size_t)reps, sizeof *set);
			double *cmp = calloc((size_t)reps, sizeof *cmp);
			double *gat = calloc((size_t)reps, sizeof *gat);
			struct bench_times t;
			int ok = 0;
			bench_one_run(mode, d, &a, &b, &c, &t, &ok); /* warm, and checked */
			for (int k = 0; k < reps; k++) {
				bench_one_run(mode, d, &a, &b, NULL, &t, NULL);
				mul[k] = t.multiply;
				set[k] = t.setup;
				e2e[k] = t.setup + t.multiply + t.teardown;
				cmp[k] = t.compute;
				gat[k] = t.gather;
			}
			double m = bench_quantile(mul, (size_t)reps, 0.5);
			double mmin = bench_quantile(mul, (size_t)reps, 0.0);
			double e = bench_quantile(e2e, (size_t)reps, 0.5);
			double s = bench_quantile(set, (size_t)reps, 0.5);
			double cm = bench_quantile(cmp, (size_t)reps, 0.5);
			double gm = bench_quantile(gat, (size_t)reps, 0.5);
			printf("{\"bench\":\"compute\",\"mode\":\"%s\",\"size\":%zu,\"d\":%d,"
			       "\"cores\":%d,\"reps\":%d,\"multiply_s\":%.6f,\"multiply_min_s\":%.6f,"
			       "\"setup_s\":%.6f,\"end_to_end_s\":%.6f,\"blas_s\":%.6f,"
			       "\"ratio\":%.4f,\"ratio_end_to_end\":%.4f,\"gflops\":%.2f,"
			       "\"blas_gflops\":%.2f,\"busiest_compute_s\":%.6f,\"gather_s\":%.6f,"
			       "\"verified\":%s,\"malloc_hugetlb\":%s}\n",
			       plan_mode_name(mode), S, d, th, reps, m, mmin, s, e, base[th],
			       m / base[th], e / base[th], flops / m * 1e-9, flops / base[th] * 1e-9,
			       cm, gm, ok ? "true" : "false", thp ? "true" : "false");
			fflush(stdout);
			free(mul);
			free(e2e);
			free(set);
			free(cmp);
			free(gat);
		}
	}
	mat_free(&a);
	mat_free(&b);
	mat_free(&c);
	return 0;
}

/* ---- barrier: one phase released and reached by every device ---- */

/* Restricts the process to two CPUs (the figure is "on two cores"). */
static int bench_two_cores(void)
{
	cpu_set_t have, want;
	int got = 0;
	if (sched_getaffinity(0, sizeof have, &have))
		return CPU_COUNT(&have);
	CPU_ZERO(&want);
	for (int c = 0; c < CPU_SETSIZE && got < 2; c++)
		if (CPU_ISSET(c, &have)) {
			CPU_SET(c, &want);
			got++;
		}
	sched_setaffinity(0, sizeof want, &want);
	return got;
}

struct bench_bar_dev {
	struct barrier *b;
	int rank, phases;
};

static void *bench_bar_main(void *arg)
{
	struct bench_bar_dev *d = arg;
	for (int p = 0; p < d->phases; p++)
		if (barrier_enter(d->b, d->rank, p))
			break;
	barrier_leave(d->b, d->rank);
	return NULL;
}

#define BENCH_WARM_PHASES 3

/* The barrier alone: devices that do nothing but enter the next phase. */
static void bench_barrier_bare(int d, int phases, double *med, double *p90)
{
	struct barrier *b;
	struct dm_err err;
	int total = phases + BENCH_WARM_PHASES;
	if (barrier_new(&b, d, NULL, NULL, &err))
		bench_die("barrier_new", &err);
	struct bench_bar_dev *dev = calloc((size_t)d, sizeof *dev);
	pthread_t *t = calloc((size_t)d, sizeof *t);
	double *v = calloc((size_t)phases, sizeof *v);
	for (int i = 0; i < d; i++) {
		dev[i] = (struct bench_bar_dev){ b, i, total };
		if (pthread_create(&t[i], NULL, bench_bar_main, &dev[i]))
			bench_die("pthread_create", NULL);
	}
	for (int p = 0; p < total; p++) {
		double t0 = bench_now();
		if (barrier_run_phase(b, p))
			bench_die("barrier_run_phase", NULL);
		if (p >= BENCH_WARM_PHASES)
			v[p - BENCH_WARM_PHASES] = bench_now() - t0;
	}
	barrier_run_free(b);
	for (int i = 0; i < d; i++)
		pthread_join(t[i], NULL);
	barrier_free(b);
	*med = bench_quantile(v, (size_t)phases, 0.5);
	*p90 = bench_quantile(v, (size_t)phases, 0.9);
	free(v);
	free(t);
	free(dev);
}

/* A real run stepped phase by phase on tiny matrices (M = N = d, K = 2:
 * each device one row and one column), every phase timed. */
static void bench_barrier_run(int d, int mode, double *med, double *p90, double *cmp,
			      double *xfer)
{
	struct mat a, b;
	struct dm_plan *plan = bench_plan(mode, d);
	struct run *r;
	struct dm_err err;
	bench_make(&a, (size_t)d, 2, MAT_VALUES_INTS, 0);
	bench_make(&b, 2, (size_t)d, MAT_VALUES_INTS, 1);
	if (run_new(&r, plan, NULL, &a, &b, &err))
		bench_die("run_new", &err);
	int phases = run_phase_count(r);
	double *v = calloc((size_t)phases, sizeof *v);
	double *vc = calloc((size_t)phases, sizeof *vc);
	double *vx = calloc((size_t)phases, sizeof *vx);
	size_t nc = 0, nx = 0;
	for (int p = 0; p < phases; p++) {
		double t0 = bench_now();
		int rc = run_step(r, &err);
		v[p] = bench_now() - t0;
		if (rc < 0)
			bench_die("run_step", &err);
		int kind = sched_phase_kind(plan, p);
		if (kind == SCHED_COMPUTE)
			vc[nc++] = v[p];
		else if (kind == SCHED_TRANSFER)
			vx[nx++] = v[p];
	}
	/* phase 0 also waits for threads just created to park: left out when
	 * there are others */
	size_t skip = phases > 1 ? 1 : 0;
	*med = bench_quantile(v + skip, (size_t)phases - skip, 0.5);
	*p90 = bench_quantile(v + skip, (size_t)phases - skip, 0.9);
	*cmp = nc > 1 ? bench_quantile(vc + 1, nc - 1, 0.5) : *med;
	*xfer = nx ? bench_quantile(vx, nx, 0.5) : 0;
	plan_free(plan);
	run_free(r);
	free(v);
	free(vc);
	free(vx);
	mat_free(&a);
	mat_free(&b);
}

static int bench_barrier(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: bench_engine barrier PHASES D[,D...]\n");
		return 2;
	}
	int phases = atoi(argv[0]), ds[16];
	int nd = bench_parse_list(argv[1], ds, 16);
	if (phases < 1 || nd == 0) {
		fprintf(stderr, "bench_engine barrier: bad arguments\n");
		return 2;
	}
	int cores = bench_two_cores();
	bench_settle(); /* OpenBLAS's pool spins a while after the library loads */
	for (int i = 0; i < nd; i++) {
		double bm, b90, rm, r90, rc, rx, dm, d90, dc, dx;
		bench_barrier_bare(ds[i], phases, &bm, &b90);
		bench_barrier_run(ds[i], DM_FSDP, &rm, &r90, &rc, &rx);
		bench_barrier_run(ds[i], DM_DP, &dm, &d90, &dc, &dx);
		printf("{\"bench\":\"barrier\",\"d\":%d,\"cores\":%d,\"phases\":%d,"
		       "\"bare_median_us\":%.1f,\"bare_p90_us\":%.1f,"
		       "\"fsdp_step_median_us\":%.1f,\"fsdp_step_p90_us\":%.1f,"
		       "\"fsdp_compute_median_us\":%.1f,\"fsdp_transfer_median_us\":%.1f,"
		       "\"dp_gather_us\":%.1f}\n",
		       ds[i], cores, phases, bm * 1e6, b90 * 1e6, rm * 1e6, r90 * 1e6, rc * 1e6,
		       rx * 1e6, dm * 1e6);
		fflush(stdout);
	}
	return 0;
}

/* ---- msgs: messages per second through one channel ---- */

#define BENCH_POOL 8

struct bench_chan {
	struct comm *c;
	long count;
	double *pool[BENCH_POOL];
	size_t rows, cols;
	long moved; /* received with the very pointer that was sent */
	int rc;
};

static void *bench_sender(void *arg)
{
	struct bench_chan *ch = arg;
	struct dm_err err;
	for (long i = 0; i < ch->count; i++) {
		/* the same buffers go round: nobody frees them, a received
		 * pointer equal to the one sent proves the payload moved */
		struct comm_msg m = { .src = 0, .dst = 1, .step = (int)(i & 0xffff),
				      .kind = COMM_SHARD, .index = (int)(i % BENCH_POOL),
				      .rows = ch->rows, .cols = ch->cols,
				      .data = ch->pool[i % BENCH_POOL] };
		if ((ch->rc = comm_send(ch->c, &m, &err)))
			break;
	}
	return NULL;
}

static double bench_channel(size_t capacity, long count, size_t rows, size_t cols, long *moved)
{
	struct bench_chan ch = { .count = count, .rows = rows, .cols = cols };
	struct dm_err err;
	pthread_t t;
	if (comm_inproc_new(&ch.c, 2, capacity, 0, &err))
		bench_die("comm_inproc_new", &err);
	for (int i = 0; i < BENCH_POOL; i++) {
		ch.pool[i] = calloc(rows * cols, sizeof(double));
		if (!ch.pool[i])
			bench_die("allocating messages", NULL);
	}
	double t0 = bench_now();
	if (pthread_create(&t, NULL, bench_sender, &ch))
		bench_die("pthread_create", NULL);
	for (long i = 0; i < count; i++) {
		struct comm_msg m;
		if (comm_recv(ch.c, 1, 0, (int)(i & 0xffff), COMM_SHARD, &m, &err))
			bench_die("comm_recv", &err);
		ch.moved += m.data == ch.pool[i % BENCH_POOL];
	}
	pthread_join(t, NULL);
	double dt = bench_now() - t0;
	comm_destroy(ch.c);
	for (int i = 0; i < BENCH_POOL; i++)
		free(ch.pool[i]);
	*moved = ch.moved;
	return (double)count / dt;
}

/* The bytes an FSDP run counts as sent, against the model: each rank sends
 * n-1 shards round the ring, and every rank but 0 its C rows. */
static int bench_bytes_model(int d, size_t S, uint64_t *counted, uint64_t *model)
{
	struct mat a, b;
	struct dm_plan *p = bench_plan(DM_FSDP, d);
	struct run *r;
	struct dm_err err;
	bench_make(&a, S, S, MAT_VALUES_INTS, 0);
	bench_make(&b, S, S, MAT_VALUES_INTS, 1);
	if (run_new(&r, p, NULL, &a, &b, &err) || run_finish(r, &err))
		bench_die("run", &err);
	plan_free(p);
	struct ev_summary *sum = calloc((size_t)d, sizeof *sum);
	run_summaries(r, sum);
	*counted = 0;
	for (int i = 0; i < d; i++)
		*counted += sum[i].sent_bytes;
	size_t rows0 = S / (size_t)d + (S % (size_t)d != 0); /* array_split: rank 0's rows */
	uint64_t B = 8ull * S * S, C = 8ull * S * S, c0 = 8ull * rows0 * S;
	*model = (uint64_t)(d - 1) * B + (C - c0);
	free(sum);
	run_free(r);
	mat_free(&a);
	mat_free(&b);
	return *counted == *model;
}

static int bench_msgs(int argc, char **argv)
{
	long count = argc > 0 ? atol(argv[0]) : 100000;
	static const struct {
		size_t cap;
		const char *name;
	} caps[] = { { RUN_UNBOUNDED, "unbounded" }, { 1, "1" }, { 0, "0" } };
	if (count < 1)
		count = 100000;
	bench_settle();
	for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
		long moved;
		/* a 2048x256 shard: 4 MiB a message, as at 2048^2 on 8 devices */
		double rate = bench_channel(caps[i].cap, count, 2048, 256, &moved);
		printf("{\"bench\":\"msgs\",\"capacity\":\"%s\",\"count\":%ld,"
		       "\"payload_bytes\":%d,\"msgs_per_s\":%.0f,\"moved\":%ld}\n",
		       caps[i].name, count, 2048 * 256 * 8, rate, moved);
		fflush(stdout);
	}
	uint64_t counted, model;
	int ok = bench_bytes_model(8, 64, &counted, &model);
	printf("{\"bench\":\"bytes\",\"d\":8,\"size\":64,\"counted\":%" PRIu64 ",\"model\":%" PRIu64
	       ",\"equal\":%s}\n",
	       counted, model, ok ? "true" : "false");
	return 0;
}

/* ---- memory: the process's peak RSS against the engine's accounting ---- */

/* A field of /proc/self/status in bytes ("VmRSS:", "VmHWM:"), 0 if none. */
static uint64_t bench_status(const char *field)
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

static uint64_t bench_rss_now(void)
{
	return bench_status("VmRSS:");
}

/* Resets the peak RSS (VmHWM) to the RSS now (Linux 4.0 and later);
 * returns 0 when it cannot. */
static int bench_reset_hwm(void)
{
	FILE *f = fopen("/proc/self/clear_refs", "w");
	if (!f)
		return 0;
	int ok = fputs("5", f) >= 0;
	return fclose(f) == 0 && ok;
}

static uint64_t bench_rss_peak(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (uint64_t)ru.ru_maxrss * 1024;
}

static int bench_memory(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bench_engine memory fsdp|dp SIZE D\n");
		return 2;
	}
	int mode = strcmp(argv[0], "dp") == 0 ? DM_DP : DM_FSDP, d = atoi(argv[2]);
	size_t S = strtoul(argv[1], NULL, 10);
	struct mat a, b;
	struct dm_plan *p = bench_plan(mode, d);
	struct run *r;
	struct dm_err err;
	struct run_snapshot snap;

	uint64_t base = bench_rss_now(); /* the program and its libraries */
	bench_make(&a, S, S, MAT_VALUES_FLOATS, 0);
	bench_make(&b, S, S, MAT_VALUES_FLOATS, 1);
	uint64_t inputs = bench_rss_now() - base;
	if (run_new(&r, p, NULL, &a, &b, &err))
		bench_die("run_new", &err);
	uint64_t setup_peak = bench_rss_peak();
	/* A (and DP's rank 0's B) are the devices' own now, views of the
	 * caller's (run.h): the inputs stay until run_free, and from here on
	 * the peak is the run's */
	uint64_t after_setup = bench_rss_now();
	int hwm = bench_reset_hwm();
	if (run_snapshot_init(&snap, p, S, S, S, 0, &err))
		bench_die("run_snapshot_init", &err);
	uint64_t phase_max = 0;
	int rc;
	while ((rc = run_step(r, &err)) == 0 || rc == 1) {
		run_snapshot_take(r, &snap);
		uint64_t held = 0;
		for (int i = 0; i < d; i++)
			held += snap.dev[i].held_bytes;
		if (held > phase_max)
			phase_max = held;
		if (rc == 1)
			break;
	}
	if (rc < 0)
		bench_die("run_step", &err);
	uint64_t peaks = 0;
	for (int i = 0; i < d; i++)
		peaks += snap.dev[i].peak_bytes;
	uint64_t est = run_estimate_bytes(p, S, S, S, RUN_KEEP_ALL);
	plan_free(p);
	/* getrusage's peak was reset with VmHWM: the whole process's is the
	 * larger of the two */
	uint64_t run_peak = hwm ? bench_rss_peak() : 0;
	uint64_t peak = run_peak > setup_peak ? run_peak : setup_peak;
	printf("{\"bench\":\"memory\",\"mode\":\"%s\",\"size\":%zu,\"d\":%d,"
	       "\"max_rss\":%" PRIu64 ",\"base_rss\":%" PRIu64 ",\"inputs_rss\":%" PRIu64
	       ",\"setup_peak_rss\":%" PRIu64 ",\"after_setup_rss\":%" PRIu64
	       ",\"run_peak_rss\":%" PRIu64 ",\"accounted_peak_sum\":%" PRIu64
	       ",\"accounted_phase_max\":%" PRIu64 ",\"estimate\":%" PRIu64
	       ",\"ratio\":%.4f,\"run_ratio\":%.4f}\n",
	       plan_mode_name(mode), S, d, peak, base, inputs, setup_peak, after_setup, run_peak,
	       peaks, phase_max, est, (double)(peak - base) / (double)peaks,
	       run_peak ? (double)(run_peak - base) / (double)peaks : 0.0);
	run_snapshot_free(&snap);
	run_free(r);
	mat_free(&a);
	mat_free(&b);
	return 0;
}

/* ---- exec: a child's wall time and peak RSS ---- */

static int bench_exec(int argc, char **argv)
{
	int quiet = argc > 0 && strcmp(argv[0], "--quiet") == 0;
	argc -= quiet;
	argv += quiet;
	if (argc < 1) {
		fprintf(stderr, "usage: bench_engine exec [--quiet] CMD ARGS...\n");
		return 2;
	}
	fflush(stdout);
	double t0 = bench_now();
	pid_t pid = fork();
	if (pid < 0)
		bench_die("fork", NULL);
	if (pid == 0) {
		if (quiet && !freopen("/dev/null", "w", stdout))
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) < 0)
		bench_die("wait4", NULL);
	double dt = bench_now() - t0;
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	printf("{\"bench\":\"exec\",\"status\":%d,\"wall_s\":%.4f,\"user_s\":%.4f,\"sys_s\":%.4f,"
	       "\"max_rss\":%" PRIu64 "}\n",
	       code, dt, (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6,
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6,
	       (uint64_t)ru.ru_maxrss * 1024);
	return 0;
}

static int bench_info(void)
{
	printf("{\"bench\":\"info\",\"openblas_config\":\"%s\",\"openblas_core\":\"%s\","
	       "\"openblas_threads\":%d,\"cpus\":%ld}\n",
	       openblas_get_config(), openblas_get_corename(), openblas_get_num_threads(),
	       bench_cpus());
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: bench_engine info|compute|barrier|msgs|memory|exec ...\n");
		return 2;
	}
	const char *what = argv[1];
	argc -= 2;
	argv += 2;
	if (strcmp(what, "info") == 0)
		return bench_info();
	if (strcmp(what, "compute") == 0)
		return bench_compute(argc, argv);
	if (strcmp(what, "barrier") == 0)
		return bench_barrier(argc, argv);
	if (strcmp(what, "msgs") == 0)
		return bench_msgs(argc, argv);
	if (strcmp(what, "memory") == 0)
		return bench_memory(argc, argv);
	if (strcmp(what, "exec") == 0)
		return bench_exec(argc, argv);
	fprintf(stderr, "bench_engine: unknown benchmark %s\n", what);
	return 2;
}
