/* keys: what a key means.  A pure mapping from a key (and whether an
 * overlay is open) to an action; the loop applies the action.  Key handlers
 * never draw (htop's and tmux's habit): they say what must happen next. */
#ifndef TUI_KEYS_H
#define TUI_KEYS_H

enum keys_action {
	ACT_NONE = 0,
	ACT_NEXT,          /* space, n, Right: the next phase */
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
};

/* The action for key ch (a curses key code); overlay says whether the help
 * overlay is open, in which case any key closes it. */
int keys_action(int ch, int overlay);

#endif
