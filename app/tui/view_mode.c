/* view_mode: the view's list of active modes and the dispatch of every hook
 * (see mode.h).  The list is kept in layer order, so asking "top first" is
 * a walk from its start and the base run, always there, is asked last: a
 * mode over another speaks first where both have words, and a hook that one
 * mode lacks falls through to the next.  Nothing here knows any mode; a new
 * mode is a new table, not a new branch. */
#include "view.h"

#include <stdio.h>
#include <string.h>

#include "keys.h"
#include "modes/modes.h"
#include <distmm/schedule.h>

#define EACH(v, e) for (const struct view_mode_entry *e = (v)->modes; e < (v)->modes + (v)->n_modes; e++)
/* The same for the hooks that change the view or the mode's state. */
#define EACH_RW(v, e) for (struct view_mode_entry *e = (v)->modes; e < (v)->modes + (v)->n_modes; e++)

static void vm_drop(struct view_mode_entry *e)
{
	if (e->mode->free)
		e->mode->free(e->data);
}

int view_mode_push(struct view *v, const struct view_mode *m, void *data)
{
	int at = 0;
	for (int i = 0; i < v->n_modes; i++)
		if (v->modes[i].mode == m) {
			vm_drop(&v->modes[i]);
			v->modes[i].data = data;
			return 0;
		}
	if (v->n_modes >= VIEW_MODES_MAX) {
		if (m->free)
			m->free(data);
		return -1;
	}
	while (at < v->n_modes && v->modes[at].mode->layer <= m->layer)
		at++;
	memmove(v->modes + at + 1, v->modes + at, (size_t)(v->n_modes - at) * sizeof v->modes[0]);
	v->modes[at] = (struct view_mode_entry){ m, data };
	v->n_modes++;
	return 0;
}

void view_mode_pop(struct view *v, const struct view_mode *m)
{
	for (int i = 0; i < v->n_modes; i++)
		if (v->modes[i].mode == m) {
			vm_drop(&v->modes[i]);
			memmove(v->modes + i, v->modes + i + 1,
				(size_t)(v->n_modes - i - 1) * sizeof v->modes[0]);
			v->n_modes--;
			return;
		}
}

void view_mode_clear(struct view *v)
{
	for (int i = v->n_modes - 1; i >= 0; i--)
		vm_drop(&v->modes[i]);
	v->n_modes = 0;
}

int view_mode_on(const struct view *v, const struct view_mode *m)
{
	EACH(v, e)
		if (e->mode == m)
			return 1;
	return 0;
}

void *view_mode_data(const struct view *v, const struct view_mode *m)
{
	EACH(v, e)
		if (e->mode == m)
			return e->data;
	return NULL;
}

/* --- the run */

void view_mode_configure(const struct view *v, struct dm_plan *plan, struct run_config *run)
{
	EACH(v, e)
		if (e->mode->configure)
			e->mode->configure(v, e->data, plan, run);
}

int view_mode_prepare(struct view *v, struct dm_err *err)
{
	int rc;
	EACH_RW(v, e)
		if (e->mode->prepare && (rc = e->mode->prepare(v, e->data, err)))
			return rc;
	return 0;
}

void view_mode_new_run(struct view *v)
{
	EACH_RW(v, e)
		if (e->mode->new_run)
			e->mode->new_run(v, e->data);
}

int view_mode_restart(struct view *v, uint64_t now)
{
	EACH_RW(v, e)
		if (e->mode->restart && e->mode->restart(v, e->data, now))
			return 1;
	return 0;
}

int view_mode_rebuild(struct view *v, int phase, struct dm_err *err)
{
	EACH(v, e)
		if (e->mode->rebuild)
			return e->mode->rebuild(v, e->data, phase, err);
	return dm_err_set(err, DM_EINVAL, "no mode rebuilds a phase from the log");
}

