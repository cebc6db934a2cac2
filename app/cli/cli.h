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
	CLI_HW_LIST = 5,  /* print the hardware presets --hw knows, exit 0 */
};

/* Which options the command line gave: cli_parse refuses an option that
 * does nothing in the mode chosen (its table in cli.c), and a lesson's
 * first part overrides some (cli_lesson_check). */
typedef uint64_t cli_given_t; /* a set of CLI_GIVEN_* bits */
enum cli_given_bit { /* the options in order; CLI_GIVEN_X is 1 << CLI_GIVEN_X_BIT */
	CLI_GIVEN_BATCH_BIT,
	CLI_GIVEN_QUIET_BIT,
	CLI_GIVEN_DEVICES_BIT,
	CLI_GIVEN_MODE_BIT,
	CLI_GIVEN_M_BIT,
	CLI_GIVEN_K_BIT,
	CLI_GIVEN_N_BIT,
	CLI_GIVEN_SEED_BIT,
	CLI_GIVEN_VALUES_BIT,
	CLI_GIVEN_A_BIT,
	CLI_GIVEN_B_BIT,
	CLI_GIVEN_OUT_BIT,
	CLI_GIVEN_TRACE_BIT,
	CLI_GIVEN_TRACE_FORMAT_BIT,
	CLI_GIVEN_CAPACITY_BIT,
	CLI_GIVEN_NAIVE_BIT,
	CLI_GIVEN_BUG_BIT,
	CLI_GIVEN_PLAY_BIT,
	CLI_GIVEN_NO_COLOR_BIT,
	CLI_GIVEN_ASCII_BIT,
	CLI_GIVEN_QUIZ_BIT,
	CLI_GIVEN_LESSON_BIT,
	CLI_GIVEN_REPLAY_BIT,
	CLI_GIVEN_EXPORT_BIT,
	CLI_GIVEN_SIZE_BIT,
	CLI_GIVEN_EXPORT_CHROME_BIT,
	CLI_GIVEN_SPEED_BIT,
	CLI_GIVEN_RECORD_BIT,
	CLI_GIVEN_ORDER_BIT,
	CLI_GIVEN_FIX_BIT,
	CLI_GIVEN_JUDGE_BIT,
	CLI_GIVEN_JUDGE_TIMEOUT_BIT,
	CLI_GIVEN_JUDGE_UNCONFINED_BIT,
	CLI_GIVEN_JUDGE_SCHEDULE_BIT,
	CLI_GIVEN_SHOW_OUTPUT_BIT,
	CLI_GIVEN_VERIFY_BIT,
	CLI_GIVEN_COMPARE_BIT,
	CLI_GIVEN_START_AT_BIT,
	CLI_GIVEN_THEME_BIT,
	CLI_GIVEN_TRAIN_BIT,
	CLI_GIVEN_DC_BIT,
	CLI_GIVEN_DA_OUT_BIT,
	CLI_GIVEN_DB_OUT_BIT,
	CLI_GIVEN_DERIVE_BIT, /* --quiz=derive: set with the quiz's bit, cleared by a later --quiz */
	/* the clock (docs/clock.md) */
	CLI_GIVEN_HW_BIT,
	CLI_GIVEN_ALPHA_BIT,
	CLI_GIVEN_BW_BIT,
	CLI_GIVEN_FLOPS_BIT,
	CLI_GIVEN_COLLECTIVE_BIT,
	CLI_GIVEN_ALGO_BIT,
	CLI_GIVEN_BYTES_BIT,
	CLI_GIVEN_SWEEP_BIT,
	CLI_GIVEN_JSON_BIT,
	CLI_GIVEN_TIMELINE_BIT,
	CLI_GIVEN_PREFETCH_BIT,
	/* the mock interview (docs/interview.md) */
	CLI_GIVEN_INTERVIEW_BIT,
	CLI_GIVEN_INTERVIEW_TIME_BIT,
	CLI_GIVEN_INTERVIEW_RESTART_BIT,
	/* the memory argument at real scale (docs/tensor-parallel.md) */
	CLI_GIVEN_PARAMS_BIT,
	CLI_GIVEN_GPU_MEM_BIT,
	/* tensor parallel (-m tp-col, tp-row) */
	CLI_GIVEN_REDUCE_SCATTER_BIT,
	CLI_GIVEN_COUNT
};
#define CLI_GIVEN_BATCH (UINT64_C(1) << CLI_GIVEN_BATCH_BIT)
#define CLI_GIVEN_QUIET (UINT64_C(1) << CLI_GIVEN_QUIET_BIT)
#define CLI_GIVEN_DEVICES (UINT64_C(1) << CLI_GIVEN_DEVICES_BIT)
#define CLI_GIVEN_MODE (UINT64_C(1) << CLI_GIVEN_MODE_BIT)
#define CLI_GIVEN_M (UINT64_C(1) << CLI_GIVEN_M_BIT)
#define CLI_GIVEN_K (UINT64_C(1) << CLI_GIVEN_K_BIT)
#define CLI_GIVEN_N (UINT64_C(1) << CLI_GIVEN_N_BIT)
#define CLI_GIVEN_SEED (UINT64_C(1) << CLI_GIVEN_SEED_BIT)
#define CLI_GIVEN_VALUES (UINT64_C(1) << CLI_GIVEN_VALUES_BIT)
#define CLI_GIVEN_A (UINT64_C(1) << CLI_GIVEN_A_BIT)
#define CLI_GIVEN_B (UINT64_C(1) << CLI_GIVEN_B_BIT)
#define CLI_GIVEN_OUT (UINT64_C(1) << CLI_GIVEN_OUT_BIT)
#define CLI_GIVEN_TRACE (UINT64_C(1) << CLI_GIVEN_TRACE_BIT)
#define CLI_GIVEN_TRACE_FORMAT (UINT64_C(1) << CLI_GIVEN_TRACE_FORMAT_BIT)
#define CLI_GIVEN_CAPACITY (UINT64_C(1) << CLI_GIVEN_CAPACITY_BIT)
#define CLI_GIVEN_NAIVE (UINT64_C(1) << CLI_GIVEN_NAIVE_BIT)
#define CLI_GIVEN_BUG (UINT64_C(1) << CLI_GIVEN_BUG_BIT)
#define CLI_GIVEN_PLAY (UINT64_C(1) << CLI_GIVEN_PLAY_BIT)
#define CLI_GIVEN_NO_COLOR (UINT64_C(1) << CLI_GIVEN_NO_COLOR_BIT)
#define CLI_GIVEN_ASCII (UINT64_C(1) << CLI_GIVEN_ASCII_BIT)
#define CLI_GIVEN_QUIZ (UINT64_C(1) << CLI_GIVEN_QUIZ_BIT)
#define CLI_GIVEN_LESSON (UINT64_C(1) << CLI_GIVEN_LESSON_BIT)
#define CLI_GIVEN_REPLAY (UINT64_C(1) << CLI_GIVEN_REPLAY_BIT)
#define CLI_GIVEN_EXPORT (UINT64_C(1) << CLI_GIVEN_EXPORT_BIT)
#define CLI_GIVEN_SIZE (UINT64_C(1) << CLI_GIVEN_SIZE_BIT)
#define CLI_GIVEN_EXPORT_CHROME (UINT64_C(1) << CLI_GIVEN_EXPORT_CHROME_BIT)
#define CLI_GIVEN_SPEED (UINT64_C(1) << CLI_GIVEN_SPEED_BIT)
#define CLI_GIVEN_RECORD (UINT64_C(1) << CLI_GIVEN_RECORD_BIT)
#define CLI_GIVEN_ORDER (UINT64_C(1) << CLI_GIVEN_ORDER_BIT)
#define CLI_GIVEN_FIX (UINT64_C(1) << CLI_GIVEN_FIX_BIT)
#define CLI_GIVEN_JUDGE (UINT64_C(1) << CLI_GIVEN_JUDGE_BIT)
#define CLI_GIVEN_JUDGE_TIMEOUT (UINT64_C(1) << CLI_GIVEN_JUDGE_TIMEOUT_BIT)
#define CLI_GIVEN_JUDGE_UNCONFINED (UINT64_C(1) << CLI_GIVEN_JUDGE_UNCONFINED_BIT)
#define CLI_GIVEN_JUDGE_SCHEDULE (UINT64_C(1) << CLI_GIVEN_JUDGE_SCHEDULE_BIT)
#define CLI_GIVEN_SHOW_OUTPUT (UINT64_C(1) << CLI_GIVEN_SHOW_OUTPUT_BIT)
#define CLI_GIVEN_VERIFY (UINT64_C(1) << CLI_GIVEN_VERIFY_BIT)
#define CLI_GIVEN_COMPARE (UINT64_C(1) << CLI_GIVEN_COMPARE_BIT)
#define CLI_GIVEN_START_AT (UINT64_C(1) << CLI_GIVEN_START_AT_BIT)
#define CLI_GIVEN_THEME (UINT64_C(1) << CLI_GIVEN_THEME_BIT)
#define CLI_GIVEN_TRAIN (UINT64_C(1) << CLI_GIVEN_TRAIN_BIT)
#define CLI_GIVEN_DC (UINT64_C(1) << CLI_GIVEN_DC_BIT)
#define CLI_GIVEN_DA_OUT (UINT64_C(1) << CLI_GIVEN_DA_OUT_BIT)
#define CLI_GIVEN_DB_OUT (UINT64_C(1) << CLI_GIVEN_DB_OUT_BIT)
#define CLI_GIVEN_DERIVE (UINT64_C(1) << CLI_GIVEN_DERIVE_BIT)
#define CLI_GIVEN_HW (UINT64_C(1) << CLI_GIVEN_HW_BIT)
#define CLI_GIVEN_ALPHA (UINT64_C(1) << CLI_GIVEN_ALPHA_BIT)
#define CLI_GIVEN_BW (UINT64_C(1) << CLI_GIVEN_BW_BIT)
#define CLI_GIVEN_FLOPS (UINT64_C(1) << CLI_GIVEN_FLOPS_BIT)
#define CLI_GIVEN_COLLECTIVE (UINT64_C(1) << CLI_GIVEN_COLLECTIVE_BIT)
#define CLI_GIVEN_ALGO (UINT64_C(1) << CLI_GIVEN_ALGO_BIT)
#define CLI_GIVEN_BYTES (UINT64_C(1) << CLI_GIVEN_BYTES_BIT)
#define CLI_GIVEN_SWEEP (UINT64_C(1) << CLI_GIVEN_SWEEP_BIT)
#define CLI_GIVEN_JSON (UINT64_C(1) << CLI_GIVEN_JSON_BIT)
#define CLI_GIVEN_TIMELINE (UINT64_C(1) << CLI_GIVEN_TIMELINE_BIT)
#define CLI_GIVEN_PREFETCH (UINT64_C(1) << CLI_GIVEN_PREFETCH_BIT)
#define CLI_GIVEN_INTERVIEW (UINT64_C(1) << CLI_GIVEN_INTERVIEW_BIT)
#define CLI_GIVEN_INTERVIEW_TIME (UINT64_C(1) << CLI_GIVEN_INTERVIEW_TIME_BIT)
#define CLI_GIVEN_INTERVIEW_RESTART (UINT64_C(1) << CLI_GIVEN_INTERVIEW_RESTART_BIT)
#define CLI_GIVEN_PARAMS (UINT64_C(1) << CLI_GIVEN_PARAMS_BIT)
#define CLI_GIVEN_GPU_MEM (UINT64_C(1) << CLI_GIVEN_GPU_MEM_BIT)
#define CLI_GIVEN_REDUCE_SCATTER (UINT64_C(1) << CLI_GIVEN_REDUCE_SCATTER_BIT)
#define CLI_GIVEN_ALL ((UINT64_C(1) << CLI_GIVEN_COUNT) - 1u)
_Static_assert(CLI_GIVEN_COUNT <= 64, "an option's given bit must fit cli_given_t");
/* The files only a training step reads or writes. */
#define CLI_GIVEN_GRAD_FILES (CLI_GIVEN_DC | CLI_GIVEN_DA_OUT | CLI_GIVEN_DB_OUT)
/* The options that set the model of time (-b adds it to a run's report). */
#define CLI_GIVEN_MODEL (CLI_GIVEN_HW | CLI_GIVEN_ALPHA | CLI_GIVEN_BW | CLI_GIVEN_FLOPS)
/* The three ways to say how a transfer is made (--naive is --order send-first). */
#define CLI_GIVEN_ORDERS (CLI_GIVEN_NAIVE | CLI_GIVEN_ORDER | CLI_GIVEN_FIX)
/* The options only the interface uses (distmm-mpi words their refusal itself). */
#define CLI_GIVEN_INTERFACE                                                                     \
	(CLI_GIVEN_PLAY | CLI_GIVEN_NO_COLOR | CLI_GIVEN_ASCII | CLI_GIVEN_QUIZ | CLI_GIVEN_LESSON | \
	 CLI_GIVEN_EXPORT | CLI_GIVEN_SIZE | CLI_GIVEN_SPEED | CLI_GIVEN_RECORD | \
	 CLI_GIVEN_START_AT | CLI_GIVEN_THEME | CLI_GIVEN_DERIVE)

