/* cli: getopt_long over a copy of argv, with strict number parsing: "4x",
 * "-3", " 4" and "" are errors, not 4, -3 or 0 (strtol alone accepts them).
 * Then one table (cli_rules) of the options that do nothing in the mode the
 * whole line chose: it is read once every option is known, so the order of
 * the options never matters.  --naive, --order and --fix are one setting
 * said three ways: two that disagree are refused as they are read.  The
 * table of rules is cli_rules.c's; the values that are more than a number
 * are read by cli_values.c, the
 * clock's by cli_clock.c, --params' by cli_params.c, tensor parallel's by
 * cli_tp.c. */
#include "cli.h"
#include "cli_int.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/mat.h>
#include <distmm/order.h>
#include <distmm/run.h>
#include <distmm/schedule.h>

#include "practice/drills.h"
#include "practice/lesson.h"

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
	OPT_EXPORT,
	OPT_SIZE,
	OPT_EXPORT_CHROME,
	OPT_SPEED,
	OPT_RECORD,
	OPT_ORDER,
	OPT_FIX,
	OPT_JUDGE,
	OPT_JUDGE_TIMEOUT,
	OPT_JUDGE_UNCONFINED,
	OPT_JUDGE_SCHEDULE,
	OPT_SHOW_OUTPUT,
	OPT_VERIFY,
	OPT_COMPARE,
	OPT_START_AT,
	OPT_THEME,
	OPT_TRAIN,
	OPT_DC,
	OPT_DA_OUT,
	OPT_DB_OUT,
	OPT_QUIZ_DERIVE, /* never returned by getopt: the name of --quiz=derive's bit */
	OPT_HW,
	OPT_ALPHA,
	OPT_BW,
	OPT_FLOPS,
	OPT_COLLECTIVE,
	OPT_ALGO,
	OPT_BYTES,
	OPT_SWEEP,
	OPT_JSON,
	OPT_TIMELINE,
	OPT_PREFETCH,
	OPT_INTERVIEW,
	OPT_INTERVIEW_TIME,
	OPT_INTERVIEW_RESTART,
	OPT_PARAMS,
	OPT_GPU_MEM,
	OPT_REDUCE_SCATTER,
	OPT_ACT,
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
	{ "e-file", required_argument, NULL, 'E' },
	{ "e-cols", required_argument, NULL, 'P' },
	{ "act", required_argument, NULL, OPT_ACT },
	{ "out", required_argument, NULL, 'o' },
	{ "trace", required_argument, NULL, OPT_TRACE },
	{ "play", no_argument, NULL, OPT_PLAY },
	{ "no-color", no_argument, NULL, OPT_NO_COLOR },
	{ "ascii", no_argument, NULL, OPT_ASCII },
	{ "capacity", required_argument, NULL, OPT_CAPACITY },
	{ "naive", no_argument, NULL, OPT_NAIVE },
	{ "order", required_argument, NULL, OPT_ORDER },
	{ "fix", required_argument, NULL, OPT_FIX },
	{ "bug", required_argument, NULL, OPT_BUG },
	{ "quiz", optional_argument, NULL, OPT_QUIZ },
	{ "lesson", required_argument, NULL, OPT_LESSON },
	{ "trace-format", required_argument, NULL, OPT_TRACE_FORMAT },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	{ "export", required_argument, NULL, OPT_EXPORT },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "export-chrome", required_argument, NULL, OPT_EXPORT_CHROME },
	{ "speed", required_argument, NULL, OPT_SPEED },
	{ "record", required_argument, NULL, OPT_RECORD },
	{ "judge", required_argument, NULL, OPT_JUDGE },
	{ "judge-timeout", required_argument, NULL, OPT_JUDGE_TIMEOUT },
	{ "judge-unconfined", no_argument, NULL, OPT_JUDGE_UNCONFINED },
	{ "judge-schedule", required_argument, NULL, OPT_JUDGE_SCHEDULE },
	{ "show-output", no_argument, NULL, OPT_SHOW_OUTPUT },
	{ "verify", required_argument, NULL, OPT_VERIFY },
	{ "compare", no_argument, NULL, OPT_COMPARE },
	{ "start-at", required_argument, NULL, OPT_START_AT },
	{ "theme", required_argument, NULL, OPT_THEME },
	{ "train", no_argument, NULL, OPT_TRAIN },
	{ "dC", required_argument, NULL, OPT_DC },
	{ "dA-out", required_argument, NULL, OPT_DA_OUT },
	{ "dB-out", required_argument, NULL, OPT_DB_OUT },
	{ "hw", required_argument, NULL, OPT_HW },
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "bw", required_argument, NULL, OPT_BW },
	{ "flops", required_argument, NULL, OPT_FLOPS },
	{ "collective", required_argument, NULL, OPT_COLLECTIVE },
	{ "algo", required_argument, NULL, OPT_ALGO },
	{ "bytes", required_argument, NULL, OPT_BYTES },
	{ "sweep", required_argument, NULL, OPT_SWEEP },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "timeline", no_argument, NULL, OPT_TIMELINE },
	{ "prefetch", no_argument, NULL, OPT_PREFETCH },
	{ "interview", required_argument, NULL, OPT_INTERVIEW },
	{ "interview-time", required_argument, NULL, OPT_INTERVIEW_TIME },
	{ "interview-restart", no_argument, NULL, OPT_INTERVIEW_RESTART },
	{ "params", required_argument, NULL, OPT_PARAMS },
	{ "gpu-mem", required_argument, NULL, OPT_GPU_MEM },
	{ "reduce-scatter", no_argument, NULL, OPT_REDUCE_SCATTER },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static const char cli_shortopts[] = ":bqd:m:M:K:N:A:B:E:P:o:hV";

