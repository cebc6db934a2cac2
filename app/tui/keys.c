/* keys: the key table and the dispatch over it (see keys.h).  The context
 * rules (an open overlay takes any key; the practice's answer line takes
 * every printable one; an answer or a step being typed takes digits; the
 * worked cell takes the arrows) come before the table, since they change
 * what a key means; every other key means what its row says.  Rows whose keys mean something only in a context (n skips a
 * question, Esc backs out) are rows too, so the help and the bar say so. */
#include "keys.h"

#include <curses.h>
#include <stddef.h>
#include <string.h>

#define KEYS_ESC 27
#define KEYS_CTRL_L 12
#define KEYS_TAB 9

#define MAIN KEYS_IN_MAIN
#define CELL KEYS_IN_CELL
#define QUIZ KEYS_IN_QUIZ
#define GOTO KEYS_IN_GOTO
#define TEXT KEYS_IN_TEXT

static const struct keys_binding keys_table[] = {
	{ "space n Right", "next stop (cuts the motion short)", "n", "next", MAIN | CELL, 0,
	  { { ' ', ACT_NEXT }, { 'n', ACT_NEXT }, { KEY_RIGHT, ACT_NEXT } }, NULL },
	{ "b Left", "one stop back (rebuilt from the log)", "b", "back", MAIN | CELL, 0,
	  { { 'b', ACT_BACK }, { KEY_LEFT, ACT_BACK } }, NULL },
	/* two keys' lines share one where they belong together: the help fits
	 * 80x24 (the table's length is held to it by check_keys) */
	{ "p + -", "play / pause; faster / slower", "p +/-", "play/speed", MAIN,
	  KEYS_NEED_PLAYABLE,
	  { { 'p', ACT_PLAY },
	    { '+', ACT_FASTER },
	    { '=', ACT_FASTER },
	    { '-', ACT_SLOWER },
	    { '_', ACT_SLOWER } }, NULL },
	{ "Home End g", "the start, the end; g: go to step s", "g", "step", MAIN, 0,
	  { { KEY_HOME, ACT_HOME }, { KEY_END, ACT_END }, { 'g', ACT_GOTO } }, NULL },
	{ "m [ ]", "restarts: FSDP>DP>tp-col>tp-row; one device fewer / more", "m [ ]", "mode/devs", MAIN,
	  KEYS_NEED_LIVE, { { 'm', ACT_MODE }, { '[', ACT_FEWER }, { ']', ACT_MORE } }, NULL },
	/* the bar has no room for d at 80 columns (two lines, check_layout) */
	{ "d", "forward only / the training step (restarts)", NULL, NULL, MAIN, KEYS_NEED_LIVE,
	  { { 'd', ACT_TRAIN } }, NULL },
	{ "r", "restart", "r", "reset", MAIN, 0, { { 'r', ACT_RESTART } }, NULL },
	{ "Tab 0-9", "one rank large, by its neighbours", "Tab", "rank", MAIN, 0,
	  { { KEYS_TAB, ACT_FOCUS_NEXT }, { KEY_BTAB, ACT_FOCUS_PREV } }, NULL },
	{ "v", "panels show all / C / A / the B shard", "v", "panel", MAIN, 0,
	  { { 'v', ACT_SHOW } }, NULL },
	{ "w", "a worked cell of C; arrows pick it", "w", "cell", MAIN | CELL, 0,
	  { { 'w', ACT_CELL } }, NULL },
	{ "t", "the schedule table, rank by step", "t", "table", MAIN, 0, { { 't', ACT_TABLE } }, NULL },
	{ "x", "quiz: predict, then reveal (on / off)", "x", "quiz", MAIN | QUIZ, KEYS_NEED_LIVE,
	  { { 'x', ACT_QUIZ } }, NULL },
	{ "a", "practice: answer its question (again)", "a", "answer", MAIN, KEYS_NEED_DERIVE,
	  { { 'a', ACT_DERIVE_OPEN } }, NULL },
	{ "Enter", "answer (n skips); go to the step typed", "Enter", "answer", QUIZ | TEXT, 0,
	  { { '\n', ACT_ENTER }, { '\r', ACT_ENTER }, { KEY_ENTER, ACT_ENTER } }, NULL },
	{ "c", "memory and traffic (Space: at real scale)", "c", "mem", MAIN, 0, { { 'c', ACT_MEMORY } }, NULL },
	{ "f", "after a deadlock: the fixed order", "f", "fix it", MAIN, KEYS_NEED_DEADLOCK,
	  { { 'f', ACT_FIX } }, NULL },
	{ "s", "share: the command line of this view", "s", "share", MAIN, 0,
	  { { 's', ACT_SHARE } }, NULL },
	{ "j", "with --judge: the correct ring / your run", "j", "compare", MAIN, KEYS_NEED_JUDGE,
	  { { 'j', ACT_JUDGE } }, "ring large" },
	{ "T", "theme: default, projector, light", "T", "theme", MAIN, 0, { { 'T', ACT_THEME } }, NULL },
	{ "Esc", "back: the cell, the focus, the final C", "Esc", "back", MAIN | CELL | GOTO | TEXT,
	  KEYS_NEED_BACKOUT, { { KEYS_ESC, ACT_ESCAPE } }, NULL },
	{ "? h F1", "this help (Ctrl-L redraws)", "?", "help", MAIN | CELL | QUIZ, 0,
	  { { '?', ACT_HELP }, { 'h', ACT_HELP }, { KEY_F(1), ACT_HELP },
	    { KEYS_CTRL_L, ACT_REDRAW } }, NULL },
	{ "q", "quit", "q", "quit", MAIN | CELL | QUIZ, 0, { { 'q', ACT_QUIT } }, NULL },
};

