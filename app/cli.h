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

enum cli_action {
	CLI_RUN = 0,     /* run (batch or interactive) */
	CLI_HELP = 1,    /* print usage, exit 0 */
	CLI_VERSION = 2, /* print the version, exit 0 */
	CLI_ERROR = 3,   /* print the error line, exit 2 */
	CLI_BUG_LIST = 4, /* print the bugs --bug knows, exit 0 */
};

/* Which options the command line gave: cli_parse refuses an option that
 * does nothing in the mode chosen (its table in cli.c), and a lesson's
 * first part overrides some (cli_lesson_check). */
enum cli_given {
	CLI_GIVEN_BATCH = 1u << 0, CLI_GIVEN_QUIET = 1u << 1, CLI_GIVEN_DEVICES = 1u << 2,
	CLI_GIVEN_MODE = 1u << 3, CLI_GIVEN_M = 1u << 4, CLI_GIVEN_K = 1u << 5,
	CLI_GIVEN_N = 1u << 6, CLI_GIVEN_SEED = 1u << 7, CLI_GIVEN_VALUES = 1u << 8,
	CLI_GIVEN_A = 1u << 9, CLI_GIVEN_B = 1u << 10, CLI_GIVEN_OUT = 1u << 11,
	CLI_GIVEN_TRACE = 1u << 12, CLI_GIVEN_TRACE_FORMAT = 1u << 13,
	CLI_GIVEN_CAPACITY = 1u << 14, CLI_GIVEN_NAIVE = 1u << 15, CLI_GIVEN_BUG = 1u << 16,
	CLI_GIVEN_PLAY = 1u << 17, CLI_GIVEN_NO_COLOR = 1u << 18, CLI_GIVEN_ASCII = 1u << 19,
	CLI_GIVEN_QUIZ = 1u << 20, CLI_GIVEN_LESSON = 1u << 21, CLI_GIVEN_REPLAY = 1u << 22,
	CLI_GIVEN_START_AT = 1u << 23, CLI_GIVEN_THEME = 1u << 24,
};
#define CLI_GIVEN_ALL ((CLI_GIVEN_THEME << 1) - 1u)
/* The options only the interface uses (distmm-mpi words their refusal itself). */
#define CLI_GIVEN_INTERFACE                                                                   \
	(CLI_GIVEN_PLAY | CLI_GIVEN_NO_COLOR | CLI_GIVEN_ASCII | CLI_GIVEN_QUIZ | CLI_GIVEN_LESSON | \
	 CLI_GIVEN_START_AT | CLI_GIVEN_THEME)

/* --start-at: where the interface opens (enum cli_start kinds). */
enum cli_start {
	CLI_START_READY = 0, /* before the first phase (the default) */
	CLI_START_COMPUTE,   /* step s's compute: "--start-at 2" */
	CLI_START_TRANSFER,  /* the transfer after step s: "--start-at 2t" */
	CLI_START_GATHER,    /* "--start-at gather" */
	CLI_START_VERIFY,    /* "--start-at verify" */
};

struct cli_opts {
	int batch, quiet, play, no_color, ascii;
	int devices;          /* -d */
	int mode;             /* DM_FSDP or DM_DP */
	size_t M, K, N;       /* sizes; 0 = not given */
	uint64_t seed;
	int values;           /* MAT_VALUES_INTS or MAT_VALUES_FLOATS */
	const char *a_file, *b_file, *out_file, *trace_file, *lesson_file, *replay_file;
	size_t capacity;      /* RUN_UNBOUNDED by default */
	int naive;
	int bug;              /* enum dm_bug */
	int quiz;             /* 0 off, 1 or 2: the quiz's level */
	int trace_format;     /* enum cli_trace_format */
	int start_kind;       /* --start-at: enum cli_start */
	int start_step;       /* ... and its step (compute, transfer) */
	int projector;        /* --theme projector */
	unsigned given;       /* enum cli_given: what the command line set */
	unsigned refused;     /* on CLI_ERROR: the option refused as useless, else 0 */
};

#define CLI_DEFAULT_SEED 1
#define CLI_DEFAULT_M 8
#define CLI_DEFAULT_K 6
#define CLI_DEFAULT_N 4

/* Parses argv into o (filled with defaults first).  On CLI_ERROR, err holds
 * one line naming the problem.  argv is not modified. */
int cli_parse(int argc, char *const argv[], struct cli_opts *o, char *err, size_t err_size);

/* The option a cli_given bit stands for ("--play"), "" for none. */
const char *cli_option_name(unsigned given_bit);

/* A lesson's first part sets what its `set:` line names (lesson_set_has:
 * LESSON_SET_* bits), before anything runs, so an option it names never
 * takes effect: 0, or -1 with err naming the option. */
int cli_lesson_check(const struct cli_opts *o, unsigned lesson_set_has, char *err,
		     size_t err_size);

/* The usage text (several lines, ends with a newline). */
const char *cli_usage(void);

#endif
