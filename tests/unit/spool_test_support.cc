#include "spool_test_support.h"

namespace gpuperf::testing {

io::SpoolContents EverythingSpool() {
  SpoolBuilder b;
  spool::Event& launch = b.Add(spool::EventKind::kRuntimeApi, 1000, 3000);
  launch.name = b.String("cudaLaunchKernel_v7000");
  launch.correlation = 11;
  launch.code = 211;
  spool::Event& kernel = b.Gpu(spool::EventKind::kKernel, 5000, 25000, 11);
  kernel.name = b.String("_Z6streamPfPKfS1_");
  kernel.grid[0] = 256, kernel.grid[1] = 2, kernel.grid[2] = 1;
  kernel.block[0] = 128, kernel.block[1] = 1, kernel.block[2] = 1;
  kernel.registers = 32;
  kernel.shared_bytes = 1536;
  spool::Event& driver_launch = b.Add(spool::EventKind::kDriverApi, 26000, 27000);
  driver_launch.name = b.String("cuLaunchKernel");
  driver_launch.correlation = 21;
  driver_launch.code = 307;
  spool::Event& driver_kernel = b.Gpu(spool::EventKind::kKernel, 28000, 29500, 21);
  driver_kernel.name = b.String("plain_c_kernel");
  driver_kernel.stream = 8;
  driver_kernel.grid[0] = driver_kernel.grid[1] = driver_kernel.grid[2] = 1;
  driver_kernel.block[0] = 32, driver_kernel.block[1] = driver_kernel.block[2] = 1;
  spool::Event& copy_call = b.Add(spool::EventKind::kRuntimeApi, 30000, 40000);
  copy_call.name = b.String("cudaMemcpy_v3020");
  copy_call.correlation = 12;
  copy_call.code = 31;
  spool::Event& copy = b.Gpu(spool::EventKind::kMemcpy, 32000, 36000, 99);
  copy.correlation2 = 12;              // the runtime call's id, which the copy joins
  copy.a = 1, copy.b = 1, copy.c = 3;  // HtoD, pageable -> device
  copy.bytes = 4096;
  spool::Event& set_call = b.Add(spool::EventKind::kRuntimeApi, 36500, 36900);
  set_call.name = b.String("cudaMemsetAsync_v3020");
  set_call.correlation = 13;
  set_call.code = 51;
  spool::Event& set = b.Gpu(spool::EventKind::kMemset, 37000, 37500, 13);
  set.b = 3;  // device memory
  set.bytes = 256;
  spool::Event& host_set_call = b.Add(spool::EventKind::kRuntimeApi, 38000, 38200);
  host_set_call.name = b.String("cudaMemsetAsync_v3020");
  host_set_call.correlation = 15;
  host_set_call.code = 51;
  spool::Event& host_set = b.Gpu(spool::EventKind::kMemset, 38500, 38700, 15);
  host_set.b = 2;  // pinned host memory
  host_set.bytes = 64;
  spool::Event& graph_call = b.Add(spool::EventKind::kRuntimeApi, 39000, 39100);
  graph_call.name = b.String("cudaGraphLaunch_v10000");
  graph_call.correlation = 16;
  graph_call.code = 311;
  spool::Event& node = b.Gpu(spool::EventKind::kKernel, 39500, 40500, 16);
  node.name = b.String("graph_node_kernel");
  node.graph_id = 3;
  node.correlation2 = 77;  // the node id
  node.grid[0] = node.grid[1] = node.grid[2] = 1;
  node.block[0] = 64, node.block[1] = node.block[2] = 1;
  spool::Event& node_set = b.Gpu(spool::EventKind::kMemset, 40600, 40700, 16);
  node_set.graph_id = 3;  // a memset node: the decoder keeps no node id for it
  node_set.b = 3;
  node_set.bytes = 128;
  spool::Event& sync = b.Gpu(spool::EventKind::kSync, 41000, 45000, 14);
  sync.a = 4;  // context synchronize
  sync.stream = -1;
  sync.device = -1;  // syncs carry only a context
  spool::Event& start = b.Add(spool::EventKind::kMarker, 900, 900);
  start.a = spool::kMarkerStart;
  start.correlation2 = 5;
  start.name = b.String("phase:stream");
  start.domain = b.String("gpuperf");
  spool::Event& end = b.Add(spool::EventKind::kMarker, 46000, 46000);
  end.a = spool::kMarkerEnd;
  end.correlation2 = 5;
  spool::Event& alloc = b.Gpu(spool::EventKind::kMemory, 500, 500, 0);
  alloc.a = spool::kMemoryAllocate, alloc.b = 3, alloc.bytes = 1 << 20;
  alloc.correlation2 = 0x7f0000000000;
  spool::Event& release = b.Gpu(spool::EventKind::kMemory, 47000, 47000, 0);
  release.a = spool::kMemoryRelease, release.b = 3, release.bytes = 1 << 20;
  release.correlation2 = 0x7f0000000000;
  spool::Event& overhead = b.Add(spool::EventKind::kOverhead, 100, 400);
  overhead.name = b.String("CUPTI buffer flush");
  overhead.code = 1;
  spool::DeviceInfo device;
  device.compute_major = 9;
  device.sm_count = 132;
  device.memory_bytes = std::int64_t{141} << 30;
  std::strncpy(device.name, "NVIDIA H200", sizeof(device.name) - 1);
  for (int i = 0; i < 16; ++i)
    device.uuid[i] = static_cast<std::uint8_t>(0x10 + i);
  b.contents().devices.push_back(device);
  b.contents().header.cupti_version = 130000;
  b.contents().footer.cuda_runtime_version = 13000;
  return b.contents();
}

std::vector<std::string> TraceLines(const model::Trace& t) {
  const std::int64_t base = t.metadata.time_base_ns;
  std::vector<std::string> lines;
  for (const model::GpuActivity& a : t.activities) {
    lines.push_back(fmt::format(
        "activity {} '{}' {}..{} device {} stream {} context {} correlation {} bytes {} copy {} "
        "{}->{} grid {},{},{} block {},{},{} registers {} shared {} graph {}",
        static_cast<int>(a.kind),
        t.Name(a.name),
        a.start_ns + base,
        a.end_ns + base,
        a.device,
        a.stream,
        a.context,
        a.correlation,
        a.bytes,
        static_cast<int>(a.copy_kind),
        static_cast<int>(a.src_kind),
        static_cast<int>(a.dst_kind),
        a.grid.x,
        a.grid.y,
        a.grid.z,
        a.block.x,
        a.block.y,
        a.block.z,
        a.registers_per_thread,
        a.shared_memory_bytes,
        a.graph_id));
  }
  for (const model::ApiCall& c : t.api_calls) {
    lines.push_back(fmt::format("api {} '{}' {}..{} pid {} tid {} correlation {} cbid {}",
                                static_cast<int>(c.kind),
                                t.Name(c.name),
                                c.start_ns + base,
                                c.end_ns + base,
                                c.pid,
                                c.tid,
                                c.correlation,
                                c.cbid));
  }
  for (const model::SyncEvent& s : t.syncs) {
    lines.push_back(fmt::format("sync {} {}..{} device {} context {} stream {} correlation {}",
                                static_cast<int>(s.kind),
                                s.start_ns + base,
                                s.end_ns + base,
                                s.device,
                                s.context,
                                s.stream,
                                s.correlation));
  }
  for (const model::Range& r : t.ranges) {
    lines.push_back(
        fmt::format("range {} '{}' domain '{}' {}..{} pid {} tid {} device {} stream {}",
                    static_cast<int>(r.kind),
                    t.Name(r.name),
                    t.Name(r.domain),
                    r.start_ns + base,
                    r.end_ns + base,
                    r.pid,
                    r.tid,
                    r.device,
                    r.stream));
  }
  for (const model::MemoryEvent& m : t.memory_events) {
    lines.push_back(fmt::format("memory {} at {} device {} bytes {} total {} pid {}",
                                static_cast<int>(m.op),
                                m.time_ns + base,
                                m.device,
                                m.bytes,
                                m.total_allocated,
                                m.pid));
  }
  for (const model::Device& d : t.devices) {
    lines.push_back(fmt::format("device {} '{}' uuid '{}' cc {}.{} sms {} memory {}",
                                d.id,
                                d.name,
                                d.uuid,
                                d.compute_major,
                                d.compute_minor,
                                d.sm_count,
                                d.memory_bytes));
  }
  for (const char* key : {"cupti_version", "cuda_runtime_version"}) {
    const auto it = t.metadata.properties.find(key);
    if (it != t.metadata.properties.end())
      lines.push_back(fmt::format("property {} = {}", key, it->second));
  }
  if (t.metadata.rank)
    lines.push_back(fmt::format("rank {}", *t.metadata.rank));
  std::sort(lines.begin(), lines.end());
  return lines;
}

}  // namespace gpuperf::testing
