/* trace_util: the trace suites' shared helpers (see trace_util.h).  A run
 * is stepped phase by phase, as the interface steps it, so that its events
 * are the ones a trace file holds. */
#include "trace_util.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <distmm/bug.h>
#include <distmm/run.h>
#include "testutil.h"

void tt_logged_run(struct tt_logged *l, int mode, int n, int bug, size_t M, size_t K, size_t N,
		   int floats, struct mat *result)
{
	struct run *r = NULL;
	struct dm_err err;
	memset(l, 0, sizeof *l);
	tu_matrix(&l->a, M, K, floats, 5, 0);
	tu_matrix(&l->b, K, N, floats, 5, 1);
	l->plan = tu_plan_run(mode, n, DM_FORWARD, ORDER_PARITY, bug, RUN_UNBOUNDED);
	ck_assert_int_eq(run_new(&r, l->plan, NULL, &l->a, &l->b, &err), 0);
	int rc;
	while ((rc = run_step(r, &err)) == 0)
		;
	/* the bugs that stop a run: c-mod, py-no-mod (where numpy's slice does
	 * not fit), extra-rotation (its stray shard) */
	ck_assert_msg(rc == 1 || ((bug == BUG_C_MOD || bug == BUG_PY_NO_MOD) && n > 1) ||
			      bug == BUG_EXTRA_ROTATION,
		      "run_step: %s", err.msg);
	l->finished = rc == 1;
	const struct ev *ev = run_events(r, &l->n_ev);
	l->ev = malloc((l->n_ev ? l->n_ev : 1) * sizeof *l->ev);
	l->sum = malloc((size_t)n * sizeof *l->sum);
	ck_assert(l->ev && l->sum);
	memcpy(l->ev, ev, l->n_ev * sizeof *ev);
	run_summaries(r, l->sum);
	l->mode = mode;
	l->n = n;
	l->bug = bug;
	if (result) {
		ck_assert(l->finished);
		struct dm_err e2;
		ck_assert_int_eq(mat_copy_block(result, run_result(r), 0, M, 0, N, &e2), 0);
	}
	run_free(r);
}

void tt_logged_free(struct tt_logged *l)
{
	mat_free(&l->a);
	mat_free(&l->b);
	free(l->ev);
	free(l->sum);
	plan_free(l->plan);
}

void tt_train_log_make(struct tt_train_log *l, int mode, int n, int bug, size_t M, size_t K,
		       size_t N, int floats, uint64_t seed, size_t capacity, int snapshots)
{
	struct run_config cfg;
	struct run *r;
	struct dm_err err;
	memset(l, 0, sizeof *l);
	l->mode = mode;
	l->n = n;
	l->bug = bug;
	tu_matrix(&l->a, M, K, floats, seed, 0);
	tu_matrix(&l->b, K, N, floats, seed, 1);
	tu_matrix(&l->dc, M, N, floats, seed, 2);
	l->plan = tu_plan_run(mode, n, DM_TRAIN, ORDER_PARITY, bug, capacity);
	run_config_default(&cfg);
	cfg.dc = &l->dc;
	ck_assert_msg(run_new(&r, l->plan, &cfg, &l->a, &l->b, &err) == 0, "%s", err.msg);
	l->phases = run_phase_count(r);
	if (snapshots) {
		l->live = calloc((size_t)l->phases + 1, sizeof *l->live);
		ck_assert_ptr_nonnull(l->live);
		for (int p = 0; p <= l->phases; p++)
			ck_assert_int_eq(run_snapshot_init(&l->live[p], l->plan, M, K, N, 1, &err), 0);
		run_snapshot_take(r, &l->live[0]);
	}
	int rc, p = 0;
	while ((rc = run_step(r, &err)) >= 0) {
		if (snapshots)
			run_snapshot_take(r, &l->live[++p]);
		if (rc == 1)
			break;
	}
	ck_assert_msg(rc == 1, "%s", err.msg);
	const struct ev *ev = run_events(r, &l->n_ev);
	l->ev = malloc(l->n_ev * sizeof *l->ev);
	l->copy = malloc(l->n_ev * sizeof *l->copy);
	l->sum = calloc((size_t)n, sizeof *l->sum);
	ck_assert(l->ev && l->copy && l->sum);
	memcpy(l->ev, ev, l->n_ev * sizeof *ev);
	memcpy(l->copy, ev, l->n_ev * sizeof *ev);
	run_summaries(r, l->sum);
	run_free(r);
}

void tt_train_log_free(struct tt_train_log *l)
{
	for (int p = 0; l->live && p <= l->phases; p++)
		run_snapshot_free(&l->live[p]);
	free(l->live);
	free(l->ev);
	free(l->copy);
	free(l->sum);
	mat_free(&l->a);
	mat_free(&l->b);
	mat_free(&l->dc);
	plan_free(l->plan);
}

char tt_tmpdir[64];

void tt_setup_dir(void)
{
	snprintf(tt_tmpdir, sizeof tt_tmpdir, "/tmp/trace_test.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tt_tmpdir));
}

void tt_remove_dir(void)
{
	DIR *d = opendir(tt_tmpdir);
	struct dirent *de;
	char path[600];
	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.') {
			snprintf(path, sizeof path, "%s/%s", tt_tmpdir, de->d_name);
			unlink(path);
		}
	closedir(d);
	rmdir(tt_tmpdir);
}

void tt_in_dir(char *path, size_t size, const char *name)
{
	snprintf(path, size, "%s/%s", tt_tmpdir, name);
}

char *tt_slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	ck_assert_ptr_nonnull(fp);
	fseek(fp, 0, SEEK_END);
	long size = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	char *buf = malloc((size_t)size + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)size, fp), (size_t)size);
	buf[size] = '\0';
	fclose(fp);
	*len = (size_t)size;
	return buf;
}
