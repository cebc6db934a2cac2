/* keys: what a key means.  One table owns every binding: the keys as the
 * help shows them, what they do, their short form in the key bar with the
 * screens it shows them on, and the key codes with the action each one asks
 * for.  The dispatch, the help overlay and the key bar all read it, so they
 * cannot disagree.  Key handlers never draw (htop's and tmux's habit): they
 * say what must happen next, and the loop applies the action. */
#ifndef TUI_KEYS_H
#define TUI_KEYS_H

enum keys_action {
	ACT_NONE = 0,
	ACT_NEXT,          /* the next stop */
	ACT_BACK,          /* one stop back */
	ACT_HOME,          /* the start */
	ACT_END,           /* the end: the verification */
	ACT_GOTO,          /* g: type a step, then Enter */
	ACT_PLAY,          /* play / pause */
	ACT_MODE,          /* DP <-> FSDP, restart on the same matrices */
	ACT_TRAIN,         /* forward only <-> the training step, restart */
	ACT_RESTART,
	ACT_FASTER,
	ACT_SLOWER,
	ACT_FEWER,         /* one device fewer, restart */
	ACT_MORE,          /* one device more, restart */
	ACT_FOCUS_NEXT,    /* Tab: the next rank large */
	ACT_FOCUS_PREV,    /* Shift-Tab */
	ACT_FOCUS_DIGIT,   /* 0-9: that rank large (the key itself) */
	ACT_SHOW,          /* what the panels show: all, C, A, B */
	ACT_CELL,          /* the worked cell on / off */
	ACT_CELL_UP,       /* arrows in the worked cell */
	ACT_CELL_DOWN,
	ACT_CELL_LEFT,
	ACT_CELL_RIGHT,
	ACT_TABLE,         /* the schedule table */
	ACT_TIMELINE,      /* the timeline: the modelled clock, the measured one, off */
	ACT_QUIZ,          /* the quiz on / off */
	ACT_MEMORY,        /* DP vs FSDP, memory and traffic */
	ACT_FIX,           /* after a deadlock, run the fixed (parity) order */
	ACT_SHARE,         /* the command line that reproduces this view */
	ACT_JUDGE,         /* --judge: the correct ring / the candidate's run */
	ACT_THEME,         /* the next theme: default, projector, light */
	ACT_ESCAPE,        /* Esc: back out of the innermost mode */
	ACT_HELP,
	ACT_REDRAW,
	ACT_QUIT,
	ACT_CLOSE_OVERLAY, /* any key while an overlay is open */
	ACT_RESIZE,        /* KEY_RESIZE */
	ACT_QUIZ_TYPE,     /* a digit, '-' or ':' of an answer (the key itself) */
	ACT_QUIZ_BACK,     /* Backspace in an answer */
	ACT_GOTO_TYPE,     /* a digit of the step to go to */
	ACT_GOTO_BACK,     /* Backspace in it */
	ACT_ENTER,         /* answer the question, go to the step typed, or the next stop */
	ACT_DERIVE_OPEN,   /* a: the practice's question, its answer line open again */
	ACT_TEXT_TYPE,     /* a character of an expression (the key itself) */
	ACT_TEXT_BACK,     /* Backspace in it */
	ACT_TEXT_SKIP,     /* Tab in it: show the answer */
};

/* The screens a hint shows on (keys_binding.bar_in), one of which the
 * caller is on. */
enum keys_in {
	KEYS_IN_MAIN = 1u << 0,    /* the run, nothing open */
	KEYS_IN_CELL = 1u << 1,    /* the worked cell */
	KEYS_IN_QUIZ = 1u << 2,    /* a question waits for its answer */
	KEYS_IN_GOTO = 1u << 3,    /* a step being typed */
	KEYS_IN_OVERLAY = 1u << 4, /* the help, the memory table, the schedule table */
	KEYS_IN_TEXT = 1u << 5,    /* the practice's answer line: an expression being typed */
};

/* What must hold for a hint to be offered (keys_binding.bar_need). */
enum keys_need {
	KEYS_NEED_LIVE = 1u << 0,     /* the engine runs (not a replay): m, [ ], x */
	KEYS_NEED_PLAYABLE = 1u << 1, /* stops are left to play: p */
	KEYS_NEED_DEADLOCK = 1u << 2, /* a naive ring deadlocked: f */
	KEYS_NEED_BACKOUT = 1u << 3,  /* something Esc leaves: the focus, the final C */
	KEYS_NEED_RESULT = 1u << 4,   /* the final C is on screen */
	KEYS_NEED_DERIVE = 1u << 5,   /* the practice's question waits, its line closed: a */
	KEYS_NEED_JUDGE = 1u << 6,    /* --judge: a candidate's run and the ring: j */
};

#define KEYS_MAX_CODES 6

/* One line of the help: a group of keys that belong together ("+ -"). */
struct keys_binding {
	const char *names;    /* the keys as the help shows them: "space n Right" */
	const char *what;     /* what they do, as the help says it */
	const char *bar_key;  /* the key bar's short form ("+/-", "speed"), */
	const char *bar_what; /* or NULL when the bar never shows them */
	unsigned bar_in;      /* enum keys_in: the screens the bar shows it on */
	unsigned bar_need;    /* enum keys_need: all must hold */
	struct {
		int code;   /* a curses key code */
		int action; /* enum keys_action; ACT_NONE ends the list */
	} key[KEYS_MAX_CODES];
	const char *bar_beside; /* the bar's words when what the key shows is already
				   beside the panels, compact (j: the correct ring), or NULL */
};

/* The key bar's words for b: bar_beside when the screen shows what b's key
 * would, compact, beside the panels; and the most columns either takes. */
const char *keys_bar_what(const struct keys_binding *b, int beside);
int keys_bar_w(const struct keys_binding *b);

/* The number of bindings, and binding i (0 <= i < keys_count()), in the
 * order the help lists them. */
int keys_count(void);
const struct keys_binding *keys_binding(int i);

/* The binding one of whose keys asks for action, or NULL when no key does
 * (ACT_CLOSE_OVERLAY, ACT_RESIZE, the typing). */
const struct keys_binding *keys_find(int action);

/* Whether binding b's hint belongs in the key bar on screen `in` (one
 * KEYS_IN_* bit) when the conditions `have` (KEYS_NEED_* bits) hold. */
int keys_in_bar(const struct keys_binding *b, unsigned in, unsigned have);

/* What the dispatch must know of the screen. */
struct keys_ctx {
	int overlay; /* the help or a table is open: any key closes it */
	int quiz;    /* a question waits: digits, '-' and ':' type the answer */
	int go;      /* a step is being typed: digits type it */
	int cell;    /* the worked cell: the arrows move it */
	int text;    /* the practice's answer line: every printable key types; Backspace,
			Tab (skip), Enter, Esc, Ctrl-L and F1 keep a meaning, no other key has one */
};

/* The action for key ch (a curses key code) in this context.  The context
 * rules come first: the overlay, the answer line, then the rest in the
 * order of keys_ctx's fields; then the table. */
int keys_action(int ch, const struct keys_ctx *ctx);

#endif
