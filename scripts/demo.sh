#!/usr/bin/env bash
# The first five minutes: installs what is missing, builds only what it runs, and produces a
# report. With a GPU (and the CUDA toolkit) it records a baseline of the sample workload
# (kernels/); without one it analyzes the bundled real trace (examples/traces/) and prints the
# diagnosis and where report.md, report.json and roofline.svg are. Exits non-zero when it
# produced no report.
# GPUPERF_BINARY=PATH skips the build and uses that gpuperf (the demo_script test does);
# GPUPERF_DEMO_OUT=DIR writes the report there (default: gpuperf-report).
set -euo pipefail
cd "$(dirname "$0")/.."

gpuperf=${GPUPERF_BINARY:-build/src/gpuperf}
bundled=examples/traces/gaunernst_bert-small-uncased__1016001.json.gz
out=${GPUPERF_DEMO_OUT:-gpuperf-report}
case $out in /*) ;; *) out=$(pwd)/$out ;; esac

has_gpu() {
  command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU '
}
has_cuda_toolkit() {
  command -v nvcc >/dev/null 2>&1 || [[ -x /usr/local/cuda/bin/nvcc ]]
}

# Only the executables this run needs: no tests, no benchmarks (configured, not built, so that
# scripts/test.sh later reuses this build directory as it is).
build() {
  GPUPERF_TARGETS="$*" scripts/setup.sh build
}

if [[ -n ${GPUPERF_BINARY:-} ]]; then
  echo "gpuperf demo: using $gpuperf (GPUPERF_BINARY); nothing to build" >&2
elif has_gpu && has_cuda_toolkit; then
  echo "gpuperf demo: GPU found; building gpuperf, the recorder and the sample workload" >&2
  build gpuperf gpuperf_inject gpuperf_sample_workload
  set +e
  "$gpuperf" baseline --out gpuperf-baseline -- build/kernels/gpuperf_sample_workload
  status=$?
  set -e
  if [[ $status -eq 0 && -s gpuperf-baseline/report.md ]]; then
    echo "gpuperf demo: baseline written to $(pwd)/gpuperf-baseline/"
    exit 0
  fi
  echo "gpuperf demo: no baseline recorded (exit $status); analyzing the bundled trace instead." >&2
else
  echo "gpuperf demo: no GPU here; building gpuperf and analyzing the bundled trace" >&2
  build gpuperf
fi

[[ -s "$bundled" ]] || { echo "gpuperf demo: $bundled is missing" >&2; exit 1; }
echo "gpuperf demo: $bundled (BERT-small inference on an H100, from TraceLens; MIT)" >&2
rm -f "$out/report.md" "$out/report.json" "$out/roofline.svg"  # no stale file listed below
"$gpuperf" analyze "$bundled" --out "$out"
for file in report.md report.json; do
  [[ -s "$out/$file" ]] || { echo "gpuperf demo: $out/$file was not written" >&2; exit 1; }
done
echo
echo "Open these next:"
for file in report.md report.json roofline.svg; do
  if [[ -s "$out/$file" ]]; then echo "  $out/$file"; fi
done
echo "Analyze your own trace: $gpuperf analyze my_trace.json.gz --out report"
