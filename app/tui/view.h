/* view: what the interface shows, without curses.  It owns the engine run
 * the UI steps, a snapshot copied out of it after every phase (the UI draws
 * from this copy only), the animation and play clocks, the modes of the
 * screen (focus, the worked cell, the panel's content, the overlays) and the
 * words of the captions and formulas.  Times are monotonic nanoseconds
 * passed in, so the state changes only when the loop says what time it is.
 *
 * The run is shown as a list of stops: ready, then each engine phase
 * (compute, transfer, ..., the gather), then the verification, a stop of
 * its own after the gather.  n goes one stop forward, b one back, and every
 * stop but the engine's newest is rebuilt from A, B and the event log. */
#ifndef TUI_VIEW_H
#define TUI_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include <distmm/dm_err.h>
#include <distmm/evlog.h>
#include <distmm/hw.h>
#include <distmm/mat.h>
#include <distmm/model.h>
#include <distmm/plan.h>
#include "mode.h"
#include "practice/quiz.h"
#include <distmm/run.h>

#define VIEW_SPEEDS 7

struct view_still;

/* The kinds of stop: the schedule's (SCHED_COMPUTE ... SCHED_ALL_GATHER,
 * the training step's backward included) and these. */
#define VIEW_READY (-1)
#define VIEW_VERIFY (-2)

enum view_overlay {
	VIEW_OV_NONE = 0,
	VIEW_OV_HELP,
	VIEW_OV_MEMORY,
	VIEW_OV_TABLE, /* the schedule table, when the screen has no room for its panel */
};

enum view_verdict {
	VIEW_OK = 0,        /* allclose on every element */
	VIEW_NAN_EQUAL,     /* allclose where finite; NaN (or the same infinity) exactly where A @ B has it */
	VIEW_MISMATCH,
};

/* The run asked for.  lab and train are requests: view_init turns them
 * into modes (modes/modes.c), which then own them. */
struct view_config {
	int mode, devices;
	size_t capacity;
	int order, bug; /* enum dm_order, enum dm_bug */
	int lab;        /* the order was asked for (--order, --fix, a lesson's): the deadlock
			   lab's mode, whose panels say each device's calls during a transfer */
	int train;      /* the training step's mode: the backward after the forward */
	const struct mat *dc; /* its dC (M x N), the caller's; kept whether or not train
				 is on, so that the key can turn it on (NULL: never) */
	int reduce_scatter; /* tp-row's sum ends in a reduce-scatter (modes/tp.c) */
	uint64_t params;    /* --params: c's real-scale page's model (0: this run's B) */
	double gpu_mem_gb;  /* --gpu-mem: a device's memory there */
	const struct mat *e; /* tp-mlp's E (N x P), the caller's, kept as dc is so that m can
				reach tp-mlp (NULL: never) */
	int act;             /* tp-mlp's activation, enum dm_act */
	const struct view_ccl *ccl; /* mode DM_COLL: the collective (modes/ccl.c), the
				       caller's; NULL otherwise */
	int prefetch;   /* --prefetch: FSDP's correct ring overlaps each step's transfer with
			   its compute (one stop a step); the runs it does not apply to
			   (DP, tensor parallel, a bug) run plain */
};

/* A collective shown (--collective in the interface): which, its size, and
 * the model of time it is timed by.  Its buffers are the view's a (n x
 * count, row r rank r's) and it has no b. */
struct view_ccl {
	int kind, algo;   /* enum ccl_kind, enum ccl_algo */
	size_t count;     /* doubles a rank */
	struct dm_hw hw;
	unsigned given;   /* CLOCKW_*: the model's values the command line set */
};

/* How the values of one matrix are written: whole numbers, or floats with
 * as many decimals as the width allows (prec_min at min_w columns, up to
 * prec_ideal at ideal_w). */
struct view_format {
	int ints;
	int min_w, ideal_w; /* characters of the widest value, without a separator */
	int prec_min, prec_ideal;
	int sci;            /* values too large or small for fixed decimals */
};

/* A block of values a mode puts in a panel's place or in the
 * verification's overlay (mode.h: block, result): what it is, where its
 * values are, which columns to keep in view and which were written at the
 * stop shown, and what it should hold (its '!' marks).  The pointers are
 * the view's or the mode's, valid while the stop is on screen. */
