#include "cli/logging.h"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <memory>

namespace gpuperf::cli {

void ConfigureLogging(bool verbose) {
  auto sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  auto logger = std::make_shared<spdlog::logger>("gpuperf", std::move(sink));
  logger->set_pattern("gpuperf: debug: %v");
  logger->set_level(verbose ? spdlog::level::debug : spdlog::level::off);
  spdlog::set_default_logger(std::move(logger));
}

}  // namespace gpuperf::cli
