#!/usr/bin/env bash
# gpuperf on PyTorch programs, the second GPU check (after run.sh, which proves the recorder on the
# sample workload). NOT runnable without a GPU. Same pack (tests/gpu/prepare.sh -> build-gpu):
#
#   tests/gpu/run_torch.sh [PACK_DIR] [CEILINGS_DIR]     (about 2-3 minutes on an idle H200)
#
# 1. gemm: `gpuperf baseline --metrics roofline` of bf16 and fp16 torch.matmul (4096^3): each
#    product kernel's tensor FLOPs per profiled launch must be 2 M N K (is the counter's unit a
#    FLOP or a multiply-add? the CUPTI brief left it to a GPU run), then `gpuperf analyze` of that
#    recording against the ceilings run.sh measured (CEILINGS_DIR, optional);
# 2. graph: a CUDA graph of 20 adds replayed 50 times: 1000 kernels with a graph id in the trace,
#    and the program's own result undisturbed;
# 3. train: 12 MLP training steps, each an NVTX range "train_step" (torch.cuda.nvtx through the
#    injected library): `gpuperf baseline --step-range '^train_step$' --metrics roofline` must find
#    12 steps in its analysed run, with counters on the top 3 kernels (the experiment the
#    counter-less diagnosis of this loop asks for).
# PyTorch runs with the machine's own library path (the pack's bundle/ must not shadow torch's
# libraries) plus libcupti's folder for the injected library; gpuperf itself with the bundle.
# What should be committed comes back under $OUT: the log, the reports and the gemm counters.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
PACK=$(realpath "${1:-build-gpu}")
CEILINGS=${2:-}
GPUPERF=$PACK/src/gpuperf
WORK=$(mktemp -d /tmp/gpuperf-torch-XXXXXX)
RESULTS=${OUT:-$WORK/results}
ORIGINAL_LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}
mkdir -p "$RESULTS"
source "$HERE/common.sh"
start_log "$RESULTS/torch-run.log"
CHECK=(python3 "$HERE/checks.py")

step "0 preflight"
echo "pack: $(cat "$PACK/VERSION" 2>/dev/null || echo 'no VERSION: an old pack?')"
export LD_LIBRARY_PATH=$PACK/bundle${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
find_cuda_libs
export GPUPERF_INJECT_LIB=$PACK/src/libgpuperf_inject.so
python3 -c 'import torch; print("torch", torch.__version__, "CUDA", torch.version.cuda, torch.cuda.get_device_name(0))' ||
  { echo "PyTorch sees no GPU: nothing to check"; exit 2; }
# The traced program: python3 with the machine's own library path and libcupti's folder.
TORCH=(env "LD_LIBRARY_PATH=$ORIGINAL_LD_LIBRARY_PATH${CUPTI_DIR:+:$CUPTI_DIR}" python3 "$HERE/torch_workload.py")
gp() { timeout -k 5 120 "$GPUPERF" "$@"; }
ceilings=(); [[ -n $CEILINGS && -d $CEILINGS ]] && ceilings=(--ceilings "$CEILINGS")

step "1 gemm: tensor FLOPs per product against 2 M N K"
out=$WORK/gemm
if gp baseline --quiet --warmup 0 --repeat 1 --no-overhead --metrics roofline --metrics-kernels 4 \
    --metrics-launches 2 --out "$out" -- "${TORCH[@]}" --phase gemm > "$WORK/gemm.stdout"; then
  cat "$WORK/gemm.stdout"
  "${CHECK[@]}" torch-gemm "$out" "$WORK/gemm.stdout" || FAIL=1
  csv=("$out"/counters/*.counters.csv)
  [[ -f ${csv[0]} ]] && cp "${csv[0]}" "$RESULTS/gemm.counters.csv"
  trace=("$out"/runs/run-001/*.json*)
  counters=(); for f in "$out"/counters/*.counters.csv; do [[ -f $f ]] && counters+=(--counters "$f"); done
  if gp analyze "${ceilings[@]}" "${counters[@]}" --out "$WORK/gemm-report" "${trace[0]}" > /dev/null; then
    cp "$WORK/gemm-report/report.md" "$RESULTS/gemm-report.md"
  else
    fail "gemm: gpuperf analyze exit $?"
  fi
else
  fail "gemm: gpuperf baseline exit $?"
fi

step "2 graph: the graph's kernels, node by node"
out=$WORK/graph
if gp baseline --quiet --warmup 0 --repeat 1 --no-overhead --out "$out" -- "${TORCH[@]}" --phase graph \
    > "$WORK/graph.stdout"; then
  "${CHECK[@]}" torch-graph "$out" "$WORK/graph.stdout" || FAIL=1
else
  fail "graph: gpuperf baseline exit $?"
fi

step "3 train: NVTX steps through the injected library, counters on the top kernels"
out=$WORK/train
if gp baseline --quiet --warmup 1 --repeat 3 --no-overhead --gzip --step-range '^train_step$' \
    --metrics roofline --metrics-kernels 3 --metrics-launches 2 --out "$out" -- "${TORCH[@]}" --phase train \
    > "$WORK/train.stdout"; then
  cat "$WORK/train.stdout"
  "${CHECK[@]}" torch-steps "$out/report.json" 12 || FAIL=1
  analysed=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["analysis"]["run"])' "$out/baseline.json")
  trace=("$out"/runs/run-00"$analysed"/*.json*)
  cp "${trace[0]}" "$RESULTS/train-trace.json.gz"
  cp "$out/report.md" "$RESULTS/train-baseline.md"
  cp "$out/report.json" "$RESULTS/train-report.json"
  csv=("$out"/counters/*.counters.csv)
  [[ -f ${csv[0]} ]] && cp "${csv[0]}" "$RESULTS/train.counters.csv"
  grep -m1 '^Diagnosis:' "$out/report.md" | cut -c1-2000
else
  fail "train: gpuperf baseline exit $?"
fi

step "summary"
grep "^FAIL" "$RESULTS/torch-run.log" > "$WORK/fails.txt"
cat "$WORK/fails.txt"
echo "results in $RESULTS; $((SECONDS - START)) s"
[[ -n ${OUT:-} ]] && rm -rf "$WORK"
if [[ $FAIL != 0 ]]; then echo "SOME TORCH CHECKS FAILED"; exit 1; fi
echo "ALL TORCH CHECKS PASSED"