struct view_block {
	char name[8];         /* "dB": the line that says what a window cuts */
	char label[256];      /* its first line: "dB[:, 2:3] = p0+p3 from rank 0 + ..." */
	char brief[80];       /* the same in a narrow panel: "dB[2] = p0+p1+p3" */
	const double *data;   /* rows x cols, row stride ld; NULL: its values are not held */
	size_t ld, rows, cols;
	size_t want0, want1;  /* columns to keep in view when they do not all fit */
	size_t hot0, hot1;    /* columns written at the stop shown (bold), none when equal */
	int shard;            /* the colour of its values: a shard's (or chunk's), -1 none */
	int hot_shard;        /* the colour of the columns written, -1: the block's */
	const struct view_format *fmt;
	const double *ref;    /* what it should hold (same shape, stride ref_ld), or NULL */
	size_t ref_ld;
};

/* The memory and traffic table of a mode (mode.h: memory): a row a rank
 * and a total, columns under group headings; draw_overlay draws it,
 * leaving out the last columns when the screen is narrow. */
#define VIEW_MEMTAB_COLS 10
#define VIEW_MEMTAB_ROWS 66 /* 64 ranks and the total */
#define VIEW_MEMTAB_NOTES 4
struct view_memtab {
	char title[96];
	int n_cols, n_rows;  /* the first column names the row; the last row may be a total */
	int total;           /* the last row is the total */
	char group[VIEW_MEMTAB_COLS][40]; /* a heading from this column on, "" none */
	char head[VIEW_MEMTAB_COLS][16];
	char cell[VIEW_MEMTAB_ROWS][VIEW_MEMTAB_COLS][16];
	char note[VIEW_MEMTAB_NOTES][400];
	int n_note;
};

struct view {
	struct view_config cfg;
	struct view_mode_entry modes[VIEW_MODES_MAX]; /* the active modes, by layer (mode.h) */
	int n_modes;
	struct dm_plan *plan;    /* the run as the engine takes it: cfg's settings and what
				    the modes add (configure), made at each start */
	struct run_config run_cfg; /* the rest the engine takes: the modes' dC, a deadline */
	const struct mat *a, *b; /* the caller's */
	struct mat ref;          /* A @ B, for the verification and the worked cell */
	struct run *run;         /* the engine; NULL when the events are a log's or a start failed */
	int start_failed;        /* the engine's run could not start (v->fail says why) */
	struct ev *ev;           /* the event log so far, a copy: the past is rebuilt from it */
	size_t n_ev, cap_ev;
	int live_phase;          /* the last phase the engine ran (or the trace holds) */
	int run_done, run_failed; /* how the run (or the trace) ended, once it did */
	int phase_count;

	struct run_snapshot snap; /* the phase on screen: live, or rebuilt by replay */
	int stop;                /* -1 ready, 0..phase_count-1 a phase, phase_count the verification */
	int kind, step;          /* of the stop shown (VIEW_READY, SCHED_*, VIEW_VERIFY) */

	int finished;            /* the verification is on screen */
	int verdict;             /* enum view_verdict, once run_done */
	double max_err;
	size_t n_bad, n_nan;     /* elements that fail (mat_close); that pass as the same NaN or inf */
	int failed;              /* the failure is on screen (a deadlock...) */
	int fail_phase;          /* the phase that failed */
	struct dm_err fail;

	int animating;           /* the stop just reached is still moving on screen */
	uint64_t anim_start, anim_dur;
	int playing, speed;      /* speed: index into the speed table */
	uint64_t next_at;        /* when playing: the next stop's time */
	int overlay;             /* enum view_overlay */
	int resume;              /* the overlay paused playback: play again on closing */
	int help_page;           /* the help's page shown, when it takes more than one */
	int memory_page;         /* c's: 0 this run's bytes, 1 at real scale (Space) */
	int result_closed;       /* Esc closed the final C */
	struct quiz quiz;        /* predict, then reveal */
	int cmp_valid;           /* cmp holds this configuration's numbers */
	struct model_compare cmp;

