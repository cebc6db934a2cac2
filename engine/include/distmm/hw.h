/* hw: the hardware the model of time (<distmm/cost.h>) is given: a
 * message's latency alpha, a link's bandwidth beta and a device's peak F,
 * from a preset (published figures, their sources named) or from a preset
 * file (the format below; --hw FILE reads one, distmm-mpi --calibrate will
 * write one).  The values are kept in the units people quote them in, so
 * that what a file or an option said is what is shown and written back.
 *
 * The preset file: one `key = value` a line, blank lines and lines whose
 * first non-blank character is `#` ignored, each key at most once:
 *   name = NAME         [A-Za-z0-9._+-], up to 63 characters (optional:
 *                       the reader's `fallback` name)
 *   alpha_us = A        alpha, microseconds, 0 to 1e6 (required)
 *   bw_gbps = B         beta, GB/s (10^9 bytes a second) a link and a
 *                       direction, above 0 up to 1e6 (required)
 *   tflops = F          the dense peak, 10^12 FLOP/s, above 0 up to 1e6
 *                       (optional: a ping-pong measures no F; a run with
 *                       products then needs one from elsewhere)
 *   precision = fp64|bf16   which peak F is (optional, fp64)
 *   source = TEXT       where the figures come from, printable, up to 199
 *                       characters (optional)
 * Numbers are decimal, as strtod reads them but for hexadecimal, inf and
 * nan; anything else on a line is an error naming the file and the line. */
#ifndef DM_HW_H
#define DM_HW_H

#include <stddef.h>

#include "dm_err.h"

enum hw_precision {
	HW_FP64 = 0, /* this program's doubles */
	HW_BF16 = 1, /* a training run's */
};

#define HW_NAME_MAX 64
#define HW_SOURCE_MAX 200
#define HW_FILE_MAX 65536 /* a preset file larger than this is refused */
#define HW_VALUE_MAX 1e6  /* every value's upper bound */

struct dm_hw {
	char name[HW_NAME_MAX];     /* a preset's, a file's, or "custom" */
	double alpha_us;            /* alpha: microseconds a message */
	double bw_gbps;             /* beta: GB/s, one link, one direction */
	double tflops;              /* F: dense peak, TFLOPS; 0 when not known */
	enum hw_precision precision; /* which peak tflops is */
	char source[HW_SOURCE_MAX]; /* where the figures come from, "" if unsaid */
};

/* The presets, 0 to hw_preset_count() - 1, in the order --hw list shows
 * them: a100-nvlink, h100-nvlink, b200-nvlink, ib-ndr, each with its FP64
 * peak, and each again with "-bf16" and its BF16 dense peak. */
int hw_preset_count(void);
/* Preset i into *out.  Returns 0, or DM_EINVAL for an i out of range. */
int hw_preset_at(int i, struct dm_hw *out);
/* The preset of that name into *out.  Returns 0, or DM_EINVAL when there
 * is none (err lists the names). */
int hw_preset_find(const char *name, struct dm_hw *out, struct dm_err *err);
/* The hardware a collective or a sweep is modelled on when none is named:
 * h100-nvlink. */
void hw_default(struct dm_hw *out);

/* "fp64", "bf16" */
const char *hw_precision_name(enum hw_precision p);

/* Whether hw's values are in range (alpha 0 to 1e6 us, beta and F above 0
 * up to 1e6, F 0 for unknown) and its name and source are well formed.
 * Returns 0 or DM_EINVAL with err naming the value. */
int hw_check(const struct dm_hw *hw, struct dm_err *err);

/* Reads a preset file's text (len bytes; where names it in errors; the
 * name when it gives none is fallback's).  Returns 0, or DM_EFORMAT with
 * err naming where and the line. */
int hw_parse(const char *text, size_t len, const char *where, const char *fallback,
	     struct dm_hw *out, struct dm_err *err);
/* hw_parse of the file at path, named after the file when it names
 * nothing.  Returns 0, DM_EIO, DM_ENOMEM (over HW_FILE_MAX) or
 * DM_EFORMAT. */
int hw_read_file(const char *path, struct dm_hw *out, struct dm_err *err);

/* hw as a preset file's text into buf (always terminated).  Returns the
 * length it needs, as snprintf does. */
int hw_format(const struct dm_hw *hw, char *buf, size_t size);
/* hw_format into path, all or nothing (<distmm/outfile.h>).  Returns 0,
 * DM_EINVAL (hw_check) or DM_EIO. */
int hw_write_file(const char *path, const struct dm_hw *hw, struct dm_err *err);

/* The fit of alpha and beta to measured message times (distmm-mpi
 * --calibrate's ping-pong): t = alpha + S / beta by least squares weighted
 * by 1 / t^2, so that each size's relative error counts alike (unweighted,
 * the largest sizes' microseconds would decide alpha alone, and often make
 * it negative).  alpha below 0 is set to 0 and beta refitted (alpha_zero). */
struct hw_fit {
	double alpha_us, bw_gbps;
	double rms_rel, max_rel; /* the fit's relative error over the points */
	int worst;               /* the point of max_rel */
	int alpha_zero;          /* alpha came out below 0 and was set to 0 */
};

/* Fits count (at least 2) points of bytes[i] (above 0, not all equal) and
 * seconds[i] (above 0).  Returns 0, or DM_EINVAL with err filled (too few
 * or bad points, or times that fall as sizes grow: no beta above 0). */
int hw_fit_alpha_beta(const double *bytes, const double *seconds, int count, struct hw_fit *out,
		      struct dm_err *err);

#endif
