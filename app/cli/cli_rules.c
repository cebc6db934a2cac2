/* cli_rules: the options that do nothing in the mode the whole command
 * line chose, as one table read once every option is known (so the order
 * of the options never matters): a silently ignored option makes a person
 * believe it worked, so it is refused, the first given one named, and why. */
#include "cli.h"
#include "cli_int.h"

#include <distmm/bug.h>
#include <distmm/schedule.h>

/* Where an option can be useless: the mode as the whole command line
 * chose it, known only once every option is read. */
enum {
	CLI_IN_BATCH = 1u << 0,     /* -b */
	CLI_IN_INTERFACE = 1u << 1, /* no -b */
	CLI_IN_REPLAY = 1u << 2,    /* --replay: nothing runs */
	CLI_IN_DP = 1u << 3,        /* -m dp: no ring */
	CLI_NO_TRACE = 1u << 4,     /* no --trace */
	CLI_BOTH_FILES = 1u << 5,   /* -A and -B: nothing is generated */
	CLI_IN_EXPORT = 1u << 6,    /* --export: headless, no keys */
	CLI_NO_EXPORT = 1u << 7,    /* no --export */
	CLI_RING_BUG = 1u << 8,     /* a bug that changes only the ring (bug_in_ring) */
	CLI_IN_JUDGE = 1u << 9,     /* --judge: the candidate's Python runs, not the engine */
	CLI_NO_JUDGE = 1u << 10,    /* no --judge */
	CLI_IN_LESSON = 1u << 11,   /* --lesson: its parts say where they start */
	CLI_IN_TRAIN = 1u << 12,    /* --train: the training step */
	CLI_NO_GRADS = 1u << 13,    /* no --train and no --replay (of a training step's trace) */
	CLI_FWD_BUG = 1u << 14,     /* a bug of the forward's (bug_is_backward: not) */
	CLI_BWD_BUG = 1u << 15,     /* a bug of the backward's */
	CLI_NO_TRAIN = 1u << 16,    /* no --train */
	CLI_IN_CCL = 1u << 17,      /* --collective: one collective, no matrices */
	CLI_NO_CCL = 1u << 18,      /* no --collective */
	CLI_IN_SWEEP = 1u << 19,    /* --sweep: the model alone, nothing runs */
	CLI_NO_SWEEP = 1u << 20,    /* no --sweep */
};

/* What a collective or the sweep has no use for: the matrices' run's
 * options (their own: --seed, --values and --capacity for a collective's
 * run; nothing for the sweep). */
#define CLI_GIVEN_MATRICES                                                                    \
	(CLI_GIVEN_MODE | CLI_GIVEN_M | CLI_GIVEN_K | CLI_GIVEN_N | CLI_GIVEN_A | CLI_GIVEN_B |    \
	 CLI_GIVEN_OUT | CLI_GIVEN_ORDERS | CLI_GIVEN_BUG | CLI_GIVEN_TRAIN | CLI_GIVEN_GRAD_FILES | \
	 CLI_GIVEN_COMPARE | CLI_GIVEN_VERIFY)

/* The options that do nothing in a mode, refused with the first given one
 * named and why: a silently ignored option makes a person believe it
 * worked.  The first rule that applies is the one reported. */
