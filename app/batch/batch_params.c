/* batch_params: -b --params (see batch_params.h).  One line a mode: its
 * closed form, the bytes a device holds, whether that fits, the bytes a
 * device sends a step; then the convention and what is left out, so the
 * figures are never read as a whole GPU's memory.  --json: one object a
 * mode, the same figures in bytes. */
#include "batch_params.h"

#include <inttypes.h>
#include <stdio.h>

#include "cli/status.h"
#include <distmm/model.h>
#include "words/zero_words.h"

/* The columns a UTF-8 string takes (its bytes less the continuation bytes). */
static int batch_params_cols(const char *s)
{
	int cols = 0;
	for (; *s; s++)
		cols += ((unsigned char)*s & 0xC0) != 0x80;
	return cols;
}

static void batch_params_json(const struct cli_opts *o)
{
	for (int s = 0; s < MODEL_ZERO_COUNT; s++) {
		struct model_zero z;
		model_zero(s, o->params, o->devices, o->gpu_mem_gb * 1e9, &z);
		printf("{\"mode\":\"%s\",\"params\":%" PRIu64 ",\"devices\":%d,"
		       "\"param_bytes\":%" PRIu64 ",\"grad_bytes\":%" PRIu64
		       ",\"optim_bytes\":%" PRIu64 ",\"bytes\":%" PRIu64 ",\"gb\":%.4f,"
		       "\"gpu_mem_gb\":%.15g,\"fits\":%s,\"sent_bytes\":%.0f,\"sent_gb\":%.4f}\n",
		       zerow_key(s), o->params, o->devices, z.params, z.grads, z.optim, z.bytes,
		       (double)z.bytes / 1e9, o->gpu_mem_gb, z.fits ? "true" : "false", z.sent,
		       z.sent / 1e9);
	}
}

int batch_params_main(const struct cli_opts *o)
{
	char psi[48], gb[32], sent[32];
	int fits = 0;
	if (o->json) {
		batch_params_json(o);
		return STATUS_OK;
	}
	zerow_params(o->params, psi, sizeof psi);
	printf("distmm-tui params: %s parameters on %d device%s of %.15g GB, model states a "
	       "device (N = %d)\n",
	       psi, o->devices, o->devices == 1 ? "" : "s", o->gpu_mem_gb, o->devices);
	printf("%-14s %-14s %12s  %-8s %14s\n", "mode", "closed form", "a device", "fits?",
	       "sent a step");
	for (int s = 0; s < MODEL_ZERO_COUNT; s++) {
		struct model_zero z;
		model_zero(s, o->params, o->devices, o->gpu_mem_gb * 1e9, &z);
		zerow_gb((double)z.bytes, gb, sizeof gb);
		zerow_gb(z.sent, sent, sizeof sent);
		/* the formula has Ψ, two bytes a column wide: pad by hand */
		printf("%-14s %s%*s %12s  %-8s %14s\n", zerow_name(s), zerow_formula(s),
		       14 - batch_params_cols(zerow_formula(s)), "", gb, z.fits ? "yes" : "no",
		       sent);
		fits |= z.fits;
	}
	printf("sent a step: DP, ZeRO-1 and ZeRO-2 %s;\n  ZeRO-3 %s\n",
	       zerow_sent_rule(MODEL_ZERO_DP), zerow_sent_rule(MODEL_ZERO_3));
	printf("%s\n%s\n", zerow_convention(), zerow_left_out());
	if (!fits)
		printf("fits nowhere: no mode holds the model states in %.15g GB on %d device%s\n",
		       o->gpu_mem_gb, o->devices, o->devices == 1 ? "" : "s");
	return STATUS_OK;
}
