#!/usr/bin/env bash
# Compiles every adversarial candidate in tests/gpu/candidates with the flags Skillforge's kernel builder uses, so
# a candidate that no longer builds is found on any machine with nvcc, not first on a GPU (where time is short).
# Exit codes: 0 all built, 1 one did not, 77 no nvcc here (skipped).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
if [ ! -x "$nvcc" ]; then
  echo "SKIP: nvcc not found (set NVCC); the candidates cannot be compiled here."
  exit 77
fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
export nvcc out
build_one() {
  local name
  name="$(basename "${1%.cu}")"
  if "$nvcc" -O3 -std=c++17 -shared -Xcompiler -fPIC -cudart shared -gencode arch=compute_90,code=sm_90 "$1" \
    -o "$out/$name.so" >"$out/$name.log" 2>&1; then
    echo "built $name"
  else
    echo "FAILED $name:"
    cat "$out/$name.log"
    return 1
  fi
}
export -f build_one
count="$(ls "$here"/candidates/*.cu | wc -l)"
if printf '%s\n' "$here"/candidates/*.cu | xargs -P "$(nproc)" -I{} bash -c 'build_one "$@"' _ {}; then
  echo "all $count candidates built"
  exit 0
fi
echo "some of the $count candidates did not build"
exit 1