static const struct cli_rule {
	cli_given_t opts; /* CLI_GIVEN_* bits */
	unsigned where; /* CLI_IN_* */
	const char *why;
} cli_rules[] = {
	{ CLI_GIVEN_JUDGE_TIMEOUT, CLI_NO_JUDGE,
	  "has no effect without --judge (it is the time limit of each judged case)" },
	{ CLI_GIVEN_JUDGE_UNCONFINED, CLI_NO_JUDGE,
	  "has no effect without --judge (it runs the judged file without its sandbox)" },
	{ CLI_GIVEN_JUDGE_SCHEDULE | CLI_GIVEN_SHOW_OUTPUT, CLI_NO_JUDGE,
	  "has no effect without --judge (it is about the judged file's runs)" },
	{ CLI_GIVEN_A | CLI_GIVEN_B | CLI_GIVEN_OUT | CLI_GIVEN_ORDERS | CLI_GIVEN_BUG |
		  CLI_GIVEN_REPLAY | CLI_GIVEN_LESSON | CLI_GIVEN_TRAIN | CLI_GIVEN_GRAD_FILES,
	  CLI_IN_JUDGE,
	  "has no effect with --judge (your file runs on the judge's own matrices, "
	  "with its own communicator)" },
	/* the interface shows the candidate's recorded run: nothing to predict */
	{ CLI_GIVEN_QUIZ, CLI_IN_JUDGE,
	  "has no effect with --judge (the quiz asks about the engine's own run; j shows it)" },
	/* the clock: the judged file's runs are not timed */
	{ CLI_GIVEN_COLLECTIVE | CLI_GIVEN_SWEEP | CLI_GIVEN_MODEL | CLI_GIVEN_TIMELINE, CLI_IN_JUDGE,
	  "has no effect with --judge (the judged file's runs are not modelled)" },
	{ CLI_GIVEN_SWEEP | CLI_GIVEN_JSON, CLI_IN_INTERFACE,
	  "has no effect without -b (batch mode prints the sweep; the interface animates one "
	  "--collective)" },
	/* the interface steps one collective: no lesson, quiz, practice or export of it yet */
	{ CLI_GIVEN_LESSON | CLI_GIVEN_QUIZ | CLI_GIVEN_DERIVE | CLI_GIVEN_START_AT |
		  CLI_GIVEN_EXPORT | CLI_GIVEN_RECORD,
	  CLI_IN_INTERFACE | CLI_IN_CCL,
	  "has no effect with --collective (the interface steps a collective with n, b and g; "
	  "its lessons, quiz and exports are matrices' runs)" },
	{ CLI_GIVEN_TIMELINE, CLI_IN_INTERFACE,
	  "has no effect without -b (batch mode prints the timeline as text; the interface does "
	  "not draw one yet)" },
	{ CLI_GIVEN_TIMELINE, CLI_IN_SWEEP,
	  "has no effect with --sweep (the sweep runs nothing: a timeline is a run's)" },
	{ CLI_GIVEN_SWEEP, CLI_IN_CCL,
	  "has no effect with --collective (give one: --collective runs one size, --sweep "
	  "models every size)" },
	{ CLI_GIVEN_COLLECTIVE | CLI_GIVEN_SWEEP, CLI_IN_REPLAY,
	  "has no effect with --replay (the replay shows a recorded matrix multiply)" },
	{ CLI_GIVEN_ALGO, CLI_IN_SWEEP,
	  "has no effect with --sweep (the sweep shows every algorithm that applies)" },
	{ CLI_GIVEN_ALGO, CLI_NO_CCL,
	  "has no effect without --collective (it is the collective's algorithm)" },
	{ CLI_GIVEN_BYTES, CLI_IN_SWEEP,
	  "has no effect with --sweep (the sweep models every size from 8 B to 1 GiB)" },
	{ CLI_GIVEN_BYTES, CLI_NO_CCL,
	  "has no effect without --collective (it is the collective's size)" },
	{ CLI_GIVEN_JSON, CLI_NO_SWEEP,
	  "has no effect without --sweep (it prints the sweep as JSON Lines)" },
	{ CLI_GIVEN_FLOPS, CLI_IN_CCL,
	  "has no effect with --collective (a collective computes no product: the model times "
	  "its messages alone)" },
	{ CLI_GIVEN_FLOPS, CLI_IN_SWEEP,
	  "has no effect with --sweep (a collective computes no product: the model times its "
	  "messages alone)" },
	{ CLI_GIVEN_MATRICES | CLI_GIVEN_TRACE, CLI_IN_CCL,
	  "has no effect with --collective (it runs one collective on a buffer a rank: no "
	  "matrices, and no trace yet)" },
	{ CLI_GIVEN_MATRICES | CLI_GIVEN_TRACE | CLI_GIVEN_SEED | CLI_GIVEN_VALUES |
		  CLI_GIVEN_CAPACITY | CLI_GIVEN_QUIET,
	  CLI_IN_SWEEP, "has no effect with --sweep (the sweep is the model alone: nothing runs)" },
	{ CLI_GIVEN_EXPORT | CLI_GIVEN_RECORD, CLI_IN_BATCH,
	  "has no effect with -b (it records the interface's screens; batch mode draws none)" },
	{ CLI_GIVEN_PLAY | CLI_GIVEN_SPEED, CLI_IN_BATCH,
	  "has no effect with -b (batch mode has no animation)" },
	{ CLI_GIVEN_QUIZ, CLI_IN_BATCH, "has no effect with -b (the quiz asks in the interface)" },
	{ CLI_GIVEN_LESSON, CLI_IN_BATCH, "has no effect with -b (a lesson plays in the interface)" },
	{ CLI_GIVEN_NO_COLOR | CLI_GIVEN_ASCII, CLI_IN_BATCH,
	  "has no effect with -b (batch mode prints plain text)" },
	{ CLI_GIVEN_START_AT, CLI_IN_BATCH, "has no effect with -b (batch mode runs to the end)" },
	{ CLI_GIVEN_THEME, CLI_IN_BATCH, "has no effect with -b (batch mode prints plain text)" },
	{ CLI_GIVEN_SHOW_OUTPUT, CLI_IN_INTERFACE,
	  "has no effect without -b (batch mode's report shows what the file printed)" },
	{ CLI_GIVEN_QUIET, CLI_IN_INTERFACE,
	  "has no effect without -b (it shortens batch mode's output)" },
	{ CLI_GIVEN_COMPARE, CLI_IN_INTERFACE,
	  "has no effect without -b (it runs the other mode for batch mode's table; the "
	  "interface's c key shows both)" },
	{ CLI_GIVEN_VERIFY, CLI_IN_INTERFACE,
	  "has no effect without -b (it chooses the check of a batch run)" },
	/* the training step: its own rows, together */
	{ CLI_GIVEN_TRAIN, CLI_IN_REPLAY,
	  "has no effect with --replay (the trace says whether it was a training step)" },
	{ CLI_GIVEN_DC, CLI_NO_GRADS,
	  "has no effect without --train (it is dC, the gradient the backward starts from)" },
	{ CLI_GIVEN_DA_OUT | CLI_GIVEN_DB_OUT, CLI_NO_GRADS,
	  "has no effect without --train (it writes a gradient of the training step)" },
	{ CLI_GIVEN_DA_OUT | CLI_GIVEN_DB_OUT, CLI_IN_INTERFACE,
	  "has no effect without -b (it writes a gradient of a batch run; the interface "
	  "writes no file)" },
	{ CLI_GIVEN_ORDERS, CLI_IN_TRAIN,
	  "has no effect with --train (the deadlock lab is the forward ring's; the training "
	  "step's rings use the parity order)" },
	{ CLI_GIVEN_BUG, CLI_IN_TRAIN | CLI_FWD_BUG,
	  "has no effect with --train (that bug is a mistake of the forward, which a training "
	  "step runs correctly; its own: rs-off-by-one, no-sum)" },
	{ CLI_GIVEN_COMPARE, CLI_IN_TRAIN,
	  "has no effect with --train (the training step's report always compares DP and FSDP "
	  "from the model)" },
	{ CLI_GIVEN_BUG, CLI_NO_TRAIN | CLI_BWD_BUG,
	  "has no effect without --train (that bug is a mistake of the backward's "
	  "reduce-scatter)" },
	{ CLI_GIVEN_OUT, CLI_IN_INTERFACE,
	  "has no effect without -b (it writes the result of a batch run)" },
	{ CLI_GIVEN_TRACE, CLI_IN_REPLAY,
	  "has no effect with --replay (the replay reads a trace; it records nothing)" },
	{ CLI_GIVEN_TRACE, CLI_IN_INTERFACE,
	  "has no effect without -b (it writes the event log of a batch run)" },
	{ CLI_GIVEN_TRACE_FORMAT, CLI_NO_TRACE,
	  "has no effect without --trace (it is the format of the trace written)" },
	{ CLI_GIVEN_LESSON, CLI_IN_REPLAY,
	  "has no effect with --replay (the replay shows the recorded run)" },
	{ CLI_GIVEN_DEVICES | CLI_GIVEN_MODE, CLI_IN_REPLAY,
	  "has no effect with --replay (the trace says the mode and the devices)" },
	{ CLI_GIVEN_CAPACITY | CLI_GIVEN_ORDERS, CLI_IN_REPLAY,
	  "has no effect with --replay (no transport runs: the trace is what happened)" },
	{ CLI_GIVEN_QUIZ, CLI_IN_REPLAY,
	  "has no effect with --replay (the quiz asks about a live run)" },
	{ CLI_GIVEN_START_AT, CLI_IN_LESSON,
	  "has no effect with --lesson (each part starts at its beginning)" },
	/* DP's gather is a star: ranks other than 0 only send, rank 0 only
	 * receives, so no rank has a send and a receive to put in an order */
	{ CLI_GIVEN_ORDERS, CLI_IN_DP, "has no effect with -m dp (DP has no ring transfer to order)" },
	{ CLI_GIVEN_BUG, CLI_IN_DP | CLI_RING_BUG,
	  "has no effect with -m dp (that bug is a mistake in the FSDP ring; DP's gather has one: "
	  "arrival-order)" },
	{ CLI_GIVEN_SEED | CLI_GIVEN_VALUES, CLI_BOTH_FILES,
	  "has no effect with both -A and -B (it makes generated matrices; none is)" },
	/* (with --train or --replay but no --dC, dC may come from the seed: not
	 * refused) */
	{ CLI_GIVEN_SIZE, CLI_NO_EXPORT,
	  "has no effect without --export (the interface takes the terminal's size)" },
	{ CLI_GIVEN_EXPORT_CHROME, CLI_NO_EXPORT,
	  "has no effect without --export (the interface always shows its bars)" },
	{ CLI_GIVEN_RECORD, CLI_IN_EXPORT,
	  "has no effect with --export (the export writes its recording itself, headless)" },
	{ CLI_GIVEN_PLAY, CLI_IN_EXPORT, "has no effect with --export (an export always plays)" },
	{ CLI_GIVEN_QUIZ, CLI_IN_EXPORT,
	  "has no effect with --export (a question waits for an answer; an export takes none)" },
	/* the practice asks for the ring's own rule, on a run that follows it */
	{ CLI_GIVEN_DERIVE, CLI_IN_DP,
	  "has no effect with -m dp (it asks for the ring's shard index, and DP has no ring)" },
	{ CLI_GIVEN_DERIVE, CLI_RING_BUG,
	  "has no effect with a ring's --bug (the bug writes where the ring's rule does not say: "
	  "derive the rule from a correct run)" },
	{ CLI_GIVEN_DERIVE, CLI_IN_LESSON,
	  "has no effect with --lesson (a lesson's captions say the formulas it asks for)" },
};

