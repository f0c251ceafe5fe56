#!/usr/bin/env bash
# tests/gpu/run.sh — the GPU half of the kernel tests, for a machine with an NVIDIA GPU, CUDA and a C++
# compiler (Qt is not needed). In one go, in this order:
#
#   validation  builds skillforge-kernel-runner and every candidate with the flags Skillforge uses, runs every
#               bundled task's baseline in every dtype (all must pass) and every adversarial candidate (each must
#               be rejected for its own reason), and checks each signed verdict
#   product     Skillforge's own path: `skillforge kernel check` through the sandbox, twice (the second build must
#               come from the cache), then `skillforge runs rejudge` on each run in build/gpu-carry/flagship-runs
#   (stability) with validation: five checks of one kernel, the spread of their medians per shape
#   overhead    times a normal check with today's runner and with the runner before the 2026 defences
#               (build/gpu-carry/runner-before, from tests/gpu/prepare-carry.sh): issue 17 allows 25%
#
#   tests/gpu/run.sh [--quick] [PHASE...]   PHASE: validation, overhead, product (default: all three);
#                                           --quick: no timing-stability runs and no overhead phase
#
# Environment:
#   TIME_LIMIT_S    start no case after this many seconds (the cases left are reported as not run): a GPU loan's
#                   call has a hard limit, and what ran is worth more than a run killed before its table
#   OUT_DIR         work folder (default build/gpu)
#   RESULTS_DIR     where gpu-validation.txt, verdicts.tar.gz and the judged runs go (default OUT_DIR)
#   RUNNER          a runner already built: skip building it
#   NVCC            default nvcc on PATH, else /usr/local/cuda/bin/nvcc
#   SKILLFORGE      a skillforge binary (default: the carried build/gpu-carry/skillforge-cli.tar.xz)
#   FLAGSHIP_RUNS   the runs to rejudge (default build/gpu-carry/flagship-runs)
#   HANG_TIMEOUT_S  the hanging candidate's limit (60)
# Exit codes: 0 every case as expected, 1 some case not as expected or a listed GPU the runner cannot use,
# 77 no GPU here (skipped).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${OUT_DIR:-$root/build/gpu}"
results_dir="${RESULTS_DIR:-$out}"
carry="$root/build/gpu-carry"
quick=0
phases=()
for arg in "$@"; do
  case "$arg" in
    --quick) quick=1 ;;
    validation | overhead | product) phases+=("$arg") ;;
    *) echo "usage: tests/gpu/run.sh [--quick] [validation] [overhead] [product]" >&2; exit 2 ;;
  esac
