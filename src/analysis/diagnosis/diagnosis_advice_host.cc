// The advice for a host-bound window: the input pipeline, host work before the GPU work,
// host work outside or inside the framework operators, host time no record covers (steps of the
// advice table, diagnosis_advice.cc).
#include <fmt/format.h>

#include "analysis/diagnosis/diagnosis_advice_steps.h"
#include "analysis/findings/findings.h"

namespace gpuperf::analysis::advice {

Advice InputPipeline(const AdviceInput& in) {
  const ExperimentContext& context = in.context;
  // The first fetch also waits for the workers to start: persistent workers pay that once per
  // run instead of once per epoch, which a faster loader alone does not change.
  std::string start_up;
  if (context.loader_start_up_ns > 0)
    start_up = fmt::format(
        "; {} of it in the first fetch, which waits for the workers' start-up and first batches "
        "as well, once per epoch unless persistent_workers=True",
        Ms(context.loader_start_up_ns));
  return {fmt::format("Speed up the input pipeline: the DataLoader's fetch of the next batch "
                      "(its __next__, {} of the gaps{}) waits for its worker processes, which do "
                      "not keep up with the GPU. Time the loader alone over the same batches, "
                      "then raise its throughput (more num_workers, persistent_workers=True, "
                      "a larger prefetch_factor, pin_memory=True with non_blocking copies, "
                      "cheaper decoding and augmentation, or GPU-side augmentation); graphs and "
                      "launch batching would not remove it.",
                      Ms(context.loader_ns),
                      start_up),
          "The loader alone must deliver batches faster than one step of GPU work, and the "
          "wait in __next__ must fall with the GPU's idle share; if the loader alone is already "
          "faster, the wait comes from the hand-over (pinning, the queue) or the host thread.",
          ""};
}

Advice HostWorkBeforeGpu(const AdviceInput& in) {
  const ExperimentContext& context = in.context;
  std::int64_t rest_ns = context.window_ns - context.host_work_ns;
  // In a loop over inputs the next input's preparation could overlap this one's GPU work,
  // which this window cannot show: the bound without the lead says what that would give.
  double across = BesideGpu(context.window_ns, context.host_work_ns, 0);
  // Most of the host work precedes the GPU's: only a loop over inputs could overlap it.
  const bool mostly_before = 2 * context.lead_ns >= context.host_work_ns;
  std::string why =
      mostly_before
          ? fmt::format(
                "{} of it runs before the first GPU work; in a loop over inputs, a separate "
                "worker (a DataLoader worker process, another thread) preparing the next input "
                "while the GPU runs this one would give at most {:.2f}x (window / max(the {} of "
                "host work in the gaps, the rest); on the launching thread its launches add to "
                "that host work)",
                Ms(context.lead_ns),
                across,
                Ms(context.host_work_ns))
          : fmt::format("the rest of the window, which it could overlap, is {} beside its {}",
                        Ms(rest_ns),
                        Ms(context.host_work_ns));
  return {fmt::format("Make the host work that fills the gaps faster: {} ({}). Moved beside the "
                      "GPU in this window it would overlap almost nothing: {}. {}, so graphs and "
                      "launch batching would not remove it.",
                      context.host_work_names.empty() ? std::string("the recorded host work")
                                                      : context.host_work_names,
                      "a GPU or vectorised implementation, or less of it: smaller or fewer inputs",
                      why,
                      context.pytorch ? "It runs outside the framework operators"
                                      : "It is not CUDA dispatch"),
          "The named host work's time before and between the GPU work must fall, and the "
          "window with it; if it falls and the window does not, something else holds it.",
          "",
          mostly_before ? std::optional<double>(across) : std::nullopt};
}

Advice HostOutsideOperators(const AdviceInput& in) {
  const ExperimentContext& context = in.context;
  return {fmt::format("Move the host work that fills the gaps off the launching thread, or make "
                      "it faster: {} ({}). {}, so graphs and launch batching would not remove "
                      "it.{}",
                      context.host_work_names.empty() ? std::string("the recorded host work")
                                                      : context.host_work_names,
                      context.pytorch ? "a DataLoader worker or another thread or process "
                                        "overlapped with the GPU, a GPU or vectorised "
                                        "implementation"
                                      : "another thread overlapped with the GPU, non-blocking "
                                        "calls (asynchronous I/O, MPI_Isend/MPI_Irecv), a GPU "
                                        "or vectorised implementation",
                      context.pytorch ? "It runs outside the framework operators"
                                      : "It is not CUDA dispatch",
                      SingleProcessLoaderText(context) + InRepeatsText(context)),
          "The named host work's time in the gaps must fall and the GPU's idle share with it; "
          "if the GPU stays idle while that work runs elsewhere, something else holds it.",
          ""};
}

Advice HostInOperators(const AdviceInput& in) {
  const ExperimentContext& context = in.context;
  const Tools& tools = in.tools;
  return {
      context.graphs
          ? "Cut the host time between GPU work in the framework operators that fill the gaps: "
            "batch more work per step, or move data preparation off the launching thread (the "
            "launches already run through graphs)."
      : context.vllm
          // vLLM captures its own graphs: the knob is its eager mode, not torch.compile's.
          ? "Cut the host time between GPU work in the framework operators that fill the gaps: "
            "run vLLM with its CUDA graphs (without enforce_eager, with capture sizes that cover "
            "this batch in its compilation config), then time the same request without the "
            "profiler."
          : fmt::format("Cut the host time between GPU work in the framework operators that "
                        "fill the gaps: capture the step in {}{}, batch more work per launch, or "
                        "move data preparation off the launching thread.{}{}",
                        tools.graph,
                        // reduce-overhead captures the compiled module: a training step's
                        // optimizer step and zero_grad stay eager unless compiled as well.
                        !context.pytorch ? ""
                        : context.training
                            ? " (torch.compile mode=\"reduce-overhead\", or torch.cuda.graph "
                              "around the whole step; compile or capture the optimizer step too)"
                            : " (torch.compile mode=\"reduce-overhead\", or torch.cuda.graph "
                              "around the whole forward; with inputs of fixed shapes, padded to "
                              "a few sizes, or each new shape records a new graph)",
                        SyncsInStepText(context),
                        context.zero_grad.empty()
                            ? std::string()
                            : " The cheapest part first: " + context.zero_grad + "."),
      "Host operator time in the gaps must fall and the GPU's idle share with it; if the "
      "GPU stays idle with less host work, something else (a wait the trace does not "
      "record) holds it.",
      ""};
}

Advice HostUnrecorded(const AdviceInput& in) {
  const ExperimentContext& context = in.context;
  // Never ask for what the input holds: with CPU samples, the sampled functions are named
  // and only ranges around the host code are asked for.
  std::string what =
      context.cpu_samples
          ? "NVTX ranges around the host code between the GPU work: the trace's CPU samples "
            "name functions, not the program steps they serve"
      : context.pytorch
          ? "CPU sampling, NVTX or framework ranges around data loading, Python and I/O"
          : "CPU sampling and NVTX ranges around the host code between the GPU work, such as "
            "I/O, setup and MPI";
  return {fmt::format("Profile the host over the idle stretches ({}) and move the work found there "
                      "off the critical path (overlap it with GPU work, prefetch, run it "
                      "asynchronously).",
                      what),
          "Host-side ranges over the gaps: if the host was waiting on the GPU or idle itself "
          "during them, the program is not host-bound.",
          !context.host_sampled_names.empty()
              ? fmt::format("No recorded host work covers most of the gaps; CPU samples put the "
                            "host in {} there (samples: an estimate), which ranges around the "
                            "code that calls them would confirm.",
                            context.host_sampled_names)
          : context.cpu_samples
              ? "The trace shows no CUDA call in the gaps and its CPU samples fall outside them, "
                "so what the host did instead is not recorded; host-side ranges over the gap "
                "windows would show it."
              : "The trace shows no CUDA call in the gaps, not what the host did instead; "
                "host-side ranges or CPU samples over the gap windows would confirm it."};
}
}  // namespace gpuperf::analysis::advice
