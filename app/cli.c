/* cli: getopt_long over a copy of argv, with strict number parsing: "4x",
 * "-3", " 4" and "" are errors, not 4, -3 or 0 (strtol alone accepts them). */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/mat.h>
#include <distmm/run.h>
#include <distmm/schedule.h>

enum {
	OPT_SEED = 256,
	OPT_VALUES,
	OPT_TRACE,
	OPT_PLAY,
	OPT_NO_COLOR,
	OPT_ASCII,
	OPT_CAPACITY,
	OPT_NAIVE,
	OPT_BUG,
	OPT_QUIZ,
	OPT_LESSON,
	OPT_TRACE_FORMAT,
	OPT_REPLAY,
	OPT_VERIFY,
	OPT_COMPARE,
};

static const struct option cli_longopts[] = {
	{ "batch", no_argument, NULL, 'b' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "devices", required_argument, NULL, 'd' },
	{ "mode", required_argument, NULL, 'm' },
	{ "rows", required_argument, NULL, 'M' },
	{ "inner", required_argument, NULL, 'K' },
	{ "cols", required_argument, NULL, 'N' },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "values", required_argument, NULL, OPT_VALUES },
	{ "a-file", required_argument, NULL, 'A' },
	{ "b-file", required_argument, NULL, 'B' },
	{ "out", required_argument, NULL, 'o' },
	{ "trace", required_argument, NULL, OPT_TRACE },
	{ "play", no_argument, NULL, OPT_PLAY },
	{ "no-color", no_argument, NULL, OPT_NO_COLOR },
	{ "ascii", no_argument, NULL, OPT_ASCII },
	{ "capacity", required_argument, NULL, OPT_CAPACITY },
	{ "naive", no_argument, NULL, OPT_NAIVE },
	{ "bug", required_argument, NULL, OPT_BUG },
	{ "quiz", optional_argument, NULL, OPT_QUIZ },
	{ "lesson", required_argument, NULL, OPT_LESSON },
	{ "trace-format", required_argument, NULL, OPT_TRACE_FORMAT },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	{ "verify", required_argument, NULL, OPT_VERIFY },
	{ "compare", no_argument, NULL, OPT_COMPARE },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static const char cli_shortopts[] = ":bqd:m:M:K:N:A:B:o:hV";

const char *cli_usage(void)
{
	return "usage: distmm-tui [options]\n"
	       "Shows a distributed matrix multiply C = A @ B on simulated devices:\n"
	       "FSDP passes column shards of B round a ring; DP gives every device all of B.\n"
	       "\n"
	       "  -d, --devices N     number of devices (default 4, up to 4096)\n"
	       "  -m, --mode MODE     fsdp (default) or dp\n"
	       "  -M, --rows M        rows of A and C (default 8)\n"
	       "  -K, --inner K       columns of A, rows of B (default 6)\n"
	       "  -N, --cols N        columns of B and C (default 4)\n"
	       "      --values KIND   ints (small integers, the default) or floats (normal)\n"
	       "      --seed S        seed for the generated matrices (default 1)\n"
	       "  -A, --a-file FILE   load A from a .npy or .csv file\n"
	       "  -B, --b-file FILE   load B from a .npy or .csv file\n"
	       "  -o, --out FILE      write the distributed C (.npy float64 or .csv)\n"
	       "      --trace FILE    write the event log (JSON Lines, or see --trace-format)\n"
	       "      --trace-format jsonl|chrome\n"
	       "                      chrome: the Trace Event Format, for Perfetto\n"
	       "      --capacity C    messages an inbox holds before a send blocks:\n"
	       "                      unbounded (default), a number, or 0 (synchronous)\n"
	       "      --naive         every device sends before it receives\n"
	       "      --bug KIND      run the ring with a classic mistake to spot\n"
	       "                      (--bug list names them)\n"
	       "  -b, --batch         no interface: print the schedule and the check\n"
	       "  -q, --quiet         batch: print only the summary and the check\n"
	       "      --verify HOW    batch: exact (the full product and allclose),\n"
	       "                      freivalds (random vectors: Cx against A(Bx)) or\n"
	       "                      auto (the default: exact up to M*K*N = 2^24)\n"
	       "      --compare       batch: run the other mode too for the DP-vs-FSDP\n"
	       "                      table (by default it comes from the model)\n"
	       "      --play          start playing instead of paused\n"
	       "      --quiz[=LEVEL]  predict, then reveal: questions before each phase\n"
	       "      --lesson FILE   play a lesson (assets/lessons/) part by part\n"
	       "      --replay TRACE  show a recorded JSON Lines trace (with -A/-B, or the\n"
	       "                      sizes and seed it was made with); no engine runs\n"
	       "                      (level 1: one rank a phase; 2: every rank)\n"
	       "      --no-color      no colour (also when NO_COLOR is set)\n"
	       "      --ascii         ASCII line drawing\n"
	       "  -h, --help          this help\n"
	       "  -V, --version       the version\n"
	       "\n"
	       "Exit status: 0 verified, 1 result differs from A @ B, 2 bad input,\n"
	       "3 deadlock.\n";
}

