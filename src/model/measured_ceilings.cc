#include "model/measured_ceilings.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace gpuperf::model {
namespace {

constexpr double kClockAgreement = 0.02;

// The strings a measured DeviceCeilings views, kept beside it.
struct MeasuredHolder {
  std::string key;
  std::string source;
  DeviceCeilings entry;
};

bool SameName(std::string_view a, std::string_view b) {
  return a == b && !a.empty();
}

}  // namespace

std::string FormatGpuUuid(const std::uint8_t (&bytes)[16]) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10)
      text += '-';
    text += kHex[bytes[i] >> 4];
    text += kHex[bytes[i] & 0xf];
  }
  return text;
}

std::string NormalizeGpuUuid(std::string_view text) {
  if (text.size() > 4 && (text.substr(0, 4) == "GPU-" || text.substr(0, 4) == "gpu-"))
    text.remove_prefix(4);
  // 8-4-4-4-12 hex digits.
  static constexpr std::size_t kDashes[] = {8, 13, 18, 23};
  if (text.size() != 36)
    return "";
  std::string out = "GPU-";
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool dash_here =
        std::find(std::begin(kDashes), std::end(kDashes), i) != std::end(kDashes);
    if (dash_here != (c == '-'))
      return "";
    if (!dash_here && !std::isxdigit(static_cast<unsigned char>(c)))
      return "";
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

MeasuredMatch FindMeasuredCeilings(const Device& device,
                                   std::span<const MeasuredCeilings> entries) {
  const std::string uuid = NormalizeGpuUuid(device.uuid);
  if (!uuid.empty()) {
    for (const MeasuredCeilings& entry : entries) {
      if (NormalizeGpuUuid(entry.uuid) == uuid)
        return {&entry, "uuid " + uuid};
    }
    return {};
  }
  const MeasuredCeilings* best = nullptr;
  std::size_t fitting = 0;
  for (const MeasuredCeilings& entry : entries) {
    if (!SameName(entry.device_name, device.name) || entry.compute_major != device.compute_major ||
        entry.compute_minor != device.compute_minor)
      continue;
    ++fitting;
    if (best == nullptr || entry.date > best->date)  // ISO 8601 UTC sorts as text
      best = &entry;
  }
  if (best == nullptr)
    return {};
  std::string how = "name and compute capability (" + device.name + " " +
                    std::to_string(device.compute_major) + "." +
                    std::to_string(device.compute_minor) + "; the trace records no GPU UUID)";
  if (fitting > 1)
    how += "; the latest of " + std::to_string(fitting) + " fitting entries";
  return {best, how};
}

std::size_t AttachMeasuredCeilings(Trace& trace, std::span<const MeasuredCeilings> entries) {
  std::size_t attached = 0;
  for (Device& device : trace.devices) {
    MeasuredMatch match = FindMeasuredCeilings(device, entries);
    if (match.entry == nullptr)
      continue;
    device.measured_ceilings = *match.entry;
    device.measured_ceilings->matched_by = match.matched_by;
    ++attached;
  }
  return attached;
}

std::optional<double> CommonSmClockHz(const MeasuredCeilings& measured) {
  const MeasuredFigure* figures[] = {
      &measured.fp32_vector, &measured.bf16_tensor, &measured.fp16_tensor};
  double low = 0, high = 0, sum = 0;
  for (const MeasuredFigure* figure : figures) {
    if (!figure->sm_clock_hz || !(*figure->sm_clock_hz > 0))
      return std::nullopt;
    const double clock = *figure->sm_clock_hz;
    low = low == 0 ? clock : std::min(low, clock);
    high = std::max(high, clock);
    sum += clock;
  }
  if (high / low - 1 > kClockAgreement)
    return std::nullopt;
  return sum / 3;
}

std::shared_ptr<const DeviceCeilings> AsDeviceCeilings(const MeasuredCeilings& measured) {
  auto holder = std::make_shared<MeasuredHolder>();
  holder->key = measured.device_name;
  holder->source = "gpuperf ceilings " + measured.date + " on " + measured.uuid;
  DeviceCeilings& e = holder->entry;
  e.key = holder->key;
  e.vendor = "NVIDIA";
  e.compute_major = measured.compute_major;
  e.compute_minor = measured.compute_minor;
  auto rate = [](const MeasuredFigure& f) -> std::optional<double> {
    return std::isfinite(f.per_s) && f.per_s > 0 ? std::optional<double>(f.per_s) : std::nullopt;
  };
  e.dram_bytes_per_s = rate(measured.dram);
  if (measured.l2_bytes > 0)
    e.l2_bytes = measured.l2_bytes;
  if (measured.sm_count > 0)
    e.sm_count = measured.sm_count;
  e.boost_clock_hz = CommonSmClockHz(measured);
  e.fp32.vector = rate(measured.fp32_vector);
  e.bf16.tensor = rate(measured.bf16_tensor);
  e.fp16.tensor = rate(measured.fp16_tensor);
  e.source = holder->source;
  e.evidence = report::CeilingsEvidence::kMeasured;
  return {holder, &holder->entry};
}

}  // namespace gpuperf::model
