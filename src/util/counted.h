// A count with its noun in the right number ("1 kernel", "3 kernels"): prose reads "1 instances"
// otherwise wherever a count can be one.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace gpuperf::util {

inline std::string Counted(std::int64_t n, std::string_view singular, std::string_view plural) {
  return fmt::format("{} {}", n, n == 1 ? singular : plural);
}

}  // namespace gpuperf::util
