// Parses the text of `cuobjdump -sass FILE` into model::SassFunction values, streaming: the
// output of a large library is fed chunk by chunk and never held whole. The layout, as cuobjdump
// 11.8 to 13 print it (an instruction line may be followed by a second line holding only the
// rest of its encoding, on sm_70 to sm_89):
//
//   Fatbin elf code:
//   ================
//   arch = sm_90
//   ...
//           code for sm_90
//                   Function : _Z11wmma_kernelPK6__halfS1_Pf
//           .headerflags    @"EF_CUDA_SM90 EF_CUDA_PTX_SM(EF_CUDA_SM90)"
//           /*0070*/               @P0 EXIT ;                       /* 0x000000000000094d */
//           /*0180*/                   HMMA.16816.F32 R16, R4, R12, RZ ;  /* 0x0000000c0410723c */
//                   ..........
//
// Odd input is survived, never fatal: lines longer than kMaxLineBytes are skipped and counted,
// instructions outside a function are counted, a truncated listing keeps what came before.
#pragma once

#include "gpuperf/sass.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpuperf::io::sass {

// A line longer than this is not SASS (cuobjdump's longest are mangled names of a few KiB).
inline constexpr std::size_t kMaxLineBytes = 64 * 1024;

struct SassListing {
  std::vector<model::SassFunction> functions;  // in listing order, one per function and arch
  std::int64_t skipped_long_lines = 0;         // lines over kMaxLineBytes
  std::int64_t orphan_instructions = 0;        // instruction lines before any "Function :"
  bool saw_ptx = false;                        // a "Fatbin ptx code" section was listed
};

class SassParser {
 public:
  // `file` is recorded in every SassFunction::file.
  explicit SassParser(std::string file);

  // Appends a chunk of cuobjdump's stdout; chunks may split lines anywhere.
  void Feed(std::string_view chunk);
  // Parses a last line without its newline and returns the listing. Call once.
  SassListing Finish();

 private:
  void ParseLine(std::string_view line);
  void StartFunction(std::string_view name);
  void CountInstruction(std::string_view text);

  std::string file_;
  std::string partial_;         // the current line so far
  bool skipping_line_ = false;  // the current line is over kMaxLineBytes
  std::string arch_;            // from "code for sm_XX" (or "arch = sm_XX")
  bool in_function_ = false;    // instructions go to listing_.functions.back()
  SassListing listing_;
};

// Parses a whole listing held in memory (tests, small outputs).
SassListing ParseSass(std::string_view text, const std::string& file);

// The demangled form of `name` (abi::__cxa_demangle), or `name` itself when it is not a mangled
// C++ name ("wmma_kernel", an extern "C" kernel) or does not demangle.
std::string Demangle(const std::string& name);

// The base opcode of an instruction's text after the address and predicate:
// "HMMA.16816.F32 R16, R4, R12, RZ ;" -> "HMMA"; "@!P0 EXIT ;" -> "EXIT"; "" when none.
std::string_view BaseOpcode(std::string_view instruction);

}  // namespace gpuperf::io::sass
