# Sourced by tests/gpu/run.sh and run_torch.sh: finds the CUDA libraries the pack needs on the GPU
# machine (libcupti, libnvperf_*, libcudart must match its driver, so they are not packed) and
# adds their folders to LD_LIBRARY_PATH; CUPTI_DIR is libcupti's folder.
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