static int cli_fail(char *err, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int cli_fail(char *err, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, size, fmt, ap);
	va_end(ap);
	return CLI_ERROR;
}

/* A decimal number in [lo, hi] and nothing else. */
static int cli_number(const char *s, unsigned long long lo, unsigned long long hi,
		      unsigned long long *out)
{
	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end != '\0' || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int cli_size(const char *name, const char *arg, size_t *out, char *err, size_t size)
{
	unsigned long long v;
	if (cli_number(arg, 1, RUN_MAX_DIM, &v))
		return cli_fail(err, size, "%s must be a whole number from 1 to %u, not '%s'", name,
				RUN_MAX_DIM, arg);
	*out = (size_t)v;
	return 0;
}

static void cli_defaults(struct cli_opts *o)
{
	memset(o, 0, sizeof *o);
	o->devices = 4;
	o->mode = DM_FSDP;
	o->seed = CLI_DEFAULT_SEED;
	o->values = MAT_VALUES_INTS;
	o->capacity = RUN_UNBOUNDED;
}

static int cli_option(int c, const char *arg, struct cli_opts *o, char *err, size_t size)
{
	unsigned long long v;
	switch (c) {
	case 'b': o->batch = 1; break;
	case 'q': o->quiet = 1; break;
	case OPT_PLAY: o->play = 1; break;
	case OPT_NO_COLOR: o->no_color = 1; break;
	case OPT_ASCII: o->ascii = 1; break;
	case OPT_NAIVE: o->naive = 1; break;
	case 'd':
		if (cli_number(arg, 1, RUN_MAX_DEVICES, &v))
			return cli_fail(err, size,
					"device count must be a whole number from 1 to %d, not '%s'",
					RUN_MAX_DEVICES, arg);
		o->devices = (int)v;
		break;
	case 'm':
		if (strcmp(arg, "fsdp") == 0 || strcmp(arg, "FSDP") == 0)
			o->mode = DM_FSDP;
		else if (strcmp(arg, "dp") == 0 || strcmp(arg, "DP") == 0)
			o->mode = DM_DP;
		else
			return cli_fail(err, size, "unknown mode '%s' (use fsdp or dp)", arg);
		break;
	case 'M': return cli_size("-M (rows of A)", arg, &o->M, err, size);
	case 'K': return cli_size("-K (columns of A, rows of B)", arg, &o->K, err, size);
	case 'N': return cli_size("-N (columns of B)", arg, &o->N, err, size);
	case OPT_SEED:
		if (cli_number(arg, 0, UINT64_MAX, &v))
			return cli_fail(err, size, "seed must be a whole number, not '%s'", arg);
		o->seed = v;
		break;
	case OPT_VALUES:
		if (strcmp(arg, "ints") == 0)
			o->values = MAT_VALUES_INTS;
		else if (strcmp(arg, "floats") == 0)
			o->values = MAT_VALUES_FLOATS;
		else
			return cli_fail(err, size, "unknown values '%s' (use ints or floats)", arg);
		o->values_given = 1;
		break;
	case OPT_QUIZ:
		if (!arg)
			o->quiz = 1;
		else if (strcmp(arg, "1") == 0 || strcmp(arg, "2") == 0)
			o->quiz = arg[0] - '0';
		else
			return cli_fail(err, size, "quiz level must be 1 or 2, not '%s'", arg);
		break;
	case OPT_BUG: {
		int b = bug_parse(arg);
		if (strcmp(arg, "list") == 0)
			return CLI_BUG_LIST;
		if (b < 0)
			return cli_fail(err, size, "unknown bug '%s' (--bug list names them)", arg);
		o->bug = b;
		break;
	}
	case OPT_CAPACITY:
		if (strcmp(arg, "unbounded") == 0)
			o->capacity = RUN_UNBOUNDED;
		else if (cli_number(arg, 0, 1000000, &v))
			return cli_fail(err, size,
					"capacity must be 'unbounded' or a number from 0 to 1000000, not '%s'",
					arg);
		else
			o->capacity = (size_t)v;
		break;
	case 'A': o->a_file = arg; break;
	case 'B': o->b_file = arg; break;
	case 'o': o->out_file = arg; break;
	case OPT_TRACE: o->trace_file = arg; break;
	case OPT_LESSON: o->lesson_file = arg; break;
	case OPT_REPLAY: o->replay_file = arg; break;
	case OPT_COMPARE: o->compare = 1; break;
	case OPT_VERIFY:
		o->verify_given = 1;
		if (strcmp(arg, "auto") == 0)
			o->verify = CLI_VERIFY_AUTO;
		else if (strcmp(arg, "exact") == 0)
			o->verify = CLI_VERIFY_EXACT;
		else if (strcmp(arg, "freivalds") == 0)
			o->verify = CLI_VERIFY_FREIVALDS;
		else
			return cli_fail(err, size, "unknown verification '%s' (use exact, freivalds or auto)",
					arg);
		break;
	case OPT_TRACE_FORMAT:
		if (strcmp(arg, "jsonl") == 0)
			o->trace_format = CLI_TRACE_JSONL;
		else if (strcmp(arg, "chrome") == 0)
			o->trace_format = CLI_TRACE_CHROME;
		else
			return cli_fail(err, size, "unknown trace format '%s' (use jsonl or chrome)", arg);
		break;
	}
	return 0;
}

/* The message for getopt's '?': an unknown option, or a known one given a
 * value it does not take ("--ascii=0").  Never a raw optopt: for long
 * options it is the option's code, not a character. */
static int cli_unknown(const char *opt, int optopt_, char *err, size_t size)
{
	if (opt && opt[0] == '-' && opt[1] == '-') {
		const char *eq = strchr(opt, '=');
		int len = eq ? (int)(eq - opt) : (int)strlen(opt);
		if (optopt_ && eq)
			return cli_fail(err, size, "option '%.*s' takes no value", len, opt);
		return cli_fail(err, size, "unknown option '%.*s' (see --help)", len, opt);
	}
	if (optopt_ > ' ' && optopt_ < 127)
		return cli_fail(err, size, "unknown option '-%c' (see --help)", optopt_);
	return cli_fail(err, size, "unknown option in '%s' (see --help)", opt ? opt : "");
}

int cli_parse(int argc, char *const argv[], struct cli_opts *o, char *err, size_t err_size)
{
	int action = CLI_RUN, c, idx;
	cli_defaults(o);
	err[0] = '\0';
	if (argc < 1)
		return action;

	/* GNU getopt reorders the array it is given, whatever its const says:
	 * it gets a copy, so the caller's argv stays as it was */
	enum { CLI_MAX_ARGS = 256 };
	char *args[CLI_MAX_ARGS + 1];
	if (argc > CLI_MAX_ARGS)
		return cli_fail(err, err_size, "too many arguments (%d)", argc);
	memcpy(args, argv, (size_t)argc * sizeof *args);
	args[argc] = NULL;

	opterr = 0;
	optind = 0; /* glibc: start afresh, so the parser can be called again */
	for (;;) {
		int before = optind;
		if ((c = getopt_long(argc, args, cli_shortopts, cli_longopts, &idx)) == -1)
			break;
		/* within a group of short options ("-xb") optind has not moved on:
		 * the option is then in the argument at optind, not before it */
		const char *opt = args[optind > before ? optind - 1 : optind];
		switch (c) {
		case 'h': action = CLI_HELP; break;
		case 'V': if (action != CLI_HELP) action = CLI_VERSION; break;
		case ':':
			return cli_fail(err, err_size, "option '%s' needs a value", opt);
		case '?':
			return cli_unknown(opt, optopt, err, err_size);
		default: {
			int r = cli_option(c, optarg, o, err, err_size);
			if (r == CLI_ERROR)
				return CLI_ERROR;
			if (r == CLI_BUG_LIST && action == CLI_RUN)
				action = CLI_BUG_LIST;
		}
		}
	}
	if (optind < argc)
		return cli_fail(err, err_size, "unexpected argument '%s' (see --help)", args[optind]);
	if (action != CLI_RUN)
		return action;
	if (o->replay_file && o->lesson_file)
		return cli_fail(err, err_size, "--replay and --lesson do not go together");
	if (o->replay_file && o->trace_file)
		return cli_fail(err, err_size, "--replay reads a trace: --trace would write one");
	if (o->lesson_file && o->batch)
		return cli_fail(err, err_size, "--lesson plays in the interface: leave out -b");
	if (o->out_file && !o->batch)
		return cli_fail(err, err_size, "-o writes the result of a batch run: add -b");
	if (o->compare && !o->batch)
		return cli_fail(err, err_size, "--compare is for the batch table: add -b (the "
				"interface's c key runs both modes)");
	if (o->verify_given && !o->batch)
		return cli_fail(err, err_size, "--verify chooses the check of a batch run: add -b");
	/* cut-off fractions only show when there are fractions */
	if (o->bug == BUG_INT_ACC && !o->values_given)
		o->values = MAT_VALUES_FLOATS;
	return CLI_RUN;
}