	int focus;               /* the rank shown large, -1 for the grid */
	int show;                /* what panels show (enum layout_show) */
	int table;               /* the schedule table is wanted */
	int cell_on;             /* the worked cell: the cursor is on C */
	size_t cell_i, cell_j;
	int typing_goto;         /* g: a step number being typed */
	char goto_buf[8];
	int fixed;               /* f ran the fixed order */
	char msg[512];           /* a line for this moment (the command line, a word on f) */
	int utf8;                /* the screen draws UTF-8: "·" in the worked cell */
	/* an export (--export) draws for a file, not for a person at the keys:
	 * a caption names no key; svg_still (SVG): the status bar says neither
	 * "playing" nor the speed; bare: no status bar and no key bar at all
	 * (the screen is drawn two rows taller, and the export leaves those two
	 * out) */
	int for_file, svg_still, bare;

	struct view_format fa, fb, fc; /* how A, B and C's values are written */
	uint64_t mem_scale;      /* one scale for every memory bar, fixed for the run */
	struct view_still *still; /* what every stop of the run shows (view_still.c), or NULL */
};

/* N: B's columns, or a collective's doubles a rank (it has no B). */
size_t view_cols(const struct view *v);

/* Starts the first run (b NULL for a collective: cfg->ccl).  Returns 0, or
 * an engine error with err filled. */
int view_init(struct view *v, const struct mat *a, const struct mat *b,
	      const struct view_config *cfg, int playing, uint64_t now, struct dm_err *err);
void view_free(struct view *v);

/* A new run with v->cfg (after m, r, [ or ]).  On failure the view shows the
 * error and has no run; returns the error. */
int view_restart(struct view *v, uint64_t now, struct dm_err *err);

/* n: ends the animation on screen, if any, and shows the next stop: rebuilt
 * from the log when it was seen before, else run by the engine.  At the
 * end, does nothing: the final screen stays. */
void view_next(struct view *v, uint64_t now);

/* b: one stop back, rebuilt from A, B and the event log (not a saved
 * screen); at the start, does nothing. */
void view_back(struct view *v);

/* Shows stop `target` (clamped to -1 .. phase_count), running the engine as
 * far as needed; no animation, no questions.  Stops at a failure. */
void view_goto(struct view *v, int target, uint64_t now);

/* The stop of step s's compute (s clamped to the steps there are). */
int view_stop_of_step(const struct view *v, int s);

/* The number of stops after ready: the phases and the verification. */
int view_stop_count(const struct view *v);

/* A run from a log instead of the engine: a trace's events (--replay,
 * modes/replay.c) or a candidate's own run (--judge, modes/judged.c). */
struct view_log {
	const struct ev *ev;    /* the events, copied */
	size_t n_ev;
	int mode, n, bug;       /* the run the log is of */
	const struct mat *dc;   /* a training step's dC (the caller's, M x N), or NULL */
	int over;               /* the run ended (else it stopped after its last event) */
	int strict;             /* the log keeps the ring's rules (a trace); 0: held to none (a
				   candidate's): its order is not the phases', every stop is
				   shown once it ended, and a run that stopped before its
				   first phase is shown stopped at ready, not refused */
	const struct view_mode *top; /* the mode that shows it, pushed with top_data */
	void *top_data;
	int reduce_scatter;     /* tp-row's sum ended with a reduce-scatter */
};

/* Starts the view on log, on A and B (which the caller has found to fit):
 * a whole run is verified at once; one that stopped fails where it did.
 * Returns 0 or an error with err filled (nothing left started). */
int view_init_log(struct view *v, const struct mat *a, const struct mat *b,
		  const struct view_log *log, uint64_t now, struct dm_err *err);

/* r on a run from a log: back to ready, the log kept.  A restart hook
 * (mode.h), for the modes of a log: returns 1. */
int view_rewind(struct view *v, void *data, uint64_t now);

/* The schedule of the run on screen (v->plan): its phases, and phase p's
 * kind and step. */
int view_phase_count(const struct view *v);
int view_phase_kind(const struct view *v, int p);
int view_phase_step(const struct view *v, int p);

/* Called by the loop every time it wakes: ends finished animations and, when
 * playing, goes to the next stop when its time has come. */
void view_tick(struct view *v, uint64_t now);

/* When the loop must wake next (an animation frame, or the next stop when
 * playing), or 0 when nothing will change until a key. */
uint64_t view_wake_at(const struct view *v, uint64_t now);

/* 0..1 through the animation of the stop just reached (1 when not animating). */
double view_progress(const struct view *v, uint64_t now);

