/* cli_util: what the command-line suites (tests/app/cli/check_cli*.c)
 * share: parse() runs cli_parse on the words given, as a shell would pass
 * them after the program's name, into the suite's opts and msg; and
 * REFUSED_AS holds a line to exactly that refusal.  Header-only: each suite
 * has its own opts and msg. */
#ifndef TU_CLI_UTIL_H
#define TU_CLI_UTIL_H

#include <check.h>
#include <stdarg.h>

#include "cli/cli.h"

static struct cli_opts opts;
static char msg[512];

/* Parses the words given (after a program name, NULL-terminated). */
static inline int parse(const char *first, ...)
{
	char *argv[64];
	int argc = 0;
	va_list ap;
	argv[argc++] = (char *)"distmm-tui";
	va_start(ap, first);
	for (const char *w = first; w && argc < 63; w = va_arg(ap, const char *))
		argv[argc++] = (char *)w;
	va_end(ap);
	argv[argc] = NULL;
	return cli_parse(argc, argv, &opts, msg, sizeof msg);
}

/* Refused with exactly this line. */
#define REFUSED_AS(line, ...)                                         \
	do {                                                          \
		ck_assert_int_eq(parse(__VA_ARGS__, NULL), CLI_ERROR); \
		ck_assert_str_eq(msg, line);                          \
	} while (0)

#endif
