#include "model/kernel_model.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <exception>
#include <tuple>
#include <utility>

namespace gpuperf::model {
namespace {

constexpr Precision kPrecisions[] = {Precision::kFp64,
                                     Precision::kFp32,
                                     Precision::kFp16,
                                     Precision::kBf16,
                                     Precision::kTf32,
                                     Precision::kFp8,
                                     Precision::kInt8};

std::string Quoted(std::string_view text) {
  return "'" + std::string(text) + "'";
}

std::string NumberText(double value) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return ec == std::errc() ? std::string(buffer, end) : std::string("?");
}

bool IsLaunchVariable(std::string_view name) {
  return std::find(std::begin(kLaunchVariables), std::end(kLaunchVariables), name) !=
         std::end(kLaunchVariables);
}

// g1, g2, ...: the capture group number, 0 when `name` is not one.
std::size_t GroupNumber(std::string_view name) {
  if (name.size() < 2 || name[0] != 'g')
    return 0;
  std::size_t n = 0;
  auto [end, ec] = std::from_chars(name.data() + 1, name.data() + name.size(), n);
  return ec == std::errc() && end == name.data() + name.size() ? n : 0;
}

std::string ParamProblem(std::string_view name) {
  bool identifier =
      !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) != 0 || name[0] == '_');
  for (char c : name)
    identifier = identifier && (std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_');
  if (!identifier)
    return "not a name a formula can use ([A-Za-z_][A-Za-z0-9_]*)";
  if (IsLaunchVariable(name) || GroupNumber(name) > 0 || name == "min" || name == "max" ||
      name == "ceil" || name == "floor")
    return "a reserved name (launch variable, capture group or function)";
  return "";
}

Result<util::Expression> CompileFormula(const std::string& where,
                                        const std::string& text,
                                        const KernelModelFile& file,
                                        std::size_t groups) {
  auto known = [&](std::string_view name) {
    std::size_t g = GroupNumber(name);
    return file.params.count(std::string(name)) > 0 || IsLaunchVariable(name) ||
           (g >= 1 && g <= groups);
  };
  util::ExpressionError error;
  auto expression = util::Expression::Parse(text, known, error);
  if (!expression) {
    return Error{where + " " + Quoted(text) + ": " + error.what + " at column " +
                 std::to_string(error.position + 1)};
  }
  return std::move(*expression);
}

Result<CompiledKernelEntry> CompileEntry(const KernelModelFile& file, std::size_t index) {
  const KernelModelEntry& e = file.kernels[index];
  const std::string where = "kernels[" + std::to_string(index) + "]";
  CompiledKernelEntry out;
  out.index = index;
  out.pattern = e.pattern;
  if (e.pattern.empty())
    return Error{where + ".pattern: empty"};
  if (e.pattern.size() > kMaxPatternLength)
    return Error{where + ".pattern: longer than " + std::to_string(kMaxPatternLength) +
                 " characters"};
  auto regex = util::UserRegex::Compile(e.pattern);
  if (!regex.ok())
    return Error{where + ".pattern " + regex.error().message};
  out.regex = std::move(regex).value();
  if (e.flops.empty() && e.bytes.empty())
    return Error{where + ": needs \"flops\", \"bytes\" or both"};
  const std::size_t groups = out.regex.mark_count();
  for (auto [text, field, slot] :
       {std::tuple{&e.flops, "flops", &out.flops}, std::tuple{&e.bytes, "bytes", &out.bytes}}) {
    if (text->empty())
      continue;
    auto formula = CompileFormula(where + "." + field, *text, file, groups);
    if (!formula.ok())
      return formula.error();
    *slot = std::move(formula).value();
  }
  auto precision = std::find_if(std::begin(kPrecisions), std::end(kPrecisions), [&](Precision p) {
    return ToString(p) == e.precision;
  });
  if (precision == std::end(kPrecisions))
    return Error{where + ".precision " + Quoted(e.precision) +
                 ": not one of fp64, fp32, fp16, bf16, tf32, fp8, int8"};
  out.precision = *precision;
  if (e.unit != ToString(MathUnit::kVector) && e.unit != ToString(MathUnit::kTensor))
    return Error{where + ".unit " + Quoted(e.unit) + ": not \"vector\" or \"tensor\""};
  out.unit = e.unit == ToString(MathUnit::kTensor) ? MathUnit::kTensor : MathUnit::kVector;
  return out;
}

