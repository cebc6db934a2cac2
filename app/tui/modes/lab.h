/* lab: the deadlock lab's mode (lab.c), on when an order was asked for. */
#ifndef TUI_MODES_LAB_H
#define TUI_MODES_LAB_H

#include "tui/mode.h"

extern const struct view_mode mode_lab;

#endif
