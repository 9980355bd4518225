// Finds the SASS functions (gpuperf/sass.h) a trace's kernel name stands for. Traces spell
// kernel names in several ways: CUPTI and Nsight Compute demangle with parameters
// ("void fma_kernel<float>(float *, const float *, float, int)"), nsys may keep the mangled
// name or a short one ("fma_kernel"), extern "C" kernels are never mangled.
#pragma once

#include "gpuperf/sass.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gpuperf::analysis {

// How a kernel name matched, tried in this order; the first tier with a match decides.
enum class SassMatchTier { kNone, kMangled, kDemangled, kSignature, kBaseName };

struct SassMatch {
  SassMatchTier tier = SassMatchTier::kNone;
  std::vector<const model::SassFunction*> functions;  // every arch's copy, listing order
};

class SassIndex {
 public:
  // `functions` must outlive the index.
  explicit SassIndex(const std::vector<model::SassFunction>& functions);

  // Exact mangled name, exact demangled name, then util::SignatureKey (demanglers differ in
  // spacing and parameters: "const __half *" / "__half const*"). A bare kernel name (nsys'
  // short names) also matches util::BaseName (util/kernel_name_keys.h).
  SassMatch Find(std::string_view kernel_name) const;

 private:
  using Index = std::map<std::string, std::vector<const model::SassFunction*>, std::less<>>;
  Index mangled_, demangled_, key_, base_;
};

std::string_view ToString(SassMatchTier tier);

}  // namespace gpuperf::analysis
