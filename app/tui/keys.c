/* keys: the key table and the dispatch over it (see keys.h).  The context
 * rules (an open overlay takes any key, an answer being typed takes digits,
 * '-' and ':') come before the table, since they change what a key means;
 * every other key means what its row says. */
#include "keys.h"

#include <curses.h>
#include <stddef.h>

#define KEYS_ESC 27
#define KEYS_CTRL_L 12

static const struct keys_binding keys_table[] = {
	{ "space n Right", "next phase (cuts the motion on screen short)", "n", "next",
	  { { ' ', ACT_NEXT }, { 'n', ACT_NEXT }, { KEY_RIGHT, ACT_NEXT } } },
	{ "b Left", "one phase back (rebuilt from the event log)", "b", "back",
	  { { 'b', ACT_BACK }, { KEY_LEFT, ACT_BACK } } },
	{ "p", "play / pause", "p", "play", { { 'p', ACT_PLAY } } },
	{ "m", "switch DP / FSDP (restart on the same matrices)", "m", "DP/FSDP",
	  { { 'm', ACT_MODE } } },
	{ "r", "restart", "r", "restart", { { 'r', ACT_RESTART } } },
	{ "+ -", "faster / slower", "+/-", "speed",
	  { { '+', ACT_FASTER }, { '=', ACT_FASTER }, { '-', ACT_SLOWER }, { '_', ACT_SLOWER } } },
	{ "[ ]", "one device fewer / more (restart)", "[ ]", "devices",
	  { { '[', ACT_FEWER }, { ']', ACT_MORE } } },
	{ "x", "quiz: predict, then reveal (on / off)", "x", "quiz", { { 'x', ACT_QUIZ } } },
	{ "c", "memory and traffic, DP vs FSDP", "c", "memory", { { 'c', ACT_MEMORY } } },
	{ "f", "after a deadlock: run the fixed order", "f", "fix it", { { 'f', ACT_FIX } } },
	{ "Enter", "answer a question; else the next phase", NULL, NULL,
	  { { '\n', ACT_ENTER }, { '\r', ACT_ENTER }, { KEY_ENTER, ACT_ENTER } } },
	{ "? h F1", "this help", "?", "help",
	  { { '?', ACT_HELP }, { 'h', ACT_HELP }, { KEY_F(1), ACT_HELP } } },
	{ "Ctrl-L", "redraw", NULL, NULL, { { KEYS_CTRL_L, ACT_REDRAW } } },
	{ "q Esc", "quit", "q", "quit", { { 'q', ACT_QUIT }, { KEYS_ESC, ACT_QUIT } } },
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

int keys_action(int ch, int overlay, int typing)
{
	if (ch == KEY_RESIZE)
		return ACT_RESIZE;
	if (ch == ERR)
		return ACT_NONE;
	if (overlay)
		return ACT_CLOSE_OVERLAY;
	if (typing) {
		if ((ch >= '0' && ch <= '9') || ch == '-' || ch == ':')
			return ACT_QUIZ_TYPE;
		if (ch == KEY_BACKSPACE || ch == 127 || ch == 8)
			return ACT_QUIZ_BACK;
	}
	for (int i = 0; i < KEYS_COUNT; i++)
		for (int k = 0; k < KEYS_MAX_CODES && keys_table[i].key[k].action != ACT_NONE; k++)
			if (keys_table[i].key[k].code == ch)
				return keys_table[i].key[k].action;
	return ACT_NONE;
}
