/* iv_report: the interview's report, Markdown, beside FILE: the time each
 * part took, its judged saves, the verdicts over time (the save that
 * passed), the hints used, the follow-up's score, and the three things to
 * practise next, from what went wrong. */
#ifndef APP_INTERVIEW_IV_REPORT_H
#define APP_INTERVIEW_IV_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "interview/interview.h"

/* The report to out. */
void iv_report_print(FILE *out, const struct iv_state *s, const char *file);

/* Writes it beside file (iv_path_report), all or nothing: 0 with its path
 * in path, or -1 with msg one line. */
int iv_report_write(const struct iv_state *s, const char *file, char *path, size_t path_size,
		    char *msg, size_t size);

#endif
