#!/usr/bin/env python3
"""The checks of tests/gpu/run.sh, one subcommand each; Python's standard library only.

They read what gpuperf writes (baseline.json, report.json, the Kineto traces, the ceilings cache)
and what the sample workload prints (one JSON line per phase, kernels/sample_workload.cu), so that
tests/unit/gpu_checks_test.cc can run them here, without a GPU, on recordings of the fake program:
a wrong key name must not cost a GPU lease. Every check prints "ok   ..." or "FAIL ..." lines and
exits 1 when something failed.

  counts STDOUT OUT_DIR            trace counts of run 1 == the program's last JSON line, exactly
  findings REPORT_JSON ID...       each finding id is in report.json
  time N RESULT_JSON [K=V...] -- CMD...
                                   runs CMD N times (K=V added to its environment) and appends
                                   each run's wall time and its JSON lines that carry phase_ns to
                                   RESULT_JSON (so modes can be interleaved run by run); a run
                                   that fails or prints no phase_ns line is a failure
  overhead RESULT_DIR              the overhead table from the `time` results, with the targets
  ceilings CACHE_DIR               measured ceilings against the H200 datasheet
  counter-pass OUT_DIR STDOUT PHASE
                                   counters of the stream / fma kernel against the program
  example BASELINE_DIR DEST_DIR    copies the analysed run's trace, baseline.json and report.md
  torch-gemm OUT_DIR STDOUT        per matrix-product kernel with counters, the tensor FLOPs of one
                                   launch against 2 M N K (torch_workload.py --phase gemm)
  torch-graph OUT_DIR STDOUT       the graph's kernels in the trace (graph id set) == nodes x replays
  torch-steps REPORT_JSON STEPS    the report found STEPS steps (NVTX ranges through the injection)
"""
import glob
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import time


def fail(message):
    print("FAIL " + message)
    return 1


