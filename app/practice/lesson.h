/* lesson: a plain-text lesson for a class, parsed (no curses, no engine
 * runs).  A lesson is a title and parts; each part sets the configuration
 * (cumulatively: a part changes what it names and keeps the rest) and gives
 * a caption for phases of the run.  The format is documented in docs/practice.md:
 *
 *   title: The exercise, by hand
 *   part: Two devices
 *   set: fsdp devices=2 M=8 K=6 N=4 values=ints
 *   ready: Rank r holds B[r] ...
 *   compute 0: ...            (a caption for one step's compute)
 *   compute: ... {s} ... {n}  (any other compute; {s}, {n} become numbers,
 *                              {sent} and the others figures: see below)
 *   transfer: ...   gather: ...   done: ...   deadlock: ...
 *   set: train                (the training step; `forward` goes back)
 *   backward: ...  backward-transfer 1: ...  partial: ...
 *   reduce-scatter 0: ...  all-gather: ...   (the training step's phases, and
 *                              tensor parallel's ring all-reduce)
 *   set: tp-col               (tensor parallel; tp-row, tp-mlp too:
 *                              activation: ...  second-layer: ...)
 *   set: hw=a100-nvlink prefetch timeline   (a multiply timed, prefetch on,
 *                              the timeline open; no-prefetch turns it off)
 *   set: collective=allreduce algo=tree bytes=64 hw=h100-nvlink   (a collective;
 *                              collective=none goes back to the matrices)
 *   distribute: ...  collective: ...
 */
#ifndef APP_LESSON_H
#define APP_LESSON_H

#include <stddef.h>
#include <stdint.h>

#include <distmm/hw.h>
#include <distmm/plan.h>

#define LESSON_MAX_PARTS 32
#define LESSON_MAX_CAPTIONS 64
#define LESSON_MAX_DEVICES 64 /* devices=: a lesson plays in the interface, which shows 64 */
#define LESSON_TEXT_MAX 400

enum lesson_when {
	LESSON_READY = 0, /* before the first phase */
	LESSON_COMPUTE,
	LESSON_TRANSFER,
	LESSON_GATHER,
	LESSON_DONE,      /* the run is over */
	LESSON_DEADLOCK,  /* the run deadlocked */
	/* the training step's phases (set: train) */
	LESSON_BACKWARD,          /* a backward compute (dA) */
	LESSON_BACKWARD_TRANSFER, /* the backward's all-gather of B, one step */
	LESSON_PARTIAL,           /* the partial dB */
	LESSON_REDUCE_SCATTER,    /* one reduce-scatter step */
	LESSON_ALL_GATHER,        /* one step of DP's all-gather of dB (and of a ring
				     all-reduce's second half: tp-row's) */
	LESSON_DISTRIBUTE,        /* tensor parallel: A sent from rank 0 to every rank */
	LESSON_COLLECTIVE,        /* a step of a collective that is not a ring's */
	LESSON_ACTIVATION,        /* tp-mlp: act on each rank's columns, no message */
	LESSON_SECOND_LAYER,      /* tp-mlp: the partial Z_r = H_r @ E[rows r, :] */
};

/* What a part's set: line may change; `has` says which were named. */
enum {
	LESSON_SET_MODE = 1 << 0, LESSON_SET_DEVICES = 1 << 1, LESSON_SET_M = 1 << 2,
	LESSON_SET_K = 1 << 3, LESSON_SET_N = 1 << 4, LESSON_SET_VALUES = 1 << 5,
	LESSON_SET_SEED = 1 << 6, LESSON_SET_CAPACITY = 1 << 7, LESSON_SET_ORDER = 1 << 8,
	LESSON_SET_BUG = 1 << 9, LESSON_SET_QUIZ = 1 << 10, LESSON_SET_TRAIN = 1 << 11,
	LESSON_SET_COLLECTIVE = 1 << 12, LESSON_SET_ALGO = 1 << 13, LESSON_SET_BYTES = 1 << 14,
	LESSON_SET_HW = 1 << 15, LESSON_SET_PREFETCH = 1 << 16, LESSON_SET_TIMELINE = 1 << 17,
};

