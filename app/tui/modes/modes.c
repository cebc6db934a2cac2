/* modes: the registry (see modes.h).  The one place where a run's settings
 * become modes: the rest of the interface only asks the modes' hooks. */
#include "modes.h"

#include <distmm/dm_err.h>

#include "ccl.h"
#include "interview.h"
#include "judged.h"
#include "lab.h"
#include "lessons.h"
#include "practice.h"
#include "replay.h"
#include "run.h"
#include "tp.h"
#include "train.h"
#include "tui/view.h"

const struct view_mode *const modes_all[] = {
	&mode_interview, &mode_judged, &mode_judged_ring, &mode_lessons, &mode_train, &mode_tp,
	&mode_ccl, &mode_practice, &mode_lab, &mode_replay, &mode_run,
};

int modes_count(void)
{
	return (int)(sizeof modes_all / sizeof modes_all[0]);
}

int modes_request(struct view *v, struct dm_err *err)
{
	if (view_mode_push(v, &mode_run, NULL) ||
	    (v->cfg.lab && view_mode_push(v, &mode_lab, NULL)))
		return dm_err_set(err, DM_ENOMEM, "too many modes");
	if (plan_mode_tp(v->cfg.mode))
		return mode_tp_push(v, err);
	if (v->cfg.ccl)
		return mode_ccl_push(v, err);
	return v->cfg.train ? mode_train_push(v, err) : 0;
}

const char *modes_absent(const struct view *v, int action)
{
	const char *why;
	for (int i = 0; i < modes_count(); i++)
		if (modes_all[i]->absent && !view_mode_on(v, modes_all[i]) &&
		    (why = modes_all[i]->absent(action)))
			return why;
	return NULL;
}
