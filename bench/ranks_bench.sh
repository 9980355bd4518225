#!/usr/bin/env bash
# The `gpuperf ranks` benchmark of docs/performance.md: the 8 DLRM ranks, a synthesized 512-rank
# job read from traces (1 and 2 threads), and the same job merged from per-rank summaries.
# Usage: bench/ranks_bench.sh [BUILD_DIR]   (needs GPUPERF_CORPUS or ../shared/traces)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
corpus=${GPUPERF_CORPUS:-../shared/traces}
gpuperf="$build/src/gpuperf"
tmp=${TMPDIR:-/tmp}
job="$tmp/gpuperf_ranks512"
[[ -d "$job" ]] || python3 bench/synthesize_ranks.py "$corpus/kineto/param/dlrm_8ranks" "$job" 512
for jobs in 1 2; do
  /usr/bin/time -f "8 ranks, --jobs $jobs: %e s, peak RSS %M KB" \
    "$gpuperf" ranks "$corpus/kineto/param/dlrm_8ranks" --jobs "$jobs" --out "$tmp/gpuperf_rb8" >/dev/null
  /usr/bin/time -f "512 ranks from traces, --jobs $jobs: %e s, peak RSS %M KB" \
    "$gpuperf" ranks "$job" --jobs "$jobs" --out "$tmp/gpuperf_rb512" >/dev/null
done
summaries="$tmp/gpuperf_ranks512_summaries"
if [[ ! -d "$summaries" ]]; then
  mkdir -p "$summaries"
  for trace in "$job"/rank-*.json.gz; do
    name=$(basename "$trace" .json.gz)
    "$gpuperf" analyze "$trace" --summary --format json --out "$tmp/gpuperf_sum_$name" >/dev/null
    mv "$tmp/gpuperf_sum_$name/summary.json" "$summaries/$name.summary.json"
    rm -rf "$tmp/gpuperf_sum_$name"
  done
fi
/usr/bin/time -f "512 ranks from summaries: %e s, peak RSS %M KB" \
  "$gpuperf" ranks "$summaries" --out "$tmp/gpuperf_rbs512" >/dev/null
