/* Shared by FILL, ZEROS_LIKE, SHAPE, BROADCAST_TO and BROADCAST_ARGS
 * (runtime/kernels/ta_fill.h): the dtypes they copy. */
#ifndef TINYAOT_FILL_COMMON_H
#define TINYAOT_FILL_COMMON_H
#include <stdbool.h>

#include "op.h"

/* float32, int8, int16, int32, int64, uint8 or bool: element bytes copied as they are. */
bool fill_copyable_type(TensorType t);

#define FILL_CAPABILITIES \
  (CAP_STATELESS | CAP_DESCRIPTOR_DRIVEN | CAP_STATIC_SCHEDULABLE | CAP_PURE | CAP_REORDERABLE)

#endif
