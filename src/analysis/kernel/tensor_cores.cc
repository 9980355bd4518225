// The SASS tier of tensor_cores.h and the attach step over all three tiers.
#include "analysis/kernel/tensor_cores.h"

#include <fmt/format.h>

#include <set>
#include <vector>

#include "analysis/kernel/sass_match.h"

namespace gpuperf::analysis {
namespace {

// What the SASS says about one kernel name.
struct SassVerdict {
  enum class State { kUnmatched, kAmbiguous, kDecided } state = State::kUnmatched;
  report::TensorCoreEvidence evidence;
};

// "sm_90a" -> "90"; compared so that the sm_90a SASS counts for a cc 9.0 device.
std::string ArchNumber(std::string_view arch) {
  std::string digits;
  for (char c : arch.substr(arch.substr(0, 3) == "sm_" ? 3 : 0)) {
    if (c < '0' || c > '9')
      break;
    digits += c;
  }
  return digits;
}

std::int64_t MatrixCount(const model::SassFunction& f) {
  std::int64_t count = 0;
  for (const auto& [opcode, n] : f.matrix_ops)
    count += n;
  return count;
}

std::string SassDetail(const model::SassFunction& f, SassMatchTier tier, std::size_t functions) {
  std::string where = fmt::format("the {}SASS of {} (matched by {})",
                                  f.arch.empty() ? "" : f.arch + " ",
                                  f.file,
                                  ToString(tier));
  std::string text;
  if (f.matrix_ops.empty()) {
    text =
        fmt::format("no matrix instruction among the {} instructions in {}", f.instructions, where);
  } else {
    std::string counts;
    for (const auto& [opcode, n] : f.matrix_ops)
      counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", n, opcode);
    text = fmt::format("{} in {}", counts, where);
  }
  if (functions > 1)
    text += fmt::format("; {} functions match this name and agree", functions);
  return text;
}

SassVerdict FromSass(const SassIndex& index, std::string_view name, std::string_view device_arch) {
  SassMatch match = index.Find(name);
  SassVerdict verdict;
  if (match.functions.empty())
    return verdict;
  std::vector<const model::SassFunction*> candidates;
  std::string wanted = ArchNumber(device_arch);
  for (const model::SassFunction* f : match.functions) {
    if (!wanted.empty() && ArchNumber(f->arch) == wanted)
      candidates.push_back(f);
  }
  if (candidates.empty())  // no SASS for the device's arch (or the device is unknown): all
    candidates = match.functions;
  const model::SassFunction* chosen = candidates.front();
  std::set<std::string> distinct;
  bool any_used = false, all_used = true;
  for (const model::SassFunction* f : candidates) {
    bool used = !f->matrix_ops.empty();
    any_used = any_used || used;
    all_used = all_used && used;
    distinct.insert(f->mangled_name);
    if (MatrixCount(*f) > MatrixCount(*chosen))
      chosen = f;
  }
  if (any_used != all_used) {  // e.g. two template instances, one with MMA and one without
    verdict.state = SassVerdict::State::kAmbiguous;
    return verdict;
  }
  verdict.state = SassVerdict::State::kDecided;
  verdict.evidence = {any_used,
                      report::EvidenceTier::kMeasured,
                      "sass",
                      {chosen->matrix_ops.begin(), chosen->matrix_ops.end()},
                      SassDetail(*chosen, match.tier, distinct.size())};
  return verdict;
}

// The device of a kernel name's first instance, as "sm_90" and "9.0" ("" when unknown).
struct KernelDevice {
  std::string arch;
  std::string compute_capability;
};

std::map<std::string, KernelDevice, std::less<>> DevicesByName(const model::Trace& trace) {
  std::map<std::string, KernelDevice, std::less<>> devices;
  // Each interned name once: the first launch of a name decides, and a string per launch is
  // most of this pass's cost on a long trace.
  std::vector<bool> seen(trace.strings.size());
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind != model::ActivityKind::kKernel)
      continue;
    if (a.name < seen.size()) {
      if (seen[a.name])
        continue;
      seen[a.name] = true;
    }
    auto [it, inserted] = devices.try_emplace(std::string(trace.Name(a.name)));
    const model::Device* d = inserted ? trace.FindDevice(a.device) : nullptr;
    if (d != nullptr && d->compute_major > 0) {
      it->second.arch = fmt::format("sm_{}{}", d->compute_major, d->compute_minor);
      it->second.compute_capability = fmt::format("{}.{}", d->compute_major, d->compute_minor);
    }
  }
  return devices;
}

