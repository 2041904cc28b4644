/* What each memory technique saved, for the report (issue 17 item 5): the live bytes of
 * every step layer by layer (whole tensors) and with the chosen execution (in-place
 * operators share bytes between their input and output), and the bound each reaches. */
#ifndef TINYAOT_PLAN_SAVINGS_H
#define TINYAOT_PLAN_SAVINGS_H
#include <stddef.h>

#include "../ir/ir.h"

/* Bytes of scratch tensors live at schedule position k, whole (the layer-by-layer view). */
size_t plan_live_at(const Model *m, int k);
/* Bytes node k (schedule position) saves at its step by running in place: its input and
 * its output (or the temporary it writes) overlap by that much; 0 when not in place. */
size_t plan_inplace_saving(const Model *m, int k);
/* The largest live bytes over the schedule with the chosen execution: the bound the plan
 * reaches (at most the layer-by-layer bound; the arena may still be above it). */
size_t plan_reached_bound(const Model *m);

#endif
