// One forward run several times on the same shapes from one loaded input
// (report::RepeatedForward): the evidence of repeated work that no timing of its kernels shows.
// A per-label loop over one image (Hugging Face's zero-shot pipelines) runs the whole model once
// per label; a training or benchmark loop also repeats shapes, but loads its input each time or
// not at all inside the window.
#include <algorithm>
#include <array>
#include <map>
#include <string_view>

#include "analysis/framework/framework_view.h"

namespace gpuperf::analysis::framework {
namespace {

// Functions that read an input from a file or its encoded bytes, as profiler frames name them:
// "transformers/image_utils.py(508): load_image". The file part is matched as a substring.
struct LoadFunction {
  std::string_view file;
  std::string_view function;
};
constexpr std::array<LoadFunction, 14> kLoadFunctions{{
    {"image_utils.py", "load_image"},
    {"image_utils.py", "load_video"},
    {"video_utils.py", "load_video"},
    {"video_classification.py", "read_video_pyav"},
    {"PIL/Image.py", "open"},
    {"torchvision/io/", "read_image"},
    {"torchvision/io/", "decode_image"},
    {"torchvision/io/", "read_video"},
    {"audio_utils.py", "ffmpeg_read"},
    {"librosa/core/audio.py", "load"},
    {"soundfile.py", "read"},
    {"torchaudio/", "load"},
    {"imageio/", "imread"},
    {"skimage/io/", "imread"},
}};

bool IsInputLoad(std::string_view frame) {
  // Built-ins from C extensions: "<built-in function imread>" (OpenCV).
  if (frame.starts_with("<built-in "))
    return frame.find(" imread") != frame.npos || frame.find(" imdecode") != frame.npos;
  std::size_t colon = frame.rfind("): ");
  if (colon == frame.npos)
    return false;
  std::string_view file = frame.substr(0, colon);
  std::string_view function = frame.substr(colon + 3);
  return std::any_of(kLoadFunctions.begin(), kLoadFunctions.end(), [&](const LoadFunction& f) {
    return function == f.function && file.find(f.file) != file.npos;
  });
}

// The outermost load calls of the trace (a load inside another, on its thread, is part of it),
// and the name of the first.
std::pair<std::int64_t, std::string_view> InputLoads(const model::Trace& trace) {
  std::vector<const model::PythonFrame*> loads;
  for (const model::PythonFrame& f : trace.python_frames) {
    if (IsInputLoad(trace.Name(f.name)))
      loads.push_back(&f);
  }
  std::sort(loads.begin(), loads.end(), [](const auto* a, const auto* b) {
    return a->thread != b->thread ? a->thread < b->thread : a->start_ns < b->start_ns;
  });
  std::int64_t outermost = 0;
  const model::PythonFrame* open = nullptr;
  for (const model::PythonFrame* f : loads) {
    if (open && open->thread == f->thread && f->start_ns < open->end_ns)
      continue;
    open = f;
    ++outermost;
  }
  return {outermost, loads.empty() ? std::string_view() : trace.Name(loads.front()->name)};
}

// An order-free signature of a run's operators: equal multisets of (operator, input shapes) give
// equal signatures. The shapes are interned strings, so equal text has an equal id.
struct Signature {
  std::int64_t operators = 0;
  std::uint64_t sum = 0;
  std::uint64_t sum_of_squares = 0;
  bool operator==(const Signature&) const = default;
};

std::uint64_t Mix(std::uint64_t x) {  // splitmix64's finalizer
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

std::optional<report::RepeatedForward> RepeatedForwardCheck(const FrameworkInput& input) {
  const LaunchTree& tree = input.tree;
  const model::Trace& trace = input.trace;
  if (tree.nvtx_ops || tree.modules.empty())
    return std::nullopt;
  // Each module node's outermost module (a parent comes before its children in the tree).
  std::vector<std::size_t> root(tree.modules.size());
  for (std::size_t i = 0; i < tree.modules.size(); ++i)
    root[i] = tree.modules[i].parent == kNone
                  ? i
                  : root[static_cast<std::size_t>(tree.modules[i].parent)];
  auto class_of = [&](std::size_t node) {
    return ModuleClassName(
        ModuleInstanceName(trace.Name(trace.python_frames[tree.modules[node].frame].name)));
  };
  // The outermost class with the most host time over its instances, run at least twice.
  std::map<std::string_view, std::int64_t> wall;
  std::map<std::string_view, std::int64_t> instances;
  for (std::size_t i = 0; i < tree.modules.size(); ++i) {
    if (root[i] != i)
      continue;
    const model::PythonFrame& f = trace.python_frames[tree.modules[i].frame];
    wall[class_of(i)] += f.end_ns - f.start_ns;
    ++instances[class_of(i)];
  }
  std::string_view module;
  for (const auto& [name, ns] : wall) {
    if (instances[name] >= 2 && (module.empty() || ns > wall[module]))
      module = name;
  }
  if (module.empty())
    return std::nullopt;
  auto [loads, load] = InputLoads(trace);
  if (loads < 1 || loads >= instances[module])
    return std::nullopt;
  std::map<std::size_t, Signature> runs;  // by root node
  for (std::size_t i = 0; i < tree.modules.size(); ++i) {
    if (root[i] == i && class_of(i) == module)
      runs[i];
  }
  for (const OpInstance& op : tree.ops) {
    if (op.module == kNone)
      continue;
    auto run = runs.find(root[static_cast<std::size_t>(op.module)]);
    if (run == runs.end())
      continue;
    const model::HostOp& host = trace.host_ops[op.source];
    std::uint64_t h = Mix((static_cast<std::uint64_t>(host.name) << 32) ^ host.input_dims);
    Signature& s = run->second;
    ++s.operators;
    s.sum += h;
    s.sum_of_squares += h * h;
  }
  const Signature& first = runs.begin()->second;
  if (first.operators == 0 ||
      !std::all_of(runs.begin(), runs.end(), [&](const auto& r) { return r.second == first; }))
    return std::nullopt;
  std::vector<model::TimeNs> ends;
  for (const auto& [node, signature] : runs)
    ends.push_back(trace.python_frames[tree.modules[node].frame].end_ns);
  std::sort(ends.begin(), ends.end());
  report::RepeatedForward out;
  out.module = std::string(module);
  out.runs = static_cast<std::int64_t>(runs.size());
  out.operators = first.operators;
  out.load = std::string(load);
  out.loads = loads;
  out.repeats_start_ns = ends.front();
  out.repeats_ns = ends.back() - ends.front();
  return out;
}

}  // namespace gpuperf::analysis::framework
