/* plan: the settings of a run, behind setters (see plan.h).  Every setter
 * checks its own value; plan_check the settings that only make sense
 * together, so that a plan may pass through a state on its way (the
 * interface's d turns the training step on before it says why it cannot). */
#include <distmm/plan.h>

#include <stdlib.h>

#include "core/plan_int.h"

/* The words of run_new's checks before the plan held these settings, so
 * that a refusal reads the same wherever it now comes from. */
static int plan_bad_mode(enum dm_mode mode, struct dm_err *err)
{
	return dm_err_set(err, DM_EINVAL, "unknown mode %d", (int)mode);
}

static int plan_bad_devices(int n, struct dm_err *err)
{
	return dm_err_set(err, DM_EINVAL, "device count %d is out of range (1 to %d)", n,
			  PLAN_MAX_DEVICES);
}

int plan_new(struct dm_plan **out, enum dm_mode mode, int n, struct dm_err *err)
{
	struct dm_plan *p;
	*out = NULL;
	if ((unsigned)mode >= DM_MODE_COUNT)
		return plan_bad_mode(mode, err);
	if (n < 1 || n > PLAN_MAX_DEVICES)
		return plan_bad_devices(n, err);
	if (!(p = malloc(sizeof *p)))
		return dm_err_set(err, DM_ENOMEM, "out of memory for a plan");
	*p = plan_of(mode, n, DM_FORWARD);
	*out = p;
	return 0;
}

int plan_make(struct dm_plan **out, enum dm_mode mode, int n, enum dm_pass pass,
	      struct dm_err *err)
{
	int rc = plan_new(out, mode, n, err);
	if (!rc && (rc = plan_set_pass(*out, pass, err))) {
		plan_free(*out);
		*out = NULL;
	}
	return rc;
}

int plan_make_run(struct dm_plan **out, enum dm_mode mode, int n, enum dm_pass pass,
		  enum dm_order order, enum dm_bug bug, size_t capacity, struct dm_err *err)
{
	int rc = plan_make(out, mode, n, pass, err);
	if (!rc && ((rc = plan_set_order(*out, order, err)) || (rc = plan_set_bug(*out, bug, err)) ||
		    (rc = plan_set_capacity(*out, capacity, err)))) {
		plan_free(*out);
		*out = NULL;
	}
	return rc;
}

int plan_make_collective(struct dm_plan **out, enum ccl_kind kind, enum ccl_algo algo, int n,
			 size_t count, struct dm_err *err)
{
	int rc = plan_new(out, DM_COLL, n, err);
	if (!rc && ((rc = plan_set_collective(*out, kind, algo, count, err)) ||
		    (rc = plan_check(*out, err)))) {
		plan_free(*out);
		*out = NULL;
	}
	return rc;
}

int plan_dup(struct dm_plan **out, const struct dm_plan *p, struct dm_err *err)
{
	if (!(*out = malloc(sizeof **out)))
		return dm_err_set(err, DM_ENOMEM, "out of memory for a plan");
	**out = *p;
	return 0;
}

void plan_free(struct dm_plan *p)
{
	free(p);
}

int plan_set_mode(struct dm_plan *p, enum dm_mode mode, struct dm_err *err)
{
	if ((unsigned)mode >= DM_MODE_COUNT)
		return plan_bad_mode(mode, err);
	p->mode = mode;
	return 0;
}

int plan_set_devices(struct dm_plan *p, int n, struct dm_err *err)
{
	if (n < 1 || n > PLAN_MAX_DEVICES)
		return plan_bad_devices(n, err);
	p->n = n;
	return 0;
}

int plan_set_pass(struct dm_plan *p, enum dm_pass pass, struct dm_err *err)
{
	if (pass != DM_FORWARD && pass != DM_TRAIN)
		return dm_err_set(err, DM_EINVAL, "unknown pass %d", (int)pass);
	p->pass = pass;
	return 0;
}

int plan_set_order(struct dm_plan *p, enum dm_order order, struct dm_err *err)
{
	if ((unsigned)order >= ORDER_COUNT)
		return dm_err_set(err, DM_EINVAL, "unknown transfer order %d", (int)order);
	p->order = order;
	return 0;
}

int plan_set_bug(struct dm_plan *p, enum dm_bug bug, struct dm_err *err)
{
	if ((unsigned)bug >= BUG_COUNT)
		return dm_err_set(err, DM_EINVAL, "unknown bug %d", (int)bug);
	p->bug = bug;
	return 0;
}

int plan_set_capacity(struct dm_plan *p, size_t capacity, struct dm_err *err)
{
	(void)err; /* every count is a capacity: 0 is synchronous, PLAN_UNBOUNDED none */
	p->capacity = capacity;
	return 0;
}

int plan_set_prefetch(struct dm_plan *p, int on, struct dm_err *err)
{
	if (on != 0 && on != 1)
		return dm_err_set(err, DM_EINVAL, "prefetch is on (1) or off (0), not %d", on);
	p->prefetch = on;
	return 0;
}

int plan_set_collective(struct dm_plan *p, enum ccl_kind kind, enum ccl_algo algo, size_t count,
			struct dm_err *err)
{
	if ((unsigned)kind >= CCL_KIND_COUNT)
		return dm_err_set(err, DM_EINVAL, "unknown collective %d", (int)kind);
	if ((unsigned)algo >= CCL_ALGO_COUNT)
		return dm_err_set(err, DM_EINVAL, "unknown algorithm %d", (int)algo);
	if (count < 1 || count > PLAN_MAX_CCL_COUNT)
		return dm_err_set(err, DM_EINVAL, "a collective's buffer holds 1 to %zu doubles, not "
				  "%zu", PLAN_MAX_CCL_COUNT, count);
	p->ccl = kind;
	p->algo = algo;
	p->count = count;
	return 0;
}

