/* train_memory: c in a training step (see train_int.h): the step's memory
 * and traffic rank by rank, forward and backward, for both modes by the
 * training model (<distmm/model.h>: model_train_rank, the figures batch
 * mode prints), beside what the panels say at the stop shown: the run's
 * peak so far and its bytes sent so far (the snapshot's, the numbers of
 * each panel's mem and sent lines).  At the end the run's equal the
 * model's for its mode: the tests hold the engine to the model. */
#include "train_int.h"

#include <stdio.h>
#include <string.h>

#include <distmm/model.h>
#include <distmm/plan.h>

/* Three columns of a mode's figures by the model, from column col on. */
static void tm_mode(const struct view *v, enum dm_mode mode, int col, struct view_memtab *t,
		    uint64_t *total)
{
	struct dm_plan *p = NULL;
	int n = v->cfg.devices;
	struct model_train m;
	snprintf(t->group[col], sizeof t->group[col], "%s, the model", plan_mode_name(mode));
	snprintf(t->head[col], sizeof t->head[col], "fwd peak");
	snprintf(t->head[col + 1], sizeof t->head[col + 1], "bwd peak");
	snprintf(t->head[col + 2], sizeof t->head[col + 2], "sent");
	if (plan_make(&p, mode, n, DM_TRAIN, NULL))
		return;
	for (int r = 0; r < n && r < VIEW_MEMTAB_ROWS - 1; r++) {
		model_train_rank(p, v->a->rows, v->a->cols, v->b->cols, r, &m);
		uint64_t f[3] = { m.fwd_peak, m.bwd_peak, m.ring_sent + m.gather_sent };
		for (int k = 0; k < 3; k++) {
			view_bytes(f[k], t->cell[r][col + k], sizeof t->cell[r][col + k]);
			total[k] += f[k];
		}
	}
	plan_free(p);
}

/* Rank 1's sent, said as its parts: the ring's closed form and the gather. */
static void tm_sent_note(const struct view *v, enum dm_mode mode, char *buf, size_t size)
{
	struct dm_plan *p = NULL;
	struct model_train m;
	int r = v->cfg.devices > 1 ? 1 : 0;
	char ring[24], gather[24];
	if (plan_make(&p, mode, v->cfg.devices, DM_TRAIN, NULL)) {
		buf[0] = '\0';
		return;
	}
	model_train_rank(p, v->a->rows, v->a->cols, v->b->cols, r, &m);
	plan_free(p);
	view_bytes(m.ring_sent, ring, sizeof ring);
	view_bytes(m.gather_sent, gather, sizeof gather);
	snprintf(buf, size, "sent: the ring's bytes, then the gather's; %s rank %d: ring %s (%s) + "
			    "gather %s (its rows of C and dA%s)",
		 plan_mode_name(mode), r, ring,
		 mode == DM_FSDP ? "2(B - w_(r+1)) + (B - w_r): two all-gathers of B and the "
				   "reduce-scatter"
				 : "(B - w_r) + (B - w_(r+1)): the all-reduce's two halves",
		 gather, mode == DM_FSDP ? " and its chunk of dB" : "");
}

int tmem_table(const struct view *v, const void *data, struct view_memtab *t)
{
	const struct run_snapshot *s = &v->snap;
	int n = v->cfg.devices, own = v->cfg.mode, rows = n < VIEW_MEMTAB_ROWS - 1 ? n : VIEW_MEMTAB_ROWS - 1;
	uint64_t total[9] = { 0 };
	(void)data;
	memset(t, 0, sizeof *t);
	snprintf(t->title, sizeof t->title, "memory and traffic: the training step (bytes)");
	t->n_cols = 9;
	t->n_rows = rows + 1;
	t->total = 1;
	snprintf(t->group[1], sizeof t->group[1], "the panels, now");
	snprintf(t->head[1], sizeof t->head[1], "peak");
	snprintf(t->head[2], sizeof t->head[2], "sent");
	for (int r = 0; r < rows; r++) {
		snprintf(t->cell[r][0], sizeof t->cell[r][0], "rank %d", r);
		if (!s->dev || r >= s->n)
			continue;
		view_bytes(s->dev[r].peak_bytes, t->cell[r][1], sizeof t->cell[r][1]);
		view_bytes(s->dev[r].sent_bytes, t->cell[r][2], sizeof t->cell[r][2]);
		total[0] += s->dev[r].peak_bytes;
		total[1] += s->dev[r].sent_bytes;
	}
	/* the run's own mode first, then the other */
	tm_mode(v, own, 3, t, total + 2);
	tm_mode(v, own == DM_FSDP ? DM_DP : DM_FSDP, 6, t, total + 5);
	snprintf(t->cell[rows][0], sizeof t->cell[rows][0], "total");
	for (int k = 0; k < 8; k++)
		view_bytes(total[k], t->cell[rows][k + 1], sizeof t->cell[rows][k + 1]);
	snprintf(t->note[t->n_note++], sizeof t->note[0],
		 "the panels, now: each rank's peak held so far and bytes sent so far at this stop, "
		 "as its mem and sent lines say; at the end they are the model's for %s (its peak "
		 "the larger of fwd and bwd)",
		 plan_mode_name(own));
	snprintf(t->note[t->n_note++], sizeof t->note[0],
		 "fwd peak: through the forward; bwd peak: from the backward's first step to the "
		 "end, rank 0's gathered C and dA (FSDP's dB too) included. A mem line's other "
		 "figure is the other mode's peak by the same point of its own step (its dA, its "
		 "partial dB, its reduce-scatter s=...)");
	tm_sent_note(v, DM_FSDP, t->note[t->n_note++], sizeof t->note[0]);
	tm_sent_note(v, DM_DP, t->note[t->n_note++], sizeof t->note[0]);
	return 1;
}
