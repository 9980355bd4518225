#include "analysis/kernel/kernel_model.h"

#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string_view>
#include <unordered_map>

#include "analysis/kernel/roofline.h"
#include "model/kernel_model.h"

namespace gpuperf::analysis {
namespace {

// Names in the note are cut to this many characters: templated kernel names run to thousands.
constexpr std::size_t kNoteNameLength = 80;
// Names listed per kind of problem in the note; the rest are counted.
constexpr std::size_t kNoteNames = 3;

std::string Short(std::string_view name) {
  if (name.size() <= kNoteNameLength)
    return std::string(name);
  return std::string(name.substr(0, kNoteNameLength)) + "...";
}

// What happened to the launches of one kernel row.
struct RowWork {
  std::vector<InstanceWork> instances;
  std::int64_t failed = 0;
  std::string first_error;
  std::int32_t device = 0;
  bool seen = false;
};

// "'a' 2 (flops: division by zero); 'b' 1 (...); and 3 more names".
std::string ListNames(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < kNoteNames; ++i)
    out += (i == 0 ? "" : "; ") + items[i];
  if (items.size() > kNoteNames)
    out += fmt::format("; and {} more", items.size() - kNoteNames);
  return out;
}

std::string Plural(std::size_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

}  // namespace

void AttachUserModelRooflines(const model::Trace& trace,
                              const model::KernelModelFile& file,
                              const DeviceRoofsTable& roofs,
                              std::vector<report::KernelRow>& kernels,
                              std::vector<std::string>& notes) {
  std::shared_ptr<const model::CompiledKernelModel> compiled = file.compiled;
  if (!compiled) {  // io/kernel_model compiled a file it read; a caller-built one may be wrong
    auto compiling = model::CompileKernelModel(file);
    if (!compiling.ok()) {
      notes.push_back(
          fmt::format("user model {}: not used ({})", file.path, compiling.error().message));
      return;
    }
    compiled = std::make_shared<const model::CompiledKernelModel>(std::move(compiling).value());
  }
  std::vector<std::string_view> names;
  for (const report::KernelRow& row : kernels)
    names.push_back(row.name);
  std::vector<model::KernelNameMatch> matches = model::MatchKernelNames(*compiled, names);
  std::map<std::string_view, std::size_t> row_of;
  for (std::size_t i = 0; i < kernels.size(); ++i)
    row_of.emplace(kernels[i].name, i);

  // Every launch of a matched name without counters; the row of each NameId looked up once.
  std::vector<RowWork> work(kernels.size());
  std::unordered_map<model::NameId, std::int64_t> row_of_id;  // -1: not modelled
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind != model::ActivityKind::kKernel)
      continue;
    auto [it, inserted] = row_of_id.emplace(a.name, -1);
    if (inserted) {
      auto row = row_of.find(trace.Name(a.name));
      if (row != row_of.end() && matches[row->second].entry >= 0 && !kernels[row->second].roofline)
        it->second = static_cast<std::int64_t>(row->second);
    }
    if (it->second < 0)
      continue;
    auto index = static_cast<std::size_t>(it->second);
    RowWork& row = work[index];
    if (!row.seen) {
      row.seen = true;
      row.device = a.device;
    }
    auto launch = model::EvaluateLaunch(*compiled, matches[index], a);
    if (!launch.ok()) {
      if (row.failed++ == 0)
        row.first_error = launch.error().message;
      continue;
    }
    std::optional<std::map<PrecisionUnit, double>> flops;
    if (launch->flops) {
      const model::CompiledKernelEntry& entry =
          compiled->entries[static_cast<std::size_t>(matches[index].entry)];
      flops = std::map<PrecisionUnit, double>{{{entry.precision, entry.unit}, *launch->flops}};
    }
    row.instances.push_back({a.duration_ns(), flops, launch->bytes});
  }

  std::map<std::int32_t, model::CeilingMatch> ceilings;
  std::map<std::size_t, std::pair<std::size_t, std::int64_t>> by_entry;  // names, instances
  std::vector<std::string> failures, unmatched, with_counters;
  std::size_t names_modelled = 0;
  std::int64_t instances_modelled = 0, instances_failed = 0;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    report::KernelRow& row = kernels[i];
    if (!matches[i].error.empty())
      unmatched.push_back(fmt::format("'{}' ({})", Short(row.name), matches[i].error));
    if (matches[i].entry < 0)
      continue;
    if (row.roofline) {
      with_counters.push_back(fmt::format("'{}'", Short(row.name)));
      continue;
    }
    RowWork& w = work[i];
    if (w.failed > 0) {
      instances_failed += w.failed;
      failures.push_back(fmt::format("'{}' {} of {} ({})",
                                     Short(row.name),
                                     w.failed,
                                     w.failed + static_cast<std::int64_t>(w.instances.size()),
                                     w.first_error));
    }
    if (w.instances.empty())
      continue;
    if (!ceilings.count(w.device))
      ceilings.emplace(w.device, roofs.Of(w.device).match);
    row.roofline = RooflineFromWork(w.instances, ceilings.at(w.device).entry);
    row.roofline->evidence = report::EvidenceTier::kModeled;
    ++names_modelled;
    instances_modelled += static_cast<std::int64_t>(w.instances.size());
    auto& [entry_names, entry_instances] =
        by_entry[compiled->entries[static_cast<std::size_t>(matches[i].entry)].index];
    ++entry_names;
    entry_instances += static_cast<std::int64_t>(w.instances.size());
  }

  std::string note = fmt::format("roofline (user model {}): ", file.path);
  if (names_modelled == 0) {
    note += fmt::format("no kernel name without counters got work from the file's {}.",
                        Plural(file.kernels.size(), "pattern", "patterns"));
  } else {
    std::string entries;
    for (const auto& [index, counts] : by_entry) {
      entries +=
          fmt::format("{}kernels[{}] '{}': {}, {}",
                      entries.empty() ? "" : "; ",
                      index,
                      file.kernels[index].pattern,
                      Plural(counts.first, "name", "names"),
                      Plural(static_cast<std::size_t>(counts.second), "instance", "instances"));
    }
    note += fmt::format(
        "{} without counters ({}) {} FLOPs and bytes from the file's per-launch formulas "
        "(evidence \"modeled\"; docs/metrics.md, \"User model file\"): {}.",
        Plural(names_modelled, "kernel name", "kernel names"),
        Plural(static_cast<std::size_t>(instances_modelled), "instance", "instances"),
        names_modelled == 1 ? "gets" : "get",
        entries);
  }
  if (instances_failed > 0) {
    note += fmt::format(" {} failed to evaluate, left out of the roofline of {}: {}.",
                        Plural(static_cast<std::size_t>(instances_failed), "instance", "instances"),
                        failures.size() == 1 ? "its name" : "their names",
                        ListNames(failures));
  }
  if (!with_counters.empty()) {
    note += fmt::format(" Counters win for {} matching a pattern: {}.",
                        Plural(with_counters.size(), "name", "names"),
                        ListNames(with_counters));
  }
  if (!unmatched.empty()) {
    note += fmt::format(
        " {} not matched: {}.", Plural(unmatched.size(), "name", "names"), ListNames(unmatched));
  }
  if (!ceilings.empty())
    note += fmt::format(" Ceilings: {}.", DescribeCeilings(ceilings));
  notes.push_back(std::move(note));
}

}  // namespace gpuperf::analysis