// The metrics of each kernel name's launches with counters (the last counters of a launch win).
std::map<std::string, std::vector<const std::map<std::string, double>*>, std::less<>>
CountersByName(const model::Trace& trace) {
  std::map<std::size_t, const model::KernelCounters*> by_activity;
  for (const model::KernelCounters& c : trace.counters) {
    if (c.activity < trace.activities.size() &&
        trace.activities[c.activity].kind == model::ActivityKind::kKernel)
      by_activity[c.activity] = &c;
  }
  std::map<std::string, std::vector<const std::map<std::string, double>*>, std::less<>> by_name;
  for (const auto& [index, counters] : by_activity)
    by_name[std::string(trace.Name(trace.activities[index].name))].push_back(&counters->metrics);
  return by_name;
}

// A name for a note: long template names are cut to their first 80 bytes (at a UTF-8 boundary).
std::string Abbreviated(const std::string& name) {
  constexpr std::size_t kMax = 80;
  if (name.size() <= kMax)
    return name;
  std::size_t cut = kMax;
  while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80)
    --cut;
  return name.substr(0, cut) + "...";
}

struct Tally {
  std::int64_t counters = 0, sass = 0, name = 0;  // kernels decided by each tier
  std::int64_t sass_matched = 0, sass_ambiguous = 0, sass_unmatched = 0;
  std::int64_t counters_inconclusive = 0;
  std::string first_unmatched;
};

void AddNotes(const std::vector<model::SassFunction>& sass,
              const Tally& t,
              std::vector<std::string>& notes) {
  if (!sass.empty()) {
    std::set<std::string> files;
    for (const model::SassFunction& f : sass)
      files.insert(f.file);
    std::string unmatched =
        t.sass_unmatched == 0
            ? ""
            : fmt::format(", {} not (for example \"{}\")", t.sass_unmatched, t.first_unmatched);
    std::string ambiguous = t.sass_ambiguous == 0
                                ? ""
                                : fmt::format(
                                      ", {} ambiguous (functions of that name disagree; "
                                      "not used)",
                                      t.sass_ambiguous);
    notes.push_back(fmt::format(
        "tensor cores: the SASS of {} file{} ({} functions) matched {} kernel name{}{}{}.",
        files.size(),
        files.size() == 1 ? "" : "s",
        sass.size(),
        t.sass_matched,
        t.sass_matched == 1 ? "" : "s",
        ambiguous,
        unmatched));
  }
  if (t.counters_inconclusive > 0) {
    notes.push_back(fmt::format(
        "tensor cores: the aggregate tensor-pipe counters of {} kernel name{} were not used: on "
        "GA100 (cc 8.0) or an unknown device that pipe also runs FP16 and FP64 vector "
        "instructions, and these kernels' FP16/FP64 counters are not known to be 0.",
        t.counters_inconclusive,
        t.counters_inconclusive == 1 ? "" : "s"));
  }
  if (t.counters + t.sass + t.name > 0) {
    notes.push_back(fmt::format(
        "tensor cores: {} kernel names measured by counters, {} by SASS, {} inferred from the "
        "name (docs/metrics.md, \"Tensor cores\").",
        t.counters,
        t.sass,
        t.name));
  }
}

}  // namespace

void AttachTensorCores(const model::Trace& trace,
                       const std::vector<model::SassFunction>& sass,
                       std::vector<report::KernelRow>& kernels,
                       std::vector<std::string>& notes) {
  const auto devices = DevicesByName(trace);
  const auto counters = CountersByName(trace);
  const SassIndex index(sass);
  Tally tally;
  for (report::KernelRow& row : kernels) {
    KernelDevice device;
    if (auto it = devices.find(row.name); it != devices.end())
      device = it->second;
    CounterVerdict measured;
    if (auto it = counters.find(row.name); it != counters.end())
      measured = TensorCoresFromCounters(it->second, device.compute_capability);
    tally.counters_inconclusive += measured.inconclusive ? 1 : 0;
    SassVerdict from_sass;
    if (!sass.empty()) {
      from_sass = FromSass(index, row.name, device.arch);
      tally.sass_matched += from_sass.state != SassVerdict::State::kUnmatched ? 1 : 0;
      tally.sass_ambiguous += from_sass.state == SassVerdict::State::kAmbiguous ? 1 : 0;
      if (from_sass.state == SassVerdict::State::kUnmatched && tally.sass_unmatched++ == 0)
        tally.first_unmatched = Abbreviated(row.name);
    }
    if (measured.evidence) {
      row.tensor_cores = std::move(measured.evidence);
      ++tally.counters;
    } else if (from_sass.state == SassVerdict::State::kDecided) {
      row.tensor_cores = std::move(from_sass.evidence);
      ++tally.sass;
    } else if (auto inferred = TensorCoresFromName(row.name)) {
      row.tensor_cores = std::move(inferred);
      ++tally.name;
    }
  }
  AddNotes(sass, tally, notes);
}

}  // namespace gpuperf::analysis
