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
	CLI_GIVEN_EXPORT = 1u << 23, CLI_GIVEN_SIZE = 1u << 24, CLI_GIVEN_SPEED = 1u << 25,
	CLI_GIVEN_RECORD = 1u << 26, CLI_GIVEN_ORDER = 1u << 27, CLI_GIVEN_FIX = 1u << 28,
	CLI_GIVEN_JUDGE = 1u << 29, CLI_GIVEN_JUDGE_TIMEOUT = 1u << 30,
};
/* The training step's options: beyond an enum's int, so 64-bit masks. */
#define CLI_GIVEN_TRAIN (UINT64_C(1) << 31)
#define CLI_GIVEN_DC (UINT64_C(1) << 32)
#define CLI_GIVEN_DA_OUT (UINT64_C(1) << 33)
#define CLI_GIVEN_DB_OUT (UINT64_C(1) << 34)
#define CLI_GIVEN_ALL ((CLI_GIVEN_DB_OUT << 1) - 1u)
/* The files only a training step reads or writes. */
#define CLI_GIVEN_GRAD_FILES (CLI_GIVEN_DC | CLI_GIVEN_DA_OUT | CLI_GIVEN_DB_OUT)
/* The three ways to say how a transfer is made (--naive is --order send-first). */
#define CLI_GIVEN_ORDERS (CLI_GIVEN_NAIVE | CLI_GIVEN_ORDER | CLI_GIVEN_FIX)
/* The options only the interface uses (distmm-mpi words their refusal itself). */
#define CLI_GIVEN_INTERFACE                                                                     \
	(CLI_GIVEN_PLAY | CLI_GIVEN_NO_COLOR | CLI_GIVEN_ASCII | CLI_GIVEN_QUIZ | CLI_GIVEN_LESSON | \
	 CLI_GIVEN_EXPORT | CLI_GIVEN_SIZE | CLI_GIVEN_SPEED | CLI_GIVEN_RECORD)

struct cli_opts {
	int batch, quiet, play, no_color, ascii;
	int devices;          /* -d */
	int mode;             /* DM_FSDP or DM_DP */
	size_t M, K, N;       /* sizes; 0 = not given */
	uint64_t seed;
	int values;           /* MAT_VALUES_INTS or MAT_VALUES_FLOATS */
	const char *a_file, *b_file, *out_file, *trace_file, *lesson_file, *replay_file;
	size_t capacity;      /* RUN_UNBOUNDED by default */
	int order;            /* enum dm_order: --naive, --order, --fix (parity by default) */
	char order_opt[48];   /* the option that set it ("--fix sendrecv"), "" if none did */
	int bug;              /* enum dm_bug */
	int quiz;             /* 0 off, 1 or 2: the quiz's level */
	int trace_format;     /* enum cli_trace_format */
	const char *export_file, *record_file; /* --export (headless), --record (live) */
	int cols, rows;       /* --size of the export (default CLI_DEFAULT_COLS x _ROWS) */
	int speed_step;       /* --speed: 2^speed_step times 1x, from -2 (1/4x) to 4 (16x) */
	uint64_t given;       /* enum cli_given and CLI_GIVEN_*: what the command line set */
	uint64_t refused;     /* on CLI_ERROR: the option refused as useless, else 0 */
	/* --judge FILE: run a candidate's Python solution (app/judge/) */
	const char *judge_file;
	unsigned judge_ms;    /* --judge-timeout: each case's time limit, ms */
	/* --train: the training step (forward and backward); its gradients'
	 * files: dC read (else generated from the seed), dA and dB written */
	int train;
	const char *dc_file, *da_out_file, *db_out_file;
};

#define CLI_JUDGE_MS 3000u /* --judge-timeout's default */

#define CLI_DEFAULT_SEED 1
#define CLI_DEFAULT_M 8
#define CLI_DEFAULT_K 6
#define CLI_DEFAULT_N 4
#define CLI_DEFAULT_COLS 120
#define CLI_DEFAULT_ROWS 40
#define CLI_MAX_SIZE 1000 /* --size: columns and rows up to this */

/* Parses argv into o (filled with defaults first).  On CLI_ERROR, err holds
 * one line naming the problem.  argv is not modified. */
int cli_parse(int argc, char *const argv[], struct cli_opts *o, char *err, size_t err_size);

/* The option a cli_given bit stands for ("--play"), "" for none. */
const char *cli_option_name(uint64_t given_bit);

/* A lesson's first part sets what its `set:` line names (lesson_set_has:
 * LESSON_SET_* bits), before anything runs, so an option it names never
 * takes effect: 0, or -1 with err naming the option. */
int cli_lesson_check(const struct cli_opts *o, unsigned lesson_set_has, char *err,
		     size_t err_size);

/* The usage text (several lines, ends with a newline). */
const char *cli_usage(void);

#endif
