/* clock_words: the model of time in sentences, for batch mode's reports
 * and --hw list: the model's values and where they come from, its rule,
 * each collective's closed form as the reports write it beside its
 * number, and times and sizes in readable units.  The formulas themselves
 * are the engine's (<distmm/cost.h>, <distmm/ccl.h>); only the words are
 * here. */
#ifndef APP_CLOCK_WORDS_H
#define APP_CLOCK_WORDS_H

#include <stddef.h>

#include <distmm/ccl.h>
#include <distmm/hw.h>

/* Which of the model's values the command line set over the preset's. */
#define CLOCKW_ALPHA 1u
#define CLOCKW_BW 2u
#define CLOCKW_FLOPS 4u

/* "h100-nvlink: alpha 3.4 us a message, beta 450 GB/s a link and
 * direction, F 67 TFLOPS (fp64 dense peak)", a value the command line set
 * marked "(--bw)", F left out without with_f (a collective computes
 * nothing), then the preset's source in parentheses. */
void clockw_model(const struct dm_hw *hw, unsigned given, int with_f, char *buf, size_t size);

/* The same for the interface's line, short: "h100-nvlink (alpha 3.4 us,
 * beta 450 GB/s, F 67 TFLOPS fp64)", a value the command line set marked
 * with its option's name ("alpha 0 us --alpha"), no source. */
void clockw_model_brief(const struct dm_hw *hw, unsigned given, char *buf, size_t size);

/* The interface's times for the stop on screen, from the run's timing c
 * (<distmm/cost.h>): upto -2 a deadlock, -1 another run that failed (no
 * time), 0 with c NULL
 * at ready, a phase's index for that phase and the time up to its end,
 * c->phases for the end: the total and its split. */
struct cost_run;
void clockw_screen_times(const struct cost_run *c, int upto, char *buf, size_t size);

/* The rule, one line: "a product m x k by k x n takes 2mkn/F, ...". */
const char *clockw_rule(void);

/* The closed form of the time, as the reports print it: "2(n-1) alpha +
 * 2(n-1)/n S/beta".  Of the bytes a rank sends: "2S - w_r - w_(r+1)". */
const char *clockw_time_formula(enum ccl_kind kind, enum ccl_algo algo);
const char *clockw_bytes_formula(enum ccl_kind kind, enum ccl_algo algo);
/* nccl-tests' busbw factor: "2(n-1)/n", "(n-1)/n", "1". */
const char *clockw_factor(enum ccl_kind kind);
/* "ring", "binomial tree", "recursive halving-doubling" and what each does
 * for kind, one line. */
const char *clockw_algo_title(enum ccl_algo algo);
const char *clockw_algo_how(enum ccl_kind kind, enum ccl_algo algo);
/* What the check of kind's result compares with: "the sum of the n
 * buffers", "every rank's own chunk", "rank 0's buffer". */
const char *clockw_expected(enum ccl_kind kind);

/* seconds as "0 us", "12.5 ns", "3.4 us", "4.176 ms", "1.2 s" (four
 * significant digits). */
void clockw_time(double s, char *buf, size_t size);
/* bytes as "8 B", "64 KiB", "1 GiB" where a power of 1024 divides them,
 * else "1000 B". */
void clockw_size(double bytes, char *buf, size_t size);

/* --hw list: every preset with its values and source, and the file
 * format's one-line summary. */
void clockw_print_presets(void);

#endif
