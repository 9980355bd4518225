// SHA-256 (FIPS 180-4), used to fingerprint the traced executable in baseline.json so that two
// baselines can be checked to describe the same binary.
#pragma once

#include "gpuperf/result.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gpuperf::util {

class Sha256 {
 public:
  Sha256();
  void Update(const void* data, std::size_t size);
  void Update(std::string_view text) { Update(text.data(), text.size()); }
  // Finishes the digest; the object must not be updated afterwards.
  std::array<std::uint8_t, 32> Finish();
  // Finish() as 64 lowercase hex digits.
  std::string FinishHex();

 private:
  void Block(const std::uint8_t* block);

  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t total_bytes_ = 0;
};

// The hex SHA-256 of a file's content; an error names the path.
Result<std::string> Sha256File(const std::string& path);

}  // namespace gpuperf::util
