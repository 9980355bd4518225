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
// and the first of them.
std::pair<std::int64_t, const model::PythonFrame*> InputLoads(const model::Trace& trace) {
  std::vector<const model::PythonFrame*> loads;
  // Frames repeat their names: each name is parsed once (0 unknown, 1 a load, 2 not).
  std::vector<std::uint8_t> is_load(trace.strings.size(), 0);
  for (const model::PythonFrame& f : trace.python_frames) {
    if (f.name >= is_load.size())
      continue;
    std::uint8_t& known = is_load[f.name];
    if (known == 0)
      known = IsInputLoad(trace.Name(f.name)) ? 1 : 2;
    if (known == 1)
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
  return {outermost, loads.empty() ? nullptr : loads.front()};
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

// The innermost Python frame, not a module frame, around the load and all the runs on their
// thread: the one call that loaded the input and ran the model on it. A callable object's
// `__call__` (a pipeline's) names it better than the iterator steps inside it, so the innermost
// `__call__` wins ("transformers/pipelines/zero_shot_object_detection.py(65): __call__"); ""
// when none.
std::string_view EnclosingCall(const model::Trace& trace,
                               const model::PythonFrame& load,
                               std::vector<const model::PythonFrame*> runs) {
  runs.push_back(&load);
  model::TimeNs first = runs.front()->start_ns, last = runs.front()->end_ns;
  for (const model::PythonFrame* r : runs) {
    if (r->thread != runs.front()->thread)
      return "";
    first = std::min(first, r->start_ns);
    last = std::max(last, r->end_ns);
  }
  const model::PythonFrame* innermost = nullptr;
  const model::PythonFrame* call = nullptr;
  for (const model::PythonFrame& f : trace.python_frames) {
    if (f.thread != runs.front()->thread || f.start_ns > first || f.end_ns < last ||
        !ModuleInstanceName(trace.Name(f.name)).empty())
      continue;
    if (!innermost || f.start_ns > innermost->start_ns)
      innermost = &f;
    if (trace.Name(f.name).ends_with("): __call__") && (!call || f.start_ns > call->start_ns))
      call = &f;
  }
  const model::PythonFrame* best = call ? call : innermost;
  return best ? trace.Name(best->name) : std::string_view();
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
  // Each module node's class, parsed once per node.
  std::vector<std::string_view> classes(tree.modules.size());
  for (std::size_t i = 0; i < tree.modules.size(); ++i)
    classes[i] = ModuleClassName(
        ModuleInstanceName(trace.Name(trace.python_frames[tree.modules[i].frame].name)));
  // The outermost class with the most host time over its instances, run at least twice.
  std::map<std::string_view, std::int64_t> wall;
  std::map<std::string_view, std::int64_t> instances;
  for (std::size_t i = 0; i < tree.modules.size(); ++i) {
    if (root[i] != i)
      continue;
    const model::PythonFrame& f = trace.python_frames[tree.modules[i].frame];
    wall[classes[i]] += f.end_ns - f.start_ns;
    ++instances[classes[i]];
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
  // The runs (the outermost instances of `module`), and per class the instances in each run: a
  // class with one instance in every run (the run's own class among them) can repeat whole.
  std::map<std::size_t, std::size_t> run_of;  // root node -> run index
  for (std::size_t i = 0; i < tree.modules.size(); ++i) {
    if (root[i] == i && classes[i] == module)
      run_of.emplace(i, run_of.size());
  }
  const std::size_t runs = run_of.size();
  std::map<std::string_view, std::vector<int>> per_run;
  for (std::size_t i = 0; i < tree.modules.size(); ++i) {
    if (auto run = run_of.find(root[i]); run != run_of.end()) {
      std::vector<int>& counts = per_run[classes[i]];
      counts.resize(runs);
      ++counts[run->second];
    }
  }
  std::map<std::string_view, std::vector<Signature>> signatures;  // per candidate class, per run
  std::map<std::string_view, std::int64_t> candidate_wall;
  for (const auto& [name, counts] : per_run) {
    if (std::all_of(counts.begin(), counts.end(), [](int n) { return n == 1; }))
      signatures[name].resize(runs);
  }
  // Per module node, its class's signatures when the class is a candidate (no map lookup in the
  // loop over operators), and each candidate's host time.
  std::vector<std::vector<Signature>*> candidate_of(tree.modules.size(), nullptr);
  for (std::size_t i = 0; i < tree.modules.size(); ++i) {
    if (!run_of.contains(root[i]))
      continue;
    if (auto it = signatures.find(classes[i]); it != signatures.end()) {
      candidate_of[i] = &it->second;
      const model::PythonFrame& f = trace.python_frames[tree.modules[i].frame];
      candidate_wall[classes[i]] += f.end_ns - f.start_ns;
    }
  }
  // Each operator counts in every candidate instance around it.
  for (const OpInstance& op : tree.ops) {
    if (op.module == kNone)
      continue;
    auto run = run_of.find(root[static_cast<std::size_t>(op.module)]);
    if (run == run_of.end())
      continue;
    const model::HostOp& host = trace.host_ops[op.source];
    std::uint64_t h = Mix((static_cast<std::uint64_t>(host.name) << 32) ^ host.input_dims);
    for (std::int32_t node = op.module; node != kNone;
         node = tree.modules[static_cast<std::size_t>(node)].parent) {
      std::vector<Signature>* per_run_signatures = candidate_of[static_cast<std::size_t>(node)];
      if (!per_run_signatures)
        continue;
      Signature& s = (*per_run_signatures)[run->second];
      ++s.operators;
      s.sum += h;
      s.sum_of_squares += h * h;
    }
  }
  // The class that repeats whole with the most host time: the run's own class when the runs
  // are equal throughout, else a part of it (a vision tower beside text of other lengths).
  std::string_view repeated;
  for (const auto& [name, per] : signatures) {
    bool equal =
        per.front().operators > 0 &&
        std::all_of(per.begin(), per.end(), [&](const Signature& s) { return s == per.front(); });
    if (equal && (repeated.empty() || candidate_wall[name] > candidate_wall[repeated]))
      repeated = name;
  }
  if (repeated.empty())
    return std::nullopt;
  std::vector<const model::PythonFrame*> frames;
  for (const auto& [node, index] : run_of)
    frames.push_back(&trace.python_frames[tree.modules[node].frame]);
  std::sort(frames.begin(), frames.end(), [](const auto* a, const auto* b) {
    return a->end_ns < b->end_ns;
  });
  report::RepeatedForward out;
  out.module = std::string(repeated);
  out.within = repeated == module ? "" : std::string(module);
  out.call = std::string(EnclosingCall(trace, *load, frames));
  out.runs = static_cast<std::int64_t>(runs);
  out.operators = signatures[repeated].front().operators;
  out.load = std::string(trace.Name(load->name));
  out.loads = loads;
  out.repeats_start_ns = frames.front()->end_ns;
  out.repeats_ns = frames.back()->end_ns - frames.front()->end_ns;
  return out;
}

}  // namespace gpuperf::analysis::framework
