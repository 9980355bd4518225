// Which rank of a multi-process job this process is, read from the launcher's environment. The
// one place that decides it: `gpuperf baseline` (the rank's output directory and baseline.json
// `job`) and the injected library (the ".r<rank>" in spool names) both call DetectJob, so they
// always agree. Part of gpuperf_spool, so nothing here may need more than the C++ standard
// library and POSIX. See docs/recorder.md, "Multi-rank jobs".
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace gpuperf::spool {

enum class Launcher { kNone, kSlurm, kOpenMpi, kPmi, kTorchrun };

// "slurm", "openmpi", "pmi", "torchrun"; "" for kNone.
const char* ToString(Launcher launcher);

struct JobInfo {
  Launcher launcher = Launcher::kNone;
  std::int64_t rank = -1;        // -1: not under a launcher
  std::int64_t local_rank = -1;  // rank among the job's processes on this node; -1 unknown
  std::int64_t world_size = -1;  // -1 unknown
  std::int64_t local_size = -1;  // processes of the job on this node; -1 unknown
  std::string rank_variable;     // the variable the rank came from ("SLURM_PROCID"), "" none
  bool has_rank() const { return rank >= 0; }
};

// Returns the value of an environment variable, or nullptr when it is not set.
using EnvironmentLookup = std::function<const char*(const char*)>;

// The first launcher, in this order, whose rank variable holds a non-negative integer:
//   torchrun  RANK, when TORCHELASTIC_RUN_ID is set (torchrun's agent exports it; it wins because
//             torchrun is often started by srun or mpirun, one agent per node, and its workers
//             inherit the outer launcher's variables)
//   openmpi   OMPI_COMM_WORLD_RANK
//   pmi       PMIX_RANK, PMI_RANK, MV2_COMM_WORLD_RANK (MPICH/Hydra, MVAPICH, PMIx launchers)
//   slurm     SLURM_PROCID inside an srun step (SLURM_STEP_ID or SLURM_STEPID set; a batch
//             script also has SLURM_PROCID=0 but is one process)
//   torchrun  RANK alone (torchrun-style launchers that set RANK/LOCAL_RANK/WORLD_SIZE)
// A PMI rank equal to SLURM_PROCID in an srun step, with a PMI_SIZE (if set) equal to the step's
// task count, is srun starting the ranks itself through its PMI plugin: launcher kSlurm. The local
// rank, world size and local size come from the same launcher's variables (see the .cc).
JobInfo DetectJob(const EnvironmentLookup& lookup);
JobInfo DetectJob();  // from the process environment

// The host part of a rank directory name: the short host name (up to the first '.') with every
// character other than [A-Za-z0-9_-] replaced by '_', at most 63 characters, "unknown-host" when
// empty. Never a path component like "..".
std::string SanitizedHostName(std::string_view host);

// "rank-00003-node1": the rank zero-padded to five digits (more when it needs more), then
// SanitizedHostName(host).
std::string RankDirectoryName(std::int64_t rank, std::string_view host);

}  // namespace gpuperf::spool
