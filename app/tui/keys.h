/* keys: what a key means.  One table owns every binding: the keys as the
 * help shows them, what they do, their short form in the footer, and the key
 * codes with the action each one asks for.  The dispatch and the help
 * overlay (and the footer's words) all read it, so they cannot disagree.
 * Key handlers never draw (htop's and tmux's habit): they say what must
 * happen next, and the loop applies the action. */
#ifndef TUI_KEYS_H
#define TUI_KEYS_H

enum keys_action {
	ACT_NONE = 0,
	ACT_NEXT,          /* the next phase */
	ACT_BACK,          /* one phase back */
	ACT_PLAY,          /* play / pause */
	ACT_MODE,          /* DP <-> FSDP, restart on the same matrices */
	ACT_RESTART,
	ACT_FASTER,
	ACT_SLOWER,
	ACT_FEWER,         /* one device fewer, restart */
	ACT_MORE,          /* one device more, restart */
	ACT_HELP,
	ACT_CLOSE_OVERLAY, /* any key while an overlay is open */
	ACT_QUIT,
	ACT_REDRAW,
	ACT_RESIZE,        /* KEY_RESIZE */
	ACT_FIX,           /* after a deadlock, run the fixed (parity) order */
	ACT_QUIZ,          /* the quiz on / off */
	ACT_MEMORY,        /* DP vs FSDP, memory and traffic */
	ACT_QUIZ_TYPE,     /* a digit, '-' or ':' of an answer (the key itself) */
	ACT_QUIZ_BACK,     /* Backspace in an answer */
	ACT_ENTER,         /* answer the question, or the next phase */
};

#define KEYS_MAX_CODES 4

/* One line of the help: a group of keys that belong together ("+ -"). */
struct keys_binding {
	const char *names;    /* the keys as the help shows them: "space n Right" */
	const char *what;     /* what they do, as the help says it */
	const char *bar_key;  /* the footer's short form ("+/-", "speed"), */
	const char *bar_what; /* or NULL when the footer never shows them */
	struct {
		int code;   /* a curses key code */
		int action; /* enum keys_action; ACT_NONE ends the list */
	} key[KEYS_MAX_CODES];
};

/* The number of bindings, and binding i (0 <= i < keys_count()), in the
 * order the help lists them. */
int keys_count(void);
const struct keys_binding *keys_binding(int i);

/* The binding one of whose keys asks for action, or NULL when no key does
 * (ACT_CLOSE_OVERLAY, ACT_RESIZE, the quiz's typing). */
const struct keys_binding *keys_find(int action);

/* The action for key ch (a curses key code); overlay says whether the help
 * overlay is open, in which case any key closes it; typing, whether a quiz
 * question waits for an answer, in which case digits, '-' and ':' type. */
int keys_action(int ch, int overlay, int typing);

#endif