struct lesson_set {
	unsigned has;
	int mode, devices, values, order, bug, quiz; /* order: enum dm_order */
	int train;       /* the training step (set: train), or the forward alone */
	size_t M, K, N, capacity;
	uint64_t seed;
	int collective;  /* collective=KIND: enum ccl_kind, -1 (none) for the matrices */
	int algo;        /* algo=: enum ccl_algo */
	uint64_t bytes;  /* bytes=: the collective's S */
	char hw[64];     /* hw=: a preset's name, the model of time the part is timed by */
	int prefetch;    /* prefetch / no-prefetch: FSDP's compute beside its transfer */
	int timeline;    /* timeline: the part opens on the timeline (l) */
};

struct lesson_caption {
	int when;  /* enum lesson_when */
	int step;  /* -1: any step */
	int line;  /* its line in the file, for lesson_check_steps' message */
	char text[LESSON_TEXT_MAX];
};

struct lesson_part {
	char name[128];
	struct lesson_set set;
	struct lesson_caption cap[LESSON_MAX_CAPTIONS];
	int ncap;
};

struct lesson {
	char title[128];
	char name[256];  /* the file's name as given, for messages */
	struct lesson_part part[LESSON_MAX_PARTS];
	int nparts;
};

/* Parses a lesson's text.  Returns 0, or -1 with err holding one line
 * naming the file, the line and the problem. */
int lesson_parse(struct lesson *l, const char *text, size_t len, const char *name, char *err,
		 size_t err_size);

/* Whether every caption of part p tied to a step ("compute 3:") names a
 * step the part's run has: plan the run's (its mode, devices and pass: the
 * part's settings, or the command line's where it sets none).  Returns 0,
 * or -1 with err "FILE:LINE: compute 3: ..." saying the steps there are. */
int lesson_check_steps(const struct lesson *l, int p, const struct dm_plan *plan, char *err,
		       size_t err_size);

/* Reads and parses a lesson file, or a shipped lesson named without a
 * folder ("the-exercise": see lesson_find) when no such file exists; -1
 * with err filled on failure. */
int lesson_load(struct lesson *l, const char *path, char *err, size_t err_size);

/* The path of the shipped lesson called name ("the-exercise"), looked for
 * beside the program (assets/lessons/) and in its installation's
 * share/distmm-tui/lessons/.  0 with path filled, or -1. */
int lesson_find(const char *name, char *path, size_t size);

/* Where a caption is shown: the step and the devices for {s} and {n}, and
 * the run whose figures the others name. */
struct lesson_at {
	int step, n;
	const struct dm_plan *plan; /* the part's run; NULL: figures stay as written */
	size_t M, K, N;
	const struct dm_hw *hw;     /* the model of time a collective's part is timed by */
};

/* The caption of part p for a moment of the run (at->step for the stepped
 * phases), its placeholders filled in, into buf; returns 0 when the part
 * has none for it. */
int lesson_caption(const struct lesson *l, int p, int when, const struct lesson_at *at,
		   char *buf, size_t size);

/* A caption states a figure through a placeholder, filled from the engine's
 * model for the part's run (lesson_fig.c), so that no number a lesson says
 * can be untrue of the run it plays:
 *   {s} {n}       the step, the device count
 *   {sent}        what each rank sends round the forward's ring: "3/4 of B",
 *                 per rank when N does not split evenly
 *   {train_sent}  the same for the training step's ring: "9/4 of B's size"
 *   {held}        the most of B a rank holds at once in FSDP's ring: "2/8 of B"
 *   {B}           B's bytes: "32.0 KiB"
 *   {rows} {cols} how A's rows and B's columns split: "3, 2 and 2"
 *   {tp_sent}     what each rank of a tensor-parallel run sends in all
 *   {ccl_time}    a collective's part: its modelled time, "20.4 us"
 *   {ring_vs_tree} the same collective and size by both: "ring 20.4 us, tree
 *                 13.6 us"
 *   {busbw}       its bus bandwidth (nccl-tests'), "0.00471 GB/s"
 * A name of letters in braces that is none of these is an error at parse. */
#define LESSON_FIGURE_NAMES                                                                  \
	"{s}, {n}, {sent}, {train_sent}, {held}, {B}, {rows}, {cols}, {tp_sent}, {ccl_time}, " \
	"{ring_vs_tree}, {busbw}"

/* Whether name[0..len) is a placeholder's name. */
int lesson_figure_known(const char *name, size_t len);

/* Placeholder name[0..len) for `at`, into buf; 0, or -1 when it is not
 * one or `at` has no run for a figure. */
int lesson_figure(const char *name, size_t len, const struct lesson_at *at, char *buf,
		  size_t size);

#endif
