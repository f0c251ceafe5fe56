#!/usr/bin/env bash
# Runs each trace importer's libFuzzer target for a bounded time, on a copy of its corpus (the corpus in
# the repository is never written), and fails on any crash, leak, timeout or property violation.
#   run_trace_libfuzzer.sh SOURCE_DIR BUILD_DIR [SECONDS_PER_FORMAT]
# ctest runs it as test_fuzz_trace_libfuzzer. libFuzzer is clang's: without clang++ and its fuzzer runtime
# this exits 77 (skipped, never a pass). The clang build (tests/fuzz/libfuzzer) lives in BUILD_DIR and is
# reused, so a rerun only fuzzes. Crashing inputs are kept in BUILD_DIR/crashes/<format>/.
set -euo pipefail
source_dir=$1
build_dir=$2
seconds=${3:-10}

cxx=$(command -v clang++ || command -v clang++-14 || true)
if [ -z "$cxx" ]; then
  echo "SKIPPED: no clang++ (Debian: clang, libclang-rt-dev); the libFuzzer targets need clang" >&2
  exit 77
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char *, unsigned long) { return 0; }\n' > "$scratch/probe.cpp"
if ! "$cxx" -fsanitize=fuzzer "$scratch/probe.cpp" -o "$scratch/probe" 2> "$scratch/probe.log"; then
  echo "SKIPPED: $cxx cannot link libFuzzer (Debian: libclang-rt-dev): $(head -n 3 "$scratch/probe.log")" >&2
  exit 77
fi

if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  launcher=()
  if command -v ccache > /dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
  cmake -S "$source_dir/tests/fuzz/libfuzzer" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER="$cxx" "${launcher[@]}" > "$scratch/configure.log" 2>&1 || {
    cat "$scratch/configure.log" >&2
    exit 1
  }
fi
cmake --build "$build_dir" 2>&1 | tail -n 20

failed=()
for corpus in "$source_dir"/tests/fuzz/corpus/trace/*/; do
  format=$(basename "$corpus")
  target="$build_dir/fuzz_trace_${format//-/_}"
  work="$scratch/$format"
  mkdir -p "$work/corpus"
  cp "$corpus"* "$work/corpus/"
  if [ ! -x "$target" ]; then
    echo "FAIL $format: no libFuzzer target $target for this corpus folder"
    failed+=("$format")
    continue
  fi
  # The importer writes each input to a scratch file under TMPDIR; artifacts land in the work folder.
  if (cd "$work" && TMPDIR="$work" "$target" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
      -print_final_stats=1 corpus > log 2>&1); then
    echo "ok   $format: $(grep -o 'stat::number_of_executed_units: [0-9]*' "$work/log" | grep -o '[0-9]*$') inputs in ${seconds} s"
  else
    echo "FAIL $format:"
    tail -n 40 "$work/log"
    mkdir -p "$build_dir/crashes/$format"
    cp "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* "$build_dir/crashes/$format/" 2> /dev/null || true
    failed+=("$format")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "libFuzzer found problems in: ${failed[*]} (inputs kept in $build_dir/crashes/)"
  exit 1
fi