int cli_rules_check(struct cli_opts *o, char *err, size_t err_size)
{
	unsigned where = (o->batch ? CLI_IN_BATCH : CLI_IN_INTERFACE) |
			 (o->replay_file ? CLI_IN_REPLAY : 0u) | (o->mode == DM_DP ? CLI_IN_DP : 0u) |
			 (o->trace_file ? 0u : CLI_NO_TRACE) |
			 (o->a_file && o->b_file && (o->dc_file || (!o->train && !o->replay_file))
				  ? CLI_BOTH_FILES : 0u) |
			 (o->export_file ? CLI_IN_EXPORT : CLI_NO_EXPORT) |
			 (bug_in_ring(o->bug) ? CLI_RING_BUG : 0u) |
			 (o->judge_file ? CLI_IN_JUDGE : CLI_NO_JUDGE) |
			 (o->lesson_file ? CLI_IN_LESSON : 0u) |
			 (o->train ? CLI_IN_TRAIN : CLI_NO_TRAIN) |
			 (o->train || o->replay_file ? 0u : CLI_NO_GRADS) |
			 (o->bug == BUG_NONE ? 0u : bug_is_backward(o->bug) ? CLI_BWD_BUG : CLI_FWD_BUG) |
			 (o->collective >= 0 ? CLI_IN_CCL : CLI_NO_CCL) |
			 (o->sweep >= 0 ? CLI_IN_SWEEP : CLI_NO_SWEEP);
	for (size_t i = 0; i < sizeof cli_rules / sizeof cli_rules[0]; i++) {
		const struct cli_rule *r = &cli_rules[i];
		cli_given_t hit = o->given & r->opts;
		if (hit && (where & r->where) == r->where) {
			o->refused = cli_first_bit(hit);
			return cli_fail(err, err_size, "%s %s", cli_option_name(o->refused), r->why);
		}
	}
	return CLI_RUN;
}
