// Debug logging for --verbose: spdlog to stderr, off by default so that stdout stays the
// summary and stderr stays one error line.
#pragma once

namespace gpuperf::cli {

// Installs the default logger on stderr; level debug when `verbose`, off otherwise.
void ConfigureLogging(bool verbose);

}  // namespace gpuperf::cli
