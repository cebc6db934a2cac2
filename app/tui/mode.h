/* mode: the interface's modes, each a table of hooks.  As tmux's window
 * modes do (window-clock.c exports one const struct window_mode and the
 * pane calls mode->key without asking which mode it is in), each mode is one
 * file in app/tui/modes/ exporting one const struct view_mode: the FSDP/DP
 * run (run.c, the base), the training step (train.c), a replay of a trace
 * (replay.c), a judged run and its correct ring (judged.c), the practice
 * (practice.c), the deadlock lab (lab.c), a lesson's part (lessons.c),
 * the model of time (clock.c), tensor parallel (tp.c) and a collective
 * (ccl.c).
 *
 * Modes combine (a replay of a training step's trace, a lesson's part in
 * the lab, the practice over a training step), so the view holds the active
 * ones in a list ordered by layer, lowest first, and every hook's dispatch
 * (view_mode.c) asks them in that order; the base run, at the highest
 * layer, answers last.  A hook that answers ("said" something) stops the
 * asking; a hook that returns 0 lets the modes below speak.  The layers in
 * use: a judged run 10, a lesson 20, the training step 40, tensor parallel
 * 45, a collective 47, the practice 50,
 * the lab 60, a replay 70, the clock 90, the base run 100.
 *
 * Every hook may be NULL: the mode has nothing to say there.  Hooks that
 * take `const struct view *` change nothing; `data` is what the mode was
 * pushed with (its state, or a caller's), const where the view is.  No
 * hook calls curses: what needs drawing is said as words, lines with a
 * tone, or a table's kind, which draw*.c draw. */
#ifndef TUI_MODE_H
#define TUI_MODE_H

#include <stddef.h>
#include <stdint.h>

struct cli_opts;
struct dm_err;
struct dm_plan;
struct layout_route;
struct run_config;
struct view;
struct view_block;
struct view_memtab;

#define VIEW_LAYER_BASE 100 /* the base run: every view has it, below all others */

/* How a line is drawn (draw_info maps each to a theme role). */
enum view_tone {
	VIEW_TONE_NONE = 0, /* nothing said */
	VIEW_TONE_NORMAL,
	VIEW_TONE_TITLE,
	VIEW_TONE_KEY,
	VIEW_TONE_DIM,
	VIEW_TONE_OK,
	VIEW_TONE_BAD,
};

/* Lines a mode puts in the info area in the caption's place (the
 * practice's question and its answer line). */
#define VIEW_LINES_MAX 4
#define VIEW_LINE_MAX 1024
struct view_lines {
	int n;
	struct {
		int how;  /* enum view_tone (not "tone": term.h has a macro of that name) */
		int pre;  /* drawn as it is, unwrapped: a caret keeps its column */
		char text[VIEW_LINE_MAX];
	} line[VIEW_LINES_MAX];
};

/* The mark a mode puts on a link (the judge's first wrong message). */
struct view_mark {
	int from, to; /* the message's sender and receiver */
	int gather;   /* a block of C on its way to rank 0, not a shard on the ring */
	char label[32]; /* "!B0", "!C2:4" */
};

/* What the other layout (DP beside FSDP) would hold on a rank by the stop
 * shown, for the memory line: its bytes, the stage it is counted to ("" for
 * the run's own stop) and what both hold once gathered. */
struct view_other {
	uint64_t bytes;
	char by[40];   /* "its reduce-scatter s=1": the point of its step, or "" */
	char with[24]; /* "C", or "C, dA, dB" */
};

/* The schedule tables draw_table.c knows (view_table_kind). */
enum view_table {
	VIEW_TABLE_RING = 0, /* the forward: FSDP's shards by step, DP's one compute */
	VIEW_TABLE_TRAIN,    /* a training step's phases (draw_table_train.c) */
	VIEW_TABLE_PHASES,   /* a column a phase, each cell the mode's words (phase_cell;
				draw_table_phases.c): tensor parallel's */
	VIEW_TABLE_BESIDE,   /* the correct run at the stop shown, compact (a judged run's:
				draw_table_beside.c, from view_beside) */
};

/* The correct run beside the one shown, at the same stop (the table
 * VIEW_TABLE_BESIDE draws): its state rebuilt at the stop's phase, NULL
 * before the first; what it is. */
struct run_snapshot;
struct view_beside {
	const struct run_snapshot *snap;
	const char *title; /* "the correct ring" */
};

/* What a key hook did (view_mode_key). */
enum view_key {
	VIEW_KEY_PASS = 0, /* not the mode's: ask the next, then the interface's own keys */
	VIEW_KEY_DONE,     /* done (or refused, with v->msg saying why) */
	VIEW_KEY_SESSION,  /* allowed, and the session acts on it (j makes the view again) */
};

/* s: the command line of the view, built by view_share_line from the
 * options and what each mode adds.  Its words go in slots, each at its place
 * on the line; a mode whose run is a trace's or a case's says so, and the
 * run's own settings (or matrices) are left out. */
