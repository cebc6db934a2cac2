/* tp_int: what tensor parallel's mode files share (tp.c, tp_blocks.c). */
#ifndef TUI_MODES_TP_INT_H
#define TUI_MODES_TP_INT_H

#include <stddef.h>

#include "tui/view.h"

struct tp_state {
	struct view_format fpart; /* tp-row's partials and running sums, as wide as |A| @ |B| */
};

/* The run on screen is tp-row's; its sum ends in a reduce-scatter. */
int tp_row(const struct view *v);
int tp_rs(const struct view *v);
/* The rows of C's chunk c (numpy's array_split of M). */
void tp_chunk_rows(const struct view *v, int c, size_t *r0, size_t *r1);

/* tp_blocks.c: the partials' format (prepare), the panels' blocks (block),
 * the four modes' memory and traffic table (memory). */
int tpb_formats(struct view *v, void *data, struct dm_err *err);
int tpb_block(const struct view *v, const void *data, int r, int slot, struct view_block *b);
int tpb_memory(const struct view *v, const void *data, struct view_memtab *t);

/* tp_mlp.c: -m tp-mlp's caption, a rank's formula, and Z checked against
 * act(A @ B) @ E (the verdict in v). */
void tpm_caption(const struct view *v, char *buf, size_t size);
void tpm_formula(const struct view *v, int r, int shortform, char *buf, size_t size);
void tpm_verify(struct view *v);
int tpm_verify_line(const struct view *v, char *buf, size_t size);

#endif
