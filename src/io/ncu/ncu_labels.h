// `ncu --page details` writes section labels ("Duration", "DRAM Throughput") where `--metrics`
// writes raw metric names. Labels change between versions; gpuperf keys everything on raw names,
// so the labels it uses are mapped back here (docs/formats.md, "Labels by version").
#pragma once

#include <optional>
#include <string_view>

namespace gpuperf::io::ncu {

// The raw metric behind a details label, or nullopt for a label gpuperf does not map (it is kept
// as "label:<section>/<label>"). Some labels depend on their section: "Memory Throughput" is a
// percentage under "GPU Speed Of Light Throughput" and a rate under "Memory Workload Analysis".
std::optional<std::string_view> RawMetricForLabel(std::string_view section, std::string_view label);

}  // namespace gpuperf::io::ncu
