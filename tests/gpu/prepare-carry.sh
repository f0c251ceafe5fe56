#!/usr/bin/env bash
# tests/gpu/prepare-carry.sh — run here before a GPU session. The GPU machine reaches no package registry, and the
# kernel runner's process guard needs libseccomp's headers and library to build (libseccomp-dev, which
# scripts/setup installs here). This copies them from this machine into build/gpu-carry/seccomp/ (ignored by git,
# a few hundred KiB), a folder to carry to the GPU machine; tests/gpu/run.sh builds with it where the machine has
# no libseccomp-dev of its own. The library is linked statically, so nothing of it is needed there at run time.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
dest="$root/build/gpu-carry/seccomp"
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
du -sh "$dest" | sed 's/^/prepare-carry: /'
echo "prepare-carry: carry build/gpu-carry to the GPU machine (the device tool's carry: [\"build/gpu-carry\"])"
