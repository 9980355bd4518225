#!/usr/bin/env python3
"""The PyTorch counterpart of the sample workload's launch phase, for tests/gpu/run.sh's overhead
comparison with torch.profiler: LAUNCHES in-place adds on a one-element CUDA tensor, one tiny
elementwise kernel each, timed on the host after a synchronisation (like sample_workload's
phase_ns). One JSON line per timed loop:
  {"phase": "torch_launch", "mode": "plain" | "torch.profiler", "launches": N, "phase_ns": T}

  torch_loop.py [--launches N] [--repeat R] [--profiler]

Plain (the default): R loops with nothing attached, the reference; run under gpuperf's injected
library for gpuperf's figure. --profiler: each of the R loops inside its own
torch.profiler.profile session (CPU + CUDA activities, the usual way it is used); the loop's time
covers the loop only, as gpuperf's does, and the session's start and its post-processing at stop
are printed beside it (start_ns, stop_ns). run.sh runs each mode in its own process, so that no
profiler session leaves CUPTI attached to the reference loops.
"""
import argparse
import json
import time

import torch


def timed_loop(x, launches):
    torch.cuda.synchronize()
    start = time.perf_counter_ns()
    for _ in range(launches):
        x.add_(1)
    torch.cuda.synchronize()
    return time.perf_counter_ns() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--launches", type=int, default=100000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--profiler", action="store_true")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        raise SystemExit("torch_loop.py: no CUDA device visible to PyTorch")
    x = torch.zeros(1, device="cuda", dtype=torch.int32)
    timed_loop(x, 1000)  # warm-up: context, module loading, the caching allocator

    def emit(mode, phase_ns, **extra):
        print(json.dumps({"phase": "torch_launch", "mode": mode, "launches": args.launches,
                          "phase_ns": phase_ns, **extra}), flush=True)

    activities = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    for _ in range(args.repeat):
        if not args.profiler:
            emit("plain", timed_loop(x, args.launches))
            continue
        begin = time.perf_counter_ns()
        profile = torch.profiler.profile(activities=activities)
        profile.start()
        started = time.perf_counter_ns()
        loop_ns = timed_loop(x, args.launches)
        stopping = time.perf_counter_ns()
        profile.stop()
        stopped = time.perf_counter_ns()
        emit("torch.profiler", loop_ns, start_ns=started - begin, stop_ns=stopped - stopping)


if __name__ == "__main__":
    main()
