/* hw_file: the preset file's reader and writer together (the format is
 * hw.h's), so that what one writes the other reads back value for value:
 * the writer prints each number with the fewest digits that read back to
 * the same double. */
#include <distmm/hw.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/outfile.h>
#include "io/slurp.h"

enum { HW_K_NAME, HW_K_ALPHA, HW_K_BW, HW_K_TFLOPS, HW_K_PRECISION, HW_K_SOURCE, HW_K_COUNT };

static const char *const hw_keys[HW_K_COUNT] = {
	"name", "alpha_us", "bw_gbps", "tflops", "precision", "source",
};

/* A decimal number, all of s: no hexadecimal, inf or nan (strtod takes
 * them), no leading blank or trailing junk. */
static int hw_number(const char *s, double *out)
{
	const char *p = s;
	if (*p == '+' || *p == '-')
		p++;
	if (!((*p >= '0' && *p <= '9') || (*p == '.' && p[1] >= '0' && p[1] <= '9')))
		return -1;
	for (const char *q = p; *q; q++)
		if (!strchr("0123456789.eE+-", *q))
			return -1;
	errno = 0;
	char *end;
	double v = strtod(s, &end);
	if (*end || errno == ERANGE || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

/* One `key = value` line (trimmed, in a buffer of its own). */
static int hw_line(char *line, struct dm_hw *out, int *seen, const char *where, int lineno,
		   struct dm_err *err)
{
	char *eq = strchr(line, '=');
	if (!eq)
		return dm_err_set(err, DM_EFORMAT, "%s:%d: want key = value, not '%.40s'", where,
				  lineno, line);
	char *key = line, *val = eq + 1, *k_end = eq;
	while (k_end > key && (k_end[-1] == ' ' || k_end[-1] == '\t'))
		k_end--;
	*k_end = '\0';
	while (*val == ' ' || *val == '\t')
		val++;
	int k = 0;
	while (k < HW_K_COUNT && strcmp(key, hw_keys[k]) != 0)
		k++;
	if (k == HW_K_COUNT)
		return dm_err_set(err, DM_EFORMAT, "%s:%d: unknown key '%.40s' (name, alpha_us, "
				  "bw_gbps, tflops, precision, source)", where, lineno, key);
	if (seen[k]++)
		return dm_err_set(err, DM_EFORMAT, "%s:%d: %s given twice", where, lineno, key);
	double v = 0;
	switch (k) {
	case HW_K_NAME:
	case HW_K_SOURCE: {
		char *dst = k == HW_K_NAME ? out->name : out->source;
		size_t cap = k == HW_K_NAME ? sizeof out->name : sizeof out->source;
		if (strlen(val) >= cap)
			return dm_err_set(err, DM_EFORMAT, "%s:%d: %s is longer than %zu characters",
					  where, lineno, key, cap - 1);
		memcpy(dst, val, strlen(val) + 1);
		return 0;
	}
	case HW_K_PRECISION:
		if (strcmp(val, "fp64") == 0 || strcmp(val, "bf16") == 0) {
			out->precision = val[0] == 'b' ? HW_BF16 : HW_FP64;
			return 0;
		}
		return dm_err_set(err, DM_EFORMAT, "%s:%d: precision is fp64 or bf16, not '%.20s'",
				  where, lineno, val);
	default:
		if (hw_number(val, &v))
			return dm_err_set(err, DM_EFORMAT, "%s:%d: %s must be a decimal number, not "
					  "'%.20s'", where, lineno, key, val);
		*(k == HW_K_ALPHA ? &out->alpha_us : k == HW_K_BW ? &out->bw_gbps : &out->tflops) = v;
		return 0;
	}
}

int hw_parse(const char *text, size_t len, const char *where, const char *fallback,
	     struct dm_hw *out, struct dm_err *err)
{
	int seen[HW_K_COUNT] = { 0 }, lineno = 0, rc;
	char line[512];
	struct dm_hw hw;
	memset(&hw, 0, sizeof hw);
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (text + at)) : len - at, b = 0;
		lineno++;
		if (n && text[at + n - 1] == '\r')
			n--;
		while (b < n && (text[at + b] == ' ' || text[at + b] == '\t'))
			b++;
		while (n > b && (text[at + n - 1] == ' ' || text[at + n - 1] == '\t'))
			n--;
		if (n - b >= sizeof line)
			return dm_err_set(err, DM_EFORMAT, "%s:%d: line longer than %zu characters",
					  where, lineno, sizeof line - 1);
		memcpy(line, text + at + b, n - b);
		line[n - b] = '\0';
		at += (nl ? (size_t)(nl - (text + at)) + 1 : len - at);
		if (strlen(line) != n - b)
			return dm_err_set(err, DM_EFORMAT, "%s:%d: a NUL byte: not a text file", where,
					  lineno);
		if (!line[0] || line[0] == '#')
			continue;
		if ((rc = hw_line(line, &hw, seen, where, lineno, err)))
			return rc;
	}
	if (!seen[HW_K_ALPHA] || !seen[HW_K_BW])
		return dm_err_set(err, DM_EFORMAT, "%s: %s missing (a preset gives alpha_us and "
				  "bw_gbps at least)", where, seen[HW_K_ALPHA] ? "bw_gbps" : "alpha_us");
	if (!seen[HW_K_NAME])
		snprintf(hw.name, sizeof hw.name, "%s", fallback && *fallback ? fallback : "file");
	if (seen[HW_K_TFLOPS] && hw.tflops <= 0)
		return dm_err_set(err, DM_EFORMAT, "%s: tflops must be above 0, not %g", where,
				  hw.tflops);
	struct dm_err why;
	if (hw_check(&hw, &why))
		return dm_err_set(err, DM_EFORMAT, "%s: %s", where, why.msg);
	*out = hw;
	return 0;
}

