#include "report/json_tensor_cores.h"

namespace gpuperf::report {

nlohmann::ordered_json TensorCoresJson(const TensorCoreEvidence& t) {
  nlohmann::ordered_json instructions = nlohmann::ordered_json::object();
  for (const auto& [opcode, count] : t.instructions)
    instructions[opcode] = count;
  return nlohmann::ordered_json{{"used", t.used},
                                {"evidence", std::string(ToString(t.evidence))},
                                {"source", t.source},
                                {"instructions", std::move(instructions)},
                                {"detail", t.detail}};
}

}  // namespace gpuperf::report