/* Each option's given bit and the name messages use for it. */
static const struct cli_name {
	int code;
	cli_given_t bit;
	const char *name;
} cli_names[] = {
	{ 'b', CLI_GIVEN_BATCH, "-b" },
	{ 'q', CLI_GIVEN_QUIET, "-q" },
	{ 'd', CLI_GIVEN_DEVICES, "-d" },
	{ 'm', CLI_GIVEN_MODE, "-m" },
	{ 'M', CLI_GIVEN_M, "-M" },
	{ 'K', CLI_GIVEN_K, "-K" },
	{ 'N', CLI_GIVEN_N, "-N" },
	{ OPT_SEED, CLI_GIVEN_SEED, "--seed" },
	{ OPT_VALUES, CLI_GIVEN_VALUES, "--values" },
	{ 'A', CLI_GIVEN_A, "-A" },
	{ 'B', CLI_GIVEN_B, "-B" },
	{ 'o', CLI_GIVEN_OUT, "-o" },
	{ OPT_TRACE, CLI_GIVEN_TRACE, "--trace" },
	{ OPT_TRACE_FORMAT, CLI_GIVEN_TRACE_FORMAT, "--trace-format" },
	{ OPT_CAPACITY, CLI_GIVEN_CAPACITY, "--capacity" },
	{ OPT_NAIVE, CLI_GIVEN_NAIVE, "--naive" },
	{ OPT_BUG, CLI_GIVEN_BUG, "--bug" },
	{ OPT_PLAY, CLI_GIVEN_PLAY, "--play" },
	{ OPT_NO_COLOR, CLI_GIVEN_NO_COLOR, "--no-color" },
	{ OPT_ASCII, CLI_GIVEN_ASCII, "--ascii" },
	{ OPT_QUIZ, CLI_GIVEN_QUIZ, "--quiz" },
	{ OPT_LESSON, CLI_GIVEN_LESSON, "--lesson" },
	{ OPT_REPLAY, CLI_GIVEN_REPLAY, "--replay" },
	{ OPT_EXPORT, CLI_GIVEN_EXPORT, "--export" },
	{ OPT_SIZE, CLI_GIVEN_SIZE, "--size" },
	{ OPT_EXPORT_CHROME, CLI_GIVEN_EXPORT_CHROME, "--export-chrome" },
	{ OPT_SPEED, CLI_GIVEN_SPEED, "--speed" },
	{ OPT_RECORD, CLI_GIVEN_RECORD, "--record" },
	{ OPT_ORDER, CLI_GIVEN_ORDER, "--order" },
	{ OPT_FIX, CLI_GIVEN_FIX, "--fix" },
	{ OPT_JUDGE, CLI_GIVEN_JUDGE, "--judge" },
	{ OPT_JUDGE_TIMEOUT, CLI_GIVEN_JUDGE_TIMEOUT, "--judge-timeout" },
	{ OPT_JUDGE_UNCONFINED, CLI_GIVEN_JUDGE_UNCONFINED, "--judge-unconfined" },
	{ OPT_JUDGE_SCHEDULE, CLI_GIVEN_JUDGE_SCHEDULE, "--judge-schedule" },
	{ OPT_SHOW_OUTPUT, CLI_GIVEN_SHOW_OUTPUT, "--show-output" },
	{ OPT_VERIFY, CLI_GIVEN_VERIFY, "--verify" },
	{ OPT_COMPARE, CLI_GIVEN_COMPARE, "--compare" },
	{ OPT_START_AT, CLI_GIVEN_START_AT, "--start-at" },
	{ OPT_THEME, CLI_GIVEN_THEME, "--theme" },
	{ OPT_TRAIN, CLI_GIVEN_TRAIN, "--train" },
	{ OPT_DC, CLI_GIVEN_DC, "--dC" },
	{ OPT_DA_OUT, CLI_GIVEN_DA_OUT, "--dA-out" },
	{ OPT_DB_OUT, CLI_GIVEN_DB_OUT, "--dB-out" },
	/* no option of its own: OPT_QUIZ sets it beside --quiz's bit */
	{ OPT_QUIZ_DERIVE, CLI_GIVEN_DERIVE, "--quiz=derive" },
	{ OPT_HW, CLI_GIVEN_HW, "--hw" },
	{ OPT_ALPHA, CLI_GIVEN_ALPHA, "--alpha" },
	{ OPT_BW, CLI_GIVEN_BW, "--bw" },
	{ OPT_FLOPS, CLI_GIVEN_FLOPS, "--flops" },
	{ OPT_COLLECTIVE, CLI_GIVEN_COLLECTIVE, "--collective" },
	{ OPT_ALGO, CLI_GIVEN_ALGO, "--algo" },
	{ OPT_BYTES, CLI_GIVEN_BYTES, "--bytes" },
	{ OPT_SWEEP, CLI_GIVEN_SWEEP, "--sweep" },
	{ OPT_JSON, CLI_GIVEN_JSON, "--json" },
	{ OPT_TIMELINE, CLI_GIVEN_TIMELINE, "--timeline" },
	{ OPT_PREFETCH, CLI_GIVEN_PREFETCH, "--prefetch" },
	{ OPT_INTERVIEW, CLI_GIVEN_INTERVIEW, "--interview" },
	{ OPT_INTERVIEW_TIME, CLI_GIVEN_INTERVIEW_TIME, "--interview-time" },
	{ OPT_INTERVIEW_RESTART, CLI_GIVEN_INTERVIEW_RESTART, "--interview-restart" },
	{ OPT_PARAMS, CLI_GIVEN_PARAMS, "--params" },
	{ OPT_GPU_MEM, CLI_GIVEN_GPU_MEM, "--gpu-mem" },
	{ OPT_REDUCE_SCATTER, CLI_GIVEN_REDUCE_SCATTER, "--reduce-scatter" },
	{ 'E', CLI_GIVEN_E, "-E" },
	{ 'P', CLI_GIVEN_P, "-P" },
	{ OPT_ACT, CLI_GIVEN_ACT, "--act" },
};

