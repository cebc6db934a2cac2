/* fuzz_cli: libFuzzer target for cli_parse (app/cli/cli.c).
 * The input is an argument list: the bytes split on NUL, at most
 * FUZZ_MAX_ARGS arguments (the rest of the input is ignored; a final NUL
 * ends the last argument rather than starting an empty one).  argv[0] is
 * "distmm-tui".  Every argument and the error buffer are heap blocks of
 * their exact size, so AddressSanitizer catches a read or write past one.
 *
 * Checks (cli.h): the result is one of the CLI_* values; on CLI_ERROR the
 * error is a non-empty terminated line; on CLI_RUN every option is in range
 * (a table of the fields and their ranges), every file name points into one
 * of our argument strings, what differs from the defaults was given (the
 * given bits), and no option is left that does nothing in the mode chosen
 * (a table of the README's rules, stated here on the parsed fields, not
 * taken from cli.c: DP refuses --naive, --order, --fix and every bug but
 * arrival-order); the order is the one --naive, --order or --fix named (two
 * that disagree are refused); a refusal names an option the line gave; a lesson
 * that sets nothing refuses nothing, and one that sets everything refuses
 * exactly the lines that gave one of its options; a second
 * call on the same arguments gives the same answer (cli_parse resets
 * getopt); argv is not modified, neither the strings nor the array ("argv
 * is not modified"); and the error line has no control character that is
 * not in some argument (it quotes arguments, but must not invent bytes).
 * And an error that names an option tells the truth about it, checked by
 * parsing that option alone: "unknown option 'T'" needs T alone to be
 * unknown too, "option 'T' takes no value" needs T alone to be accepted
 * and T=x refused the same way, "option 'T' needs a value" needs T alone to
 * need one.
 *
 * FUZZ_CLI_SKIP (environment) turns the last three checks off while a known
 * finding waits for its fix: a list of "argv", "ctrl" and/or "msg". */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/ccl.h>
#include "cli/cli.h"
#include "practice/drills.h"
#include "practice/lesson.h"
#include <distmm/mat.h>
#include <distmm/order.h>
#include <distmm/run.h>
#include <distmm/schedule.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_ARGS 32
#define FUZZ_ERR_SIZE 256

static int skip_argv_check, skip_ctrl_check, skip_msg_check;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *s = getenv("FUZZ_CLI_SKIP");
	(void)argc;
	(void)argv;
	if (s) {
		skip_argv_check = strstr(s, "argv") != NULL;
		skip_ctrl_check = strstr(s, "ctrl") != NULL;
		skip_msg_check = strstr(s, "msg") != NULL;
	}
	return 0;
}

/* The parsed arguments: strs[0] is argv[0], strs[1..n-1] the input's. */
struct args {
	int n;
	char *strs[FUZZ_MAX_ARGS + 1];
};

#define CHECK(cond)                                                   \
	do {                                                          \
		if (!(cond))                                          \
			fail(#cond, __LINE__);                        \
	} while (0)
/* For a table's row: the row's name says which check failed. */
#define CHECK_ROW(cond, name)                                         \
	do {                                                          \
		if (!(cond))                                          \
			fail(name, __LINE__);                         \
	} while (0)

/* The call being checked, for the report when a check fails. */
static const struct args *cur_args;
static char *const *cur_argv;
static const char *cur_err;

static void put_escaped(const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c < 0x20 || c >= 0x7f || c == '\\')
			fprintf(stderr, "\\x%02x", c);
		else
			fputc(c, stderr);
	}
}

static _Noreturn void fail(const char *cond, int line)
{
	fprintf(stderr, "fuzz_cli: check failed: %s (%s:%d)\n", cond, __FILE__, line);
	if (cur_args) {
		fprintf(stderr, "fuzz_cli: arguments:");
		for (int i = 1; i < cur_args->n; i++) {
			fputs(" '", stderr);
			put_escaped(cur_args->strs[i]);
			fputc('\'', stderr);
		}
		fputc('\n', stderr);
	}
	if (cur_argv && cur_args) {
		fprintf(stderr, "fuzz_cli: argv after the call:");
		for (int i = 1; i < cur_args->n; i++) {
			fputs(" '", stderr);
			put_escaped(cur_argv[i]);
			fputc('\'', stderr);
		}
		fputc('\n', stderr);
	}
	if (cur_err && memchr(cur_err, '\0', FUZZ_ERR_SIZE)) {
		fprintf(stderr, "fuzz_cli: error line: '");
		put_escaped(cur_err);
		fprintf(stderr, "'\n");
	}
	abort();
}

static char *dup_bytes(const uint8_t *p, size_t n)
{
	char *s = malloc(n + 1);
	CHECK(s != NULL);
	if (n)
		memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

static void split(struct args *a, const uint8_t *data, size_t size)
{
	size_t i = 0;
	a->n = 0;
	a->strs[a->n++] = dup_bytes((const uint8_t *)"distmm-tui", 10);
	while (i < size && a->n < FUZZ_MAX_ARGS + 1) {
		const uint8_t *nul = memchr(data + i, '\0', size - i);
		size_t len = nul ? (size_t)(nul - (data + i)) : size - i;
		a->strs[a->n++] = dup_bytes(data + i, len);
		i += len + 1; /* past the NUL (or past the end) */
	}
}

static void free_args(struct args *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->strs[i]);
}

