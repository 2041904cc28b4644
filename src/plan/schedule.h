/* schedule: the order operators run in. By default the model's order; with
 * reordering, a memory-aware order of REORDERABLE operators that keeps every data
 * dependency and never moves an operator across one that is not REORDERABLE. */
#ifndef TINYAOT_SCHEDULE_H
#define TINYAOT_SCHEDULE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/diag.h"
#include "../ir/ir.h"

/* Activation memory over a schedule: live bytes of arena tensors at each step. */
typedef struct LiveProfile {
  size_t peak;   /* max over steps: the activation lower bound */
  uint64_t area; /* sum over steps: how long memory stays occupied */
} LiveProfile;

typedef struct ScheduleReport {
  bool tried;          /* reordering was enabled */
  bool applied;        /* the new order was kept (strictly better) */
  int moved;           /* operators whose position changed */
  LiveProfile before, after;
} ScheduleReport;

/* Reorders m->nodes in place (Node.index keeps the model's operator index) when
 * that lowers the peak, or keeps the peak and lowers the area. Positions in
 * m->nodes are the schedule from then on. */
bool schedule_reorder(Model *m, ScheduleReport *r, Diag *d);
/* Profile of the current node order (computes lifetimes). */
LiveProfile schedule_profile(Model *m);

#endif
