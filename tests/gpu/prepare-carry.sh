#!/usr/bin/env bash
# tests/gpu/prepare-carry.sh — run here before a GPU session. The GPU machine reaches no package registry and has
# no Qt, so what tests/gpu/run.sh needs beyond the source tree is made here, in build/gpu-carry/ (ignored by git),
# the one folder to carry there (the device tool's carry: ["build/gpu-carry"]):
#
#   seccomp/                libseccomp's headers and static library: the runner's process guard links them where the
#                           GPU machine has no libseccomp-dev (a few hundred KiB)
#   runner-before/          the runner's source as it was before the 2026 defences (commit 9efe20b), which run.sh
#                           times beside today's runner: issue 17 allows them 25% of a normal check
#   skillforge-cli.tar.xz   skillforge's command line and bubblewrap with every library they load, glibc's loader
#                           included, so that they start on any x86-64 Linux: the product's own path (a kernel
#                           check through the sandbox, a cached rebuild, runs rejudge) on the GPU
#   flagship-runs/          the flagship run(s) to judge there, made here by the embedded model into
#                           build/flagship-runs, else the one in docs/flagship (files over 1 MiB left behind)
#
# Environment: SKILLFORGE_BIN (default build/ci/bin/skillforge).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
carry="$root/build/gpu-carry"
mkdir -p "$carry"

# ---- libseccomp
dest="$carry/seccomp"
header="$(echo '#include <seccomp.h>' | ${CXX:-c++} -H -E -x c++ - 2>&1 >/dev/null | sed -n 's/^\. //p' | head -1)"
library="$(${CXX:-c++} -print-file-name=libseccomp.a)"
if [ ! -f "$header" ] || [ ! -f "$library" ]; then
  echo "prepare-carry: libseccomp-dev is not installed here (run scripts/setup)" >&2
  exit 1
fi
rm -rf "$dest"
mkdir -p "$dest/include" "$dest/lib"
cp "$(dirname "$header")"/seccomp.h "$(dirname "$header")"/seccomp-syscalls.h "$dest/include/"
cp "$library" "$dest/lib/"

# ---- the runner before issue 17's defences (the 25% budget is measured against it)
before_commit=9efe20b
rm -rf "$carry/runner-before"
mkdir -p "$carry/runner-before"
if git -C "$root" cat-file -e "$before_commit^{commit}" 2>/dev/null; then
  git -C "$root" archive "$before_commit" core/kernels/runner core/kernels/harness | tar -x -C "$carry/runner-before"
else
  echo "prepare-carry: commit $before_commit is not in this clone; the overhead comparison will be skipped" >&2
fi

# ---- skillforge's command line and bubblewrap, self-contained
skillforge="${SKILLFORGE_BIN:-$root/build/ci/bin/skillforge}"
bwrap="$(command -v bwrap || true)"
if [ ! -x "$skillforge" ] || [ -z "$bwrap" ]; then
  echo "prepare-carry: build skillforge first (scripts/test or cmake --build build/ci) and install bubblewrap" >&2
  exit 1
fi
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
cli="$stage/skillforge-cli"
mkdir -p "$cli/bin" "$cli/lib" "$cli/path"
cp "$skillforge" "$bwrap" "$cli/bin/"
loader=""
for program in "$skillforge" "$bwrap"; do
  while read -r name arrow path _; do
    if [ "$arrow" = "=>" ] && [ -f "$path" ]; then
      cp -L "$path" "$cli/lib/$name"
    elif [[ "$name" == /*ld-linux* ]]; then
      loader="$name"
    fi
  done < <(ldd "$program")
done
[ -n "$loader" ] || { echo "prepare-carry: ldd named no dynamic loader" >&2; exit 1; }
cp -L "$loader" "$cli/lib/$(basename "$loader")"
# Started through the carried loader, the programs use the carried glibc and libraries whatever the GPU machine
# has; the programs they start (nvcc, the sandboxed runner) use the machine's own, as --library-path is not
# inherited.
for program in skillforge bwrap; do
  cat >"$cli/path/$program" <<EOF
#!/bin/sh
here="\$(cd "\$(dirname "\$0")/.." && pwd)"
exec "\$here/lib/$(basename "$loader")" --library-path "\$here/lib" "\$here/bin/$program" "\$@"
EOF
  chmod +x "$cli/path/$program"
done
# Every library must resolve inside the bundle, else the GPU machine would need it too.
for program in skillforge bwrap; do
  outside="$("$cli/lib/$(basename "$loader")" --library-path "$cli/lib" --list "$cli/bin/$program" |
    awk '$2 == "=>" && index($3, "'"$cli/lib/"'") != 1 {print $1 " => " $3}')"
  if [ -n "$outside" ]; then
    echo "prepare-carry: $program loads libraries from outside the bundle:" >&2
    echo "$outside" >&2
    exit 1
  fi
done
env -i PATH="$cli/path:/usr/bin:/bin" "$cli/path/skillforge" --version >/dev/null
env -i PATH="$cli/path:/usr/bin:/bin" "$cli/path/bwrap" --version >/dev/null
echo "prepare-carry: packing skillforge's command line (about a minute)"
tar -c -C "$stage" skillforge-cli | xz -T0 -6 >"$carry/skillforge-cli.tar.xz.part"
mv "$carry/skillforge-cli.tar.xz.part" "$carry/skillforge-cli.tar.xz"

# ---- the flagship run(s), made here: skillforge eval ... --out build/flagship-runs, else the one kept in docs/flagship.
# A student's command may have left big files in its workspace (up to the sandbox's 256 MiB per file); the kernels
# rejudge reads are small, so files over 1 MiB stay behind, each named.
rm -rf "$carry/flagship-runs"
runs_from="$root/build/flagship-runs"
ls -d "$runs_from"/*/run.json >/dev/null 2>&1 || runs_from="$root/docs/flagship"
if ls -d "$runs_from"/*/run.json >/dev/null 2>&1; then
  mkdir -p "$carry/flagship-runs"
  for run in "$runs_from"/*/; do
    [ -f "$run/run.json" ] || continue
    id="$(basename "$run")"
    mkdir -p "$carry/flagship-runs/$id"
    (cd "$run" && find . -type f -size -1025k -exec cp --parents -p -t "$carry/flagship-runs/$id/" {} +)
    (cd "$run" && find . -type f -size +1024k -printf "prepare-carry: left behind from $id: %p (%s bytes)\n")
  done
  echo "prepare-carry: flagship run(s) from ${runs_from#"$root"/}: $(ls "$carry/flagship-runs" | tr '\n' ' ')"
else
  echo "prepare-carry: no flagship run in build/flagship-runs or docs/flagship; run.sh will judge none"
fi

du -sh "$carry"/* | sed 's/^/prepare-carry: /'
total_kib="$(du -sk "$carry" | cut -f1)"
tree_kib="$(git -C "$root" ls-files -z --cached --others --exclude-standard |
  (cd "$root" && du -ck --files0-from=- 2>/dev/null) | tail -1 | cut -f1)"
echo "prepare-carry: $((total_kib / 1024)) MiB to carry + $((tree_kib / 1024)) MiB of working tree" \
  "(the device tool takes 64 MiB in all)"
if [ $((total_kib + tree_kib)) -gt $((62 * 1024)) ]; then
  echo "prepare-carry: too large to travel" >&2
  exit 1
fi
echo "prepare-carry: carry build/gpu-carry to the GPU machine (the device tool's carry: [\"build/gpu-carry\"])"