/* A fresh argv over a's strings, NULL-terminated. */
static char **make_argv(const struct args *a)
{
	char **argv = malloc(((size_t)a->n + 1) * sizeof *argv);
	CHECK(argv != NULL);
	for (int i = 0; i < a->n; i++)
		argv[i] = a->strs[i];
	argv[a->n] = NULL;
	return argv;
}

/* p is NULL or points into (or at the terminator of) one of a's strings. */
static int in_args(const struct args *a, const char *p)
{
	if (!p)
		return 1;
	for (int i = 0; i < a->n; i++) {
		const char *s = a->strs[i];
		size_t len = strlen(s);
		if ((uintptr_t)p >= (uintptr_t)s && (uintptr_t)p <= (uintptr_t)(s + len))
			return 1;
	}
	return 0;
}

static int byte_in_args(const struct args *a, char c)
{
	for (int i = 1; i < a->n; i++)
		if (strchr(a->strs[i], c))
			return 1;
	return 0;
}

/* Parses the single argument t (plus argv[0]) into err. */
static int parse_alone(const char *t, char *err)
{
	struct cli_opts o;
	char *s = dup_bytes((const uint8_t *)t, strlen(t));
	char *argv[3] = { "distmm-tui", s, NULL };
	int rc = cli_parse(2, argv, &o, err, FUZZ_ERR_SIZE);
	free(s);
	return rc;
}

/* If e is "<pre>T<post>" with <post> ending it, copies T into t. */
static int quoted(const char *e, const char *pre, const char *post, char *t, size_t cap)
{
	size_t lp = strlen(pre), lq = strlen(post), le = strlen(e), n;
	if (le < lp + lq || strncmp(e, pre, lp) != 0 || strcmp(e + le - lq, post) != 0)
		return 0;
	n = le - lp - lq;
	if (n == 0 || n >= cap)
		return 0;
	memcpy(t, e + lp, n);
	t[n] = '\0';
	return 1;
}

static int starts(const char *s, const char *pre)
{
	return strncmp(s, pre, strlen(pre)) == 0;
}

/* An error naming an option is checked against that option parsed alone. */
static void check_msg(const char *e)
{
	char t[FUZZ_ERR_SIZE], e2[FUZZ_ERR_SIZE], tx[FUZZ_ERR_SIZE + 2];
	int rc;

	if (quoted(e, "unknown option '", "' (see --help)", t, sizeof t)) {
		if (strcmp(t, "--") == 0)
			return; /* "-b-": '-' is the unknown character */
		rc = parse_alone(t, e2);
		CHECK(rc == CLI_ERROR && starts(e2, "unknown option"));
	} else if (quoted(e, "option '", "' takes no value", t, sizeof t)) {
		rc = parse_alone(t, e2);
		CHECK(rc != CLI_ERROR || (!starts(e2, "unknown option") &&
					  !strstr(e2, "needs a value")));
		snprintf(tx, sizeof tx, "%s=x", t);
		rc = parse_alone(tx, e2);
		CHECK(rc == CLI_ERROR && strcmp(e, e2) == 0);
	} else if (quoted(e, "option '", "' needs a value", t, sizeof t)) {
		rc = parse_alone(t, e2);
		CHECK(rc == CLI_ERROR && strcmp(e, e2) == 0);
	}
}

/* The int fields and their ranges. */
static const struct int_field {
	const char *name;
	size_t off;
	int lo, hi;
} int_fields[] = {
	{ "batch", offsetof(struct cli_opts, batch), 0, 1 },
	{ "quiet", offsetof(struct cli_opts, quiet), 0, 1 },
	{ "play", offsetof(struct cli_opts, play), 0, 1 },
	{ "no_color", offsetof(struct cli_opts, no_color), 0, 1 },
	{ "ascii", offsetof(struct cli_opts, ascii), 0, 1 },
	{ "order", offsetof(struct cli_opts, order), ORDER_PARITY, ORDER_COUNT - 1 },
	{ "devices", offsetof(struct cli_opts, devices), 1, RUN_MAX_DEVICES },
	{ "mode", offsetof(struct cli_opts, mode), DM_FSDP, DM_TP_MLP },
	{ "act", offsetof(struct cli_opts, act), DM_ACT_RELU, DM_ACT_COUNT - 1 },
	{ "values", offsetof(struct cli_opts, values), MAT_VALUES_INTS, MAT_VALUES_FLOATS },
	{ "bug", offsetof(struct cli_opts, bug), BUG_NONE, BUG_COUNT - 1 },
	{ "quiz", offsetof(struct cli_opts, quiz), 0, CLI_QUIZ_DERIVE },
	{ "trace_format", offsetof(struct cli_opts, trace_format), CLI_TRACE_JSONL, CLI_TRACE_CHROME },
	{ "start_kind", offsetof(struct cli_opts, start_kind), CLI_START_READY, CLI_START_LAST },
	{ "start_step", offsetof(struct cli_opts, start_step), 0, RUN_MAX_DEVICES - 1 },
	{ "theme", offsetof(struct cli_opts, theme), CLI_THEME_DEFAULT, CLI_THEME_LIGHT },
	{ "export_chrome", offsetof(struct cli_opts, export_chrome), CLI_CHROME_AUTO, CLI_CHROME_FULL },
	{ "train", offsetof(struct cli_opts, train), 0, 1 },
	{ "judge_unconfined", offsetof(struct cli_opts, judge_unconfined), 0, 1 },
	{ "collective", offsetof(struct cli_opts, collective), -1, CCL_KIND_COUNT - 1 },
	{ "sweep", offsetof(struct cli_opts, sweep), -1, CCL_KIND_COUNT - 1 },
	{ "algo", offsetof(struct cli_opts, algo), CCL_RING, CCL_ALGO_COUNT - 1 },
	{ "json", offsetof(struct cli_opts, json), 0, 1 },
	{ "timeline", offsetof(struct cli_opts, timeline), 0, 1 },
};

