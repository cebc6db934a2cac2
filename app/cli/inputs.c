/* inputs: where A and B come from (see inputs.h). */
#include "inputs.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <distmm/matio.h>

uint64_t inputs_available_bytes(void)
{
	uint64_t avail = 0;
	FILE *fp = fopen("/proc/meminfo", "r");
	if (fp) {
		char line[128];
		unsigned long long kb;
		while (fgets(line, sizeof line, fp))
			if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
				avail = (uint64_t)kb * 1024;
				break;
			}
		fclose(fp);
	}
	if (avail == 0) {
		long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
		if (pages > 0 && page > 0)
			avail = (uint64_t)pages * (uint64_t)page;
	}
	struct rlimit rl;
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (avail == 0 || (uint64_t)rl.rlim_cur < avail))
		avail = (uint64_t)rl.rlim_cur;
	return avail ? avail : UINT64_MAX;
}

static int inputs_check_size(const char *what, size_t given, size_t actual, const char *file,
			     struct dm_err *err)
{
	if (given && given != actual)
		return dm_err_set(err, DM_EINVAL, "%s is %zu in %s, but the options say %zu", what,
				  actual, file, given);
	return 0;
}

/* What a training step holds beside A, B and the forward's M x N reference:
 * dC, and its checks' references: batch makes one at a time, after the run
 * (verify_exact_op, at most the larger of dA's and dB's; none above 2^24,
 * Freivalds), the interface keeps both (view_train.c). */
static uint64_t inputs_train_bytes(const struct cli_opts *o, size_t M, size_t K, size_t N)
{
	uint64_t da = mat_bytes(M, K), db = mat_bytes(K, N);
	if (!o->train)
		return 0;
	return (uint64_t)mat_bytes(M, N) + (o->batch ? (da > db ? da : db) : da + db);
}

/* What a run of o keeps of its event log: the interface steps back through
 * it, --trace writes it, the training step's report counts its ring from it
 * and the clock (--hw and the like, --timeline) times its phases from it;
 * batch mode otherwise prints each phase's events as it steps (or, with -q,
 * none), so that memory grows with n and not n^2. */
enum run_keep inputs_keep(const struct cli_opts *o)
{
	if (!o->batch || o->trace_file || o->train ||
	    (o->given & (CLI_GIVEN_MODEL | CLI_GIVEN_TIMELINE)))
		return RUN_KEEP_ALL;
	return o->quiet ? RUN_KEEP_NONE : RUN_KEEP_LATEST;
}

/* Refuses generated matrices that would not fit before allocating them. */
static int inputs_check_memory(const struct cli_opts *o, size_t M, size_t K, size_t N,
			       struct dm_err *err)
{
	struct dm_plan *p;
	int rc = inputs_plan(o, &p, err);
	if (rc)
		return rc;
	uint64_t need = run_estimate_bytes(p, M, K, N, inputs_keep(o));
	plan_free(p);
	uint64_t inputs = (uint64_t)mat_bytes(M, K) + mat_bytes(K, N) + mat_bytes(M, N) +
			  inputs_train_bytes(o, M, K, N);
	uint64_t avail = inputs_available_bytes();
	if (mat_bytes(M, K) == SIZE_MAX || mat_bytes(K, N) == SIZE_MAX ||
	    mat_bytes(M, N) == SIZE_MAX || need == UINT64_MAX || need + inputs < need ||
	    need + inputs > avail)
		return dm_err_set(err, DM_ENOMEM,
				  "A %zux%zu, B %zux%zu on %d devices needs about %.1f MiB, "
				  "more than the %.1f MiB available",
				  M, K, K, N, o->devices,
				  need == UINT64_MAX || need + inputs < need
					  ? (double)UINT64_MAX / 1048576.0
					  : (double)(need + inputs) / 1048576.0,
				  (double)avail / 1048576.0);
	return 0;
}