enum dm_mode plan_mode(const struct dm_plan *p) { return p->mode; }
int plan_devices(const struct dm_plan *p) { return p->n; }
enum dm_pass plan_pass(const struct dm_plan *p) { return p->pass; }
int plan_train(const struct dm_plan *p) { return p->pass == DM_TRAIN; }
enum dm_order plan_order(const struct dm_plan *p) { return p->order; }
enum dm_bug plan_bug(const struct dm_plan *p) { return p->bug; }
size_t plan_capacity(const struct dm_plan *p) { return p->capacity; }
int plan_prefetch(const struct dm_plan *p) { return p->prefetch; }
enum ccl_kind plan_ccl_kind(const struct dm_plan *p) { return p->ccl; }
enum ccl_algo plan_ccl_algo(const struct dm_plan *p) { return p->algo; }
size_t plan_ccl_count(const struct dm_plan *p) { return p->count; }

/* A collective: one forward pass of its own steps, as ccl_check allows. */
static int plan_check_collective(const struct dm_plan *p, struct dm_err *err)
{
	if (p->pass != DM_FORWARD)
		return dm_err_set(err, DM_EINVAL, "a collective has no training step");
	if (p->bug != BUG_NONE)
		return dm_err_set(err, DM_EINVAL, "bug %s is a mistake of the matrix multiply's "
				  "rings, not of a collective", bug_name(p->bug));
	if (p->order != ORDER_PARITY)
		return dm_err_set(err, DM_EINVAL, "a collective orders its calls itself (a send to "
				  "a higher rank first), not by %s", order_name(p->order));
	return ccl_check(p->ccl, p->algo, p->n, err);
}

/* --prefetch: FSDP's correct ring, whatever the order. */
static int plan_check_prefetch(const struct dm_plan *p, struct dm_err *err)
{
	if (p->mode != DM_FSDP)
		return dm_err_set(err, DM_EINVAL, "--prefetch overlaps FSDP's ring: in %s no shard of "
				  "B travels", plan_mode_name(p->mode));
	if (p->bug != BUG_NONE)
		return dm_err_set(err, DM_EINVAL, "--prefetch runs the correct ring: bug %s is a "
				  "mistake of the plain one", bug_name(p->bug));
	return 0;
}

/* Tensor parallel: the forward, correct, its one collective the ring's. */
static int plan_check_tp(const struct dm_plan *p, struct dm_err *err)
{
	const char *name = plan_mode_name(p->mode);
	/* the backward needs dC whole on every rank, as the all-reduce leaves
	 * C: after a reduce-scatter dC's rows would first need an all-gather */
	if (p->pass != DM_FORWARD && p->mode == DM_TP_ROW && p->ccl == CCL_REDUCESCATTER)
		return dm_err_set(err, DM_EINVAL, "tp-row's training step needs dC whole on every "
				  "rank, as the all-reduce leaves C, not the reduce-scatter's rows");
	if (p->bug != BUG_NONE)
		return dm_err_set(err, DM_EINVAL, "bug %s is a mistake of the FSDP and DP rings, not "
				  "of %s", bug_name(p->bug), name);
	if (p->order != ORDER_PARITY)
		return dm_err_set(err, DM_EINVAL, "%s orders its calls as the collectives do (a send "
				  "to a higher rank first), not by %s", name, order_name(p->order));
	return 0;
}

int plan_mode_tp(enum dm_mode mode)
{
	return mode == DM_TP_COL || mode == DM_TP_ROW;
}

int plan_set_tp_collective(struct dm_plan *p, enum ccl_kind kind, struct dm_err *err)
{
	if (kind != CCL_ALLREDUCE && kind != CCL_REDUCESCATTER)
		return dm_err_set(err, DM_EINVAL, "tp-row sums its partials by an all-reduce or a "
				  "reduce-scatter, not a %s", ccl_kind_title(kind));
	p->ccl = kind;
	p->algo = CCL_RING;
	return 0;
}

int plan_check(const struct dm_plan *p, struct dm_err *err)
{
	int rc;
	if (p->prefetch && (rc = plan_check_prefetch(p, err)))
		return rc;
	if (p->mode == DM_COLL)
		return plan_check_collective(p, err);
	if (plan_mode_tp(p->mode))
		return plan_check_tp(p, err);
	if (p->pass != DM_TRAIN)
		return 0;
	/* the bug before the order, as run_new has always said them */
	if (p->bug != BUG_NONE && !bug_is_backward(p->bug))
		return dm_err_set(err, DM_EINVAL, "bug %s is a mistake of the forward: a training "
				  "step runs the correct forward and takes the backward's bugs",
				  bug_name(p->bug));
	if (p->order != ORDER_PARITY)
		return dm_err_set(err, DM_EINVAL, "a training step's rings use the parity order, not "
				  "%s", order_name(p->order));
	return 0;
}

const char *plan_mode_name(enum dm_mode mode)
{
	switch (mode) {
	case DM_FSDP: return "FSDP";
	case DM_DP: return "DP";
	case DM_COLL: return "collective";
	case DM_TP_COL: return "tp-col";
	case DM_TP_ROW: return "tp-row";
	default: return "?";
	}
}
