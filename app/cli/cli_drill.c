/* cli_drill: --quiz=clock and --quiz=tp (docs/practice.md), the follow-up
 * questions asked in a screen of their own.  Like the interview, a drill
 * takes the screen's look (--no-color, --ascii, --theme); the clock's also
 * takes the hardware and the ranks its timed questions are asked on (--hw,
 * --alpha, --bw, --flops, -d; DRILL_RANKS without it).  Everything else is refused with one line: it would do
 * nothing. */
#include "cli.h"
#include "cli_int.h"

#include "practice/drills.h"

int cli_drill_check(struct cli_opts *o, char *err, size_t size)
{
	const char *name = drill_set_name(o->drill);
	const cli_given_t look = CLI_GIVEN_QUIZ | CLI_GIVEN_NO_COLOR | CLI_GIVEN_ASCII |
				 CLI_GIVEN_THEME;
	const cli_given_t timed = CLI_GIVEN_DEVICES | CLI_GIVEN_HW | CLI_GIVEN_ALPHA |
				  CLI_GIVEN_BW | CLI_GIVEN_FLOPS;
	cli_given_t takes = look | (o->drill == DRILL_CLOCK ? timed : 0);
	if (o->batch) {
		o->refused = CLI_GIVEN_BATCH;
		return cli_fail(err, size, "-b has no effect with --quiz=%s (the drill asks in the "
				"interface: you type each answer and it is checked)", name);
	}
	cli_given_t extra = o->given & ~takes;
	if (extra) {
		o->refused = extra & -extra;
		return cli_fail(err, size, "%s has no effect with --quiz=%s (%s)",
				cli_option_name(o->refused), name,
				o->refused & timed ? "its questions are not timed: --quiz=clock's are"
						   : "the drill asks its questions in its own screen");
	}
	if ((o->given & CLI_GIVEN_DEVICES) && o->devices < 3)
		return cli_fail(err, size, "--quiz=clock asks about rings and trees of 3 ranks or "
				"more (-d 3 up): on %d they are alike", o->devices);
	return CLI_RUN;
}
