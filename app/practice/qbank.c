/* qbank: a typed answer checked against its question (see qbank.h).  A
 * number is read with strtod and one optional unit of its kind; an answer
 * that misses is told only which side it fell on, so that trying again is
 * still thinking, not bisecting by a tell of how far.  A range (a time
 * within 5%, a size within the sweep's doubling) says so in the question. */
#include "qbank.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *qbank_text(const struct qbank_row *r, const struct qbank_ctx *c, char *buf,
		       size_t size)
{
	if (r->say) {
		r->say(c, 0, buf, size);
		return buf;
	}
	return r->kind == QBANK_DERIVE ? derive_question_text(r->derive_q) : r->text;
}

const char *qbank_worked(const struct qbank_row *r, const struct qbank_ctx *c, char *buf,
			 size_t size)
{
	if (r->say) {
		r->say(c, 1, buf, size);
		return buf;
	}
	return r->worked;
}

struct qbank_unit_name {
	const char *name;
	double scale; /* in the row's unit */
};

static const struct qbank_unit_name qbank_gb[] = {
	{ "tb", 1000 }, { "gb", 1 }, { "mb", 1e-3 }, { "kb", 1e-6 }, { "b", 1e-9 }, { NULL, 0 },
};
static const struct qbank_unit_name qbank_bytes[] = {
	{ "b", 1 }, { "kb", 1e3 }, { "mb", 1e6 }, { "gb", 1e9 }, { "kib", 1024.0 },
	{ "mib", 1048576.0 }, { "gib", 1073741824.0 }, { NULL, 0 },
};
static const struct qbank_unit_name qbank_us[] = {
	{ "ns", 1e-3 }, { "us", 1 }, { "\xc2\xb5s", 1 }, { "ms", 1e3 }, { "s", 1e6 }, { NULL, 0 },
};

static const struct qbank_unit_name *qbank_units(int unit)
{
	switch (unit) {
	case QBANK_GB: return qbank_gb;
	case QBANK_BYTES: return qbank_bytes;
	case QBANK_US: return qbank_us;
	}
	return NULL;
}

static const char *qbank_unit_said(int unit)
{
	switch (unit) {
	case QBANK_GB: return "GB";
	case QBANK_BYTES: return "B";
	case QBANK_US: return "us";
	}
	return "";
}

/* "50", "50 GB", "50GB", "5e1 gb"; a unit of another size is converted. */
static int qbank_number(const struct qbank_row *r, const struct qbank_ctx *c, const char *text,
			char *msg, size_t size)
{
	const struct qbank_unit_name *units = qbank_units(r->unit);
	const char *said = qbank_unit_said(r->unit);
	errno = 0;
	char *end;
	double v = strtod(text, &end);
	if (end == text || errno || !isfinite(v)) {
		snprintf(msg, size, "write a number%s%s", said[0] ? ", in " : "", said);
		return QBANK_SYNTAX;
	}
	while (isspace((unsigned char)*end))
		end++;
	double scale = 1;
	if (*end) {
		char u[8];
		size_t k = 0;
		for (; end[k] && k < sizeof u - 1; k++)
			u[k] = (char)tolower((unsigned char)end[k]);
		u[k] = '\0';
		size_t i = 0;
		for (; units && units[i].name; i++)
			if (strcmp(u, units[i].name) == 0 && !end[k])
				break;
		if (!units || !units[i].name) {
			snprintf(msg, size, "'%.20s' is not a unit here: write a number%s%s", end,
				 said[0] ? ", in " : "", said);
			return QBANK_SYNTAX;
		}
		scale = units[i].scale;
	}
	double got = v * scale, lo = r->number, hi = r->number;
	if (r->range)
		r->range(c, &lo, &hi);
	double slack = 1e-9 * fmax(fabs(lo), fabs(hi));
	if (got >= lo - slack && got <= hi + slack)
		return QBANK_RIGHT;
	snprintf(msg, size, "%g%s%s is not it: that is %s than the answer", got, said[0] ? " " : "",
		 said, got > hi ? "more" : "less");
	return QBANK_WRONG;
}

/* The letters of a set, in any order, each once. */
static int qbank_letters(const struct qbank_row *r, const char *text, char *msg, size_t size)
{
	char seen[26] = { 0 };
	int any = 0;
	for (const char *p = text; *p; p++) {
		int c = tolower((unsigned char)*p);
		if (c == ' ' || c == ',')
			continue;
		if (c < 'a' || c > 'z') {
			snprintf(msg, size, "type letters only");
			return QBANK_SYNTAX;
		}
		seen[c - 'a'] = 1;
		any = 1;
	}
	if (!any) {
		snprintf(msg, size, "type letters");
		return QBANK_SYNTAX;
	}
	char extra[27] = "";
	size_t nm = 0, ne = 0;
	for (int c = 0; c < 26; c++) {
		int want = strchr(r->letters, 'a' + c) != NULL;
		nm += want && !seen[c];
		if (!want && seen[c])
			extra[ne++] = (char)('a' + c);
	}
	if (!nm && !ne)
		return QBANK_RIGHT;
	snprintf(msg, size, "%s%s%s%s", nm ? "one or more is missing" : "",
		 nm && ne ? "; " : "", ne ? "not all of yours apply: " : "", extra);
	return QBANK_WRONG;
}

int qbank_check(const struct qbank_row *r, const struct qbank_ctx *c, const char *text, char *msg,
		size_t size)
{
	int pos = 0, v;
	msg[0] = '\0';
	switch (r->kind) {
	case QBANK_DERIVE:
		v = derive_check(r->derive_q, text, &pos, msg, size);
		break;
	case QBANK_LIST:
		v = derive_check_list(text, r->names, r->count, r->at, r->pre, r->post, r->factors,
				      r->n_factors, &pos, msg, size);
		break;
	case QBANK_NUMBER:
		return qbank_number(r, c, text, msg, size);
	default:
		return qbank_letters(r, text, msg, size);
	}
	if (v == DERIVE_V_RIGHT)
		return QBANK_RIGHT;
	if (v == DERIVE_V_SYNTAX) {
		char tmp[400];
		snprintf(tmp, sizeof tmp, "at column %d: %s", pos + 1, msg);
		snprintf(msg, size, "%s", tmp);
		return QBANK_SYNTAX;
	}
	return QBANK_WRONG;
}

void qbank_bytes_words(double bytes, char *buf, size_t size)
{
	static const char *const names[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int i = 0;
	while (i < 4 && bytes >= 1024.0) {
		bytes /= 1024.0;
		i++;
	}
	snprintf(buf, size, "%g %s", bytes, names[i]);
}
