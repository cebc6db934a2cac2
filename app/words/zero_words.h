/* zero_words: the memory argument at real scale in words (ZeRO's
 * accounting, <distmm/model.h>'s model_zero): each stage's name, its
 * closed form as a reader writes it, what the figures leave out and the
 * units they are in.  The numbers are the engine's; only the words are
 * here. */
#ifndef APP_ZERO_WORDS_H
#define APP_ZERO_WORDS_H

#include <stddef.h>
#include <stdint.h>

#include <distmm/model.h>

/* "DP", "ZeRO-1", "ZeRO-2", "ZeRO-3 / FSDP" */
const char *zerow_name(enum model_zero_stage stage);
/* The JSON key: "dp", "zero-1", "zero-2", "zero-3" */
const char *zerow_key(enum model_zero_stage stage);
/* "16Ψ", "4Ψ + 12Ψ/N", "2Ψ + 14Ψ/N", "16Ψ/N" (UTF-8) */
const char *zerow_formula(enum model_zero_stage stage);
/* What is sent: "a gradient all-reduce", "1.5 x a gradient all-reduce" */
const char *zerow_sent_rule(enum model_zero_stage stage);
/* The convention, one line: bytes per parameter, GB = 10^9 bytes. */
const char *zerow_convention(void);
/* What the figures leave out, one line. */
const char *zerow_left_out(void);
/* A count of parameters as people say it: "7.5e9 (7.5 B)", "70 B", "400 B". */
void zerow_params(uint64_t psi, char *buf, size_t size);
/* bytes in GB (10^9) with one decimal: "31.4 GB" */
void zerow_gb(double bytes, char *buf, size_t size);

#endif
