#!/usr/bin/env bash
# Runs the analyzer benchmarks of docs/performance.md. Needs GPUPERF_CORPUS (../shared/traces).
# Usage: bench/run.sh [BUILD_DIR]   (an optimised build; scripts/setup.sh makes one in build/)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
corpus=${GPUPERF_CORPUS:-../shared/traces}
bench="$build/bench/analyze_bench"
[[ -x "$bench" ]] || { echo "build $bench first (scripts/setup.sh)"; exit 1; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
for f in kineto/tracelens/h100/google_owlv2-large-patch14-ensemble__1016001.json.gz \
         kineto/hta/df_index_resolver/df_index_resolver.json.gz \
         nsys/pipit/perlmutter-cloverleaf-cuda.sqlite; do
  path="$corpus/$f"
  "$bench" "$path" 3
  if [[ "$path" == *.gz ]]; then
    start=$(date +%s.%N); zcat "$path" > /dev/null; stop=$(date +%s.%N)
    echo "{\"file\": \"$path\", \"zcat_s\": $(echo "$stop - $start" | bc)}"
  fi
done

large=${TMPDIR:-/tmp}/gpuperf_bench_1gb.json
if [[ ! -f "$large" ]]; then
  python3 bench/synthesize_large_trace.py \
    "$corpus/kineto/tracelens/h100/google_owlv2-large-patch14-ensemble__1016001.json.gz" "$large" 1000
fi
"$bench" "$large" 1

large_nsys=${TMPDIR:-/tmp}/nsys_big.sqlite
if [[ ! -f "$large_nsys" ]]; then
  python3 bench/synthesize_large_nsys.py "$corpus/nsys/pipit/perlmutter-cloverleaf-cuda.sqlite" "$large_nsys" 430
fi
"$bench" "$large_nsys" 3
