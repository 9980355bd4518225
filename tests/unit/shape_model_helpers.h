// Shared by the shape-model tests of convolutions and attention: ModelOp with concrete inputs,
// failing the test (with the inputs) when the op is not modelled.
#pragma once

#include <catch2/catch.hpp>

#include <string>

#include "analysis/kernel/shape_model.h"

namespace gpuperf::testing {

inline analysis::OpWork ModelWork(const std::string& name,
                                  const std::string& dims,
                                  const std::string& types,
                                  const std::string& concrete) {
  auto work = analysis::ModelOp(name, dims, types, concrete);
  INFO(name << " " << dims << " " << types << " " << concrete);
  REQUIRE(work.has_value());
  return *work;
}

inline bool Modeled(const std::string& name,
                    const std::string& dims,
                    const std::string& types,
                    const std::string& concrete) {
  return analysis::ModelOp(name, dims, types, concrete).has_value();
}

}  // namespace gpuperf::testing
