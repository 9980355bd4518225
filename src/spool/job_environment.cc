#include "spool/job_environment.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace gpuperf::spool {
namespace {

// A non-negative decimal integer, the whole text; -1 otherwise.
std::int64_t ParseCount(const char* text) {
  if (text == nullptr || *text == '\0')
    return -1;
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text, &end, 10);
  if (errno != 0 || *end != '\0' || value < 0)
    return -1;
  return value;
}

// The variables one launcher sets for each process.
struct Family {
  Launcher launcher;
  const char* rank;
  const char* local_rank;
  const char* world_size;
  const char* local_size;
};

constexpr Family kOpenMpi = {Launcher::kOpenMpi,
                             "OMPI_COMM_WORLD_RANK",
                             "OMPI_COMM_WORLD_LOCAL_RANK",
                             "OMPI_COMM_WORLD_SIZE",
                             "OMPI_COMM_WORLD_LOCAL_SIZE"};
// PMIx exports no size or local rank of its own; Open MPI 5 adds the OMPI_ ones above.
constexpr Family kPmi[] = {
    {Launcher::kPmi, "PMIX_RANK", "MPI_LOCALRANKID", "PMI_SIZE", "MPI_LOCALNRANKS"},
    {Launcher::kPmi, "PMI_RANK", "MPI_LOCALRANKID", "PMI_SIZE", "MPI_LOCALNRANKS"},
    {Launcher::kPmi,
     "MV2_COMM_WORLD_RANK",
     "MV2_COMM_WORLD_LOCAL_RANK",
     "MV2_COMM_WORLD_SIZE",
     "MV2_COMM_WORLD_LOCAL_SIZE"}};
constexpr Family kTorchrun = {
    Launcher::kTorchrun, "RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE"};

JobInfo FromFamily(const Family& family, const EnvironmentLookup& lookup) {
  JobInfo job;
  job.launcher = family.launcher;
  job.rank = ParseCount(lookup(family.rank));
  job.rank_variable = family.rank;
  job.local_rank = ParseCount(lookup(family.local_rank));
  job.world_size = ParseCount(lookup(family.world_size));
  job.local_size = ParseCount(lookup(family.local_size));
  return job;
}

// SLURM_STEP_TASKS_PER_NODE ("2(x3),1": 2 tasks on each of nodes 0-2, 1 on node 3) at
// SLURM_NODEID; -1 when either is missing or malformed.
std::int64_t SlurmTasksOnThisNode(const EnvironmentLookup& lookup) {
  const char* list = lookup("SLURM_STEP_TASKS_PER_NODE");
  std::int64_t node = ParseCount(lookup("SLURM_NODEID"));
  if (list == nullptr || node < 0)
    return -1;
  const std::string text(list);
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t comma = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, comma - pos);
    long long tasks = 0, repeat = 1;
    char tail = 0;
    const int fields = std::sscanf(item.c_str(), "%lld(x%lld%c", &tasks, &repeat, &tail);
    if (fields < 1 || (fields >= 2 && tail != ')') || tasks < 0 || repeat < 1)
      return -1;
    if (node < repeat)
      return tasks;
    node -= repeat;
    pos = comma + 1;
  }
  return -1;
}

JobInfo FromSlurm(const EnvironmentLookup& lookup) {
  JobInfo job;
  job.launcher = Launcher::kSlurm;
  job.rank = ParseCount(lookup("SLURM_PROCID"));
  job.rank_variable = "SLURM_PROCID";
  job.local_rank = ParseCount(lookup("SLURM_LOCALID"));
  job.world_size = ParseCount(lookup("SLURM_NTASKS"));
  if (job.world_size < 0)
    job.world_size = ParseCount(lookup("SLURM_STEP_NUM_TASKS"));
  job.local_size = SlurmTasksOnThisNode(lookup);
  return job;
}

bool InSrunStep(const EnvironmentLookup& lookup) {
  return lookup("SLURM_STEP_ID") != nullptr || lookup("SLURM_STEPID") != nullptr;
}

// A PMI rank that is srun's own: same rank as SLURM_PROCID, same size as the step (when PMI says).
// Hydra or PMIx daemons started by srun, one per node, fail this: their SLURM_PROCID is the node.
bool IsSrunPmi(const JobInfo& pmi, const JobInfo& slurm) {
  return slurm.rank >= 0 && pmi.rank == slurm.rank &&
         (pmi.world_size < 0 || pmi.world_size == slurm.world_size);
}

}  // namespace

const char* ToString(Launcher launcher) {
  switch (launcher) {
    case Launcher::kSlurm:
      return "slurm";
    case Launcher::kOpenMpi:
      return "openmpi";
    case Launcher::kPmi:
      return "pmi";
    case Launcher::kTorchrun:
      return "torchrun";
    case Launcher::kNone:
      break;
  }
  return "";
}

JobInfo DetectJob(const EnvironmentLookup& lookup) {
  if (lookup("TORCHELASTIC_RUN_ID") != nullptr) {
    if (JobInfo job = FromFamily(kTorchrun, lookup); job.has_rank())
      return job;
  }
  if (JobInfo job = FromFamily(kOpenMpi, lookup); job.has_rank())
    return job;
  const JobInfo slurm = InSrunStep(lookup) ? FromSlurm(lookup) : JobInfo{};
  for (const Family& family : kPmi) {
    JobInfo job = FromFamily(family, lookup);
    if (!job.has_rank())
      continue;
    return IsSrunPmi(job, slurm) ? slurm : job;
  }
  if (slurm.has_rank())
    return slurm;
  if (JobInfo job = FromFamily(kTorchrun, lookup); job.has_rank())
    return job;
  return JobInfo{};
}

JobInfo DetectJob() {
  return DetectJob([](const char* name) -> const char* { return std::getenv(name); });
}

std::string SanitizedHostName(std::string_view host) {
  std::string name(host.substr(0, host.find('.')));
  for (char& c : name) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '_';
    if (!keep)
      c = '_';
  }
  if (name.size() > 63)
    name.resize(63);
  return name.empty() ? "unknown-host" : name;
}

std::string RankDirectoryName(std::int64_t rank, std::string_view host) {
  char digits[32];
  std::snprintf(digits, sizeof(digits), "%05lld", static_cast<long long>(rank));
  return std::string("rank-") + digits + "-" + SanitizedHostName(host);
}

}  // namespace gpuperf::spool