int view_rerun_to(struct view *v, int phase, struct dm_err *err)
{
	struct run *r;
	int rc;
	if ((rc = run_new(&r, v->plan, &v->run_cfg, v->a, v->b, err)))
		return rc;
	for (int p = 0; p <= phase && rc == 0; p++)
		rc = run_step(r, err);
	if (rc >= 0)
		run_snapshot_take(r, &v->snap);
	run_free(r);
	return rc < 0 ? rc : 0;
}

void view_mode_verify(struct view *v)
{
	EACH_RW(v, e)
		if (e->mode->verify)
			e->mode->verify(v, e->data);
}

void view_mode_derive(struct view *v)
{
	EACH_RW(v, e)
		if (e->mode->derive)
			e->mode->derive(v, e->data);
}

void view_mode_shown(struct view *v)
{
	EACH_RW(v, e)
		if (e->mode->shown)
			e->mode->shown(v, e->data);
}

int view_typing(const struct view *v)
{
	EACH(v, e)
		if (e->mode->typing && e->mode->typing(v, e->data))
			return 1;
	return 0;
}

/* --- words */

/* The first mode whose hook writes buf; "" when none does. */
#define FIRST_SAYS(v, hook, buf, size, ...)                                      \
	do {                                                                     \
		EACH(v, e)                                                       \
			if (e->mode->hook && e->mode->hook(v, e->data, __VA_ARGS__)) \
				return;                                          \
		if (size)                                                        \
			buf[0] = '\0';                                           \
	} while (0)

static void view_caption_said(const struct view *v, char *buf, size_t size)
{
	FIRST_SAYS(v, caption, buf, size, buf, size);
}

void view_caption(const struct view *v, char *buf, size_t size)
{
	view_caption_said(v, buf, size);
	if (v->for_file && size)
		view_words_unkeyed(buf);
}

void view_transfer_note(const struct view *v, char *buf, size_t size)
{
	FIRST_SAYS(v, transfer_note, buf, size, buf, size);
}

void view_formula(const struct view *v, int r, int shortform, char *buf, size_t size)
{
	FIRST_SAYS(v, formula, buf, size, r, shortform, buf, size);
}

void view_verify_line(const struct view *v, char *buf, size_t size)
{
	if (!v->finished) {
		buf[0] = '\0';
		return;
	}
	FIRST_SAYS(v, verify_line, buf, size, buf, size);
}

void view_note(const struct view *v, char *buf, size_t size)
{
	FIRST_SAYS(v, note, buf, size, buf, size);
}

void view_panel_line(const struct view *v, int r, int width, char *buf, size_t size)
{
	FIRST_SAYS(v, panel_line, buf, size, r, width, buf, size);
}


int view_calls(const struct view *v, int r, double progress, char *buf, size_t size)
{
	EACH(v, e)
		if (e->mode->calls && e->mode->calls(v, e->data, r, progress, buf, size))
			return 1;
	buf[0] = '\0';
	return 0;
}

int view_headline(const struct view *v, char *buf, size_t size)
{
	int tone;
	EACH(v, e)
		if (e->mode->headline && (tone = e->mode->headline(v, e->data, buf, size)))
			return tone;
	buf[0] = '\0';
	return VIEW_TONE_NONE;
}

int view_question(const struct view *v, struct view_lines *out)
{
	out->n = 0;
	EACH(v, e)
		if (e->mode->question && e->mode->question(v, e->data, out))
			return 1;
	return 0;
}

const char *view_advice(const struct view *v)
{
	const char *s;
	EACH(v, e)
		if (e->mode->advice && (s = e->mode->advice(v, e->data)))
			return s;
	return "";
}

const char *view_tag(const struct view *v)
{
	EACH(v, e)
		if (e->mode->tag)
			return e->mode->tag;
	return "";
}

/* Every mode's words, top first (a lesson's part before the practice's score). */
void view_status_extra(const struct view *v, char *buf, size_t size)
{
	size_t len = 0;
	buf[0] = '\0';
	EACH(v, e)
		if (e->mode->status && len < size) {
			e->mode->status(v, e->data, buf + len, size - len);
			len += strlen(buf + len);
		}
}

