/* cli_params: -b --params P [--gpu-mem GB] -d N [--json], the memory
 * argument at real scale (docs/tensor-parallel.md); without -b the same
 * model is c's second page in the interface, beside the run's bytes.  P is a count of
 * parameters as people write it: "7.5e9", "70B", "400B", "1.5T", "350M"
 * (K, M, B, T for 10^3, 10^6, 10^9, 10^12), a whole number from 1 to
 * MODEL_ZERO_MAX_PARAMS.  Such a line runs nothing, so it takes -b, -d,
 * --json and --gpu-mem and refuses the rest by name, as cli.c's rules do. */
#include "cli.h"
#include "cli_int.h"

#include <math.h>
#include <string.h>

#include <distmm/model.h>

/* The options a --params line may have besides --params. */
#define CLI_PARAMS_TAKES \
	(CLI_GIVEN_BATCH | CLI_GIVEN_DEVICES | CLI_GIVEN_JSON | CLI_GIVEN_PARAMS | CLI_GIVEN_GPU_MEM)

static int cli_params_count(const char *arg, uint64_t *out)
{
	char num[40];
	size_t len = strlen(arg);
	double unit = 1, v;
	const char *u = len ? strchr("KMBT", arg[len - 1]) : NULL;
	if (u && *u) {
		unit = *u == 'K' ? 1e3 : *u == 'M' ? 1e6 : *u == 'B' ? 1e9 : 1e12;
		len--;
	}
	if (len == 0 || len >= sizeof num)
		return -1;
	memcpy(num, arg, len);
	num[len] = '\0';
	if (cli_real(num, 0, MODEL_ZERO_MAX_PARAMS / unit, 1, &v))
		return -1;
	v *= unit;
	/* a count: whole, at least one ("7.5" parameters is not a model) */
	if (v < 1 || v > MODEL_ZERO_MAX_PARAMS || fabs(v - nearbyint(v)) > 1e-6 * v)
		return -1;
	*out = (uint64_t)nearbyint(v);
	return 0;
}

int cli_params_option(const char *opt, const char *arg, struct cli_opts *o, char *err,
		      size_t size)
{
	if (strcmp(opt, "--params") == 0) {
		if (cli_params_count(arg, &o->params))
			return cli_fail(err, size, "--params must be a count of parameters from 1 to "
					"1e15 (7.5e9, 70B, 400B; K, M, B, T), not '%s'", arg);
	} else if (cli_real(arg, 0, 1e6, 1, &o->gpu_mem_gb)) {
		return cli_fail(err, size, "--gpu-mem must be GB above 0 up to 1e6, not '%s'", arg);
	}
	return 0;
}

int cli_params_check(struct cli_opts *o, char *err, size_t size)
{
	cli_given_t extra = o->given & ~CLI_PARAMS_TAKES;
	const char *why = NULL;
	if (!(o->given & CLI_GIVEN_PARAMS)) {
		o->refused = CLI_GIVEN_GPU_MEM;
		why = "has no effect without --params (it is the memory a device has for the model's "
		      "states)";
	} else if (!o->batch && o->export_file) {
		o->refused = CLI_GIVEN_PARAMS;
		why = "has no effect with --export (the stills show the panels; c's table at real "
		      "scale is the interface's)";
	} else if (!o->batch) {
		return CLI_RUN; /* the interface: c's second page (Space) is this model's */
	} else if (extra) {
		o->refused = extra & -extra;
		why = "has no effect with --params (the memory table is the closed forms alone: "
		      "nothing runs; it takes -d, --gpu-mem and --json)";
	}
	if (why)
		return cli_fail(err, size, "%s %s", cli_option_name(o->refused), why);
	return CLI_RUN;
}