/* The sizes: 0 (not given) or 1 to RUN_MAX_DIM. */
static const struct size_field {
	const char *name;
	size_t off;
} size_fields[] = {
	{ "M", offsetof(struct cli_opts, M) },
	{ "K", offsetof(struct cli_opts, K) },
	{ "N", offsetof(struct cli_opts, N) },
	{ "P", offsetof(struct cli_opts, P) },
};

/* The file names: NULL or inside one of our arguments. */
static const struct file_field {
	const char *name;
	size_t off;
} file_fields[] = {
	{ "a_file", offsetof(struct cli_opts, a_file) },
	{ "b_file", offsetof(struct cli_opts, b_file) },
	{ "out_file", offsetof(struct cli_opts, out_file) },
	{ "trace_file", offsetof(struct cli_opts, trace_file) },
	{ "lesson_file", offsetof(struct cli_opts, lesson_file) },
	{ "replay_file", offsetof(struct cli_opts, replay_file) },
	{ "dc_file", offsetof(struct cli_opts, dc_file) },
	{ "da_out_file", offsetof(struct cli_opts, da_out_file) },
	{ "db_out_file", offsetof(struct cli_opts, db_out_file) },
	{ "e_file", offsetof(struct cli_opts, e_file) },
	{ "hw", offsetof(struct cli_opts, hw) },
};

static int field_int(const struct cli_opts *o, size_t off)
{
	int v;
	memcpy(&v, (const char *)o + off, sizeof v);
	return v;
}

/* What the parsed options say about the mode, for the rules below. */
enum {
	IN_BATCH = 1 << 0, IN_INTERFACE = 1 << 1, IN_REPLAY = 1 << 2, IN_DP = 1 << 3,
	NO_TRACE = 1 << 4, BOTH_FILES = 1 << 5, RING_BUG = 1 << 6, IN_EXPORT = 1 << 7,
	NO_EXPORT = 1 << 8, IN_JUDGE = 1 << 9, NO_JUDGE = 1 << 10, IN_LESSON = 1 << 11,
	IN_TRAIN = 1 << 12, NO_TRAIN = 1 << 13, NO_GRADS = 1 << 14, FWD_BUG = 1 << 15,
	BWD_BUG = 1 << 16, IN_CCL = 1 << 17, NO_CCL = 1 << 18, IN_SWEEP = 1 << 19,
	NO_SWEEP = 1 << 20, IN_PARAMS = 1 << 21, NO_PARAMS = 1 << 22,
	IN_TP = 1 << 23, NO_TP_ROW = 1 << 24, IN_TP_COL = 1 << 25, IN_DRILL = 1 << 26,
	UNTIMED_DRILL = 1 << 27, IN_TP_MLP = 1 << 28, NO_TP_MLP = 1 << 29, IN_INTERVIEW = 1 << 30,
};

static int is_backward_bug(int bug)
{
	return bug == BUG_RS_OFF_BY_ONE || bug == BUG_NO_SUM;
}

static unsigned mode_of(const struct cli_opts *o)
{
	/* with --train (or a replay, which may be of one) and no --dC, dC comes
	 * from the seed */
	int generates = !(o->a_file && o->b_file) || (o->mode == DM_TP_MLP && !o->e_file) ||
			((o->train || o->replay_file) && !o->dc_file);
	return (o->batch ? IN_BATCH : IN_INTERFACE) | (o->replay_file ? IN_REPLAY : 0) |
	       (o->mode == DM_DP ? IN_DP : 0) | (o->trace_file ? 0 : NO_TRACE) |
	       (generates ? 0 : BOTH_FILES) |
	       /* DP's one bug of the forward is arrival-order, the gather's; the
		* others are the ring's; the backward's are DP's too */
	       (o->bug != BUG_NONE && o->bug != BUG_ARRIVAL_ORDER && !is_backward_bug(o->bug)
			? RING_BUG : 0) |
	       (o->export_file ? IN_EXPORT : NO_EXPORT) | (o->judge_file ? IN_JUDGE : 0u) |
	       /* no judge: neither --judge nor the interview, which judges each save */
	       (o->judge_file || o->interview_file ? 0u : NO_JUDGE) |
	       (o->interview_file ? IN_INTERVIEW : 0u) |
	       (o->lesson_file ? IN_LESSON : 0) |
	       (o->train ? IN_TRAIN : NO_TRAIN) | (o->train || o->replay_file ? 0 : NO_GRADS) |
	       (o->bug == BUG_NONE ? 0 : is_backward_bug(o->bug) ? BWD_BUG : FWD_BUG) |
	       (o->collective >= 0 ? IN_CCL : NO_CCL) | (o->sweep >= 0 ? IN_SWEEP : NO_SWEEP) |
	       (o->params ? IN_PARAMS : NO_PARAMS) |
	       (o->mode == DM_TP_COL || o->mode == DM_TP_ROW || o->mode == DM_TP_MLP ? IN_TP : 0u) |
	       (o->mode == DM_TP_ROW ? 0u : NO_TP_ROW) | (o->mode == DM_TP_COL ? IN_TP_COL : 0u) |
	       (o->mode == DM_TP_MLP ? IN_TP_MLP : NO_TP_MLP) |
	       (o->drill >= 0 ? IN_DRILL : 0u) | (o->drill == DRILL_TP ? UNTIMED_DRILL : 0u);
}

