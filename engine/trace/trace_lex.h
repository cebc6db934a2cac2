/* trace_lex: the values of a flat JSON object, as the trace reader takes
 * them from bytes that may be anything (it is fuzzed): every read is
 * guarded by the end of the text, strings are kept to their first
 * TRACE_STR_MAX bytes (longer ones marked cut), integers saturate into a
 * flag instead of overflowing.  Objects and arrays inside a value are
 * refused as such; what a trace does not use (fractions, null) comes back
 * as TV_OTHER for the reader to refuse with the key's name. */
#ifndef DM_TRACE_LEX_H
#define DM_TRACE_LEX_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#include <stddef.h>
#include <stdint.h>

#define TRACE_STR_MAX 24      /* strings kept: every key and op fits */

enum trace_kind { TV_INT, TV_STR, TV_BOOL, TV_OTHER };

struct trace_val {
	int kind;                    /* enum trace_kind */
	int neg, big;                /* TV_INT: a minus sign; more than UINT64_MAX */
	uint64_t u;                  /* TV_INT: the magnitude; TV_BOOL: 1 for true */
	char s[TRACE_STR_MAX];       /* TV_STR: the first bytes, unescaped */
	size_t slen;
	int cut;                     /* TV_STR: longer than s */
};

/* The part of a line not read yet. */
struct trace_lex {
	const char *p, *end;
};

/* A string for a message into dst (cap bytes): non-printing bytes become
 * '?', long ones are cut with "...". */
void trace_lex_show(char *dst, size_t cap, const char *s, size_t n, int cut);
int trace_lex_is_ws(char c); /* space, tab, CR */
void trace_lex_skip_ws(struct trace_lex *lx);
/* A JSON string at lx->p (on its '"') into v.  Returns NULL, or why it is
 * not JSON. */
const char *trace_lex_string(struct trace_lex *lx, struct trace_val *v);
/* Any JSON value at lx->p into v (see the top).  NULL, or why not JSON. */
const char *trace_lex_value(struct trace_lex *lx, struct trace_val *v);

#endif
