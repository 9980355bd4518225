#!/usr/bin/env python3
"""`analyze --format csv,trace` on corpus traces, checked against the formats' own rules:

- trace.json against the Chrome trace-event format (the JSON Object Format of the "Trace Event
  Format" document that chrome://tracing and ui.perfetto.dev import): an object with a
  traceEvents array; every event has a known ph, a name, integer pid/tid; X events numeric
  ts >= 0 and dur >= 0; i events a scope s in g/p/t; M events process_name/thread_name with
  args.name; slices on one (pid, tid) track nest or follow each other, never partly overlap.
  Beyond the format: gpuperf's tracks are there (diagnosis, findings, idle, critical time), and
  every GPU activity of report.json's audit is an event.
- the CSVs parse with RFC 4180 rules, have one row per report.json table row, and the nsys
  tables start with `nsys stats` column names.
Without GPUPERF_CORPUS: skipped (exit 77).
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

TRACES = [
    "kineto/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz",
    "nsys/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite",
    "kineto/hta/trace_diff/control/control.json.gz",
]
NSYS_COLUMNS = {
    "kernels.csv": ["Time (%)", "Total Time (ns)", "Instances", "Avg (ns)", "Med (ns)",
                    "Min (ns)", "Max (ns)", "StdDev (ns)", "GridXYZ", "BlockXYZ", "Name"],
    "memory_ops.csv": ["Time (%)", "Total Time (ns)", "Count", "Avg (ns)", "Med (ns)",
                       "Min (ns)", "Max (ns)", "StdDev (ns)", "Operation"],
    "api.csv": ["Time (%)", "Total Time (ns)", "Num Calls", "Avg (ns)", "Med (ns)", "Min (ns)",
                "Max (ns)", "StdDev (ns)", "Name"],
}
PHASES = {"B", "E", "X", "i", "I", "C", "b", "n", "e", "s", "t", "f", "P", "N", "O", "D", "M",
          "V", "v", "R", "c"}


def check_trace_events(path, report, problems):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    events = doc.get("traceEvents")
    if not isinstance(events, list):
        problems.append(f"{path}: no traceEvents array")
        return
    tracks, names, gpu_events = {}, set(), 0
    for n, e in enumerate(events):
        where = f"{path}: event {n}"
        ph = e.get("ph")
        if ph not in PHASES:
            problems.append(f"{where}: unknown ph {ph!r}")
            continue
        if not isinstance(e.get("name"), str):
            problems.append(f"{where}: no name")
        if not isinstance(e.get("pid"), int) or not isinstance(e.get("tid"), int):
            problems.append(f"{where}: pid/tid are not integers")
        if ph == "M":
            if e["name"] not in ("process_name", "thread_name", "process_sort_index",
                                 "thread_sort_index", "process_labels"):
                problems.append(f"{where}: unknown metadata {e['name']}")
            if not isinstance(e.get("args", {}).get("name", ""), str):
                problems.append(f"{where}: metadata without args.name")
            names.add(e["args"].get("name"))
            continue
        ts = e.get("ts")
        if not isinstance(ts, (int, float)) or ts < 0:
            problems.append(f"{where}: ts {ts!r} is not a non-negative number")
            continue
        if ph == "X":
            dur = e.get("dur")
            if not isinstance(dur, (int, float)) or dur < 0:
                problems.append(f"{where}: dur {dur!r}")
                continue
            tracks.setdefault((e["pid"], e["tid"]), []).append((ts, ts + dur, e["name"]))
            if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset"):
                gpu_events += 1
        if ph in ("i", "I") and e.get("s", "t") not in ("g", "p", "t"):
            problems.append(f"{where}: instant scope {e.get('s')!r}")
        if "args" in e and not isinstance(e["args"], dict):
            problems.append(f"{where}: args is not an object")
    for (pid, tid), slices in tracks.items():
        if pid != 1000000000:
            continue  # the trace's own tracks are as the profiler recorded them
        slices.sort()
        for (s0, e0, n0), (s1, e1, n1) in zip(slices, slices[1:]):
            if s1 < e0 - 1e-3 and e1 > e0 + 1e-3:
                problems.append(f"{path}: gpuperf track {tid}: {n0} and {n1} partly overlap")
                break
    for wanted in ("gpuperf", "findings", "GPU idle (all devices)"):
        if wanted not in names:
            problems.append(f"{path}: no track named {wanted!r}")
    if not any(str(n).startswith("critical GPU time") for n in names):
        problems.append(f"{path}: no critical-time track")
    audit = report["audit"]
    expected = audit["kernel_launches"] + sum(
        audit.get(k, 0) for k in ("memcpy_htod", "memcpy_dtoh", "memcpy_dtod", "memcpy_other",
                                  "memsets"))
    if gpu_events != expected:
        problems.append(f"{path}: {gpu_events} GPU events, report.json's audit counts {expected}")


def check_csv(out, report, problems):
    tables = {"kernels.csv": report["kernels"], "operators.csv": report.get("operators", []),
              "memory_ops.csv": report["memory_ops"],
              "api.csv": report["api"], "findings.csv": report["findings"]}
    for name, rows in tables.items():
        with open(os.path.join(out, name), newline="", encoding="utf-8") as f:
            parsed = list(csv.reader(f, strict=True))
        header, body = parsed[0], parsed[1:]
        if name in NSYS_COLUMNS and header[:len(NSYS_COLUMNS[name])] != NSYS_COLUMNS[name]:
            problems.append(f"{out}/{name}: header {header} does not start with nsys stats' "
                            f"{NSYS_COLUMNS[name]}")
        if len(body) != len(rows):
            problems.append(f"{out}/{name}: {len(body)} rows, report.json has {len(rows)}")
        if any(len(r) != len(header) for r in body):
            problems.append(f"{out}/{name}: a row's width differs from the header's")


def corpus_root():
    """$GPUPERF_CORPUS; a relative one as the user meant it: from the directory the command was
    typed in ($PWD; ctest runs tests in build/tests), else from here or a parent (corpus_env.cc
    does the same for the C++ tests, without the parents)."""
    value = os.environ.get("GPUPERF_CORPUS", "")
    if not value or os.path.isabs(value):
        return value
    # PWD first; then the test's directory and its parents (an interpreter started through a
    # shell wrapper, as pyenv's shims are, sees PWD reset to the test's directory).
    bases = [os.environ.get("PWD", "")]
    here = os.getcwd()
    while True:
        bases.append(here)
        if os.path.dirname(here) == here:
            break
        here = os.path.dirname(here)
    for base in bases:
        if base and os.path.isdir(os.path.join(base, value)):
            return os.path.abspath(os.path.join(base, value))
    return value


def main():
    gpuperf = sys.argv[1]
    corpus = corpus_root()
    if not corpus:
        print("SKIPPED: GPUPERF_CORPUS is unset")
        return 77
    problems = []
    for relative in TRACES:
        with tempfile.TemporaryDirectory() as out:
            subprocess.run([gpuperf, "analyze", os.path.join(corpus, relative), "--quiet",
                            "--format", "json,csv,trace", "--out", out], check=True)
            with open(os.path.join(out, "report.json"), encoding="utf-8") as f:
                report = json.load(f)
            before = len(problems)
            check_trace_events(os.path.join(out, "trace.json"), report, problems)
            check_csv(out, report, problems)
            print(f"{'ok  ' if len(problems) == before else 'FAIL'} {relative}")
    for p in problems:
        print("FAILED: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