void view_toggle_play(struct view *v, uint64_t now);
/* Opens an overlay (pausing playback until it closes), or closes it. */
void view_open_overlay(struct view *v, int overlay);
void view_close_overlay(struct view *v, uint64_t now);
/* c: the DP vs FSDP memory table, measuring both modes if needed. */
void view_open_memory(struct view *v);
/* x: the quiz on or off (its score is kept). */
void view_toggle_quiz(struct view *v);
/* Shows the verification's verdict of C (the run's, or rebuilt). */
void view_verify(struct view *v, const struct mat *c);
void view_speed(struct view *v, int delta);
const char *view_speed_name(const struct view *v);

/* The modes of the screen. */
void view_focus(struct view *v, int rank);  /* -1: back to the grid */
void view_focus_next(struct view *v, int delta);
void view_cycle_show(struct view *v);
void view_cell_toggle(struct view *v);
void view_cell_move(struct view *v, int di, int dj);
/* Esc: leaves the innermost mode (typing, the worked cell, the focus, the
 * final C); returns 0 when there was none. */
int view_escape(struct view *v);
/* g: a step number typed, then Enter. */
void view_goto_start(struct view *v);
void view_goto_type(struct view *v, int ch);
void view_goto_submit(struct view *v, uint64_t now);

/* Words for the screen (view_words.c), written into buf (always
 * NUL-terminated). */
const char *view_phase_name(const struct view *v); /* "ready", "compute", ... */
/* "step s=1 (2 of 4)  compute", short: "s=1 2/4 compute". */
void view_position(const struct view *v, int shortform, char *buf, size_t size);
/* The caption of the stop: the modes' words, without the keys to press
 * when v->for_file (view_words_unkeyed). */
void view_caption(const struct view *v, char *buf, size_t size);
/* s without what it tells a person at the keys to press, for a file that
 * takes no key: a sentence that starts "Press" goes, a clause ", then press
 * c ..." goes up to its sentence's end, "Next (n): " says "Next: ".  In
 * place; the rest is kept as it was. */
void view_words_unkeyed(char *s);
/* The verification's line once it is on screen, else "". */
void view_verify_line(const struct view *v, char *buf, size_t size);
/* A warning when devices get empty rows or shards, else "". */
void view_empty_warning(const struct view *v, char *buf, size_t size);
/* The formula of rank r for the stop shown ("(1-3) mod 4 = 2 -> C[2:4, 2:3]")
 * or what it moved; short = without the C range. */
void view_formula(const struct view *v, int r, int shortform, char *buf, size_t size);
/* Rank r's memory line, "464 B vs DP 608 B, both with C", in at most
 * width characters (shorter forms as needed). */
void view_mem_text(const struct view *v, int r, int width, char *buf, size_t size);
/* What the other mode (DP beside FSDP, FSDP beside DP) would have held on
 * rank r by the stop shown, by the model: like with like, the gathered C
 * in both once the gather is done and in neither before. */
uint64_t view_other_by(const struct view *v, int r);
/* The worked cell: C[i,j] = A[i,:] . B[:,j] with its terms, its rank and
 * step, in at most about size characters. */
void view_cell_text(const struct view *v, char *buf, size_t size);
/* The sum the worked cell writes out, in the order it lists the terms. */
double view_cell_value(const struct view *v);
/* Whether C[row, col] differs from A @ B (numpy's allclose rule; a NaN
 * where A @ B has one is not a difference), once the verification is on
 * screen. */
int view_cell_wrong(const struct view *v, size_t row, size_t col);
/* Whether column j of rank r was written at the stop shown. */
int view_fresh(const struct view *v, int r, size_t j);
/* "12 B", "1.5 KiB", ... */
void view_bytes(uint64_t bytes, char *buf, size_t size);
/* How m's values are written: whole numbers at their widest, or floats
 * with 1 to 3 decimals (scientific beyond 1e5). */
void view_format_measure(const struct mat *m, struct view_format *f);
/* A value of f's matrix in at most width characters, as precise as fits. */
void view_value(const struct view_format *f, double x, int width, char *buf, size_t size);
/* The shard rank r holds at step s of the schedule (what the table shows),
 * -1 for none. */
int view_table_shard(const struct view *v, int r, int s);

