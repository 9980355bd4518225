#include "cli/input_options.h"

#include <cstdint>
#include <string>

#include "io/input_limits.h"
#include "model/record_limit.h"

namespace gpuperf::cli {

void AddInputLimitOptions(CLI::App* sub) {
  const std::uint64_t default_mib = io::ProcessInputLimits().max_decompressed_bytes >> 20;
  sub->add_option_function<std::uint64_t>(
         "--max-decompressed-mib",
         [](const std::uint64_t& mib) {
           io::ProcessInputLimits().max_decompressed_bytes = mib << 20;
         },
         "Refuse a gzip input that inflates to more than this many MiB (default " +
             std::to_string(default_mib) + ")")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40))
      ->type_name("MIB");
  sub->add_option_function<std::uint64_t>(
         "--max-records",
         [](const std::uint64_t& records) { model::MaxTraceRecords() = records; },
         "Refuse an input whose trace model would hold more records (kernels, copies, API calls, "
         "ranges, ...) than this (default " +
             std::to_string(model::MaxTraceRecords()) + ")")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40))
      ->type_name("N");
}

}  // namespace gpuperf::cli
