#!/usr/bin/env bash
# tests/gpu/run.sh — the GPU half of the kernel tests, for a machine with an NVIDIA GPU, CUDA and a C++
# compiler (Qt is not needed). It builds skillforge-kernel-runner, builds every candidate with the flags
# Skillforge uses, runs known-good and adversarial candidates through the runner, checks each signed
# verdict against what it must be, measures timing stability, and prints a short table last.
#
#   tests/gpu/run.sh [--quick]        --quick: correctness and adversarial cases only, no benchmark
#
# Environment: OUT_DIR (default build/gpu), RUNNER (a runner already built: skip building it),
# NVCC (default nvcc on PATH or /usr/local/cuda/bin/nvcc).
# Exit codes: 0 every case as expected, 1 some case not as expected, 77 no GPU here (skipped).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${OUT_DIR:-$root/build/gpu}"
quick=0
[ "${1:-}" = "--quick" ] && quick=1

if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  echo "SKIP: no NVIDIA GPU here (nvidia-smi -L lists none); the GPU kernel tests need one."
  exit 77
fi
nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
if [ ! -x "$nvcc" ]; then
  echo "SKIP: nvcc not found (set NVCC)."
  exit 77
fi
cap="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')"
arch="sm_${cap}"
gpu="$(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | head -1)"
mkdir -p "$out/so" "$out/verdicts"
started=$(date +%s)
echo "GPU: $gpu, $arch; nvcc $("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'); output in $out"

# ---- the runner (no Qt): its own CMake project, or nvcc directly where there is no cmake. Its process guard needs
# libseccomp: the machine's own (libseccomp-dev), else the copy tests/gpu/prepare-carry.sh made and the session
# carried (build/gpu-carry), linked statically.
runner="${RUNNER:-}"
seccomp=(-lseccomp)
system_seccomp=1
if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libseccomp; then
  system_seccomp=0
  carried="$root/build/gpu-carry/seccomp"
  if [ -z "$runner" ] && [ ! -f "$carried/include/seccomp.h" ]; then
    echo "FAIL: no libseccomp here (libseccomp-dev) and none carried: run tests/gpu/prepare-carry.sh on the" \
      "build machine and carry build/gpu-carry"
    exit 1
  fi
  seccomp=(-I"$carried/include" "$carried/lib/libseccomp.a")
  echo "libseccomp: the carried copy (build/gpu-carry), linked statically"
fi
if [ -z "$runner" ]; then
  if [ "$system_seccomp" = 1 ] && command -v cmake >/dev/null 2>&1; then
    cmake -S "$root/core/kernels/runner" -B "$out/runner" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CUDA_COMPILER="$nvcc" >"$out/runner-build.log" 2>&1 &&
      cmake --build "$out/runner" -j >>"$out/runner-build.log" 2>&1 || { cat "$out/runner-build.log"; exit 1; }
    runner="$out/runner/skillforge-kernel-runner"
  else
    # Full RELRO and libseccomp (libseccomp-dev) for the process guard, as the CMake build links it.
    "$nvcc" -O2 -std=c++17 -cudart shared -arch=compute_75 -I"$root/core/kernels" \
      "$root/core/kernels/runner/kernel_runner.cu" "$root"/core/kernels/harness/*.cpp "${seccomp[@]}" -ldl \
      -Xlinker -z,relro,-z,now -o "$out/skillforge-kernel-runner" || exit 1
    runner="$out/skillforge-kernel-runner"
  fi
fi
"$runner" device || exit 77

# ---- candidates and baselines, built as KernelBuilder builds them
flags=(-O3 -std=c++17 -shared -Xcompiler -fPIC -cudart shared -lineinfo -gencode "arch=compute_${cap},code=${arch}")
build() { # source output
  [ -f "$2" ] && [ "$2" -nt "$1" ] && return 0
  "$nvcc" "${flags[@]}" "$1" -o "$2" >"$2.log" 2>&1 || { echo "build failed: $1"; cat "$2.log"; return 1; }
}
awk '/^```cuda/{f=1;next} /^```/{if(f){exit}} f' \
  "$root/resources/sample-project/skills/diffusers-cuda-rmsnorm/references/rmsnorm-reference.md" >"$out/skill_reference.cu"
jobs_max="$(nproc 2>/dev/null || echo 4)"
pids=()
throttle() { while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done; }
for task in "$root"/resources/kernels/*/; do
  t="$(basename "$task")"
  throttle
  build "$task/baseline.cu" "$out/so/baseline_$t.so" & pids+=($!)
