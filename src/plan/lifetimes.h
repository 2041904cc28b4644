#ifndef TINYAOT_LIFETIMES_H
#define TINYAOT_LIFETIMES_H
#include "../ir/ir.h"

/* Sets first_use/last_use of every storage-owning tensor (aliases fold into their root). */
void plan_compute_lifetimes(Model *m);

#endif
