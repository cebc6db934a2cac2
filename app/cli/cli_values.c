/* cli_values: the values of the interface's options that are more than a
 * number (--start-at, --size, --speed) and --judge-timeout's seconds, kept
 * out of cli.c, whose tables and rules are the parser. */
#include "cli.h"
#include "cli_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/run.h>

/* --start-at: ready, a step (its compute), a step and t (the transfer
 * after it), gather or verify; the training step's backward with a prefix:
 * b2 (backward step t=2's compute), b2t (its transfer), partial, rs1 (the
 * reduce-scatter's step 1), ag1 (DP's all-gather's).  Whether the step
 * exists, or the run is a training step, is known only once the devices
 * and the run are (a lesson or a trace may set them): the interface says. */
int cli_start_at(const char *arg, struct cli_opts *o, char *err, size_t size)
{
	static const struct {
		const char *word;
		int kind;
	} words[] = { { "ready", CLI_START_READY },   { "gather", CLI_START_GATHER },
		      { "verify", CLI_START_VERIFY }, { "partial", CLI_START_PARTIAL } };
	unsigned long long v;
	char num[24];
	const char *p = arg;
	int kind = CLI_START_COMPUTE;
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strcmp(arg, words[i].word) == 0) {
			o->start_kind = words[i].kind;
			return 0;
		}
	if (strncmp(p, "rs", 2) == 0)
		kind = CLI_START_RS, p += 2;
	else if (strncmp(p, "ag", 2) == 0)
		kind = CLI_START_AG, p += 2;
	else if (p[0] == 'b')
		kind = CLI_START_BWD_COMPUTE, p++;
	size_t len = strlen(p);
	int transfer = (kind == CLI_START_COMPUTE || kind == CLI_START_BWD_COMPUTE) && len > 1 &&
		       p[len - 1] == 't';
	if (len == 0 || len - (size_t)transfer >= sizeof num)
		goto bad;
	memcpy(num, p, len - (size_t)transfer);
	num[len - (size_t)transfer] = '\0';
	if (cli_number(num, 0, RUN_MAX_DEVICES - 1, &v))
		goto bad;
	o->start_kind = !transfer			  ? kind
			: kind == CLI_START_COMPUTE ? CLI_START_TRANSFER
						    : CLI_START_BWD_TRANSFER;
	o->start_step = (int)v;
	return 0;
bad:
	return cli_fail(err, size,
			"--start-at takes a step (2), a step's transfer (2t), ready, gather, verify "
			"or a backward stop (b2, b2t, partial, rs1, ag1), not '%s'",
			arg);
}

/* --size COLSxROWS: two numbers from 1 to CLI_MAX_SIZE; whether the run
 * fits is the layout's to say, once the device count is known. */
int cli_screen_size(const char *arg, struct cli_opts *o, char *err, size_t size)
{
	char num[16];
	unsigned long long c, r;
	const char *x = strchr(arg, 'x');
	size_t len = x ? (size_t)(x - arg) : 0;
	if (x && len < sizeof num) {
		memcpy(num, arg, len);
		num[len] = '\0';
		if (!cli_number(num, 1, CLI_MAX_SIZE, &c) && !cli_number(x + 1, 1, CLI_MAX_SIZE, &r)) {
			o->cols = (int)c;
			o->rows = (int)r;
			return 0;
		}
	}
	return cli_fail(err, size, "--size must be COLSxROWS, each from 1 to %d (e.g. 120x40), not '%s'",
			CLI_MAX_SIZE, arg);
}

/* --speed: one of the interface's speeds (+ and - step through them). */
int cli_speed(const char *arg, struct cli_opts *o, char *err, size_t size)
{
	static const struct {
		const char *name;
		int step;
	} speeds[] = { { "1/4", -2 }, { "0.25", -2 }, { "1/2", -1 }, { "0.5", -1 }, { "1", 0 },
		       { "2", 1 },    { "4", 2 },     { "8", 3 },    { "16", 4 } };
	size_t len = strlen(arg);
	if (len && arg[len - 1] == 'x')
		len--;
	for (size_t i = 0; i < sizeof speeds / sizeof speeds[0]; i++)
		if (strlen(speeds[i].name) == len && strncmp(arg, speeds[i].name, len) == 0) {
			o->speed_step = speeds[i].step;
			return 0;
		}
	return cli_fail(err, size, "--speed must be 1/4, 1/2, 1, 2, 4, 8 or 16 (times 1x), not '%s'",
			arg);
}

/* --judge-timeout: seconds, a fraction allowed, from 0.1 to 600. */
int cli_seconds(const char *s, unsigned *ms)
{
	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	char *end;
	double v = strtod(s, &end);
	if (errno || *end != '\0' || !(v >= 0.1 && v <= 600.0))
		return -1;
	*ms = (unsigned)(v * 1000.0 + 0.5);
	return 0;
}
