/* view_zero: c's second page, the memory argument at real scale (issue 27):
 * the model states a device holds in DP and ZeRO-1, -2, -3 (FSDP's full
 * shard) and what it sends a step, from the engine's model_zero and the
 * words of zero_words.  Without --params the model is this run's B taken
 * as a layer's weights (Psi = K x N), so the toy run and the formulas are
 * the same argument at two scales; its bytes are then said as the c
 * table's are, and --params' in GB (10^9), the ZeRO paper's convention. */
#include "view.h"

#include <stdio.h>
#include <string.h>

#include <distmm/model.h>
#include "words/zero_words.h"

/* zero_words' words with P for Ψ: "16Ψ/N" is "16P/N" (the interface may be
 * ASCII, and its tables count a byte a column). */
static void view_zero_ascii(const char *f, char *buf, size_t size)
{
	size_t o = 0;
	while (*f && o + 1 < size) {
		if (strncmp(f, "\xce\xa8", 2) == 0) { /* Ψ */
			buf[o++] = 'P';
			f += 2;
		} else {
			buf[o++] = *f++;
		}
	}
	buf[o] = '\0';
}

static void view_zero_bytes(const struct view *v, double bytes, char *buf, size_t size)
{
	if (v->cfg.params)
		zerow_gb(bytes, buf, size);
	else
		view_bytes((uint64_t)(bytes + 0.5), buf, size);
}

void view_zero_table(const struct view *v, struct view_memtab *t)
{
	static const char *const head[] = { "mode", "closed form", "a device", "fits?",
					    "sent a step" };
	int n = v->cfg.devices;
	/* a collective's view has no B (c says so before it gets here) */
	uint64_t psi = v->cfg.params ? v->cfg.params
		       : v->b	     ? (uint64_t)v->b->rows * (uint64_t)v->b->cols
				     : 1;
	double mem = (v->cfg.gpu_mem_gb > 0 ? v->cfg.gpu_mem_gb : 80) * 1e9;
	memset(t, 0, sizeof *t);
	snprintf(t->title, sizeof t->title, "at real scale: model states a device (ZeRO)");
	t->n_cols = 5;
	for (int k = 0; k < t->n_cols; k++)
		snprintf(t->head[k], sizeof t->head[k], "%s", head[k]);
	for (int s = 0; s < MODEL_ZERO_COUNT; s++) {
		struct model_zero z;
		model_zero(s, psi ? psi : 1, n, mem, &z);
		snprintf(t->cell[s][0], sizeof t->cell[s][0], "%s",
			 s == MODEL_ZERO_3 ? "ZeRO-3/FSDP" : zerow_name(s));
		view_zero_ascii(zerow_formula(s), t->cell[s][1], sizeof t->cell[s][1]);
		view_zero_bytes(v, (double)z.bytes, t->cell[s][2], sizeof t->cell[s][2]);
		snprintf(t->cell[s][3], sizeof t->cell[s][3], "%s", z.fits ? "yes" : "no");
		view_zero_bytes(v, z.sent, t->cell[s][4], sizeof t->cell[s][4]);
	}
	t->n_rows = MODEL_ZERO_COUNT;
	char psi_words[48];
	zerow_params(psi, psi_words, sizeof psi_words);
	if (v->cfg.params)
		snprintf(t->note[t->n_note++], sizeof t->note[0],
			 "P = %s parameters (--params) on N = %d devices of %.15g GB", psi_words, n,
			 mem / 1e9);
	else if (v->b)
		snprintf(t->note[t->n_note++], sizeof t->note[0],
			 "P = %s parameters: this run's B (K x N = %zu x %zu) as a layer's weights, "
			 "on N = %d devices of %.15g GB; --params P (7.5e9, 70B, 400B) for a real model",
			 psi_words, v->b->rows, v->b->cols, n, mem / 1e9);
	char dp[160], z3[160];
	view_zero_ascii(zerow_sent_rule(MODEL_ZERO_DP), dp, sizeof dp);
	view_zero_ascii(zerow_sent_rule(MODEL_ZERO_3), z3, sizeof z3);
	snprintf(t->note[t->n_note++], sizeof t->note[0],
		 "sent a step: DP, ZeRO-1 and ZeRO-2 %s; ZeRO-3 %s", dp, z3);
	snprintf(t->note[t->n_note++], sizeof t->note[0], "%s", zerow_convention());
	snprintf(t->note[t->n_note++], sizeof t->note[0], "%s", zerow_left_out());
}