done
for c in "$root"/tests/gpu/candidates/*.cu "$out/skill_reference.cu"; do
  throttle
  build "$c" "$out/so/$(basename "${c%.cu}").so" & pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || exit 1; done

# ---- one run: a fresh key and nonce, the verdict on fd 3, stdout and stderr kept apart
results=()
failures=0
run_case() { # name task dtype candidate.so expect(pass|fail) why-substring timeout [runner args...]
  local name=$1 task=$2 dtype=$3 so=$4 expect=$5 why=$6 limit=$7
  shift 7
  local key nonce vfile="$out/verdicts/$name.verdict"
  key="$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')"
  nonce="$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')"
  printf '%s' "$key" >"$out/$name.key"
  printf '%s' "$key" >"$out/$name.key.check"
  local t0=$(date +%s)
  timeout -s KILL "$limit" "$runner" run --task "$root/resources/kernels/$task/task.json" --dtype "$dtype" \
    --candidate "$so" --baseline "$out/so/baseline_$task.so" --key-file "$out/$name.key" --nonce "$nonce" \
    --verdict-fd 3 "$@" 3>"$vfile" >"$out/verdicts/$name.stdout" 2>"$out/verdicts/$name.stderr"
  local rc=$? secs=$(( $(date +%s) - t0 ))
  local body verdict reason
  body="$("$runner" verify --key-file "$out/$name.key.check" --nonce "$nonce" --in "$vfile")"
  case $? in
    0) verdict=pass ;;
    1) verdict=fail ;;
    *) verdict=fail ;;
  esac
  reason="$(printf '%s' "$body" | sed -n 's/.*"reason":"\([^"]*\)".*/\1/p' | head -1)"
  [ -z "$reason" ] && reason="$body"
  [ $rc -eq 137 ] && reason="killed at the ${limit}s timeout (hang); $reason"
  local ok=OK
  if [ "$verdict" != "$expect" ] || { [ -n "$why" ] && ! printf '%s' "$reason" | grep -qi -- "$why"; }; then
    ok=UNEXPECTED
    failures=$((failures + 1))
  fi
  results+=("$(printf '%-26s %-16s %-5s %-5s %-10s %4ss  %s' "$name" "$task" "$dtype" "$expect" "$ok" "$secs" "${reason:0:90}")")
  echo "${results[-1]}"
  printf '%s\n' "${results[-1]}" >"$out/verdicts/$name.line"
}

echo "== known-good candidates: every bundled task's baseline in every dtype its task.json lists"
known=()
for task in "$root"/resources/kernels/*/; do
  t="$(basename "$task")"
  # "dtypes": ["bf16", "fp16", "fp32"] -> bf16 fp16 fp32 (sed, so that the script needs no JSON tool)
  dtypes="$(tr -d '\n' <"$task/task.json" | sed -n 's/.*"dtypes"[[:space:]]*:[[:space:]]*\[\([^]]*\)\].*/\1/p' | tr -d '", ' | sed 's/\(bf16\|fp16\|fp32\)/\1 /g')"
  [ -z "$dtypes" ] && dtypes=bf16
  for dtype in $dtypes; do
    # Untimed checks do not disturb each other: several at once (the float64 reference is host work).
    throttle
    run_case "baseline-$t-$dtype" "$t" "$dtype" "$out/so/baseline_$t.so" pass "" 300 --no-timing >/dev/null &
    known+=("baseline-$t-$dtype")
  done
done
wait
for name in "${known[@]}"; do
  line="$(cat "$out/verdicts/$name.line" 2>/dev/null || printf '%-26s did not report' "$name")"
  results+=("$line")
  echo "$line"
  case "$line" in *UNEXPECTED*|*"did not report"*) failures=$((failures + 1)) ;; esac
done
run_case skill-reference rmsnorm bf16 "$out/so/skill_reference.so" pass "" 300

