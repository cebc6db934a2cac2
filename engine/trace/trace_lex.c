/* trace_lex: a flat JSON object's values, from untrusted bytes (see
 * trace_lex.h).  Split from trace_jsonl.c, the format's reader and writer,
 * which keeps what a trace means; this is only what JSON is. */
#include "trace/trace_lex.h"

#include <string.h>

/* A string for a message: non-printing bytes become '?', long ones are cut. */
void trace_lex_show(char *dst, size_t cap, const char *s, size_t n, int cut)
{
	size_t i, o = 0;
	for (i = 0; i < n && o + 4 < cap; i++) {
		unsigned char c = (unsigned char)s[i];
		dst[o++] = (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') ? (char)c : '?';
	}
	if (i < n || cut) {
		memcpy(dst + o, "...", 3);
		o += 3;
	}
	dst[o] = '\0';
}

int trace_lex_is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

void trace_lex_skip_ws(struct trace_lex *lx)
{
	while (lx->p < lx->end && trace_lex_is_ws(*lx->p))
		lx->p++;
}

static int trace_lex_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A JSON string at lx->p (on its '"'): its first TRACE_STR_MAX bytes,
 * unescaped, into v.  A \u escape outside ASCII becomes byte 0x80, which no
 * key or op contains.  Returns NULL, or why it is not JSON. */
const char *trace_lex_string(struct trace_lex *lx, struct trace_val *v)
{
	v->kind = TV_STR;
	v->slen = 0;
	v->cut = 0;
	lx->p++;
	for (;;) {
		if (lx->p >= lx->end)
			return "a string does not end";
		unsigned char c = (unsigned char)*lx->p++;
		if (c == '"')
			return NULL;
		if (c < 0x20)
			return "a control character in a string";
		if (c == '\\') {
			if (lx->p >= lx->end)
				return "a string does not end";
			char e = *lx->p++;
			switch (e) {
			case '"': c = '"'; break;
			case '\\': c = '\\'; break;
			case '/': c = '/'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			case 't': c = '\t'; break;
			case 'u': {
				unsigned code = 0;
				if (lx->end - lx->p < 4)
					return "a bad \\u escape";
				for (int k = 0; k < 4; k++) {
					int h = trace_lex_hex(lx->p[k]);
					if (h < 0)
						return "a bad \\u escape";
					code = code * 16 + (unsigned)h;
				}
				lx->p += 4;
				c = code < 0x80 ? (unsigned char)code : 0x80;
				break;
			}
			default:
				return "a bad escape in a string";
			}
		}
		if (v->slen < sizeof v->s)
			v->s[v->slen++] = (char)c;
		else
			v->cut = 1;
	}
}

static int trace_lex_is_digit(const struct trace_lex *lx)
{
	return lx->p < lx->end && *lx->p >= '0' && *lx->p <= '9';
}

/* A JSON number at lx->p.  An integer goes into v (TV_INT, its magnitude
 * saturating into `big`); one with a fraction or exponent is TV_OTHER. */
static const char *trace_lex_number(struct trace_lex *lx, struct trace_val *v)
{
	v->kind = TV_INT;
	v->neg = 0;
	v->big = 0;
	v->u = 0;
	if (*lx->p == '-') {
		v->neg = 1;
		lx->p++;
	}
	if (!trace_lex_is_digit(lx))
		return "a bad number";
	if (*lx->p == '0' && lx->p + 1 < lx->end && lx->p[1] >= '0' && lx->p[1] <= '9')
		return "a number with a leading zero";
	while (trace_lex_is_digit(lx)) {
		unsigned d = (unsigned)(*lx->p++ - '0');
		if (v->u > (UINT64_MAX - d) / 10)
			v->big = 1;
		else if (!v->big)
			v->u = v->u * 10 + d;
	}
	if (lx->p < lx->end && *lx->p == '.') {
		lx->p++;
		if (!trace_lex_is_digit(lx))
			return "a bad number";
		while (trace_lex_is_digit(lx))
			lx->p++;
		v->kind = TV_OTHER;
	}
	if (lx->p < lx->end && (*lx->p == 'e' || *lx->p == 'E')) {
		lx->p++;
		if (lx->p < lx->end && (*lx->p == '+' || *lx->p == '-'))
			lx->p++;
		if (!trace_lex_is_digit(lx))
			return "a bad number";
		while (trace_lex_is_digit(lx))
			lx->p++;
		v->kind = TV_OTHER;
	}
	return NULL;
}

static int trace_lex_literal(struct trace_lex *lx, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(lx->end - lx->p) < n || memcmp(lx->p, word, n) != 0)
		return 0;
	lx->p += n;
	return 1;
}

/* Any JSON value but an object or array (those are refused as such); the
 * kinds a trace does not use come back as TV_OTHER. */
const char *trace_lex_value(struct trace_lex *lx, struct trace_val *v)
{
	if (lx->p >= lx->end)
		return "a value is missing";
	char c = *lx->p;
	if (c == '"')
		return trace_lex_string(lx, v);
	if (c == '-' || (c >= '0' && c <= '9'))
		return trace_lex_number(lx, v);
	if (trace_lex_literal(lx, "true") || trace_lex_literal(lx, "false")) {
		v->kind = TV_BOOL;
		v->u = c == 't';
		return NULL;
	}
	if (trace_lex_literal(lx, "null")) {
		v->kind = TV_OTHER;
		return NULL;
	}
	if (c == '{' || c == '[')
		return "nested objects and arrays are not part of a trace";
	return "a value is missing";
}
