// The static machine code (SASS) of device functions, as `cuobjdump -sass` lists it: part of the
// trace model, so that the analysis can look for tensor-core instructions without running any
// tool. The io layer fills it (src/io/sass/); docs/metrics.md "Tensor cores" says how it is used.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace gpuperf::model {

// One device function in one architecture's SASS. A fatbin with code for sm_80 and sm_90 gives
// two SassFunction values per kernel.
struct SassFunction {
  std::string
      mangled_name;  // as cuobjdump prints it after "Function :" (_Z11wmma_kernelPK6__halfS1_Pf)
  std::string demangled_name;  // "wmma_kernel(__half const*, __half const*, float*)"; the
                               // mangled name when it does not demangle (extern "C")
  std::string arch;            // "sm_90", "sm_90a"; "" when the listing does not say
  std::string file;            // the file the SASS was read from
  // Static instruction count, NOPs (alignment padding) excluded.
  std::int64_t instructions = 0;
  // Static count of each matrix (tensor-core) opcode by base opcode: "HMMA" -> 2, "HGMMA" -> 96.
  // Only opcodes for which IsMatrixOpcode holds; empty for a function without any.
  std::map<std::string, std::int64_t> matrix_ops;
};

// True for the base opcodes (without ".modifiers") that run on tensor cores: HMMA, HGMMA, IMMA,
// IGMMA, QGMMA, DMMA, BMMA, BGMMA, OMMA, QMMA and Blackwell's UTC*MMA family (UTCHMMA, UTCQMMA,
// UTCIMMA, UTCOMMA, ...). "HFMA2" (also in its "HFMA2.MMA" form) is vector math, not matrix.
bool IsMatrixOpcode(const std::string& base_opcode);

}  // namespace gpuperf::model
