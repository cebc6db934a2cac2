/* inputs_clock: what the clock's runs start from, as inputs.c is what a
 * multiply starts from: the model's hardware (--hw's preset or file, the
 * values --alpha, --bw and --flops set over it) and a collective's plan
 * and buffers (--collective, -d, --bytes, --seed, --values, --capacity),
 * its memory checked before the buffers are made. */
#include "inputs.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <distmm/ccl.h>

#include "words/clock_words.h"

int inputs_hw(const struct cli_opts *o, struct dm_hw *hw, struct dm_err *err)
{
	struct stat st;
	int rc;
	if (!o->hw) {
		hw_default(hw);
	} else if (hw_preset_find(o->hw, hw, NULL) != 0) {
		/* not a preset: a file, or a name that is neither */
		if (stat(o->hw, &st) != 0 && !strchr(o->hw, '/'))
			return dm_err_set(err, DM_EINVAL, "--hw %.60s: no such preset (--hw list names "
					  "them) and no such file", o->hw);
		if ((rc = hw_read_file(o->hw, hw, err)))
			return rc;
	}
	if (o->given & CLI_GIVEN_ALPHA)
		hw->alpha_us = o->alpha_us;
	if (o->given & CLI_GIVEN_BW)
		hw->bw_gbps = o->bw_gbps;
	if (o->given & CLI_GIVEN_FLOPS)
		hw->tflops = o->tflops;
	return 0;
}

unsigned inputs_hw_given(const struct cli_opts *o)
{
	return ((o->given & CLI_GIVEN_ALPHA) ? CLOCKW_ALPHA : 0u) |
	       ((o->given & CLI_GIVEN_BW) ? CLOCKW_BW : 0u) |
	       ((o->given & CLI_GIVEN_FLOPS) ? CLOCKW_FLOPS : 0u);
}

int inputs_hw_products(const struct cli_opts *o, struct dm_hw *hw, struct dm_err *err)
{
	int rc = inputs_hw(o, hw, err);
	if (!rc && hw->tflops <= 0)
		rc = dm_err_set(err, DM_EINVAL, "--hw %.60s gives no peak F (no tflops in the file): "
				"a multiply's products need one (--flops TFLOPS)", o->hw ? o->hw : hw->name);
	return rc;
}

int inputs_collective(const struct cli_opts *o, struct dm_plan **plan, struct mat *in,
		      struct run_config *cfg, struct dm_err *err)
{
	size_t count = (size_t)(o->bytes / sizeof(double)), cells;
	int rc;
	*in = (struct mat){ 0, 0, NULL };
	if ((rc = plan_make_collective(plan, o->collective, o->algo, o->devices, count, err)) ||
	    (rc = plan_set_capacity(*plan, o->capacity, err)))
		goto fail;
	run_config_default(cfg);
	uint64_t avail = inputs_available_bytes();
	uint64_t need = mat_size_mul((size_t)o->devices, count, &cells) ? UINT64_MAX
				: run_estimate_bytes(*plan, 0, 0, 0, cfg->keep) + mat_bytes(cells, 1);
	if (need > avail) {
		rc = dm_err_set(err, DM_ENOMEM, "a %s of %llu B on %d devices needs about %.1f MiB, "
				"more than the %.1f MiB available", ccl_kind_name(o->collective),
				(unsigned long long)o->bytes, o->devices, (double)need / 1048576.0,
				(double)avail / 1048576.0);
		goto fail;
	}
	cfg->mem_limit = avail - mat_bytes(cells, 1);
	if ((rc = mat_alloc_uninit(in, (size_t)o->devices, count, err)))
		goto fail;
	mat_fill(in, o->values, o->seed, 0);
	return 0;
fail:
	plan_free(*plan);
	*plan = NULL;
	return rc;
}