int inputs_load(const struct cli_opts *o, struct mat *a, struct mat *b, struct dm_err *err)
{
	uint64_t avail = inputs_available_bytes();
	size_t max_file = avail > SIZE_MAX ? SIZE_MAX : (size_t)avail;
	int rc = 0;
	memset(a, 0, sizeof *a);
	memset(b, 0, sizeof *b);

	if (o->a_file) {
		if ((rc = matio_read(o->a_file, a, max_file, err)))
			goto fail;
		if ((rc = inputs_check_size("the number of rows of A", o->M, a->rows, o->a_file, err)) ||
		    (rc = inputs_check_size("the number of columns of A", o->K, a->cols, o->a_file, err)))
			goto fail;
	}
	if (o->b_file) {
		if ((rc = matio_read(o->b_file, b, max_file, err)))
			goto fail;
		if ((rc = inputs_check_size("the number of rows of B", o->K, b->rows, o->b_file, err)) ||
		    (rc = inputs_check_size("the number of columns of B", o->N, b->cols, o->b_file, err)))
			goto fail;
	}
	if (o->a_file && o->b_file && a->cols != b->rows) {
		rc = dm_err_set(err, DM_EINVAL,
				"shapes do not match: A is %zux%zu, B is %zux%zu "
				"(A's columns must equal B's rows)",
				a->rows, a->cols, b->rows, b->cols);
		goto fail;
	}

	size_t M = o->a_file ? a->rows : o->M ? o->M : CLI_DEFAULT_M;
	size_t K = o->a_file ? a->cols : o->b_file ? b->rows : o->K ? o->K : CLI_DEFAULT_K;
	size_t N = o->b_file ? b->cols : o->N ? o->N : CLI_DEFAULT_N;
	if ((rc = inputs_check_memory(o, M, K, N, err)))
		goto fail;
	if (!o->a_file) {
		if ((rc = mat_alloc(a, M, K, err)))
			goto fail;
		mat_fill(a, (enum mat_values)o->values, o->seed, 0);
	}
	if (!o->b_file) {
		if ((rc = mat_alloc(b, K, N, err)))
			goto fail;
		mat_fill(b, (enum mat_values)o->values, o->seed, 1);
	}
	return 0;
fail:
	mat_free(a);
	mat_free(b);
	return rc;
}

/* The training step's input, apart from A's and B's. */
int inputs_load_dc(const struct cli_opts *o, size_t M, size_t N, struct mat *dc,
		   struct dm_err *err)
{
	uint64_t avail = inputs_available_bytes();
	int rc;
	memset(dc, 0, sizeof *dc);
	if (!o->dc_file) {
		if ((rc = mat_alloc(dc, M, N, err)))
			return rc;
		mat_fill(dc, (enum mat_values)o->values, o->seed, 2);
		return 0;
	}
	if ((rc = matio_read(o->dc_file, dc, avail > SIZE_MAX ? SIZE_MAX : (size_t)avail, err)))
		return rc;
	if (dc->rows != M || dc->cols != N) {
		rc = dm_err_set(err, DM_EINVAL, "dC is %zux%zu in %s, but C = A @ B is %zux%zu: dC "
				"must have C's shape", dc->rows, dc->cols, o->dc_file, M, N);
		mat_free(dc);
	}
	return rc;
}

int inputs_load_e(const struct cli_opts *o, const struct mat *b, struct dm_plan *plan,
		  struct mat *e, struct dm_err *err)
{
	uint64_t avail = inputs_available_bytes();
	size_t N = b->cols, P = o->P ? o->P : b->rows;
	int rc;
	memset(e, 0, sizeof *e);
	if (!o->e_file) {
		if ((rc = mat_alloc(e, N, P, err)))
			return rc;
		mat_fill(e, (enum mat_values)o->values, o->seed, 3);
	} else {
		if ((rc = matio_read(o->e_file, e, avail > SIZE_MAX ? SIZE_MAX : (size_t)avail, err)))
			return rc;
		if (e->rows != N || (o->P && e->cols != o->P)) {
			rc = dm_err_set(err, DM_EINVAL, "E is %zux%zu in %s, but tp-mlp's E must be N x P "
					"(%zu rows: B's columns%s)", e->rows, e->cols, o->e_file, N,
					o->P ? ", and -P's columns" : "");
			mat_free(e);
			return rc;
		}
	}
	if (plan && (rc = plan_set_tp_mlp(plan, (enum dm_act)o->act, e->cols, err)))
		mat_free(e);
	return rc;
}

int inputs_plan(const struct cli_opts *o, struct dm_plan **out, struct dm_err *err)
{
	int rc = plan_make_run(out, o->mode, o->devices, o->train ? DM_TRAIN : DM_FORWARD, o->order,
			       o->bug, o->capacity, err);
	if (!rc && ((rc = plan_set_prefetch(*out, o->prefetch, err)) ||
		    (o->reduce_scatter && (rc = plan_set_tp_collective(*out, CCL_REDUCESCATTER, err))))) {
		plan_free(*out);
		*out = NULL;
	}
	return rc;
}

void inputs_run_config(const struct cli_opts *o, const struct mat *a, const struct mat *b,
		       struct run_config *cfg)
{
	run_config_default(cfg); /* a training step's dC is the caller's to set */
	cfg->keep = inputs_keep(o);
	uint64_t held = (uint64_t)mat_bytes(a->rows, a->cols) + mat_bytes(b->rows, b->cols) +
			mat_bytes(a->rows, b->cols) +
			inputs_train_bytes(o, a->rows, a->cols, b->cols);
	uint64_t avail = inputs_available_bytes();
	cfg->mem_limit = avail > held ? avail - held : 1;
}
