#!/usr/bin/env bash
# Installs and builds gpuperf, then runs the main job on the bundled default: a baseline of the
# sample workload (kernels/) when a GPU is present; otherwise it says so and analyzes the bundled
# recording of that workload (examples/) when one exists, or shows how to analyze a trace.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build

gpuperf=build/src/gpuperf
sample=build/kernels/gpuperf_sample_workload
if [[ -x "$sample" ]] && "$gpuperf" baseline --help >/dev/null 2>&1; then
  set +e
  "$gpuperf" baseline --out gpuperf-baseline -- "$sample"
  status=$?
  set -e
  [[ $status -eq 0 ]] && exit 0
  echo "gpuperf demo: no baseline recorded (exit $status); see the message above." >&2
else
  echo "gpuperf demo: the recorder or the sample workload is not built here (no CUDA toolkit?)." >&2
fi

bundled=$(ls examples/sample_workload*.json* 2>/dev/null | head -n 1 || true)
if [[ -n "$bundled" ]]; then
  echo "gpuperf demo: analyzing the bundled recording $bundled instead." >&2
  exec "$gpuperf" analyze "$bundled" --out gpuperf-report
fi
cat >&2 <<'MSG'
gpuperf demo: there is no bundled recording of the sample workload yet (it is recorded on a GPU
machine; see docs/gpu-validation.md). To analyze a trace you already have:
  build/src/gpuperf analyze my_trace.json.gz --out report      # PyTorch profiler / Kineto JSON
  build/src/gpuperf analyze report1.sqlite --out report        # nsys export --type sqlite
MSG
