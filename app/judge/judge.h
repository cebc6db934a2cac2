/* judge: `--judge FILE.py`, a candidate's own Python solution run for real.
 * The program makes the cases and their matrices (battery), starts the
 * harness in a Python child (child, harness), feeds it the job and reads its
 * records (proto): for each run, the facts of what the candidate's code did
 * (rec), from which this side alone decides the verdict and its words
 * (decide, stuck, wrong) and makes the run's event log (evbuild), with its
 * first wrong event named by the engine's rules; one judge_case each, for
 * batch mode's report (judge_report) and for the interface's replay of it
 * (app/tui/session_judge.c). */
#ifndef APP_JUDGE_JUDGE_H
#define APP_JUDGE_JUDGE_H

#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"
#include <distmm/dm_err.h>
#include <distmm/trace.h>

/* The functions a file may define, in the harness's load record's order:
 * dp_mat_mul, fsdp_mat_mul, tp_col_mat_mul, tp_row_mat_mul. */
#define JUDGE_FNS 4

enum judge_verdict {
	JUDGE_PASS = 0,
	JUDGE_WRONG_RESULT,    /* C differs from A @ B: the first wrong step is named */
	JUDGE_WRONG_NEIGHBOUR, /* a shard went to another rank than (r + 1) mod n */
	JUDGE_WRONG_SHAPE,     /* None, a list, or not M x N (DP: the gather missing) */
	JUDGE_NOT_A_RING,      /* right numbers, but FSDP without passing shards round */
	JUDGE_MUTATED_INPUT,   /* A or B changed in place */
	JUDGE_MUTATED_PAYLOAD, /* an array changed between its send and its receive */
	JUDGE_LEFT_MESSAGES,   /* right numbers, messages never received */
	JUDGE_UNJOINED,        /* it returned while threads it started still ran */
	JUDGE_DEADLOCK,        /* every thread blocked in a send, a receive or a join */
	JUDGE_EXCEPTION,       /* a thread (or the function) raised */
	JUDGE_TIMEOUT,         /* neither a result nor a deadlock within the time limit */
	JUDGE_ERROR,           /* the judge failed on this case, or the run's records did not parse */
	JUDGE_NOT_RUN,         /* the harness never answered for it */
	JUDGE_WEIGHTS_MOVED,   /* tensor parallel that moved B (last: the interview's saved
				* verdicts keep their numbers) */
	JUDGE_VERDICTS
};

/* A rank blocked when its case ended (a deadlock, or the hang that an
 * exception left): what it waits on, for the screen's panels. */
struct judge_wait {
	int rank;
	int send;              /* 1: sending shard to peer; 0: receiving (from anyone) */
	int peer;              /* the send's destination; -1 for a receive */
	int shard;             /* the shard being sent, -1 when not a shard of B */
};

struct judge_case {
	/* what runs */
	int id;                /* 1, 2, ...: the table's numbers */
	int mode;              /* DM_DP, DM_FSDP, DM_TP_COL or DM_TP_ROW: judge_fn(mode) runs */
	int n, values;         /* devices; MAT_VALUES_* */
	size_t M, K, N;
	size_t capacity;       /* RUN_UNBOUNDED, N, or 0 */
	uint64_t seed;         /* the seed its matrices come from */
	int beyond;            /* n does not divide M or N: beyond the exercise */
	int counts;            /* counts in the exit status */
	const char *what;      /* why the battery has it ("" for none) */
	/* what came back */
	int verdict;           /* enum judge_verdict */
	char *headline;        /* one line */
	char **notes;          /* detail lines */
	size_t n_notes;
	struct judge_wait *waits; /* the ranks blocked at the end, by rank */
	size_t n_waits;
	char schedule[24];     /* the schedule of the run reported: "reversed", "seed 2" */
	int sched_seed;        /* its seed (0: the default, reversed) */
	int timing;            /* it failed under a seed whose default run passed */
	int runs;              /* which run it was (1, 2, 3: one a schedule seed) */
	long first_wrong;      /* index in trace.ev of the first wrong event, or -1 */
	struct trace trace;    /* the run reported as the program's event log (has_trace) */
	int has_trace;
	int held_all_b;        /* a pass whose ranks each held all of B at once */
	char *output;          /* what the run reported printed (bounded), output_len bytes */
	size_t output_len;
	int output_cut;        /* more was printed than kept */
};

struct judge {
	const char *path;      /* the candidate's file, as given */
	const char *inside;    /* the path the harness opens (absolute when confined) */
	unsigned timeout_ms;   /* each run's time limit */
	int schedule;          /* --judge-schedule: the one seed each case runs under, else -1 */
	int unconfined;        /* --judge-unconfined: no sandbox (sandbox.h) */
	struct judge_case *cases;
	size_t n_cases;
	int has[JUDGE_FNS];    /* what the file defines (after loading), judge_fn_index's */
	char python[512];      /* the interpreter used */
	char version[32];      /* its version */
	char load_error[512];  /* the file could not be loaded: one line */
	char failure[512];     /* the harness failed: what is known */
	int signal;            /* the signal that stopped the judge, 0 none */
	int cancel_fd;         /* -1 (judge_prepare's), or a descriptor whose being readable
				* stops the run (--interview: the file changed again) */
	int cancelled;         /* it did: the verdicts are not to be read */
};

/* The cases for o (see battery_build).  Returns 0 or an engine error. */
int judge_prepare(struct judge *j, const struct cli_opts *o, struct dm_err *err);

/* Runs the harness over every case, confined (sandbox.h) unless
 * j->unconfined.  Returns 0 when it could run (verdicts, a load error in
 * j->load_error, a failure in j->failure, j->signal when SIGINT, SIGTERM
 * or SIGHUP stopped it, or j->cancelled when j->cancel_fd became readable); DM_EIO with err's line when no python with numpy
 * was found, or when the code cannot be confined (no bwrap, no user
 * namespaces: the line says how to proceed); DM_EIO/DM_ETHREAD/DM_ENOMEM
 * when it could not be started.  The Python processes are gone when it
 * returns, whatever happened. */
int judge_run(struct judge *j, struct dm_err *err);

void judge_free(struct judge *j);

/* Whether the file defines the function case c runs; the function mode
 * runs. */
int judge_defines(const struct judge *j, const struct judge_case *c);
int judge_has(const struct judge *j, int mode);

/* verdict.c: the function mode runs ("dp_mat_mul", ... "tp_row_mat_mul"),
 * its index in judge.has (-1: no mode of the judge's), -m's word for it
 * ("dp", "fsdp", "tp-col", "tp-row"), and whether it is tensor parallel's. */
const char *judge_fn(int mode);
int judge_fn_index(int mode);
const char *judge_mode_arg(int mode);
int judge_mode_tp(int mode);

/* The case to show or write (--trace, the interface): the one picked (the
 * only one run), else the first failing one, else the driver case (FSDP's
 * when there is one), else the first; among those that recorded a run.
 * NULL when none did. */
const struct judge_case *judge_pick(const struct judge *j);

/* "pass", "wrong result", ... */
const char *judge_verdict_word(int v);

/* The message when no python with numpy is found. */
#define JUDGE_NO_PYTHON "--judge needs python3 with numpy (make deps installs python3-numpy; " \
	"or set DISTMM_PYTHON)"

#endif
