/* cli_int: what the parser's files share (cli.c, cli_values.c,
 * cli_clock.c), for app/cli/ alone: the error line, the strict number and
 * the values each file reads into cli_opts.  Each returns 0 or CLI_ERROR
 * with err holding one line; the clock's may return CLI_HW_LIST. */
#ifndef APP_CLI_INT_H
#define APP_CLI_INT_H

#include <stddef.h>

#include "cli.h"

/* vsnprintf of the line into err; returns CLI_ERROR. */
int cli_fail(char *err, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A decimal number in [lo, hi] and nothing else: "4x", "-3", " 4" and ""
 * are not numbers.  0, or -1. */
int cli_number(const char *s, unsigned long long lo, unsigned long long hi,
	       unsigned long long *out);

/* A decimal number in [lo, hi] (above lo when lo_open): digits, one
 * point, an exponent, nothing else ("inf", "nan", hex, " 4" are not).  0,
 * or -1.  (cli_clock.c) */
int cli_real(const char *s, double lo, double hi, int lo_open, double *out);

/* cli_values.c: --start-at, --size, --speed into o; --judge-timeout's
 * seconds into *ms (0, or -1 when it is not 0.1 to 600). */
int cli_start_at(const char *arg, struct cli_opts *o, char *err, size_t size);
int cli_screen_size(const char *arg, struct cli_opts *o, char *err, size_t size);
int cli_speed(const char *arg, struct cli_opts *o, char *err, size_t size);
int cli_seconds(const char *s, unsigned *ms);

/* cli_clock.c: the clock's option named opt ("--hw", "--alpha", "--bw",
 * "--flops", "--collective", "--algo", "--bytes", "--sweep", "--json",
 * "--timeline", "--prefetch")
 * with its value into o. */
int cli_clock_option(const char *opt, const char *arg, struct cli_opts *o, char *err,
		     size_t size);
/* Once every option is read and cli.c's rules passed: where --prefetch
 * does nothing, refused as those rules refuse (o->refused set).  0, or
 * CLI_ERROR with err holding the line. */
int cli_clock_check(struct cli_opts *o, char *err, size_t size);

/* cli_interview.c: --interview, --interview-time, --interview-restart into
 * o; then, once every option is read, what the interview refuses (-b, and
 * every option that would do nothing in it), said as one line: -1 refused,
 * 1 an interview whose options are all checked, 0 no interview. */
int cli_interview_option(const char *opt, const char *arg, struct cli_opts *o, char *err,
			 size_t size);
int cli_interview_check(struct cli_opts *o, char *err, size_t size);

/* cli_drill.c: --quiz=clock|tp asks in a screen of its own; what it
 * refuses (-b, and every option that would do nothing in it) as one line,
 * and the ranks its timed questions name.  CLI_RUN, or CLI_ERROR. */
int cli_drill_check(struct cli_opts *o, char *err, size_t size);
/* cli_params.c: --params and --gpu-mem with their values into o; and
 * cli_params_check, once the line is read, when either was given: the
 * options a -b --params line may have (the closed forms alone: -b, -d,
 * --json and --gpu-mem), anything else refused with o->refused set; in the
 * interface it is c's second page, refused only with --export.  CLI_RUN or
 * CLI_ERROR. */
int cli_params_option(const char *opt, const char *arg, struct cli_opts *o, char *err,
		      size_t size);
int cli_params_check(struct cli_opts *o, char *err, size_t size);

/* cli_tp.c: -m's tensor-parallel words ("tp-col", "tp-row") into *mode
 * (0, or -1 for another word); and cli_tp_check, once the line is read:
 * what a tensor-parallel run does not do yet (the training step, the bugs,
 * the deadlock lab, the trace, the model of time, the judge) and --reduce-scatter without -m tp-row, refused with o->refused
 * set.  CLI_RUN or CLI_ERROR. */
int cli_tp_mode(const char *arg, int *mode);
int cli_tp_check(struct cli_opts *o, char *err, size_t size);

/* The lowest given bit of mask, by the order of the enum. */
cli_given_t cli_first_bit(cli_given_t mask);

/* The table of options that do nothing in the mode the command line chose
 * (cli_rules.c): CLI_RUN, or CLI_ERROR with err filled and o->refused the
 * option refused. */
int cli_rules_check(struct cli_opts *o, char *err, size_t err_size);

#endif
