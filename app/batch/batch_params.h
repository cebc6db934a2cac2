/* batch_params: -b --params, the memory argument at real scale: DP and
 * ZeRO-1/2/3 side by side, per device, for a model of --params parameters
 * on -d devices of --gpu-mem GB (<distmm/model.h>'s model_zero).  Nothing
 * runs: the closed forms alone. */
#ifndef APP_BATCH_PARAMS_H
#define APP_BATCH_PARAMS_H

#include "cli/cli.h"

/* Prints the table (or with --json one object a mode).  Returns 0. */
int batch_params_main(const struct cli_opts *o);

#endif
