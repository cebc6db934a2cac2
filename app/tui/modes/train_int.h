/* train_int: what the training step's mode (train.c) shares with the files
 * that say its panels (train_blocks.c: the blocks, the verification's
 * matrices, each panel's line) and its memory table (train_memory.c).
 * For app/tui/modes/train*.c only. */
#ifndef TUI_MODES_TRAIN_INT_H
#define TUI_MODES_TRAIN_INT_H

#include <stddef.h>

#include <distmm/mat.h>

#include "train_parts.h"
#include "tui/view.h"

/* train_state.bad: the outputs that fail allclose */
enum { TRAIN_BAD_C = 1, TRAIN_BAD_DA = 2, TRAIN_BAD_DB = 4 };

struct train_state {
	struct mat ref_da, ref_db; /* dC @ B^T and A^T @ dC, made once */
	int bad;                   /* which of C, dA and dB the run got wrong: TRAIN_BAD_* */
	double max_err_da, max_err_db;
	size_t n_bad_da, n_bad_db; /* their elements that differ */
	/* how dC's, dA's and dB's values are written: dA's and dB's wide enough
	 * for every running sum (bounded by |dC| @ |B|^T and |A|^T @ |dC|),
	 * a bug's included */
	struct view_format fdc, fda, fdb;
	struct view_format fwide[3]; /* the widest of what each panel place shows over the run */
	/* whose parts each chunk of each rank's dB holds at the stop shown and
	 * before it (train_parts), when parts_ok */
	int parts_ok;
	tparts_set parts[TPARTS_MAX * TPARTS_MAX], before[TPARTS_MAX * TPARTS_MAX];
};

/* train_blocks.c: the hooks of mode.h they are named for. */
int tblock_block(const struct view *v, const void *data, int r, int slot, struct view_block *b);
int tblock_result(const struct view *v, const void *data, int i, struct view_block *b);
int tblock_panel_line(const struct view *v, const void *data, int r, int width, char *buf,
		      size_t size);
/* The formats of each place over the run (fwide), once dA's and dB's are known. */
void tblock_formats(const struct view *v, struct train_state *t);
/* The stop shown: its parts worked out (the shown hook). */
void tblock_shown(const struct view *v, struct train_state *t);
/* The bug the run's backward makes (its plan's, where it applies), else none. */
enum dm_bug tblock_bug(const struct view *v);

/* train_memory.c: c's table, the training step's figures by the model
 * beside the run's (the memory hook). */
int tmem_table(const struct view *v, const void *data, struct view_memtab *t);

#endif