done
[ ${#phases[@]} -eq 0 ] && phases=(validation overhead product) && [ $quick -eq 1 ] && phases=(validation product)
want() { [[ " ${phases[*]} " == *" $1 "* ]]; }

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
cuda_driver="$(nvidia-smi | sed -n 's/.*CUDA Version: *\([0-9.]*\).*/\1/p' | head -1)"
nvcc_version="$("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
cuda_lib="$(cd "$(dirname "$nvcc")/.." && pwd)/lib64"
rm -rf "$out/verdicts" # a rerun's verdicts are its own; the builds in $out/so are reused while their sources are older
mkdir -p "$out/so" "$out/verdicts" "$results_dir"
started=$(date +%s)
echo "GPU: $gpu, $arch; CUDA driver API $cuda_driver; nvcc $nvcc_version; phases: ${phases[*]}; output in $out"
echo "machine: $(uname -sr), $(ldd --version 2>&1 | head -1), $(nproc) CPUs; LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
echo "libcuda in the loader's cache: $(ldconfig -p 2>/dev/null | grep -c 'libcuda\.so') entries"

time_limit="${TIME_LIMIT_S:-86400}"
seconds_left() { echo $((started + time_limit - $(date +%s))); }
seconds_since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

# ---- the runner (no Qt): its own CMake project, or nvcc directly where there is no cmake or no system libseccomp
# (then the copy tests/gpu/prepare-carry.sh made and the session carried, linked statically).
runner="${RUNNER:-}"
seccomp=(-lseccomp)
system_seccomp=1
if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libseccomp; then
  system_seccomp=0
  if [ -z "$runner" ] && [ ! -f "$carry/seccomp/include/seccomp.h" ]; then
    echo "FAIL: no libseccomp here (libseccomp-dev) and none carried: run tests/gpu/prepare-carry.sh on the" \
      "build machine and carry build/gpu-carry"
    exit 1
  fi
  seccomp=(-I"$carry/seccomp/include" "$carry/seccomp/lib/libseccomp.a")
  echo "libseccomp: the carried copy (build/gpu-carry), linked statically"
fi
# A runner built with nvcc: full RELRO as the CMake build links it, and the CUDA runtime's folder on its run path,
# since the sandbox clears LD_LIBRARY_PATH.
build_runner_with_nvcc() { # source-root output [libraries...]
  local source=$1 output=$2
  shift 2
  "$nvcc" -O2 -std=c++17 -cudart shared -arch=compute_75 -I"$source/core/kernels" \
    "$source/core/kernels/runner/kernel_runner.cu" "$source"/core/kernels/harness/*.cpp "$@" -ldl \
    -Xlinker -z,relro,-z,now -Xlinker -rpath,"$cuda_lib" -o "$output"
}
if [ -z "$runner" ]; then
  if [ "$system_seccomp" = 1 ] && command -v cmake >/dev/null 2>&1; then
    cmake -S "$root/core/kernels/runner" -B "$out/runner" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CUDA_COMPILER="$nvcc" >"$out/runner-build.log" 2>&1 &&
      cmake --build "$out/runner" -j >>"$out/runner-build.log" 2>&1 || { cat "$out/runner-build.log"; exit 1; }
    runner="$out/runner/skillforge-kernel-runner"
  else
    build_runner_with_nvcc "$root" "$out/skillforge-kernel-runner" "${seccomp[@]}" || exit 1
    runner="$out/skillforge-kernel-runner"
  fi
fi
# nvidia-smi listed a GPU above: a runner that cannot use it is broken, not a machine without a GPU.
if ! "$runner" device; then
  echo "FAIL: nvidia-smi lists a GPU, but the kernel runner cannot use it ($runner device failed)"
  exit 1
fi

# ---- candidates and baselines, built as KernelBuilder builds them
flags=(-O3 -std=c++17 -shared -Xcompiler -fPIC -cudart shared -lineinfo -gencode "arch=compute_${cap},code=${arch}")
build() { # source output
  [ -f "$2" ] && [ "$2" -nt "$1" ] && return 0
  "$nvcc" "${flags[@]}" "$1" -o "$2" >"$2.log" 2>&1 || { echo "build failed: $1"; cat "$2.log"; return 1; }
}
jobs_max="$(nproc 2>/dev/null || echo 4)"
throttle() { while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done; }
if want validation || want overhead; then
  t0=$(date +%s.%N)
  awk '/^```cuda/{f=1;next} /^```/{if(f){exit}} f' \
    "$root/resources/sample-project/skills/diffusers-cuda-rmsnorm/references/rmsnorm-reference.md" >"$out/skill_reference.cu"
  pids=()
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
  echo "built the baselines and candidates in $(seconds_since "$t0") s"
fi

# ---- one run: a fresh key and nonce, the verdict on fd 3, stdout and stderr kept apart. CASE_RUNNER overrides the
# runner for one case (the overhead phase's runner before the defences).
results=()
failures=0
not_run=0
row() { printf '%-26s %-16s %-5s %-5s %-10s %7s  %s' "$@"; } # case task dtype want result time reason
out_of_time() { # name: true (and the case is reported as not run) when TIME_LIMIT_S has passed
  [ "$(seconds_left)" -gt 0 ] && return 1
  results+=("$(row "$1" - - - "NOT RUN" - "TIME_LIMIT_S (${time_limit}s) reached")")
  echo "${results[-1]}"
  printf '%s\n' "${results[-1]}" >"$out/verdicts/$1.line"
  not_run=$((not_run + 1))
}
run_case() { # name task dtype candidate.so expect(pass|fail) why-substring timeout [runner args...]
  local name=$1 task=$2 dtype=$3 so=$4 expect=$5 why=$6 limit=$7
  shift 7
  out_of_time "$name" && return 0
  local use="${CASE_RUNNER:-$runner}" key nonce vfile="$out/verdicts/$name.verdict"
  key="$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')"
  nonce="$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')"
  printf '%s' "$key" >"$out/$name.key"
  printf '%s' "$key" >"$out/$name.key.check"
  local t0
  t0=$(date +%s.%N)
  timeout -s KILL "$limit" "$use" run --task "$root/resources/kernels/$task/task.json" --dtype "$dtype" \
    --candidate "$so" --baseline "$out/so/baseline_$task.so" --key-file "$out/$name.key" --nonce "$nonce" \
    --verdict-fd 3 "$@" 3>"$vfile" >"$out/verdicts/$name.stdout" 2>"$out/verdicts/$name.stderr"
  local rc=$? secs
  secs="$(seconds_since "$t0")"
  local body verdict reason
  body="$("$use" verify --key-file "$out/$name.key.check" --nonce "$nonce" --in "$vfile")"
  case $? in
    0) verdict=pass ;;
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
  printf '%s\n' "$secs" >"$out/verdicts/$name.seconds"
  results+=("$(row "$name" "$task" "$dtype" "$expect" "$ok" "${secs}s" "${reason:0:90}")")
  echo "${results[-1]}"
  printf '%s\n' "${results[-1]}" >"$out/verdicts/$name.line"
}
# Cases started in the background report through their .line files.
background=()
run_in_background() { # the arguments of run_case
  throttle
  rm -f "$out/verdicts/$1.line"
  run_case "$@" >/dev/null &
  background+=("$1")
}
collect_background() {
  wait
  local name line
  for name in "${background[@]}"; do
    line="$(cat "$out/verdicts/$name.line" 2>/dev/null || printf '%-26s did not report' "$name")"
    results+=("$line")
    echo "$line"
    case "$line" in
      *UNEXPECTED* | *"did not report"*) failures=$((failures + 1)) ;;
      *"NOT RUN"*) not_run=$((not_run + 1)) ;;
    esac
  done
  background=()
}
bench=()
median_of_files() {
  cat "$@" 2>/dev/null | sort -g | awk '{v[NR]=$1} END {if (NR) print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'
}
# A shape's candidate timing from a verdict: "median_us samples".
shape_timing() { # verdict-file shape
  grep -o "\"shape\":\"$2\",\"dims\":\"[^\"]*\",\"candidate\":{[^}]*}" "$1" 2>/dev/null |
    sed -n 's/.*"median_us":\([0-9.e+-]*\).*"samples":\([0-9]*\).*/\1 \2/p' | head -1
}
shapes="$(tr -d '\n' <"$root/resources/kernels/rmsnorm/task.json" | grep -o '"name"[[:space:]]*:[[:space:]]*"[^"]*"' |
  sed 's/.*"\([^"]*\)"$/\1/' | tr '\n' ' ')"

# ==== validation
if want validation; then
  echo "== untimed checks, several at once (the float64 reference is host work): every bundled task's baseline in"
  echo "   every dtype its task.json lists, and the adversarial candidates that need no timing"
  # The hang first, so that its minute overlaps the rest.
  run_in_background infinite-loop rmsnorm bf16 "$out/so/infinite_loop.so" fail "timeout" "${HANG_TIMEOUT_S:-60}" --no-timing
  for task in "$root"/resources/kernels/*/; do
    t="$(basename "$task")"
    # "dtypes": ["bf16", "fp16", "fp32"] -> bf16 fp16 fp32 (sed, so that the script needs no JSON tool)
    dtypes="$(tr -d '\n' <"$task/task.json" | sed -n 's/.*"dtypes"[[:space:]]*:[[:space:]]*\[\([^]]*\)\].*/\1/p' | tr -d '", ' | sed 's/\(bf16\|fp16\|fp32\)/\1 /g')"
    [ -z "$dtypes" ] && dtypes=bf16
    for dtype in $dtypes; do
      run_in_background "baseline-$t-$dtype" "$t" "$dtype" "$out/so/baseline_$t.so" pass "" 300 --no-timing
    done
  done
  run_in_background no-op rmsnorm bf16 "$out/so/noop.so" fail "outside the tolerance" 300 --no-timing
  run_in_background copy-of-input rmsnorm bf16 "$out/so/copy_input.so" fail "outside the tolerance" 300 --no-timing
  run_in_background oob-write rmsnorm bf16 "$out/so/oob_write.so" fail "out of bounds" 300 --no-timing
  run_in_background oob-far rmsnorm bf16 "$out/so/oob_far.so" fail "illegal" 300 --no-timing
  run_in_background forged-stdout rmsnorm bf16 "$out/so/forged_stdout.so" fail "" 300 --no-timing
  run_in_background forged-fd3 rmsnorm bf16 "$out/so/forged_fd3.so" fail "not authentic" 300 --no-timing
  run_in_background exits rmsnorm bf16 "$out/so/exits.so" fail "" 300 --no-timing
  run_in_background nan-wildcard rmsnorm bf16 "$out/so/nan_fill.so" fail "got -\?nan" 300 --no-timing
  collect_background

  echo "== timed checks, one at a time: the skill's reference kernel, and the candidates that cheat while timed"
  run_case skill-reference rmsnorm bf16 "$out/so/skill_reference.so" pass "" 300
  run_case cache-by-pointer rmsnorm bf16 "$out/so/cache_by_pointer.so" fail "" 300
  # Caught by the stream check, or else by its timing: host time beyond event time is work the events missed.
  run_case side-stream rmsnorm bf16 "$out/so/side_stream.so" fail "outside the harness's stream\|outside the timed stream" 300
  # Goes wrong at its 101st call: in the first checked timed calls (issue 17), or at the re-validation.
  run_case correct-then-wrong rmsnorm bf16 "$out/so/correct_then_wrong.so" fail "timed call\|re-validation\|speed-of-light" 300
  # 2026's reward hacks (issue 17): each is caught by the defence named in docs/kernel-runner.md
  run_case replay-across-phases rmsnorm bf16 "$out/so/replay_across_phases.so" fail "timed call" 300
  run_case skip-timed-calls rmsnorm bf16 "$out/so/skip_timed_calls.so" fail "timed call" 300
  run_case l2-persistence rmsnorm bf16 "$out/so/l2_persist.so" fail "persisting-L2" 300
  run_case replay-by-pointer rmsnorm bf16 "$out/so/replay_by_pointer.so" fail "timed call" 300
  run_case ptrace-runner rmsnorm bf16 "$out/so/ptrace_runner.so" fail "process tampering.*ptrace" 300
  run_case proc-self-mem rmsnorm bf16 "$out/so/proc_self_mem.so" fail "process tampering" 300
  run_case got-patch rmsnorm bf16 "$out/so/got_patch.so" fail "process tampering" 300
fi

# ==== product: skillforge's own kernel check and rejudge, through its sandbox
if want product; then
  skillforge="${SKILLFORGE:-}"
  if [ -z "$skillforge" ] && [ -f "$carry/skillforge-cli.tar.xz" ]; then
    rm -rf "$out/cli" && mkdir -p "$out/cli"
    if tar -xJf "$carry/skillforge-cli.tar.xz" -C "$out/cli" 2>"$out/cli/untar.log" ||
      python3 -c "import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" \
        "$carry/skillforge-cli.tar.xz" "$out/cli"; then
      skillforge="$out/cli/skillforge-cli/path/skillforge"
      export PATH="$out/cli/skillforge-cli/path:$PATH" # its bubblewrap too
    fi
  fi
  if [ -z "$skillforge" ]; then
    echo "SKIP product: no skillforge here (set SKILLFORGE, or carry build/gpu-carry from tests/gpu/prepare-carry.sh)"
    bench+=("product: not run (no skillforge binary)")
  else
    echo "== product: skillforge kernel check through the sandbox, twice (the second build from the cache)"
    # A home of its own: an empty kernel-build cache, no settings or keys of the machine's user.
    export HOME="$out/home" XDG_CONFIG_HOME="$out/home/.config" XDG_CACHE_HOME="$out/home/.cache"
    export XDG_DATA_HOME="$out/home/.local/share" SKILLFORGE_KERNEL_RUNNER="$runner"
    rm -rf "$HOME" && mkdir -p "$HOME"
    "$skillforge" --version
    for attempt in cold cached; do
      out_of_time "kernel-check-$attempt" && continue
      t0=$(date +%s.%N)
      "$skillforge" kernel check rmsnorm --candidate "$root/resources/kernels/rmsnorm/baseline.cu" --dtype bf16 --json \
        >"$out/product-$attempt.json" 2>"$out/product-$attempt.stderr"
      rc=$?
      secs="$(seconds_since "$t0")"
      facts="$(tr -d '\n ' <"$out/product-$attempt.json" |
        sed -n 's/.*"build_ms":\([0-9]*\).*"from_cache":\(true\|false\).*/build \1 ms, from cache: \2/p')"
      reason="$(tr -d '\n' <"$out/product-$attempt.json" | sed -n 's/.*"reason": *"\([^"]*\)".*/\1/p' | tail -1)"
      ok=OK
      want_cache=false
      [ $attempt = cached ] && want_cache=true
      if [ $rc -ne 0 ] || [[ "$facts" != *"from cache: $want_cache"* ]]; then
        ok=UNEXPECTED
        failures=$((failures + 1))
        cat "$out/product-$attempt.stderr"
      fi
      results+=("$(row "kernel-check-$attempt" rmsnorm bf16 pass "$ok" "${secs}s" "exit $rc; $facts; ${reason:0:60}")")
      echo "${results[-1]}"
    done

    for run in "${FLAGSHIP_RUNS:-$carry/flagship-runs}"/*/; do
      [ -f "$run/run.json" ] || continue
      id="$(basename "$run")"
      out_of_time "rejudge-${id##*-}" && continue
      echo "== product: skillforge runs rejudge $id (the flagship run, made without a GPU)"
      rm -rf "$out/flagship/$id" && mkdir -p "$out/flagship" && cp -r "$run" "$out/flagship/$id"
      lines_before="$(wc -l <"$out/flagship/$id/results.jsonl")"
      t0=$(date +%s.%N)
      timeout -s INT "$(seconds_left)" "$skillforge" runs rejudge "$out/flagship/$id" \
        --tests "$root/resources/sample-project/tests/rmsnorm-kernels.json" \
        --skill "$root/resources/sample-project/skills/diffusers-cuda-rmsnorm" 2>&1 | tee "$out/rejudge-$id.log"
      rc=${PIPESTATUS[0]}
      secs="$(seconds_since "$t0")"
      ok=OK
      if [ $rc -ne 0 ]; then
        ok=UNEXPECTED
        failures=$((failures + 1))
      fi
      appended=$(($(wc -l <"$out/flagship/$id/results.jsonl") - lines_before))
      results+=("$(row "rejudge-${id##*-}" rmsnorm bf16 "done" "$ok" "${secs}s" "exit $rc; verdicts appended: $appended")")
      echo "${results[-1]}"
      tar -czf "$results_dir/flagship-judged-$id.tar.gz" -C "$out/flagship" "$id"
    done
  fi
fi

# ==== timing stability (after the product phase: the cases above matter more when time runs short)
if want validation && [ $quick -eq 0 ]; then
  echo "== timing stability (skill reference kernel, rmsnorm bf16, 5 runs)"
  for i in 1 2 3 4 5; do
    run_case "stability-$i" rmsnorm bf16 "$out/so/skill_reference.so" pass "" 300
  done
  for shape in $shapes; do
    medians=()
    for i in 1 2 3 4 5; do
      m="$(shape_timing "$out/verdicts/stability-$i.verdict" "$shape" | cut -d' ' -f1)"
      [ -n "$m" ] && medians+=("$m")
    done
    if [ ${#medians[@]} -eq 0 ]; then
      bench+=("$(printf 'stability %-14s no timing in the verdicts' "$shape")")
      continue
    fi
    sorted="$(printf '%s\n' "${medians[@]}" | sort -g | tr '\n' ' ')"
    bench+=("$(echo "$sorted" | awk -v s="$shape" '{n=NF; med=(n%2)?$((n+1)/2):($(n/2)+$(n/2+1))/2;
      printf "stability %-14s medians(us): %s spread %.2f%% (goal: under 1%%)", s, $0, (med>0)?100*($n-$1)/med:0}')")
  done
fi

# ==== overhead: today's runner against the one before issue 17's defences, same kernel, alternating
if want overhead; then
  if [ ! -f "$carry/runner-before/core/kernels/runner/kernel_runner.cu" ]; then
    echo "SKIP overhead: no build/gpu-carry/runner-before (run tests/gpu/prepare-carry.sh here first)"
    bench+=("overhead: not measured (no build/gpu-carry/runner-before)")
  elif ! build_runner_with_nvcc "$carry/runner-before" "$out/runner-before" >"$out/runner-before-build.log" 2>&1; then
    cat "$out/runner-before-build.log"
    bench+=("overhead: not measured (the runner before the defences did not build)")
    failures=$((failures + 1))
  else
    echo "== overhead: a normal check (rmsnorm bf16, the baseline as candidate), before and after the defences"
    for who in before now; do
      use="$runner"
      [ "$who" = before ] && use="$out/runner-before"
      CASE_RUNNER="$use" run_case "overhead-untimed-$who-1" rmsnorm bf16 "$out/so/baseline_rmsnorm.so" pass "" 300 \
        --no-timing
    done
    for i in 1 2 3; do
      for who in before now; do
        use="$runner"
        [ "$who" = before ] && use="$out/runner-before"
        CASE_RUNNER="$use" run_case "overhead-$who-$i" rmsnorm bf16 "$out/so/baseline_rmsnorm.so" pass "" 300
      done
    done
    for kind in "" "untimed-"; do
      before="$(median_of_files "$out"/verdicts/overhead-"$kind"before-[123].seconds)"
      now="$(median_of_files "$out"/verdicts/overhead-"$kind"now-[123].seconds)"
      [ -z "$before" ] || [ -z "$now" ] && continue
      bench+=("$(awk -v k="${kind:-timed-}" -v b="$before" -v n="$now" 'BEGIN {
        printf "overhead %-8s check (median of the runs above): before %.1f s, now %.1f s: %+.1f%% (issue 17 allows +25%%)",
          substr(k, 1, length(k) - 1), b, n, (b > 0) ? 100 * (n - b) / b : 0 }')")
    done
    for shape in $shapes; do
      line="overhead $shape: kernel median (us)/timed samples, before |"
      for who in before now; do
        for i in 1 2 3; do line="$line $(shape_timing "$out/verdicts/overhead-$who-$i.verdict" "$shape" | tr ' ' '/')"; done
        [ $who = before ] && line="$line | now |"
      done
      [[ "$line" == *[0-9]/[0-9]* ]] && bench+=("$line")
    done
  fi
fi

elapsed=$(( $(date +%s) - started ))
{
  echo
  echo "GPU kernel validation — $gpu ($arch), CUDA driver API $cuda_driver, nvcc $nvcc_version,"
  echo "$(uname -r), $(date -u '+%Y-%m-%d %H:%M UTC'), ${elapsed}s"
  echo
  row case task dtype want result time "verdict reason"
  echo
  for r in "${results[@]}"; do echo "$r"; done
  if [ ${#bench[@]} -gt 0 ]; then
    echo
    for b in "${bench[@]}"; do echo "$b"; done
  fi
  echo
  echo "$failures case(s) not as expected, $not_run not run"
} | tee "$results_dir/gpu-validation.txt"
tar -czf "$results_dir/verdicts.tar.gz" -C "$out" verdicts 2>/dev/null
[ $failures -eq 0 ] && [ $not_run -eq 0 ]
