#include "fill_common.h"

bool fill_copyable_type(TensorType t) {
  switch (t) {
    case TT_FLOAT32: case TT_INT8: case TT_INT16: case TT_INT32: case TT_INT64: case TT_UINT8: case TT_BOOL:
      return true;
    default:
      return false;
  }
}