const char *cli_option_name(cli_given_t given_bit)
{
	for (size_t i = 0; i < sizeof cli_names / sizeof cli_names[0]; i++)
		if (cli_names[i].bit == given_bit)
			return cli_names[i].name;
	return "";
}

static cli_given_t cli_bit_of(int code)
{
	for (size_t i = 0; i < sizeof cli_names / sizeof cli_names[0]; i++)
		if (cli_names[i].code == code)
			return cli_names[i].bit;
	return 0;
}

cli_given_t cli_first_bit(cli_given_t mask)
{
	return mask & -mask;
}

int cli_fail(char *err, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, size, fmt, ap);
	va_end(ap);
	return CLI_ERROR;
}

int cli_number(const char *s, unsigned long long lo, unsigned long long hi,
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

/* --naive, --order and --fix: the deadlock lab, one setting said three
 * ways.  Saying it twice is fine if both agree; two different answers are
 * refused rather than one silently winning. */
static int cli_order_option(int c, const char *arg, struct cli_opts *o, char *err, size_t size)
{
	char now[sizeof o->order_opt];
	int order;
	if (c == OPT_NAIVE) {
		order = ORDER_SEND_FIRST;
	} else if (c == OPT_ORDER) {
		if ((order = order_parse_order(arg)) < 0)
			return cli_fail(err, size, "unknown order '%s' (use send-first, recv-first or "
					"parity)", arg);
	} else if ((order = order_parse_fix(arg)) < 0) {
		return cli_fail(err, size, "unknown fix '%s' (use parity, recv-thread, sendrecv or "
				"buffered)", arg);
	}
	if (c == OPT_NAIVE)
		snprintf(now, sizeof now, "--naive");
	else
		snprintf(now, sizeof now, "%s %.30s", c == OPT_ORDER ? "--order" : "--fix", arg);
	if (o->order_opt[0] && order != o->order)
		return cli_fail(err, size, "%s and %s both say how a transfer is made: give one",
				o->order_opt, now);
	o->order = order;
	memcpy(o->order_opt, now, sizeof now);
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
	o->cols = CLI_DEFAULT_COLS;
	o->rows = CLI_DEFAULT_ROWS;
	o->order = ORDER_PARITY;
	o->judge_ms = CLI_JUDGE_MS;
	o->collective = o->sweep = o->drill = -1;
	o->bytes = CLI_DEFAULT_BYTES;
	o->interview_ms[0] = CLI_INTERVIEW_DP_MS;
	o->interview_ms[1] = CLI_INTERVIEW_FSDP_MS;
	o->gpu_mem_gb = CLI_DEFAULT_GPU_MEM_GB;
}

static int cli_option(int c, const char *arg, struct cli_opts *o, char *err, size_t size)
{
	unsigned long long v;
	o->given |= cli_bit_of(c);
	switch (c) {
	case 'b': o->batch = 1; break;
	case 'q': o->quiet = 1; break;
	case OPT_PLAY: o->play = 1; break;
	case OPT_NO_COLOR: o->no_color = 1; break;
	case OPT_ASCII: o->ascii = 1; break;
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
		else if (cli_tp_mode(arg, &o->mode))
			return cli_fail(err, size, "unknown mode '%s' (use fsdp, dp, tp-col, tp-row or "
					"tp-mlp)", arg);
		break;
	case 'M': return cli_size("-M (rows of A)", arg, &o->M, err, size);
	case 'K': return cli_size("-K (columns of A, rows of B)", arg, &o->K, err, size);
	case 'N': return cli_size("-N (columns of B)", arg, &o->N, err, size);
	case 'P': return cli_size("-P (columns of E and of Z)", arg, &o->P, err, size);
	case 'E': o->e_file = arg; break;
	case OPT_ACT: return cli_tp_act(arg, o, err, size);
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
		break;
	case OPT_QUIZ:
		o->given &= ~CLI_GIVEN_DERIVE; /* the last --quiz is the one that counts */
		o->drill = -1;
		if (!arg)
			o->quiz = 1;
		else if (strcmp(arg, "1") == 0 || strcmp(arg, "2") == 0)
			o->quiz = arg[0] - '0';
		else if (strcmp(arg, "derive") == 0) {
			o->quiz = CLI_QUIZ_DERIVE;
			o->given |= CLI_GIVEN_DERIVE;
		} else if ((o->drill = drill_set_find(arg)) >= 0) {
			o->quiz = 0; /* a drill of its own (cli_drill.c), not the run's quiz */
		} else
			return cli_fail(err, size, "quiz level must be 1, 2, derive, clock or tp, not "
					"'%s'", arg);
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
	case OPT_NAIVE:
	case OPT_ORDER:
	case OPT_FIX:
		return cli_order_option(c, arg, o, err, size);
	case 'A': o->a_file = arg; break;
	case 'B': o->b_file = arg; break;
	case 'o': o->out_file = arg; break;
	case OPT_TRACE: o->trace_file = arg; break;
	case OPT_LESSON: o->lesson_file = arg; break;
	case OPT_REPLAY: o->replay_file = arg; break;
	/* the classroom's options: where the interface opens, its theme */
	case OPT_START_AT:
		return cli_start_at(arg, o, err, size);
	case OPT_THEME:
		if (strcmp(arg, "projector") == 0)
			o->theme = CLI_THEME_PROJECTOR;
		else if (strcmp(arg, "light") == 0)
			o->theme = CLI_THEME_LIGHT;
		else if (strcmp(arg, "default") == 0)
			o->theme = CLI_THEME_DEFAULT;
		else
			return cli_fail(err, size, "unknown theme '%s' (use default, projector or light)",
					arg);
		break;
	case OPT_EXPORT: o->export_file = arg; break;
	case OPT_RECORD: o->record_file = arg; break;
	case OPT_SIZE: return cli_screen_size(arg, o, err, size);
	case OPT_EXPORT_CHROME:
		if (strcmp(arg, "none") && strcmp(arg, "full"))
			return cli_fail(err, size, "--export-chrome must be none or full, not '%s'", arg);
		o->export_chrome = arg[0] == 'n' ? CLI_CHROME_NONE : CLI_CHROME_FULL;
		break;
	case OPT_SPEED: return cli_speed(arg, o, err, size);
	case OPT_JUDGE: o->judge_file = arg; break;
	case OPT_JUDGE_UNCONFINED: o->judge_unconfined = 1; break;
	case OPT_SHOW_OUTPUT: o->show_output = 1; break;
	case OPT_JUDGE_SCHEDULE:
		if (cli_number(arg, 0, 1000000, &v))
			return cli_fail(err, size, "--judge-schedule must be a seed from 0 to 1000000, "
					"not '%s'", arg);
		o->judge_schedule = (unsigned)v;
		break;
	/* the training step */
	case OPT_TRAIN: o->train = 1; break;
	case OPT_DC: o->dc_file = arg; break;
	case OPT_DA_OUT: o->da_out_file = arg; break;
	case OPT_DB_OUT: o->db_out_file = arg; break;
	case OPT_JUDGE_TIMEOUT:
		if (cli_seconds(arg, &o->judge_ms))
			return cli_fail(err, size, "--judge-timeout must be seconds from 0.1 to 600, "
					"not '%s'", arg);
		break;
	case OPT_COMPARE: o->compare = 1; break;
	case OPT_HW:
	case OPT_ALPHA:
	case OPT_BW:
	case OPT_FLOPS:
	case OPT_COLLECTIVE:
	case OPT_ALGO:
	case OPT_BYTES:
	case OPT_SWEEP:
	case OPT_JSON:
	case OPT_TIMELINE:
	case OPT_PREFETCH:
		return cli_clock_option(cli_option_name(cli_bit_of(c)), arg, o, err, size);
	case OPT_INTERVIEW:
	case OPT_INTERVIEW_TIME:
	case OPT_INTERVIEW_RESTART:
		return cli_interview_option(cli_option_name(cli_bit_of(c)), arg, o, err, size);
	case OPT_REDUCE_SCATTER: o->reduce_scatter = 1; break;
	case OPT_PARAMS:
	case OPT_GPU_MEM:
		return cli_params_option(cli_option_name(cli_bit_of(c)), arg, o, err, size);
	case OPT_VERIFY:
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
			if ((r == CLI_BUG_LIST || r == CLI_HW_LIST) && action == CLI_RUN)
				action = r;
		}
		}
	}
	if (optind < argc)
		return cli_fail(err, err_size, "unexpected argument '%s' (see --help)", args[optind]);
	if (action != CLI_RUN)
		return action;
	int iv = cli_interview_check(o, err, err_size); /* the interview's own checks */
	if (iv)
		return iv < 0 ? CLI_ERROR : CLI_RUN;
	if (o->drill >= 0) /* a drill takes the look and, timed, the hardware */
		return cli_drill_check(o, err, err_size);
	if (o->given & (CLI_GIVEN_PARAMS | CLI_GIVEN_GPU_MEM)) { /* its own few options */
		int r = cli_params_check(o, err, err_size);
		if (r == CLI_ERROR || o->batch)
			return r; /* -b: the table alone; the interface runs and c shows it */
	}
	if (cli_tp_check(o, err, err_size) == CLI_ERROR) /* tensor parallel's few rules */
		return CLI_ERROR;
	if (cli_rules_check(o, err, err_size) == CLI_ERROR) /* cli_rules.c */
		return CLI_ERROR;
	if (cli_clock_check(o, err, err_size)) /* --prefetch's own */
		return CLI_ERROR;
	/* cut-off fractions only show when there are fractions */
	if (o->bug == BUG_INT_ACC && !(o->given & CLI_GIVEN_VALUES))
		o->values = MAT_VALUES_FLOATS;
	return CLI_RUN;
}

