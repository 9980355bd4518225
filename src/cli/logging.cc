#include "cli/logging.h"

#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

#include "util/terminal_text.h"

namespace gpuperf::cli {
namespace {

// stderr through the one terminal sanitiser: a debug line quotes file and kernel names too.
class SanitizingStderrSink final : public spdlog::sinks::base_sink<std::mutex> {
 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    spdlog::memory_buf_t formatted;
    formatter_->format(msg, formatted);
    std::string line(formatted.data(), formatted.size());
    const bool newline = !line.empty() && line.back() == '\n';
    if (newline)
      line.pop_back();
    std::fprintf(stderr, "%s\n", util::SanitizeForTerminal(line).c_str());
  }
  void flush_() override { std::fflush(stderr); }
};

}  // namespace

void ConfigureLogging(bool verbose) {
  auto sink = std::make_shared<SanitizingStderrSink>();
  auto logger = std::make_shared<spdlog::logger>("gpuperf", std::move(sink));
  logger->set_pattern("gpuperf: debug: %v");
  logger->set_level(verbose ? spdlog::level::debug : spdlog::level::off);
  spdlog::set_default_logger(std::move(logger));
}

}  // namespace gpuperf::cli
