#include "cli/ceilings_table.h"

#include <fmt/format.h>

#include <optional>

#include "model/ceilings.h"

namespace gpuperf::cli {
namespace {

// "13.0" from 13000.
std::string CudaVersion(std::int32_t version) {
  return fmt::format("{}.{}", version / 1000, version % 1000 / 10);
}

// "4.21 TB/s", "989 TFLOP/s" (three significant digits, tera units).
std::string Rate(double per_s, const char* unit) {
  return fmt::format("{:.3g} T{}", per_s / 1e12, unit);
}

}  // namespace

std::string CeilingsTable(const model::MeasuredCeilings& m) {
  using model::MathUnit;
  using model::Precision;
  std::string out = fmt::format("{}  {}  cc {}.{}  {} SMs\n",
                                m.device_name,
                                m.uuid,
                                m.compute_major,
                                m.compute_minor,
                                m.sm_count);
  out += fmt::format("measured {} by gpuperf {}, CUDA runtime {}, driver {}\n",
                     m.date.empty() ? "(now)" : m.date,
                     m.gpuperf_version.empty() ? "?" : m.gpuperf_version,
                     CudaVersion(m.cuda_runtime_version),
                     CudaVersion(m.cuda_driver_version));
  const model::CeilingMatch datasheet =
      model::FindCeilings(m.device_name, m.compute_major, m.compute_minor);
  const std::string datasheet_head =
      datasheet.entry ? "datasheet " + std::string(datasheet.entry->key) : "datasheet";
  out += fmt::format("  {:<16} {:<15} {:<10} {:<22} {}\n",
                     "ceiling",
                     "measured",
                     "SM clock",
                     datasheet_head,
                     "measured/datasheet");
  struct Row {
    const char* name;
    const model::MeasuredFigure* figure;
    const char* unit;
    std::optional<double> sheet;
  };
  const model::DeviceCeilings* e = datasheet.entry;
  const Row rows[] = {
      {"DRAM bandwidth", &m.dram, "B/s", e ? e->dram_bytes_per_s : std::nullopt},
      {"FP32 vector",
       &m.fp32_vector,
       "FLOP/s",
       e ? e->Peak(Precision::kFp32, MathUnit::kVector) : std::nullopt},
      {"BF16 tensor",
       &m.bf16_tensor,
       "FLOP/s",
       e ? e->Peak(Precision::kBf16, MathUnit::kTensor) : std::nullopt},
      {"FP16 tensor",
       &m.fp16_tensor,
       "FLOP/s",
       e ? e->Peak(Precision::kFp16, MathUnit::kTensor) : std::nullopt},
  };
  for (const Row& row : rows) {
    const std::string clock =
        row.figure->sm_clock_hz ? fmt::format("{:.3g} GHz", *row.figure->sm_clock_hz / 1e9) : "-";
    const std::string sheet = row.sheet ? Rate(*row.sheet, row.unit) : "-";
    const std::string ratio = row.sheet && *row.sheet > 0
                                  ? fmt::format("{:.1f}%", 100 * row.figure->per_s / *row.sheet)
                                  : "-";
    out += fmt::format("  {:<16} {:<15} {:<10} {:<22} {}\n",
                       row.name,
                       Rate(row.figure->per_s, row.unit),
                       clock,
                       sheet,
                       ratio);
  }
  if (!datasheet.entry)
    out += "  no datasheet entry: " + datasheet.reason + "\n";
  if (!m.path.empty())
    out += "file: " + m.path + "\n";
  return out;
}

}  // namespace gpuperf::cli
