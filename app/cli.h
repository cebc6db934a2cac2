/* cli: the command line, parsed into a plain struct.  The parser never
 * prints or exits (it is fuzzed): it returns what to do and an error line. */
#ifndef APP_CLI_H
#define APP_CLI_H

#include <stddef.h>
#include <stdint.h>

enum cli_trace_format {
	CLI_TRACE_JSONL = 0, /* JSON Lines, which --replay reads */
	CLI_TRACE_CHROME,    /* the Trace Event Format, for Perfetto and chrome://tracing */
};

enum cli_verify {
	CLI_VERIFY_AUTO = 0, /* exact for small products, Freivalds above (verify.h) */
	CLI_VERIFY_EXACT,    /* the full sequential product and allclose */
	CLI_VERIFY_FREIVALDS,
};

enum cli_action {
	CLI_RUN = 0,     /* run (batch or interactive) */
	CLI_HELP = 1,    /* print usage, exit 0 */
	CLI_VERSION = 2, /* print the version, exit 0 */
	CLI_ERROR = 3,   /* print the error line, exit 2 */
	CLI_BUG_LIST = 4, /* print the bugs --bug knows, exit 0 */
};

struct cli_opts {
	int batch, quiet, play, no_color, ascii;
	int devices;          /* -d */
	int mode;             /* DM_FSDP or DM_DP */
	size_t M, K, N;       /* sizes; 0 = not given */
	uint64_t seed;
	int values;           /* MAT_VALUES_INTS or MAT_VALUES_FLOATS */
	int values_given;     /* --values was on the command line */
	const char *a_file, *b_file, *out_file, *trace_file, *lesson_file, *replay_file;
	size_t capacity;      /* RUN_UNBOUNDED by default */
	int naive;
	int bug;              /* enum dm_bug */
	int quiz;             /* 0 off, 1 or 2: the quiz's level */
	int trace_format;     /* enum cli_trace_format */
	int verify;           /* enum cli_verify */
	int verify_given;     /* --verify was on the command line */
	int compare;          /* batch: run the other mode for the DP-vs-FSDP table */
};

#define CLI_DEFAULT_SEED 1
#define CLI_DEFAULT_M 8
#define CLI_DEFAULT_K 6
#define CLI_DEFAULT_N 4

/* Parses argv into o (filled with defaults first).  On CLI_ERROR, err holds
 * one line naming the problem.  argv is not modified. */
int cli_parse(int argc, char *const argv[], struct cli_opts *o, char *err, size_t err_size);

/* The usage text (several lines, ends with a newline). */
const char *cli_usage(void);

#endif