/* What a multiply has and a collective or the sweep has not (docs/clock.md). */
#define MATRICES_ONLY                                                                         \
	(CLI_GIVEN_MODE | CLI_GIVEN_M | CLI_GIVEN_K | CLI_GIVEN_N | CLI_GIVEN_A | CLI_GIVEN_B |    \
	 CLI_GIVEN_OUT | CLI_GIVEN_NAIVE | CLI_GIVEN_ORDER | CLI_GIVEN_FIX | CLI_GIVEN_BUG |       \
	 CLI_GIVEN_TRAIN | CLI_GIVEN_DC | CLI_GIVEN_DA_OUT | CLI_GIVEN_DB_OUT | CLI_GIVEN_COMPARE | \
	 CLI_GIVEN_VERIFY | CLI_GIVEN_TRACE)
#define CLOCK_MODEL (CLI_GIVEN_HW | CLI_GIVEN_ALPHA | CLI_GIVEN_BW | CLI_GIVEN_FLOPS)

/* The README's options that do nothing in a mode: on CLI_RUN, none of
 * `forbidden` was given where `where` holds. */
static const struct mode_rule {
	const char *name;
	unsigned where;
	cli_given_t forbidden;
} mode_rules[] = {
	{ "the interface's options with -b", IN_BATCH,
	  CLI_GIVEN_PLAY | CLI_GIVEN_QUIZ | CLI_GIVEN_LESSON | CLI_GIVEN_NO_COLOR | CLI_GIVEN_ASCII |
		  CLI_GIVEN_EXPORT | CLI_GIVEN_RECORD | CLI_GIVEN_SPEED | CLI_GIVEN_START_AT |
		  CLI_GIVEN_THEME },
	{ "batch's options without -b", IN_INTERFACE,
	  CLI_GIVEN_QUIET | CLI_GIVEN_OUT | CLI_GIVEN_TRACE | CLI_GIVEN_VERIFY | CLI_GIVEN_COMPARE },
	{ "--size without --export", NO_EXPORT, CLI_GIVEN_SIZE },
	{ "--start-at with --lesson (each part starts at its beginning)", IN_LESSON,
	  CLI_GIVEN_START_AT },
	{ "what an export cannot do", IN_EXPORT, CLI_GIVEN_RECORD | CLI_GIVEN_PLAY | CLI_GIVEN_QUIZ },
	{ "what the interview takes (the look and the judge's limits)", IN_INTERVIEW,
	  CLI_GIVEN_ALL & ~(CLI_GIVEN_INTERVIEW | CLI_GIVEN_INTERVIEW_TIME |
			    CLI_GIVEN_INTERVIEW_RESTART | CLI_GIVEN_NO_COLOR | CLI_GIVEN_ASCII |
			    CLI_GIVEN_THEME | CLI_GIVEN_JUDGE_TIMEOUT | CLI_GIVEN_JUDGE_UNCONFINED) },
	{ "--judge-timeout and --judge-unconfined without --judge or --interview", NO_JUDGE,
	  CLI_GIVEN_JUDGE_TIMEOUT | CLI_GIVEN_JUDGE_UNCONFINED },
	/* without -b the judge opens the interface on its case: --export and
	 * --record show that run; the quiz has nothing to ask of it */
	{ "the engine's inputs and orders with --judge", IN_JUDGE,
	  CLI_GIVEN_A | CLI_GIVEN_B | CLI_GIVEN_OUT | CLI_GIVEN_NAIVE | CLI_GIVEN_ORDER |
		  CLI_GIVEN_FIX | CLI_GIVEN_BUG | CLI_GIVEN_REPLAY | CLI_GIVEN_LESSON | CLI_GIVEN_QUIZ |
		  CLI_GIVEN_TRAIN | CLI_GIVEN_DC | CLI_GIVEN_DA_OUT | CLI_GIVEN_DB_OUT },
	{ "--trace-format without --trace", NO_TRACE, CLI_GIVEN_TRACE_FORMAT },
	{ "what the trace says, with --replay", IN_REPLAY,
	  CLI_GIVEN_DEVICES | CLI_GIVEN_MODE | CLI_GIVEN_CAPACITY | CLI_GIVEN_NAIVE |
		  CLI_GIVEN_ORDER | CLI_GIVEN_FIX | CLI_GIVEN_QUIZ | CLI_GIVEN_LESSON |
		  CLI_GIVEN_TRACE },
	{ "the ring's orders with -m dp", IN_DP,
	  CLI_GIVEN_NAIVE | CLI_GIVEN_ORDER | CLI_GIVEN_FIX },
	{ "a ring's bug with -m dp", IN_DP | RING_BUG, CLI_GIVEN_BUG },
	/* the practice asks for the ring's rule, on a run that follows it, with
	 * no lesson's captions saying it */
	{ "--quiz=derive with -m dp", IN_DP, CLI_GIVEN_DERIVE },
	{ "--quiz=derive with a ring's bug", RING_BUG, CLI_GIVEN_DERIVE },
	{ "--quiz=derive with --lesson", IN_LESSON, CLI_GIVEN_DERIVE },
	{ "the generator's options with both files", BOTH_FILES,
	  CLI_GIVEN_SEED | CLI_GIVEN_VALUES },
	{ "--train with --replay", IN_REPLAY, CLI_GIVEN_TRAIN },
	{ "the gradients' files without --train or --replay", NO_GRADS,
	  CLI_GIVEN_DC | CLI_GIVEN_DA_OUT | CLI_GIVEN_DB_OUT },
	{ "the gradients' output files without -b", IN_INTERFACE,
	  CLI_GIVEN_DA_OUT | CLI_GIVEN_DB_OUT },
	{ "the ring's orders with --train", IN_TRAIN,
	  CLI_GIVEN_NAIVE | CLI_GIVEN_ORDER | CLI_GIVEN_FIX },
	{ "a forward's bug with --train", IN_TRAIN | FWD_BUG, CLI_GIVEN_BUG },
	{ "--compare with --train", IN_TRAIN, CLI_GIVEN_COMPARE },
	{ "a backward's bug without --train", NO_TRAIN | BWD_BUG, CLI_GIVEN_BUG },
	/* the clock (docs/clock.md): the sweep is batch mode's, a collective both's; the
	 * model is everyone's */
	{ "the sweep without -b", IN_INTERFACE, CLI_GIVEN_SWEEP | CLI_GIVEN_JSON },
	{ "what the interface's collective does not do yet", IN_INTERFACE | IN_CCL,
	  CLI_GIVEN_LESSON | CLI_GIVEN_QUIZ | CLI_GIVEN_DERIVE | CLI_GIVEN_START_AT |
		  CLI_GIVEN_EXPORT | CLI_GIVEN_RECORD },
	{ "--timeline with the interface's collective", IN_INTERFACE | IN_CCL, CLI_GIVEN_TIMELINE },
	{ "the clock with --judge", IN_JUDGE,
	  CLI_GIVEN_COLLECTIVE | CLI_GIVEN_SWEEP | CLOCK_MODEL | CLI_GIVEN_TIMELINE },
	/* --prefetch overlaps FSDP's correct ring, in batch mode and the interface */
	{ "--prefetch where no ring of B's shards runs", IN_DP, CLI_GIVEN_PREFETCH },
	{ "--prefetch with tensor parallel", IN_TP, CLI_GIVEN_PREFETCH },
	{ "--prefetch with a bug", FWD_BUG, CLI_GIVEN_PREFETCH },
	{ "--prefetch with a backward's bug", BWD_BUG, CLI_GIVEN_PREFETCH },
	{ "--prefetch with --judge", IN_JUDGE, CLI_GIVEN_PREFETCH },
	{ "--prefetch with --replay", IN_REPLAY, CLI_GIVEN_PREFETCH },
	{ "--prefetch with a collective", IN_CCL, CLI_GIVEN_PREFETCH },
	{ "--prefetch with the sweep", IN_SWEEP, CLI_GIVEN_PREFETCH },
	{ "--prefetch with --lesson", IN_LESSON, CLI_GIVEN_PREFETCH },
	{ "the clock's runs with --replay", IN_REPLAY, CLI_GIVEN_COLLECTIVE | CLI_GIVEN_SWEEP },
	{ "--sweep with --collective", IN_CCL, CLI_GIVEN_SWEEP },
	{ "--algo, --bytes without --collective", NO_CCL, CLI_GIVEN_ALGO | CLI_GIVEN_BYTES },
	{ "--json without --sweep or --params", NO_SWEEP | NO_PARAMS, CLI_GIVEN_JSON },
	/* the memory argument: the closed forms alone, with -b */
	{ "--params with --export", IN_EXPORT, CLI_GIVEN_PARAMS },
	{ "--gpu-mem without --params", NO_PARAMS, CLI_GIVEN_GPU_MEM },
	/* tensor parallel: the forward, and tp-col's and tp-row's training step
	 * in batch mode alone */
	{ "--reduce-scatter without -m tp-row", NO_TP_ROW, CLI_GIVEN_REDUCE_SCATTER },
	{ "tp-mlp's second layer without -m tp-mlp", NO_TP_MLP,
	  CLI_GIVEN_E | CLI_GIVEN_P | CLI_GIVEN_ACT },
	{ "--reduce-scatter with -m tp-mlp", IN_TP_MLP, CLI_GIVEN_REDUCE_SCATTER },
	{ "--reduce-scatter with --train", IN_TRAIN, CLI_GIVEN_REDUCE_SCATTER },
	{ "tensor parallel's --train in the interface", IN_TP | IN_INTERFACE, CLI_GIVEN_TRAIN },
	{ "tp-mlp's training step (not written yet)", IN_TP_MLP,
	  CLI_GIVEN_TRAIN | CLI_GIVEN_DC | CLI_GIVEN_DA_OUT | CLI_GIVEN_DB_OUT },
	{ "tp-mlp's traces and --replay (not written yet)", IN_TP_MLP,
	  CLI_GIVEN_TRACE | CLI_GIVEN_TRACE_FORMAT | CLI_GIVEN_REPLAY },
	{ "what tensor parallel does not do yet (tp-col's and tp-row's traces and --replay it does)",
	  IN_TP,
	  CLI_GIVEN_BUG | CLI_GIVEN_NAIVE | CLI_GIVEN_ORDER | CLI_GIVEN_FIX | CLOCK_MODEL |
		  CLI_GIVEN_TIMELINE | CLI_GIVEN_COMPARE | CLI_GIVEN_LESSON | CLI_GIVEN_QUIZ },
	/* the judge runs tensor parallel's functions (docs/judge.md): its
	 * --capacity is its queues', the all-reduce is the contract, and the
	 * judged view replays DP and FSDP alone */
	{ "--capacity with tensor parallel's engine runs", IN_TP | NO_JUDGE, CLI_GIVEN_CAPACITY },
	{ "--reduce-scatter with --judge", IN_JUDGE, CLI_GIVEN_REDUCE_SCATTER },
	{ "a trace of tensor parallel's judged run (no log yet)", IN_TP | IN_JUDGE,
	  CLI_GIVEN_TRACE | CLI_GIVEN_TRACE_FORMAT },
	{ "tensor parallel's judge without -b", IN_TP | IN_JUDGE | IN_INTERFACE, CLI_GIVEN_MODE },
	{ "the judge with tp-mlp (not judged yet)", IN_TP_MLP, CLI_GIVEN_JUDGE },
	{ "what a drill takes (--quiz=clock|tp: the look, and the clock's the hardware)", IN_DRILL,
	  CLI_GIVEN_ALL & ~(CLI_GIVEN_QUIZ | CLI_GIVEN_NO_COLOR | CLI_GIVEN_ASCII | CLI_GIVEN_THEME |
			    CLI_GIVEN_DEVICES | CLI_GIVEN_HW | CLI_GIVEN_ALPHA | CLI_GIVEN_BW |
			    CLI_GIVEN_FLOPS) },
	{ "what --quiz=tp's untimed questions leave out", UNTIMED_DRILL,
	  CLI_GIVEN_DEVICES | CLI_GIVEN_HW | CLI_GIVEN_ALPHA | CLI_GIVEN_BW | CLI_GIVEN_FLOPS },
	{ "what runs with -b --params", IN_PARAMS | IN_BATCH,
	  CLI_GIVEN_ALL & ~(CLI_GIVEN_BATCH | CLI_GIVEN_DEVICES | CLI_GIVEN_JSON | CLI_GIVEN_PARAMS |
			    CLI_GIVEN_GPU_MEM) },
	{ "a multiply's options with --collective", IN_CCL, MATRICES_ONLY | CLI_GIVEN_FLOPS },
	{ "what runs with --sweep", IN_SWEEP,
	  MATRICES_ONLY | CLI_GIVEN_FLOPS | CLI_GIVEN_SEED | CLI_GIVEN_VALUES | CLI_GIVEN_CAPACITY |
		  CLI_GIVEN_QUIET | CLI_GIVEN_TIMELINE },
};

