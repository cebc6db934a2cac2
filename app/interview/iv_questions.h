/* iv_questions: the follow-up round, the interviewer's questions from the
 * exercise's notes, each with an answer the program checks: an expression
 * in the question's variables or a number, checked by the practice's
 * checker (app/practice/derive.h, expr.h), and a worked answer shown
 * after.  Pure: no curses, no state of its own (the session keeps the
 * outcomes). */
#ifndef APP_INTERVIEW_IV_QUESTIONS_H
#define APP_INTERVIEW_IV_QUESTIONS_H

#include <stddef.h>

enum ivq_verdict { IVQ_RIGHT = 0, IVQ_WRONG, IVQ_SYNTAX };

/* How many questions the round asks (6 to 10). */
int ivq_count(void);

/* Question q's words, with what to write the answer in. */
const char *ivq_text(int q);

/* Its short name for the report ("the bytes a rank sends"). */
const char *ivq_name(int q);

/* The worked answer, shown once it is answered right or shown (Tab). */
const char *ivq_worked(int q);

/* Checks text as the answer to q: enum ivq_verdict, msg one line (the
 * counterexample, or where the syntax is wrong). */
int ivq_check(int q, const char *text, char *msg, size_t size);

#endif
