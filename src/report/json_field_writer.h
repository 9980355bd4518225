// The writing visitor of the report.json field lists (gpuperf/report_json_fields.h): each
// v(key, member[, tag]) sets one key of `object`, in call order.
#pragma once

#include "gpuperf/report_json_fields.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "report/json_predictions.h"

namespace gpuperf::report {

class JsonFieldWriter {
 public:
  explicit JsonFieldWriter(nlohmann::ordered_json& object) : object_(object) {}

  template <class T>
  void operator()(std::string_view key, const T& value) {
    static_assert(!std::is_floating_point_v<T>, "a double needs json_fields::Decimals");
    static_assert(!std::is_enum_v<T>, "an enum is written by its ToString (an overload here)");
    object_[std::string(key)] = value;
  }
  void operator()(std::string_view key, const std::optional<std::int64_t>& value) {
    object_[std::string(key)] = value ? nlohmann::ordered_json(*value) : nullptr;
  }
  void operator()(std::string_view key, double value, json_fields::Decimals d) {
    object_[std::string(key)] = RoundedNumber(value, d.places);
  }
  void operator()(std::string_view key,
                  const std::optional<double>& value,
                  json_fields::Decimals d) {
    object_[std::string(key)] = value ? RoundedNumber(*value, d.places) : nullptr;
  }
  void operator()(std::string_view key, std::int64_t value, json_fields::NullIfNegative) {
    object_[std::string(key)] =
        value < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(value);
  }
  void operator()(std::string_view key, const std::string& value, json_fields::NullUnless n) {
    object_[std::string(key)] = n.present ? nlohmann::ordered_json(value) : nullptr;
  }
  void operator()(std::string_view key, CategoryTier value) {
    object_[std::string(key)] = std::string(ToString(value));
  }
  void operator()(std::string_view key, FrameworkCategory value) {
    object_[std::string(key)] = std::string(ToString(value));
  }
  void operator()(std::string_view key, OperatorSource value) {
    object_[std::string(key)] = std::string(ToString(value));
  }
  void operator()(std::string_view key, ShareKind value) {
    object_[std::string(key)] = std::string(ToString(value));
  }
  void operator()(std::string_view key, RangeKind value) {
    object_[std::string(key)] = std::string(ToString(value));
  }
  void operator()(std::string_view key, EvidenceTier value, json_fields::NullUnless n) {
    object_[std::string(key)] =
        n.present ? nlohmann::ordered_json(std::string(ToString(value))) : nullptr;
  }

 private:
  nlohmann::ordered_json& object_;
};

}  // namespace gpuperf::report
