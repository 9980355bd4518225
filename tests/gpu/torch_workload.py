#!/usr/bin/env python3
"""PyTorch programs for tests/gpu/run_torch.sh: gpuperf on what most users run. One JSON line per
phase with what the program itself knows (launch counts, FLOPs), which the checks compare with
the trace and the counters.

  torch_workload.py --phase gemm    bf16 and fp16 matrix products (M = N = K = 4096), 2 warm-up
                                    and 6 timed each: the counter pass's tensor FLOPs against
                                    2 M N K per product (cuda-13 brief: "confirm the math_op
                                    unit against a known GEMM", open until a GPU run)
  torch_workload.py --phase graph   a CUDA graph of NODES in-place adds, replayed REPLAYS times:
                                    are the graph's kernels traced node by node?
  torch_workload.py --phase train   STEPS training steps of a 4-layer MLP (bf16 autocast, AdamW),
                                    each inside an NVTX range "train_step", the loss read back
                                    every step (a host sync, as logging code does): NVTX through
                                    the injected library, and the report of a real training loop
"""
import argparse
import json
import time

import torch


def emit(**fields):
    print(json.dumps(fields), flush=True)


def gemm():
    n = 4096
    for dtype, name in ((torch.bfloat16, "bf16"), (torch.float16, "fp16")):
        a = torch.randn(n, n, device="cuda", dtype=dtype)
        b = torch.randn(n, n, device="cuda", dtype=dtype)
        for _ in range(2):
            torch.matmul(a, b)
        torch.cuda.synchronize()
        start = time.perf_counter_ns()
        for _ in range(6):
            c = torch.matmul(a, b)
        torch.cuda.synchronize()
        elapsed = time.perf_counter_ns() - start
        assert torch.isfinite(c).all().item()
        emit(phase="gemm", dtype=name, m=n, n=n, k=n, flops_per_product=2 * n**3, products=8,
             timed_products=6, phase_ns=elapsed,
             tflops=2 * n**3 * 6 / elapsed / 1e3)


def graph(nodes=20, replays=50):
    x = torch.zeros(1024, device="cuda")
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up on a side stream, as torch.cuda.graphs asks
        for _ in range(3):
            x.add_(1)
    torch.cuda.current_stream().wait_stream(side)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(nodes):
            x.add_(1)
    torch.cuda.synchronize()
    start = time.perf_counter_ns()
    for _ in range(replays):
        g.replay()
    torch.cuda.synchronize()
    elapsed = time.perf_counter_ns() - start
    expected = 3 + nodes * replays  # the warm-up and the replays (capture runs nothing)
    value = x[0].item()
    emit(phase="graph", nodes=nodes, replays=replays, graph_kernels=nodes * replays,
         add_value=value, add_value_expected=float(expected), phase_ns=elapsed)


def train(steps=12, width=4096, batch=8192):
    torch.manual_seed(0)
    layers = []
    for _ in range(4):
        layers += [torch.nn.Linear(width, width), torch.nn.GELU()]
    model = torch.nn.Sequential(*layers, torch.nn.Linear(width, 1)).cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    data = torch.randn(batch, width, device="cuda")
    target = torch.randn(batch, 1, device="cuda")
    start = time.perf_counter_ns()
    for step in range(steps):
        torch.cuda.nvtx.range_push("train_step")
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = torch.nn.functional.mse_loss(model(data), target)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        value = loss.item()  # logging: one host sync per step
        torch.cuda.nvtx.range_pop()
    elapsed = time.perf_counter_ns() - start
    emit(phase="train", steps=steps, width=width, batch=batch, last_loss=value, phase_ns=elapsed)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--phase", choices=("gemm", "graph", "train"), required=True)
    args = parser.parse_args()
    if not torch.cuda.is_available():
        raise SystemExit("torch_workload.py: no CUDA device visible to PyTorch")
    {"gemm": gemm, "graph": graph, "train": train}[args.phase]()


if __name__ == "__main__":
    main()