/* --start-at: where the interface opens (enum cli_start kinds). */
enum cli_start {
	CLI_START_READY = 0, /* before the first phase (the default) */
	CLI_START_COMPUTE,   /* step s's compute: "--start-at 2" */
	CLI_START_TRANSFER,  /* the transfer after step s: "--start-at 2t" */
	CLI_START_GATHER,    /* "--start-at gather" */
	CLI_START_VERIFY,    /* "--start-at verify" */
	/* the training step's backward (--train): */
	CLI_START_BWD_COMPUTE,  /* backward step t's compute: "--start-at b2" */
	CLI_START_BWD_TRANSFER, /* the second all-gather's transfer after t: "b2t" */
	CLI_START_PARTIAL,      /* the partial dB: "partial" */
	CLI_START_RS,           /* reduce-scatter step s: "rs1" */
	CLI_START_AG,           /* DP's all-gather step s: "ag1" */
	CLI_START_LAST = CLI_START_AG
};

struct cli_opts {
	int batch, quiet, play, no_color, ascii;
	int devices;          /* -d */
	int mode;             /* DM_FSDP, DM_DP, DM_TP_COL or DM_TP_ROW */
	int reduce_scatter;   /* --reduce-scatter: tp-row ends with each rank's slice */
	size_t M, K, N;       /* sizes; 0 = not given */
	uint64_t seed;
	int values;           /* MAT_VALUES_INTS or MAT_VALUES_FLOATS */
	const char *a_file, *b_file, *out_file, *trace_file, *lesson_file, *replay_file;
	size_t capacity;      /* RUN_UNBOUNDED by default */
	int order;            /* enum dm_order: --naive, --order, --fix (parity by default) */
	char order_opt[48];   /* the option that set it ("--fix sendrecv"), "" if none did */
	int bug;              /* enum dm_bug */
	int quiz;             /* 0 off, 1 or 2: the quiz's level, or CLI_QUIZ_DERIVE */
	int drill;            /* --quiz=clock|tp: the drill's set (practice/drills.h), or -1 */
	int trace_format;     /* enum cli_trace_format */
	int start_kind;       /* --start-at: enum cli_start */
	int start_step;       /* ... and its step (compute, transfer) */
	int theme;            /* --theme: enum cli_theme */
	const char *export_file, *record_file; /* --export (headless), --record (live) */
	int cols, rows;       /* --size of the export (default CLI_DEFAULT_COLS x _ROWS) */
	int export_chrome;    /* --export-chrome: enum cli_chrome */
	int speed_step;       /* --speed: 2^speed_step times 1x, from -2 (1/4x) to 4 (16x) */
	cli_given_t given;    /* CLI_GIVEN_*: what the command line set */
	cli_given_t refused;  /* on CLI_ERROR: the option refused as useless, else 0 */
	/* --judge FILE: run a candidate's Python solution (app/judge/) */
	const char *judge_file;
	unsigned judge_ms;    /* --judge-timeout: each case's time limit, ms */
	int judge_unconfined; /* --judge-unconfined: no sandbox (app/judge/sandbox.c) */
	unsigned judge_schedule; /* --judge-schedule: the one schedule seed each case runs under */
	int show_output;      /* --show-output: the candidate's prints, for each case */
	int verify;           /* enum cli_verify */
	int compare;          /* batch: run the other mode for the DP-vs-FSDP table */
	/* --train: the training step (forward and backward); its gradients'
	 * files: dC read (else generated from the seed), dA and dB written */
	int train;
	const char *dc_file, *da_out_file, *db_out_file;
	/* the clock (docs/clock.md): the model's hardware, a preset's name or a
	 * file (NULL: h100-nvlink), and the values given over it (their
	 * CLI_GIVEN_* bits say which); one collective run, or the sweep */
	const char *hw;
	double alpha_us, bw_gbps, tflops; /* --alpha, --bw, --flops */
	int collective;       /* --collective: enum ccl_kind, -1 none */
	int algo;             /* --algo: enum ccl_algo, ring by default */
	uint64_t bytes;       /* --bytes: the collective's S, CLI_DEFAULT_BYTES by default */
	int sweep;            /* --sweep: enum ccl_kind, -1 none */
	int json;             /* --json: the sweep as JSON Lines */
	int timeline;         /* --timeline: -b's run on the modelled clock, as text */
	int prefetch;         /* --prefetch: FSDP's compute overlaps its transfer */
	/* --interview FILE.py: the mock interview (app/interview/) */
	const char *interview_file;
	uint64_t interview_ms[2]; /* --interview-time: DP's and FSDP's, ms */
	int interview_restart;    /* --interview-restart: the state file beside FILE ignored */
	/* the memory argument at real scale: -b --params, nothing runs */
	uint64_t params;      /* --params: the model's parameters, 0 none */
	double gpu_mem_gb;    /* --gpu-mem: a device's memory, GB (10^9 bytes) */
};

