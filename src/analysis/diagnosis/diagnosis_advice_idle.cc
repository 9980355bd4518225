// The advice for the idle classes: one-time work, dependency-, sync- and launch-bound
// (steps of the advice table, diagnosis_advice.cc).
#include <fmt/format.h>

#include "analysis/diagnosis/diagnosis_advice_steps.h"
#include "analysis/findings/findings.h"

namespace gpuperf::analysis::advice {

std::string Quoted(const std::string& subject, const char* fallback) {
  return subject.empty() ? std::string(fallback) : "\"" + subject + "\"";
}

Advice InitializationOneShot(const AdviceInput& /*in*/) {
  return {
      "Build a steady state to profile: one-time work (context creation, module loading, "
      "compilation, autotuning, first library calls) holds most of the window, and the "
      "program runs its work once, so no later iteration shows the steady cost. Run the "
      "work several times in one process (the compiled or cached path is then taken "
      "again) and capture only the repeats, or time them with the one-time work left "
      "out.",
      "The repeats' time per run: if it stays near this window's work, the one-time work "
      "recurs and is steady-state cost.",
      ""};
}

Advice Initialization(const AdviceInput& in) {
  const ExperimentContext& context = in.context;
  return {fmt::format("Profile after warm-up: one-time work (context creation, module loading, "
                      "compilation, autotuning, first library calls) holds most of the window, so "
                      "it says little about the steady state. Skip the first iterations ({}) and "
                      "profile several steady steps.",
                      context.pytorch ? "torch.profiler schedule with wait and warmup steps"
                                      : "nsys --delay or a cudaProfilerStart/Stop capture range"),
          "A trace of steady steps whose one-time work is a small share: if the same work "
          "recurs every step, it is not initialization but steady-state cost.",
          ""};
}

Advice DependencyBound(const AdviceInput& in) {
  const ExperimentContext& context = in.context;
  std::string where =
      context.stream_waits > 0
          ? fmt::format(
                "the {} cross-stream waits (cudaStreamWaitEvent) and the streams they "
                "wait on",
                context.stream_waits)
          : std::string("the events and streams the queued work depends on");
  // Most of the queued idle inside graph launches: the graphs come first, before even the work
  // that ends the longest stretches when nothing the trace records could end their idle (the
  // graphs may hold nodes it lacks).
  const bool graphs = context.queued_ns > 0 &&
                      context.queued_in_graphs_ns > context.queued_ns - context.queued_in_graphs_ns;
  const bool graphs_first = graphs && context.graph_gaps_unexplained_ns > 0;
  if (graphs)
    where = fmt::format(
        "{} the {} graph launches, which hold {} of the {} of queued idle{}: trace their "
        "nodes ({}) to see whether the idle holds nodes the trace lacks or event-wait and host "
        "nodes; then {}",
        context.queued_focus.empty() || graphs_first ? "first" : "then",
        context.amd ? "HIP" : "CUDA",
        Ms(context.queued_in_graphs_ns),
        Ms(context.queued_ns),
        graphs_first ? fmt::format(", {} of it while the host waited for the GPU and no "
                                   "recorded work ran",
                                   Ms(context.graph_gaps_unexplained_ns))
                     : std::string(),
        context.amd ? "rocprofv3 with graph node tracing" : "nsys --cuda-graph-trace=node",
        graphs_first && !context.queued_focus.empty()
            ? fmt::format("what {} waits for, which ends the longest stretches; then {}",
                          context.queued_focus,
                          where)
            : where);
  else if (!context.queued_focus.empty())
    where = "then " + where;
  // A few long stretches ending at the same work: that dependency first.
  if (!context.queued_focus.empty() && !graphs_first)
    where = fmt::format("first what {} waits for, which ends the longest stretches; {}",
                        context.queued_focus,
                        where);
  return {
      fmt::format(
          "Find what the queued work waits for: {}{}. The whole GPU idled with the work "
          "queued, so it waited on nothing running on this GPU: an event the host records late, "
          "another device or rank, or a copy staged by the host ahead of it in the same stream "
          "(a synchronous copy through pageable memory); the trace does not record which, and "
          "only the first and the last of these are closed by host-side changes.",
          where,
          context.collectives && context.ranks
              ? "; with collectives between them, compare the ranks (gpuperf ranks DIR): a "
                "slower rank holds every other rank's collective"
          : context.collectives ? "; with collectives between them, the other ranks' progress"
                                : ""),
      graphs_first
          // Nothing ran on any stream through those gaps: stream timing cannot test them, and
          // "launch latency" is no reading of a 64 ms gap (review 61).
          ? fmt::format(
                "Node-level graph tracing ({}): if the graphs' gaps hold kernels or "
                "copies, the GPU was busy there and the queued idle, with the bound, is "
                "smaller than counted; if they hold event-wait or host nodes, what those "
                "wait for is the dependency.",
                context.amd ? "rocprofv3 with graph node tracing" : "nsys --cuda-graph-trace=node")
          : fmt::format("Stream-level timing around the gaps (the producer on the awaited "
                        "stream, {} or the trace's stream rows): if the awaited work ends well "
                        "before the queued work starts, the dependency is not the cause and "
                        "launch latency or the hardware scheduler is.",
                        context.amd ? "rocprofv3" : "nsys"),
      ""};
}

Advice ImplicitSync(const AdviceInput& in) {
  const std::string& subject = in.subject;
  return {fmt::format("Stop the implicit synchronization of {}: pin the host buffers "
                      "(cudaHostAlloc, tensor.pin_memory()) and copy with non_blocking=True, "
                      "and read the result only where the host needs it, so that the host "
                      "queues work ahead of the GPU.",
                      Quoted(subject, "the pageable async copies")),
          "GPU idle time in gaps that overlap these copies must fall; if it does not, the "
          "host work between them is the limit (host-bound), not the copies.",
          ""};
}

Advice SyncBound(const AdviceInput& in) {
  const std::string& subject = in.subject;
  return {fmt::format("Remove or defer the host-blocking synchronization {} (replace it with "
                      "events or stream waits, move reads of GPU results off the loop) so "
                      "that the host queues work ahead of the GPU.",
                      Quoted(subject, "calls")),
          "The GPU idle between the synchronizations must fall: the round trip after each and, "
          "in a loop, the idle while the host refilled the drained queue (median step time and "
          "the GPU idle per step); if it does not, the host work between synchronizations is "
          "the limit (host-bound), not the synchronization.",
          ""};
}

Advice LaunchBoundInGraphs(const AdviceInput& /*in*/) {
  return {
      "Fuse the short kernels: most kernels already run through graph launches (a good sign: "
      "one call each), so what is left is the kernels' own count and the launches outside "
      "the graphs.",
      "After the change, GPU idle time between those kernels must fall; if it stays with fewer "
      "kernels, launch overhead was not the cause.",
      ""};
}

Advice LaunchBound(const AdviceInput& in) {
  const Tools& tools = in.tools;
  return {fmt::format("Cut the number of launches on the hot path: capture the launch loop in {} "
                      "or fuse the short kernels.",
                      tools.graph),
          "After the change, GPU idle time between those kernels and the launch-call count must "
          "fall; if idle time stays with fewer launches, launch overhead was not the cause.",
          ""};
}
}  // namespace gpuperf::analysis::advice
