/* csv: the CSV reader (see matio.h).
 * Two passes over the text.  The first checks the line structure (NUL bytes,
 * blank lines, equal field counts) and counts the rows, so the matrix is
 * allocated once at its final size and no row array ever has to grow; the
 * second converts each field with strtod.  The text is not NUL-terminated, so
 * a field is copied into a terminated scratch buffer (grown by doubling, with
 * overflow checks: a field can be as long as the file) before strtod sees it.
 * strtod runs in the "C" locale so that a program that called setlocale()
 * (a TUI usually does) still reads "0.5" and not "0,5". */
#include <distmm/matio.h>

#include <limits.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

/* How much of a bad field a message quotes. */
#define CSV_FIELD_SHOW 32

/* The line being looked at: [p, end) without its '\n' or "\r\n". */
struct csv_line {
	const char *p, *end;
	const char *next; /* where the following line starts */
};

static const char *csv_name(const char *name)
{
	return name ? name : "(csv data)";
}

static void csv_line_at(struct csv_line *ln, const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	ln->p = p;
	ln->end = nl ? nl : end;
	ln->next = nl ? nl + 1 : end;
	if (ln->end > ln->p && ln->end[-1] == '\r')
		ln->end--;
}

static int csv_is_blank(const struct csv_line *ln)
{
	for (const char *q = ln->p; q < ln->end; q++)
		if (*q != ' ' && *q != '\t')
			return 0;
	return 1;
}

static size_t csv_count_fields(const struct csv_line *ln)
{
	size_t n = 1;
	const char *q = ln->p;
	while ((q = memchr(q, ',', (size_t)(ln->end - q))) != NULL) {
		n++;
		q++;
	}
	return n;
}

/* Copies a field for a message: non-printing bytes become '?' and long
 * fields are cut, so a hostile file cannot put control codes on a terminal. */
