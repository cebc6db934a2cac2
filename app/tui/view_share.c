/* view_share: s, the command line that opens this view again (see view.h):
 * the run's settings as they are now (after m, [ ], d, f or a lesson's
 * part), what each mode adds in its slot (mode.h's view_share: a judged
 * case's or a trace's source, --train and --dC, --quiz=derive) and
 * --start-at for the stop on screen.  A mode whose run is a trace's or a
 * case's says so, and the settings (or matrices) it fixes are left out. */
#include "view.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/order.h>
#include <distmm/schedule.h>

#include "cli/cli.h"

/* A word of the command line, quoted for a shell when it needs it, after
 * buf's len characters; returns the new length (size or more: cut). */
static size_t vs_arg(char *buf, size_t size, size_t len, const char *word)
{
	int plain = *word != '\0';
	for (const char *c = word; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
		      strchr("-_./=:+,@%", *c)))
			plain = 0;
	if (len >= size)
		return len;
	if (plain)
		return len + (size_t)snprintf(buf + len, size - len, " %s", word);
	len += (size_t)snprintf(buf + len, size - len, " '");
	for (const char *c = word; *c && len < size; c++)
		len += (size_t)snprintf(buf + len, size - len, *c == '\'' ? "'\\''" : "%c", *c);
	return len < size ? len + (size_t)snprintf(buf + len, size - len, "'") : len;
}

void view_share_word(struct view_share *s, int slot, const char *word)
{
	s->len[slot] = vs_arg(s->word[slot], sizeof s->word[slot], s->len[slot], word);
}

void view_share_wordf(struct view_share *s, int slot, const char *fmt, ...)
{
	char word[64];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(word, sizeof word, fmt, ap);
	va_end(ap);
	view_share_word(s, slot, word);
}

/* --start-at for the stop on screen (cli_start_at's words): nothing at ready. */
static size_t vs_start_at(const struct view *v, char *buf, size_t size, size_t len)
{
	char num[64];
	int stop = v->failed ? v->live_phase : v->stop;
	int kind = stop >= 0 && stop < v->phase_count ? view_phase_kind(v, stop) : -1;
	if (stop < 0)
		return len;
	len = vs_arg(buf, size, len, "--start-at");
	if (stop >= v->phase_count)
		return vs_arg(buf, size, len, "verify");
	if (kind == SCHED_GATHER)
		return vs_arg(buf, size, len, "gather");
	if (kind == SCHED_DB_PARTIAL)
		return vs_arg(buf, size, len, "partial");
	if (kind == SCHED_DISTRIBUTE || kind >= SCHED_CCL_FIRST)
		return len; /* a stop --start-at has no word for: the line starts at ready */
	if (kind != SCHED_COMPUTE && kind != SCHED_TRANSFER) {
		/* the backward's: b2, b2t, rs1, ag1 */
		int s = view_phase_step(v, stop);
		snprintf(num, sizeof num, "%s%d%s",
			 kind == SCHED_REDUCE_SCATTER ? "rs" : kind == SCHED_ALL_GATHER ? "ag" : "b", s,
			 kind == SCHED_BWD_TRANSFER ? "t" : "");
		return vs_arg(buf, size, len, num);
	}
	/* the forward's phases, numbered alike with --train or without */
	snprintf(num, sizeof num, "%d%s", view_phase_step(v, stop),
		 kind == SCHED_TRANSFER ? "t" : "");
	return vs_arg(buf, size, len, num);
}

void view_share_line(const struct view *v, const struct cli_opts *o, const char *theme, char *buf,
		     size_t size)
{
	static struct view_share s; /* 4 KiB of words: only the UI thread shares */
	char num[64];
	size_t len = (size_t)snprintf(buf, size, "share: ./distmm-tui");
#define ARG(w) (len = vs_arg(buf, size, len, (w)))
#define ARGF(...) (snprintf(num, sizeof num, __VA_ARGS__), ARG(num))
#define SLOT(k) (len = len < size ? len + (size_t)snprintf(buf + len, size - len, "%s", s.word[k]) : len)
	memset(&s, 0, sizeof s);
	s.o = o;
	view_mode_share(v, &s);
	int own = !s.settings_fixed, inputs = !s.inputs_fixed;
	SLOT(VIEW_SHARE_SOURCE);
	if (own && v->cfg.mode == DM_DP)
		ARG("-m"), ARG("dp");
	if (own)
		SLOT(VIEW_SHARE_SETTING);
	if (inputs)
		SLOT(VIEW_SHARE_INPUT);
	if (own)
		ARG("-d"), ARGF("%d", v->cfg.devices);
	if (o->a_file)
		ARG("-A"), ARG(o->a_file);
	if (o->b_file)
		ARG("-B"), ARG(o->b_file);
	if (inputs && !o->a_file)
		ARG("-M"), ARGF("%zu", v->a->rows);
	if (inputs && !(o->a_file || o->b_file))
		ARG("-K"), ARGF("%zu", v->a->cols);
	if (inputs && !o->b_file)
		ARG("-N"), ARGF("%zu", v->b->cols);
	if (inputs && !(o->a_file && o->b_file)) {
		ARG("--values"), ARG(o->values == MAT_VALUES_INTS ? "ints" : "floats");
		ARG("--seed"), ARGF("%llu", (unsigned long long)o->seed);
	}
	if (own && v->cfg.order != ORDER_PARITY)
		ARG(order_is_fix(v->cfg.order) ? "--fix" : "--order"), ARG(order_name(v->cfg.order));
	if (own && v->cfg.capacity != RUN_UNBOUNDED)
		ARG("--capacity"), ARGF("%zu", v->cfg.capacity);
	if (v->cfg.bug)
		ARG("--bug"), ARG(bug_name(v->cfg.bug));
	if (own)
		SLOT(VIEW_SHARE_PRACTICE);
	if (own && !s.len[VIEW_SHARE_PRACTICE] && v->quiz.on)
		ARGF("--quiz=%d", v->quiz.level);
	if (theme)
		ARG("--theme"), ARG(theme);
	if (o->ascii)
		ARG("--ascii");
	if (o->no_color)
		ARG("--no-color");
	vs_start_at(v, buf, size, len);
#undef ARG
#undef ARGF
#undef SLOT
}
