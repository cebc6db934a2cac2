/* cli_clock: the values of the clock's options (docs/clock.md).  Numbers
 * are strict, as cli_number's are: "4x", " 4", "inf", "nan" and hex are
 * not numbers.  Whether --hw names a preset or a file is not decided here
 * (the parser reads no file): inputs_hw does it when the run starts. */
#include "cli.h"
#include "cli_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/ccl.h>
#include <distmm/hw.h>
#include <distmm/plan.h>

int cli_real(const char *s, double lo, double hi, int lo_open, double *out)
{
	if (!s || !((*s >= '0' && *s <= '9') || (*s == '.' && s[1] >= '0' && s[1] <= '9')))
		return -1;
	for (const char *p = s; *p; p++)
		if (!strchr("0123456789.eE+-", *p))
			return -1;
	errno = 0;
	char *end;
	double v = strtod(s, &end);
	if (*end || errno || !isfinite(v) || v < lo || (lo_open && v == lo) || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* --bytes: a whole number of bytes, a multiple of 8 (the devices' values
 * are doubles), with K, M or G for KiB, MiB, GiB as nccl-tests reads them;
 * at most PLAN_MAX_CCL_COUNT doubles. */
static int cli_clock_bytes(const char *arg, uint64_t *out)
{
	char num[24];
	size_t len = strlen(arg);
	unsigned long long v, unit = 1;
	if (len && strchr("KMG", arg[len - 1])) {
		unit = arg[len - 1] == 'K' ? 1ull << 10 : arg[len - 1] == 'M' ? 1ull << 20 : 1ull << 30;
		len--;
	}
	if (len == 0 || len >= sizeof num)
		return -1;
	memcpy(num, arg, len);
	num[len] = '\0';
	if (cli_number(num, 1, ((unsigned long long)PLAN_MAX_CCL_COUNT * 8) / unit, &v))
		return -1;
	v *= unit;
	if (v % 8)
		return -1;
	*out = v;
	return 0;
}

static int cli_clock_kind(const char *opt, const char *arg, int *out, char *err, size_t size)
{
	int k = ccl_parse_kind(arg);
	if (k < 0)
		return cli_fail(err, size, "unknown collective '%s' for %s (use allreduce, allgather, "
				"reducescatter, broadcast or reduce)", arg, opt);
	*out = k;
	return 0;
}

int cli_clock_option(const char *opt, const char *arg, struct cli_opts *o, char *err,
		     size_t size)
{
	if (strcmp(opt, "--hw") == 0) {
		if (strcmp(arg, "list") == 0)
			return CLI_HW_LIST;
		if (!arg[0])
			return cli_fail(err, size, "--hw takes a preset's name or a preset file (--hw "
					"list names the presets)");
		o->hw = arg;
	} else if (strcmp(opt, "--alpha") == 0) {
		if (cli_real(arg, 0, HW_VALUE_MAX, 0, &o->alpha_us))
			return cli_fail(err, size, "--alpha must be microseconds from 0 to %g, not '%s'",
					HW_VALUE_MAX, arg);
	} else if (strcmp(opt, "--bw") == 0) {
		if (cli_real(arg, 0, HW_VALUE_MAX, 1, &o->bw_gbps))
			return cli_fail(err, size, "--bw must be GB/s above 0 up to %g, not '%s'",
					HW_VALUE_MAX, arg);
	} else if (strcmp(opt, "--flops") == 0) {
		if (cli_real(arg, 0, HW_VALUE_MAX, 1, &o->tflops))
			return cli_fail(err, size, "--flops must be TFLOPS above 0 up to %g, not '%s'",
					HW_VALUE_MAX, arg);
	} else if (strcmp(opt, "--collective") == 0) {
		return cli_clock_kind(opt, arg, &o->collective, err, size);
	} else if (strcmp(opt, "--sweep") == 0) {
		return cli_clock_kind(opt, arg, &o->sweep, err, size);
	} else if (strcmp(opt, "--algo") == 0) {
		if ((o->algo = ccl_parse_algo(arg)) < 0)
			return cli_fail(err, size, "unknown algorithm '%s' (use ring, tree or rhd)", arg);
	} else if (strcmp(opt, "--bytes") == 0) {
		if (cli_clock_bytes(arg, &o->bytes))
			return cli_fail(err, size, "--bytes must be a multiple of 8 from 8 to 16G (K, M "
					"and G count 1024s), not '%s'", arg);
	} else if (strcmp(opt, "--json") == 0) {
		o->json = 1;
	} else if (strcmp(opt, "--timeline") == 0) {
		o->timeline = 1;
	} else if (strcmp(opt, "--prefetch") == 0) {
		o->prefetch = 1;
	}
	return 0;
}

/* --prefetch overlaps FSDP's correct ring, forward or training step, in
 * batch mode and the interface: everywhere else it would be silently
 * ignored. */
int cli_clock_check(struct cli_opts *o, char *err, size_t size)
{
	const char *why = NULL;
	if (!(o->given & CLI_GIVEN_PREFETCH))
		return 0;
	if (o->judge_file)
		why = "with --judge (your file runs with its own communicator)";
	else if (o->replay_file)
		why = "with --replay (the replay redoes the recorded events; it runs nothing)";
	else if (o->collective >= 0 || o->sweep >= 0)
		why = "with --collective or --sweep (it overlaps the matrix multiply's ring)";
	else if (o->lesson_file)
		why = "with --lesson (a lesson's parts set their own runs)";
	else if (o->mode != DM_FSDP)
		why = o->mode == DM_DP ? "with -m dp (DP's B never travels: no transfer to overlap)"
				       : "with tensor parallel (it overlaps FSDP's ring of B's shards)";
	else if (o->bug != BUG_NONE)
		why = "with --bug (it overlaps the correct ring; a bug is a mistake of the plain one)";
	if (!why)
		return 0;
	o->refused = CLI_GIVEN_PREFETCH;
	return cli_fail(err, size, "--prefetch has no effect %s", why);
}
