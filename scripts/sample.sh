#!/usr/bin/env bash
# Set-up and main job: installs what the build needs, builds build/bin/assbin, and runs it on a
# dump bundled in the repository (a skinned, animated FBX import written by Assimp 5.2.5).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DASSBIN_BUILD_TESTS=OFF >/dev/null
cmake --build build --target assbin_cli -j "$(nproc)"

sample=tests/data/assimp-5.2.5/FBX__huesitos.fbx.assbin
echo
echo "\$ build/bin/assbin info $sample"
build/bin/assbin info "$sample"
echo
echo "\$ build/bin/assbin tree --depth 3 $sample"
build/bin/assbin tree --depth 3 "$sample"
