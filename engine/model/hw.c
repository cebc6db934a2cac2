/* hw: the presets and the checks of a hardware's values (see hw.h); the
 * preset file's reader and writer are hw_file.c's.
 *
 * Every figure is a published one, named in docs/clock.md with its source:
 *   beta, a GPU's NVLink bandwidth a direction: A100 300 GB/s, H100 450,
 *     B200 900 (the JAX scaling book, "How to think about GPUs"; NVIDIA's
 *     datasheets give twice that, both directions together); InfiniBand NDR
 *     400 Gb/s = 50 GB/s a port, one a GPU (DGX H100).
 *   alpha: A100 2.4 us, measured: a ring all-reduce of 8 B on a DGX A100,
 *     8 GPUs, one channel, took 33.7 us over its 2(n - 1) = 14 hops
 *     (NVIDIA/nccl-tests issue 123).  H100 and B200 3.4 us and the network
 *     14 us: NCCL's own per-hop latency of a ring step, Simple protocol
 *     (NVIDIA/nccl src/graph/tuning.cc, hwLat, 2.19), for want of a
 *     measurement as clean.
 *   F, dense peak, from the datasheets: A100 SXM 19.5 TFLOPS FP64 Tensor
 *     Core, 312 BF16; H100 SXM 67 FP64 Tensor Core, 989 BF16 (1979 is with
 *     sparsity); HGX B200 40 FP64, 2250 BF16 (4500 sparse).  ib-ndr's
 *     devices are H100s. */
#include <distmm/hw.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

struct hw_preset {
	const char *name;
	double alpha_us, bw_gbps, fp64_tflops, bf16_tflops;
	const char *source;
};

static const struct hw_preset hw_presets[] = {
	{ "a100-nvlink", 2.4, 300, 19.5, 312,
	  "A100 SXM, NVLink 3: alpha measured (nccl-tests#123), beta and F NVIDIA's datasheet" },
	{ "h100-nvlink", 3.4, 450, 67, 989,
	  "H100 SXM, NVLink 4: alpha NCCL's tuning model, beta and F NVIDIA's datasheet" },
	{ "b200-nvlink", 3.4, 900, 40, 2250,
	  "HGX B200, NVLink 5: alpha NCCL's tuning model, beta and F NVIDIA's datasheet" },
	{ "ib-ndr", 14, 50, 67, 989,
	  "H100s, one InfiniBand NDR 400 Gb/s port each: alpha NCCL's tuning model (network)" },
};

#define HW_PRESETS ((int)(sizeof hw_presets / sizeof hw_presets[0]))

int hw_preset_count(void)
{
	return 2 * HW_PRESETS;
}

int hw_preset_at(int i, struct dm_hw *out)
{
	if (i < 0 || i >= hw_preset_count())
		return DM_EINVAL;
	const struct hw_preset *p = &hw_presets[i % HW_PRESETS];
	int bf16 = i >= HW_PRESETS;
	memset(out, 0, sizeof *out);
	snprintf(out->name, sizeof out->name, "%s%s", p->name, bf16 ? "-bf16" : "");
	out->alpha_us = p->alpha_us;
	out->bw_gbps = p->bw_gbps;
	out->tflops = bf16 ? p->bf16_tflops : p->fp64_tflops;
	out->precision = bf16 ? HW_BF16 : HW_FP64;
	snprintf(out->source, sizeof out->source, "%s", p->source);
	return 0;
}

int hw_preset_find(const char *name, struct dm_hw *out, struct dm_err *err)
{
	char names[HW_NAME_MAX * 2 * HW_PRESETS];
	size_t used = 0;
	names[0] = '\0';
	for (int i = 0; i < hw_preset_count(); i++) {
		if (hw_preset_at(i, out))
			break;
		if (name && strcmp(out->name, name) == 0)
			return 0;
		used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
					 out->name);
	}
	memset(out, 0, sizeof *out);
	return dm_err_set(err, DM_EINVAL, "no hardware preset '%s' (%s)", name ? name : "", names);
}

void hw_default(struct dm_hw *out)
{
	hw_preset_find("h100-nvlink", out, NULL);
}

const char *hw_precision_name(enum hw_precision p)
{
	return p == HW_BF16 ? "bf16" : "fp64";
}

/* Printable ASCII, no control character. */
static int hw_printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			return 0;
	return 1;
}

static int hw_name_ok(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      strchr("._+-", *s)))
			return 0;
	return 1;
}

int hw_check(const struct dm_hw *hw, struct dm_err *err)
{
	if (!memchr(hw->name, '\0', sizeof hw->name) || !hw_name_ok(hw->name))
		return dm_err_set(err, DM_EINVAL, "a hardware's name is letters, digits and ._+- "
				  "(up to %d)", HW_NAME_MAX - 1);
	if (!isfinite(hw->alpha_us) || hw->alpha_us < 0 || hw->alpha_us > HW_VALUE_MAX)
		return dm_err_set(err, DM_EINVAL, "alpha must be 0 to %g us, not %g", HW_VALUE_MAX,
				  hw->alpha_us);
	if (!isfinite(hw->bw_gbps) || hw->bw_gbps <= 0 || hw->bw_gbps > HW_VALUE_MAX)
		return dm_err_set(err, DM_EINVAL, "the bandwidth must be above 0 up to %g GB/s, not "
				  "%g", HW_VALUE_MAX, hw->bw_gbps);
	if (!isfinite(hw->tflops) || hw->tflops < 0 || hw->tflops > HW_VALUE_MAX)
		return dm_err_set(err, DM_EINVAL, "the peak must be above 0 up to %g TFLOPS, not %g",
				  HW_VALUE_MAX, hw->tflops);
	if (hw->precision != HW_FP64 && hw->precision != HW_BF16)
		return dm_err_set(err, DM_EINVAL, "unknown precision %d", (int)hw->precision);
	if (!memchr(hw->source, '\0', sizeof hw->source) || !hw_printable(hw->source))
		return dm_err_set(err, DM_EINVAL, "a hardware's source is one line of printable "
				  "text (up to %d characters)", HW_SOURCE_MAX - 1);
	return 0;
}