/* What the screen keeps the same at every stop of a run (view_still.c).
 * The info area's paragraphs that belong to the stop shown, not to a key
 * just pressed (those are draw_info's): the headline, the caption (or a
 * mode's question), the notes, the verification's line. */
#define VIEW_PARAS_MAX 8
enum view_para_kind {
	VIEW_PARA_HEAD = 0, /* above the caption (--judge's verdict) */
	VIEW_PARA_QUESTION, /* a mode's lines in the caption's place */
	VIEW_PARA_CAPTION,  /* the caption (and a deadlock's advice): a quiz question's place */
	VIEW_PARA_REST,     /* under it */
};
struct view_paras {
	int n;
	struct {
		int kind; /* enum view_para_kind */
		int how;  /* enum view_tone */
		int pre;  /* drawn as it is, unwrapped */
		char text[VIEW_LINE_MAX];
	} p[VIEW_PARAS_MAX];
};
void view_stop_paragraphs(const struct view *v, struct view_paras *out);
/* Measures the run's every stop (at its start: a second run of the plan,
 * or the log rebuilt): the widest formula and every stop's paragraphs.
 * Nothing is measured (still NULL) for a run too large to run twice. */
void view_still_measure(struct view *v);
void view_still_free(struct view *v);
/* The key bar's conditions (view_key_needs) at the run's stops, each once,
 * into needs (at most max); returns how many (0 when not measured). */
#define VIEW_STILL_NEEDS 8
int view_still_needs(const struct view *v, unsigned *needs, int max);
/* The widest formula (short or long) any rank writes at any stop, 0 when
 * not measured; the widest of a panel's other lines a mode writes (its
 * blocks' labels, its panel line). */
int view_still_formula_w(const struct view *v, int shortform);
int view_still_text_w(const struct view *v);
/* The most lines any stop's paragraphs take wrapped at width, 0 when not
 * measured. */
int view_still_lines(const struct view *v, int width);

/* The training step's snapshot (view_words.c): whether the stop shown is
 * one of the backward's phases; how many ranks' partials chunk c of rank
 * r's dB holds, -1 for an empty chunk (or no dB in the snapshot). */
int view_train_backward(const struct view *v);
int view_train_chunk_fill(const struct view *v, int r, int c);
/* Whether rank r's shard and formula are hidden: a mode hides them all
 * (the practice), or a quiz question is open (then every rank's: one
 * rank's answer gives the others'). */
int view_hides(const struct view *v, int r);
/* "B[3]", or "B[?]" where rank r's is hidden. */
void view_shard_name(const struct view *v, int r, int k, char *buf, size_t size);
/* The bug's words for the stop shown (1), when a run with `bug` is at
 * ready or at its end; else 0 (buf may then be NULL: a question only). */
int view_bug_caption(const struct view *v, int bug, char *buf, size_t size);

/* What the modes do (view_mode.c: each asks the active modes in order, the
 * base run last; see mode.h for each hook).  The run's hooks, for view.c. */
void view_mode_configure(const struct view *v, struct dm_plan *plan, struct run_config *run);
int view_mode_prepare(struct view *v, struct dm_err *err);
void view_mode_new_run(struct view *v);
int view_mode_restart(struct view *v, uint64_t now);
int view_mode_rebuild(struct view *v, int phase, struct dm_err *err);
/* A stop rebuilt by running the engine again to phase (the same bits every
 * run): for modes whose events have no replay rules yet (a collective,
 * tp-mlp); the others rebuild from the log with replay_snapshot. */
int view_rerun_to(struct view *v, int phase, struct dm_err *err);
void view_mode_verify(struct view *v);
void view_mode_derive(struct view *v);
void view_mode_shown(struct view *v);
void view_mode_other(const struct view *v, int r, struct view_other *o);
void view_mode_share(const struct view *v, struct view_share *s);

/* What the modes say. */
int view_hides_all(const struct view *v);
int view_typing(const struct view *v);
void view_transfer_note(const struct view *v, char *buf, size_t size);
/* Rank r's calls during a transfer (the lab's), 0 and "" when none. */
int view_calls(const struct view *v, int r, double progress, char *buf, size_t size);
/* The headline above the caption, "" for none; returns its enum view_tone. */
int view_headline(const struct view *v, char *buf, size_t size);
/* The lines in the caption's place (out->n of them, maybe none); returns 1
 * when a mode puts some there instead of the caption. */