#define COUNT(t) (sizeof(t) / sizeof((t)[0]))

/* A refusal names one option the line gave, and says it does nothing. */
static void check_refusal(const struct cli_opts *o, const char *e)
{
	const char *name = cli_option_name(o->refused);
	size_t len = strlen(name);
	CHECK((o->refused & (o->refused - 1)) == 0); /* one option */
	CHECK((o->given & o->refused) != 0);
	CHECK(len > 0 && strncmp(e, name, len) == 0 && starts(e + len, " has no effect with"));
}

static void check_opts(const struct args *a, const struct cli_opts *o)
{
	for (size_t i = 0; i < COUNT(int_fields); i++) {
		int v = field_int(o, int_fields[i].off);
		CHECK_ROW(v >= int_fields[i].lo && v <= int_fields[i].hi, int_fields[i].name);
	}
	for (size_t i = 0; i < COUNT(size_fields); i++) {
		size_t v;
		memcpy(&v, (const char *)o + size_fields[i].off, sizeof v);
		CHECK_ROW(v == 0 || (v >= 1 && v <= RUN_MAX_DIM), size_fields[i].name);
	}
	/* the order as the line set it: --naive is send-first, any other than
	 * the default was set by one of the three options, which named it */
	CHECK((o->order_opt[0] != '\0') == ((o->given & CLI_GIVEN_ORDERS) != 0));
	CHECK(o->order == ORDER_PARITY || o->order_opt[0]);
	CHECK(!(o->given & CLI_GIVEN_NAIVE) || o->order == ORDER_SEND_FIRST);
	CHECK(!(o->given & CLI_GIVEN_FIX) || order_is_fix(o->order));
	CHECK(!(o->given & CLI_GIVEN_ORDER) || !order_is_fix(o->order) ||
	      o->order == ORDER_PARITY);
	CHECK(o->capacity == RUN_UNBOUNDED || o->capacity <= 1000000);
	/* the clock's values: in their ranges, --bytes whole doubles */
	CHECK(o->bytes >= 8 && o->bytes % 8 == 0 && o->bytes <= (UINT64_C(16) << 30));
	CHECK(o->alpha_us >= 0 && o->alpha_us <= 1e6);
	CHECK(o->bw_gbps >= 0 && o->bw_gbps <= 1e6 && (o->bw_gbps > 0) == !!(o->given & CLI_GIVEN_BW));
	CHECK(o->params <= UINT64_C(1000000000000000) && o->gpu_mem_gb > 0 && o->gpu_mem_gb <= 1e6);
	CHECK(o->tflops >= 0 && o->tflops <= 1e6 &&
	      (o->tflops > 0) == !!(o->given & CLI_GIVEN_FLOPS));
	for (size_t i = 0; i < COUNT(file_fields); i++) {
		const char *p;
		memcpy(&p, (const char *)o + file_fields[i].off, sizeof p);
		CHECK_ROW(in_args(a, p), file_fields[i].name);
	}

	/* what differs from the defaults was on the line: a value other than
	 * the default was given (the converse need not hold: "-d 4") */
	CHECK((o->given & ~CLI_GIVEN_ALL) == 0);
	const struct {
		const char *name;
		cli_given_t bit;
		bool differs;
	} given[] = {
		{ "-b", CLI_GIVEN_BATCH, o->batch != 0 },
		{ "-q", CLI_GIVEN_QUIET, o->quiet != 0 },
		{ "-d", CLI_GIVEN_DEVICES, o->devices != 4 },
		{ "-m", CLI_GIVEN_MODE, o->mode != DM_FSDP },
		{ "-M", CLI_GIVEN_M, o->M != 0 },
		{ "-K", CLI_GIVEN_K, o->K != 0 },
		{ "-N", CLI_GIVEN_N, o->N != 0 },
		{ "--seed", CLI_GIVEN_SEED, o->seed != CLI_DEFAULT_SEED },
		/* --bug int-accumulator makes floats of its own */
		{ "--values", CLI_GIVEN_VALUES, o->values != MAT_VALUES_INTS && o->bug != BUG_INT_ACC },
		{ "-A", CLI_GIVEN_A, o->a_file != NULL },
		{ "-B", CLI_GIVEN_B, o->b_file != NULL },
		{ "-o", CLI_GIVEN_OUT, o->out_file != NULL },
		{ "--trace", CLI_GIVEN_TRACE, o->trace_file != NULL },
		{ "--trace-format", CLI_GIVEN_TRACE_FORMAT, o->trace_format != CLI_TRACE_JSONL },
		{ "--capacity", CLI_GIVEN_CAPACITY, o->capacity != RUN_UNBOUNDED },
		{ "--naive, --order or --fix", CLI_GIVEN_NAIVE | CLI_GIVEN_ORDER | CLI_GIVEN_FIX,
		  o->order != ORDER_PARITY },
		{ "--bug", CLI_GIVEN_BUG, o->bug != BUG_NONE },
		{ "--play", CLI_GIVEN_PLAY, o->play != 0 },
		{ "--no-color", CLI_GIVEN_NO_COLOR, o->no_color != 0 },
		{ "--ascii", CLI_GIVEN_ASCII, o->ascii != 0 },
		{ "--quiz", CLI_GIVEN_QUIZ, o->quiz != 0 },
		{ "--lesson", CLI_GIVEN_LESSON, o->lesson_file != NULL },
		{ "--replay", CLI_GIVEN_REPLAY, o->replay_file != NULL },
		{ "--export", CLI_GIVEN_EXPORT, o->export_file != NULL },
		{ "--export-chrome", CLI_GIVEN_EXPORT_CHROME, o->export_chrome != CLI_CHROME_AUTO },
		{ "--record", CLI_GIVEN_RECORD, o->record_file != NULL },
		{ "--judge", CLI_GIVEN_JUDGE, o->judge_file != NULL },
		{ "--judge-timeout", CLI_GIVEN_JUDGE_TIMEOUT, o->judge_ms != CLI_JUDGE_MS },
		{ "--judge-unconfined", CLI_GIVEN_JUDGE_UNCONFINED, o->judge_unconfined != 0 },
		{ "--verify", CLI_GIVEN_VERIFY, o->verify != CLI_VERIFY_AUTO },
		{ "--compare", CLI_GIVEN_COMPARE, o->compare != 0 },
		{ "--start-at", CLI_GIVEN_START_AT, o->start_kind != CLI_START_READY },
		{ "--theme", CLI_GIVEN_THEME, o->theme != CLI_THEME_DEFAULT },
		{ "--train", CLI_GIVEN_TRAIN, o->train != 0 },
		{ "--dC", CLI_GIVEN_DC, o->dc_file != NULL },
		{ "--dA-out", CLI_GIVEN_DA_OUT, o->da_out_file != NULL },
		{ "--dB-out", CLI_GIVEN_DB_OUT, o->db_out_file != NULL },
		{ "--quiz=derive", CLI_GIVEN_DERIVE, o->quiz == CLI_QUIZ_DERIVE },
		{ "--hw", CLI_GIVEN_HW, o->hw != NULL },
		{ "--alpha", CLI_GIVEN_ALPHA, o->alpha_us != 0 },
		{ "--collective", CLI_GIVEN_COLLECTIVE, o->collective != -1 },
		{ "--algo", CLI_GIVEN_ALGO, o->algo != CCL_RING },
		{ "--bytes", CLI_GIVEN_BYTES, o->bytes != CLI_DEFAULT_BYTES },
		{ "--sweep", CLI_GIVEN_SWEEP, o->sweep != -1 },
		{ "--json", CLI_GIVEN_JSON, o->json != 0 },
		{ "--timeline", CLI_GIVEN_TIMELINE, o->timeline != 0 },
		{ "--params", CLI_GIVEN_PARAMS, o->params != 0 },
		{ "--gpu-mem", CLI_GIVEN_GPU_MEM, o->gpu_mem_gb != CLI_DEFAULT_GPU_MEM_GB },
		{ "--reduce-scatter", CLI_GIVEN_REDUCE_SCATTER, o->reduce_scatter != 0 },
		{ "-E", CLI_GIVEN_E, o->e_file != NULL },
		{ "-P", CLI_GIVEN_P, o->P != 0 },
		{ "--act", CLI_GIVEN_ACT, o->act != DM_ACT_RELU },
	};
	for (size_t i = 0; i < COUNT(given); i++)
		CHECK_ROW(!given[i].differs || (o->given & given[i].bit), given[i].name);
	/* derive's bit is the last --quiz's word, and never without --quiz's */
	CHECK(!(o->given & CLI_GIVEN_DERIVE) || o->quiz == CLI_QUIZ_DERIVE);
	CHECK(!(o->given & CLI_GIVEN_DERIVE) || (o->given & CLI_GIVEN_QUIZ));

	/* nothing left that does nothing */
	unsigned m = mode_of(o);
	for (size_t i = 0; i < COUNT(mode_rules); i++)
		if ((m & mode_rules[i].where) == mode_rules[i].where)
			CHECK_ROW((o->given & mode_rules[i].forbidden) == 0, mode_rules[i].name);
	CHECK(o->refused == 0);

	/* a lesson that sets nothing refuses nothing; one that sets every key
	 * refuses exactly a line that gave one of them, and names it */
	char e[FUZZ_ERR_SIZE];
	const cli_given_t keys = CLI_GIVEN_MODE | CLI_GIVEN_DEVICES | CLI_GIVEN_M | CLI_GIVEN_K |
			      CLI_GIVEN_N | CLI_GIVEN_VALUES | CLI_GIVEN_SEED | CLI_GIVEN_CAPACITY |
			      CLI_GIVEN_NAIVE | CLI_GIVEN_ORDER | CLI_GIVEN_FIX | CLI_GIVEN_BUG |
			      CLI_GIVEN_QUIZ | CLI_GIVEN_TRAIN;
	const unsigned every = LESSON_SET_MODE | LESSON_SET_DEVICES | LESSON_SET_M | LESSON_SET_K |
			       LESSON_SET_N | LESSON_SET_VALUES | LESSON_SET_SEED |
			       LESSON_SET_CAPACITY | LESSON_SET_ORDER | LESSON_SET_BUG |
			       LESSON_SET_QUIZ | LESSON_SET_TRAIN;
	CHECK(cli_lesson_check(o, 0, e, sizeof e) == 0);
	int rc = cli_lesson_check(o, every, e, sizeof e);
	CHECK((rc != 0) == ((o->given & keys) != 0));
	if (rc)
		CHECK(strstr(e, " has no effect with --lesson ") != NULL && e[0] == '-');
}