def program_lines(stdout_path):
    """The sample workload's JSON lines (its stdout may hold other lines too)."""
    lines = []
    with open(stdout_path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                try:
                    lines.append(json.loads(line))
                except json.JSONDecodeError:
                    pass
    return lines


def load_json(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def run_traces(out_dir, run=1):
    return sorted(glob.glob(os.path.join(out_dir, "runs", "run-%03d" % run, "*.json*")))


def counts(stdout_path, out_dir):
    lines = program_lines(stdout_path)
    if not lines:
        return fail(f"{stdout_path}: the program printed no JSON line")
    program = lines[-1]
    expected = [program[k] for k in ("kernels", "memcpys", "memcpy_bytes", "memsets")]
    actual = [0, 0, 0, 0]
    traces = run_traces(out_dir)
    for path in traces:
        for event in load_json(path)["traceEvents"]:
            cat = event.get("cat")
            if cat == "kernel":
                actual[0] += 1
            elif cat == "gpu_memcpy":
                actual[1] += 1
                actual[2] += event["args"]["bytes"]
            elif cat == "gpu_memset":
                actual[3] += 1
    status = 0
    label = f"{program.get('phase', '?')}: kernels memcpys bytes memsets"
    if not traces:
        status = fail(f"{label}: no trace in {out_dir}/runs/run-001")
    elif expected == actual:
        print(f"ok   {label} = {actual}")
    else:
        status = fail(f"{label}: program says {expected}, trace has {actual}")
    baseline = load_json(os.path.join(out_dir, "baseline.json"))
    run = baseline["runs"][0]
    if not baseline["complete"] or run["dropped_records"] != 0:
        status = fail(f"{label}: recording incomplete or {run['dropped_records']} records dropped")
    return status


def findings(report_path, ids):
    present = {f["id"] for f in load_json(report_path).get("findings", [])}
    status = 0
    for finding in ids:
        if finding in present:
            print(f"ok   finding {finding}")
        else:
            status = fail(f"finding {finding} missing in {report_path} (has: {sorted(present)})")
    return status


def time_runs(args):
    n, result_path, rest = int(args[0]), args[1], args[2:]
    env = dict(os.environ)
    while rest and rest[0] != "--":
        key, value = rest.pop(0).split("=", 1)
        env[key] = value
    command = rest[1:]
    runs = load_json(result_path)["runs"] if os.path.exists(result_path) else []
    for _ in range(n):
        start = time.perf_counter()
        try:
            done = subprocess.run(command, env=env, stdout=subprocess.PIPE, text=True, timeout=90)
        except subprocess.TimeoutExpired:
            return fail(f"{' '.join(command)}: still running after 90 s")
        wall = time.perf_counter() - start
        if done.returncode != 0:
            print(done.stdout[-2000:])
            return fail(f"{' '.join(command)}: exit {done.returncode}")
        lines = []
        for line in done.stdout.splitlines():
            if line.startswith("{"):
                try:
                    parsed = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if "phase_ns" in parsed:
                    lines.append(parsed)
        if not lines:
            return fail(f"{' '.join(command)}: printed no line with phase_ns")
        runs.append({"wall_s": wall, "lines": lines})
    with open(result_path, "w") as f:
        json.dump({"command": command, "runs": runs}, f)
    return 0


def phase_times(result, mode=None):
    """phase_ns of every JSON line (of one `mode`, for lines that name one) over all runs."""
    return [line["phase_ns"] for run in result["runs"] for line in run["lines"]
            if mode is None or line.get("mode") == mode]


def overhead(result_dir):
    """Median phase time traced vs untraced per phase (the program's own clock, so process
    start-up and CUDA initialisation stay out), and the three targets of issue #3."""
    def load(name):
        path = os.path.join(result_dir, name + ".json")
        return load_json(path) if os.path.exists(path) else None

    def median_ms(values):
        return statistics.median(values) / 1e6 if values else None

    def fmt(value):
        return f"{value:10.2f}" if value is not None else f"{'-':>10}"

    def pct(value, base):
        return f"{100 * (value / base - 1):+8.1f}%" if value and base else f"{'-':>9}"

    print(f"{'phase':<16} {'untraced':>10} {'floor':>10} {'traced':>10} {'floor%':>9} "
          f"{'traced%':>9} {'process%':>9}   (median ms of the phase; process = whole-run wall)")
    medians = {}
    for phase in ("launch", "stream", "fma", "memcpy"):
        row = {mode: load(f"{phase}.{mode}") for mode in ("untraced", "discard", "traced")}
        if row["untraced"] is None:
            continue
        m = {mode: median_ms(phase_times(r)) if r else None for mode, r in row.items()}
        wall = {mode: statistics.median(run["wall_s"] for run in r["runs"]) if r else None
                for mode, r in row.items()}
        medians[phase] = m
        print(f"{phase:<16} {fmt(m['untraced'])} {fmt(m['discard'])} {fmt(m['traced'])} "
              f"{pct(m['discard'], m['untraced'])} {pct(m['traced'], m['untraced'])} "
              f"{pct(wall['traced'], wall['untraced'])}")
    # The PyTorch loop: three processes, plain (the reference), torch.profiler, under gpuperf.
    torch_files = {mode: load(f"torch.{mode}") for mode in ("untraced", "profiler", "traced")}
    torch_row = None
    if any(torch_files.values()):
        def torch_median(name, mode):
            return median_ms(phase_times(torch_files[name], mode)) if torch_files[name] else None
        plain = torch_median("untraced", "plain")
        profiler = torch_median("profiler", "torch.profiler")
        traced = torch_median("traced", "plain")
        torch_row = (plain, profiler, traced)
        print(f"{'torch add_ loop':<16} {fmt(plain)} {fmt(profiler)} {fmt(traced)} "
              f"{pct(profiler, plain)} {pct(traced, plain)} {'':>9}   (floor = torch.profiler)")

    print("targets (issue #3):")
    met = total = 0

    def target(ok, text):
        nonlocal met, total
        total += 1
        met += bool(ok)
        print(("  met     " if ok else "  MISSED  ") + text)

    # A target whose runs are missing is MISSED, never dropped from the count.
    launch = medians.get("launch")
    if launch and launch["traced"] and launch["discard"]:
        ratio = launch["traced"] / launch["discard"] - 1
        target(ratio <= 0.10, f"launch phase within 10% of CUPTI's floor: {100 * ratio:+.1f}%")
    else:
        target(False, "launch phase within 10% of CUPTI's floor: no data")
    if torch_row and all(torch_row):
        plain, profiler, traced = torch_row
        target(traced < profiler, f"below torch.profiler on the PyTorch loop: gpuperf "
               f"{100 * (traced / plain - 1):+.1f}%, torch.profiler {100 * (profiler / plain - 1):+.1f}%")
    elif torch_row:
        target(False, "below torch.profiler on the PyTorch loop: no data for every mode")
    else:
        print("  (no PyTorch run: the torch.profiler comparison is not counted)")
    for phase in ("stream", "fma", "memcpy"):
        m = medians.get(phase)
        if m and m["traced"] and m["untraced"]:
            ratio = m["traced"] / m["untraced"] - 1
            target(ratio <= 0.03, f"{phase} phase at most 3%: {100 * ratio:+.1f}%")
        else:
            target(False, f"{phase} phase at most 3%: no data")
    print(f"OVERHEAD TARGETS: {met} of {total} met")
    return 0


# H200 SXM datasheet: 4.8 TB/s, 67 TFLOP/s FP32, 989.5 TFLOP/s dense BF16/FP16. Sustained figures
# sit below it; above 105% something is miscounted. wmma (mma.sync) reaches only part of Hopper's
# wgmma peak, hence the low tensor bound.
H200_SHEET = {"dram": (4.8e12, "bytes_per_s", 0.70), "fp32_vector": (67e12, "flops_per_s", 0.80),
              "bf16_tensor": (989.5e12, "flops_per_s", 0.30),
              "fp16_tensor": (989.5e12, "flops_per_s", 0.30)}


def ceilings(cache_dir):
    files = glob.glob(os.path.join(cache_dir, "GPU-*.json"))
    if len(files) != 1:
        return fail(f"ceilings: expected one GPU-*.json in {cache_dir}, found {files}")
    c = load_json(files[0])
    status = 0 if c["evidence"] == "measured" else fail(f"ceilings: evidence {c['evidence']}")
    print(f"{'figure':<12} {'measured':>14} {'datasheet':>14} {'ratio':>7} {'SM GHz':>7}  "
          f"launch ms (best/median)")
    for key, (peak, rate, low) in H200_SHEET.items():
        figure = c[key]
        ratio = figure[rate] / peak
        clock = f"{figure['sm_clock_hz'] / 1e9:.3f}" if "sm_clock_hz" in figure else "-"
        good = low <= ratio <= 1.05
        print(f"{key:<12} {figure[rate]:14.4g} {peak:14.4g} {ratio:7.1%} {clock:>7}  "
              f"{figure['best_ms']:.2f}/{figure['median_ms']:.2f}"
              + ("" if good else f"  OUT OF [{low:.0%}, 105%]"))
        if not good:
            status = 1
    device = c["device"]
    print(f"device {device['name']} {device['uuid']} max SM clock "
          f"{device['max_sm_clock_hz'] / 1e9:.3f} GHz")
    print(("ok   " if status == 0 else "FAIL ") + "measured ceilings within range")
    return status


# The fma phase: the program counts 2 x 4096 FMAs per thread (4 FLOPs an iteration); the SASS
# (nvcc 13.0, sm_90) also has one FADD for seed + threadIdx.x and one for x + y, and no FMUL.
FMA_FLOPS_PER_THREAD = 4 * 4096


def counter_pass(out_dir, stdout_path, phase):
    program = program_lines(stdout_path)[-1]
    base = load_json(os.path.join(out_dir, "baseline.json"))
    report = load_json(os.path.join(out_dir, "report.json"))
    cp = base["counter_pass"]
    print(f"     {phase}: {cp['launches_profiled']} launches profiled, {cp['joined']} joined; "
          "statuses: " + "; ".join(s["message"] for s in cp["statuses"]))
    kernel = max(report["kernels"], key=lambda k: k.get("total_ns", 0))
    roof = kernel.get("roofline") or {}
    n = roof.get("instances", 0)  # the launches with counters, which the sums cover
    ok = n > 0 and roof.get("evidence") == "measured"
    per_launch_flops = program["flops"] / program["kernels"]
    per_launch_bytes = program["bytes"] / program["kernels"]
    flops = roof.get("flops", 0) / n if n else 0
    dram = roof.get("dram_bytes", 0) / n if n else 0
    print(f"     {phase}: {kernel.get('name')}: {n} launches with counters; per launch FLOPs {flops:.6g} (program "
          f"{per_launch_flops:.6g}), DRAM bytes {dram:.6g} (program {per_launch_bytes:.6g}), "
          f"bound {roof.get('bound')}")
    if phase == "fma":
        threads = per_launch_flops / FMA_FLOPS_PER_THREAD
        print(f"     fma: counters - program = {flops - per_launch_flops:.0f} per launch "
              f"(expected 2 x {threads:.0f} threads = {2 * threads:.0f})")
        ok = ok and flops == per_launch_flops + 2 * threads
    else:
        ok = ok and abs(dram / per_launch_bytes - 1) < 0.10
    print(("ok   " if ok else "FAIL ") + f"counter pass {phase}")
    return 0 if ok else 1


def example(baseline_dir, dest_dir):
    """The bundled default of scripts/demo.sh: the analysed run's trace with its baseline."""
    base = load_json(os.path.join(baseline_dir, "baseline.json"))
    analysed = (base.get("analysis") or {}).get("run")
    if not analysed:
        return fail(f"example: {baseline_dir}/baseline.json names no analysed run")
    traces = base["runs"][analysed - 1]["traces"]
    if len(traces) != 1:
        return fail(f"example: run {analysed} has {len(traces)} traces, expected one")
    os.makedirs(dest_dir, exist_ok=True)
    suffix = ".json.gz" if traces[0].endswith(".gz") else ".json"
    shutil.copy(os.path.join(baseline_dir, traces[0]),
                os.path.join(dest_dir, "sample_workload" + suffix))
    for name in ("baseline.json", "report.md"):
        shutil.copy(os.path.join(baseline_dir, name), os.path.join(dest_dir, name))
    print(f"ok   example: run {analysed} of {baseline_dir} -> {dest_dir}/sample_workload{suffix}")
    return 0


def torch_gemm(out_dir, stdout_path):
    """Each product is one kernel (cuBLAS picks one per dtype and shape), so a tensor-core
    kernel's FLOPs per profiled launch must be 2 M N K of its product, whatever unit the counter
    has (FLOP or multiply-add: the CUPTI brief left it to a GPU run)."""
    programs = [p for p in program_lines(stdout_path) if p.get("phase") == "gemm"]
    if not programs:
        return fail(f"torch-gemm: {stdout_path} holds no gemm line")
    flops = programs[0]["flops_per_product"]
    for p in programs:
        print(f"     gemm {p['dtype']}: {p['tflops']:.0f} TFLOP/s over {p['timed_products']} "
              "products (the program's own host-clock timing)")
    report = load_json(os.path.join(out_dir, "report.json"))
    status, seen = 0, 0
    for kernel in report["kernels"]:
        roof = kernel.get("roofline") or {}
        n = roof.get("instances", 0)
        if not n or roof.get("unit") != "tensor":
            continue
        seen += 1
        per_launch = roof.get("flops", 0) / n
        ratio = per_launch / flops
        print(f"     {kernel['name'][:90]}: {kernel['instances']} launches, {n} with counters; "
              f"FLOPs per launch {per_launch:.6g} = {ratio:.4f} x 2MNK ({roof.get('precision')} "
              f"{roof.get('unit')}); achieved {roof.get('achieved_flops_per_s', 0) / 1e12:.0f} "
              f"TFLOP/s, bound {roof.get('bound')}")
        if abs(ratio - 1) > 0.01:
            status = fail(f"torch-gemm: {kernel['name'][:60]}: {ratio:.4f} x 2MNK per launch")
    if not seen:
        return fail(f"torch-gemm: no kernel of {out_dir}/report.json has tensor-core counters")
    print(("ok   " if status == 0 else "FAIL ") + "tensor FLOPs per product = 2 M N K")
    return status


def torch_graph(out_dir, stdout_path):
    program = [p for p in program_lines(stdout_path) if p.get("phase") == "graph"][-1]
    graph_kernels, kernels = 0, 0
    for path in run_traces(out_dir):
        for event in load_json(path)["traceEvents"]:
            if event.get("cat") == "kernel":
                kernels += 1
                graph_kernels += "graph id" in event.get("args", {})
    ok = graph_kernels == program["graph_kernels"] and \
        program["add_value"] == program["add_value_expected"]
    print(("ok   " if ok else "FAIL ") + f"graph: {graph_kernels} kernels with a graph id "
          f"(program: {program['nodes']} nodes x {program['replays']} replays = "
          f"{program['graph_kernels']}), {kernels} kernels in all; the program's result "
          f"{program['add_value']} (expected {program['add_value_expected']})")
    return 0 if ok else 1


def torch_steps(report_path, steps):
    report = load_json(report_path)
    found = report.get("steps") or []
    ok = len(found) == int(steps)
    print(("ok   " if ok else "FAIL ") + f"train: {len(found)} steps in the report "
          f"(program: {steps}); headline: {report.get('headline', '')[:400]}")
    return 0 if ok else 1


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    command, args = argv[1], argv[2:]
    if command == "counts":
        return counts(*args)
    if command == "findings":
        return findings(args[0], args[1:])
    if command == "time":
        return time_runs(args)
    if command == "overhead":
        return overhead(*args)
    if command == "ceilings":
        return ceilings(*args)
    if command == "counter-pass":
        return counter_pass(*args)
    if command == "example":
        return example(*args)
    if command == "torch-gemm":
        return torch_gemm(*args)
    if command == "torch-graph":
        return torch_graph(*args)
    if command == "torch-steps":
        return torch_steps(*args)
    print(f"checks.py: unknown check {command}")
    return 2


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except (OSError, KeyError, IndexError, ValueError, TypeError) as error:
        # A missing file or key is a failed check with its reason, never a traceback.
        sys.exit(fail(f"{' '.join(sys.argv[1:3])}: {type(error).__name__}: {error}"))