/* A lesson's set: keys and the options they override. */
static const struct cli_lesson_key {
	unsigned set_bit; /* LESSON_SET_* */
	cli_given_t given; /* CLI_GIVEN_* */
	const char *key;
} cli_lesson_keys[] = {
	{ LESSON_SET_MODE, CLI_GIVEN_MODE, "fsdp, dp, tp-col, tp-row or tp-mlp" },
	{ LESSON_SET_DEVICES, CLI_GIVEN_DEVICES, "devices=" },
	{ LESSON_SET_M, CLI_GIVEN_M, "M=" },
	{ LESSON_SET_K, CLI_GIVEN_K, "K=" },
	{ LESSON_SET_N, CLI_GIVEN_N, "N=" },
	{ LESSON_SET_VALUES, CLI_GIVEN_VALUES, "values=" },
	{ LESSON_SET_SEED, CLI_GIVEN_SEED, "seed=" },
	{ LESSON_SET_CAPACITY, CLI_GIVEN_CAPACITY, "capacity=" },
	{ LESSON_SET_ORDER, CLI_GIVEN_ORDERS, "naive, ordered, order= or fix=" },
	{ LESSON_SET_BUG, CLI_GIVEN_BUG, "bug=" },
	{ LESSON_SET_QUIZ, CLI_GIVEN_QUIZ, "quiz=" },
	{ LESSON_SET_TRAIN, CLI_GIVEN_TRAIN, "train or forward" },
	{ LESSON_SET_COLLECTIVE, CLI_GIVEN_COLLECTIVE, "collective=" },
	{ LESSON_SET_ALGO, CLI_GIVEN_ALGO, "algo=" },
	{ LESSON_SET_BYTES, CLI_GIVEN_BYTES, "bytes=" },
	{ LESSON_SET_HW, CLI_GIVEN_HW, "hw=" },
	{ LESSON_SET_PREFETCH, CLI_GIVEN_PREFETCH, "prefetch or no-prefetch" },
	{ LESSON_SET_TIMELINE, CLI_GIVEN_TIMELINE, "timeline" },
};

int cli_lesson_check(const struct cli_opts *o, unsigned lesson_set_has, char *err,
		     size_t err_size)
{
	for (size_t i = 0; i < sizeof cli_lesson_keys / sizeof cli_lesson_keys[0]; i++) {
		const struct cli_lesson_key *k = &cli_lesson_keys[i];
		if ((lesson_set_has & k->set_bit) && (o->given & k->given)) {
			snprintf(err, err_size,
				 "%s has no effect with --lesson %s: the lesson's first part sets it (%s)",
				 cli_option_name(cli_first_bit(o->given & k->given)),
				 o->lesson_file ? o->lesson_file : "",
				 k->key);
			return -1;
		}
	}
	return 0;
}
