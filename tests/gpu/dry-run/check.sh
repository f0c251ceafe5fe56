#!/usr/bin/env bash
# tests/gpu/dry-run/check.sh — runs tests/gpu/run.sh on a GPU that is not there (a stand-in nvidia-smi and
# kernel runner, this folder), so that a broken script is found here and not on a GPU's short loan. It also takes
# `skillforge kernel check` through its GPU path: the real sandbox, the stand-in runner's signed verdict, a cold
# build and a cached one. What a real GPU does is tests/gpu/run.sh's to prove, on one.
#
# Environment: REAL_RUNNER (the built skillforge-kernel-runner, for `verify`), SKILLFORGE (the built skillforge),
# OUT_DIR (work folder).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
: "${REAL_RUNNER:?set REAL_RUNNER to the built skillforge-kernel-runner}" "${SKILLFORGE:?set SKILLFORGE}"
if ! bwrap --unshare-all --ro-bind / / true 2>/dev/null; then
  echo "SKIP: bubblewrap cannot make a sandbox here, and skillforge's kernel check runs the runner only in one"
  exit 77
fi
out="${OUT_DIR:-$(mktemp -d)}"
log="$out/dry-run.log"
mkdir -p "$out"
PATH="$here:$PATH" RUNNER="$here/fake-runner" HANG_TIMEOUT_S=3 FLAGSHIP_RUNS="$out/no-flagship-runs" \
  OUT_DIR="$out/run" RESULTS_DIR="$out/results" "$here/../run.sh" validation product >"$log" 2>&1
rc=$?
cat "$log"
problems=0
expect() { # description pattern
  if ! grep -q -- "$2" "$log"; then
    echo "DRY RUN FAILED: $1 (no line matching '$2')"
    problems=$((problems + 1))
  fi
}
[ $rc -eq 0 ] || { echo "DRY RUN FAILED: run.sh exited $rc, not 0"; problems=$((problems + 1)); }
expect "every case as expected" "^0 case(s) not as expected, 0 not run$"
expect "a baseline in each dtype" "^baseline-rmsnorm-fp32 .* pass  OK"
expect "the hang killed" "^infinite-loop .* fail  OK .*killed at the 3s timeout"
expect "a forged verdict refused" "^forged-fd3 .* fail  OK .*not authentic"
expect "the last adversarial case" "^got-patch .* fail  OK .*process tampering"
expect "the cold build" "^kernel-check-cold .* OK .*exit 0; build [0-9]* ms, from cache: false"
expect "the cached build" "^kernel-check-cached .* OK .*exit 0; build [0-9]* ms, from cache: true"
expect "a spread per shape" "^stability flux-hidden .*medians(us): [0-9.]* [0-9.]* [0-9.]* [0-9.]* [0-9.]* *spread"
# A GPU that nvidia-smi lists but the runner cannot use is a failure, never a skip.
PATH="$here:$PATH" RUNNER="$here/fake-runner" FAKE_RUNNER_NO_DEVICE=1 OUT_DIR="$out/broken" \
  RESULTS_DIR="$out/broken-results" "$here/../run.sh" validation >"$out/broken.log" 2>&1
broken_rc=$?
if [ $broken_rc -ne 1 ] || ! grep -q "^FAIL: nvidia-smi lists a GPU, but the kernel runner cannot use it" "$out/broken.log"; then
  echo "DRY RUN FAILED: a runner that cannot use the listed GPU exited $broken_rc, not 1 with its reason:"
  sed 's/^/  | /' "$out/broken.log"
  problems=$((problems + 1))
fi
[ -s "$out/results/gpu-validation.txt" ] || { echo "DRY RUN FAILED: no gpu-validation.txt"; problems=$((problems + 1)); }
[ $problems -eq 0 ] && echo "dry run: as expected"
[ $problems -eq 0 ]