echo "== adversarial candidates"
run_case no-op rmsnorm bf16 "$out/so/noop.so" fail "outside the tolerance" 300 --no-timing
run_case copy-of-input rmsnorm bf16 "$out/so/copy_input.so" fail "outside the tolerance" 300 --no-timing
run_case cache-by-pointer rmsnorm bf16 "$out/so/cache_by_pointer.so" fail "" 300
run_case side-stream rmsnorm bf16 "$out/so/side_stream.so" fail "outside the harness's stream" 300
run_case correct-then-wrong rmsnorm bf16 "$out/so/correct_then_wrong.so" fail "re-validation\|speed-of-light" 300
run_case oob-write rmsnorm bf16 "$out/so/oob_write.so" fail "out of bounds" 300 --no-timing
run_case oob-far rmsnorm bf16 "$out/so/oob_far.so" fail "illegal" 300 --no-timing
run_case infinite-loop rmsnorm bf16 "$out/so/infinite_loop.so" fail "timeout" 60 --no-timing
run_case forged-stdout rmsnorm bf16 "$out/so/forged_stdout.so" fail "" 300 --no-timing
run_case forged-fd3 rmsnorm bf16 "$out/so/forged_fd3.so" fail "not authentic" 300 --no-timing
run_case exits rmsnorm bf16 "$out/so/exits.so" fail "" 300 --no-timing
# 2026's reward hacks (issue 17): each is caught by the defence named in docs/kernel-runner.md
run_case replay-across-phases rmsnorm bf16 "$out/so/replay_across_phases.so" fail "timed call" 300
run_case skip-timed-calls rmsnorm bf16 "$out/so/skip_timed_calls.so" fail "timed call" 300
run_case nan-wildcard rmsnorm bf16 "$out/so/nan_fill.so" fail "got -\?nan" 300 --no-timing
run_case l2-persistence rmsnorm bf16 "$out/so/l2_persist.so" fail "persisting-L2" 300
run_case replay-by-pointer rmsnorm bf16 "$out/so/replay_by_pointer.so" fail "timed call" 300
run_case ptrace-runner rmsnorm bf16 "$out/so/ptrace_runner.so" fail "process tampering.*ptrace" 300
run_case proc-self-mem rmsnorm bf16 "$out/so/proc_self_mem.so" fail "process tampering" 300
run_case got-patch rmsnorm bf16 "$out/so/got_patch.so" fail "process tampering" 300

# ---- timing stability: the same candidate measured 5 times; spread of the medians per shape
bench=()
if [ $quick -eq 0 ]; then
  echo "== timing stability (skill reference kernel, rmsnorm bf16, 5 runs)"
  for i in 1 2 3 4 5; do
    run_case "stability-$i" rmsnorm bf16 "$out/so/skill_reference.so" pass "" 300 >/dev/null
  done
  for shape in flux-hidden flux-qk-norm ltx-hidden odd-width; do
    medians=""
    for i in 1 2 3 4 5; do
      m="$(grep -o "\"shape\":\"$shape\",\"dims\":\"[^\"]*\",\"candidate\":{\"median_us\":[0-9.e+-]*" \
        "$out/verdicts/stability-$i.verdict" | sed 's/.*median_us"://')"
      medians="$medians $m"
    done
    if [ -z "${medians// /}" ]; then
      bench+=("$(printf '%-14s no timing in the verdicts' "$shape")")
      continue
    fi
    sorted="$(printf '%s\n' $medians | sort -g | tr '\n' ' ')"
    bench+=("$(echo "$sorted" | awk -v s="$shape" '{n=NF; med=(n%2)?$((n+1)/2):($(n/2)+$(n/2+1))/2;
      printf "%-14s medians(us): %s spread %.2f%%", s, $0, (med>0)?100*($n-$1)/med:0}')")
  done
fi

elapsed=$(( $(date +%s) - started ))
{
  echo
  echo "GPU kernel validation — $gpu ($arch), $(date -u '+%Y-%m-%d %H:%M UTC'), ${elapsed}s"
  echo
  printf '%-26s %-16s %-5s %-5s %-10s %5s  %s\n' case task dtype want result time "verdict reason"
  for r in "${results[@]}"; do echo "$r"; done
  if [ ${#bench[@]} -gt 0 ]; then
    echo
    echo "timing stability (goal: spread under 1%):"
    for b in "${bench[@]}"; do echo "  $b"; done
  fi
  echo
  echo "$failures case(s) not as expected"
} | tee "$out/gpu-validation.txt"
[ $failures -eq 0 ]
