/* Several models in one firmware: the group's shared scratch and combined report
 * (export_shared.c). */
#ifndef TINYAOT_EXPORT_SHARED_H
#define TINYAOT_EXPORT_SHARED_H
#include <stdbool.h>
#include <stddef.h>

#include "../common/diag.h"
#include "../emit/emit.h"
#include "../plan/plan.h"

/* The group's C symbols and DIR/<SHARED_NAME>.h/.c: <SHARED_NAME>_scratch_<mem>, _owner. */
#define SHARED_NAME "tinyaot_shared"

typedef struct SharedMember {
  const char *name, *prefix, *model_path;
  const Plan *plan;
} SharedMember;

typedef struct SharedGroup {
  size_t scratch[MEM_COUNT];           /* the largest scratch arena per memory */
  const char *scratch_name[MEM_COUNT]; /* its arena name ("scratch_dtcm"), NULL if none */
  size_t shared_bytes;   /* sum of scratch[] */
  size_t unshared_bytes; /* every model's other arenas (state, pinned, stream) */
  size_t separate_bytes; /* every model's arenas, as separate modules */
} SharedGroup;

void shared_group_sizes(const SharedMember *members, int n, SharedGroup *g);
/* Adds report.json (and, when shared, SHARED_NAME.h and .c) to `group`. */
bool export_shared_group(Module *group, Arena *a, const SharedMember *members, int n, bool shared, Diag *d);

#endif