int view_question(const struct view *v, struct view_lines *out);
void view_note(const struct view *v, char *buf, size_t size);
/* After a deadlock: what to do ("" for nothing). */
const char *view_advice(const struct view *v);
/* The status bar's word for the modes (" judged", " replay", ""), and what
 * they add on its right. */
const char *view_tag(const struct view *v);
void view_status_extra(const struct view *v, char *buf, size_t size);
int view_chapter(const struct view *v);
int view_marks(const struct view *v, int r);
int view_mark_message(const struct view *v, struct view_mark *m);
/* Whether a mode marks C[row, col] wrong at the stop shown (mode.h: wrong),
 * in *wrong; 0 when none says.  view_cell_wrong asks it first. */
int view_mode_wrong(const struct view *v, size_t row, size_t col, int *wrong);
int view_panel_lines(const struct view *v);
/* Rank r's line under its values, "" for none. */
void view_panel_line(const struct view *v, int r, int width, char *buf, size_t size);
int view_table_kind(const struct view *v);
/* The words of a VIEW_TABLE_PHASES cell (mode.h: phase_cell), 0 and "" when
 * no mode says. */
int view_phase_cell(const struct view *v, int p, int r, char *buf, size_t size, int *shard);
/* What rank r's panel title says after "rank R" (mode.h: panel_title), 0
 * when no mode says (its rows of A). */
int view_panel_title(const struct view *v, int r, char *buf, size_t size);
/* What rank r's moving message says (mode.h: token), 0 and "" when no
 * mode says (the forward's shards, dB's chunks). */
int view_token(const struct view *v, int r, char *buf, size_t size);
/* g s when a mode counts the steps (mode.h: goto_stop), 0 when none does. */
int view_goto_stop(const struct view *v, int s, int *stop, char *buf, size_t size);
/* The correct run beside this one at the stop shown (mode.h: beside); 0
 * when no mode gives one. */
int view_beside(const struct view *v, struct view_beside *b);
/* The timeline the panels' area shows (mode.h: timeline), 0 when none. */
int view_timeline(const struct view *v, struct view_timeline *t);
int view_links(const struct view *v);
/* The links the run's messages took (mode.h: routes), or -1 when no mode
 * says: the ring's. */
int view_routes(const struct view *v, struct layout_route *out, int max);
/* What place `slot` of rank r's panel holds (mode.h: block; r = -1 the
 * largest over the run), 0 when no mode says (the forward's C, A, B). */
int view_block(const struct view *v, int r, int slot, struct view_block *b);
/* The columns a panel gives b's label: the label, or its brief form when
 * the label is VIEW_BLOCK_LABEL_MAX or wider. */
#define VIEW_BLOCK_LABEL_MAX 60
int view_block_width(const struct view_block *b);
/* The i-th matrix of the verification's overlay, 0 when no mode gives one
 * (the forward's C). */
int view_result(const struct view *v, int i, struct view_block *b);
/* The mode's memory table for c, 0 when none (the forward's DP vs FSDP). */
int view_memory_table(const struct view *v, struct view_memtab *t);

/* c's second page (view_zero.c): the memory argument at real scale, the
 * ZeRO paper's model states a device in DP and ZeRO-1, -2, -3 (FSDP), for
 * --params' model or, without it, this run's B taken as the weights. */
void view_zero_table(const struct view *v, struct view_memtab *t);
/* The key bar's conditions (enum keys_need) the view meets. */
unsigned view_key_needs(const struct view *v);
/* Why the modes do not take action now (the one-line reason, without the
 * key), or NULL when they do; *who (may be NULL) gets the refusing mode. */
const char *view_refusal(const struct view *v, int action, const struct view_mode **who);
/* Key ch asked for action: a mode refuses it (v->msg says why, with the
 * key), takes it, or none does; returns enum view_key.  An action only an
 * absent mode takes says why it does nothing. */
int view_mode_key(struct view *v, int action, int ch, uint64_t now);
/* s: the command line of this view (the options it started from, the run's
 * settings as they are now, the theme on screen, named as --theme names it,
 * NULL for the default, and --start-at for the stop on screen). */
void view_share_line(const struct view *v, const struct cli_opts *o, const char *theme, char *buf,
		     size_t size);

#endif