int view_chapter(const struct view *v)
{
	int c;
	EACH(v, e)
		if (e->mode->chapter && (c = e->mode->chapter(v, e->data)))
			return c;
	return 0;
}

/* --- panels and tables */

int view_hides_all(const struct view *v)
{
	EACH(v, e)
		if (e->mode->hides && e->mode->hides(v, e->data))
			return 1;
	return 0;
}

int view_hides(const struct view *v, int r)
{
	return view_hides_all(v) || quiz_hides(&v->quiz, r);
}

void view_shard_name(const struct view *v, int r, int k, char *buf, size_t size)
{
	if (view_hides(v, r))
		snprintf(buf, size, "B[?]");
	else
		snprintf(buf, size, "B[%d]", k);
}

int view_fresh(const struct view *v, int r, size_t j)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	int fresh;
	if (v->kind != SCHED_COMPUTE || d->row_end == d->row_begin)
		return 0;
	EACH(v, e)
		if (e->mode->fresh && e->mode->fresh(v, e->data, r, j, &fresh))
			return fresh;
	return 0;
}

int view_marks(const struct view *v, int r)
{
	EACH(v, e)
		if (e->mode->marks && e->mode->marks(v, e->data, r))
			return 1;
	return 0;
}

int view_mode_wrong(const struct view *v, size_t row, size_t col, int *wrong)
{
	EACH(v, e)
		if (e->mode->wrong && e->mode->wrong(v, e->data, row, col, wrong))
			return 1;
	return 0;
}

int view_mark_message(const struct view *v, struct view_mark *m)
{
	EACH(v, e)
		if (e->mode->message && e->mode->message(v, e->data, m))
			return 1;
	return 0;
}

uint64_t view_other_by(const struct view *v, int r)
{
	struct view_other o;
	view_mode_other(v, r, &o);
	return o.bytes;
}

void view_mode_other(const struct view *v, int r, struct view_other *o)
{
	memset(o, 0, sizeof *o);
	EACH(v, e)
		if (e->mode->other && e->mode->other(v, e->data, r, o))
			return;
}

int view_panel_lines(const struct view *v)
{
	int lines = 0;
	EACH(v, e)
		if (e->mode->panel_lines)
			lines += e->mode->panel_lines(v, e->data);
	return lines;
}

int view_block(const struct view *v, int r, int slot, struct view_block *b)
{
	EACH(v, e)
		if (e->mode->block && e->mode->block(v, e->data, r, slot, b))
			return 1;
	return 0;
}

int view_block_width(const struct view_block *b)
{
	/* a label wider than this is said in brief: not worth a wider panel */
	int w = (int)strlen(b->label);
	return w < VIEW_BLOCK_LABEL_MAX ? w : (int)strlen(b->brief);
}

int view_result(const struct view *v, int i, struct view_block *b)
{
	EACH(v, e)
		if (e->mode->result && e->mode->result(v, e->data, i, b))
			return 1;
	return 0;
}

int view_memory_table(const struct view *v, struct view_memtab *t)
{
	EACH(v, e)
		if (e->mode->memory && e->mode->memory(v, e->data, t))
			return 1;
	return 0;
}

int view_table_kind(const struct view *v)
{
	EACH(v, e)
		if (e->mode->table)
			return e->mode->table(v, e->data);
	return VIEW_TABLE_RING;
}

int view_phase_cell(const struct view *v, int p, int r, char *buf, size_t size, int *shard)
{
	*shard = -1;
	EACH(v, e)
		if (e->mode->phase_cell && e->mode->phase_cell(v, e->data, p, r, buf, size, shard))
			return 1;
	if (size)
		buf[0] = '\0';
	return 0;
}