#define CLI_DEFAULT_GPU_MEM_GB 80.0 /* --gpu-mem: an H100's or an A100's 80 GB */

#define CLI_DEFAULT_BYTES (UINT64_C(1) << 20) /* --bytes: 1 MiB */

/* --export-chrome: the status bar and the key bar in an export, or not;
 * by default not in SVG stills (slides), there in a cast (a recording ends
 * on the interface's own screen) */
enum cli_chrome { CLI_CHROME_AUTO, CLI_CHROME_NONE, CLI_CHROME_FULL };

/* --theme's names, in the order of the interface's themes (tui/theme.h) */
enum cli_theme { CLI_THEME_DEFAULT, CLI_THEME_PROJECTOR, CLI_THEME_LIGHT };

/* --quiz=derive: no answer on screen until the candidate writes the ring's
 * rule as an expression (app/practice/derive.h) */
#define CLI_QUIZ_DERIVE 3

#define CLI_JUDGE_MS 3000u /* --judge-timeout's default */
#define CLI_INTERVIEW_DP_MS (10u * 60000u)   /* --interview-time's defaults: the */
#define CLI_INTERVIEW_FSDP_MS (20u * 60000u) /* exercise's notes' 10 and 20 minutes */

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
const char *cli_option_name(cli_given_t given_bit);

/* A lesson's first part sets what its `set:` line names (lesson_set_has:
 * LESSON_SET_* bits), before anything runs, so an option it names never
 * takes effect: 0, or -1 with err naming the option. */
int cli_lesson_check(const struct cli_opts *o, unsigned lesson_set_has, char *err,
		     size_t err_size);

/* The usage text (several lines, ends with a newline). */
const char *cli_usage(void);

#endif