/* The name a file gives when it names none: its base name up to the first
 * dot, where that is a valid name, else "file". */
static void hw_fallback(const char *path, char *out, size_t size)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strcspn(base, ".");
	int ok = n > 0 && n < size;
	for (size_t i = 0; ok && i < n; i++) {
		char c = base[i];
		ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		     c == '_' || c == '+' || c == '-';
	}
	if (ok)
		snprintf(out, size, "%.*s", (int)n, base);
	else
		snprintf(out, size, "file");
}

int hw_read_file(const char *path, struct dm_hw *out, struct dm_err *err)
{
	char *text = NULL, fallback[HW_NAME_MAX];
	size_t len = 0;
	int rc = slurp_file(path, HW_FILE_MAX, &text, &len, err);
	if (rc)
		return rc;
	hw_fallback(path, fallback, sizeof fallback);
	rc = hw_parse(text, len, path, fallback, out, err);
	free(text);
	return rc;
}

/* v with the fewest significant digits (up to 17) that strtod reads back
 * as v. */
static void hw_shortest(double v, char *buf, size_t size)
{
	for (int digits = 1; digits <= 17; digits++) {
		snprintf(buf, size, "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

int hw_format(const struct dm_hw *hw, char *buf, size_t size)
{
	char a[32], b[32], f[32];
	hw_shortest(hw->alpha_us, a, sizeof a);
	hw_shortest(hw->bw_gbps, b, sizeof b);
	hw_shortest(hw->tflops, f, sizeof f);
	return snprintf(buf, size,
			"# distmm-tui hardware preset: --hw FILE reads it (docs/clock.md)\n"
			"name = %s\nalpha_us = %s\nbw_gbps = %s\n%s%s%sprecision = %s\n%s%s%s",
			hw->name, a, b, hw->tflops > 0 ? "tflops = " : "", hw->tflops > 0 ? f : "",
			hw->tflops > 0 ? "\n" : "", hw_precision_name(hw->precision),
			hw->source[0] ? "source = " : "", hw->source, hw->source[0] ? "\n" : "");
}

int hw_write_file(const char *path, const struct dm_hw *hw, struct dm_err *err)
{
	char text[1024];
	struct outfile of;
	int rc;
	if ((rc = hw_check(hw, err)))
		return rc;
	hw_format(hw, text, sizeof text);
	if ((rc = outfile_open(&of, path, err)))
		return rc;
	if (fputs(text, of.fp) == EOF) {
		int e = errno;
		outfile_abort(&of);
		return dm_err_set(err, DM_EIO, "cannot write %s: %s", path,
				  e ? strerror(e) : "write error");
	}
	return outfile_commit(&of, err);
}