int view_panel_title(const struct view *v, int r, char *buf, size_t size)
{
	EACH(v, e)
		if (e->mode->panel_title && e->mode->panel_title(v, e->data, r, buf, size))
			return 1;
	return 0;
}

int view_token(const struct view *v, int r, char *buf, size_t size)
{
	buf[0] = '\0';
	EACH(v, e)
		if (e->mode->token && e->mode->token(v, e->data, r, buf, size))
			return 1;
	return 0;
}

int view_goto_stop(const struct view *v, int s, int *stop, char *buf, size_t size)
{
	EACH(v, e)
		if (e->mode->goto_stop && e->mode->goto_stop(v, e->data, s, stop, buf, size))
			return 1;
	return 0;
}

int view_beside(const struct view *v, struct view_beside *b)
{
	EACH(v, e)
		if (e->mode->beside && e->mode->beside(v, e->data, b))
			return 1;
	return 0;
}

int view_timeline(const struct view *v, struct view_timeline *t)
{
	EACH(v, e)
		if (e->mode->timeline && e->mode->timeline(v, e->data, t))
			return 1;
	return 0;
}

int view_links(const struct view *v)
{
	EACH(v, e)
		if (e->mode->links && e->mode->links(v, e->data))
			return 1;
	return 0;
}

int view_routes(const struct view *v, struct layout_route *out, int max)
{
	int n;
	EACH(v, e)
		if (e->mode->routes && (n = e->mode->routes(v, e->data, out, max)) >= 0)
			return n;
	return -1;
}

/* --- keys: what a mode refuses, takes, offers, and adds to s */

unsigned view_key_needs(const struct view *v)
{
	unsigned have = 0;
	if (!v->finished && !v->failed)
		have |= KEYS_NEED_PLAYABLE;
	if (v->focus >= 0 || v->cell_on || v->typing_goto || view_typing(v) ||
	    (v->finished && !v->result_closed))
		have |= KEYS_NEED_BACKOUT;
	/* the base first, each mode over it after: a replay takes back the
	 * run's m [ ] x, a judged run adds j */
	for (int i = v->n_modes - 1; i >= 0; i--)
		if (v->modes[i].mode->needs)
			have = v->modes[i].mode->needs(v, v->modes[i].data, have);
	return have;
}

const char *view_refusal_find(const struct view_refusal *t, int action)
{
	for (; t->action != ACT_NONE; t++)
		if (t->action == action)
			return t->why;
	return NULL;
}

const char *view_refusal(const struct view *v, int action, const struct view_mode **who)
{
	const char *why;
	EACH(v, e)
		if (e->mode->refuse && (why = e->mode->refuse(v, e->data, action))) {
			if (who)
				*who = e->mode;
			return why;
		}
	return NULL;
}

void view_mode_share(const struct view *v, struct view_share *s)
{
	EACH(v, e)
		if (e->mode->share)
			e->mode->share(v, e->data, s);
}

/* The key's name in a reason: the character itself, else the help's name
 * of its binding. */
static void vm_key_name(int action, int ch, char *buf, size_t size)
{
	const struct keys_binding *b = keys_find(action);
	if (ch > ' ' && ch <= '~')
		snprintf(buf, size, "%c", ch);
	else
		snprintf(buf, size, "%.*s", b ? (int)strcspn(b->names, " ") : 0, b ? b->names : "");
}

int view_mode_key(struct view *v, int action, int ch, uint64_t now)
{
	const char *why = view_refusal(v, action, NULL);
	char name[16];
	int what;
	if (!why) {
		EACH_RW(v, e)
			if (e->mode->key && (what = e->mode->key(v, e->data, action, ch, now)))
				return what;
		/* no mode here takes it: if one that is off would, it says why */
		why = modes_absent(v, action);
	}
	if (!why)
		return VIEW_KEY_PASS;
	vm_key_name(action, ch, name, sizeof name);
	snprintf(v->msg, sizeof v->msg, "%s: %s", name, why);
	return VIEW_KEY_DONE;
}
