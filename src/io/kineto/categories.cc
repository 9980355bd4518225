#include "io/kineto/categories.h"

namespace gpuperf::io::kineto {
namespace {

char Lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size())
    return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (Lower(a[i]) != Lower(b[i]))
      return false;
  }
  return true;
}

struct CategoryEntry {
  std::string_view cat;
  Category category;
};

constexpr CategoryEntry kCategories[] = {
    {"kernel", Category::kKernel},
    {"gpu_memcpy", Category::kMemcpy},
    {"memcpy", Category::kMemcpy},
    {"gpu_memset", Category::kMemset},
    {"memset", Category::kMemset},
    {"cuda_runtime", Category::kRuntime},
    {"runtime", Category::kRuntime},
    {"cuda_driver", Category::kDriver},
    {"cuda_sync", Category::kSync},
    {"user_annotation", Category::kUserAnnotation},
    {"gpu_user_annotation", Category::kGpuUserAnnotation},
    {"cpu_op", Category::kCpuOp},
    {"operator", Category::kCpuOp},
    {"python_function", Category::kPythonFunction},
    {"ac2g", Category::kFlow},
    {"fwdbwd", Category::kFlow},
    {"async", Category::kFlow},
    {"async_gpu", Category::kFlow},
    {"async_cpu_to_gpu", Category::kFlow},
    {"overhead", Category::kOverhead},
    {"trace", Category::kTraceSpan},
    {"cpu_instant_event", Category::kCpuInstant},
    {"cuda_profiler_range", Category::kProfilerRange},
};

model::MemoryKind ParseMemoryKind(std::string_view text) {
  using model::MemoryKind;
  static constexpr std::pair<std::string_view, MemoryKind> kKinds[] = {
      {"Pageable", MemoryKind::kPageable},
      {"Pinned", MemoryKind::kPinned},
      {"Device", MemoryKind::kDevice},
      {"Array", MemoryKind::kArray},
      {"Managed", MemoryKind::kManaged},
      {"Device Static", MemoryKind::kDeviceStatic},
      {"Managed Static", MemoryKind::kManagedStatic},
  };
  for (const auto& [word, kind] : kKinds) {
    if (EqualsIgnoreCase(text, word))
      return kind;
  }
  return MemoryKind::kUnknown;
}

// The text between the first '(' and the following ')', e.g. "Pageable -> Device".
std::string_view Parenthesised(std::string_view name) {
  auto open = name.find('(');
  if (open == std::string_view::npos)
    return {};
  auto close = name.find(')', open);
  if (close == std::string_view::npos)
    return {};
  return name.substr(open + 1, close - open - 1);
}

}  // namespace

Category ClassifyCategory(std::string_view cat) {
  for (const auto& entry : kCategories) {
    if (EqualsIgnoreCase(cat, entry.cat))
      return entry.category;
  }
  return Category::kOther;
}

std::string_view CategoryName(Category category) {
  switch (category) {
    case Category::kPythonFunction:
      return "python_function";
    case Category::kFlow:
      return "flow";
    case Category::kOverhead:
      return "overhead";
    case Category::kTraceSpan:
      return "trace_span";
    case Category::kCpuInstant:
      return "cpu_instant_event";
    case Category::kOther:
      return "other_category";
    default:
      return "kept";
  }
}

CopyKinds ParseMemcpyName(std::string_view name) {
  using model::CopyKind;
  static constexpr std::pair<std::string_view, CopyKind> kCopies[] = {
      {"HtoD", CopyKind::kHtoD},
      {"DtoH", CopyKind::kDtoH},
      {"HtoA", CopyKind::kHtoA},
      {"AtoH", CopyKind::kAtoH},
      {"AtoA", CopyKind::kAtoA},
      {"AtoD", CopyKind::kAtoD},
      {"DtoA", CopyKind::kDtoA},
      {"DtoD", CopyKind::kDtoD},
      {"HtoH", CopyKind::kHtoH},
      {"PtoP", CopyKind::kPtoP},
  };
  CopyKinds kinds;
  constexpr std::string_view kPrefix = "Memcpy ";
  if (name.substr(0, kPrefix.size()) == kPrefix) {
    std::string_view word = name.substr(kPrefix.size());
    word = word.substr(0, word.find(' '));
    for (const auto& [text, kind] : kCopies) {
      if (EqualsIgnoreCase(word, text))
        kinds.copy = kind;
    }
  }
  std::string_view memories = Parenthesised(name);
  constexpr std::string_view kArrow = " -> ";
  auto arrow = memories.find(kArrow);
  if (arrow != std::string_view::npos) {
    kinds.src = ParseMemoryKind(memories.substr(0, arrow));
    kinds.dst = ParseMemoryKind(memories.substr(arrow + kArrow.size()));
  }
  return kinds;
}

model::MemoryKind ParseMemsetName(std::string_view name) {
  return ParseMemoryKind(Parenthesised(name));
}

model::SyncKind ParseSyncKind(std::string_view text) {
  using model::SyncKind;
  if (EqualsIgnoreCase(text, "Event Sync"))
    return SyncKind::kEvent;
  if (EqualsIgnoreCase(text, "Stream Wait Event"))
    return SyncKind::kStreamWaitEvent;
  if (EqualsIgnoreCase(text, "Context Sync"))
    return SyncKind::kContext;
  if (EqualsIgnoreCase(text, "Stream Sync"))
    return SyncKind::kStream;
  return SyncKind::kUnknown;
}

}  // namespace gpuperf::io::kineto
