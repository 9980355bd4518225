#include "gpuperf/sass.h"

#include <array>
#include <string_view>

namespace gpuperf::model {

bool IsMatrixOpcode(const std::string& base_opcode) {
  // Warp-level MMA (Volta on), warpgroup GMMA (Hopper) and the sm_120 FP8/FP4 forms.
  static constexpr std::array<std::string_view, 10> kMatrix = {
      "HMMA", "HGMMA", "IMMA", "IGMMA", "QGMMA", "DMMA", "BMMA", "BGMMA", "OMMA", "QMMA"};
  for (std::string_view opcode : kMatrix) {
    if (base_opcode == opcode)
      return true;
  }
  // Blackwell's tcgen05.mma: UTCHMMA, UTCQMMA, UTCIMMA, UTCOMMA, ...
  std::string_view text = base_opcode;
  return text.size() >= 6 && text.substr(0, 3) == "UTC" && text.substr(text.size() - 3) == "MMA";
}

}  // namespace gpuperf::model
