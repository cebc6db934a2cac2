/* iv_words: what the mock interview says that is its own: the exercise's
 * starter and each part's task in the exercise's words, the hints (three
 * levels for each part and verdict), and what to practise next after a
 * verdict.  The judge's verdicts and the engine's rules are worded where
 * they are decided (app/judge/, app/words/); nothing here restates them. */
#ifndef APP_INTERVIEW_IV_WORDS_H
#define APP_INTERVIEW_IV_WORDS_H

/* The exercise's starter: the Communicator, a partial dp_mat_mul, a stub
 * fsdp_mat_mul, the driver under a __main__ guard. */
const char *ivw_starter(void);

/* The part's name ("DP", "FSDP", "follow-up"), its function, its task in
 * the exercise's words (one paragraph). */
const char *ivw_part_name(int part);
const char *ivw_part_function(int part);
const char *ivw_task(int part);

/* Hint level (1..3) for the part and its verdict (JUDGE_*, or -1: the file
 * did not load).  Never NULL: a verdict without hints of its own gets the
 * part's. */
const char *ivw_hint(int part, int verdict, int level);

/* The name of a hint's level ("a pointer", "the idea", "the shape of the fix"). */
const char *ivw_hint_level(int level);

/* What to practise after a part's verdict (JUDGE_*, -1: did not load), one
 * line for the report. */
const char *ivw_practise(int part, int verdict);

#endif
