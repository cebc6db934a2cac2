/* bug_words: the deliberate mistakes said in words, for the command line's
 * list, batch mode's header and schedule, and the interface's captions:
 * what each mistake is, why it cannot show on a few devices, and the index
 * formula a rank's code evaluates with its numbers.  The rules are the
 * engine's (<distmm/bug.h>: bug_index, bug_shows, bug_rs_send_chunk...);
 * only the words are here. */
#ifndef APP_BUG_WORDS_H
#define APP_BUG_WORDS_H

#include <stddef.h>

#include <distmm/bug.h>

/* One line: what the mistake is ("the correct ring" for BUG_NONE; "?"). */
const char *bugw_describe(enum dm_bug bug);

/* A sentence on why bug cannot show with n devices (bug_shows says it
 * cannot): r-plus-s passes at n = 2, a ring's mistake on one device...;
 * NULL when it can show, or for BUG_NONE. */
const char *bugw_note(enum dm_bug bug, int n);

/* The shard index a rank's code evaluates at step s, written out with the
 * numbers (bug_index): "(1-3) mod 4 = 2", "(1+3) mod 4 = 0", "(1-3) % 4 =
 * -2" or, py-no-mod, "(1-3) = -2, no mod". */
void bugw_formula(enum dm_bug bug, int n, int rank, int step, char *buf, size_t size);

/* The reduce-scatter's chunks as the code with bug writes them, with the
 * numbers: the one rank sends at step s, "(1-0-1) mod 4 = 0"
 * (rs-off-by-one: "(1-0) mod 4 = 1"), and the one it receives and adds
 * into, "(1-0-2) mod 4 = 3" (rs-off-by-one: "(1-0-1) mod 4 = 0"). */
void bugw_rs_formula(enum dm_bug bug, int n, int rank, int step, char *buf, size_t size);
void bugw_rs_recv_formula(enum dm_bug bug, int n, int rank, int step, char *buf, size_t size);

/* The list --bug list prints: the forward's mistakes, then the
 * backward's, a line each, to stdout. */
void bugw_print_list(void);

#endif
