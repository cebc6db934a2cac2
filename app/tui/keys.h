/* keys: what a key means.  A pure mapping from a key (and whether an
 * overlay is open) to an action; the loop applies the action.  Key handlers
 * never draw (htop's and tmux's habit): they say what must happen next. */
#ifndef TUI_KEYS_H
#define TUI_KEYS_H

enum keys_action {
	ACT_NONE = 0,
	ACT_NEXT,          /* space, n, Right: the next phase */
	ACT_BACK,          /* b, Left: one phase back */
	ACT_PLAY,          /* p: play / pause */
	ACT_MODE,          /* m: DP <-> FSDP, restart on the same matrices */
	ACT_RESTART,       /* r */
	ACT_FASTER,        /* + = */
	ACT_SLOWER,        /* - _ */
	ACT_FEWER,         /* [: one device fewer, restart */
	ACT_MORE,          /* ]: one device more, restart */
	ACT_HELP,          /* ? h F1 */
	ACT_CLOSE_OVERLAY, /* any key while an overlay is open */
	ACT_QUIT,          /* q; Esc at top level */
	ACT_REDRAW,        /* Ctrl-L */
	ACT_RESIZE,        /* KEY_RESIZE */
	ACT_FIX,           /* f: after a deadlock, run the fixed (parity) order */
	ACT_QUIZ,          /* x: the quiz on / off */
	ACT_MEMORY,        /* c: DP vs FSDP, memory and traffic */
	ACT_QUIZ_TYPE,     /* a digit, '-' or ':' of an answer (the key itself) */
	ACT_QUIZ_BACK,     /* Backspace in an answer */
	ACT_ENTER,         /* Enter: answer the question, or the next phase */
};

/* The action for key ch (a curses key code); overlay says whether the help
 * overlay is open, in which case any key closes it; typing, whether a quiz
 * question waits for an answer, in which case digits, '-' and ':' type. */
int keys_action(int ch, int overlay, int typing);

#endif
