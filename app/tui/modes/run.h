/* run: the base mode, the FSDP or DP run (run.c). */
#ifndef TUI_MODES_RUN_H
#define TUI_MODES_RUN_H

#include "tui/mode.h"

extern const struct view_mode mode_run;

#endif