static void csv_show(char *dst, size_t cap, const char *s, size_t n)
{
	size_t i, o = 0;
	for (i = 0; i < n && o + 4 < cap; i++) {
		unsigned char c = (unsigned char)s[i];
		dst[o++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	if (i < n) {
		memcpy(dst + o, "...", 3);
		o += 3;
	}
	dst[o] = '\0';
}

/* Pass one: structure only.  Fills the row and column counts. */
static int csv_scan(const char *p, const char *end, const char *nm, size_t *rows,
		    size_t *cols, struct dm_err *err)
{
	const char *nul = memchr(p, '\0', (size_t)(end - p));
	size_t line = 0, first = 0, blank = 0;
	struct csv_line ln;

	*rows = 0;
	*cols = 0;
	if (nul) {
		size_t at = 1;
		for (const char *q = p; (q = memchr(q, '\n', (size_t)(nul - q))) != NULL; q++)
			at++;
		return dm_err_set(err, DM_EFORMAT, "%s: line %zu: NUL byte in the text", nm, at);
	}
	for (; p < end; p = ln.next) {
		size_t nf;
		line++;
		csv_line_at(&ln, p, end);
		if (csv_is_blank(&ln)) {
			if (!blank)
				blank = line;
			continue;
		}
		if (blank)
			return dm_err_set(err, DM_EFORMAT,
					  "%s: line %zu is blank (blank lines are allowed only at "
					  "the end)", nm, blank);
		nf = csv_count_fields(&ln);
		if (*rows == 0) {
			*cols = nf;
			first = line;
		} else if (nf != *cols) {
			return dm_err_set(err, DM_EFORMAT,
					  "%s: ragged rows: line %zu has %zu fields, line %zu has %zu",
					  nm, line, nf, first, *cols);
		}
		(*rows)++;
	}
	if (*rows == 0)
		return dm_err_set(err, DM_EFORMAT, "%s: no data", nm);
	if (*rows > (size_t)INT_MAX || *cols > (size_t)INT_MAX)
		return dm_err_set(err, DM_EFORMAT, "%s: dimension too large (%zux%zu; at most %d)",
				  nm, *rows, *cols, INT_MAX);
	return 0;
}

/* A NUL-terminated copy of the field being converted. */
struct csv_scratch {
	char small[64];
	char *buf;
	size_t cap;
};

static int csv_scratch_fit(struct csv_scratch *s, size_t n)
{
	size_t need, cap = s->cap;
	char *nb;
	if (mat_size_add(n, 1, &need))
		return DM_ENOMEM;
	if (need <= cap)
		return 0;
	while (cap < need) {
		if (mat_size_mul(cap, 2, &cap))
			cap = need;
	}
	nb = xmalloc(cap);
	if (!nb)
		return DM_ENOMEM;
	if (s->buf != s->small)
		free(s->buf);
	s->buf = nb;
	s->cap = cap;
	return 0;
}

/* Converts one field [fs, fe) into *v. */
static int csv_field(struct csv_scratch *s, const char *fs, const char *fe, size_t line,
		     size_t field, const char *nm, double *v, struct dm_err *err)
{
	char shown[CSV_FIELD_SHOW + 4];
	char *endp;
	size_t n;

	while (fs < fe && (*fs == ' ' || *fs == '\t'))
		fs++;
	while (fe > fs && (fe[-1] == ' ' || fe[-1] == '\t'))
		fe--;
	n = (size_t)(fe - fs);
	if (n == 0)
		return dm_err_set(err, DM_EFORMAT, "%s: line %zu, field %zu: empty field", nm, line,
				  field);
	if (csv_scratch_fit(s, n))
		return dm_err_set(err, DM_ENOMEM, "%s: out of memory reading line %zu", nm, line);
	memcpy(s->buf, fs, n);
	s->buf[n] = '\0';
	/* strtod would skip other white space (a stray '\r' or '\f'); the
	 * field must be a number and nothing else.  (buf[0] is never NUL:
	 * csv_scan refused those, and strchr would match the terminator.) */
	if (!strchr("\n\v\f\r", s->buf[0])) {
		*v = strtod(s->buf, &endp);
		if (endp != s->buf && *endp == '\0')
			return 0;
	}
	csv_show(shown, sizeof shown, fs, n);
	return dm_err_set(err, DM_EFORMAT, "%s: line %zu, field %zu: '%s' is not a number", nm,
			  line, field, shown);
}

/* Pass two: the numbers, into out (already allocated by the caller). */
static int csv_convert(const char *p, const char *end, const char *nm, struct mat *out,
		       struct dm_err *err)
{
	struct csv_scratch s;
	struct csv_line ln;
	size_t line = 0, row = 0;
	int rc = 0;

	s.buf = s.small;
	s.cap = sizeof s.small;
	for (; p < end && row < out->rows && rc == 0; p = ln.next) {
		const char *fs;
		line++;
		csv_line_at(&ln, p, end);
		if (csv_is_blank(&ln))
			continue; /* only trailing ones are left after csv_scan */
		fs = ln.p;
		for (size_t col = 0; col < out->cols && rc == 0; col++) {
			const char *fe = memchr(fs, ',', (size_t)(ln.end - fs));
			if (!fe)
				fe = ln.end;
			rc = csv_field(&s, fs, fe, line, col + 1, nm, &MAT_AT(out, row, col), err);
			/* csv_scan counted the commas, so fe < ln.end here unless
			 * this was the last field; never step past the line. */
			fs = fe < ln.end ? fe + 1 : ln.end;
		}
		row++;
	}
	if (s.buf != s.small)
		free(s.buf);
	return rc;
}

int csv_parse(struct mat *out, const char *text, size_t len, const char *name, struct dm_err *err)
{
	const char *nm = csv_name(name);
	const char *p = text, *end = text + len;
	size_t rows, cols;
	locale_t c_loc, old;
	int rc;

	out->rows = 0;
	out->cols = 0;
	out->data = NULL;
	if (len == 0)
		return dm_err_set(err, DM_EFORMAT, "%s: no data", nm);
	/* Spreadsheets often start UTF-8 CSV with a byte order mark. */
	if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		p += 3;
	rc = csv_scan(p, end, nm, &rows, &cols, err);
	if (rc)
		return rc;
	if (mat_alloc(out, rows, cols, NULL))
		return dm_err_set(err, DM_ENOMEM, "%s: out of memory for a %zux%zu matrix", nm,
				  rows, cols);
	c_loc = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (c_loc == (locale_t)0) {
		mat_free(out);
		return dm_err_set(err, DM_ENOMEM, "%s: out of memory (locale)", nm);
	}
	old = uselocale(c_loc);
	rc = csv_convert(p, end, nm, out, err);
	uselocale(old);
	freelocale(c_loc);
	if (rc)
		mat_free(out);
	return rc;
}
