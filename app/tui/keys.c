/* keys: the key map (see keys.h). */
#include "keys.h"

#include <curses.h>

#define KEYS_ESC 27
#define KEYS_CTRL_L 12

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
	switch (ch) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		return ACT_ENTER;
	case 'x':
		return ACT_QUIZ;
	case 'c':
		return ACT_MEMORY;
	case ' ':
	case 'n':
	case KEY_RIGHT:
		return ACT_NEXT;
	case 'b':
	case KEY_LEFT:
		return ACT_BACK;
	case 'p':
		return ACT_PLAY;
	case 'm':
		return ACT_MODE;
	case 'r':
		return ACT_RESTART;
	case '+':
	case '=':
		return ACT_FASTER;
	case '-':
	case '_':
		return ACT_SLOWER;
	case '[':
		return ACT_FEWER;
	case ']':
		return ACT_MORE;
	case '?':
	case 'h':
	case KEY_F(1):
		return ACT_HELP;
	case 'q':
	case KEYS_ESC:
		return ACT_QUIT;
	case KEYS_CTRL_L:
		return ACT_REDRAW;
	case 'f':
		return ACT_FIX;
	}
	return ACT_NONE;
}
