#!/usr/bin/env bash
# Installs, builds and runs the test suite the way CI does, warnings as errors (GPUPERF_WERROR):
#   1. AddressSanitizer + UndefinedBehaviorSanitizer (RelWithDebInfo): the whole suite;
#   2. Release and Debug (the build types users pick): they must compile warning-free, and the
#      smoke subset runs (golden outputs, the documented commands, the install layout), plus the
#      tests that skip themselves under AddressSanitizer (CUPTI's profiler host API).
# A plain RelWithDebInfo run of the whole suite is no longer a step of its own: the sanitizer
# build runs every test it would, and CI's 90 minutes on 2 cores did not hold four full builds
# (the last CI run needed 3979 s for its first two).
# Corpus tests read ../shared/traces through GPUPERF_CORPUS (set here when the folder exists; they
# say SKIPPED when it is unset). GPUPERF_TEST_BUILD_TYPES="Release Debug" picks the builds of step 2.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ -z "${GPUPERF_CORPUS:-}" && -d ../shared/traces ]]; then
  GPUPERF_CORPUS=$(cd ../shared/traces && pwd)
  export GPUPERF_CORPUS
fi
echo "gpuperf test: GPUPERF_CORPUS=${GPUPERF_CORPUS:-<unset: corpus tests will be skipped>}"

jobs=$(nproc)
smoke='^(golden|documented_commands|install_layout|workflow_yaml|profiler host)'

scripts/setup.sh build-asan -DGPUPERF_WERROR=ON -DGPUPERF_SANITIZE=ON -DGPUPERF_BUILD_BENCH=OFF
(
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  cd build-asan && ctest --output-on-failure -j"$jobs"
)

for type in ${GPUPERF_TEST_BUILD_TYPES:-Release Debug}; do
  dir="build-$(echo "$type" | tr '[:upper:]' '[:lower:]')"
  bench=OFF
  [[ "$type" == Release ]] && bench=ON  # the benchmarks are compiled (warning-free) once
  scripts/setup.sh "$dir" -DCMAKE_BUILD_TYPE="$type" -DGPUPERF_WERROR=ON -DGPUPERF_BUILD_BENCH=$bench
  (cd "$dir" && ctest --output-on-failure -j"$jobs" -R "$smoke")
done
