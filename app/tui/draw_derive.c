/* draw_derive: the practice's question block in the info area (see
 * draw_int.h), in place of the caption while its answer line is open: the
 * question, the line being typed, a caret under the column a syntax error
 * names, and the verdict or what the keys do.  The answer line and the
 * caret are drawn as they are (unwrapped), so the caret stays under its
 * character; an answer is at most DERIVE_INPUT_MAX characters, which an
 * 80-column line holds beside its prompt. */
#include "draw_int.h"

#include <stdio.h>
#include <string.h>

#include "practice/derive.h"
#include "theme.h"

#define DRAW_DERIVE_PROMPT "> "

void draw_derive_paragraphs(struct draw_ctx *d)
{
	const struct derive *z = &d->v->derive;
	char line[DRAW_PARA_MAX];
	if (!derive_pending(z))
		return;
	snprintf(line, sizeof line, "practice, question %d of %d: %s", z->cur + 1, DERIVE_COUNT,
		 derive_question_text(z->cur));
	draw_info_add(d, ROLE_TITLE, line, 0);
	snprintf(line, sizeof line, "%s%s%s", DRAW_DERIVE_PROMPT, z->input, z->answered ? "" : "_");
	draw_info_add(d, ROLE_KEY, line, 1);
	if (z->verdict == DERIVE_V_SYNTAX) {
		int at = (int)strlen(DRAW_DERIVE_PROMPT) + (z->pos < z->len ? z->pos : z->len);
		snprintf(line, sizeof line, "%*s^", at, "");
		draw_info_add(d, ROLE_BAD, line, 1);
	}
	int role = z->verdict == DERIVE_V_RIGHT	 ? ROLE_OK
		   : z->verdict == DERIVE_V_SKIPPED ? ROLE_NORMAL
		   : z->verdict == DERIVE_V_NONE    ? ROLE_DIM
						    : ROLE_BAD;
	if (z->verdict == DERIVE_V_NONE)
		draw_info_add(d, role, "Python's integers: + - * / // % (or mod) and parentheses. Enter "
				       "checks it, Tab shows the answer, Esc closes the line (a opens "
				       "it again).", 0);
	else
		draw_info_add(d, role, z->msg, 0);
}