enum view_share_slot {
	VIEW_SHARE_SOURCE = 0, /* first: where the run comes from (--judge ..., --replay F) */
	VIEW_SHARE_SETTING,    /* after -m: a setting of the run (--train) */
	VIEW_SHARE_INPUT,      /* after it: an input of the run (--dC F) */
	VIEW_SHARE_PRACTICE,   /* after --bug: what asks questions (--quiz=derive) */
	VIEW_SHARE_SLOTS
};

struct view_share {
	const struct cli_opts *o; /* the options the session started from */
	int settings_fixed;       /* mode, devices, order, capacity, --train, --quiz: the source's */
	int inputs_fixed;         /* the matrices (-M -K -N, values, seed, --dC): the source's */
	char word[VIEW_SHARE_SLOTS][1024];
	size_t len[VIEW_SHARE_SLOTS];
};

/* Adds a word to a slot, quoted for a shell when it needs it. */
void view_share_word(struct view_share *s, int slot, const char *word);
void view_share_wordf(struct view_share *s, int slot, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

struct view_mode {
	const char *name; /* as the help's title says it: "keys (- not in a judged run)" */
	int layer;        /* lower answers first (see above) */
	const char *tag;  /* the status bar's word after FSDP/DP (" judged"), or NULL */
	void (*free)(void *data); /* at pop: the state it was pushed with, if it owns it */

	/* The run.  configure: the engine's settings the mode adds (the
	 * training step's pass in the plan, its dC in the run's config).  prepare: before a run starts or a log
	 * is rebuilt (references to check against), 0 or an error.  new_run: a
	 * new run of the engine, nothing of it seen.  restart: r; returns 1 when
	 * the mode restarts the view itself (a log's run: back to ready).
	 * rebuild: phase's snapshot from the log (its rules), 0 or an error.
	 * verify: the run is over and C checked; what more the mode checks.
	 * derive: a stop is on screen (or measured, view_still.c): what the
	 * mode's words of it derive from the stop alone, into its state or the
	 * view's, and nothing more (no question opened).  shown: a stop was
	 * put on screen, after derive.  typing: an answer line of the mode's
	 * takes the keys, and the run waits for it. */
	void (*configure)(const struct view *v, const void *data, struct dm_plan *plan,
			  struct run_config *run);
	int (*prepare)(struct view *v, void *data, struct dm_err *err);
	void (*new_run)(struct view *v, void *data);
	int (*restart)(struct view *v, void *data, uint64_t now);
	int (*rebuild)(struct view *v, const void *data, int phase, struct dm_err *err);
	void (*verify)(struct view *v, void *data);
	void (*derive)(struct view *v, void *data);
	void (*shown)(struct view *v, void *data);
	int (*typing)(const struct view *v, const void *data);

	/* Words.  Each returns 1 when it wrote buf (always NUL-terminated).
	 * caption: what the stop means.  transfer_note: a sentence a transfer's
	 * caption adds.  formula: rank r's line (short: without C's range).
	 * calls: rank r's calls during a transfer, progress 0..1 through its
	 * motion or -1 at rest.  verify_line: once the verification is on screen.
	 * headline: a line above the caption on every stop; returns its tone.
	 * question: lines in the caption's place.  note: a line under it.
	 * advice: what to do after a deadlock ("" for nothing; NULL: ask below).
	 * status: words the status bar's right side adds ("  part 1/3").
	 * chapter: which part of a longer show the view is (a recording puts a
	 * marker where it changes), 0 for none. */
	int (*caption)(const struct view *v, const void *data, char *buf, size_t size);
	int (*transfer_note)(const struct view *v, const void *data, char *buf, size_t size);
	int (*formula)(const struct view *v, const void *data, int r, int shortform, char *buf,
		       size_t size);
	int (*calls)(const struct view *v, const void *data, int r, double progress, char *buf,
		     size_t size);
	int (*verify_line)(const struct view *v, const void *data, char *buf, size_t size);
	int (*headline)(const struct view *v, const void *data, char *buf, size_t size);
	int (*question)(const struct view *v, const void *data, struct view_lines *out);
	int (*note)(const struct view *v, const void *data, char *buf, size_t size);
	const char *(*advice)(const struct view *v, const void *data);
	void (*status)(const struct view *v, const void *data, char *buf, size_t size);
	int (*chapter)(const struct view *v, const void *data);

	/* Panels and tables.  hides: every formula and shard index hidden.
	 * fresh: whether column j of rank r was written at this stop, in
	 * *fresh; returns 1 when the mode says.  wrong: whether C[row, col]
	 * is marked '!' at the stop shown, in *wrong; 1 when the mode says
	 * (else: at the verification, where the final C differs from A @ B).
	 * marks: rank r's panel carries
	 * the mode's mark.  message: the mark on a link, 1 when there is one.
	 * other: the other layout's bytes on rank r (view_other); 1 when said.
	 * panel_lines: lines a full panel adds; panel_line: rank r's.  table:
	 * the schedule table's kind (enum view_table).  beside: the run the
	 * table VIEW_TABLE_BESIDE shows, 1 when the mode gives one.  links: 1 when the
	 * ring's links are drawn (besides FSDP's: DP's training all-reduce).
	 * routes: the links the run's messages took, sender to receiver, into
	 * out (at most max), over the whole run so that they hold still from
	 * stop to stop; the count, or -1 to let the modes below say (none
	 * does: the ring's r -> r + 1).
	 * block: what place `slot` (0..2, where the forward shows C, A's rows
	 * and the B shard; v cycles them) of rank r's panel holds at the stop
	 * shown, or with r = -1 the largest it holds on any rank at any stop of
	 * the run (its size and format only, so that the panels keep their
	 * size from stop to stop); 1 when the mode says.  result: the i-th
	 * matrix the verification's overlay shows (0 first), 1 when there is
	 * one.  memory: the memory and traffic table c shows, 1 when the mode
	 * gives it (else the forward's DP against FSDP). */
	int (*hides)(const struct view *v, const void *data);
	int (*fresh)(const struct view *v, const void *data, int r, size_t j, int *fresh);
	int (*wrong)(const struct view *v, const void *data, size_t row, size_t col, int *wrong);
	int (*marks)(const struct view *v, const void *data, int r);
	int (*message)(const struct view *v, const void *data, struct view_mark *m);
	int (*other)(const struct view *v, const void *data, int r, struct view_other *o);
	int (*panel_lines)(const struct view *v, const void *data);
	int (*panel_line)(const struct view *v, const void *data, int r, int width, char *buf,
			  size_t size);
	int (*table)(const struct view *v, const void *data);
	int (*beside)(const struct view *v, const void *data, struct view_beside *b);
	int (*links)(const struct view *v, const void *data);
	int (*routes)(const struct view *v, const void *data, struct layout_route *out, int max);
	int (*block)(const struct view *v, const void *data, int r, int slot, struct view_block *b);
	int (*result)(const struct view *v, const void *data, int i, struct view_block *b);
	int (*memory)(const struct view *v, const void *data, struct view_memtab *t);
	/* phase_cell: with the table VIEW_TABLE_PHASES, the words of rank r's
	 * cell at phase p ("A<-r0", "C1>+C0"), r = -1 the column's header, p =
	 * -1 the table's title; *shard the colour it takes (-1 none).  1 when
	 * said. */
	int (*phase_cell)(const struct view *v, const void *data, int p, int r, char *buf,
			  size_t size, int *shard);
	/* panel_title: what a full panel's title says after "rank R" ("A[:, 0:2]
	 * B[0:2, :]"), in place of its rows of A; 1 when said. */
	int (*panel_title)(const struct view *v, const void *data, int r, char *buf, size_t size);
	/* token: what rank r's message on its link says while the stop's
	 * transfer moves ("c2", "c0:2"), when the moving tokens are the mode's
	 * (a collective's chunks); 1 when said (draw_links.c draws it). */
	int (*token)(const struct view *v, const void *data, int r, char *buf, size_t size);

	/* Keys (enum keys_action).  refuse: the one-line reason this mode does
	 * not take the action (the help marks it; pressing says it), without
	 * the key's name, or NULL.  key: does the action; enum view_key.  needs:
	 * the key bar's conditions (enum keys_need) given those of the modes
	 * below (the base's first).  absent: why the action does nothing while
	 * this mode is off, for the actions only it takes (asked of every mode
	 * of modes.c), or NULL.  share: what s adds to the command line. */
	const char *(*refuse)(const struct view *v, const void *data, int action);
	int (*key)(struct view *v, void *data, int action, int ch, uint64_t now);
	unsigned (*needs)(const struct view *v, const void *data, unsigned have);
	const char *(*absent)(int action);
	/* goto_stop: g s, when the mode counts g's steps itself (a collective's
	 * phases): *stop the stop step s names, or -2 with why in buf; 1 when
	 * said. */
	int (*goto_stop)(const struct view *v, const void *data, int s, int *stop, char *buf,
			 size_t size);
	void (*share)(const struct view *v, const void *data, struct view_share *s);
};

/* A mode's refusals as a table, ended by ACT_NONE (0): its refuse hook
 * looks the action up (view_refusal_find), so its reasons read as a list. */
struct view_refusal {
	int action; /* enum keys_action */
	const char *why;
};
const char *view_refusal_find(const struct view_refusal *t, int action);

/* One active mode: its table and what it was pushed with. */
struct view_mode_entry {
	const struct view_mode *mode;
	void *data;
};

#define VIEW_MODES_MAX 8

/* Adds mode m with data to the view, in its layer's place (a mode already
 * there is replaced, its data freed).  Returns 0, or -1 when the list is
 * full (data is then freed by m's free hook). */
int view_mode_push(struct view *v, const struct view_mode *m, void *data);
/* Takes mode m off, freeing its data; nothing when it is not on. */
void view_mode_pop(struct view *v, const struct view_mode *m);
/* Takes every mode off (view_free). */
void view_mode_clear(struct view *v);
/* Whether mode m is on, and the data it was pushed with (NULL when it is
 * not on).  For a mode's own file (its entry points outside a hook) and the
 * registry; the rest of the interface asks the hooks, never which mode. */
int view_mode_on(const struct view *v, const struct view_mode *m);
void *view_mode_data(const struct view *v, const struct view_mode *m);

#endif
