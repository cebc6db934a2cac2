/* batch_train: batch mode for the training step (-b --train), and the
 * replay of a training step's trace (-b --replay): the schedule, memory and
 * traffic against the model, DP against FSDP, and the verification of C,
 * dA and dB. */
#ifndef APP_BATCH_TRAIN_H
#define APP_BATCH_TRAIN_H

#include "cli/cli.h"
#include <distmm/trace.h>

/* Runs o's training step to the end and prints it.  Returns the exit
 * status: 0 verified, 1 mismatch or failed run, 2 bad input, 3 deadlock. */
int batch_train_main(const struct cli_opts *o);

/* Replays t, a training step's trace (t->train), read by batch.c, which
 * still owns it.  Returns the exit status as batch_main. */
int batch_train_replay(const struct cli_opts *o, struct trace *t);

#endif