/* Two parses of the same arguments agree on every field.  The whole struct
 * is compared, so fields added later are covered too: cli_parse clears it
 * (memset in cli_defaults) before filling it, padding included. */
static int same_opts(const struct cli_opts *x, const struct cli_opts *y)
{
	return memcmp(x, y, sizeof *x) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct args a, orig;
	struct cli_opts o, o2;
	char **argv, **argv2;
	char *err = malloc(FUZZ_ERR_SIZE), *err2 = malloc(FUZZ_ERR_SIZE);
	int rc, rc2;

	CHECK(err != NULL && err2 != NULL);
	split(&a, data, size);
	argv = make_argv(&a);
	memset(err, 'X', FUZZ_ERR_SIZE);
	memset(&o, 0xa5, sizeof o);

	cur_args = &a;
	cur_argv = argv;
	cur_err = NULL;
	rc = cli_parse(a.n, argv, &o, err, FUZZ_ERR_SIZE);
	if (rc == CLI_ERROR)
		cur_err = err;

	CHECK(rc == CLI_RUN || rc == CLI_HELP || rc == CLI_VERSION || rc == CLI_ERROR ||
	      rc == CLI_BUG_LIST || rc == CLI_HW_LIST);
	if (rc == CLI_ERROR) {
		size_t len;
		CHECK(memchr(err, '\0', FUZZ_ERR_SIZE) != NULL);
		len = strlen(err);
		CHECK(len > 0);
		if (!skip_ctrl_check)
			for (size_t i = 0; i < len; i++) {
				unsigned char c = (unsigned char)err[i];
				if (c < 0x20 || c == 0x7f)
					CHECK(byte_in_args(&a, err[i]));
			}
	}
	if (rc == CLI_RUN)
		check_opts(&a, &o);
	if (rc == CLI_ERROR && o.refused)
		check_refusal(&o, err);
	if (rc == CLI_ERROR && !skip_msg_check)
		check_msg(err);

	/* cli.h: "argv is not modified".  The strings are ours and still
	 * hold the input's bytes; the array must be in its original order. */
	if (!skip_argv_check)
		for (int i = 0; i < a.n; i++)
			CHECK(argv[i] == a.strs[i]);
	CHECK(argv[a.n] == NULL);
	split(&orig, data, size);
	CHECK(orig.n == a.n);
	for (int i = 0; i < a.n; i++)
		CHECK(strcmp(orig.strs[i], a.strs[i]) == 0);
	free_args(&orig);

	/* Again, on a fresh argv: getopt's state must not leak between calls. */
	argv2 = make_argv(&a);
	memset(err2, 'Y', FUZZ_ERR_SIZE);
	memset(&o2, 0x5a, sizeof o2);
	rc2 = cli_parse(a.n, argv2, &o2, err2, FUZZ_ERR_SIZE);
	CHECK(rc2 == rc);
	if (rc == CLI_ERROR)
		CHECK(strcmp(err, err2) == 0);
	if (rc == CLI_RUN)
		CHECK(same_opts(&o, &o2));

	cur_args = NULL;
	cur_argv = NULL;
	cur_err = NULL;
	free(argv2);
	free(argv);
	free_args(&a);
	free(err2);
	free(err);
	return 0;
}
