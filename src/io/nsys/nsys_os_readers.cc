// What host threads did outside CUDA: OS runtime calls (OSRT_API) and CPU samples
// (COMPOSITE_EVENTS, each named by the innermost frame of its SAMPLING_CALLCHAINS chain). The
// analysis names them where the GPU idled and no CUDA call explains the host's time.
#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "io/nsys/nsys_readers.h"

namespace gpuperf::io::nsys {
namespace {

std::string_view FileName(std::string_view path) {
  std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// nsys writes an unresolved frame's address as its symbol ("0x7f72b474d6c9").
bool LooksUnresolved(const std::string* symbol) {
  return symbol == nullptr || symbol->empty() || symbol->starts_with("0x");
}

// Innermost frame (stackDepth 0) of every sampled call chain: the sample's id and its name.
// Names are interned once per symbol (or per module, for unresolved frames).
std::vector<std::pair<std::int64_t, model::NameId>> ReadLeafFrames(ReadContext& context,
                                                                   Status& status) {
  enum Column { kId, kSymbol, kModule, kUnresolved, kDepth };
  static constexpr std::array<ColumnSpec, 5> kColumns = {{
      {"id", true},
      {"symbol", true},
      {"module", true},
      {"unresolved"},
      {"stackDepth", true},
  }};
  model::Trace& trace = context.trace;
  std::vector<std::pair<std::int64_t, model::NameId>> leaves;
  std::unordered_map<std::int64_t, model::NameId> by_symbol;
  std::unordered_map<std::int64_t, model::NameId> by_module;
  status = ForEachRow(
      context,
      kSampleCallchainTable,
      kColumns,
      [&](const Statement& row) {
        auto id = row.Int(kId);
        if (!id || row.IntOr(kDepth, -1) != 0)
          return;
        std::int64_t symbol_id = row.IntOr(kSymbol, -1);
        const std::string* symbol = context.strings.Find(symbol_id);
        model::NameId name = 0;
        if (row.IntOr(kUnresolved, 0) == 0 && !LooksUnresolved(symbol)) {
          auto [it, added] = by_symbol.try_emplace(symbol_id, 0);
          if (added)
            it->second = context.strings.Resolve(symbol_id, trace);
          name = it->second;
        } else {
          std::int64_t module_id = row.IntOr(kModule, -1);
          auto [it, added] = by_module.try_emplace(module_id, 0);
          if (added) {
            const std::string* module = context.strings.Find(module_id);
            std::string_view file = module ? FileName(*module) : std::string_view("unknown module");
            // nsys writes pseudo-modules bracketed already: "[vdso]", "[kernel.kallsyms]".
            it->second = trace.strings.Intern(file.starts_with('[') && file.ends_with(']')
                                                  ? std::string(file)
                                                  : "[" + std::string(file) + "]");
          }
          name = it->second;
        }
        leaves.emplace_back(*id, name);
      },
      "\"stackDepth\" = 0");
  std::sort(leaves.begin(), leaves.end());
  return leaves;
}

}  // namespace

Status ReadOsCalls(ReadContext& context) {
  enum Column { kStart, kEnd, kGlobalTid, kNameId };
  static constexpr std::array<ColumnSpec, 4> kColumns = {{
      {"start", true},
      {"end", true},
      {"globalTid"},
      {"nameId", true},
  }};
  model::Trace& trace = context.trace;
  return ForEachRow(context, kOsRuntimeTable, kColumns, [&](const Statement& row) {
    model::OsCall call;
    if (!ReadSpan(
            row, kStart, kEnd, kOsCallSpan, trace.diagnostics, &call.start_ns, &call.end_ns)) {
      return;
    }
    call.name = context.strings.Resolve(row.IntOr(kNameId, -1), trace);
    if (auto global_tid = row.Int(kGlobalTid)) {
      call.pid = DecodePid(*global_tid);
      call.tid = DecodeTid(*global_tid);
    }
    trace.os_calls.push_back(call);
  });
}

Status ReadCpuSamples(ReadContext& context) {
  if (!context.schema.HasTable(kSampleTable))
    return Status::Ok();
  Status status = Status::Ok();
  std::vector<std::pair<std::int64_t, model::NameId>> leaves = ReadLeafFrames(context, status);
  if (!status.ok())
    return status;
  enum Column { kId, kStart, kGlobalTid };
  static constexpr std::array<ColumnSpec, 3> kColumns = {{
      {"id", true},
      {"start", true},
      {"globalTid"},
  }};
  model::Trace& trace = context.trace;
  std::optional<model::NameId> no_chain;
  return ForEachRow(context, kSampleTable, kColumns, [&](const Statement& row) {
    auto start = row.Int(kStart);
    if (!start || *start < 0 || *start > (model::TimeNs{1} << 62)) {
      trace.diagnostics.Count(model::Diagnostic::kNsysCpuSampleNullTime);
      return;
    }
    model::CpuSample sample;
    sample.time_ns = *start;
    auto leaf = std::lower_bound(
        leaves.begin(), leaves.end(), std::pair{row.IntOr(kId, -1), model::NameId{0}});
    if (leaf != leaves.end() && leaf->first == row.IntOr(kId, -1)) {
      sample.function = leaf->second;
    } else {
      if (!no_chain)
        no_chain = trace.strings.Intern("[no call chain]");
      sample.function = *no_chain;
      trace.diagnostics.Count(model::Diagnostic::kNsysCpuSampleNoCallchain);
    }
    if (auto global_tid = row.Int(kGlobalTid)) {
      sample.pid = DecodePid(*global_tid);
      sample.tid = DecodeTid(*global_tid);
    }
    trace.cpu_samples.push_back(sample);
  });
}

}  // namespace gpuperf::io::nsys