enum { KEYS_COUNT = sizeof keys_table / sizeof keys_table[0] };

int keys_count(void)
{
	return KEYS_COUNT;
}

const struct keys_binding *keys_binding(int i)
{
	return i >= 0 && i < KEYS_COUNT ? &keys_table[i] : NULL;
}

const struct keys_binding *keys_find(int action)
{
	for (int i = 0; i < KEYS_COUNT; i++)
		for (int k = 0; k < KEYS_MAX_CODES && keys_table[i].key[k].action != ACT_NONE; k++)
			if (keys_table[i].key[k].action == action)
				return &keys_table[i];
	return NULL;
}

const char *keys_bar_what(const struct keys_binding *b, int beside)
{
	return beside && b->bar_beside ? b->bar_beside : b->bar_what;
}

int keys_bar_w(const struct keys_binding *b)
{
	size_t w = strlen(b->bar_what), alt = b->bar_beside ? strlen(b->bar_beside) : 0;
	return (int)(strlen(b->bar_key) + 1 + (alt > w ? alt : w));
}

int keys_in_bar(const struct keys_binding *b, unsigned in, unsigned have)
{
	return b->bar_key && (b->bar_in & in) && (b->bar_need & ~have) == 0;
}

static int keys_digit(int ch)
{
	return ch >= '0' && ch <= '9';
}

static int keys_backspace(int ch)
{
	return ch == KEY_BACKSPACE || ch == 127 || ch == 8;
}

int keys_action(int ch, const struct keys_ctx *ctx)
{
	if (ch == KEY_RESIZE)
		return ACT_RESIZE;
	if (ch == ERR)
		return ACT_NONE;
	if (ctx->overlay)
		return ACT_CLOSE_OVERLAY;
	if (ctx->text) {
		/* an expression: letters are names (n, r, s), so no key steps the run */
		if (ch >= ' ' && ch <= '~')
			return ACT_TEXT_TYPE;
		if (keys_backspace(ch))
			return ACT_TEXT_BACK;
		if (ch == KEYS_TAB)
			return ACT_TEXT_SKIP;
		if (ch != '\n' && ch != '\r' && ch != KEY_ENTER && ch != KEYS_ESC &&
		    ch != KEYS_CTRL_L && ch != KEY_F(1))
			return ACT_NONE;
	}
	if (ctx->go) {
		if (keys_digit(ch))
			return ACT_GOTO_TYPE;
		if (keys_backspace(ch))
			return ACT_GOTO_BACK;
	}
	if (ctx->quiz) {
		if (keys_digit(ch) || ch == '-' || ch == ':')
			return ACT_QUIZ_TYPE;
		if (keys_backspace(ch))
			return ACT_QUIZ_BACK;
	}
	if (ctx->cell) {
		switch (ch) {
		case KEY_UP: return ACT_CELL_UP;
		case KEY_DOWN: return ACT_CELL_DOWN;
		case KEY_LEFT: return ACT_CELL_LEFT;
		case KEY_RIGHT: return ACT_CELL_RIGHT;
		}
	}
	if (keys_digit(ch))
		return ACT_FOCUS_DIGIT;
	for (int i = 0; i < KEYS_COUNT; i++)
		for (int k = 0; k < KEYS_MAX_CODES && keys_table[i].key[k].action != ACT_NONE; k++)
			if (keys_table[i].key[k].code == ch)
				return keys_table[i].key[k].action;
	return ACT_NONE;
}
