#!/usr/bin/env bash
# Installs what gpuperf needs to build on Debian 12 (as root), then configures and builds it.
# Usage: [GPUPERF_TARGETS="t1 t2"] scripts/setup.sh [BUILD_DIR] [extra cmake args...]
# GPUPERF_TARGETS builds only those targets (the demo builds gpuperf alone); default: everything.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake libcli11-dev nlohmann-json3-dev libfmt-dev libspdlog-dev catch2
          libsqlite3-dev zlib1g-dev python3 python3-yaml)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "gpuperf setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build_dir=${1:-build}
shift || true
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
targets=()
for t in ${GPUPERF_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$build_dir" -j"$(nproc)" "${targets[@]}"