void MatchAll(const CompiledKernelModel& model,
              const std::vector<std::string_view>& names,
              std::vector<KernelNameMatch>& out) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    KernelNameMatch& match = out[i];
    if (names[i].size() > kMaxMatchedNameLength) {
      match.error = "longer than " + std::to_string(kMaxMatchedNameLength) + " characters";
      continue;
    }
    for (std::size_t e = 0; e < model.entries.size(); ++e) {
      Result<bool> found = model.entries[e].regex.Search(names[i], &match.groups);
      if (!found.ok()) {
        match.error = "the regex of kernels[" + std::to_string(model.entries[e].index) +
                      "]: " + found.error().message;
        break;
      }
      if (found.value()) {
        match.entry = static_cast<std::int32_t>(e);
        break;
      }
    }
  }
}

}  // namespace

Result<CompiledKernelModel> CompileKernelModel(const KernelModelFile& file) {
  CompiledKernelModel out;
  for (const auto& [name, value] : file.params) {
    if (std::string problem = ParamProblem(name); !problem.empty())
      return Error{"params." + name + ": " + problem};
    if (!std::isfinite(value))
      return Error{"params." + name + ": not a finite number"};
  }
  out.params = file.params;
  if (file.kernels.empty())
    return Error{"kernels: no entries"};
  for (std::size_t i = 0; i < file.kernels.size(); ++i) {
    auto entry = CompileEntry(file, i);
    if (!entry.ok())
      return entry.error();
    out.entries.push_back(std::move(entry).value());
  }
  return out;
}

std::vector<KernelNameMatch> MatchKernelNames(const CompiledKernelModel& model,
                                              const std::vector<std::string_view>& names) {
  std::vector<KernelNameMatch> out(names.size());
  MatchAll(model, names, out);
  return out;
}

Result<LaunchWork> EvaluateLaunch(const CompiledKernelModel& model,
                                  const KernelNameMatch& match,
                                  const GpuActivity& launch) {
  const CompiledKernelEntry& entry = model.entries.at(static_cast<std::size_t>(match.entry));
  std::string missing;  // why a variable has no value, for the error
  auto lookup = [&](std::string_view name) -> std::optional<double> {
    if (auto it = model.params.find(std::string(name)); it != model.params.end())
      return it->second;
    if (std::size_t g = GroupNumber(name); g >= 1 && g <= match.groups.size()) {
      const std::string& text = match.groups[g - 1];
      double value = 0;
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
        missing = std::string(name) + " (" + Quoted(text) + ") is not a number";
        return std::nullopt;
      }
      return value;
    }
    const bool grid_part = name.rfind("grid_", 0) == 0 || name == "blocks" || name == "threads";
    const bool block_part = name.rfind("block_", 0) == 0 || name == "threads";
    if ((grid_part && launch.grid.Volume() <= 0) || (block_part && launch.block.Volume() <= 0)) {
      missing = std::string(name) + " unknown (the trace records no " +
                (grid_part && launch.grid.Volume() <= 0 ? "grid" : "block") + " for this launch)";
      return std::nullopt;
    }
    const std::int64_t blocks = launch.grid.Volume();
    if (name == "grid_x" || name == "grid_y" || name == "grid_z") {
      const Dim3& d = launch.grid;
      return static_cast<double>(name == "grid_x" ? d.x : name == "grid_y" ? d.y : d.z);
    }
    if (name == "block_x" || name == "block_y" || name == "block_z") {
      const Dim3& d = launch.block;
      return static_cast<double>(name == "block_x" ? d.x : name == "block_y" ? d.y : d.z);
    }
    if (name == "blocks")
      return static_cast<double>(blocks);
    return static_cast<double>(blocks) * static_cast<double>(launch.block.Volume());  // threads
  };
  LaunchWork work;
  for (auto [formula, field, slot] : {std::tuple{&entry.flops, "flops", &work.flops},
                                      std::tuple{&entry.bytes, "bytes", &work.bytes}}) {
    if (!*formula)
      continue;
    util::ExpressionError error;
    missing.clear();
    std::optional<double> value = (*formula)->Evaluate(lookup, error);
    if (!value)
      return Error{std::string(field) + ": " + (missing.empty() ? error.what : missing)};
    if (*value < 0)
      return Error{std::string(field) + ": " + NumberText(*value) + " is negative"};
    *slot = *value;
  }
  return work;
}

}  // namespace gpuperf::model
