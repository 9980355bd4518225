#include "io/input_limits.h"

namespace gpuperf::io {

InputLimits& ProcessInputLimits() {
  static InputLimits limits;
  return limits;
}

}  // namespace gpuperf::io
