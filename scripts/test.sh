#!/usr/bin/env bash
# Installs, builds and runs the whole test suite twice: an optimised build, then an
# AddressSanitizer + UndefinedBehaviorSanitizer build. Corpus tests read ../shared/traces through
# GPUPERF_CORPUS (set here when the folder exists; they say SKIPPED when it is unset).
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ -z "${GPUPERF_CORPUS:-}" && -d ../shared/traces ]]; then
  GPUPERF_CORPUS=$(cd ../shared/traces && pwd)
  export GPUPERF_CORPUS
fi
echo "gpuperf test: GPUPERF_CORPUS=${GPUPERF_CORPUS:-<unset: corpus tests will be skipped>}"

jobs=$(nproc)
scripts/setup.sh build
(cd build && ctest --output-on-failure -j"$jobs")

scripts/setup.sh build-asan -DGPUPERF_SANITIZE=ON -DGPUPERF_BUILD_BENCH=OFF
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
(cd build-asan && ctest --output-on-failure -j"$jobs")
