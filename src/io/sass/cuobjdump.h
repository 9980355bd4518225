// Reads the SASS of an executable, library, object file, cubin or fatbin by running
// `cuobjdump -sass FILE` (`gpuperf analyze --sass FILE`). The parse is sass_parser.h's.
#pragma once

#include "gpuperf/result.h"

#include <chrono>
#include <string>

#include "io/sass/sass_parser.h"

namespace gpuperf::io::sass {

// The one message for a missing tool (after "FILE: ").
inline constexpr const char* kCuobjdumpMissing =
    "cuobjdump not found: set GPUPERF_CUOBJDUMP or install the CUDA toolkit";

// Where cuobjdump is, in this order: $GPUPERF_CUOBJDUMP (must then be an executable file), the
// PATH, $CUDA_HOME/bin, /usr/local/cuda/bin. Fails with kCuobjdumpMissing, or with what is wrong
// with $GPUPERF_CUOBJDUMP.
Result<std::string> FindCuobjdump();

struct SassReadOptions {
  std::string cuobjdump;  // the tool; "" -> FindCuobjdump()
  std::chrono::milliseconds timeout{60'000};
};

// The SASS functions of `path`. Fails with one line starting "PATH: " when the file cannot be
// opened, is not an ELF file, ar archive or fatbin, cuobjdump is missing, fails, is killed at
// the timeout, or lists no SASS (no device code, or PTX only).
Result<SassListing> ReadSassFile(const std::string& path, const SassReadOptions& options = {});

}  // namespace gpuperf::io::sass
