/* Storage sharing in the IR: every stage after transform follows alias chains to the
 * tensor that owns the bytes, so the walk lives beneath all of them. */
#ifndef TINYAOT_STORAGE_H
#define TINYAOT_STORAGE_H
#include <stdint.h>

#include "ir.h"

/* The tensor whose storage `id` uses (follows alias chains). */
int32_t tensor_storage(const Model *m, int32_t id);

#endif
