# Sourced by tests/gpu/run.sh and run_torch.sh: their log, FAIL lines and steps (start_log, fail,
# step), and the CUDA libraries the pack needs on the GPU machine (find_cuda_libs: libcupti,
# libnvperf_*, libcudart must match its driver, so they are not packed; their folders are added
# to LD_LIBRARY_PATH, CUPTI_DIR is libcupti's).

# start_log FILE: everything from here on goes to the terminal and FILE; FAIL=0, START=now.
start_log() {
  exec > >(tee "$1") 2>&1
  TEE_PID=$!
  trap drain_log EXIT
  FAIL=0
  START=$SECONDS
}
# The log must be whole when the device tool collects $OUT: let tee drain (at most 5 s) first.
drain_log() {
  exec 1>&- 2>&-
  for _ in $(seq 50); do kill -0 "$TEE_PID" 2>/dev/null || return 0; sleep 0.1; done
}
fail() { echo "FAIL $*"; FAIL=1; }
step() { echo; echo "== $* ($((SECONDS - START)) s)"; }
lib_dirs() {  # where a CUDA library may live on this image, most likely first
  echo /usr/local/cuda/lib64 /usr/local/cuda/extras/CUPTI/lib64 /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda/lib
  python3 -c 'import glob, site; [print(d) for p in site.getsitepackages() for d in glob.glob(p + "/nvidia/*/lib")]' 2>/dev/null
}
find_lib() {  # NAME -> the directory that holds it
  local dir
  for dir in ${LD_LIBRARY_PATH//:/ } $(lib_dirs); do
    [[ -e $dir/$1 ]] && { echo "$dir"; return 0; }
  done
  timeout 30 find / -xdev \( -path /proc -o -path /sys \) -prune -o -name "$1" -print -quit 2>/dev/null | xargs -r dirname
}
find_cuda_libs() {
  local lib dir
  for lib in libcupti.so.13 libnvperf_host.so libnvperf_target.so libcudart.so.13; do
    dir=$(find_lib $lib)
    if [[ -z $dir ]]; then
      echo "preflight: $lib not found on this machine"
      continue
    fi
    echo "preflight: $lib in $dir ($(basename "$(realpath "$dir/$lib")"))"
    [[ :$LD_LIBRARY_PATH: == *:$dir:* ]] || LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$dir
    [[ $lib == libcupti.so.13 ]] && CUPTI_DIR=$dir
  done
}
