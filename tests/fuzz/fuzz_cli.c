/* fuzz_cli: libFuzzer target for cli_parse (app/cli.c).
 * The input is an argument list: the bytes split on NUL, at most
 * FUZZ_MAX_ARGS arguments (the rest of the input is ignored; a final NUL
 * ends the last argument rather than starting an empty one).  argv[0] is
 * "distmm-tui".  Every argument and the error buffer are heap blocks of
 * their exact size, so AddressSanitizer catches a read or write past one.
 *
 * Checks (cli.h): the result is one of the CLI_* values; on CLI_ERROR the
 * error is a non-empty terminated line; on CLI_RUN every option is in range
 * and every file name points into one of our argument strings; a second
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
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/bug.h>
#include "cli.h"
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

static void check_opts(const struct args *a, const struct cli_opts *o)
{
	CHECK(o->batch == 0 || o->batch == 1);
	CHECK(o->quiet == 0 || o->quiet == 1);
	CHECK(o->play == 0 || o->play == 1);
	CHECK(o->no_color == 0 || o->no_color == 1);
	CHECK(o->ascii == 0 || o->ascii == 1);
	CHECK(o->order >= 0 && o->order < ORDER_COUNT);
	CHECK((o->order == ORDER_PARITY) || o->order_opt[0]);
	CHECK(o->devices >= 1 && o->devices <= RUN_MAX_DEVICES);
	CHECK(o->mode == DM_FSDP || o->mode == DM_DP);
	CHECK(o->M == 0 || (o->M >= 1 && o->M <= RUN_MAX_DIM));
	CHECK(o->K == 0 || (o->K >= 1 && o->K <= RUN_MAX_DIM));
	CHECK(o->N == 0 || (o->N >= 1 && o->N <= RUN_MAX_DIM));
	CHECK(o->values == MAT_VALUES_INTS || o->values == MAT_VALUES_FLOATS);
	CHECK(o->values_given == 0 || o->values_given == 1);
	CHECK(o->bug >= BUG_NONE && o->bug < BUG_COUNT);
	CHECK(o->quiz >= 0 && o->quiz <= 2);
	CHECK(o->capacity == RUN_UNBOUNDED || o->capacity <= 1000000);
	CHECK(in_args(a, o->a_file));
	CHECK(in_args(a, o->b_file));
	CHECK(in_args(a, o->out_file));
	CHECK(in_args(a, o->trace_file));
	CHECK(in_args(a, o->lesson_file));
	CHECK(in_args(a, o->replay_file));
	/* -o needs -b (cli.c refuses it otherwise). */
	CHECK(!o->out_file || o->batch);
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
	      rc == CLI_BUG_LIST);
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
